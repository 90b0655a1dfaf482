#include "core/fe/modal.h"

#include <Eigen/CholmodSupport>
#include <Eigen/Eigenvalues>
#include <Spectra/MatOp/SparseSymMatProd.h>
#include <Spectra/SymGEigsShiftSolver.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>
#include <sstream>

namespace flexim::fe {

using SpMat = Eigen::SparseMatrix<double>;

std::vector<double> ModalResult::frequenciesHz() const {
  std::vector<double> f(eigenvalues.size());
  for (int i = 0; i < eigenvalues.size(); ++i) f[i] = std::sqrt(std::max(0.0, eigenvalues(i))) / (2 * std::numbers::pi);
  return f;
}

namespace {

/// (K - sigma M)^{-1} x through CHOLMOD; K - sigma M is SPD for sigma < 0.
class ShiftInvertOp {
 public:
  using Scalar = double;
  ShiftInvertOp(const SpMat& K, const SpMat& M) : m_K(K), m_M(M) {}
  Eigen::Index rows() const { return m_K.rows(); }
  Eigen::Index cols() const { return m_K.cols(); }
  void set_shift(double sigma) {
    m_llt.compute(SpMat(m_K - sigma * m_M));
    m_ok = m_llt.info() == Eigen::Success;
  }
  void perform_op(const double* x, double* y) const {
    Eigen::Map<Eigen::VectorXd> out(y, rows());
    out = m_llt.solve(Eigen::Map<const Eigen::VectorXd>(x, rows()));
    // deflation: remove the exact rigid subspace (M-orthogonal projector; it commutes with the
    // operator because the rigid fields are exact null vectors of K)
    if (m_R) out -= *m_R * (m_MR.transpose() * out);
    ++m_solves;
  }
  /// Rigid fields to deflate (M-orthonormal columns); nullptr for none.
  void deflate(const Eigen::MatrixXd* R) {
    m_R = R;
    if (R) m_MR = m_M * *R;
  }
  bool ok() const { return m_ok; }
  long solves() const { return m_solves; }

