// Geometrically exact beam elements with implicitly defined generalized strains (Meijaard,
// "Generalized strains defined implicitly", Multibody Syst. Dyn., SPACAR family): an element
// over two beam nodes, each a position and the orientation of its cross-section (x along the
// beam axis, y and z the principal axes of the section). A few strains ε — constant axial
// strain, linear torsion and curvatures, shear tied to the curvature slopes — are related to the
// nodes by integrating the kinematic ODEs of the centre line over the element (Simpson for the
// planar element, 3-stage Lobatto IIIA for the quaternion ODE of the spatial one):
// C(x, ε) = 0. The strain energy is ½ (ε − ε0)ᵀ S (ε − ε0).
//
// Here the nodes are the coordinates and the strains are dependent: each evaluation solves the
// element's own strains from its nodes (a local Newton on C = 0; where there are more strains
// than constraints, the linear-torsion element, the one that minimises the strain energy), and
// the element acts on its nodes with the generalized forces −C_xᵀ μ, μ the multipliers of that
// local problem (dV/dx = μᵀ C_x at the constrained minimum). So a beam element is a force
// element of the System and works with every integrator and the static equilibrium.
#pragma once

#include "core/system/contract.h"

#include <optional>
#include <vector>

namespace flexim {

enum class BeamFormulationKind {
  Spatial,                 ///< 7 strains: axial, linear torsion, two linear curvatures
  SpatialConstantTorsion,  ///< 6 strains: the torsion constant over the element
  Planar,                  ///< 3 strains in the plane of the first node's x and y axes at t = 0
};

/// "spatial", "spatial_constant_torsion", "planar"; false for another name.
bool beamFormulationFromName(const std::string& name, BeamFormulationKind& out);
const std::vector<std::string>& beamFormulationNames();

/// Rigidities and inertia per length of a uniform section.
struct BeamSection {
  double EA = 0.0;   ///< [N]
  double EIy = 0.0;  ///< [N m^2] bending about the section's y axis
  double EIz = 0.0;  ///< [N m^2] bending about z (the planar element's bending)
  double GJ = 0.0;   ///< [N m^2] torsional rigidity S_t
  double GAky = 0.0;  ///< [N] shear rigidity along y; 0 = no shear (rigid in shear)
  double GAkz = 0.0;  ///< [N] shear rigidity along z; 0 = no shear
  double rhoA = 0.0;   ///< [kg/m]
  double rhoIy = 0.0;  ///< [kg m] rotary inertia per length about y
  double rhoIz = 0.0;  ///< [kg m]
};

/// A node of an element: its position and its section axes -> global (unit quaternion).
struct BeamNodePose {
  Vec3 r = Vec3::Zero();
  Quat p = Quat::Identity();
};

/// The element's strains at a configuration of its nodes.
struct BeamSolution {
  VecX strains;   ///< ε
  VecX stresses;  ///< generalized stresses σ = S (ε − ε0)
  VecX mu;        ///< multipliers of the element's constraints
  MatX dC_dx;     ///< rows × 12: over [δr_p (global), δθ_p (node axes), δr_q, δθ_q]
  MatX dC_de;     ///< rows × strains
  int iterations = 0;
  bool converged = false;
  /// The generalized forces on the nodes, −C_xᵀ μ: [force_p (global), torque_p (node axes), ...].
  Eigen::Matrix<double, 12, 1> nodeForces() const;
};

/// Stress resultants at a point of the element, in its section axes.
struct BeamResultants {
  double N = 0.0;   ///< [N] axial force
  double Qy = 0.0;  ///< [N] shear forces
  double Qz = 0.0;
  double T = 0.0;   ///< [N m] torque
  double My = 0.0;  ///< [N m] bending moments
  double Mz = 0.0;
};

class BeamElementKernel {
 public:
  /// l0 the undeformed length; initialCurvature [1/m] about the section's x, y, z axes (curved
  /// members; the planar element uses z); plane: columns e1, e2, e3 of the planar element's
  /// plane (e3 its normal), ignored by the spatial ones.
  BeamElementKernel(BeamFormulationKind kind, double l0, const BeamSection& section, const Vec3& initialCurvature,
                    const Mat3& plane = Mat3::Identity());

  BeamFormulationKind kind() const { return m_kind; }
  double length() const { return m_l0; }
  int strainCount() const { return int(m_e0.size()); }
  int rows() const { return m_kind == BeamFormulationKind::Planar ? 3 : 6; }
  const MatX& stiffness() const { return m_S; }
  const VecX& initialStrains() const { return m_e0; }
  const BeamSection& section() const { return m_section; }

