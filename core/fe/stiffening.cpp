#include "core/fe/stiffening.h"

#include "core/fe/blas_threads.h"
#include "core/fe/cholesky_factor.h"
#include "core/fe/sparse_block.h"

#include <Eigen/Dense>

#include <algorithm>
#include <array>

namespace flexim::fe {

namespace {

using SpMat = Eigen::SparseMatrix<double>;

Eigen::Matrix3d skew3(const Eigen::Vector3d& v) {
  Eigen::Matrix3d S;
  S << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return S;
}

/// Unit loads at an interface's reference point spread over its nodes (3n x 6): the nodal
/// forces f_k = w_k S_k N^-1 [F; M] with S_k = [I, -(x_k - p)~], N = sum w_k S_k^T S_k, whose
/// resultant about p is exactly [F; M] (the transpose of an averaging interface's motion).
Eigen::MatrixXd interfaceLoads(const std::vector<Eigen::Vector3d>& coords, const Interface& itf) {
  const std::size_t nk = itf.nodes.size();
  std::vector<Eigen::Matrix<double, 3, 6>> S(nk);
  Eigen::Matrix<double, 6, 6> N = Eigen::Matrix<double, 6, 6>::Zero();
  for (std::size_t j = 0; j < nk; ++j) {
    const double w = itf.weights.size() == nk ? itf.weights[j] : 1.0;
    S[j] << Eigen::Matrix3d::Identity(), -skew3(coords[static_cast<std::size_t>(itf.nodes[j])] - itf.reference);
    N += w * S[j].transpose() * S[j];
  }
  const Eigen::Matrix<double, 6, 6> Ninv = N.completeOrthogonalDecomposition().pseudoInverse();
  Eigen::MatrixXd F = Eigen::MatrixXd::Zero(3 * static_cast<Eigen::Index>(coords.size()), 6);
  for (std::size_t j = 0; j < nk; ++j) {
    const double w = itf.weights.size() == nk ? itf.weights[j] : 1.0;
    F.middleRows(3 * itf.nodes[j], 3) += w * S[j] * Ninv;
  }
  return F;
}

}  // namespace

void inertiaCaseField(int c, Eigen::Vector3d& f0, Eigen::Matrix3d& B) {
  f0.setZero();
  B.setZero();
  if (c < 3) {
    f0[c] = 1.0;
  } else if (c < 6) {
    B = skew3(Eigen::Vector3d::Unit(c - 3));
  } else if (c < 9) {  // omega_i^2: omega~ omega~ = omega omega^T - |omega|^2 I
    B.diagonal().setConstant(-1.0);
    B(c - 6, c - 6) = 0.0;
  } else {  // omega_i omega_j, (i, j) = (x, y), (y, z), (z, x)
    const int i = c - 9, j = (i + 1) % 3;
    B(i, j) = B(j, i) = 1.0;
  }
}

Eigen::Matrix<double, kInertiaLoadCases, 1> inertiaLoadFactors(const Eigen::Vector3d& a, const Eigen::Vector3d& alpha,
                                                               const Eigen::Vector3d& omega, const Eigen::Vector3d& g) {
  Eigen::Matrix<double, kInertiaLoadCases, 1> f;
  f.segment<3>(0) = a - g;
  f.segment<3>(3) = alpha;
  f.segment<3>(6) = omega.cwiseProduct(omega);
  f[9] = omega.x() * omega.y();
  f[10] = omega.y() * omega.z();
  f[11] = omega.z() * omega.x();
  return f;
}

Eigen::Matrix<double, 6, 1> inertiaCaseResultant(int c, double I1, const Eigen::Vector3d& I2, const Eigen::Matrix3d& J0,
                                                const Eigen::Vector3d& p) {
  Eigen::Vector3d f0;
  Eigen::Matrix3d B;
  inertiaCaseField(c, f0, B);
  // load -rho (f0 + B x): force -(I1 f0 + B I2); moment about the origin -integral rho x x (B x),
  // with integral rho x x^T = tr(J0)/2 I - J0
  const Eigen::Matrix3d S = 0.5 * J0.trace() * Eigen::Matrix3d::Identity() - J0;
  const Eigen::Matrix3d BS = B * S;  // (B x) x^T integrated
  const Eigen::Vector3d xCrossBx(BS(2, 1) - BS(1, 2), BS(0, 2) - BS(2, 0), BS(1, 0) - BS(0, 1));
  const Eigen::Vector3d force = -(I1 * f0 + B * I2);
  const Eigen::Vector3d momentOrigin = -(I2.cross(f0) + xCrossBx);
  Eigen::Matrix<double, 6, 1> r;
  r << force, momentOrigin - p.cross(force);
  return r;
}

std::array<Eigen::MatrixXd, kInertiaLoadCases> balancedInertiaCases(const ReducedBody& body, int m, int balance) {
  std::array<Eigen::MatrixXd, kInertiaLoadCases> out;
  const ModalInvariants& inv = body.invariants;
  for (int c = 0; c < kInertiaLoadCases; ++c) {
    Eigen::MatrixXd K = body.geometric_stiffness[static_cast<std::size_t>(c)].topLeftCorner(m, m);
    if (balance >= 0) {
      const Interface& face = body.interfaces[static_cast<std::size_t>(balance)];
      const Eigen::Matrix<double, 6, 1> reaction = -inertiaCaseResultant(c, inv.I1, inv.I2, inv.J0, face.reference);
      for (int j = 0; j < 6; ++j)
        K += reaction[j] *
             body.geometric_stiffness[static_cast<std::size_t>(interfaceLoadCase(balance, j))].topLeftCorner(m, m);
    }
    out[static_cast<std::size_t>(c)] = std::move(K);
  }
  return out;
}

namespace {

/// The rows of a node at x in the rigid displacement fields about the FE origin: translations,
/// then rotations.
Eigen::Matrix<double, 3, 6> rigidRows(const Eigen::Vector3d& x) {
  Eigen::Matrix<double, 3, 6> rows;
  rows << Eigen::Matrix3d::Identity(), -skew3(x);
  return rows;
}

}  // namespace

bool stiffeningLoads(const std::vector<Eigen::Vector3d>& coords, const SpMat& M, const std::vector<Interface>& interfaces,
                     Eigen::MatrixXd& F, std::string& error) {
  const Eigen::Index n = static_cast<Eigen::Index>(coords.size()), N = 3 * n;
  const Eigen::Index L = kInertiaLoadCases + 6 * static_cast<Eigen::Index>(interfaces.size());
  F.resize(0, 0);

  // loads: -M times the unit acceleration fields, then the interface loads
  Eigen::MatrixXd field(N, kInertiaLoadCases);
  for (int c = 0; c < kInertiaLoadCases; ++c) {
    Eigen::Vector3d f0;
    Eigen::Matrix3d B;
    inertiaCaseField(c, f0, B);
    for (Eigen::Index k = 0; k < n; ++k) field.block<3, 1>(3 * k, c) = f0 + B * coords[static_cast<std::size_t>(k)];
  }
  Eigen::MatrixXd rigid(N, 6);
  for (Eigen::Index k = 0; k < n; ++k) rigid.middleRows<3>(3 * k) = rigidRows(coords[static_cast<std::size_t>(k)]);
  F.resize(N, L);
  F.leftCols(kInertiaLoadCases) = -timesBlock(M, field);
  for (std::size_t i = 0; i < interfaces.size(); ++i)
    F.middleCols(interfaceLoadCase(static_cast<int>(i), 0), 6) = interfaceLoads(coords, interfaces[i]);

  // inertia relief: every load balanced by the rigid-body acceleration it causes
  const Eigen::MatrixXd Mrigid = timesBlock(M, rigid);
  const Eigen::Matrix<double, 6, 6> rigidMass = rigid.transpose() * Mrigid;
  Eigen::LDLT<Eigen::Matrix<double, 6, 6>> rigidMassLdlt(rigidMass);
  if (rigidMassLdlt.info() != Eigen::Success || rigidMass.trace() <= 0.0) {
    error = "the mesh has no mass";
    return false;
  }
  F -= Mrigid * rigidMassLdlt.solve(rigid.transpose() * F);
  return true;
}

bool stiffeningLoadCases(const std::vector<Eigen::Vector3d>& coords, const SpMat& K, const SpMat& M,
                         const ActiveDofs& active, const std::vector<Interface>& interfaces, Eigen::MatrixXd& U,
                         std::string& error, const Elimination* constraints) {
  const Eigen::Index n = static_cast<Eigen::Index>(coords.size()), N = 3 * n;
  U.resize(0, 0);
  Eigen::MatrixXd F;
  if (!stiffeningLoads(coords, M, interfaces, F, error)) return false;
  const Eigen::Index L = F.cols();

  // with linear constraints the solve is on the independent dofs q (u = T q): its coordinates
  // are their dofs, and a coordinate takes part when it has stiffness
  std::vector<int> coordinateOf(static_cast<std::size_t>(N), -1);
  SpMat Kq;
  if (constraints) {
    Kq = SpMat(constraints->T.transpose()) * SpMat(K.selfadjointView<Eigen::Lower>()) * constraints->T;
    for (std::size_t j = 0; j < constraints->kept.size(); ++j)
      if (Kq.coeff(Eigen::Index(j), Eigen::Index(j)) > 0) coordinateOf[std::size_t(constraints->kept[j])] = static_cast<int>(j);
  } else {
    for (int d : active.full) coordinateOf[std::size_t(d)] = d;
  }
  const SpMat& Ks = constraints ? Kq : K;
  const Eigen::MatrixXd Fs = constraints ? Eigen::MatrixXd(constraints->T.transpose() * F) : Eigen::MatrixXd();

  // a statically determinate support: 6 active dofs of three far-apart nodes on which the rigid
  // motions are independent (pivoted QR of their rigid-mode rows)
  std::vector<Eigen::Index> nodes;
  for (Eigen::Index k = 0; k < n; ++k)
    if (coordinateOf[static_cast<std::size_t>(3 * k)] >= 0 && coordinateOf[static_cast<std::size_t>(3 * k + 1)] >= 0 &&
        coordinateOf[static_cast<std::size_t>(3 * k + 2)] >= 0)
      nodes.push_back(k);
  if (nodes.size() < 3) {
    error = "fewer than 3 nodes with stiffness";
    return false;
  }
  auto farthest = [&](auto distance) {
    Eigen::Index best = nodes.front();
    double dmax = -1.0;
    for (Eigen::Index k : nodes) {
      const double d = distance(coords[static_cast<std::size_t>(k)]);
      if (d > dmax) dmax = d, best = k;
    }
    return best;
  };
  const Eigen::Vector3d x0 = coords[static_cast<std::size_t>(nodes.front())];
  const Eigen::Index a = farthest([&](const Eigen::Vector3d& x) { return (x - x0).squaredNorm(); });
  const Eigen::Vector3d xa = coords[static_cast<std::size_t>(a)];
  const Eigen::Index b = farthest([&](const Eigen::Vector3d& x) { return (x - xa).squaredNorm(); });
  const Eigen::Vector3d ab = (coords[static_cast<std::size_t>(b)] - xa).normalized();
  const Eigen::Index c = farthest([&](const Eigen::Vector3d& x) { return (x - xa).cross(ab).squaredNorm(); });
  const std::array<Eigen::Index, 3> three{a, b, c};
  Eigen::Matrix<double, 9, 6> rows;
  for (int i = 0; i < 3; ++i) rows.middleRows<3>(3 * i) = rigidRows(coords[static_cast<std::size_t>(three[static_cast<std::size_t>(i)])]);
  // scale the rotation columns by the size, so the pivots compare
  const double size = std::max((coords[static_cast<std::size_t>(b)] - xa).norm(), 1e-300);
  rows.rightCols<3>() /= size;
  const Eigen::ColPivHouseholderQR<Eigen::Matrix<double, 6, 9>> qr(rows.transpose());
  const Eigen::VectorXd rdiag = qr.matrixQR().diagonal().cwiseAbs();
  if (rdiag.minCoeff() < 1e-6 * rdiag.maxCoeff()) {
    error = "the nodes lie on a line: no support holds the rigid rotation about it";
    return false;
  }
  std::vector<char> supported(static_cast<std::size_t>(N), 0);
  for (int i = 0; i < 6; ++i) {
    const Eigen::Index r = qr.colsPermutation().indices()[i];
    supported[static_cast<std::size_t>(3 * three[static_cast<std::size_t>(r / 3)] + r % 3)] = 1;
  }

  // the supported stiffness on the free active coordinates
  std::vector<int> index(static_cast<std::size_t>(Ks.cols()), -1), dofs;
  for (int d = 0; d < N; ++d)
    if (const int q = coordinateOf[static_cast<std::size_t>(d)]; q >= 0 && !supported[static_cast<std::size_t>(d)]) {
      index[static_cast<std::size_t>(q)] = static_cast<int>(dofs.size());
      dofs.push_back(q);
    }
  // its lower triangle, inserted into columns reserved to their sizes (no triplets to sort: 12e6
  // entries for the 53 369-node deck)
  const Eigen::Index nf = static_cast<Eigen::Index>(dofs.size());
  const auto eachEntry = [&](auto&& use) {
    for (int j = 0; j < Ks.outerSize(); ++j) {
      const int cj = index[static_cast<std::size_t>(j)];
      if (cj < 0) continue;
      for (SpMat::InnerIterator it(Ks, j); it; ++it)
        if (const int ri = index[static_cast<std::size_t>(it.row())]; ri >= cj) use(ri, cj, it.value());
    }
  };
  Eigen::VectorXi columnSizes = Eigen::VectorXi::Zero(nf);
  eachEntry([&](int, int c, double) { ++columnSizes[c]; });
  SpMat Kf(nf, nf);
  Kf.reserve(columnSizes);
  eachEntry([&](int r, int c, double v) { Kf.insert(r, c) = v; });
  Kf.makeCompressed();
  CholeskyFactor llt(nf);
  {
    const ScopedBlasThreads freeCores(blasThreadsForFactorisation(nf));  // a factorisation (blas_threads.h)
    llt.factorizeLower(std::move(Kf));
  }
  const ScopedBlasThreads oneThread(1);  // the solves
  if (llt.info() != Eigen::Success) {
    error = "the stiffness on a statically determinate support is singular: the mesh is not one connected piece";
    return false;
  }
  Eigen::MatrixXd Ff(nf, L);
  for (Eigen::Index i = 0; i < nf; ++i) Ff.row(i) = (constraints ? Fs : F).row(dofs[static_cast<std::size_t>(i)]);
  const Eigen::MatrixXd Uf = llt.solve(Ff);
  U = Eigen::MatrixXd::Zero(Ks.cols(), L);
  for (Eigen::Index i = 0; i < nf; ++i) U.row(dofs[static_cast<std::size_t>(i)]) = Uf.row(i);
  if (constraints) U = constraints->T * U;
  return true;
}

}  // namespace flexim::fe
