#include "core/fe/active_dofs.h"

#include <Eigen/Geometry>
#include <Eigen/Eigenvalues>
#include <Eigen/QR>

#include <algorithm>
#include <cstdio>
#include <string>

namespace flexim::fe {

using SpMat = Eigen::SparseMatrix<double>;

ActiveDofs activeDofs(const SpMat& K, const SpMat& M, int nodes) {
  ActiveDofs a;
  const int n = static_cast<int>(K.rows());
  const Eigen::VectorXd kd = K.diagonal();
  const Eigen::VectorXd md = M.rows() == n ? Eigen::VectorXd(M.diagonal()) : Eigen::VectorXd::Zero(n);
  a.index.assign(static_cast<std::size_t>(n), -1);
  for (int i = 0; i < n; ++i)
    if (kd(i) > 0) {
      a.index[static_cast<std::size_t>(i)] = static_cast<int>(a.full.size());
      a.full.push_back(i);
    } else {
      a.left_out_mass += std::max(0.0, md(i)) / 3;
    }
  if (nodes > 0 && n == 3 * nodes)
    for (int k = 0; k < nodes; ++k) {
      int kept = 0;
      for (int c = 0; c < 3; ++c) kept += a.index[static_cast<std::size_t>(3 * k + c)] >= 0;
      if (kept == 0) {
        a.orphan_nodes.push_back(k);
        double m = 0;
        for (int c = 0; c < 3; ++c) m += std::max(0.0, md(3 * k + c)) / 3;
        a.orphan_mass.push_back(m);
      }
      else if (kept < 3) a.partial_nodes.push_back(k);
    }
  return a;
}

namespace {

/// A(rows, cols) of the listed dofs (`at`: dof -> position in the list, or -1), sparse.
SpMat block(const SpMat& A, const std::vector<int>& rowAt, Eigen::Index rows, const std::vector<int>& colAt, Eigen::Index cols) {
  std::vector<Eigen::Triplet<double>> t;
  t.reserve(static_cast<std::size_t>(A.nonZeros()));
  for (int j = 0; j < A.outerSize(); ++j) {
    const int c = colAt[static_cast<std::size_t>(j)];
    if (c < 0) continue;
    for (SpMat::InnerIterator it(A, j); it; ++it)
      if (const int r = rowAt[static_cast<std::size_t>(it.row())]; r >= 0) t.emplace_back(r, c, it.value());
  }
  SpMat out(rows, cols);
  out.setFromTriplets(t.begin(), t.end());
  return out;
}

}  // namespace

SpMat restrictToActive(const SpMat& A, const ActiveDofs& a) {
  const auto n = static_cast<Eigen::Index>(a.full.size());
  return block(A, a.index, n, a.index, n);
}

namespace {
std::string idList(const FeModel& mesh, const std::vector<int>& nodes) {
  std::string s;
  const std::size_t shown = std::min<std::size_t>(nodes.size(), 10);
  for (std::size_t i = 0; i < shown; ++i) {
    const int k = nodes[i];
    s += (i ? ", " : "") + std::to_string(k < static_cast<int>(mesh.node_ids.size()) ? mesh.node_ids[k] : k);
  }
  if (nodes.size() > shown) s += ", ... (" + std::to_string(nodes.size()) + " in all)";
  return s;
}
}  // namespace

void noteLeftOut(const FeModel& mesh, const ActiveDofs& a, Diagnostics& diag) {
  if (a.all()) return;
  // a node a linear constraint names follows it (a coupling's reference node): not left out
  std::vector<char> constrained(static_cast<std::size_t>(mesh.nodeCount()), 0);
  for (const LinearConstraint& c : mesh.constraints)
    for (const DiscreteTerm& t : c.terms) constrained[static_cast<std::size_t>(t.node)] = 1;
  std::vector<int> orphans;
  double followingMass = 0;  // on constrained orphans: in the modes through their constraints
  for (std::size_t i = 0; i < a.orphan_nodes.size(); ++i)
    if (!constrained[static_cast<std::size_t>(a.orphan_nodes[i])]) orphans.push_back(a.orphan_nodes[i]);
    else followingMass += a.orphan_mass[i];
  const double leftOutMass = a.left_out_mass - followingMass;
  if (!orphans.empty())
    diag.info("mesh", std::to_string(orphans.size()) +
                          " node(s) belong to no element or spring (coupling reference nodes, nodes of skipped "
                          "cards, geometry points): " + idList(mesh, orphans) +
                          "; left out of the eigen solution, they move with the body frame");
  if (!a.partial_nodes.empty())
    diag.info("mesh", std::to_string(a.partial_nodes.size()) +
                          " node(s) have stiffness in some directions only (springs): " + idList(mesh, a.partial_nodes) +
                          "; their free directions are left out of the eigen solution");
  if (leftOutMass > 1e-12 * a.left_out_mass) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g kg", leftOutMass);
    diag.warning("mesh", std::string("point masses of ") + buf +
                             " sit on nodes or directions without stiffness: they count in the body's mass and "
                             "inertia (rigidly attached to its frame) but not in the elastic modes");
  }
}