  /// The constraint residual C(x, ε) (rows()).
  VecX constraints(const BeamNodePose& p, const BeamNodePose& q, const VecX& strains) const;
  /// Solves the element's strains for the nodes' poses, starting from `guess` (or an estimate from
  /// the nodes' relative pose when null). False (out.converged) when the local Newton fails.
  bool solve(const BeamNodePose& p, const BeamNodePose& q, const VecX* guess, BeamSolution& out) const;
  /// dε/dx (strains × 12) at a solution: the strain rates are this times the node velocities
  /// [ṙ_p, ω'_p, ṙ_q, ω'_q].
  MatX strainSensitivity(const BeamSolution& s) const;
  double strainEnergy(const BeamSolution& s) const;
  /// ∂f/∂x (12 × 12) of the node forces f = −C_xᵀ μ at a solution, over the node tangents: the
  /// material part from the strains' sensitivity (exact) and the geometric part from the
  /// second derivatives μᵀ C_ww (differences of the exact gradient), through the local problem's
  /// linearisation [S + μᵀC_εε, C_εᵀ; C_ε, 0].
  Eigen::Matrix<double, 12, 12> tangent(const BeamNodePose& p, const BeamNodePose& q, const BeamSolution& s) const;
  /// Node q's pose that fits node p with the given strains (C = 0 solved for node q; the
  /// spatial elements normalise the last Lobatto stage). With the initial strains: where a curved
  /// member's next node sits unstressed.
  BeamNodePose endNode(const BeamNodePose& p, const VecX& strains) const;
  /// Points of the centre line from node p at `count` equal steps of ξ (count + 1 points),
  /// integrated with the strains; with the initial strains it is the undeformed line.
  std::vector<Vec3> centreLine(const BeamNodePose& p, const VecX& strains, int count) const;
  /// Resultants at ξ ∈ [0, 1] from the strains less the initial ones (N = EA ε1, M = EI κ(ξ),
  /// T = GJ κx(ξ), Q_y = −dM_z/ds, Q_z = dM_y/ds).
  BeamResultants resultants(const VecX& strains, double xi) const;

  /// The strains of all seven of the spatial element (axial, torsion p/q, κy p/q, κz p/q) for a
  /// strain vector of this formulation; the planar element's (axial, κz p/q) land in 1, 6, 7.
  Eigen::Matrix<double, 7, 1> fullStrains(const VecX& strains) const;

 private:
  BeamFormulationKind m_kind;
  double m_l0;
  BeamSection m_section;
  Mat3 m_plane;
  double m_shearY = 0.0, m_shearZ = 0.0;  ///< Φ_y/12, Φ_z/12: shear strain per curvature difference
  VecX m_e0;
  MatX m_S;
};

/// A straight or curved member to be meshed into beam elements.
struct BeamMemberSpec {
  std::string name;                     ///< nodes name_0 … name_n, elements name_1 … name_n
  Vec3 start = Vec3::Zero();            ///< [m] first node
  Quat orientation = Quat::Identity();  ///< section axes at the start -> global (x along the member)
  double length = 1.0;                  ///< [m] along the centre line
  int elements = 4;
  BeamElementSpec element;              ///< formulation, section and material; its curvature bends the member
  bool clamp = false;   ///< addBeamMember: a fixed joint from the ground to the first node
  bool planar = false;  ///< addBeamMember: every free node held in the plane of the start's x-y axes
};

/// An arc of radius R [m] sweeping `sweepDeg` degrees, bent about the section's z axis at the
/// start (in its x-y plane; a negative sweep turns the other way): the member's length and its
/// elements' initial curvature.
void bendBeamMember(BeamMemberSpec& member, double radius, double sweepDeg);
/// meshBeamMember, then a marker "m" at each node, and the clamp and in-plane joints the member
/// asks for (ground markers name_clamp, name_plane). Refused, with the reason and the model
/// unchanged, when the model already has items of the member's names. Returns the reason or "".
std::string addBeamMember(ModelSpec& model, const BeamMemberSpec& member);

/// Appends the member's nodes and elements to the model. Each node is placed where the
/// element before it puts it unstressed (integrated with its initial strains), so a curved member
/// starts free of stress. Returns the name of its last node.
std::string meshBeamMember(ModelSpec& model, const BeamMemberSpec& member);
/// The section of an element's spec (E, G or ν, A, I, J, k, ρ).
BeamSection beamSection(const BeamElementSpec& e);
/// The kernel of an element of the model (its length, section, initial curvature and, for the
/// planar element, the plane of node1's axes at t = 0); none when its formulation or a node is unknown.
std::optional<BeamElementKernel> beamKernel(const ModelSpec& model, const BeamElementSpec& e);

}  // namespace flexim
