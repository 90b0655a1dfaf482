#include "core/base/rotation.h"
#include "core/fe/reduced_body.h"

#include <array>

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

Eigen::SparseMatrix<double> scalarMass(const Eigen::SparseMatrix<double>& M) {
  const Eigen::Index n = M.rows() / 3;
  std::vector<Eigen::Triplet<double>> t;
  t.reserve(static_cast<std::size_t>(M.nonZeros() / 3));
  // from the lower triangle, mirrored: M may be stored whole or as its lower triangle (the only
  // entries within a node's block that count are its diagonal ones, r == c)
  for (Eigen::Index j = 0; j < M.outerSize(); ++j)
    for (Eigen::SparseMatrix<double>::InnerIterator it(M, j); it; ++it)
      if (it.row() >= it.col() && it.row() % 3 == it.col() % 3) {
        t.emplace_back(it.row() / 3, it.col() / 3, it.value() / 3);
        if (it.row() != it.col()) t.emplace_back(it.col() / 3, it.row() / 3, it.value() / 3);
      }
  Eigen::SparseMatrix<double> Ms(n, n);
  Ms.setFromTriplets(t.begin(), t.end());  // sums the three components
  return Ms;
}

// Every invariant is a sum over node pairs a, b of Ms_ab times a product of positions x and mode
// shapes Phi, so all of them follow from the bilinear forms of the coordinate fields (the n-vectors
// X_p of the p-components of the node positions, and the n x m blocks Phi_p):
//   C_pq = X_p^T Ms X_q,  D_pq = X_p^T Ms Phi_q (1 x m),  S_pq = Phi_p^T Ms Phi_q (m x m),
// with skew(a) skew(b) = b a^T - (a . b) I and (a x b)_p = eps_pqr a_q b_r. Cost: one sparse
// product per field and nine dense m x m products of length n.
ModalInvariants computeInvariants(const std::vector<Eigen::Vector3d>& coords, const Eigen::SparseMatrix<double>& Ms,
                                  const Eigen::MatrixXd& modes, const Eigen::MatrixXd& Kbar) {
  const Eigen::Index n = static_cast<Eigen::Index>(coords.size()), m = modes.cols();
  std::array<Eigen::VectorXd, 3> X;
  std::array<Eigen::MatrixXd, 3> Phi, MsPhi;
  for (int p = 0; p < 3; ++p) {
    X[p].resize(n);
    for (Eigen::Index k = 0; k < n; ++k) X[p](k) = coords[static_cast<std::size_t>(k)](p);
    Phi[p] = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::Stride<Eigen::Dynamic, 3>>(
        modes.data() + p, n, m, Eigen::Stride<Eigen::Dynamic, 3>(modes.outerStride(), 3));
    MsPhi[p] = Ms * Phi[p];
  }
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(n), MsOnes = Ms * ones;
  std::array<Eigen::VectorXd, 3> MsX;
  for (int p = 0; p < 3; ++p) MsX[p] = Ms * X[p];
  Eigen::Matrix3d C;
  std::array<std::array<Eigen::RowVectorXd, 3>, 3> D;
  std::array<std::array<Eigen::MatrixXd, 3>, 3> S;
  for (int p = 0; p < 3; ++p)
    for (int q = 0; q < 3; ++q) {
      C(p, q) = X[p].dot(MsX[q]);
      D[p][q] = X[p].transpose() * MsPhi[q];
      S[p][q] = Phi[p].transpose() * MsPhi[q];
    }
  constexpr int next[3] = {1, 2, 0}, after[3] = {2, 0, 1};  // (p, q, r) cyclic: eps_pqr = 1

  ModalInvariants inv;
  inv.I1 = ones.dot(MsOnes);
  for (int p = 0; p < 3; ++p) inv.I2(p) = X[p].dot(MsOnes);
  inv.I3.resize(3, m);
  inv.I4.resize(3, m);
  for (int p = 0; p < 3; ++p) {
    inv.I3.row(p) = MsOnes.transpose() * Phi[p];
    inv.I4.row(p) = D[next[p]][after[p]] - D[after[p]][next[p]];
  }
  inv.I5.assign(static_cast<std::size_t>(m), Eigen::MatrixXd(3, m));
  for (Eigen::Index l = 0; l < m; ++l)
    for (int p = 0; p < 3; ++p)  // (phi_l x Phi_j)_p summed: S_qr(l, j) - S_rq(l, j)
      inv.I5[static_cast<std::size_t>(l)].row(p) = S[next[p]][after[p]].row(l) - S[after[p]][next[p]].row(l);
  inv.J0 = C.trace() * Eigen::Matrix3d::Identity() - C.transpose();
  inv.J1.assign(static_cast<std::size_t>(m), Eigen::Matrix3d::Zero());
  inv.J2.assign(static_cast<std::size_t>(m * m), Eigen::Matrix3d::Zero());
  for (Eigen::Index j = 0; j < m; ++j) {
    Eigen::Matrix3d Dj;
    for (int p = 0; p < 3; ++p)
      for (int q = 0; q < 3; ++q) Dj(p, q) = D[p][q](j);
    inv.J1[static_cast<std::size_t>(j)] = 2 * Dj.trace() * Eigen::Matrix3d::Identity() - Dj - Dj.transpose();
    for (Eigen::Index l = 0; l < m; ++l) {
      Eigen::Matrix3d Sjl;  // Sjl(q, p) = sum Ms_ab phi_aj,q phi_bl,p
      for (int p = 0; p < 3; ++p)
        for (int q = 0; q < 3; ++q) Sjl(q, p) = S[q][p](j, l);
      inv.J2[static_cast<std::size_t>(j * m + l)] = Sjl.trace() * Eigen::Matrix3d::Identity() - Sjl.transpose();
    }
  }
  inv.Mbar = S[0][0] + S[1][1] + S[2][2];
  inv.Kbar = Kbar;
  return inv;
}

