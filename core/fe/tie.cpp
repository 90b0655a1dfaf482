#include "core/fe/tie.h"

#include "core/fe/surface.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace flexim::fe {

namespace {

/// Shape functions of an element face with `corners` corners (3 or 4), linear or quadratic (the
/// mid-side nodes after the corners, edge i from corner i to i + 1), at (xi, eta): triangles on
/// xi, eta >= 0, xi + eta <= 1; quadrangles on [-1, 1]^2 with corners (-1,-1), (1,-1), (1,1), (-1,1).
Eigen::VectorXd faceShape(int corners, bool quadratic, double xi, double eta) {
  Eigen::VectorXd N(quadratic ? 2 * corners : corners);
  if (corners == 3) {
    const double l[3] = {1 - xi - eta, xi, eta};
    for (int i = 0; i < 3; ++i) N(i) = quadratic ? l[i] * (2 * l[i] - 1) : l[i];
    if (quadratic)
      for (int i = 0; i < 3; ++i) N(3 + i) = 4 * l[i] * l[(i + 1) % 3];
    return N;
  }
  const double cx[4] = {-1, 1, 1, -1}, cy[4] = {-1, -1, 1, 1};
  for (int i = 0; i < 4; ++i) {
    const double a = 1 + xi * cx[i], b = 1 + eta * cy[i];
    N(i) = quadratic ? 0.25 * a * b * (xi * cx[i] + eta * cy[i] - 1) : 0.25 * a * b;
  }
  if (quadratic) {
    N(4) = 0.5 * (1 - xi * xi) * (1 - eta);
    N(5) = 0.5 * (1 + xi) * (1 - eta * eta);
    N(6) = 0.5 * (1 - xi * xi) * (1 + eta);
    N(7) = 0.5 * (1 - xi) * (1 - eta * eta);
  }
  return N;
}

void clampToFace(int corners, double& xi, double& eta) {
  if (corners == 4) {
    xi = std::clamp(xi, -1.0, 1.0);
    eta = std::clamp(eta, -1.0, 1.0);
    return;
  }
  xi = std::max(xi, 0.0);
  eta = std::max(eta, 0.0);
  if (const double s = xi + eta; s > 1) xi /= s, eta /= s;
}

struct Face {
  std::vector<int> nodes;
  int corners = 3;
  Eigen::Vector3d low, high;  // bounding box
};

struct Projection {
  double distance = 0;
  Eigen::Vector3d point;
  Eigen::VectorXd weights;
};

/// The point of `face` nearest to p (Gauss-Newton on the face's parameters, kept in the face).
Projection project(const FeModel& mesh, const Face& f, const Eigen::Vector3d& p) {
  const bool quadratic = f.nodes.size() > std::size_t(f.corners);
  const auto n = static_cast<Eigen::Index>(f.nodes.size());
  Eigen::Matrix3Xd X(3, n);
  for (Eigen::Index i = 0; i < n; ++i) X.col(i) = mesh.coords[std::size_t(f.nodes[std::size_t(i)])];
  double xi = f.corners == 3 ? 1.0 / 3 : 0.0, eta = xi;
  constexpr double h = 1e-6;
  for (int iteration = 0; iteration < 30; ++iteration) {
    const Eigen::Vector3d x = X * faceShape(f.corners, quadratic, xi, eta);
    Eigen::Matrix<double, 3, 2> J;
    J.col(0) = X * (faceShape(f.corners, quadratic, xi + h, eta) - faceShape(f.corners, quadratic, xi - h, eta)) / (2 * h);
    J.col(1) = X * (faceShape(f.corners, quadratic, xi, eta + h) - faceShape(f.corners, quadratic, xi, eta - h)) / (2 * h);
    const Eigen::Vector2d step = (J.transpose() * J).ldlt().solve(J.transpose() * (p - x));
    const double oldXi = xi, oldEta = eta;
    xi += step(0);
    eta += step(1);
    clampToFace(f.corners, xi, eta);
    if (std::abs(xi - oldXi) + std::abs(eta - oldEta) < 1e-13) break;
  }
  Projection r;
  r.weights = faceShape(f.corners, quadratic, xi, eta);
  r.point = X * r.weights;
  r.distance = (r.point - p).norm();
  return r;
}

}  // namespace

