#include "core/fe/cholesky_factor.h"

#include <algorithm>
#include <utility>

namespace flexim::fe {

namespace {

using SpMat = Eigen::SparseMatrix<double>;
using Index = SpMat::StorageIndex;

/// The lower triangle of P A P^T, column by column with sorted rows, from the lower triangle of
/// A; position[i] = the step at which row i of A is eliminated.
SpMat permutedLower(const SpMat& A, const std::vector<Index>& position) {
  const Index n = static_cast<Index>(A.cols());
  std::vector<Index> starts(static_cast<std::size_t>(n) + 1, 0);
  for (Index j = 0; j < n; ++j)
    for (SpMat::InnerIterator it(A, j); it; ++it)
      if (it.row() >= j) ++starts[std::size_t(std::min(position[std::size_t(it.row())], position[std::size_t(j)])) + 1];
  for (Index j = 0; j < n; ++j) starts[std::size_t(j) + 1] += starts[std::size_t(j)];
  SpMat B(n, n);
  B.resizeNonZeros(starts.back());
  std::copy(starts.begin(), starts.end(), B.outerIndexPtr());
  std::vector<Index> next(starts.begin(), starts.end() - 1);
  for (Index j = 0; j < n; ++j)
    for (SpMat::InnerIterator it(A, j); it; ++it)
      if (it.row() >= j) {
        const Index r = position[std::size_t(it.row())], c = position[std::size_t(j)];
        const Index at = next[std::size_t(std::min(r, c))]++;
        B.innerIndexPtr()[at] = std::max(r, c);
        B.valuePtr()[at] = it.value();
      }
  // rows in order within each column (CHOLMOD's view of an Eigen matrix says "sorted")
  std::vector<std::pair<Index, double>> column;
  for (Index j = 0; j < n; ++j) {
    Index* rows = B.innerIndexPtr() + starts[std::size_t(j)];
    double* values = B.valuePtr() + starts[std::size_t(j)];
    const Index count = starts[std::size_t(j) + 1] - starts[std::size_t(j)];
    if (std::is_sorted(rows, rows + count)) continue;
    column.clear();
    for (Index k = 0; k < count; ++k) column.emplace_back(rows[k], values[k]);
    std::sort(column.begin(), column.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (Index k = 0; k < count; ++k) rows[k] = column[std::size_t(k)].first, values[k] = column[std::size_t(k)].second;
  }
  return B;
}

}  // namespace

void CholeskyFactor::factorizeLower(SpMat&& A) {
  analyzePattern(A);
  cholmod_factor* L = this->m_cholmodFactor;
  if (this->info() != Eigen::Success || !L || !L->Perm || L->ordering == CHOLMOD_NATURAL) {
    if (this->info() == Eigen::Success) factorize(A);
    SpMat().swap(A);
    return;
  }
  const auto* perm = static_cast<const int*>(L->Perm);
  std::vector<Index> position(static_cast<std::size_t>(L->n));
  for (std::size_t k = 0; k < L->n; ++k) position[std::size_t(perm[k])] = static_cast<Index>(k);
  SpMat B = permutedLower(A, position);
  SpMat().swap(A);  // frees its storage (assigning an empty matrix would keep it)
  // factorize reads the matrix through L's ordering: told "natural", it takes B as it is (CHOLMOD's
  // fastest case, no copy); the ordering is restored for the solves, which permute through it
  const int ordering = L->ordering;
  L->ordering = CHOLMOD_NATURAL;
  const SpMat& permuted = B;
  cholmod_sparse view = Eigen::viewAsCholmod(permuted.selfadjointView<Eigen::Lower>());
  cholmod_factorize_p(&view, this->m_shiftOffset, nullptr, 0, L, &this->cholmod());
  L->ordering = ordering;
  this->m_info = L->minor == L->n ? Eigen::Success : Eigen::NumericalIssue;
  this->m_factorizationIsOk = true;
}

}  // namespace flexim::fe
