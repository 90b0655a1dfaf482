#include "core/geometry/mass_properties.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numbers>
#include <numeric>
#include <unordered_map>

namespace flexim::geometry {

namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

/// Volume integrals of 1, x and x x^T over the solid, x measured from a reference point.
struct Moments {
  double volume = 0;
  Vector3d first = Vector3d::Zero();
  Matrix3d second = Matrix3d::Zero();

  void add(const Moments& o, double sign) {
    volume += sign * o.volume;
    first += sign * o.first;
    second += sign * o.second;
  }
};

/// The tetrahedron (0, a, b, c), signed by the orientation of (a, b, c): its volume d/6,
/// int x dV = V (a + b + c)/4 and int x x^T dV = V/20 (a a^T + b b^T + c c^T + s s^T) with
/// s = a + b + c (Tonon 2004, eq. 2 for a vertex at the origin).
void addTetrahedron(const Vector3d& a, const Vector3d& b, const Vector3d& c, Moments& m) {
  const double d = a.dot(b.cross(c));
  const Vector3d s = a + b + c;
  m.volume += d / 6;
  m.first += (d / 24) * s;
  m.second += (d / 120) * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
}

MassProperties fromMoments(const Moments& m, double density, const Vector3d& origin) {
  MassProperties p;
  p.volume = m.volume;
  p.mass = density * m.volume;
  if (m.volume == 0) return p;
  const Vector3d c = m.first / m.volume;
  // parallel-axis shift to the centre; small when the reference point is near the centre
  const Matrix3d second = m.second - m.volume * c * c.transpose();
  p.centre = origin + c;
  p.inertia = density * (second.trace() * Matrix3d::Identity() - second);  // exactly symmetric, as each term
  Eigen::SelfAdjointEigenSolver<Matrix3d> eig(p.inertia);
  p.principal_moments = eig.eigenvalues();
  p.principal_axes = eig.eigenvectors();
  for (int k = 0; k < 3; ++k) {
    Eigen::Index largest = 0;
    p.principal_axes.col(k).cwiseAbs().maxCoeff(&largest);
    if (p.principal_axes(largest, k) < 0) p.principal_axes.col(k) *= -1;
  }
  if (p.principal_axes.determinant() < 0) p.principal_axes.col(2) *= -1;
  return p;
}

std::string point(const Vector3d& p) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%.9g, %.9g, %.9g)", p.x(), p.y(), p.z());
  return buf;
}

std::string edgeText(const ExampleEdge& e) { return "the edge " + point(e.from) + " - " + point(e.to); }

/// Grid cell of a point for welding: cells as large as the tolerance, so a partner within the
/// tolerance lies in one of the 27 cells around.
struct Cell {
  std::int64_t i, j, k;
  bool operator==(const Cell&) const = default;
};
struct CellHash {
  std::size_t operator()(const Cell& c) const {
    std::uint64_t h = static_cast<std::uint64_t>(c.i) * 0x9E3779B97F4A7C15ull;
    h ^= static_cast<std::uint64_t>(c.j) + 0x7F4A7C159E3779B9ull + (h << 6) + (h >> 2);
    h ^= static_cast<std::uint64_t>(c.k) + 0x94D049BB133111EBull + (h << 6) + (h >> 2);
    return h;
  }
};

/// Solid angle of the triangle (a, b, c) seen from the origin, signed by its orientation
/// (Van Oosterom and Strackee, IEEE Trans. Biomed. Eng. 30(2), 1983).
double solidAngle(const Vector3d& a, const Vector3d& b, const Vector3d& c) {
  const double la = a.norm(), lb = b.norm(), lc = c.norm();
  const double num = a.dot(b.cross(c));
  const double den = la * lb * lc + a.dot(b) * lc + a.dot(c) * lb + b.dot(c) * la;
  return 2 * std::atan2(num, den);
}

struct Box {
  Vector3d lo = Vector3d::Constant(std::numeric_limits<double>::infinity());
  Vector3d hi = -Vector3d::Constant(std::numeric_limits<double>::infinity());
  void add(const Vector3d& p) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  bool contains(const Box& o) const { return (lo.array() <= o.lo.array()).all() && (o.hi.array() <= hi.array()).all(); }
};

}  // namespace