 private:
  const SpMat& m_K;
  const SpMat& m_M;
  Eigen::CholmodSupernodalLLT<SpMat, Eigen::Lower> m_llt;
  const Eigen::MatrixXd* m_R = nullptr;
  Eigen::MatrixXd m_MR;
  bool m_ok = false;
  mutable long m_solves = 0;
};

/// M-orthonormalises the columns of X in place (modified Gram-Schmidt, twice for stability).
void mOrthonormalise(Eigen::MatrixXd& X, const SpMat& M) {
  for (int pass = 0; pass < 2; ++pass)
    for (int j = 0; j < X.cols(); ++j) {
      for (int i = 0; i < j; ++i) {
        const Eigen::VectorXd Mi = M * X.col(i);
        X.col(j) -= Mi.dot(X.col(j)) * X.col(i);
      }
      const double n = std::sqrt(X.col(j).dot(M * X.col(j)));
      if (n > 0) X.col(j) /= n;
    }
}

}  // namespace

namespace {
/// Unnormalised rigid fields about the origin: 3 translations, 3 rotations (e_a x x).
Eigen::MatrixXd rigidFields(const std::vector<Eigen::Vector3d>& coords, const Eigen::Vector3d& origin) {
  const int n = static_cast<int>(coords.size());
  Eigen::MatrixXd R = Eigen::MatrixXd::Zero(3 * n, 6);
  for (int k = 0; k < n; ++k) {
    const Eigen::Vector3d d = coords[k] - origin;
    for (int a = 0; a < 3; ++a) {
      R(3 * k + a, a) = 1;
      R.block<3, 1>(3 * k, 3 + a) = Eigen::Vector3d::Unit(a).cross(d);
    }
  }
  return R;
}
}  // namespace

MassProperties massProperties(const std::vector<Eigen::Vector3d>& coords, const SpMat& M) {
  MassProperties p;
  const Eigen::MatrixXd R = rigidFields(coords, Eigen::Vector3d::Zero());
  const Eigen::MatrixXd P = R.transpose() * (M * R);  // [m I, -m c~; m c~, J_origin]
  p.mass = P.topLeftCorner<3, 3>().trace() / 3;
  if (p.mass <= 0) return p;
  // translational-rotational coupling block is m c~ (rotation a moves mass along e_a x c)
  const Eigen::Matrix3d C = P.block<3, 3>(3, 0);
  p.centre = Eigen::Vector3d(C(2, 1), C(0, 2), C(1, 0)) / p.mass;
  const Eigen::Vector3d& c = p.centre;
  p.inertia = P.bottomRightCorner<3, 3>() - p.mass * (c.squaredNorm() * Eigen::Matrix3d::Identity() - c * c.transpose());
  return p;
}

Eigen::MatrixXd rigidBodyModes(const std::vector<Eigen::Vector3d>& coords, const SpMat& M) {
  Eigen::MatrixXd R = rigidFields(coords, massProperties(coords, M).centre);
  mOrthonormalise(R, M);
  return R;
}

bool freeModes(const SpMat& K, const SpMat& M, const std::vector<Eigen::Vector3d>& coords, const ModalOptions& opt,
               ModalResult& out, Diagnostics& diag) {
  const Eigen::Index n = K.rows();
  if (K.rows() != K.cols() || M.rows() != n || M.cols() != n || n == 0) {
    diag.error("modes", "stiffness and mass matrices must be square and of equal size");
    return false;
  }
  // automatic shift: a fraction of the largest diagonal ratio keeps K - sigma M well conditioned
  // (cond ~ lambda_max / |sigma|) while staying near the low end of the spectrum
  double sigma = opt.shift;
  if (sigma == 0) {
    double ratioMax = 0;
    const Eigen::VectorXd kd = K.diagonal(), md = M.diagonal();
    for (Eigen::Index i = 0; i < n; ++i)
      if (md(i) > 0) ratioMax = std::max(ratioMax, kd(i) / md(i));
    sigma = -1e-7 * ratioMax;
  }
  if (!(sigma < 0)) {
    diag.error("modes", "the shift must be negative for a free-free body");
    return false;
  }
  // A free body's six rigid modes form a 6-fold eigenvalue that single-vector Lanczos can miss
  // one of (it did, depending on the BLAS's rounding). With the geometry known, the exact rigid
  // fields are deflated from the operator and the iteration only looks for the elastic modes.
  const bool deflate = opt.exact_rigid_modes && opt.expected_rigid == 6 && static_cast<Eigen::Index>(coords.size()) * 3 == n;
  const Eigen::MatrixXd R = deflate ? rigidBodyModes(coords, M) : Eigen::MatrixXd();
  const int wanted = std::max(1, opt.elastic_modes) + (deflate ? 0 : std::max(0, opt.expected_rigid));
  int nev = std::min<int>(wanted, static_cast<int>(n) - 1 - static_cast<int>(R.cols()));
  if (deflate) {
    // the rigid fields must be zero-energy; otherwise the body is supported or K is wrong
    const double energy = (K * R).norm() / std::max(K.norm() * R.norm(), 1e-300);
    if (energy > 1e-8) {
      diag.error("modes", "the stiffness resists rigid-body motion (|K r| / |K||r| = " + std::to_string(energy) +
                              "): the body is not free, or the matrices do not belong to this mesh");
      return false;
    }
  }
  ShiftInvertOp op(K, M);
  op.deflate(deflate ? &R : nullptr);
  Spectra::SparseSymMatProd<double> Bop(M);

  Eigen::VectorXd values;
  Eigen::MatrixXd vectors;
  // With a frequency limit, grow the count until the highest mode found passes the limit.
  for (;;) {
    const int ncv = std::min<int>(static_cast<int>(n), std::max(2 * nev + 1, nev + 20));
    Spectra::SymGEigsShiftSolver<ShiftInvertOp, Spectra::SparseSymMatProd<double>, Spectra::GEigsMode::ShiftInvert>
        solver(op, Bop, nev, ncv, sigma);
    if (!op.ok()) {
      diag.error("modes", "Cholesky factorisation of K - sigma M failed (sigma = " + std::to_string(sigma) +
                              "); is the mass matrix positive definite and the stiffness symmetric?");
      return false;
    }
    // Spectra throws on numerical breakdown (e.g. a singular mass matrix): report, never crash
    try {
      solver.init();
      solver.compute(Spectra::SortRule::LargestMagn, 1000, opt.tolerance, Spectra::SortRule::SmallestAlge);
    } catch (const std::exception& e) {
      diag.error("modes", std::string("Lanczos iteration broke down (") + e.what() +
                              "); is the mass matrix positive definite?");
      return false;
    }
    out.iterations += solver.num_iterations();
    if (solver.info() != Spectra::CompInfo::Successful) {
      diag.error("modes", "Lanczos iterations did not converge; try fewer modes or another shift");
      return false;
    }
    values = solver.eigenvalues();
    vectors = solver.eigenvectors();
    if (deflate) {  // the exact rigid modes come first, with eigenvalue 0
      Eigen::VectorXd v(values.size() + 6);
      v << Eigen::VectorXd::Zero(6), values;
      Eigen::MatrixXd x(n, vectors.cols() + 6);
      x << R, vectors;
      values = v;
      vectors = x;
    }
    const double fTop = std::sqrt(std::max(0.0, values(values.size() - 1))) / (2 * std::numbers::pi);
    if (opt.max_frequency_hz <= 0 || fTop >= opt.max_frequency_hz || nev >= n - 1) break;
    nev = std::min<int>(static_cast<int>(n) - 1, 2 * nev);
  }
  // ascending order
  std::vector<int> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return values(a) < values(b); });
  int keep = static_cast<int>(order.size());
  if (opt.max_frequency_hz > 0) {
    const double lamMax = std::pow(2 * std::numbers::pi * opt.max_frequency_hz, 2);
    keep = 0;
    for (int i : order)
      if (values(i) <= lamMax || keep < opt.expected_rigid) ++keep;
  }
  out.eigenvalues.resize(keep);
  out.modes.resize(n, keep);
  for (int j = 0; j < keep; ++j) {
    out.eigenvalues(j) = values(order[j]);
    out.modes.col(j) = vectors.col(order[j]);
  }
  // rigid modes: eigenvalues far below the first elastic one
  const double scale = std::abs(sigma);
  out.rigid.assign(keep, false);
  out.rigid_count = 0;
  for (int j = 0; j < keep; ++j)
    if (std::abs(out.eigenvalues(j)) < 1e-6 * scale) {
      out.rigid[j] = true;
      ++out.rigid_count;
    }
  if (out.rigid_count != opt.expected_rigid) {
    std::ostringstream s;
    s << "found " << out.rigid_count << " rigid-body modes, expected " << opt.expected_rigid;
    if (out.rigid_count > opt.expected_rigid) s << " (is the mesh in several disconnected parts, or a mechanism?)";
    diag.warning("modes", s.str());
  }
  if (!deflate && opt.exact_rigid_modes && out.rigid_count == 6 && static_cast<int>(coords.size()) * 3 == n) {
    const Eigen::MatrixXd R = rigidBodyModes(coords, M);
    for (int j = 0, r = 0; j < keep; ++j)
      if (out.rigid[j]) {
        out.modes.col(j) = R.col(r++);
        out.eigenvalues(j) = 0.0;
      }
  }
  // M-normalise (Spectra returns B-normalised vectors; make it exact) and measure residuals
  out.max_residual = 0;
  for (int j = 0; j < keep; ++j) {
    const Eigen::VectorXd Mx = M * out.modes.col(j);
    out.modes.col(j) /= std::sqrt(out.modes.col(j).dot(Mx));
    if (out.rigid[j]) continue;
    const Eigen::VectorXd Kx = K * out.modes.col(j);
    const double r = (Kx - out.eigenvalues(j) * (M * out.modes.col(j))).norm() / std::max(Kx.norm(), 1e-300);
    out.max_residual = std::max(out.max_residual, r);
  }
  out.shift = sigma;
  out.operations = op.solves();
  return true;
}

Eigen::MatrixXd modalAssurance(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, const SpMat& M) {
  const bool useM = M.rows() == a.rows();
  const Eigen::MatrixXd Mb = useM ? Eigen::MatrixXd(M * b) : b;
  const Eigen::MatrixXd Ma = useM ? Eigen::MatrixXd(M * a) : a;
  Eigen::MatrixXd mac(a.cols(), b.cols());
  for (int i = 0; i < a.cols(); ++i)
    for (int j = 0; j < b.cols(); ++j) {
      const double ab = a.col(i).dot(Mb.col(j));
      mac(i, j) = ab * ab / (a.col(i).dot(Ma.col(i)) * b.col(j).dot(Mb.col(j)));
    }
  return mac;
}

}  // namespace flexim::fe
