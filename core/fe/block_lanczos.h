// Block Lanczos for the largest eigenvalues of an operator A that is self-adjoint in the M inner
// product (here the shift-invert operator (K - sigma M)^-1 M, whose largest eigenvalues
// theta = 1 / (lambda - sigma) are the lowest lambda of K x = lambda M x).
//
// Why a block: with a sparse factor of a 3D mesh, one triangular solve with one right-hand side
// reads the whole factor from memory and does two flops per entry read; with b right-hand sides
// it reads the factor once for b columns (level-3 kernels): on a 1.42 GB factor 4 right-hand
// sides take 0.35 s per solve against 0.22 s for one (docs/fe-eigensolver.md). A block Krylov
// space also finds an eigenvalue of multiplicity up to b (a square section's bending pairs) at
// once.
//
// Method: Golub and Underwood (1977), "The block Lanczos method for computing eigenvalues", in
// Mathematical Software III, pp. 361-377; with full reorthogonalisation (classical Gram-Schmidt,
// twice, in the M inner product) and no restart: the basis grows until the wanted Ritz pairs
// have converged or it reaches its size limit. The caller checks what it returns (residuals and
// a Sturm count) and falls back to a restarted single-vector Lanczos when it fails.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <functional>
#include <string>

namespace flexim::fe {

struct BlockLanczosOptions {
  int block = 4;              ///< columns per block (right-hand sides per solve)
  int max_dimension = 0;      ///< largest basis (0: 4 x wanted + 4 blocks)
  double tolerance = 1e-10;   ///< |A x - theta x|_M <= tolerance |theta| for every wanted pair
  /// The last this many wanted pairs (spares, which only place a check's shift) need only
  /// sqrt(tolerance): a Ritz value's error is about the square of its residual over the gap.
  int spares = 0;
  unsigned seed = 1;          ///< of the random start block (a fixed seed: the same modes every run)
};

struct BlockLanczosResult {
  bool converged = false;
  std::string why;            ///< why not, when not converged
  Eigen::VectorXd theta;      ///< the wanted eigenvalues of A, largest first
  Eigen::MatrixXd vectors;    ///< their M-orthonormal Ritz vectors
  int block_solves = 0;       ///< applications of A to a block
  int dimension = 0;          ///< of the final basis
};

/// The solve of A = S^-1 M, applied to the columns of a block: out = S^-1 in (the caller's
/// in is M times the basis block, which the iteration has at hand).
using BlockSolve = std::function<void(const Eigen::MatrixXd& in, Eigen::MatrixXd& out)>;

/// The `wanted` largest eigenvalues of A = S^-1 M (S symmetric, M symmetric positive
/// semidefinite) and their vectors. `deflated` (optional, M-orthonormal columns) is a subspace A
/// annihilates or keeps out; the basis is kept M-orthogonal to it.
BlockLanczosResult blockLanczos(const BlockSolve& solve, const Eigen::SparseMatrix<double>& M, int wanted,
                                const BlockLanczosOptions& options, const Eigen::MatrixXd* deflated = nullptr);

}  // namespace flexim::fe