TriangleMesh weldVertices(const TriangleMesh& mesh, double tolerance, long* dropped) {
  TriangleMesh out;
  std::vector<int> to(mesh.vertices.size(), -1);
  Vector3d lo = Vector3d::Zero(), hi = Vector3d::Zero();
  if (!mesh.vertices.empty()) lo = hi = mesh.vertices[0];
  for (const Vector3d& v : mesh.vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  // a tolerance below the coordinates' own resolution is no tolerance (and would overflow the cells)
  if (tolerance > 0 && (hi - lo).maxCoeff() / tolerance < 1e15) {
    const auto cellOf = [&](const Vector3d& p) {
      const Vector3d x = (p - lo) / tolerance;
      return Cell{static_cast<std::int64_t>(std::floor(x.x())), static_cast<std::int64_t>(std::floor(x.y())),
                  static_cast<std::int64_t>(std::floor(x.z()))};
    };
    std::unordered_map<Cell, std::vector<int>, CellHash> grid;
    grid.reserve(mesh.vertices.size());
    for (std::size_t v = 0; v < mesh.vertices.size(); ++v) {
      const Vector3d& p = mesh.vertices[v];
      const Cell c = cellOf(p);
      for (std::int64_t di = -1; di <= 1 && to[v] < 0; ++di)
        for (std::int64_t dj = -1; dj <= 1 && to[v] < 0; ++dj)
          for (std::int64_t dk = -1; dk <= 1 && to[v] < 0; ++dk) {
            const auto it = grid.find(Cell{c.i + di, c.j + dj, c.k + dk});
            if (it == grid.end()) continue;
            for (int kept : it->second)
              if ((out.vertices[kept] - p).norm() <= tolerance) {
                to[v] = kept;
                break;
              }
          }
      if (to[v] < 0) {
        to[v] = static_cast<int>(out.vertices.size());
        out.vertices.push_back(p);
        grid[c].push_back(to[v]);
      }
    }
  } else {
    // equal positions only; +0 and -0 are the same position
    const auto key = [](const Vector3d& p) {
      return Cell{std::bit_cast<std::int64_t>(p.x() + 0.0), std::bit_cast<std::int64_t>(p.y() + 0.0),
                  std::bit_cast<std::int64_t>(p.z() + 0.0)};
    };
    std::unordered_map<Cell, int, CellHash> seen;
    for (std::size_t v = 0; v < mesh.vertices.size(); ++v) {
      const auto [it, added] = seen.try_emplace(key(mesh.vertices[v]), static_cast<int>(out.vertices.size()));
      if (added) out.vertices.push_back(mesh.vertices[v]);
      to[v] = it->second;
    }
  }
  long lost = 0;
  out.triangles.reserve(mesh.triangles.size());
  for (const auto& t : mesh.triangles) {
    const std::array<int, 3> w{to[t[0]], to[t[1]],
                               to[t[2]]};
    if (w[0] == w[1] || w[1] == w[2] || w[0] == w[2]) {
      ++lost;
      continue;
    }
    out.triangles.push_back(w);
  }
  if (dropped) *dropped = lost;
  return out;
}

std::string SurfaceCheck::problem() const {
  std::string text;
  const auto clause = [&](long count, const char* what, const ExampleEdge& e) {
    if (count == 0) return;
    if (!text.empty()) text += "; ";
    text += std::to_string(count) + what + ", e.g. " + edgeText(e);
  };
  clause(boundary_edges,
         boundary_edges == 1 ? " boundary edge (in one triangle only: the surface is open)"
                             : " boundary edges (each in one triangle only: the surface is open)",
         boundary_example);
  clause(non_manifold_edges,
         " non-manifold edge(s) (in three or more triangles: sheets or solids meet along an edge)",
         non_manifold_example);
  clause(misoriented_edges,
         " inconsistently oriented edge(s) (used twice in the same direction: a triangle faces the wrong way)",
         misoriented_example);
  return text;
}

SurfaceCheck checkSurface(const TriangleMesh& mesh) {
  SurfaceCheck check;
  // every directed edge once: (smaller vertex, larger vertex, triangle, runs from smaller to larger)
  struct Use {
    std::uint64_t key;
    int triangle;
    bool up;
  };
  std::vector<Use> uses;
  uses.reserve(3 * mesh.triangles.size());
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      const int a = mesh.triangles[t][k], b = mesh.triangles[t][(k + 1) % 3];
      const auto lo = static_cast<std::uint64_t>(std::min(a, b)), hi = static_cast<std::uint64_t>(std::max(a, b));
      uses.push_back({(lo << 32) | hi, static_cast<int>(t), a < b});
    }
  std::sort(uses.begin(), uses.end(), [](const Use& x, const Use& y) {
    return x.key != y.key ? x.key < y.key : x.triangle < y.triangle;
  });

  // shells: triangles joined through edges (union-find)
  std::vector<int> parent(mesh.triangles.size());
  std::iota(parent.begin(), parent.end(), 0);
  const auto root = [&](int t) {
    while (parent[t] != t) t = parent[t] = parent[parent[t]];  // path halving
    return t;
  };
  const auto example = [&](std::uint64_t key) {
    const auto a = static_cast<std::size_t>(key >> 32), b = static_cast<std::size_t>(key & 0xFFFFFFFFu);
    return ExampleEdge{mesh.vertices[a], mesh.vertices[b]};
  };
  for (std::size_t i = 0, j = 0; i < uses.size(); i = j) {
    // uses[i, j): the triangles along one edge
    int up = 0;
    for (j = i; j < uses.size() && uses[j].key == uses[i].key; ++j) up += uses[j].up ? 1 : 0;
    const std::size_t n = j - i;
    ++check.edges;
    if (n == 1) {
      if (check.boundary_edges++ == 0) check.boundary_example = example(uses[i].key);
    } else if (n > 2) {
      if (check.non_manifold_edges++ == 0) check.non_manifold_example = example(uses[i].key);
    } else if (up != 1) {
      if (check.misoriented_edges++ == 0) check.misoriented_example = example(uses[i].key);
    }
    for (std::size_t k = 1; k < n; ++k) parent[root(uses[i + k].triangle)] = root(uses[i].triangle);
  }
  std::vector<int> shellOfRoot(mesh.triangles.size(), -1);
  check.shell_of_triangle.resize(mesh.triangles.size());
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    int& s = shellOfRoot[root(static_cast<int>(t))];
    if (s < 0) s = check.shells++;
    check.shell_of_triangle[t] = s;
  }
  return check;
}

