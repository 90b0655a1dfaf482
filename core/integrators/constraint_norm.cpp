#include "core/integrators/constraint_norm.h"

#include <Eigen/Cholesky>
#include <Eigen/QR>

#include <algorithm>
#include <cmath>

namespace flexim {

namespace {

using RowMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

/// G over the rows that `keep` accepts, numbered consecutively (compact) or at their own index.
template <class Keep>
RowMatrix assembleRows(const System& sys, const std::vector<ConstraintRows>& rows, Keep&& keep, bool compact) {
  std::vector<Eigen::Triplet<double>> entries;
  int next = 0;
  for (size_t c = 0; c < sys.constraints().size(); ++c) {
    const ConstraintElement& e = *sys.constraints()[c];
    const int off = sys.constraintOffsets()[c];
    for (int i = 0; i < e.rows(); ++i) {
      if (!keep(off + i)) continue;
      const size_t before = entries.size();
      for (size_t k = 0; k < e.blocks.size(); ++k) {
        if (e.blocks[k] < 0) continue;
        const int v0 = sys.block(e.blocks[k]).v0;
        const auto g = rows[c].G[k].row(i);
        for (int j = 0; j < g.size(); ++j)
          if (g(j) != 0) entries.emplace_back(compact ? next : off + i, v0 + j, g(j));
      }
      if (entries.size() > before) ++next;
    }
  }
  RowMatrix G(compact ? next : sys.nc(), sys.nv());
  G.setFromTriplets(entries.begin(), entries.end());
  return G;
}

}  // namespace

void ConstraintNorm::update(const System& sys, const VecX& q, const std::vector<ConstraintRows>& rows,
                            const std::vector<char>& dropped, double cj, const VecX& massDiagonal) {
  m_sys = &sys;
  m_nq = sys.nq();
  m_nv = sys.nv();
  m_nc = sys.nc();
  m_cj = cj;
  const double meanMass = massDiagonal.size() ? std::max(massDiagonal.mean(), 1e-300) : 1.0;
  m_invMass = massDiagonal.unaryExpr([&](double m) { return 1.0 / (m > 0 ? m : meanMass); });
  m_H.resize(sys.nblocks());
  m_Hpinv.resize(sys.nblocks());
  for (int b = 0; b < sys.nblocks(); ++b) {
    const Block& B = sys.block(b);
    MatX& H = m_H[b];
    H.resize(B.nq(), B.nv());
    VecX unit = VecX::Zero(B.nv()), column(B.nq());
    for (int j = 0; j < B.nv(); ++j) {
      unit(j) = 1;
      B.formulation->coordinateRate(q.segment(B.q0, B.nq()), unit, column);
      H.col(j) = column;
      unit(j) = 0;
    }
    m_Hpinv[b] = H.completeOrthogonalDecomposition().pseudoInverse();
  }
  const auto& kinds = sys.rowKinds();
  auto active = [&](int r) { return dropped.empty() || !dropped[r]; };
  m_all = assembleRows(sys, rows, active, false);
  // positions: the rows with a position-level equation; velocities: every bilateral row
  build(assembleRows(sys, rows, [&](int r) { return active(r) && kinds[r] == RowKind::Equality; }, true),
        m_position);
  build(assembleRows(sys, rows, [&](int r) { return active(r) && kinds[r] != RowKind::Unilateral; }, true),
        m_velocity);
  m_weights.resize(0);  // H and the rows changed: weigh again
  m_ready = true;
}

void ConstraintNorm::build(Eigen::SparseMatrix<double, Eigen::RowMajor> G, Projection& P) const {
  P.G = std::move(G);
  const int n = static_cast<int>(P.G.rows());
  P.normalMap.resize(0, 0);
  P.ok = true;
  if (n == 0) return;
  P.rowNorm2.resize(n);
  for (int r = 0; r < n; ++r) P.rowNorm2(r) = P.G.row(r).squaredNorm();
  if (n <= kDenseFactorRows) {
    // few rows: dense G G^T and its LDL^T factor, cheaper than a sparse analysis per rebuild
    // (10 % fewer instructions on a double pendulum's run, but 19 % more on Andrews' 50 rows)
    const MatX Gd(P.G);
    MatX A = Gd * Gd.transpose();
    A.diagonal() += kRegularization * P.rowNorm2;
    const Eigen::LDLT<MatX> ldlt(A);
    P.ok = ldlt.info() == Eigen::Success;
    if (P.ok) P.normalMap = Gd.transpose() * ldlt.solve(MatX::Identity(n, n));
    return;
  }
  Eigen::SparseMatrix<double> A = P.G * Eigen::SparseMatrix<double>(P.G.transpose());
  for (int r = 0; r < n; ++r) A.coeffRef(r, r) += kRegularization * P.rowNorm2(r);
  A.makeCompressed();
  // the ordering and symbolic factor are kept while G's pattern is (most rebuilds)
  const bool samePattern = P.analysed && A.rows() + 1 == static_cast<Eigen::Index>(P.outer.size()) &&
                           std::equal(A.outerIndexPtr(), A.outerIndexPtr() + A.rows() + 1, P.outer.begin()) &&
                           A.nonZeros() == static_cast<Eigen::Index>(P.inner.size()) &&
                           std::equal(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros(), P.inner.begin());
  if (!samePattern) {
    P.GGt.analyzePattern(A);
    P.outer.assign(A.outerIndexPtr(), A.outerIndexPtr() + A.rows() + 1);
    P.inner.assign(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros());
    P.analysed = true;
  }
  P.GGt.factorize(A);
  P.ok = P.GGt.info() == Eigen::Success;
  if (P.ok && n <= kDenseRows) P.normalMap = MatX(P.G.transpose()) * P.GGt.solve(MatX::Identity(n, n));
}

void ConstraintNorm::weighRows(const Projection& P, const VecX& wv) const {
  P.rowWeight.resize(P.G.rows());
  for (int k = 0; k < P.G.outerSize(); ++k) {
    double weighted = 0;
    for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(P.G, k); it; ++it)
      weighted += it.value() * it.value() * wv(it.col()) * wv(it.col());
    P.rowWeight(k) = std::sqrt(weighted) / P.rowNorm2(k);
  }
}

