#include "core/system/kkt.h"

#include "core/base/small_lu.h"

#include <klu.h>

#include <algorithm>
#include <cassert>
#include <cmath>

namespace flexim {

struct KktMatrix::Klu {
  Eigen::MatrixXd dense;  ///< small matrices: the row-scaled matrix, and its LU
  SmallLu lu;
  klu_common common;
  klu_symbolic* symbolic = nullptr;
  klu_numeric* numeric = nullptr;
  bool needFullFactor = true;
  double rcondFull = 0.0;  ///< rcond of the last full factorisation (pivot-order reference)
};

KktMatrix::KktMatrix(const System& sys, bool couple_forces, bool couple_constraints)
    : m_sys(sys), m_coupleForces(couple_forces), m_coupleConstraints(couple_constraints) {
  m_nv = sys.nv();
  m_n = m_nv + sys.nc();
  m_active.assign(sys.nc(), 1);
  m_klu = std::make_unique<Klu>();
  klu_defaults(&m_klu->common);
  // COLAMD, not AMD: the zero (or tiny) multiplier diagonal forces off-diagonal pivots, which
  // ruin AMD's symmetric order on loops (a 10-loop four-bar chain filled 8x more, 20x slower)
  // while COLAMD's column order is made for partial pivoting; on trees both are alike
  m_klu->common.ordering = 1;
  // rows are scaled here, once per full factorisation: KLU would recompute its scaling at every
  // refactorisation (7 % of a chain step)
  m_klu->common.scale = -1;
  buildPattern();
}

KktMatrix::~KktMatrix() { freeFactors(); }

void KktMatrix::freeFactors() {
  if (m_klu->numeric) klu_free_numeric(&m_klu->numeric, &m_klu->common);
  if (m_klu->symbolic) klu_free_symbolic(&m_klu->symbolic, &m_klu->common);
  m_klu->needFullFactor = true;
  m_dense = false;
  m_analysed = false;
}

void KktMatrix::setActiveRows(const std::vector<char>& active) {
  if (active == m_active) return;
  m_active = active;
  freeFactors();
  buildPattern();
}

void KktMatrix::buildPattern() {
  const System& sys = m_sys;
  m_bodyBlocks.clear();
  m_G.clear();
  m_Gt.clear();
  m_multiplierDiag.clear();
  m_blockPos.clear();
  // register blocks first; positions resolved after the pattern exists. rowMask/colMask: rows
  // (columns) of the block that are constraint rows, skipped when inactive.
  // keep: entries that can be non-zero (column major; empty = all), the structural zeros
  // declared by formulations and elements being left out of the factorisation
  struct Pending {
    int row0, col0, rows, cols, offset;
    bool maskRows, maskCols;
    std::vector<char> keep;
  };
  std::vector<Pending> pending;
  auto reg = [&](int row0, int col0, int rows, int cols, bool maskRows = false, bool maskCols = false,
                 std::vector<char> keep = {}) {
    const int offset = static_cast<int>(m_blockPos.size());
    m_blockPos.resize(m_blockPos.size() + rows * cols, -1);
    pending.push_back({row0, col0, rows, cols, offset, maskRows, maskCols, std::move(keep)});
    return offset;
  };
  auto regBlocks = [&](int b1, int b2, std::vector<char> keep = {}) {
    if (b1 < 0 || b2 < 0 || m_bodyBlocks.count({b1, b2})) return;
    m_bodyBlocks[{b1, b2}] =
        reg(sys.block(b1).v0, sys.block(b2).v0, sys.block(b1).nv(), sys.block(b2).nv(), false, false, std::move(keep));
  };
  // diagonal blocks: the formulation's entries, all of them where a force element's numerical
  // tangent lands, and the geometric stiffness entries of the constraint elements on the block
  std::vector<std::vector<char>> diagonal(sys.nblocks());
  for (int b = 0; b < sys.nblocks(); ++b) {
    const int n = sys.block(b).nv();
    diagonal[b].resize(n * n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) diagonal[b][j * n + i] = sys.block(b).formulation->iterationMatrixEntry(i, j);
  }
  for (const auto& f : sys.forces())
    for (int b : f->blocks)
      if (b >= 0) std::fill(diagonal[b].begin(), diagonal[b].end(), 1);
  if (m_coupleConstraints)
    for (const auto& c : sys.constraints())
      for (size_t k = 0; k < c->blocks.size(); ++k) {
        const int b = c->blocks[k];
        if (b < 0) continue;
        const int n = sys.block(b).nv();
        for (int j = 0; j < n; ++j)
          for (int i = 0; i < n; ++i)
            diagonal[b][j * n + i] |= c->geometricStiffnessEntry(static_cast<int>(k), i, j);
      }
  for (int b = 0; b < sys.nblocks(); ++b) regBlocks(b, b, std::move(diagonal[b]));
  m_diagonalBlocks.clear();
  for (int b = 0; b < sys.nblocks(); ++b) m_diagonalBlocks.push_back(m_bodyBlocks.at({b, b}));
  if (m_coupleForces)
    for (const auto& f : sys.forces())
      for (int b1 : f->blocks)
        for (int b2 : f->blocks) regBlocks(b1, b2);
  if (m_coupleConstraints)
    for (const auto& c : sys.constraints())
      if (c->geometricStiffnessCouplesBlocks())
        for (int b1 : c->blocks)
          for (int b2 : c->blocks) regBlocks(b1, b2);
  const auto& cons = sys.constraints();
  for (size_t c = 0; c < cons.size(); ++c) {
    const int r0 = m_nv + sys.constraintOffsets()[c], rows = cons[c]->rows();
    std::vector<int> g, gt;
    for (size_t k = 0; k < cons[c]->blocks.size(); ++k) {
      const int b = cons[c]->blocks[k];
      if (b < 0) {
        g.push_back(-1);
        gt.push_back(-1);
        continue;
      }
      const int n = sys.block(b).nv();
      std::vector<char> keep(rows * n), keepT(rows * n);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < rows; ++i)
          keep[j * rows + i] = keepT[i * n + j] = cons[c]->jacobianEntry(static_cast<int>(k), i, j);
      g.push_back(reg(r0, sys.block(b).v0, rows, n, true, false, std::move(keep)));
      gt.push_back(reg(sys.block(b).v0, r0, n, rows, false, true, std::move(keepT)));
    }
    m_G.push_back(std::move(g));
    m_Gt.push_back(std::move(gt));
  }
  for (int i = m_nv; i < m_n; ++i) m_multiplierDiag.push_back(reg(i, i, 1, 1));

