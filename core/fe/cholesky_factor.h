// The supernodal Cholesky factorisation (CHOLMOD) of a large sparse symmetric positive definite
// matrix, as the eigen solution and the stiffening load cases make it: ordered by METIS at once
// from kMetisDirectly rows on, quiet, telling the elimination order it chose, and holding one
// copy of the matrix, not two, beside the factor (factorizeLower).
#pragma once

#include <Eigen/CholmodSupport>
#include <Eigen/SparseCore>

#include <vector>

namespace flexim::fe {

/// From this many rows on, the matrix is ordered by METIS without trying AMD first. CHOLMOD's
/// default analyses with AMD and then with METIS when AMD's fill is poor, which it always is for
/// a large solid mesh (0.7 of the 3.6 s analysis on a 102 387-node C3D10 deck; the same factor).
constexpr Eigen::Index kMetisDirectly = 100000;

class CholeskyFactor : public Eigen::CholmodSupernodalLLT<Eigen::SparseMatrix<double>, Eigen::Lower> {
 public:
  /// For a matrix of `rows` rows.
  explicit CholeskyFactor(Eigen::Index rows) {
    cholmod_common& c = this->cholmod();
    c.print = 0;  // a failure is reported by the caller (info()), not printed on stdout
    if (rows >= kMetisDirectly) {
      c.nmethods = 1;
      c.method[0].ordering = CHOLMOD_METIS;
      c.postorder = 1;
    }
  }
  /// Analyses and factorises the matrix whose lower triangle is A, which it takes and frees.
  /// CHOLMOD's own factorize makes the permuted lower triangle P A P^T from A through two
  /// transposes and holds it beside A during the numeric factorisation, the peak of the memory
  /// (A is 74 MB on a 53 369-node mesh, the factor 665 MB). Here P A P^T is made once from A, A
  /// freed, and CHOLMOD given the permuted matrix as if in its natural order. info() tells.
  void factorizeLower(Eigen::SparseMatrix<double>&& A);
  /// The elimination order: order[k] = the k-th row eliminated (empty before a factorisation).
  std::vector<int> order() const {
    const cholmod_factor* L = this->m_cholmodFactor;
    if (!L || !L->Perm) return {};
    const auto* perm = static_cast<const int*>(L->Perm);
    return std::vector<int>(perm, perm + L->n);
  }
};

}  // namespace flexim::fe
