#include "core/fe/active_dofs.h"

#include <Eigen/Geometry>
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
      if (kept == 0) a.orphan_nodes.push_back(k);
      else if (kept < 3) a.partial_nodes.push_back(k);
    }
  return a;
}

SpMat restrictToActive(const SpMat& A, const ActiveDofs& a) {
  std::vector<Eigen::Triplet<double>> t;
  t.reserve(static_cast<std::size_t>(A.nonZeros()));
  for (int j = 0; j < A.outerSize(); ++j) {
    const int cj = a.index[static_cast<std::size_t>(j)];
    if (cj < 0) continue;
    for (SpMat::InnerIterator it(A, j); it; ++it) {
      const int ri = a.index[static_cast<std::size_t>(it.row())];
      if (ri >= 0) t.emplace_back(ri, cj, it.value());
    }
  }
  SpMat out(static_cast<Eigen::Index>(a.full.size()), static_cast<Eigen::Index>(a.full.size()));
  out.setFromTriplets(t.begin(), t.end());
  return out;
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
  if (!a.orphan_nodes.empty())
    diag.info("mesh", std::to_string(a.orphan_nodes.size()) +
                          " node(s) belong to no element or spring (coupling reference nodes, nodes of skipped "
                          "cards, geometry points): " + idList(mesh, a.orphan_nodes) +
                          "; left out of the eigen solution, they move with the body frame");
  if (!a.partial_nodes.empty())
    diag.info("mesh", std::to_string(a.partial_nodes.size()) +
                          " node(s) have stiffness in some directions only (springs): " + idList(mesh, a.partial_nodes) +
                          "; their free directions are left out of the eigen solution");
  if (a.left_out_mass > 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g kg", a.left_out_mass);
    diag.warning("mesh", std::string("point masses of ") + buf +
                             " sit on nodes or directions without stiffness: they count in the body's mass and "
                             "inertia (rigidly attached to its frame) but not in the elastic modes");
  }
}

bool freeModesOfActive(const SpMat& K, const SpMat& M, const std::vector<Eigen::Vector3d>& coords,
                       const ModalOptions& options, const ActiveDofs& a, ModalResult& out, Diagnostics& diag) {
  if (a.all()) return freeModes(K, M, coords, options, out, diag);
  if (a.full.empty()) {
    diag.error("modes", "no degree of freedom has stiffness: nothing to solve");
    return false;
  }
  const int n = static_cast<int>(K.rows());
  const bool geometry = static_cast<int>(coords.size()) * 3 == n;
  // the exact rigid fields need 3 dofs on every node that takes part
  std::vector<Eigen::Vector3d> activeCoords;
  if (geometry && a.nodeComplete())
    for (std::size_t i = 0; i < a.full.size(); i += 3) activeCoords.push_back(coords[static_cast<std::size_t>(a.full[i] / 3)]);
  ModalResult r;
  if (!freeModes(restrictToActive(K, a), restrictToActive(M, a), activeCoords, options, r, diag)) return false;
  out = r;
  out.modes = Eigen::MatrixXd::Zero(n, r.modes.cols());
  for (std::size_t i = 0; i < a.full.size(); ++i) out.modes.row(a.full[i]) = r.modes.row(static_cast<Eigen::Index>(i));
  if (!geometry) return true;
  // rigid modes: the left-out nodes follow the rigid field fitted to the active dofs
  Eigen::MatrixXd S(static_cast<Eigen::Index>(a.full.size()), 6);
  for (std::size_t i = 0; i < a.full.size(); ++i) {
    const int d = a.full[i], c = d % 3;
    const Eigen::Vector3d& x = coords[static_cast<std::size_t>(d / 3)];
    S.row(static_cast<Eigen::Index>(i)).setZero();
    S(static_cast<Eigen::Index>(i), c) = 1;
    for (int r3 = 0; r3 < 3; ++r3) S(static_cast<Eigen::Index>(i), 3 + r3) = Eigen::Vector3d::Unit(r3).cross(x)(c);
  }
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(S);
  for (int j = 0; j < r.modes.cols(); ++j) {
    if (!r.rigid[static_cast<std::size_t>(j)]) continue;
    const Eigen::VectorXd v = r.modes.col(j);
    const Eigen::VectorXd p = qr.solve(v);
    if ((S * p - v).norm() > 1e-6 * v.norm()) continue;  // not a rigid field (a mechanism): leave zeros
    for (int i = 0; i < n; ++i) {
      if (a.index[static_cast<std::size_t>(i)] >= 0) continue;
      const Eigen::Vector3d& x = coords[static_cast<std::size_t>(i / 3)];
      const Eigen::Vector3d u = p.head<3>() + p.tail<3>().cross(x);
      out.modes(i, j) = u(i % 3);
    }
  }
  return true;
}

}  // namespace flexim::fe
