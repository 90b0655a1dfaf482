#include "core/fe/modal.h"

#include "core/fe/blas_threads.h"
#include "core/fe/block_lanczos.h"
#include "core/fe/cholesky_factor.h"
#include "core/fe/inertia.h"
#include "core/fe/sparse_block.h"

#include <Eigen/Eigenvalues>
#include <Eigen/SparseCholesky>
#include <Spectra/MatOp/SparseSymMatProd.h>
#include <Spectra/SymGEigsShiftSolver.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <numeric>
#include <sstream>
#include <unordered_map>

namespace flexim::fe {

using SpMat = Eigen::SparseMatrix<double>;

std::vector<double> ModalResult::frequenciesHz() const {
  std::vector<double> f(eigenvalues.size());
  for (int i = 0; i < eigenvalues.size(); ++i) f[i] = std::sqrt(std::max(0.0, eigenvalues(i))) / (2 * std::numbers::pi);
  return f;
}

namespace {

/// Adds the wall time of its scope to `sum` [s].
class AddSeconds {
 public:
  explicit AddSeconds(double& sum) : m_sum(sum), m_start(std::chrono::steady_clock::now()) {}
  ~AddSeconds() { m_sum += std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count(); }
  AddSeconds(const AddSeconds&) = delete;
  AddSeconds& operator=(const AddSeconds&) = delete;

 private:
  double& m_sum;
  std::chrono::steady_clock::time_point m_start;
};

/// (K - sigma M)^{-1} x through CHOLMOD; K - sigma M is SPD for sigma < 0.
class ShiftInvertOp {
 public:
  using Scalar = double;
  using Factor = CholeskyFactor;
  ShiftInvertOp(const SpMat& K, const SpMat& M) : m_K(K), m_M(M) {}
  Eigen::Index rows() const { return m_K.rows(); }
  Eigen::Index cols() const { return m_K.cols(); }
  void set_shift(double sigma) {
    if (m_llt && m_ok && sigma == m_sigma) return;  // the factor of this shift is still held
    const ScopedBlasThreads freeCores(blasThreadsForFactorisation(m_K.rows()));  // level-3 kernels (blas_threads.h)
    const AddSeconds timed(m_factorSeconds);
    m_sigma = sigma;
    ++m_factorisations;
    m_llt = std::make_unique<Factor>(m_K.rows());
    m_llt->factorizeLower(lowerShifted(m_K, m_M, sigma));
    m_ok = m_llt->info() == Eigen::Success;
    if (m_ok) m_order = m_llt->order();
  }
  /// Frees the factor (the Sturm count's factorisation comes next); set_shift makes a new one.
  void release() {
    m_llt.reset();
    m_ok = false;
  }
  /// The elimination order of the last factorisation (empty before the first).
  const std::vector<int>& order() const { return m_order; }
  void perform_op(const double* x, double* y) const {
    Eigen::Map<Eigen::VectorXd> out(y, rows());
    out = m_llt->solve(Eigen::Map<const Eigen::VectorXd>(x, rows()));
    // deflation: remove the exact rigid subspace (M-orthogonal projector; it commutes with the
    // operator because the rigid fields are exact null vectors of K)
    if (m_R) out -= *m_R * (m_MR.transpose() * out);
    ++m_solves;
  }
  /// The same for the columns of a block: one solve with several right-hand sides. On the
  /// Lanczos's one BLAS thread: with 4 right-hand sides a second thread gained nothing (wall
  /// 1.02 ± 0.05 of two threads' on the 53 369-node deck) and spun between the solves (CPU
  /// 0.82 of two threads').
  void solveBlock(const Eigen::MatrixXd& in, Eigen::MatrixXd& out) const {
    out = m_llt->solve(in);
    if (m_R) out -= *m_R * (m_MR.transpose() * out);
    m_solves += in.cols();
  }
  /// Rigid fields to deflate (M-orthonormal columns); nullptr for none.
  void deflate(const Eigen::MatrixXd* R) {
    m_R = R;
    if (R) m_MR = timesBlock(m_M, *R);
  }
  bool ok() const { return m_ok; }
  long solves() const { return m_solves; }
  int factorisations() const { return m_factorisations; }
  double factorSeconds() const { return m_factorSeconds; }