TieResult tieNodesToFaces(FeModel& mesh, const std::string& label, const std::string& where, const std::vector<int>& slaves,
                          const std::vector<std::pair<int, int>>& master, double tolerance) {
  TieResult result;
  std::vector<Face> faces;
  std::vector<char> onMaster(std::size_t(mesh.nodeCount()), 0);
  double sizeSum = 0;
  for (const auto& [element, face] : master) {
    const Element& el = mesh.elements[std::size_t(element)];
    Face f;
    f.nodes = faceNodes(el, face);
    if (f.nodes.empty() || std::any_of(f.nodes.begin(), f.nodes.end(), [&](int k) { return k < 0 || k >= mesh.nodeCount(); }))
      continue;
    const bool quadraticElement = nodeCount(el.type) > 8;  // faceNodes lists the mid-side nodes after the corners
    f.corners = quadraticElement ? static_cast<int>(f.nodes.size()) / 2 : static_cast<int>(f.nodes.size());
    f.low = f.high = mesh.coords[std::size_t(f.nodes.front())];
    for (int k : f.nodes) {
      onMaster[std::size_t(k)] = 1;
      f.low = f.low.cwiseMin(mesh.coords[std::size_t(k)]);
      f.high = f.high.cwiseMax(mesh.coords[std::size_t(k)]);
    }
    sizeSum += (f.high - f.low).norm();
    faces.push_back(std::move(f));
  }
  if (faces.empty()) return result;
  result.tolerance = tolerance > 0 ? tolerance : 0.025 * sizeSum / static_cast<double>(faces.size());
  // a uniform grid of cells about the mean face size, each listing the faces whose box (grown by
  // the tolerance) reaches into it
  Eigen::Vector3d low = faces.front().low, high = faces.front().high;
  for (const Face& f : faces) low = low.cwiseMin(f.low), high = high.cwiseMax(f.high);
  const double cell = std::max(sizeSum / static_cast<double>(faces.size()), 1e-300);
  const Eigen::Vector3d origin = low - Eigen::Vector3d::Constant(result.tolerance + cell);
  const auto cellOf = [&](const Eigen::Vector3d& x) {
    const Eigen::Vector3d c = ((x - origin) / cell).array().floor();
    return Eigen::Vector3i(static_cast<int>(c.x()), static_cast<int>(c.y()), static_cast<int>(c.z()));
  };
  const auto key = [](const Eigen::Vector3i& c) {
    return (static_cast<long long>(c.x()) * 73856093LL) ^ (static_cast<long long>(c.y()) * 19349663LL) ^
           (static_cast<long long>(c.z()) * 83492791LL);
  };
  std::unordered_map<long long, std::vector<int>> grid;
  const Eigen::Vector3d grow = Eigen::Vector3d::Constant(result.tolerance);
  for (std::size_t i = 0; i < faces.size(); ++i) {
    const Eigen::Vector3i a = cellOf(faces[i].low - grow), b = cellOf(faces[i].high + grow);
    for (int x = a.x(); x <= b.x(); ++x)
      for (int y = a.y(); y <= b.y(); ++y)
        for (int z = a.z(); z <= b.z(); ++z) grid[key({x, y, z})].push_back(static_cast<int>(i));
  }
  std::vector<char> done(std::size_t(mesh.nodeCount()), 0);
  for (int s : slaves) {
    if (s < 0 || s >= mesh.nodeCount() || done[std::size_t(s)]) continue;
    done[std::size_t(s)] = 1;
    if (onMaster[std::size_t(s)]) {
      ++result.shared;
      continue;
    }
    const Eigen::Vector3d p = mesh.coords[std::size_t(s)];
    const auto candidates = grid.find(key(cellOf(p)));
    Projection best;
    int bestFace = -1;
    if (candidates != grid.end())
      for (int i : candidates->second) {
        const Face& f = faces[std::size_t(i)];
        if (((p - f.low).array() < -result.tolerance).any() || ((p - f.high).array() > result.tolerance).any()) continue;
        Projection q = project(mesh, f, p);
        if (bestFace < 0 || q.distance < best.distance) best = std::move(q), bestFace = i;
      }
    if (bestFace < 0 || best.distance > result.tolerance) {
      result.outside.push_back(s);
      continue;
    }
    const Face& f = faces[std::size_t(bestFace)];
    result.largest_move = std::max(result.largest_move, best.distance);
    mesh.coords[std::size_t(s)] = best.point;  // onto the face: rigid motions stay exact
    for (int c = 0; c < 3; ++c) {
      LinearConstraint lc;
      lc.label = label + ", slave node " + std::to_string(mesh.node_ids[std::size_t(s)]);
      lc.where = where;
      lc.terms.push_back({s, c, 1.0});
      for (std::size_t i = 0; i < f.nodes.size(); ++i)
        if (const double w = best.weights(static_cast<Eigen::Index>(i)); std::abs(w) > 1e-14)
          lc.terms.push_back({f.nodes[i], c, -w});
      mesh.constraints.push_back(std::move(lc));
    }
    ++result.tied;
  }
  return result;
}

}  // namespace flexim::fe
