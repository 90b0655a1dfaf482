#include "core/base/rotation.h"
#include "core/fe/reduced_body.h"

namespace flexim::fe {

const char* toString(ModeKind k) {
  switch (k) {
    case ModeKind::Rigid: return "rigid";
    case ModeKind::Elastic: return "elastic";
    case ModeKind::Constraint: return "constraint";
    case ModeKind::FixedInterface: return "fixed-interface";
  }
  return "?";
}

ModalInvariants computeInvariants(const std::vector<Eigen::Vector3d>& coords, const std::vector<double>& node_mass,
                                  const Eigen::MatrixXd& modes, const Eigen::MatrixXd& Kbar) {
  const int n = static_cast<int>(coords.size()), m = static_cast<int>(modes.cols());
  ModalInvariants inv;
  inv.I3 = Eigen::MatrixXd::Zero(3, m);
  inv.I4 = Eigen::MatrixXd::Zero(3, m);
  inv.I5.assign(m, Eigen::MatrixXd::Zero(3, m));
  inv.J1.assign(m, Eigen::Matrix3d::Zero());
  inv.J2.assign(static_cast<size_t>(m) * m, Eigen::Matrix3d::Zero());
  inv.Mbar = Eigen::MatrixXd::Zero(m, m);
  std::vector<Eigen::Matrix3d> phiSkew(m);
  for (int k = 0; k < n; ++k) {
    const double mk = node_mass[k];
    if (mk == 0) continue;
    const Eigen::Vector3d& x = coords[k];
    const Eigen::Matrix3d xs = skew(x);
    const Eigen::MatrixXd Phi = modes.middleRows(3 * k, 3);  // 3 x m
    inv.I1 += mk;
    inv.I2 += mk * x;
    inv.I3 += mk * Phi;
    inv.I4 += mk * xs * Phi;
    inv.J0 -= mk * xs * xs;
    inv.Mbar += mk * Phi.transpose() * Phi;
    for (int j = 0; j < m; ++j) phiSkew[j] = skew(Phi.col(j));
    for (int l = 0; l < m; ++l) {
      inv.I5[l] += mk * phiSkew[l] * Phi;
      inv.J1[l] -= mk * (xs * phiSkew[l] + phiSkew[l] * xs);
      for (int j = 0; j < m; ++j) inv.J2[static_cast<size_t>(j) * m + l] -= mk * phiSkew[j] * phiSkew[l];
    }
  }
  inv.Kbar = Kbar;
  return inv;
}

}  // namespace flexim::fe
