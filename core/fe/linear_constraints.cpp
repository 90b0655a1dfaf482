#include "core/fe/linear_constraints.h"

#include "core/base/rotation.h"

#include <Eigen/Dense>
#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace flexim::fe {

using SpMat = Eigen::SparseMatrix<double>;

namespace {

using Combination = std::vector<std::pair<int, double>>;  // (coordinate, coefficient)

/// e += a * add, merging equal coordinates.
void addScaled(Combination& e, double a, const Combination& add) {
  for (const auto& [j, c] : add) {
    const auto it = std::find_if(e.begin(), e.end(), [j = j](const auto& t) { return t.first == j; });
    if (it != e.end()) it->second += a * c;
    else e.emplace_back(j, a * c);
  }
}

}  // namespace

int eliminate(const SpMat& G, const std::vector<int>& dependent, const std::vector<char>& eliminable, Elimination& out,
              const std::vector<double>& scale) {
  const auto coordinates = static_cast<int>(G.cols());
  const Eigen::SparseMatrix<double, Eigen::RowMajor> rows(G);
  std::unordered_map<int, Combination> expression;       // eliminated coordinate -> the others
  std::unordered_map<int, std::vector<int>> users;       // coordinate -> eliminated ones using it
  out = Elimination{};
  for (int r = 0; r < rows.outerSize(); ++r) {
    // the row in the coordinates that remain
    Combination row;
    double original = scale.empty() ? 0.0 : scale[std::size_t(r)];
    for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(rows, r); it; ++it) {
      original = std::max(original, std::abs(it.value()));
      const auto e = expression.find(static_cast<int>(it.col()));
      if (e != expression.end()) addScaled(row, it.value(), e->second);
      else addScaled(row, 1.0, {{static_cast<int>(it.col()), it.value()}});
    }
    double largest = 0;
    for (const auto& t : row) largest = std::max(largest, std::abs(t.second));
    if (!(largest > 1e-10 * original)) row.clear();  // what is left is the round-off of a cancellation
    std::erase_if(row, [&](const auto& t) { return !(std::abs(t.second) > 1e-12 * largest); });
    if (row.empty()) {  // implied by the constraints before it
      ++out.redundant;
      continue;
    }
    int slave = -1;
    double best = 0;
    for (const auto& [j, c] : row) {
      if (!eliminable[std::size_t(j)]) continue;
      if (j == dependent[std::size_t(r)] && std::abs(c) >= 1e-3 * largest) {  // the deck's own choice
        slave = j;
        break;
      }
      if (std::abs(c) > best) best = std::abs(c), slave = j;
    }
    if (slave < 0) return r;
    double own = 0;
    Combination e;
    for (const auto& [j, c] : row)
      if (j == slave) own = c;
    for (const auto& [j, c] : row)
      if (j != slave) e.emplace_back(j, -c / own);
    // what was expressed by the new slave is now expressed by what it depends on
    if (const auto u = users.find(slave); u != users.end()) {
      for (int user : u->second) {
        Combination& eu = expression[user];
        const auto at = std::find_if(eu.begin(), eu.end(), [&](const auto& t) { return t.first == slave; });
        if (at == eu.end()) continue;
        const double a = at->second;
        eu.erase(at);
        addScaled(eu, a, e);
        for (const auto& t : e) users[t.first].push_back(user);
      }
      users.erase(u);
    }
    for (const auto& t : e) users[t.first].push_back(slave);
    expression.emplace(slave, std::move(e));
  }
  std::vector<int> column(std::size_t(coordinates), -1);
  for (int c = 0; c < coordinates; ++c)
    if (!expression.count(c)) {
      column[std::size_t(c)] = static_cast<int>(out.kept.size());
      out.kept.push_back(c);
    }
  std::vector<Eigen::Triplet<double>> t;
  for (int c = 0; c < coordinates; ++c) {
    if (column[std::size_t(c)] >= 0) {
      t.emplace_back(c, column[std::size_t(c)], 1.0);
      continue;
    }
    for (const auto& [j, v] : expression.at(c))
      if (v != 0) t.emplace_back(c, column[std::size_t(j)], v);
  }
  out.T.resize(coordinates, static_cast<Eigen::Index>(out.kept.size()));
  out.T.setFromTriplets(t.begin(), t.end());
  out.eliminated = static_cast<int>(expression.size());
  return -1;
}