namespace {

/// Up to this many massless dofs are condensed (their stiffness block is factorised dense).
constexpr std::size_t kMaxMassless = 3000;

}  // namespace

bool freeModesCondensingMassless(const SpMat& Kgiven, const SpMat& M, const std::vector<Eigen::Vector3d>& coords,
                                 const std::vector<DofPlace>& places, const ModalOptions& options, ModalResult& out,
                                 Diagnostics& diag) {
  const auto n = static_cast<int>(Kgiven.rows());
  std::vector<int> massless, massive, at(static_cast<std::size_t>(n), -1), mAt(static_cast<std::size_t>(n), -1);
  for (int i = 0; i < n; ++i) {
    if (M.coeff(i, i) > 0) {
      at[std::size_t(i)] = static_cast<int>(massive.size());
      massive.push_back(i);
    } else {
      mAt[std::size_t(i)] = static_cast<int>(massless.size());
      massless.push_back(i);
    }
  }
  if (massless.empty()) return freeModes(Kgiven, M, coords, places, options, out, diag);
  if (massive.empty()) {
    diag.error("modes", "no degree of freedom has mass: nothing vibrates");
    return false;
  }
  if (massless.size() > kMaxMassless) {
    diag.error("modes", std::to_string(massless.size()) + " degrees of freedom have stiffness but no mass (more than " +
                            std::to_string(kMaxMassless) + " to condense): give the elements a density");
    return false;
  }
  // Guyan: K_mm u_m + K_ms u_s = 0 on the massless dofs, u_m = -K_mm^+ K_ms u_s. K is positive
  // semidefinite, so a direction K_mm does not resist is one K_ms does not load either, and the
  // pseudo-inverse condenses exactly: a spring to a free massless end adds nothing.
  const auto ns = static_cast<Eigen::Index>(massive.size()), nm = static_cast<Eigen::Index>(massless.size());
  const SpMat K = Kgiven.selfadjointView<Eigen::Lower>();  // the blocks below need both triangles
  const Eigen::MatrixXd Kmm = Eigen::MatrixXd(block(K, mAt, nm, mAt, nm));
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(0.5 * (Kmm + Kmm.transpose()));
  const double largest = eig.eigenvalues().cwiseAbs().maxCoeff();
  Eigen::VectorXd inverse = Eigen::VectorXd::Zero(nm);
  for (Eigen::Index i = 0; i < nm; ++i)
    if (eig.eigenvalues()(i) > 1e-12 * largest) inverse(i) = 1.0 / eig.eigenvalues()(i);
  const Eigen::MatrixXd pinv = eig.eigenvectors() * inverse.asDiagonal() * eig.eigenvectors().transpose();
  const SpMat Kms = block(K, mAt, nm, at, ns);
  // the correction K_sm K_mm^+ K_ms touches only the massive dofs the massless ones are joined to
  std::vector<int> joined, joinedAt(static_cast<std::size_t>(ns), -1);
  for (int j = 0; j < Kms.outerSize(); ++j)
    if (SpMat::InnerIterator(Kms, j)) {
      joinedAt[std::size_t(j)] = static_cast<int>(joined.size());
      joined.push_back(j);
    }
  Eigen::MatrixXd Kmb = Eigen::MatrixXd::Zero(nm, static_cast<Eigen::Index>(joined.size()));
  for (int j = 0; j < Kms.outerSize(); ++j)
    for (SpMat::InnerIterator it(Kms, j); it; ++it) Kmb(it.row(), joinedAt[std::size_t(j)]) = it.value();
  const Eigen::MatrixXd correction = Kmb.transpose() * pinv * Kmb;
  std::vector<Eigen::Triplet<double>> t;
  const SpMat Kss = block(K, at, ns, at, ns);
  for (int j = 0; j < Kss.outerSize(); ++j)
    for (SpMat::InnerIterator it(Kss, j); it; ++it) t.emplace_back(it.row(), it.col(), it.value());
  for (std::size_t a = 0; a < joined.size(); ++a)
    for (std::size_t b = 0; b < joined.size(); ++b)
      t.emplace_back(joined[a], joined[b], -correction(Eigen::Index(a), Eigen::Index(b)));
  SpMat Kc(ns, ns);
  Kc.setFromTriplets(t.begin(), t.end());
  Kc.prune(0.0);
  std::vector<DofPlace> massivePlaces;
  if (places.size() == std::size_t(n))
    for (int i : massive) massivePlaces.push_back(places[std::size_t(i)]);
  diag.info("modes", std::to_string(massless.size()) +
                         " degrees of freedom with stiffness but no mass (the free ends of springs or dashpots) "
                         "condensed statically (Guyan): they follow the rest without inertia");
  ModalOptions condensed = options;
  condensed.static_loads = nullptr;  // the caller solves them on its own (static_displacements empty)
  ModalResult r;
  if (!freeModes(Kc, block(M, at, ns, at, ns), coords, massivePlaces, condensed, r, diag)) return false;
  out = r;
  out.modes = Eigen::MatrixXd::Zero(n, r.modes.cols());
  const Eigen::MatrixXd follow = -pinv * (Kms * r.modes);
  for (Eigen::Index i = 0; i < ns; ++i) out.modes.row(massive[std::size_t(i)]) = r.modes.row(i);
  for (Eigen::Index i = 0; i < nm; ++i) out.modes.row(massless[std::size_t(i)]) = follow.row(i);
  out.condensed = static_cast<int>(massless.size());
  return true;
}

