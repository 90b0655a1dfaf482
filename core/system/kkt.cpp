#include "core/system/kkt.h"

#include <klu.h>

#include <algorithm>

namespace flexim {

struct KktMatrix::Klu {
  klu_common common;
  klu_symbolic* symbolic = nullptr;
  klu_numeric* numeric = nullptr;
  bool needFullFactor = true;
  double rcondFull = 0.0;  ///< rcond of the last full factorisation (pivot-order reference)
};

KktMatrix::KktMatrix(const System& sys, bool couple_forces) : m_sys(sys) {
  m_nv = sys.nv();
  m_n = m_nv + sys.nc();
  // register blocks first (row0, col0, rows, cols); positions resolved after the pattern exists
  auto reg = [&](int row0, int col0, int rows, int cols) {
    const int offset = static_cast<int>(m_blockPos.size());
    m_blockPos.resize(m_blockPos.size() + rows * cols, -1);
    m_pending.push_back({row0, col0, rows, cols, offset});
    return offset;
  };
  auto regBodies = [&](int b1, int b2) {
    if (b1 < 0 || b2 < 0 || m_bodyBlocks.count({b1, b2})) return;
    m_bodyBlocks[{b1, b2}] = reg(sys.body(b1).v0, sys.body(b2).v0, sys.body(b1).nv(), sys.body(b2).nv());
  };
  for (int b = 0; b < sys.nb(); ++b) regBodies(b, b);
  if (couple_forces)
    for (const auto& f : sys.forces()) {
      regBodies(f->body1, f->body2);
      regBodies(f->body2, f->body1);
    }
  const auto& cons = sys.constraints();
  for (size_t c = 0; c < cons.size(); ++c) {
    const int r0 = m_nv + sys.constraintOffsets()[c], rows = cons[c]->rows();
    const int b1 = cons[c]->body1, b2 = cons[c]->body2;
    auto v0 = [&](int b) { return sys.body(b).v0; };
    auto nv = [&](int b) { return sys.body(b).nv(); };
    m_constraintG1.push_back(b1 >= 0 ? reg(r0, v0(b1), rows, nv(b1)) : -1);
    m_constraintG1t.push_back(b1 >= 0 ? reg(v0(b1), r0, nv(b1), rows) : -1);
    m_constraintG2.push_back(b2 >= 0 ? reg(r0, v0(b2), rows, nv(b2)) : -1);
    m_constraintG2t.push_back(b2 >= 0 ? reg(v0(b2), r0, nv(b2), rows) : -1);
  }
  for (int i = m_nv; i < m_n; ++i) m_multiplierDiag.push_back(reg(i, i, 1, 1));

  // compressed-column pattern from all registered entries
  std::vector<std::vector<int>> cols(m_n);
  for (const auto& p : m_pending)
    for (int j = 0; j < p.cols; ++j)
      for (int i = 0; i < p.rows; ++i) cols[p.col0 + j].push_back(p.row0 + i);
  m_Ap.assign(m_n + 1, 0);
  for (int j = 0; j < m_n; ++j) {
    auto& c = cols[j];
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
    m_Ap[j + 1] = m_Ap[j] + static_cast<int>(c.size());
    m_Ai.insert(m_Ai.end(), c.begin(), c.end());
  }
  m_Ax.assign(m_Ai.size(), 0.0);
  for (const auto& p : m_pending)
    for (int j = 0; j < p.cols; ++j) {
      const int col = p.col0 + j;
      for (int i = 0; i < p.rows; ++i) {
        const auto begin = m_Ai.begin() + m_Ap[col], end = m_Ai.begin() + m_Ap[col + 1];
        m_blockPos[p.offset + j * p.rows + i] = static_cast<int>(std::lower_bound(begin, end, p.row0 + i) - m_Ai.begin());
      }
    }
  m_pending.clear();

  m_klu = std::make_unique<Klu>();
  klu_defaults(&m_klu->common);
}

KktMatrix::~KktMatrix() {
  if (m_klu->numeric) klu_free_numeric(&m_klu->numeric, &m_klu->common);
  if (m_klu->symbolic) klu_free_symbolic(&m_klu->symbolic, &m_klu->common);
}

void KktMatrix::setZero() { std::fill(m_Ax.begin(), m_Ax.end(), 0.0); }

void KktMatrix::addBodyBlock(int b1, int b2, const Eigen::Ref<const MatX>& block) {
  const int off = m_bodyBlocks.at({b1, b2});
  const int rows = m_sys.body(b1).nv();
  for (int j = 0; j < block.cols(); ++j)
    for (int i = 0; i < block.rows(); ++i) m_Ax[m_blockPos[off + rows * j + i]] += block(i, j);
}

void KktMatrix::setConstraints(const std::vector<ConstraintRows>& rows) {
  auto put = [&](int off, const auto& G, bool transpose) {
    if (off < 0) return;
    const int r = static_cast<int>(G.rows()), c = static_cast<int>(G.cols());
    for (int i = 0; i < r; ++i)
      for (int j = 0; j < c; ++j) {
        // block is column-major: (row i, col j) of G, or (row j, col i) of G^T
        const int idx = transpose ? off + i * c + j : off + j * r + i;
        m_Ax[m_blockPos[idx]] = G(i, j);
      }
  };
  for (size_t c = 0; c < rows.size(); ++c) {
    put(m_constraintG1[c], rows[c].G1, false);
    put(m_constraintG1t[c], rows[c].G1, true);
    put(m_constraintG2[c], rows[c].G2, false);
    put(m_constraintG2t[c], rows[c].G2, true);
  }
}

void KktMatrix::setMultiplierDiagonal(double value) {
  for (int off : m_multiplierDiag) m_Ax[m_blockPos[off]] = value;
}

bool KktMatrix::factor() {
  if (m_n == 0) return true;
  if (!m_klu->symbolic) {
    m_klu->symbolic = klu_analyze(m_n, m_Ap.data(), m_Ai.data(), &m_klu->common);
    if (!m_klu->symbolic) return false;
  }
  // refactor reuses the pivot order; fall back to a fresh factorisation when it degrades
  if (m_klu->numeric && !m_klu->needFullFactor) {
    if (klu_refactor(m_Ap.data(), m_Ai.data(), m_Ax.data(), m_klu->symbolic, m_klu->numeric, &m_klu->common) &&
        klu_rcond(m_klu->symbolic, m_klu->numeric, &m_klu->common) &&
        m_klu->common.rcond > 1e-4 * m_klu->rcondFull)
      return true;
  }
  if (m_klu->numeric) klu_free_numeric(&m_klu->numeric, &m_klu->common);
  m_klu->numeric = klu_factor(m_Ap.data(), m_Ai.data(), m_Ax.data(), m_klu->symbolic, &m_klu->common);
  if (!m_klu->numeric || m_klu->common.status != KLU_OK) {
    m_klu->needFullFactor = true;
    return false;
  }
  klu_rcond(m_klu->symbolic, m_klu->numeric, &m_klu->common);
  m_klu->rcondFull = m_klu->common.rcond;
  // KLU's cheap estimate (min/max pivot); mixed units make it small, so only reject near-zero
  m_klu->needFullFactor = m_klu->common.rcond < 1e-18;
  return !m_klu->needFullFactor;
}

bool KktMatrix::solve(VecX& rhs) const {
  if (m_n == 0) return true;
  if (!m_klu->numeric || rhs.size() != m_n) return false;
  return klu_solve(m_klu->symbolic, m_klu->numeric, m_n, 1, rhs.data(), &m_klu->common) && rhs.allFinite();
}

double KktMatrix::rcond() const { return m_klu->common.rcond; }

}  // namespace flexim