  // compressed-column pattern from all registered entries of active rows
  auto inPattern = [&](const Pending& p, int i, int j) {
    if (!p.keep.empty() && !p.keep[j * p.rows + i]) return false;
    return !(p.maskRows && !m_active[p.row0 + i - m_nv]) && !(p.maskCols && !m_active[p.col0 + j - m_nv]);
  };
  std::vector<std::vector<int>> cols(m_n);
  for (const auto& p : pending)
    for (int j = 0; j < p.cols; ++j)
      for (int i = 0; i < p.rows; ++i)
        if (inPattern(p, i, j)) cols[p.col0 + j].push_back(p.row0 + i);
  m_Ap.assign(m_n + 1, 0);
  m_Ai.clear();
  for (int j = 0; j < m_n; ++j) {
    auto& c = cols[j];
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
    m_Ap[j + 1] = m_Ap[j] + static_cast<int>(c.size());
    m_Ai.insert(m_Ai.end(), c.begin(), c.end());
  }
  m_Ax.assign(m_Ai.size(), 0.0);
  for (const auto& p : pending)
    for (int j = 0; j < p.cols; ++j) {
      const int col = p.col0 + j;
      for (int i = 0; i < p.rows; ++i) {
        if (!inPattern(p, i, j)) continue;
        const auto begin = m_Ai.begin() + m_Ap[col], end = m_Ai.begin() + m_Ap[col + 1];
        m_blockPos[p.offset + j * p.rows + i] = static_cast<int>(std::lower_bound(begin, end, p.row0 + i) - m_Ai.begin());
      }
    }
}