bool freeModesOfActive(const SpMat& K, const SpMat& M, const std::vector<Eigen::Vector3d>& coords,
                       const ModalOptions& options, const ActiveDofs& a, ModalResult& out, Diagnostics& diag) {
  const bool geometry = static_cast<Eigen::Index>(coords.size()) * 3 == K.rows();
  return freeModesOfActive(K, M, coords, geometry ? nodeMajorPlaces(coords.size()) : std::vector<DofPlace>(), options, a,
                           out, diag);
}

bool freeModesOfActive(const SpMat& K, const SpMat& M, const std::vector<Eigen::Vector3d>& coords,
                       const std::vector<DofPlace>& places, const ModalOptions& options, const ActiveDofs& a,
                       ModalResult& out, Diagnostics& diag) {
  if (a.all()) return freeModesCondensingMassless(K, M, coords, places, options, out, diag);
  if (a.full.empty()) {
    diag.error("modes", "no degree of freedom has stiffness: nothing to solve");
    return false;
  }
  const int n = static_cast<int>(K.rows());
  const bool geometry = places.size() == std::size_t(n) && !coords.empty();
  std::vector<DofPlace> activePlaces;
  if (geometry)
    for (int d : a.full) activePlaces.push_back(places[std::size_t(d)]);
  // the static loads on the active dofs, their solution zero on the others; a load on a left-out
  // dof (a point mass's inertia) would go unbalanced: none then, and the caller solves on its own
  ModalOptions onActive = options;
  if (options.static_loads)
    onActive.static_loads = [&options, &a, n]() -> Eigen::MatrixXd {
      const Eigen::MatrixXd F = options.static_loads();
      if (F.rows() != n) return {};
      for (int d = 0; d < n; ++d)
        if (a.index[std::size_t(d)] < 0 && !F.row(d).isZero(0.0)) return {};
      Eigen::MatrixXd onActiveDofs(static_cast<Eigen::Index>(a.full.size()), F.cols());
      for (std::size_t i = 0; i < a.full.size(); ++i) onActiveDofs.row(static_cast<Eigen::Index>(i)) = F.row(a.full[i]);
      return onActiveDofs;
    };
  ModalResult r;
  if (!freeModesCondensingMassless(restrictToActive(K, a), restrictToActive(M, a), coords, activePlaces, onActive, r, diag))
    return false;
  out = r;
  out.modes = Eigen::MatrixXd::Zero(n, r.modes.cols());
  for (std::size_t i = 0; i < a.full.size(); ++i) out.modes.row(a.full[i]) = r.modes.row(static_cast<Eigen::Index>(i));
  if (r.static_displacements.size()) {
    out.static_displacements = Eigen::MatrixXd::Zero(n, r.static_displacements.cols());
    for (std::size_t i = 0; i < a.full.size(); ++i)
      out.static_displacements.row(a.full[i]) = r.static_displacements.row(static_cast<Eigen::Index>(i));
  }
  if (!geometry) return true;
  // rigid modes: the left-out dofs follow the rigid field fitted to the active dofs
  const auto rigidRow = [&](int d) {
    const DofPlace& p = places[std::size_t(d)];
    const Eigen::Vector3d& x = coords[std::size_t(p.node)];
    Eigen::Matrix<double, 1, 6> row = Eigen::Matrix<double, 1, 6>::Zero();
    row(p.component) = 1;
    for (int r3 = 0; r3 < 3; ++r3) row(3 + r3) = Eigen::Vector3d::Unit(r3).cross(x)(p.component);
    return row;
  };
  Eigen::MatrixXd S(static_cast<Eigen::Index>(a.full.size()), 6);
  for (std::size_t i = 0; i < a.full.size(); ++i) S.row(static_cast<Eigen::Index>(i)) = rigidRow(a.full[i]);
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(S);
  for (int j = 0; j < r.modes.cols(); ++j) {
    if (!r.rigid[static_cast<std::size_t>(j)]) continue;
    const Eigen::VectorXd v = r.modes.col(j);
    const Eigen::VectorXd p = qr.solve(v);
    if ((S * p - v).norm() > 1e-6 * v.norm()) continue;  // not a rigid field (a mechanism): leave zeros
    for (int i = 0; i < n; ++i)
      if (a.index[static_cast<std::size_t>(i)] < 0) out.modes(i, j) = rigidRow(i) * p;
  }
  return true;
}

}  // namespace flexim::fe