 private:
  const SpMat& m_K;
  const SpMat& m_M;
  std::unique_ptr<Factor> m_llt;
  std::vector<int> m_order;
  double m_sigma = 0.0;
  int m_factorisations = 0;
  double m_factorSeconds = 0.0;
  const Eigen::MatrixXd* m_R = nullptr;
  Eigen::MatrixXd m_MR;
  bool m_ok = false;
  mutable long m_solves = 0;
};

/// K U = F by conjugate gradients preconditioned with the shift-invert factor, rigid fields
/// deflated (ModalResult::static_displacements), the columns in one block per iteration. The
/// factor's (lambda - sigma)^-1 is corrected to lambda^-1 on the computed modes: `modes` x are
/// M-normalised up to `weights` c (1 / lambda - 1 / (lambda - sigma)) / (x^T M x), and the term
/// X diag(c) X^T is positive semidefinite, so the preconditioner stays positive definite however
/// rough the modes. A column stops when r^T z, its error's energy for a preconditioner this
/// close to K^-1 on K's range, is below 1e-20 of its solution's energy u^T f = sum alpha r^T z
/// (conjugate gradients from zero). `R` holds the loads and is left with the residuals. Five
/// blocks of the loads' size are held (the factor is held too: this is near the eigen solution's
/// peak); a converged column is left alone, not taken out of the blocks. False when a column has
/// not converged in 40 iterations or loses positive curvature.
bool conjugateGradientsOnFactor(const ShiftInvertOp& op, const SpMat& K, const Eigen::MatrixXd& modes,
                                const Eigen::VectorXd& weights, Eigen::MatrixXd& R, Eigen::MatrixXd& U, int& iterations) {
  constexpr double kEnergyTolerance = 1e-20;
  constexpr int kMaxIterations = 40;
  Eigen::MatrixXd Z;
  const auto precondition = [&] {
    op.solveBlock(R, Z);
    Z.noalias() += modes * (weights.asDiagonal() * (modes.transpose() * R));
  };
  const Eigen::Index columns = R.cols();
  U = Eigen::MatrixXd::Zero(R.rows(), columns);
  precondition();
  Eigen::MatrixXd P = Z;
  Eigen::VectorXd rz = R.cwiseProduct(Z).colwise().sum().transpose(), energy = Eigen::VectorXd::Zero(columns);
  std::vector<char> open(static_cast<std::size_t>(columns));
  for (Eigen::Index j = 0; j < columns; ++j) open[std::size_t(j)] = rz(j) > 0;
  iterations = 0;
  while (std::find(open.begin(), open.end(), 1) != open.end()) {
    if (iterations++ == kMaxIterations) return false;
    const Eigen::MatrixXd KP = timesBlock(K, P);
    for (Eigen::Index j = 0; j < columns; ++j) {
      if (!open[std::size_t(j)]) continue;
      const double curvature = P.col(j).dot(KP.col(j));
      if (!(curvature > 0)) return false;
      const double alpha = rz(j) / curvature;
      U.col(j) += alpha * P.col(j);
      R.col(j) -= alpha * KP.col(j);
      energy(j) += alpha * rz(j);
    }
    precondition();
    for (Eigen::Index j = 0; j < columns; ++j) {
      if (!open[std::size_t(j)]) continue;
      const double rzNew = R.col(j).dot(Z.col(j));
      if (rzNew <= kEnergyTolerance * energy(j)) {
        open[std::size_t(j)] = 0;
        continue;
      }
      P.col(j) = Z.col(j) + (rzNew / rz(j)) * P.col(j);
      rz(j) = rzNew;
    }
  }
  return true;
}

/// M-orthonormalises the columns of X in place (modified Gram-Schmidt, twice for stability). M X
/// is formed once per pass and updated with the columns (X's updates are linear), not formed
/// again for each pair of columns. A dependent column becomes zero.
void mOrthonormalise(Eigen::MatrixXd& X, const SpMat& M) {
  for (int pass = 0; pass < 2; ++pass) {
    Eigen::MatrixXd MX = timesBlock(M, X);
    for (int j = 0; j < X.cols(); ++j) {
      for (int i = 0; i < j; ++i) {
        const double c = MX.col(i).dot(X.col(j));
        X.col(j) -= c * X.col(i);
        MX.col(j) -= c * MX.col(i);
      }
      const double n = std::sqrt(std::max(0.0, X.col(j).dot(MX.col(j))));
      if (n > 0) {
        X.col(j) /= n;
        MX.col(j) /= n;
      }
    }
  }
}

}  // namespace

namespace {
/// Unnormalised rigid fields about the origin on the dofs `places`: 3 translations, 3 rotations
/// (e_a x x).
Eigen::MatrixXd rigidFields(const std::vector<Eigen::Vector3d>& coords, const std::vector<DofPlace>& places,
                            const Eigen::Vector3d& origin) {
  Eigen::MatrixXd R = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(places.size()), 6);
  for (std::size_t i = 0; i < places.size(); ++i) {
    const auto r = static_cast<Eigen::Index>(i);
    const int c = places[i].component;
    const Eigen::Vector3d d = coords[std::size_t(places[i].node)] - origin;
    R(r, c) = 1;
    for (int a = 0; a < 3; ++a) R(r, 3 + a) = Eigen::Vector3d::Unit(a).cross(d)(c);
  }
  return R;
}
}  // namespace

std::vector<DofPlace> nodeMajorPlaces(std::size_t nodes) {
  std::vector<DofPlace> places(3 * nodes);
  for (std::size_t i = 0; i < places.size(); ++i) places[i] = {static_cast<int>(i / 3), static_cast<int>(i % 3)};
  return places;
}

