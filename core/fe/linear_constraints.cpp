#include "core/fe/linear_constraints.h"

#include <Eigen/Dense>

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

int eliminate(const SpMat& G, const std::vector<int>& dependent, const std::vector<char>& eliminable, Elimination& out) {
  const auto coordinates = static_cast<int>(G.cols());
  const Eigen::SparseMatrix<double, Eigen::RowMajor> rows(G);
  std::unordered_map<int, Combination> expression;       // eliminated coordinate -> the others
  std::unordered_map<int, std::vector<int>> users;       // coordinate -> eliminated ones using it
  out = Elimination{};
  for (int r = 0; r < rows.outerSize(); ++r) {
    // the row in the coordinates that remain
    Combination row;
    for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(rows, r); it; ++it) {
      const auto e = expression.find(static_cast<int>(it.col()));
      if (e != expression.end()) addScaled(row, it.value(), e->second);
      else addScaled(row, 1.0, {{static_cast<int>(it.col()), it.value()}});
    }
    double largest = 0;
    for (const auto& t : row) largest = std::max(largest, std::abs(t.second));
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
  const SpMat Kc = Tt * K * e.T, Mc = Tt * M * e.T;
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
  ModalResult r;
  if (!freeModesOfActive(Kc, Mc, mesh.coords, places, options, activeDofs(Kc, Mc, 0), r, diag)) return false;
  out = r;
  out.modes = e.T * r.modes;
  return true;
}

}  // namespace flexim::fe
