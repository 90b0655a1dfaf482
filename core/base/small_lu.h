// LU factorisation with partial pivoting of a small dense matrix, unblocked and without
// allocation after the first use. For the iteration and KKT matrices of small models (tens of
// unknowns, a quarter full or more), where both KLU's sparse refactorisation and Eigen's blocked
// PartialPivLU spend much of their time on bookkeeping: on an 8-mode pendulum's 43 x 43 KKT
// matrix either took some 150 000 instructions per factorisation, this loop about half of that.
#pragma once

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <vector>

namespace flexim {

class SmallLu {
 public:
  /// Factorises A (column major, n x n) in place of its copy; false if a pivot is exactly zero
  /// or not finite.
  bool compute(const Eigen::MatrixXd& A) {
    m_lu = A;
    const int n = static_cast<int>(A.rows());
    m_pivot.resize(static_cast<size_t>(n));
    double* a = m_lu.data();
    bool ok = true;
    for (int k = 0; k < n; ++k) {
      double* colK = a + static_cast<std::ptrdiff_t>(k) * n;
      int p = k;
      double largest = std::abs(colK[k]);
      for (int i = k + 1; i < n; ++i)
        if (std::abs(colK[i]) > largest) largest = std::abs(colK[i]), p = i;
      m_pivot[static_cast<size_t>(k)] = p;
      if (p != k)
        for (int j = 0; j < n; ++j) std::swap(a[static_cast<std::ptrdiff_t>(j) * n + k], a[static_cast<std::ptrdiff_t>(j) * n + p]);
      const double pivot = colK[k];
      if (!(pivot != 0.0) || !std::isfinite(pivot)) {
        ok = false;
        continue;
      }
      const double inverse = 1.0 / pivot;
      for (int i = k + 1; i < n; ++i) colK[i] *= inverse;
      for (int j = k + 1; j < n; ++j) {
        double* colJ = a + static_cast<std::ptrdiff_t>(j) * n;
        const double f = colJ[k];
        if (f == 0.0) continue;
        for (int i = k + 1; i < n; ++i) colJ[i] -= colK[i] * f;
      }
    }
    return ok;
  }

  /// |U_ii|, the pivots, for a min/max ratio.
  auto pivots() const { return m_lu.diagonal().cwiseAbs(); }

  /// x := A^-1 x with the last factorisation.
  void solveInPlace(double* x) const {
    const int n = static_cast<int>(m_lu.rows());
    const double* a = m_lu.data();
    for (int k = 0; k < n; ++k) std::swap(x[k], x[m_pivot[static_cast<size_t>(k)]]);
    for (int j = 0; j < n; ++j) {  // L y = P b, unit lower triangle, by columns
      const double xj = x[j];
      if (xj == 0.0) continue;
      const double* col = a + static_cast<std::ptrdiff_t>(j) * n;
      for (int i = j + 1; i < n; ++i) x[i] -= col[i] * xj;
    }
    for (int j = n - 1; j >= 0; --j) {  // U x = y, by columns
      const double* col = a + static_cast<std::ptrdiff_t>(j) * n;
      x[j] /= col[j];
      const double xj = x[j];
      if (xj == 0.0) continue;
      for (int i = 0; i < j; ++i) x[i] -= col[i] * xj;
    }
  }

 private:
  Eigen::MatrixXd m_lu;
  std::vector<int> m_pivot;
};

}  // namespace flexim
