#include "core/fe/block_lanczos.h"

#include "core/fe/sparse_block.h"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace flexim::fe {

namespace {

using SpMat = Eigen::SparseMatrix<double>;

/// M-orthonormal columns spanning those of W, in place, given MW = M W (kept equal to M times
/// the result, so that no further sparse product is needed): Cholesky QR, twice (the second pass
/// restores the orthogonality the first loses when W is ill conditioned). False when the columns
/// of W are (nearly) dependent.
bool mOrthonormaliseBlock(Eigen::MatrixXd& W, Eigen::MatrixXd& MW) {
  const Eigen::Index b = W.cols();
  for (int pass = 0; pass < 2; ++pass) {
    Eigen::MatrixXd G = W.transpose() * MW;
    G = 0.5 * (G + G.transpose()).eval();
    const double largest = G.diagonal().maxCoeff();
    const Eigen::LLT<Eigen::MatrixXd> llt(G);
    if (!(largest > 0) || llt.info() != Eigen::Success) return false;
    const Eigen::MatrixXd L = llt.matrixL();
    if ((L.diagonal().array().square() < 1e-13 * largest).any()) return false;
    const Eigen::MatrixXd LinvT = L.triangularView<Eigen::Lower>().solve(Eigen::MatrixXd::Identity(b, b)).transpose();
    W = W * LinvT;
    MW = MW * LinvT;
  }
  return true;
}

/// V S for the basis blocks V (n x b each) and S (basis size x w), formed row chunk by row chunk
/// in the storage of the first blocks, which are all the result needs: the rest of the basis is
/// freed before the result is allocated. The end of the iteration, with the factor still held,
/// is the peak of an eigen solution's memory (27 MB less for 21 vectors of a 53 369-node mesh).
Eigen::MatrixXd basisTimes(std::vector<Eigen::MatrixXd>& V, const Eigen::MatrixXd& S) {
  const Eigen::Index n = V.front().rows(), b = V.front().cols(), w = S.cols();
  constexpr Eigen::Index kChunk = 2048;
  Eigen::MatrixXd rows(std::min(kChunk, n), S.rows()), product;
  for (Eigen::Index r0 = 0; r0 < n; r0 += kChunk) {
    const Eigen::Index m = std::min(kChunk, n - r0);
    for (std::size_t k = 0; k < V.size(); ++k) rows.block(0, Eigen::Index(k) * b, m, b) = V[k].middleRows(r0, m);
    product.noalias() = rows.topRows(m) * S;  // every block's rows are read before any is written
    for (Eigen::Index c = 0; c < w; ++c) V[std::size_t(c / b)].col(c % b).segment(r0, m) = product.col(c);
  }
  V.resize(std::size_t((w + b - 1) / b));
  Eigen::MatrixXd X(n, w);
  for (Eigen::Index c = 0; c < w; ++c) X.col(c) = V[std::size_t(c / b)].col(c % b);
  return X;
}

}  // namespace