MassProperties massProperties(const std::vector<Eigen::Vector3d>& coords, const SpMat& M) {
  MassProperties p;
  const Eigen::MatrixXd R = rigidFields(coords, nodeMajorPlaces(coords.size()), Eigen::Vector3d::Zero());
  const Eigen::MatrixXd P = R.transpose() * timesBlock(M, R);  // [m I, -m c~; m c~, J_origin]
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
  Eigen::MatrixXd R = rigidFields(coords, nodeMajorPlaces(coords.size()), massProperties(coords, M).centre);
  mOrthonormalise(R, M);
  return R;
}

std::vector<int> dofParts(const SpMat& K, const SpMat& M, const std::vector<DofPlace>& places, int& parts) {
  const auto n = static_cast<int>(places.size());
  std::vector<int> parent(static_cast<std::size_t>(n));
  std::iota(parent.begin(), parent.end(), 0);
  const auto root = [&](int i) {
    while (parent[std::size_t(i)] != i) i = parent[std::size_t(i)] = parent[std::size_t(parent[std::size_t(i)])];
    return i;
  };
  const auto join = [&](int i, int j) {
    const int a = root(i), b = root(j);
    if (a != b) parent[std::size_t(std::max(a, b))] = std::min(a, b);
  };
  for (const SpMat* A : {&K, &M})
    for (Eigen::Index j = 0; j < A->outerSize(); ++j)
      for (SpMat::InnerIterator it(*A, j); it; ++it)
        if (it.value() != 0) join(static_cast<int>(it.row()), static_cast<int>(it.col()));
  std::unordered_map<int, int> firstOfNode;  // the dofs of a node move together
  for (int i = 0; i < n; ++i)
    if (const auto [at, fresh] = firstOfNode.emplace(places[std::size_t(i)].node, i); !fresh) join(i, at->second);
  std::vector<int> part(static_cast<std::size_t>(n), -1);
  parts = 0;
  for (int i = 0; i < n; ++i) {
    const int r = root(i);
    if (part[std::size_t(r)] < 0) part[std::size_t(r)] = parts++;
    part[std::size_t(i)] = part[std::size_t(r)];
  }
  return part;
}

Eigen::MatrixXd rigidBodyModesOfParts(const std::vector<Eigen::Vector3d>& coords, const std::vector<DofPlace>& places,
                                      const SpMat& M, const std::vector<int>& part, int parts) {
  const auto n = static_cast<Eigen::Index>(places.size());
  if (parts <= 1) {  // translations and rotations about the centre of mass, in that order
    Eigen::MatrixXd R0 = rigidFields(coords, places, Eigen::Vector3d::Zero());
    const Eigen::MatrixXd P = R0.transpose() * timesBlock(M, R0);
    const double mass = P.topLeftCorner<3, 3>().trace() / 3;
    const Eigen::Matrix3d C = P.block<3, 3>(3, 0);
    const Eigen::Vector3d centre = mass > 0 ? Eigen::Vector3d(Eigen::Vector3d(C(2, 1), C(0, 2), C(1, 0)) / mass)
                                            : Eigen::Vector3d::Zero();
    Eigen::MatrixXd R = rigidFields(coords, places, centre);
    mOrthonormalise(R, M);
    return R;
  }
  // the six fields of every dof's own part, about the part's centroid, side by side in one
  // n x 6 block: parts share no entry of M, so M F and each part's Gram matrix F_p^T M F_p come
  // from one product
  std::vector<Eigen::Vector3d> centre(static_cast<std::size_t>(parts), Eigen::Vector3d::Zero());
  std::vector<int> count(static_cast<std::size_t>(parts), 0);
  for (Eigen::Index i = 0; i < n; ++i) {
    centre[std::size_t(part[std::size_t(i)])] += coords[std::size_t(places[std::size_t(i)].node)];
    ++count[std::size_t(part[std::size_t(i)])];
  }
  Eigen::MatrixXd F = rigidFields(coords, places, Eigen::Vector3d::Zero());
  for (Eigen::Index i = 0; i < n; ++i) {  // about the part's centroid: e_a x (x - c) = e_a x x - e_a x c
    const auto p = std::size_t(part[std::size_t(i)]);
    const Eigen::Vector3d c = centre[p] / count[p];
    for (int a = 0; a < 3; ++a) F(i, 3 + a) -= Eigen::Vector3d::Unit(a).cross(c)(places[std::size_t(i)].component);
  }
  const Eigen::MatrixXd MF = timesBlock(M, F);
  std::vector<Eigen::Matrix<double, 6, 6>> gram(static_cast<std::size_t>(parts), Eigen::Matrix<double, 6, 6>::Zero());
  for (Eigen::Index r = 0; r < n; ++r) gram[std::size_t(part[std::size_t(r)])] += F.row(r).transpose() * MF.row(r);
  // per part: an M-orthonormal basis of its fields, F_p V / sqrt(lambda), without the directions
  // the part cannot move in rigidly (a part on one line has five, a single node three)
  std::vector<Eigen::MatrixXd> basis(static_cast<std::size_t>(parts));
  Eigen::Index columns = 0;
  for (int p = 0; p < parts; ++p) {
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 6, 6>> eig(0.5 * (gram[std::size_t(p)] + gram[std::size_t(p)].transpose()));
    const double largest = eig.eigenvalues().maxCoeff();
    Eigen::MatrixXd& B = basis[std::size_t(p)];
    for (int j = 5; j >= 0; --j)
      if (eig.eigenvalues()(j) > 1e-10 * largest && largest > 0) {
        B.conservativeResize(6, B.cols() + 1);
        B.col(B.cols() - 1) = eig.eigenvectors().col(j) / std::sqrt(eig.eigenvalues()(j));
      }
    columns += B.cols();
  }
  std::vector<Eigen::Index> first(static_cast<std::size_t>(parts), 0);
  for (int p = 1; p < parts; ++p) first[std::size_t(p)] = first[std::size_t(p - 1)] + basis[std::size_t(p - 1)].cols();
  Eigen::MatrixXd R = Eigen::MatrixXd::Zero(n, columns);
  for (Eigen::Index r = 0; r < n; ++r) {
    const auto p = std::size_t(part[std::size_t(r)]);
    if (basis[p].cols()) R.row(r).segment(first[p], basis[p].cols()) = F.row(r) * basis[p];
  }
  return R;
}