namespace {

/// A solid centred at the origin with second moments diag(sxx, syy, szz) per unit volume.
MassProperties centredSolid(double volume, const Vector3d& perVolume, double density) {
  Moments m;
  m.volume = volume;
  m.second = (volume * perVolume).asDiagonal();
  return fromMoments(m, density, Vector3d::Zero());
}

}  // namespace

MassProperties boxMassProperties(const Vector3d& size, double density) {
  return centredSolid(size.prod(), size.cwiseAbs2() / 12, density);
}

MassProperties cylinderMassProperties(double radius, double length, double density) {
  const double r2 = radius * radius / 4;  // int x^2 dA / A of a disc
  return centredSolid(std::numbers::pi * radius * radius * length, Vector3d(r2, r2, length * length / 12), density);
}

MassProperties sphereMassProperties(double radius, double density) {
  return centredSolid(4 * std::numbers::pi * radius * radius * radius / 3, Vector3d::Constant(radius * radius / 5), density);
}

MassProperties integrateSurface(const TriangleMesh& mesh, double density, const Vector3d& origin) {
  Moments m;
  for (const auto& t : mesh.triangles)
    addTetrahedron(mesh.vertices[t[0]] - origin, mesh.vertices[t[1]] - origin, mesh.vertices[t[2]] - origin, m);
  return fromMoments(m, density, origin);
}