void ConstraintNorm::accumulate(const Projection& P, const VecX& d, double& sum, VecX& normal) const {
  if (P.empty() || !P.ok) {
    normal.setZero(m_nv);
    return;
  }
  P.residual.noalias() = P.G * d;
  if (P.normalMap.size())
    normal.noalias() = P.normalMap * P.residual;
  else
    normal = P.G.transpose() * P.GGt.solve(P.residual);
  sum += P.residual.cwiseProduct(P.rowWeight).squaredNorm();
}

void ConstraintNorm::weigh(const double* w) const {
  const int N = m_nq + m_nv + 2 * m_nc;
  if (m_weights.size() == N && std::equal(w, w + N, m_weights.data())) return;
  m_weights = Eigen::Map<const VecX>(w, N);
  const System& sys = *m_sys;
  const auto wq = m_weights.head(m_nq);
  m_wqv.resize(m_nv);
  for (int b = 0; b < sys.nblocks(); ++b) {
    const Block& B = sys.block(b);
    for (int j = 0; j < B.nv(); ++j) {  // weight of a position change along velocity dof j
      const auto h = m_H[b].col(j);
      const double length = h.norm();
      m_wqv(B.v0 + j) = length > 0 ? h.cwiseProduct(wq.segment(B.q0, B.nq())).norm() / length
                                   : wq.segment(B.q0, B.nq()).mean();
    }
  }
  weighRows(m_position, m_wqv);
  weighRows(m_velocity, m_weights.segment(m_nq, m_nv));
}

double ConstraintNorm::wrms(const double* x, const double* w, const double* mask, int N) const {
  double sum = 0;
  auto masked = [&](int i) { return mask == nullptr || mask[i] != 0; };
  if (!m_ready || N != m_nq + m_nv + 2 * m_nc) {
    for (int i = 0; i < N; ++i)
      if (masked(i)) sum += (x[i] * w[i]) * (x[i] * w[i]);
    return std::sqrt(sum / N);
  }
  weigh(w);
  const System& sys = *m_sys;
  const Eigen::Map<const VecX> xq(x, m_nq), xv(x + m_nq, m_nv);
  const auto wv = m_weights.segment(m_nq, m_nv);
  // positions: to velocity space, split, the tangent part back to coordinates
  m_dq.resize(m_nv);
  for (int b = 0; b < sys.nblocks(); ++b) {
    const Block& B = sys.block(b);
    m_dq.segment(B.v0, B.nv()).noalias() = m_Hpinv[b] * xq.segment(B.q0, B.nq());
  }
  accumulate(m_position, m_dq, sum, m_normal);
  m_tq = xq;
  for (int b = 0; b < sys.nblocks(); ++b) {
    const Block& B = sys.block(b);
    m_tq.segment(B.q0, B.nq()).noalias() -= m_H[b] * m_normal.segment(B.v0, B.nv());
  }
  for (int i = 0; i < m_nq; ++i)
    if (masked(i)) sum += (m_tq(i) * w[i]) * (m_tq(i) * w[i]);
  // velocities
  accumulate(m_velocity, xv, sum, m_normal);
  for (int i = 0; i < m_nv; ++i)
    if (masked(m_nq + i)) {
      const double t = (xv(i) - m_normal(i)) * wv(i);
      sum += t * t;
    }
  // multipliers (only in Newton's test: the error test masks them out): by the velocity and
  // position changes their forces make in one step, M^-1 G^T lambda h and G^T mu h (h ~ 1/cj).
  // Measured by themselves, lambda near a singular position (a pole ~ 1/(t - t*) along the
  // vanishing direction, while G^T lambda stays finite) or mu at a small step (~ 1/h) never pass.
  bool anyMultiplier = false;
  for (int i = m_nq + m_nv; i < N && !anyMultiplier; ++i) anyMultiplier = masked(i);
  if (anyMultiplier) {
    const Eigen::Map<const VecX> xl(x + m_nq + m_nv, m_nc), xm(x + m_nq + m_nv + m_nc, m_nc);
    m_force.noalias() = m_all.transpose() * xl;
    sum += m_force.cwiseProduct(m_invMass).cwiseProduct(wv).squaredNorm() / (m_cj * m_cj);
    m_force.noalias() = m_all.transpose() * xm;
    sum += m_force.cwiseProduct(m_wqv).squaredNorm() / (m_cj * m_cj);
  }
  return std::sqrt(sum / N);
}

}  // namespace flexim
