// A sparse matrix times a block of dense columns (modes, load cases, a Lanczos block).
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace flexim::fe {

/// A X, through row-major copies: each entry of A then updates a contiguous row of the result,
/// where Eigen's product of a column-major sparse matrix with a column-major block makes one pass
/// over A per column (24e6 entries of K read once instead of 26 times for 26 modes).
inline Eigen::MatrixXd timesBlock(const Eigen::SparseMatrix<double>& A, const Eigen::MatrixXd& X) {
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const RowMajor rows = X;
  const RowMajor product = A * rows;
  return product;
}

}  // namespace flexim::fe