namespace {

/// Up to this many dofs the eigenproblem is solved dense, all eigenvalues at once.
constexpr Eigen::Index kDenseLimit = 300;

/// A free mesh in more parts than this is refused: its rigid fields alone (6 per part, a dense
/// column each) would outweigh the mesh, and it is not one body.
constexpr int kMaxParts = 24;

/// Mean of the positive diagonal entries (0 if none): the scale of a matrix in its units.
double meanPositiveDiagonal(const SpMat& A) {
  double sum = 0;
  long count = 0;
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    if (const double d = A.coeff(i, i); d > 0) {
      sum += d;
      ++count;
    }
  return count ? sum / count : 0.0;
}

/// Eigenvalues of (K, M) below s by the inertia of K - s M (Sylvester's law), -1 if the
/// factorisation fails. `order`: the shift-invert factorisation's elimination order (same pattern).
int sturmCount(const SpMat& K, const SpMat& M, double s, const std::vector<int>& order, std::string& error) {
  const ScopedBlasThreads freeCores(blasThreadsForFactorisation(K.rows()));  // a factorisation (blas_threads.h)
  const InertiaResult r = negativeEigenvalueCount(lowerShifted(K, M, s), order.empty() ? nullptr : &order);
  error = r.error;
  return static_cast<int>(r.negative);
}

/// |K x - lambda M x| / max(|K x|, |lambda| |M x|).
/// The relative residual of a mode (modal.h) and the level that rounding alone gives it: each
/// entry of K x is a sum of products as large as |K| |x|, and a low mode of a slender body has a
/// small K x (a clamped 10 m beam: |K| |x| / |K x| ~ lambda_max / lambda_1 ~ 1e10), so its residual
/// cannot be computed below about eps |K| |x| / |K x| however exact the mode is.
struct Residual {
  double value = 0.0, roundoff = 0.0;
  double mass = 0.0;  ///< x^T M x, for the normalisation: M x is at hand here
};

/// The residuals of the modes in the columns of X (eigenvalues lambda). The products with K, |K|
/// and M are made for blocks of modes in one pass over each matrix, through row-major copies
/// (each entry of K then updates a contiguous row): a pass per mode and matrix read the 24e6
/// entries of K 80 times for the 102 387-node deck.
std::vector<Residual> modeResiduals(const SpMat& K, const SpMat& M, const Eigen::MatrixXd& X, const Eigen::VectorXd& lambda) {
  constexpr int kBlock = 8;  // modes per pass, a fixed size: each row update is one vector operation
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, kBlock, Eigen::RowMajor>;
  std::vector<Residual> out(static_cast<std::size_t>(X.cols()));
  const Eigen::Index n = X.rows();
  for (Eigen::Index first = 0; first < X.cols(); first += kBlock) {
    const Eigen::Index c = std::min<Eigen::Index>(kBlock, X.cols() - first);
    RowMajor x = RowMajor::Zero(n, kBlock);  // the columns past the last mode stay zero
    x.leftCols(c) = X.middleCols(first, c);
    const RowMajor absX = x.cwiseAbs();
    RowMajor Kx = RowMajor::Zero(n, kBlock), absKx = RowMajor::Zero(n, kBlock), Mx = RowMajor::Zero(n, kBlock);
    addSymmetricTimes(K, x, Kx, [](double a) { return a; });
    addSymmetricTimes(K, absX, absKx, [](double a) { return std::abs(a); });
    addSymmetricTimes(M, x, Mx, [](double a) { return a; });
    for (Eigen::Index k = 0; k < c; ++k) {
      const double l = lambda(first + k);
      const double scale = std::max({Kx.col(k).norm(), std::abs(l) * Mx.col(k).norm(), 1e-300});
      out[std::size_t(first + k)] = {(Kx.col(k) - l * Mx.col(k)).norm() / scale,
                                     std::numeric_limits<double>::epsilon() * absKx.col(k).norm() / scale,
                                     x.col(k).dot(Mx.col(k))};
    }
  }
  return out;
}

std::string hz(double lambda) {
  std::ostringstream s;
  s.precision(6);
  s << std::sqrt(std::max(0.0, lambda)) / (2 * std::numbers::pi) << " Hz";
  return s.str();
}

}  // namespace

