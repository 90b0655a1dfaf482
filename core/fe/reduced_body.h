// A reduced flexible body: what the floating-frame formulation (after the floating-frame solid-element paper,
// Multibody Syst. Dyn. 2023, doi:10.1007/s11044-023-09875-y) needs, precomputed
// so that nothing in a time step loops over FE nodes. Body-frame quantities (primes in the
// paper) are in the FE coordinate system of the source mesh.
#pragma once

#include <Eigen/Core>

#include <array>
#include <string>
#include <vector>

namespace flexim::fe {

/// Inertia invariants (lumped nodal masses m_k, mode shapes Phi_k); not in the paper, which sums over the nodes:
///   I1 = sum m_k, I2 = sum m_k x_k, I3 = sum m_k Phi_k, I4 = sum m_k x~_k Phi_k,
///   I5[l] = sum m_k phi~_kl Phi_k, J0 = -sum m_k x~_k x~_k,
///   J1[j] = -sum m_k (x~_k phi~_kj + phi~_kj x~_k), J2[j*m+l] = -sum m_k phi~_kj phi~_kl,
///   Mbar = X^T M_lumped X, Kbar = X^T K X.
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

/// Computes the invariants (the one place that loops over nodes). modes: 3n x m node-major.
ModalInvariants computeInvariants(const std::vector<Eigen::Vector3d>& coords, const std::vector<double>& node_mass,
                                  const Eigen::MatrixXd& modes, const Eigen::MatrixXd& Kbar);

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
};

struct SourceFile {
  std::string path;
  std::string sha256;
};

struct ReducedBody {
  std::string name;
  std::vector<int> node_ids;
  std::vector<Eigen::Vector3d> coords;      ///< undeformed node positions, body frame [m]
  std::vector<double> node_mass;            ///< lumped (HRZ) nodal masses [kg]
  Eigen::MatrixXd modes;                    ///< 3n x m, node-major
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
