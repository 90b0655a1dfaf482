// Closed-form mass properties of a box and of a regular N-gon prism, and their triangle
// surfaces, for the mass-properties tests (core, io, app). The fixtures in tests/data/meshes
// (scripts/make_mesh_fixtures.py) are the same solids.
#pragma once

#include "core/geometry/mass_properties.h"

#include <Eigen/Core>

#include <cmath>
#include <numbers>

namespace flexim::test {

using Eigen::Matrix3d;
using Eigen::Vector3d;

struct SolidReference {
  double volume = 0, mass = 0;
  Vector3d centre = Vector3d::Zero();
  Matrix3d inertia = Matrix3d::Zero();  ///< about the centre, tensor (off-diagonals negated products)
};

/// Box with edges `edges` along the columns of R, centred at `centre`.
inline SolidReference boxReference(const Vector3d& edges, const Matrix3d& R, const Vector3d& centre, double density) {
  SolidReference s;
  s.volume = edges.prod();
  s.mass = density * s.volume;
  s.centre = centre;
  const Vector3d sq = edges.cwiseAbs2();
  const Matrix3d local = (s.mass / 12.0) * Vector3d(sq.y() + sq.z(), sq.x() + sq.z(), sq.x() + sq.y()).asDiagonal();
  s.inertia = R * local * R.transpose();
  return s;
}

/// Regular n-gon prism of circumradius r and height h, axis along z through its centroid
/// `centre`: area A = n/2 r^2 sin(2 pi/n), polar moment of the polygon J = A r^2 (2 + cos(2 pi/n))/6
/// (the sum over its n triangles from the centre), equal in x and y for n >= 3 (J/2 each).
inline SolidReference prismReference(int n, double r, double h, const Vector3d& centre, double density) {
  const double theta = 2 * std::numbers::pi / n;
  const double area = 0.5 * n * r * r * std::sin(theta);
  const double polar = area * r * r * (2 + std::cos(theta)) / 6;
  SolidReference s;
  s.volume = area * h;
  s.mass = density * s.volume;
  s.centre = centre;
  const double axial = density * h * polar;
  const double transverse = density * h * polar / 2 + s.mass * h * h / 12;
  s.inertia = Vector3d(transverse, transverse, axial).asDiagonal();
  return s;
}

/// Solid cylinder of radius r and height h, axis along z.
inline SolidReference cylinderReference(double r, double h, const Vector3d& centre, double density) {
  SolidReference s;
  s.volume = std::numbers::pi * r * r * h;
  s.mass = density * s.volume;
  s.centre = centre;
  const double transverse = s.mass * (3 * r * r + h * h) / 12;
  s.inertia = Vector3d(transverse, transverse, s.mass * r * r / 2).asDiagonal();
  return s;
}

/// The box's 8 corners and 12 outward triangles (vertices shared).
inline geometry::TriangleMesh boxMesh(const Vector3d& edges, const Matrix3d& R, const Vector3d& centre) {
  geometry::TriangleMesh m;
  for (int sx : {-1, 1})
    for (int sy : {-1, 1})
      for (int sz : {-1, 1}) m.vertices.push_back(centre + R * (0.5 * Vector3d(sx, sy, sz).cwiseProduct(edges)));
  // corner index (sx > 0) * 4 + (sy > 0) * 2 + (sz > 0); each face counter-clockwise from outside
  const int quads[6][4] = {{4, 6, 7, 5}, {0, 1, 3, 2}, {2, 3, 7, 6}, {0, 4, 5, 1}, {1, 5, 7, 3}, {0, 2, 6, 4}};
  for (const auto& q : quads) {
    m.triangles.push_back({q[0], q[1], q[2]});
    m.triangles.push_back({q[0], q[2], q[3]});
  }
  return m;
}

/// The prism's surface: sides as two triangles per edge, caps as fans around their centres.
inline geometry::TriangleMesh prismMesh(int n, double r, double h, const Vector3d& centre) {
  geometry::TriangleMesh m;
  for (int level : {-1, 1})
    for (int k = 0; k < n; ++k) {
      const double a = 2 * std::numbers::pi * k / n;
      m.vertices.push_back(centre + Vector3d(r * std::cos(a), r * std::sin(a), 0.5 * level * h));
    }
  m.vertices.push_back(centre - Vector3d(0, 0, 0.5 * h));
  m.vertices.push_back(centre + Vector3d(0, 0, 0.5 * h));
  const int bottom = 2 * n, top = 2 * n + 1;
  for (int k = 0; k < n; ++k) {
    const int k1 = (k + 1) % n;
    m.triangles.push_back({k, k1, n + k1});
    m.triangles.push_back({k, n + k1, n + k});
    m.triangles.push_back({bottom, k1, k});
    m.triangles.push_back({top, n + k, n + k1});
  }
  return m;
}

/// Every triangle with its own three vertices, as STL stores them.
inline geometry::TriangleMesh perFacet(const geometry::TriangleMesh& m) {
  geometry::TriangleMesh out;
  for (const auto& t : m.triangles) {
    const int first = static_cast<int>(out.vertices.size());
    for (int v : t) out.vertices.push_back(m.vertices[static_cast<std::size_t>(v)]);
    out.triangles.push_back({first, first + 1, first + 2});
  }
  return out;
}

/// The rotation of the fixtures: (1/3) [[2, -1, 2], [2, 2, -1], [-1, 2, 2]].
inline Matrix3d fixtureRotation() {
  Matrix3d R;
  R << 2, -1, 2, 2, 2, -1, -1, 2, 2;
  return R / 3.0;
}

/// The box of tests/data/meshes/box*.stl (scripts/make_mesh_fixtures.py), in metres.
inline SolidReference fixtureBox(double density) {
  return boxReference(Vector3d(3, 1.5, 0.75), fixtureRotation(), Vector3d(1000.5, -250.25, 40.125), density);
}

/// Largest relative difference of the mass properties from a reference: mass, centre (relative
/// to the size sqrt(I/m)), inertia (relative to its largest entry).
inline double relativeError(const geometry::MassProperties& p, const SolidReference& ref) {
  const double size = std::sqrt(ref.inertia.norm() / ref.mass);
  const double mass = std::abs(p.mass - ref.mass) / ref.mass;
  const double volume = std::abs(p.volume - ref.volume) / ref.volume;
  const double centre = (p.centre - ref.centre).norm() / size;
  const double inertia = (p.inertia - ref.inertia).cwiseAbs().maxCoeff() / ref.inertia.cwiseAbs().maxCoeff();
  return std::max({mass, volume, centre, inertia});
}

}  // namespace flexim::test