MassPropertiesReport computeMassProperties(const TriangleMesh& input, const MassPropertiesOptions& options) {
  MassPropertiesReport r;
  r.vertices_read = static_cast<long>(input.vertices.size());
  if (!(options.density > 0) || !std::isfinite(options.density)) {
    r.error = "the density must be a positive number (kg/m^3)";
    return r;
  }
  if (!(options.scale > 0) || !std::isfinite(options.scale)) {
    r.error = "the scale must be a positive number (mesh units -> m)";
    return r;
  }
  if (input.triangles.empty()) {
    r.error = "the mesh has no triangles";
    return r;
  }
  for (const auto& t : input.triangles)
    for (int v : t)
      if (v < 0 || v >= static_cast<int>(input.vertices.size())) {
        r.error = "a triangle refers to vertex " + std::to_string(v) + " of " + std::to_string(input.vertices.size());
        return r;
      }
  Box all;
  for (const Vector3d& v : input.vertices) {
    if (!v.allFinite()) {
      r.error = "the mesh has a vertex with a non-finite coordinate";
      return r;
    }
    all.add(v);
  }

  // weld and check in the file's own coordinates: an example edge is found there
  r.weld_distance = options.weld_tolerance * (all.hi - all.lo).norm();
  const TriangleMesh mesh = weldVertices(input, r.weld_distance, &r.degenerate_triangles);
  r.vertices = static_cast<long>(mesh.vertices.size());
  r.triangles = static_cast<long>(mesh.triangles.size());
  const SurfaceCheck check = checkSurface(mesh);
  r.shells = check.shells;
  if (!check.closed()) {
    r.error = "not the closed surface of a solid: " + check.problem() + " (file coordinates)";
    return r;
  }

  // moments of each shell about a point near the mesh (the bounding-box centre) keep the
  // round-off at the mesh's own size, wherever it lies
  const double s = options.scale;
  const Vector3d centre = 0.5 * (all.lo + all.hi);
  const Vector3d origin = s * centre;
  const auto local = [&](int v) -> Vector3d { return s * (mesh.vertices[v] - centre); };
  std::vector<Moments> shell(static_cast<std::size_t>(check.shells));
  std::vector<Box> shellBox(shell.size());
  std::vector<int> largest(shell.size(), -1);  // a triangle of each shell to test nesting with
  std::vector<double> largestArea(shell.size(), -1);
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& tri = mesh.triangles[t];
    const auto k = static_cast<std::size_t>(check.shell_of_triangle[t]);
    const Vector3d a = local(tri[0]), b = local(tri[1]), c = local(tri[2]);
    addTetrahedron(a, b, c, shell[k]);
    shellBox[k].add(a);
    shellBox[k].add(b);
    shellBox[k].add(c);
    const double area = (b - a).cross(c - a).norm();
    if (area > largestArea[k]) {
      largestArea[k] = area;
      largest[k] = static_cast<int>(t);
    }
  }
  Moments total;
  for (const Moments& m : shell) total.add(m, 1);
  const double size = s * (all.hi - all.lo).norm();
  if (!(std::abs(total.volume) > 1e-12 * size * size * size)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", total.volume);
    r.error = std::string("the surface encloses no volume (") + buf + " m^3)";
    return r;
  }

  // orientation: a surface facing inwards as a whole is inside out; then each shell should face
  // outwards when an even number of shells lie around it and inwards (a cavity) when odd
  std::vector<double> sign(shell.size(), total.volume < 0 ? -1.0 : 1.0);
  std::vector<std::string> overlapping;
  for (std::size_t k = 0; k < shell.size() && shell.size() > 1; ++k) {
    // winding numbers of the shells whose boxes hold this one's, at a point of this one:
    // +-1 inside such a shell, 0 outside
    std::vector<char> around(shell.size(), 0);
    for (std::size_t o = 0; o < shell.size(); ++o) around[o] = o != k && shellBox[o].contains(shellBox[k]);
    const auto& tri = mesh.triangles[largest[k]];
    const Vector3d p = (local(tri[0]) + local(tri[1]) + local(tri[2])) / 3.0;
    std::vector<double> winding(shell.size(), 0.0);
    if (std::find(around.begin(), around.end(), 1) != around.end())
      for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
        const auto o = static_cast<std::size_t>(check.shell_of_triangle[t]);
        if (!around[o]) continue;
        const auto& u = mesh.triangles[t];
        winding[o] += solidAngle(local(u[0]) - p, local(u[1]) - p, local(u[2]) - p) / (4 * std::numbers::pi);
      }
    int depth = 0;
    for (double w : winding) depth += std::abs(w) > 0.5 ? 1 : 0;
    const bool outwards = shell[k].volume * sign[k] > 0;
    if (outwards == (depth % 2 == 0)) continue;
    if (!outwards)
      sign[k] = -sign[k];  // facing inwards with no solid around it: inside out, not a cavity
    else
      overlapping.push_back("shell " + std::to_string(k + 1) + " (around " + point(p / s + centre) + ")");
  }
  if (!overlapping.empty()) {
    std::string list;
    for (const auto& o : overlapping) list += (list.empty() ? "" : ", ") + o;
    r.error = std::to_string(overlapping.size()) + " shell(s) of " + std::to_string(check.shells) +
              " lie inside another shell but face outwards: " + list +
              " (file coordinates); a cavity must face inwards, and solids must not overlap";
    return r;
  }
  r.flipped_shells = static_cast<int>(std::count(sign.begin(), sign.end(), -1.0));
  r.inside_out = r.flipped_shells == check.shells;
  if (r.inside_out)
    r.warnings.push_back("the surface is inside out (its triangles face inwards, its signed volume is negative): "
                         "taken as the solid it encloses");
  else if (r.flipped_shells > 0)
    r.warnings.push_back(std::to_string(r.flipped_shells) + " of the " + std::to_string(check.shells) +
                         " shells face inwards but lie inside no other shell (inside out, not a cavity): "
                         "taken as the solids they enclose");

  Moments oriented;
  for (std::size_t k = 0; k < shell.size(); ++k) oriented.add(shell[k], sign[k]);
  r.properties = fromMoments(oriented, options.density, origin);
  if (r.degenerate_triangles > 0)
    r.warnings.push_back(std::to_string(r.degenerate_triangles) +
                         " degenerate triangle(s) dropped (two corners closer than the weld tolerance)");
  r.ok = true;
  return r;
}

}  // namespace flexim::geometry
