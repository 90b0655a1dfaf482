#pragma once
// Inertia of a sparse symmetric matrix: how many of its eigenvalues are negative, counted from the
// pivots of a multifrontal LDL^T factorisation (MUMPS, sequential, symmetric indefinite).
// By Sylvester's law of inertia, negativeEigenvalueCount(K - s M) is the number of eigenvalues of
// the pencil (K, M) below s when M is positive definite: the Sturm-sequence check of an eigen
// solution (docs/fe-eigensolver.md).

#include <Eigen/SparseCore>

#include <string>
#include <vector>

namespace flexim::fe {

struct InertiaResult {
  long negative = -1;   ///< negative pivots; -1 when the factorisation failed
  std::string error;    ///< why the factorisation failed, empty on success
};

/// Counts the negative eigenvalues of the symmetric matrix A (only its lower triangle is read).
/// `order` (optional): a fill-reducing elimination order, order[k] = the k-th variable eliminated
/// (a Cholesky factorisation of a matrix of the same pattern has one), which spares MUMPS its own
/// ordering; MUMPS's own otherwise.
InertiaResult negativeEigenvalueCount(const Eigen::SparseMatrix<double>& A, const std::vector<int>* order = nullptr);

}  // namespace flexim::fe