void KktMatrix::setZero() { std::fill(m_Ax.begin(), m_Ax.end(), 0.0); }

void KktMatrix::addBodyBlock(int b1, int b2, const Eigen::Ref<const MatX>& block) {
  const int off = b1 == b2 ? m_diagonalBlocks[b1] : m_bodyBlocks.at({b1, b2});
  const int rows = m_sys.block(b1).nv();
  for (int j = 0; j < block.cols(); ++j)
    for (int i = 0; i < block.rows(); ++i) {
      const int pos = m_blockPos[off + rows * j + i];
      assert(pos >= 0 || block(i, j) == 0.0);  // a declared structural zero that is not one
      if (pos >= 0) m_Ax[pos] += block(i, j);
    }
}

void KktMatrix::setConstraints(const std::vector<ConstraintRows>& rows) {
  // row0: the element's first constraint row
  auto put = [&](int off, const MatX& G, bool transpose, int row0) {
    if (off < 0) return;
    const int r = static_cast<int>(G.rows()), c = static_cast<int>(G.cols());
    for (int i = 0; i < r; ++i)
      for (int j = 0; j < c; ++j) {
        // block is column-major: (row i, col j) of G, or (row j, col i) of G^T
        const int pos = m_blockPos[transpose ? off + i * c + j : off + j * r + i];
        if (pos >= 0) m_Ax[pos] = G(i, j);
        else assert(!m_active[row0 + i] || G(i, j) == 0.0);  // inactive row, or a true structural zero
      }
  };
  for (size_t c = 0; c < rows.size(); ++c)
    for (size_t k = 0; k < rows[c].G.size(); ++k) {
      const int row0 = m_sys.constraintOffsets()[c];
      put(m_G[c][k], rows[c].G[k], false, row0);
      put(m_Gt[c][k], rows[c].G[k], true, row0);
    }
  for (size_t i = 0; i < m_active.size(); ++i) m_Ax[m_blockPos[m_multiplierDiag[i]]] = m_active[i] ? 0.0 : 1.0;
}

namespace {
/// Size of the multiplier regularisation relative to each row's Schur diagonal: small enough
/// that two or three refinement steps reach round-off, large enough that a rank-deficient
/// Jacobian still factorises with some eight digits.
constexpr double kRegularization = 1e-9;
/// Reciprocal pivot ratio (after row scaling) below which the plain matrix counts as singular:
/// a dependent row leaves a pivot of round-off size, ~1e-16 of its row.
constexpr double kSingularRcond = 1e-13;
/// Refinement steps of a regularised solve (each one solve and one product); it stops earlier
/// when the residual no longer halves.
constexpr int kMaxRefinements = 12;
}  // namespace

void KktMatrix::setRegularization(Regularization r) {
  if (r == m_regularization) return;
  m_regularization = r;
  m_klu->needFullFactor = true;
}

bool KktMatrix::factor() {
  if (m_n == 0) return true;
  if (!m_analysed) {  // the first factorisation of a new pattern (the dense path counts it too)
    if (m_n > kDenseSize) {
      m_klu->symbolic = klu_analyze(m_n, m_Ap.data(), m_Ai.data(), &m_klu->common);
      if (!m_klu->symbolic) return false;
    }
    m_analysed = true;
    ++m_analyses;
  }
  if (m_regularization == Regularization::Always) return factorNumeric(true);
  if (factorNumeric(false)) return true;
  // dependent rows seldom come alone (a redundant model has them all the time): keep
  // regularising rather than pay a failed factorisation every time
  m_regularization = Regularization::Always;
  return factorNumeric(true);
}

