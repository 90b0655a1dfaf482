// A symmetric sparse matrix (of which only the lower triangle is read) times a block of dense
// columns (modes, load cases, a Lanczos block), and the shifted matrix the symmetric
// factorisations read.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <vector>

namespace flexim::fe {

/// y += f(a_ij) x_j over a symmetric A of which only the lower triangle is read (A may hold
/// both triangles or its lower one only), for row-major blocks x and y: each entry updates a
/// contiguous row (and its mirror a second one), where Eigen's product of a column-major sparse
/// matrix with a column-major block makes one pass over A per column (24e6 entries of K read
/// once instead of 26 times for 26 modes).
template <class RowMajorIn, class RowMajorOut, class Entry>
void addSymmetricTimes(const Eigen::SparseMatrix<double>& A, const RowMajorIn& x, RowMajorOut& y, Entry f) {
  for (Eigen::Index j = 0; j < A.outerSize(); ++j)
    for (Eigen::SparseMatrix<double>::InnerIterator it(A, j); it; ++it) {
      const Eigen::Index i = it.row();
      if (i < j) continue;
      const double a = f(it.value());
      y.row(i) += a * x.row(j);
      if (i != j) y.row(j) += a * x.row(i);
    }
}

/// A X for a symmetric A of which only the lower triangle is read (addSymmetricTimes), four
/// columns at a time: rows of a fixed width are updated with a few vector instructions, where
/// rows of a run-time width cost a loop per entry of A (3x the time of a Lanczos block's product).
inline Eigen::MatrixXd timesBlock(const Eigen::SparseMatrix<double>& A, const Eigen::MatrixXd& X) {
  constexpr Eigen::Index kWidth = 4;
  using Rows = Eigen::Matrix<double, Eigen::Dynamic, kWidth, Eigen::RowMajor>;
  Eigen::MatrixXd Y(X.rows(), X.cols());
  Rows x(X.rows(), kWidth), y(X.rows(), kWidth);
  for (Eigen::Index first = 0; first < X.cols(); first += kWidth) {
    const Eigen::Index w = std::min(kWidth, X.cols() - first);
    x.setZero();
    x.leftCols(w) = X.middleCols(first, w);
    y.setZero();
    addSymmetricTimes(A, x, y, [](double a) { return a; });
    Y.middleCols(first, w) = y.leftCols(w);
  }
  return Y;
}

/// The Frobenius norm of a symmetric A of which only the lower triangle is read.
inline double symmetricNorm(const Eigen::SparseMatrix<double>& A) {
  double sum = 0.0;
  for (Eigen::Index j = 0; j < A.outerSize(); ++j)
    for (Eigen::SparseMatrix<double>::InnerIterator it(A, j); it; ++it)
      if (it.row() >= j) sum += (it.row() == j ? 1.0 : 2.0) * it.value() * it.value();
  return std::sqrt(sum);
}

/// |A - A^T| / |A| (Frobenius norms) without forming A^T (147 MB for K at 53 369 nodes): each
/// stored entry against its mirror (compressed, sorted storage). The mirror of a lower entry
/// (i, j), i > j, is (j, i) in column i. With the columns j taken in order the rows looked up in
/// column i only increase, so one cursor per column finds every mirror in a single pass (a binary
/// search per entry took 0.8 s for that K's 24e6 entries); an upper entry the cursor passes, or
/// never reaches, has no mirror.
inline double relativeAsymmetry(const Eigen::SparseMatrix<double>& A) {
  using Index = Eigen::SparseMatrix<double>::StorageIndex;
  const Index* outer = A.outerIndexPtr();
  const Index* inner = A.innerIndexPtr();
  const double* value = A.valuePtr();
  const auto columnEnd = [&](Index j) { return A.innerNonZeroPtr() ? outer[j] + A.innerNonZeroPtr()[j] : outer[j + 1]; };
  const auto n = static_cast<Index>(A.outerSize());
  std::vector<Index> cursor(outer, outer + n);  // the next upper entry of each column not yet matched
  double difference = 0.0, whole = 0.0;         // difference: |A - A^T|^2, each pair counted twice
  for (Index j = 0; j < n; ++j)
    for (Index k = outer[j]; k < columnEnd(j); ++k) {
      const Index i = inner[k];
      const double a = value[k];
      whole += a * a;
      if (i <= j) continue;  // upper entries are met from their mirrors; the diagonal is its own
      Index& c = cursor[static_cast<std::size_t>(i)];
      for (; c < columnEnd(i) && inner[c] < j; ++c) difference += 2 * value[c] * value[c];
      if (c < columnEnd(i) && inner[c] == j) {
        const double d = a - value[c++];
        difference += 2 * d * d;
      } else {
        difference += 2 * a * a;
      }
    }
  for (Index i = 0; i < n; ++i)
    for (Index c = cursor[static_cast<std::size_t>(i)]; c < columnEnd(i) && inner[c] < i; ++c)
      difference += 2 * value[c] * value[c];
  return std::sqrt(difference) / std::max(std::sqrt(whole), 1e-300);
}

/// Replaces a symmetric matrix by its lower triangle and frees the rest: all the eigen solution
/// reads (modal.h), in half the memory.
inline void keepLowerTriangle(Eigen::SparseMatrix<double>& A) {
  Eigen::SparseMatrix<double> lower = A.triangularView<Eigen::Lower>();
  A.swap(lower);  // the full matrix is freed with `lower` (assigning would keep its storage)
}

/// The lower triangle of K - s M, merged column by column from K and M (column-major,
/// compressed, sorted): half the memory of the full difference, and all that the symmetric
/// factorisations (CHOLMOD with Lower, MUMPS) read.
inline Eigen::SparseMatrix<double> lowerShifted(const Eigen::SparseMatrix<double>& K, const Eigen::SparseMatrix<double>& M,
                                                double s) {
  using Index = Eigen::SparseMatrix<double>::StorageIndex;
  const Index n = static_cast<Index>(K.cols());
  auto merge = [&](Index j, auto&& emit) {
    Eigen::SparseMatrix<double>::InnerIterator k(K, j), m(M, j);
    while (k && k.row() < j) ++k;
    while (m && m.row() < j) ++m;
    while (k || m) {
      if (m && (!k || m.row() < k.row())) {
        emit(static_cast<Index>(m.row()), -s * m.value());
        ++m;
      } else if (k && (!m || k.row() < m.row())) {
        emit(static_cast<Index>(k.row()), k.value());
        ++k;
      } else {
        emit(static_cast<Index>(k.row()), k.value() - s * m.value());
        ++k;
        ++m;
      }
    }
  };
  std::vector<Index> starts(static_cast<size_t>(n) + 1, 0);
  for (Index j = 0; j < n; ++j) {
    Index count = 0;
    merge(j, [&](Index, double) { ++count; });
    starts[static_cast<size_t>(j) + 1] = starts[static_cast<size_t>(j)] + count;
  }
  Eigen::SparseMatrix<double> L(K.rows(), n);
  L.resizeNonZeros(starts.back());
  std::copy(starts.begin(), starts.end(), L.outerIndexPtr());
  for (Index j = 0; j < n; ++j) {
    Index at = starts[static_cast<size_t>(j)];
    merge(j, [&](Index row, double value) {
      L.innerIndexPtr()[at] = row;
      L.valuePtr()[at++] = value;
    });
  }
  return L;
}

}  // namespace flexim::fe
