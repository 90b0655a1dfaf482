// The display surface of a reduced flexible body (fe::ReducedBody::surface), deformed by modal
// coordinates. Everything that depends only on the body is precomputed once: the surface nodes
// and their mode-shape rows, so a new set of modal coordinates costs one small dense product
// over the surface nodes (u = Phi_s w) and rewrites the points in place.
// Points are in the FE (body) frame; the owner places the actor with the body pose.
#pragma once

#include "core/fe/reduced_body.h"
#include "core/model/model.h"

#include <vtkSmartPointer.h>

#include <algorithm>
#include <string>
#include <vector>

class vtkDoubleArray;
class vtkPolyData;

namespace flexim::render {

/// What the colours of a flexible body show: the elastic displacement u = Phi w (true size,
/// not scaled), as its magnitude or one component in the body (FE) frame; or the nodal stress
/// sigma = S w of the body's stress modes (fe::ReducedBody::stress_modes): von Mises, the largest
/// or smallest principal stress, or a component in the FE axes.
/// Or the nodal strain recovered from that stress with the nodes' elastic constants
/// (fe::ReducedBody::node_elasticity): von Mises equivalent, principal, or a tensor component.
/// Stresses and strains list their measures in the same order.
enum class ContourQuantity {
  Magnitude, X, Y, Z,
  VonMises, MaxPrincipal, MinPrincipal, Sxx, Syy, Szz, Sxy, Syz, Szx,
  EquivalentStrain, MaxPrincipalStrain, MinPrincipalStrain, Exx, Eyy, Ezz, Exy, Eyz, Ezx
};

/// Short name for legends and menus: "|u|", "u_x", "u_y", "u_z", "von Mises", "sigma_1",
/// "sigma_3", "sigma_xx", ... (ASCII: the viewport's font has no Greek letters).
const char* contourSymbol(ContourQuantity quantity);
/// Parses "magnitude", "x", "y", "z", "von_mises", "max_principal", "min_principal", "sxx",
/// "syy", "szz", "sxy", "syz", "szx" (the --contour values); false if none of them.
bool parseContourQuantity(const std::string& text, ContourQuantity& quantity);
/// Whether the quantity is a stress; a strain.
bool isStress(ContourQuantity quantity);
bool isStrain(ContourQuantity quantity);
/// The unit the colour bar shows the quantity in, and the factor from SI: mm (1e3), MPa (1e-6) or
/// um/m (micro-strain, 1e6).
struct ContourUnit {
  const char* unit;
  double scale;
};
ContourUnit contourUnit(ContourQuantity quantity);

/// A closed interval of a scalar [lo, hi]; empty when lo > hi.
struct ScalarRange {
  double lo = 1.0, hi = 0.0;
  bool empty() const { return lo > hi; }
  void add(double v) {
    const bool first = empty();  // asked once: lo changes first
    lo = first ? v : std::min(lo, v);
    hi = first ? v : std::max(hi, v);
  }
  void add(const ScalarRange& r) {
    if (!r.empty()) add(r.lo), add(r.hi);
  }
};

class FlexibleSurface {
 public:
  /// Name of the point array with the contour quantity (true elastic displacement [m], not scaled).
  static constexpr const char* kDisplacementArray = "displacement";

  /// Uses the first `modeCount` modes of the body (0 or more than it has: all of them).
  /// Without display triangles, the nodes are shown as points.
  /// stiffnessScale: the body's stiffness scale (FlexibleBodySpec::stiffness_scale); it scales the
  /// stresses as it scales the modal stiffness, and leaves the strains as they are.
  FlexibleSurface(const fe::ReducedBody& body, int modeCount, double stiffnessScale = 1.0);
  ~FlexibleSurface();
  FlexibleSurface(const FlexibleSurface&) = delete;
  FlexibleSurface& operator=(const FlexibleSurface&) = delete;