SpMat constraintRows(const FeModel& mesh, std::vector<int>& first) {
  std::vector<Eigen::Triplet<double>> t;
  first.clear();
  for (std::size_t r = 0; r < mesh.constraints.size(); ++r) {
    const LinearConstraint& c = mesh.constraints[r];
    first.push_back(c.terms.empty() ? -1 : 3 * c.terms.front().node + c.terms.front().component);
    for (const DiscreteTerm& term : c.terms) t.emplace_back(static_cast<int>(r), 3 * term.node + term.component, term.coefficient);
  }
  SpMat G(static_cast<Eigen::Index>(mesh.constraints.size()), 3 * static_cast<Eigen::Index>(mesh.nodeCount()));
  G.setFromTriplets(t.begin(), t.end());
  return G;
}

Elimination eliminateConstraints(const FeModel& mesh) {
  std::vector<int> first;
  const SpMat G = constraintRows(mesh, first);
  Elimination e;
  eliminate(G, first, std::vector<char>(std::size_t(G.cols()), 1), e);  // every dof may go: cannot fail
  return e;
}

namespace {

/// [I, -(x - p)~]: the displacement at x of the rigid motion (translation at p, rotation), as the
/// interfaces' (reduction.cpp).
Eigen::Matrix<double, 3, 6> rigidRows(const Eigen::Vector3d& x, const Eigen::Vector3d& p) {
  Eigen::Matrix<double, 3, 6> S;
  S << Eigen::Matrix3d::Identity(), -skew(x - p);
  return S;
}

/// Three constraints u_k - sum_j C_j u_j = 0 (k's three directions) over the nodes `of`.
void follow(const FeModel& mesh, const std::string& label, const std::string& where, int k, const std::vector<int>& of,
            const Eigen::MatrixXd& C, std::vector<LinearConstraint>& out) {
  for (int a = 0; a < 3; ++a) {
    LinearConstraint c{label + ", node " + std::to_string(mesh.node_ids[std::size_t(k)]), where, {{k, a, 1.0}}};
    for (std::size_t j = 0; j < of.size(); ++j)
      for (int b = 0; b < 3; ++b)
        if (const double v = C(a, Eigen::Index(3 * j + b)); std::abs(v) > 1e-14) c.terms.push_back({of[j], b, -v});
    out.push_back(std::move(c));
  }
}

}  // namespace