BlockLanczosResult blockLanczos(const BlockSolve& solve, const SpMat& M, int wanted, const BlockLanczosOptions& options,
                                const Eigen::MatrixXd* deflated) {
  BlockLanczosResult out;
  const Eigen::Index n = M.rows();
  const int b = std::max(1, options.block);
  const Eigen::Index room = n - (deflated ? deflated->cols() : 0);
  int maxDim = options.max_dimension > 0 ? options.max_dimension : 4 * wanted + 4 * b;
  maxDim = static_cast<int>(std::min<Eigen::Index>((maxDim + b - 1) / b * b, room / 2 / b * b));
  if (wanted < 1 || maxDim < wanted + b) {
    out.why = "the problem is too small for a block Lanczos basis";
    return out;
  }
  // keeps a block out of the deflated subspace (rounding brings it back in a little each step)
  const Eigen::MatrixXd MD = deflated ? timesBlock(M, *deflated) : Eigen::MatrixXd();
  const auto project = [&](Eigen::MatrixXd& X) {
    if (deflated) X -= *deflated * (MD.transpose() * X);
  };

  // the basis, one M-orthonormal block per step, and M times its newest block (the next
  // solve's right-hand side). M times the older blocks is not kept: the reorthogonalisation
  // takes M W instead, one product with M per pass, which holds one basis less in memory
  // (107 MB at 84 vectors of a 53 369-node mesh, where the basis and the factor are the peak).
  std::vector<Eigen::MatrixXd> V;
  Eigen::MatrixXd MVnewest;
  {
    std::mt19937 random(options.seed);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    Eigen::MatrixXd X(n, b);
    for (Eigen::Index j = 0; j < b; ++j)
      for (Eigen::Index i = 0; i < n; ++i) X(i, j) = uniform(random);
    project(X);
    Eigen::MatrixXd MX = timesBlock(M, X);
    if (!mOrthonormaliseBlock(X, MX)) {
      out.why = "the start block is dependent";
      return out;
    }
    V.push_back(std::move(X));
    MVnewest = std::move(MX);
  }
  Eigen::MatrixXd T = Eigen::MatrixXd::Zero(maxDim, maxDim);  // V^T M A V, a column block per step
  const double floor = std::pow(std::numeric_limits<double>::epsilon(), 2.0 / 3.0);
  for (int step = 0;; ++step) {
    Eigen::MatrixXd W;
    solve(MVnewest, W);  // W = A V_step
    ++out.block_solves;
    // full reorthogonalisation against the whole basis: classical Gram-Schmidt, twice (the
    // second pass removes what rounding left of the first)
    for (int pass = 0; pass < 2; ++pass) {
      const Eigen::MatrixXd MWpass = timesBlock(M, W);
      Eigen::MatrixXd H((step + 1) * b, b);
      for (int k = 0; k <= step; ++k) H.middleRows(k * b, b).noalias() = V[std::size_t(k)].transpose() * MWpass;
      for (int k = 0; k <= step; ++k) W.noalias() -= V[std::size_t(k)] * H.middleRows(k * b, b);
      T.block(0, step * b, (step + 1) * b, b) += H;
    }
    project(W);
    Eigen::MatrixXd MW = timesBlock(M, W);
    const int cols = (step + 1) * b;
    out.dimension = cols;
    // Rayleigh-Ritz in the basis so far: A V = V T + W E_last^T, so x = V s has the residual
    // A x - theta x = W s_last, of M-norm sqrt(s_last^T (W^T M W) s_last). T holds the column
    // blocks k <= step of rows 0 .. step: its upper triangle.
    const Eigen::MatrixXd G = W.transpose() * MW;
    const Eigen::MatrixXd Tm = T.topLeftCorner(cols, cols).selfadjointView<Eigen::Upper>();
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> ritz(Tm);
    if (ritz.info() != Eigen::Success) {
      out.why = "the Rayleigh-Ritz eigen solution failed";
      return out;
    }
    bool converged = cols >= wanted;
    for (int w = 0; w < wanted && converged; ++w) {  // w = 0: the largest
      const Eigen::Index i = cols - 1 - w;
      const Eigen::VectorXd last = ritz.eigenvectors().col(i).tail(b);
      const double residual = std::sqrt(std::max(0.0, last.dot(G * last)));
      const double tolerance = w >= wanted - options.spares ? std::sqrt(options.tolerance) : options.tolerance;
      converged = residual <= tolerance * std::max(floor, std::abs(ritz.eigenvalues()(i)));
    }
    if (converged) {
      out.converged = true;
      out.theta.resize(wanted);
      const Eigen::MatrixXd S = ritz.eigenvectors().rightCols(wanted).rowwise().reverse();
      for (int w = 0; w < wanted; ++w) out.theta(w) = ritz.eigenvalues()(cols - 1 - w);
      W = Eigen::MatrixXd();
      MW = Eigen::MatrixXd();
      out.vectors = basisTimes(V, S);
      return out;
    }
    if (!mOrthonormaliseBlock(W, MW)) {
      out.why = "the Krylov space stopped growing before the wanted pairs converged";
      return out;
    }
    if (cols + b > maxDim) {
      out.why = "the wanted pairs had not converged in a basis of " + std::to_string(cols) + " vectors";
      return out;
    }
    V.push_back(std::move(W));
    MVnewest = std::move(MW);
  }
}

}  // namespace flexim::fe