bool freeModes(const SpMat& K0, const SpMat& M0, const std::vector<Eigen::Vector3d>& coords, const ModalOptions& opt,
               ModalResult& out, Diagnostics& diag) {
  const bool nodeMajor = static_cast<Eigen::Index>(coords.size()) * 3 == K0.rows();
  return freeModes(K0, M0, coords, nodeMajor ? nodeMajorPlaces(coords.size()) : std::vector<DofPlace>(), opt, out, diag);
}

bool freeModes(const SpMat& K0, const SpMat& M0, const std::vector<Eigen::Vector3d>& coords,
               const std::vector<DofPlace>& places, const ModalOptions& opt, ModalResult& out, Diagnostics& diag) {
  const Eigen::Index n = K0.rows();
  if (K0.rows() != K0.cols() || M0.rows() != n || M0.cols() != n || n == 0) {
    diag.error("modes", "stiffness and mass matrices must be square and of equal size");
    return false;
  }
  // dofs with neither stiffness nor mass make every factorisation singular: name them
  {
    std::vector<long> empty;
    for (Eigen::Index i = 0; i < n; ++i)
      if (K0.coeff(i, i) == 0 && M0.coeff(i, i) == 0) empty.push_back(i);
    if (!empty.empty()) {
      std::ostringstream s;
      s << empty.size() << " degrees of freedom have neither stiffness nor mass (dof";
      for (size_t k = 0; k < std::min<size_t>(empty.size(), 6); ++k) s << ' ' << empty[k];
      s << (empty.size() > 6 ? " ..." : "") << "; dof = 3 x node index + component): nodes outside every element?";
      diag.error("modes", s.str());
      return false;
    }
  }
  const double sK = meanPositiveDiagonal(K0), sM = meanPositiveDiagonal(M0);
  if (!(sK > 0) || !(sM > 0)) {
    diag.error("modes", sK > 0 ? "the mass matrix has no positive diagonal entry" : "the stiffness matrix has no positive diagonal entry");
    return false;
  }
  // K and M in their own units: every threshold below is relative, and scaled copies would hold
  // two more matrices through the factorisation, the peak of the memory (0.39 GB at 100 000 nodes)
  const SpMat& K = K0;
  const SpMat& M = M0;
  const double lambdaScale = sK / sM;  ///< the eigenvalues' unit: ratio of mean diagonals
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
  //
  // A free mesh in several parts (what ties or contact held together was dropped) has six rigid
  // modes per part: all of them are rigid modes, and the elastic modes asked for come on top.
  int parts = 1;
  const bool free = opt.expected_rigid == 6;
  const bool nodal = static_cast<Eigen::Index>(places.size()) == n && !coords.empty();
  const std::vector<int> part = free && nodal ? dofParts(K, M, places, parts) : std::vector<int>();
  out.parts = parts;
  if (parts > kMaxParts) {
    diag.error("modes", "the mesh is in " + std::to_string(parts) + " parts that nothing connects (more than " +
                            std::to_string(kMaxParts) + "): it is not one body. Were tied or contact surfaces dropped "
                            "(the import's warnings say), or are there loose elements?");
    return false;
  }
  const bool deflate = opt.exact_rigid_modes && free && nodal;
  const Eigen::MatrixXd R = deflate || parts > 1 ? rigidBodyModesOfParts(coords, places, M, part, parts) : Eigen::MatrixXd();
  const int expectedRigid = parts > 1 ? static_cast<int>(R.cols()) : opt.expected_rigid;
  if (parts > 1)
    diag.info("modes", "the mesh is in " + std::to_string(parts) + " parts that nothing connects: " +
                           std::to_string(expectedRigid) + " rigid-body modes (six per part that can move so), then the " +
                           std::to_string(std::max(1, opt.elastic_modes)) + " elastic modes asked for");
  const int rigidWanted = std::max(0, expectedRigid);
  const int wanted = std::max(1, opt.elastic_modes) + (deflate ? 0 : rigidWanted);  // from Lanczos
  const int maxNev = static_cast<int>(n) - 1 - static_cast<int>(R.cols());
  if (deflate) {
    // the rigid fields must be zero-energy; otherwise the body is supported or K is wrong
    const double energy = timesBlock(K, R).norm() / std::max(symmetricNorm(K) * R.norm(), 1e-300);
    if (energy > 1e-8) {
      std::ostringstream ratio;
      ratio.precision(3);
      ratio << energy;  // small numbers in %g form: std::to_string printed 1e-7 as 0.000000
      diag.error("modes", "the stiffness resists rigid-body motion (|K r| / |K||r| = " + ratio.str() +
                              ", above 1e-08): the body is not free, or the matrices do not belong to this mesh");
      return false;
    }
  }
  const double lamMax = opt.max_frequency_hz > 0 ? std::pow(2 * std::numbers::pi * opt.max_frequency_hz, 2)
                                                 : 0.0;

  Eigen::VectorXd values;  // ascending
  Eigen::MatrixXd vectors;
  std::vector<double> modalMass;  // x^T M x of each computed mode, from the residual check
  int keep = 0;
  // modes returned out of the computed ones: all below the frequency limit (and the rigid
  // ones), or the number asked for
  auto keepCount = [&] {
    const int computed = static_cast<int>(values.size());
    if (lamMax <= 0) return std::min(computed, std::max(1, opt.elastic_modes) + rigidWanted);
    int k = 0;
    for (int j = 0; j < computed; ++j)
      if (values(j) <= lamMax || k < rigidWanted) ++k;
    return k;
  };
  // check 1: the residual of every kept elastic mode (exact rigid fields are checked by their
  // energy above); fills out.residuals, returns the failures and names up to five of them
  auto checkResiduals = [&](int firstComputed, std::string& named) {
    const AddSeconds timed(out.seconds.residuals);
    std::ostringstream bad;
    int badCount = 0;
    out.residuals.assign(values.size(), 0.0);
    modalMass.assign(values.size(), 1.0);  // exact rigid fields are M-orthonormal
    const int checked = std::max(0, keep - firstComputed);
    const std::vector<Residual> residuals =
        modeResiduals(K, M, vectors.middleCols(firstComputed, checked), values.segment(firstComputed, checked));
    for (int j = firstComputed; j < keep; ++j) {
      const Residual& r = residuals[std::size_t(j - firstComputed)];
      out.residuals[j] = r.value;
      modalMass[std::size_t(j)] = r.mass;
      const bool rigidLike = std::abs(values(j)) < 1e-6 * std::abs(sigma);
      // the tolerance, or a few times what rounding alone leaves when that is more
      const double tolerance = std::max(opt.residual_tolerance, opt.roundoff_factor * r.roundoff);
      if (!rigidLike && r.value > tolerance && badCount++ < 5)
        bad << (badCount > 1 ? ", " : "") << "mode " << j + 1 << " (" << hz(values(j)) << ", residual "
            << r.value << ")";
    }
    named = bad.str();
    return badCount;
  };
  // Small problems (a few masses and springs, a coarse test mesh): the whole spectrum, dense.
  // Lanczos returns at most n - 1 modes and leaves no spare above them for the Sturm check.
  if (n <= kDenseLimit) {
    // M x = mu (K - sigma M) x with K - sigma M positive definite (M may be singular): lambda = sigma + 1 / mu
    const Eigen::MatrixXd B = SpMat(M.selfadjointView<Eigen::Lower>());
    const Eigen::MatrixXd A = Eigen::MatrixXd(SpMat(K.selfadjointView<Eigen::Lower>())) - sigma * B;
    Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> dense(B, A);
    if (dense.info() != Eigen::Success) {
      diag.error("modes", "dense eigen solution failed; is the stiffness symmetric and K - sigma M positive definite?");
      return false;
    }
    std::vector<std::pair<double, int>> found;  // (lambda, column), finite eigenvalues only
    for (int j = 0; j < dense.eigenvalues().size(); ++j)
      if (const double mu = dense.eigenvalues()(j); mu > 1e-14 * dense.eigenvalues().cwiseAbs().maxCoeff())
        found.emplace_back(sigma + 1 / mu, j);
    std::sort(found.begin(), found.end());
    const int total = static_cast<int>(found.size());
    values.resize(total);
    vectors.resize(n, total);
    for (int j = 0; j < total; ++j) {
      values(j) = found[j].first;
      vectors.col(j) = dense.eigenvectors().col(found[j].second);
    }
    keep = keepCount();
    out.attempts = 1;
    std::string bad;
    const int badCount = checkResiduals(0, bad);
    if (badCount) {
      diag.error("modes", "the dense eigen solution failed its residual check, so no modes are returned: " + bad);
      return false;
    }
    // every eigenvalue is known: the count below a shift above the kept ones is exact
    out.sturm_shift = (keep < total ? 0.5 * (values(keep - 1) + values(keep)) : 2 * values(keep - 1) + lambdaScale);
    out.sturm_count = keep;
  } else {
    const ScopedBlasThreads oneThread(1);  // the Lanczos solves; factorisations take every core
    ShiftInvertOp op(K, M);
    op.deflate(deflate ? &R : nullptr);
    Spectra::SparseSymMatProd<double> Bop(M);
    std::string failure;  // why the last attempt's modes were not accepted
    // one spare mode above the wanted ones: the Sturm check's shift goes below it
    int nev = std::min(wanted + 1, maxNev);
    constexpr int kAttempts = 3;
    // a retry after a failed check moves the shift and uses more Lanczos vectors; one that only
    // lacked a gap above the kept modes (a pair of equal frequencies at the top) asks for more
    // modes with the same shift and factor
    int moves = 0;
    const auto factorisationFailed = [&](double shift) {
      diag.error("modes", "Cholesky factorisation of K - sigma M failed (sigma = " + std::to_string(shift) +
                              "); is the mass matrix positive definite and the stiffness symmetric?");
      return false;
    };
    // the static loads, once, on the first factor; their solution does not depend on the modes
    bool staticsTried = false;
    const auto solveStatics = [&](const ShiftInvertOp& factor) {
      // a load balanced for the whole body is not for each of several parts
      if (!deflate || parts > 1) return;
      const AddSeconds timed(out.seconds.statics);
      Eigen::MatrixXd F = opt.static_loads();
      if (F.rows() != n) return;
      // the loads are balanced (no rigid part) to their rounding: that too is taken out, since
      // conjugate gradients would try to solve for it
      F -= timesBlock(M, R) * (R.transpose() * F);
      // the computed elastic modes correct the preconditioner where it is furthest from K^-1
      Eigen::VectorXd weights = Eigen::VectorXd::Zero(vectors.cols());
      for (int j = 0; j < keep; ++j)
        if (values(j) > 1e-6 * std::abs(sigma))
          weights(j) = (1 / values(j) - 1 / (values(j) - sigma)) / modalMass[std::size_t(j)];
      if (!conjugateGradientsOnFactor(factor, K, vectors, weights, F, out.static_displacements,
                                      out.static_iterations))
        out.static_displacements.resize(0, 0);
    };
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
      ++out.attempts;
      const double shift = sigma * std::pow(10.0, moves);
      const int ncvFactor = 1 << moves;
      // The first attempt is a block Lanczos (block_lanczos.h), a few solves with many
      // right-hand sides; retries, and a block run that does not converge, use Spectra's
      // restarted single-vector Lanczos, which needs more solves but no more memory.
      bool block = attempt == 0 && opt.lanczos_block > 0;
      // with a frequency limit, grow the count until the highest mode found passes the limit
      for (;;) {
        if (block) {
          op.set_shift(shift);
          if (!op.ok()) return factorisationFailed(shift);
          BlockLanczosOptions blockOptions;
          blockOptions.block = opt.lanczos_block;
          blockOptions.tolerance = opt.tolerance;
          blockOptions.spares = nev > wanted ? 1 : 0;
          const AddSeconds timed(out.seconds.iterate);
          const BlockLanczosResult run = blockLanczos(
              [&](const Eigen::MatrixXd& in, Eigen::MatrixXd& result) { op.solveBlock(in, result); }, M, nev,
              blockOptions, deflate ? &R : nullptr);
          out.block_solves += run.block_solves;
          if (run.converged) {
            values = (run.theta.array().inverse() + shift).matrix();
            vectors = run.vectors;
          } else {
            block = false;  // the same factor serves the single-vector iteration
            diag.info("modes", "block Lanczos: " + run.why + "; continuing with single-vector Lanczos");
          }
        }
        if (!block) {
          const int ncv = std::min<int>(static_cast<int>(n), ncvFactor * std::max(2 * nev + 1, nev + 20));
          Spectra::SymGEigsShiftSolver<ShiftInvertOp, Spectra::SparseSymMatProd<double>, Spectra::GEigsMode::ShiftInvert>
              solver(op, Bop, nev, ncv, shift);
          if (!op.ok()) return factorisationFailed(shift);
          // Spectra throws on numerical breakdown (e.g. a singular mass matrix): report, never crash
          try {
            const AddSeconds timed(out.seconds.iterate);
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
        }
        if (deflate) {  // the exact rigid modes come first, with eigenvalue 0
          Eigen::VectorXd v(values.size() + R.cols());
          v << Eigen::VectorXd::Zero(R.cols()), values;
          Eigen::MatrixXd x(n, vectors.cols() + R.cols());
          x << R, vectors;
          values = v;
          vectors = x;
        }
        if (lamMax <= 0 || values.maxCoeff() > lamMax || nev >= maxNev) break;
        nev = std::min(maxNev, 2 * nev);
      }
      // ascending order
      std::vector<int> order(values.size());
      std::iota(order.begin(), order.end(), 0);
      std::sort(order.begin(), order.end(), [&](int a, int b) { return values(a) < values(b); });
      {
        const Eigen::VectorXd v = values;
        const Eigen::MatrixXd x = vectors;
        for (size_t j = 0; j < order.size(); ++j) {
          values(j) = v(order[j]);
          vectors.col(j) = x.col(order[j]);
        }
      }
      const int computed = static_cast<int>(values.size());
      keep = keepCount();
      std::string bad;
      const int badCount = checkResiduals(deflate ? static_cast<int>(R.cols()) : 0, bad);
      if (opt.static_loads && !staticsTried) {  // before the factor is freed for the Sturm count
        staticsTried = true;
        solveStatics(op);
      }
      // check 2: no mode missing. The shift s goes in the highest gap between computed eigenvalues
      // at or above the kept ones, so that every kept mode is below it.
      int below = -1;
      double s = 0;
      for (int j = computed - 2; j >= keep - 1 && j >= 0; --j) {
        const double gap = values(j + 1) - values(j);
        if (gap > 1e-6 * std::max(std::abs(values(j + 1)), std::abs(sigma)) && values(j + 1) > 0) {
          s = 0.5 * (values(j) + values(j + 1));
          below = j + 1;
          break;
        }
      }
      int count = -2;
      std::string countError;
      // the shift-invert factor is no longer needed (a retry makes a new one): freed first, so
      // that the two factorisations are never held at once
      if (below > 0) {
        op.release();
        const AddSeconds timed(out.seconds.sturm);
        count = sturmCount(K, M, s, op.order(), countError);
      }
      out.sturm_shift = s;
      out.sturm_count = count;
      if (badCount == 0 && below > 0 && count == below) {
        failure.clear();
        break;
      }
      std::ostringstream why;
      if (badCount) why << badCount << " mode(s) with a residual above " << opt.residual_tolerance << ": " << bad;
      if (below <= 0) {
        // no gap above the kept modes (a multiple eigenvalue at the top): compute more and retry
        why << (badCount ? "; " : "") << "no gap above the highest mode to check the count in";
        nev = std::min(maxNev, nev + 4);
      } else if (count < 0) {
        why << (badCount ? "; " : "") << "the Sturm count's factorisation of K - s M failed (" << countError << ")";
        nev = std::min(maxNev, nev + 4);
      } else if (count != below) {
        why << (badCount ? "; " : "") << "the Sturm count finds " << count << " eigenvalues below " << hz(s)
            << " but the Lanczos iteration returned " << below;
        if (count > below) why << ": " << count - below << " mode(s) missing";
        nev = std::min(maxNev, nev + std::max(4, count - below + 1));
      }
      failure = why.str();
      const bool onlyNoGap = badCount == 0 && below <= 0;
      if (!onlyNoGap) ++moves;
      if (attempt + 1 < kAttempts)
        diag.info("modes", std::string(onlyNoGap ? "computing more modes with the same shift: "
                                                 : "retrying the eigen solution with more Lanczos vectors and another shift: ") +
                               failure);
    }
    if (!failure.empty()) {
      diag.error("modes", "the eigen solution failed its checks after " + std::to_string(kAttempts) +
                              " attempts, so no modes are returned: " + failure);
      return false;
    }
    out.operations = op.solves();
    out.seconds.factorise = op.factorSeconds();
    out.factorisations = op.factorisations();
  }
  out.eigenvalues = values.head(keep);
  out.modes = vectors.leftCols(keep);
  out.residuals.resize(keep);
  // rigid modes: eigenvalues far below the first elastic one
  const double scale = std::abs(sigma);
  out.rigid.assign(keep, false);
  out.rigid_count = 0;
  for (int j = 0; j < keep; ++j)
    if (std::abs(out.eigenvalues(j)) < 1e-6 * scale) {
      out.rigid[j] = true;
      ++out.rigid_count;
    }
  if (out.rigid_count != expectedRigid) {
    std::ostringstream s;
    s << "found " << out.rigid_count << " rigid-body modes, expected " << expectedRigid;
    const int elastic = keep - out.rigid_count, asked = std::max(1, opt.elastic_modes);
    if (out.rigid_count > expectedRigid && lamMax <= 0 && elastic < asked) {
      // the extra zero modes took the place of elastic ones: fewer than asked is not an answer
      s << ", so only " << elastic << " of the " << asked
        << " elastic modes asked for: the mesh moves without straining (a mechanism, or parts held only by "
           "something the import dropped), so no modes are returned";
      diag.error("modes", s.str());
      return false;
    }
    if (out.rigid_count > expectedRigid) s << " (is the mesh a mechanism?)";
    diag.warning("modes", s.str());
  }
  if (!deflate && opt.exact_rigid_modes && free && out.rigid_count == expectedRigid && nodal) {
    const Eigen::MatrixXd Rx = rigidBodyModesOfParts(coords, places, M0, part, parts);
    for (int j = 0, r = 0; j < keep; ++j)
      if (out.rigid[j]) {
        out.modes.col(j) = Rx.col(r++);
        out.eigenvalues(j) = 0.0;
        out.residuals[j] = 0.0;
        modalMass[std::size_t(j)] = 1.0;
      }
  }
  // M-normalised to the last bit (the iterations' vectors are to their orthogonalisation's
  // accuracy), with x^T M x from the residual check rather than another product with M
  out.max_residual = 0;
  for (int j = 0; j < keep; ++j) {
    out.modes.col(j) /= std::sqrt(modalMass[std::size_t(j)]);
    if (!out.rigid[j]) out.max_residual = std::max(out.max_residual, out.residuals[j]);
  }
  out.shift = sigma;
  return true;
}

Eigen::MatrixXd modalAssurance(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, const SpMat& M) {
  const bool useM = M.rows() == a.rows();
  const Eigen::MatrixXd Mb = useM ? timesBlock(M, b) : b;
  const Eigen::MatrixXd Ma = useM ? timesBlock(M, a) : a;
  Eigen::MatrixXd mac(a.cols(), b.cols());
  for (int i = 0; i < a.cols(); ++i)
    for (int j = 0; j < b.cols(); ++j) {
      const double ab = a.col(i).dot(Mb.col(j));
      mac(i, j) = ab * ab / (a.col(i).dot(Ma.col(i)) * b.col(j).dot(Mb.col(j)));
    }
  return mac;
}

}  // namespace flexim::fe