ModalInvariants computeInvariants(const std::vector<Eigen::Vector3d>& coords, const std::vector<double>& node_mass,
                                  const Eigen::MatrixXd& modes, const Eigen::MatrixXd& Kbar) {
  const auto n = static_cast<Eigen::Index>(node_mass.size());
  Eigen::SparseMatrix<double> Ms(n, n);
  std::vector<Eigen::Triplet<double>> t;
  for (Eigen::Index k = 0; k < n; ++k)
    if (node_mass[static_cast<std::size_t>(k)] != 0) t.emplace_back(k, k, node_mass[static_cast<std::size_t>(k)]);
  Ms.setFromTriplets(t.begin(), t.end());
  return computeInvariants(coords, Ms, modes, Kbar);
}

ModalInvariants sliceInvariants(const ModalInvariants& in, int m) {
  const int M = in.modeCount();
  ModalInvariants out = in;
  if (m == M) return out;
  out.I3 = in.I3.leftCols(m);
  out.I4 = in.I4.leftCols(m);
  out.I5.clear();
  for (int l = 0; l < m; ++l) out.I5.push_back(in.I5[static_cast<std::size_t>(l)].leftCols(m));
  out.J1.assign(in.J1.begin(), in.J1.begin() + m);
  out.J2.clear();
  for (int j = 0; j < m; ++j)
    for (int l = 0; l < m; ++l) out.J2.push_back(in.J2[static_cast<std::size_t>(j * M + l)]);
  out.Mbar = in.Mbar.topLeftCorner(m, m);
  out.Kbar = in.Kbar.topLeftCorner(m, m);
  return out;
}

// x' = R^T (x - c), Phi' = R^T Phi; with (R^T a)~ R^T b = R^T (a~ b) every invariant moves as
// a rigid body's first and second moments do.
ModalInvariants moveInvariants(const ModalInvariants& in, const Eigen::Vector3d& c, const Eigen::Matrix3d& R) {
  ModalInvariants out = in;
  const Eigen::Matrix3d cs = skew(c), I2s = skew(in.I2), Rt = R.transpose();
  out.I2 = Rt * (in.I2 - in.I1 * c);
  out.I3 = Rt * in.I3;
  out.I4 = Rt * (in.I4 - cs * in.I3);
  for (Eigen::MatrixXd& x : out.I5) x = Rt * x;
  out.J0 = Rt * (in.J0 + I2s * cs + cs * I2s - in.I1 * cs * cs) * R;
  for (std::size_t j = 0; j < in.J1.size(); ++j) {
    const Eigen::Matrix3d ps = skew(in.I3.col(static_cast<Eigen::Index>(j)));
    out.J1[j] = Rt * (in.J1[j] + cs * ps + ps * cs) * R;
  }
  for (Eigen::Matrix3d& x : out.J2) x = Rt * x * R;
  return out;
}

}  // namespace flexim::fe