bool KktMatrix::factorNumeric(bool regularize) {
  // a factorisation of the other kind is no pivot-order reference
  if (regularize != m_regularized) m_klu->needFullFactor = true;
  m_regularized = regularize;
  if (regularize) regularizationDiagonal();
  const double minRcond = regularize ? 1e-18 : kSingularRcond;
  if (m_n <= kDenseSize) return factorDense(regularize, minRcond);
  // refactor reuses the pivot order and the row scaling; fall back to a fresh factorisation
  // when it degrades
  if (m_klu->numeric && !m_klu->needFullFactor) {
    scaleRows();
    if (klu_refactor(m_Ap.data(), m_Ai.data(), m_Sx.data(), m_klu->symbolic, m_klu->numeric, &m_klu->common) &&
        klu_rcond(m_klu->symbolic, m_klu->numeric, &m_klu->common) &&
        m_klu->common.rcond > 1e-4 * m_klu->rcondFull && m_klu->common.rcond >= minRcond) {
      m_rcond = m_klu->common.rcond;
      m_regularizedCount += regularize;
      return true;
    }
  }
  if (m_klu->numeric) klu_free_numeric(&m_klu->numeric, &m_klu->common);
  // each row divided by its largest entry (KLU's own choice), so pivots compare across units
  scaleRowsAfresh();
  m_klu->numeric = klu_factor(m_Ap.data(), m_Ai.data(), m_Sx.data(), m_klu->symbolic, &m_klu->common);
  if (!m_klu->numeric || m_klu->common.status != KLU_OK) {
    m_klu->needFullFactor = true;
    return false;
  }
  klu_rcond(m_klu->symbolic, m_klu->numeric, &m_klu->common);
  m_klu->rcondFull = m_rcond = m_klu->common.rcond;
  // KLU's cheap estimate (min/max pivot): mixed units make it small, but a dependent row
  // leaves a pivot of round-off size
  m_klu->needFullFactor = m_klu->common.rcond < minRcond;
  if (m_klu->needFullFactor) return false;
  m_regularizedCount += regularize;
  return true;
}

bool KktMatrix::factorDense(bool regularize, double minRcond) {
  // rows scaled as for KLU, so that the pivot ratio means the same on both paths
  scaleRowsAfresh();
  Eigen::MatrixXd& A = m_klu->dense;
  A.setZero(m_n, m_n);
  for (int j = 0; j < m_n; ++j)
    for (int p = m_Ap[j]; p < m_Ap[j + 1]; ++p) A(m_Ai[p], j) = m_Sx[p];
  const bool factored = m_klu->lu.compute(A);
  const auto pivots = m_klu->lu.pivots();
  m_rcond = factored ? pivots.minCoeff() / pivots.maxCoeff() : 0.0;
  m_dense = m_rcond >= minRcond;
  if (!m_dense) return false;
  m_regularizedCount += regularize;
  return true;
}

void KktMatrix::regularizationDiagonal() {
  // H_jj: the body-row diagonal; D_i = delta sum_j G_ij^2 / |H_jj| over the row's coordinates
  // with mass (a row on massless coordinates only takes the mean diagonal)
  VecX Hd = VecX::Zero(m_nv);
  for (int j = 0; j < m_nv; ++j)
    for (int p = m_Ap[j]; p < m_Ap[j + 1]; ++p)
      if (m_Ai[p] == j) Hd(j) = std::abs(m_Ax[p]);
  double sum = 0;
  int count = 0;
  for (int j = 0; j < m_nv; ++j)
    if (Hd(j) > 0) {
      sum += Hd(j);
      ++count;
    }
  const double mean = count ? sum / count : 1.0;
  m_D.assign(m_n - m_nv, 0.0);
  for (int i = 0; i < m_n - m_nv; ++i) {
    if (!m_active[i]) continue;
    const int col = m_nv + i;  // G^T's column of row i holds G_ij at rows j < nv
    double d = 0, dMassless = 0;
    for (int p = m_Ap[col]; p < m_Ap[col + 1]; ++p) {
      const int j = m_Ai[p];
      if (j >= m_nv) continue;
      const double g2 = m_Ax[p] * m_Ax[p];
      if (Hd(j) > 0) d += g2 / Hd(j);
      else dMassless += g2 / mean;
    }
    m_D[i] = kRegularization * (d > 0 ? d : dMassless);
  }
}