std::vector<LinearConstraint> couplingConstraints(const FeModel& mesh, const Coupling& coupling, std::string& why) {
  std::vector<LinearConstraint> out;
  why.clear();
  const auto& x = mesh.coords;
  if (coupling.nodes.empty()) {
    why = "it attaches no node";
    return out;
  }
  const std::string label = "coupling " + coupling.name;
  if (!coupling.rigid) {  // the reference node's translation: the weighted rigid fit's at it
    if (coupling.reference_node < 0) return out;
    const std::size_t m = coupling.nodes.size();
    Eigen::Matrix<double, 6, 6> A = Eigen::Matrix<double, 6, 6>::Zero();
    Eigen::MatrixXd B(6, 3 * Eigen::Index(m));
    const Eigen::Vector3d p = x[std::size_t(coupling.reference_node)];
    for (std::size_t j = 0; j < m; ++j) {
      const double w = coupling.weights.size() == m ? coupling.weights[j] : 1.0;
      const Eigen::Matrix<double, 3, 6> S = rigidRows(x[std::size_t(coupling.nodes[j])], p);
      A += w * S.transpose() * S;
      B.middleCols<3>(3 * Eigen::Index(j)) = w * S.transpose();
    }
    const Eigen::FullPivLU<Eigen::Matrix<double, 6, 6>> lu(A);
    if (lu.rank() < 6) {
      why = "its nodes lie on one line: the rigid fit's rotation about it is undefined";
      return out;
    }
    follow(mesh, label, coupling.where, coupling.reference_node, coupling.nodes, lu.solve(B).topRows(3), out);
    return out;
  }
  // rigid: three nodes far apart span the motion (the farthest from the first, then from the line)
  const std::vector<int>& n = coupling.nodes;
  const auto farthest = [&](auto distance) {
    int best = n.front();
    double dmax = -1;
    for (int k : n)
      if (const double d = distance(x[std::size_t(k)]); d > dmax) dmax = d, best = k;
    return best;
  };
  const int a = farthest([&](const Eigen::Vector3d& y) { return (y - x[std::size_t(n.front())]).squaredNorm(); });
  const int b = farthest([&](const Eigen::Vector3d& y) { return (y - x[std::size_t(a)]).squaredNorm(); });
  const Eigen::Vector3d ab = (x[std::size_t(b)] - x[std::size_t(a)]).normalized();
  const int c = farthest([&](const Eigen::Vector3d& y) { return (y - x[std::size_t(a)]).cross(ab).squaredNorm(); });
  const double size = (x[std::size_t(b)] - x[std::size_t(a)]).norm();
  if (!(size > 0) || (x[std::size_t(c)] - x[std::size_t(a)]).cross(ab).norm() < 1e-6 * size) {
    why = "its nodes lie on one line: a rigid body about that line needs rotations, which solid nodes lack";
    return out;
  }
  const std::vector<int> span{a, b, c};
  const Eigen::Vector3d p = x[std::size_t(a)];
  Eigen::Matrix<double, 9, 6> S;
  for (int i = 0; i < 3; ++i) S.middleRows<3>(3 * i) = rigidRows(x[std::size_t(span[std::size_t(i)])], p);
  // the three keep their distances: u_span has no part outside the rigid motions (3 constraints)
  const Eigen::JacobiSVD<Eigen::Matrix<double, 9, 6>> svd(S, Eigen::ComputeFullU);
  for (int r = 6; r < 9; ++r) {
    LinearConstraint lc{label + ", distances of its nodes " + std::to_string(mesh.node_ids[std::size_t(c)]) + ", " +
                            std::to_string(mesh.node_ids[std::size_t(a)]) + ", " + std::to_string(mesh.node_ids[std::size_t(b)]),
                        coupling.where, {}};
    for (int i : {2, 0, 1})  // the first term: a direction of the third node
      for (int d = 0; d < 3; ++d)
        if (const double v = svd.matrixU()(3 * i + d, r); std::abs(v) > 1e-14) lc.terms.push_back({span[std::size_t(i)], d, v});
    out.push_back(std::move(lc));
  }
  // every other node, and the reference node, moves with them: u_k = S_k S^+ u_span
  const Eigen::Matrix<double, 6, 9> fit = S.completeOrthogonalDecomposition().pseudoInverse();
  std::vector<int> others(n.begin(), n.end());
  if (coupling.reference_node >= 0) others.push_back(coupling.reference_node);
  for (int k : others)
    if (k != a && k != b && k != c) follow(mesh, label, coupling.where, k, span, rigidRows(x[std::size_t(k)], p) * fit, out);
  return out;
}

std::optional<FeModel> withCouplingsApplied(const FeModel& mesh, const std::vector<std::string>& interfaces,
                                            Diagnostics& diag) {
  std::optional<FeModel> out;
  for (const Coupling& c : mesh.couplings) {
    if (std::find(interfaces.begin(), interfaces.end(), c.name) != interfaces.end()) continue;
    std::string why;
    std::vector<LinearConstraint> added = couplingConstraints(mesh, c, why);
    if (!why.empty()) {
      diag.warning("coupling " + c.name, "not applied (" + c.where + "): " + why + "; the nodes it ties move independently");
      continue;
    }
    if (!out) out = mesh;
    out->constraints.insert(out->constraints.end(), std::make_move_iterator(added.begin()),
                            std::make_move_iterator(added.end()));
    diag.info("coupling " + c.name, std::string("not an interface, so applied as the deck defines it (") + c.where + "): " +
                                        (c.rigid ? "its nodes and reference node move as one rigid body"
                                                 : "its reference node follows the weighted mean motion of its nodes"));
  }
  return out;
}