  int modeCount() const { return int(m_phi.cols()); }
  /// Node index (into ReducedBody::coords) of each point of mesh().
  const std::vector<int>& nodes() const { return m_nodes; }
  /// Triangles (or vertices when the body has no surface), body-frame points, point scalars
  /// kDisplacementArray.
  vtkPolyData* mesh() const;
  bool hasTriangles() const { return m_hasTriangles; }

  /// Modal coordinates; a vector shorter than modeCount() sets the first modes and zeroes the
  /// rest. Returns false (and changes nothing) when it is longer or not finite.
  bool setModal(const Eigen::VectorXd& modal);
  const Eigen::VectorXd& modal() const { return m_modal; }
  /// Multiplies the displayed displacement (not the colours): x + scale * Phi w.
  void setScale(double scale);
  double scale() const { return m_scale; }

  /// Whether the body has stress modes (else a stress quantity shows zero everywhere).
  bool hasStress() const { return m_stress.size() > 0; }
  bool hasStrain() const { return m_strain.size() > 0; }
  /// The quantity the point scalars hold (the magnitude unless told otherwise).
  void setQuantity(ContourQuantity quantity);
  ContourQuantity quantity() const { return m_quantity; }

  /// Largest |Phi w| over the surface nodes for these modal coordinates (0 if they do not fit).
  double maxDisplacement(const Eigen::VectorXd& modal) const;
  /// Largest |u| of the current modal coordinates.
  double currentMaxDisplacement() const { return m_currentMax; }
  /// Range of quantity() over the surface nodes for these modal coordinates (empty if they do
  /// not fit), and for the current ones.
  ScalarRange range(const Eigen::VectorXd& modal) const;
  /// The same over several sets of modal coordinates, one per column (one matrix product).
  ScalarRange range(const Eigen::MatrixXd& modalColumns) const;
  ScalarRange currentRange() const { return m_currentRange; }
  /// The undeformed surface: same cells, points never move (a "ghost" to compare with).
  vtkPolyData* undeformedMesh() const;
  /// Undeformed surface points, body frame.
  const std::vector<Vec3>& undeformed() const { return m_undeformed; }
  /// True elastic displacement u = Phi w of surface point i (body frame, not scaled), for the
  /// current modal coordinates or for given ones (no longer than modeCount()).
  Vec3 displacement(std::size_t i) const;
  Vec3 displacement(std::size_t i, const Eigen::VectorXd& modal) const;
  /// The surface point nearest to p (body frame, as drawn: deformation scale included).
  std::size_t nearestPoint(const Vec3& p) const;

 private:
  void update();
  /// The contour quantity of each surface node for modal coordinates (no longer than
  /// modeCount()) whose displacement is u (3k) -> k values.
  Eigen::VectorXd quantityOf(const Eigen::VectorXd& u, const Eigen::VectorXd& modal) const;

  std::vector<int> m_nodes;
  std::vector<Vec3> m_undeformed;
  Eigen::VectorXd m_base;  ///< 3k undeformed coordinates of the surface nodes
  Eigen::MatrixXd m_phi;   ///< 3k x m mode-shape rows of the surface nodes
  Eigen::MatrixXd m_stress;  ///< 6k x m stress-mode rows of the surface nodes (empty: none)
  Eigen::MatrixXd m_strain;  ///< 6k x m strain-mode rows, from m_stress (empty: no elastic constants)
  Eigen::VectorXd m_modal;
  Eigen::VectorXd m_u;     ///< 3k displacement of the current modal coordinates
  double m_scale = 1.0;
  double m_currentMax = 0.0;
  ScalarRange m_currentRange;
  ContourQuantity m_quantity = ContourQuantity::Magnitude;
  bool m_hasTriangles = false;
  vtkSmartPointer<vtkPolyData> m_mesh;
  vtkSmartPointer<vtkPolyData> m_undeformedMesh;
  vtkSmartPointer<vtkDoubleArray> m_values;
};

}  // namespace flexim::render