void KktMatrix::scaleRowsAfresh() {
  m_rowScale.assign(m_n, 0.0);
  for (size_t p = 0; p < m_Ax.size(); ++p) m_rowScale[m_Ai[p]] = std::max(m_rowScale[m_Ai[p]], std::abs(m_Ax[p]));
  for (double& s : m_rowScale) s = s > 0 ? 1.0 / s : 1.0;
  scaleRows();
}

void KktMatrix::scaleRows() {
  m_Sx.resize(m_Ax.size());
  for (size_t p = 0; p < m_Ax.size(); ++p) m_Sx[p] = m_Ax[p] * m_rowScale[m_Ai[p]];
  if (m_regularized)
    for (int i = 0; i < m_n - m_nv; ++i)
      if (m_active[i]) {
        const int pos = m_blockPos[m_multiplierDiag[i]];
        m_Sx[pos] = (m_Ax[pos] - m_D[i]) * m_rowScale[m_nv + i];
      }
}

bool KktMatrix::solve(VecX& rhs, bool refine) const {
  if (m_n == 0) return true;
  if ((m_n <= kDenseSize ? !m_dense : !m_klu->numeric) || rhs.size() != m_n) return false;
  auto solveFactored = [&](VecX& x) {
    for (int i = 0; i < m_n; ++i) x(i) *= m_rowScale[i];
    if (m_n <= kDenseSize) {
      m_klu->lu.solveInPlace(x.data());
      return x.allFinite();
    }
    return klu_solve(m_klu->symbolic, m_klu->numeric, m_n, 1, x.data(), &m_klu->common) && x.allFinite();
  };
  if (!m_regularized || !refine) return solveFactored(rhs);
  // proximal-point refinement against the unregularised matrix: the multiplier corrections stay
  // in the range of G, so the multipliers converge to those of least D-weighted norm
  const VecX b = rhs;
  if (!solveFactored(rhs)) return false;
  auto scaledResidual = [&](const VecX& x) {
    multiply(x, m_residual);
    m_residual = b - m_residual;
    double n = 0;
    for (int i = 0; i < m_n; ++i) n = std::max(n, std::abs(m_residual(i)) * m_rowScale[i]);
    return n;
  };
  double bNorm = 0;
  for (int i = 0; i < m_n; ++i) bNorm = std::max(bNorm, std::abs(b(i)) * m_rowScale[i]);
  double best = scaledResidual(rhs);
  for (int k = 0; k < kMaxRefinements && best > 1e-15 * bNorm; ++k) {
    m_correction = m_residual;
    if (!solveFactored(m_correction)) break;
    m_correction += rhs;
    const double r = scaledResidual(m_correction), previous = best;
    if (r < best) {
      rhs = m_correction;
      best = r;
    }
    if (!(r < 0.5 * previous)) break;  // stagnates: an inconsistent part that no refinement removes
  }
  return true;
}

void KktMatrix::multiply(const VecX& x, VecX& y) const {
  y.setZero(m_n);
  for (int j = 0; j < m_n; ++j)
    for (int p = m_Ap[j]; p < m_Ap[j + 1]; ++p) y(m_Ai[p]) += m_Ax[p] * x(j);
}

double KktMatrix::rcond() const { return m_rcond; }

}  // namespace flexim