std::string supportingConstraints(const FeModel& mesh) {
  if (mesh.constraints.empty() || mesh.coords.empty()) return {};
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  for (const auto& x : mesh.coords) centre += x;
  centre /= static_cast<double>(mesh.coords.size());
  double size = 0;
  for (const auto& x : mesh.coords) size = std::max(size, (x - centre).norm());
  size = std::max(size, 1e-300);
  std::string named;
  int count = 0;
  for (const LinearConstraint& c : mesh.constraints) {
    // the constraint's value in each rigid motion (rotations scaled to the body's size)
    Eigen::Matrix<double, 6, 1> value = Eigen::Matrix<double, 6, 1>::Zero();
    double scale = 0;
    for (const DiscreteTerm& t : c.terms) {
      const Eigen::Vector3d d = (mesh.coords[std::size_t(t.node)] - centre) / size;
      value(t.component) += t.coefficient;
      for (int a = 0; a < 3; ++a) value(3 + a) += t.coefficient * Eigen::Vector3d::Unit(a).cross(d)(t.component);
      scale += std::abs(t.coefficient);
    }
    if (value.cwiseAbs().maxCoeff() <= 1e-6 * scale) continue;
    if (count++ < 5) named += (named.empty() ? "" : "; ") + c.label + " (" + c.where + ")";
  }
  if (!count) return {};
  return std::to_string(count) + (count == 1 ? " linear constraint holds" : " linear constraints hold") +
         " the body against rigid-body motion, like supports (a free body has none; a support belongs in the "
         "multibody model, as a joint): " + named + (count > 5 ? "; ..." : "");
}

bool freeModesOfMesh(const FeModel& mesh, const SpMat& K, const SpMat& M, const ModalOptions& options, ModalResult& out,
                     Diagnostics& diag) {
  if (mesh.constraints.empty())
    return freeModesOfActive(K, M, mesh.coords, options, activeDofs(K, M, mesh.nodeCount()), out, diag);
  if (const std::string problem = supportingConstraints(mesh); !problem.empty()) {
    diag.error("constraints", problem);
    return false;
  }
  const Elimination e = eliminateConstraints(mesh);
  const SpMat Tt = e.T.transpose();
  // K and M may be stored as their lower triangles (modal.h): T^T K T needs them whole
  const SpMat Kc = Tt * SpMat(K.selfadjointView<Eigen::Lower>()) * e.T, Mc = Tt * SpMat(M.selfadjointView<Eigen::Lower>()) * e.T;
  const std::vector<DofPlace> all = nodeMajorPlaces(mesh.coords.size());
  std::vector<DofPlace> places;
  for (int d : e.kept) places.push_back(all[std::size_t(d)]);
  const auto counted = [](std::size_t n, const std::string& one, const std::string& many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  diag.info("constraints", counted(mesh.constraints.size(), "linear constraint", "linear constraints") + " applied: " +
                               counted(std::size_t(e.eliminated), "dependent degree of freedom", "dependent degrees of freedom") +
                               " eliminated" +
                               (e.redundant ? ", " + counted(std::size_t(e.redundant), "constraint", "constraints") +
                                                  " implied by the others"
                                            : ""));
  ModalOptions independent = options;  // the static loads on the independent dofs: T^T F
  if (options.static_loads)
    independent.static_loads = [&options, &Tt]() -> Eigen::MatrixXd {
      const Eigen::MatrixXd F = options.static_loads();
      return F.rows() == Tt.cols() ? Eigen::MatrixXd(Tt * F) : Eigen::MatrixXd();
    };
  ModalResult r;
  if (!freeModesOfActive(Kc, Mc, mesh.coords, places, independent, activeDofs(Kc, Mc, 0), r, diag)) return false;
  out = r;
  out.modes = e.T * r.modes;
  if (r.static_displacements.size()) out.static_displacements = e.T * r.static_displacements;
  return true;
}

}  // namespace flexim::fe
