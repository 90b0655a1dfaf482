// A reduced flexible body: what the floating-frame formulation (after the floating-frame solid-element paper,
// Multibody Syst. Dyn. 2023, doi:10.1007/s11044-023-09875-y) needs, precomputed
// so that nothing in a time step loops over FE nodes. Body-frame quantities (primes in the
// paper) are in the FE coordinate system of the source mesh.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <array>
#include <string>
#include <vector>

namespace flexim::fe {

/// Inertia invariants: integrals of rho over the body of products of the position x and the mode
/// shapes Phi, interpolated by the element shape functions. With the scalar mass matrix Ms
/// (Ms_ab = integral of rho N_a N_b, plus point masses on the diagonal; the 3n x 3n mass is Ms (x) I3):
///   I1 = sum_ab Ms_ab, I2 = sum Ms_ab x_b, I3 = sum Ms_ab Phi_b, I4 = sum Ms_ab x~_a Phi_b,
///   I5[l] = sum Ms_ab phi~_al Phi_b, J0 = -sum Ms_ab x~_a x~_b,
///   J1[j] = -sum Ms_ab (x~_a phi~_bj + phi~_aj x~_b), J2[j*m+l] = -sum Ms_ab phi~_aj phi~_bl,
///   Mbar = X^T (Ms (x) I3) X, Kbar = X^T K X.
/// The paper sums over nodes with lumped masses (Ms diagonal), which is the other way offered:
/// it is exact for the mass and the centre of mass but not for the inertia and the modal masses
/// of the consistent-mass modes.
struct ModalInvariants {
  double I1 = 0.0;
  Eigen::Vector3d I2 = Eigen::Vector3d::Zero();
  Eigen::MatrixXd I3, I4;              ///< 3 x m
  std::vector<Eigen::MatrixXd> I5;     ///< m entries of 3 x m
  Eigen::Matrix3d J0 = Eigen::Matrix3d::Zero();
  std::vector<Eigen::Matrix3d> J1;     ///< m
  std::vector<Eigen::Matrix3d> J2;     ///< m * m, index j * m + l
  Eigen::MatrixXd Mbar, Kbar;          ///< m x m
  int modeCount() const { return static_cast<int>(I3.cols()); }
};

/// Computes the invariants (the one place that loops over nodes) from the scalar mass matrix Ms
/// (n x n, symmetric). modes: 3n x m node-major. Cost O(nnz(Ms) m + n m^2).
ModalInvariants computeInvariants(const std::vector<Eigen::Vector3d>& coords, const Eigen::SparseMatrix<double>& Ms,
                                  const Eigen::MatrixXd& modes, const Eigen::MatrixXd& Kbar);
/// The same from lumped nodal masses (Ms = diag(node_mass)).
ModalInvariants computeInvariants(const std::vector<Eigen::Vector3d>& coords, const std::vector<double>& node_mass,
                                  const Eigen::MatrixXd& modes, const Eigen::MatrixXd& Kbar);
/// The scalar mass of a 3n x 3n mass matrix: Ms_ab = mean over the components p of M(3a+p, 3b+p).
/// Exact for element masses (m (x) I3) and point masses; a mass in one direction counts 1/3. Only
/// M's lower triangle is read (M may be stored as its lower triangle, keepLowerTriangle).
Eigen::SparseMatrix<double> scalarMass(const Eigen::SparseMatrix<double>& M);
/// The invariants of the first m modes.
ModalInvariants sliceInvariants(const ModalInvariants& in, int m);
/// The invariants in a frame moved to the origin c and turned by R (columns: the new axes in
/// the old frame): x' = R^T (x - c), Phi' = R^T Phi. Nothing loops over nodes.
ModalInvariants moveInvariants(const ModalInvariants& in, const Eigen::Vector3d& c, const Eigen::Matrix3d& R);

enum class ModeKind { Rigid, Elastic, Constraint, FixedInterface };
const char* toString(ModeKind k);

/// Where a body is connected: a node set tied to a reference point.
struct Interface {
  enum class Kind { Rigid, Averaging };  ///< RBE2-like, RBE3-like
  std::string name;
  Kind kind = Kind::Rigid;
  std::vector<int> nodes;               ///< node indices
  Eigen::Vector3d reference = Eigen::Vector3d::Zero();  ///< reference point (body frame)
  /// Only while reducing (not in the .frb): the reference node of a coupling of the deck (node
  /// index, -1 for a node set). The reference point is then that node, not the (weighted) centroid.
  int reference_node = -1;
  std::vector<double> weights;  ///< only while reducing: a coupling's own weights (RBE3 WT), per node
  bool reference_given = false;  ///< only while reducing: the user chose the reference point, keep it
};

/// Geometric stiffening by the load-case method (Wallrapp & Schwertassek 1991, "Representation of
/// geometric stiffening in multibody system simulation", IJNME 32): the linear stress state of
/// each unit load case below, solved statically on the free FE model with inertia relief, enters
/// the modal geometric stiffness Phi^T K_G(sigma) Phi (m x m). At run time the body's geometric
/// stiffness is their sum weighted by the current load factors. Loads per unit mass at x, FE axes:
///   0-2   translational acceleration of the frame, a = e_i:   -e_i
///   3-5   angular acceleration, alpha = e_i:                 -e_i x x
///   6-11  products of the angular velocity w_x^2, w_y^2, w_z^2, w_x w_y, w_y w_z, w_z w_x: minus
///         the derivative of w x (w x x) by the product (the centrifugal load)
/// then per interface k (in file order) the cases 12 + 6k + j: a unit force (j = 0..2) or moment
/// (j = 3..5) at its reference point, spread over its nodes like an averaging interface.
constexpr int kInertiaLoadCases = 12;
inline int interfaceLoadCase(int interface, int j) { return kInertiaLoadCases + 6 * interface + j; }

struct SourceFile {
  std::string path;
  std::string sha256;
};

struct ReducedBody {
  std::string name;
  std::vector<int> node_ids;
  std::vector<Eigen::Vector3d> coords;      ///< undeformed node positions, body frame [m]
  std::vector<double> node_mass;            ///< lumped (HRZ) nodal masses [kg] (display, node checks; not the invariants)
  Eigen::MatrixXd modes;                    ///< 3n x m, node-major
  /// Stress modes: the nodal stress of each mode (linear elasticity, element stresses extrapolated
  /// to the nodes and averaged), 6n x m node-major, Voigt order xx, yy, zz, xy, yz, zx, in the
  /// FE axes [Pa per unit modal coordinate]; empty when the reduction did not compute them.
  Eigen::MatrixXd stress_modes;
  /// The elastic constants at each node, (E [Pa], nu): the mean over the elements sharing it
  /// (their own where the material is one). Strains are recovered from the stress modes with
  /// them (exact where a node's elements share a material). Empty when not computed.
  std::vector<std::array<double, 2>> node_elasticity;
  /// Modal geometric stiffness per load case (kInertiaLoadCases + 6 per interface, m x m each,
  /// see above); empty when the reduction did not compute them.
  std::vector<Eigen::MatrixXd> geometric_stiffness;
  Eigen::VectorXd eigenvalues;              ///< (rad/s)^2 per mode (0 for rigid/constraint modes)
  std::vector<ModeKind> kinds;              ///< per mode
  ModalInvariants invariants;
  std::vector<std::array<int, 3>> surface;  ///< display triangles (node indices)
  std::vector<Interface> interfaces;
  std::string method;                       ///< e.g. "free-free, 6 rigid + 8 elastic, HRZ lumped mass"
  std::vector<SourceFile> sources;
  std::string created;                      ///< UTC ISO-8601
};

}  // namespace flexim::fe
