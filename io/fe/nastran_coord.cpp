#include "io/fe/nastran_coord.h"

#include <Eigen/Geometry>

#include <cmath>
#include <numbers>

namespace flexim::io::nastran {

namespace {
constexpr double kDeg = std::numbers::pi / 180.0;
}

Eigen::Vector3d CoordSystem::toBasic(const Eigen::Vector3d& l) const {
  Eigen::Vector3d p = l;
  if (kind == 'C') {
    p = Eigen::Vector3d(l.x() * std::cos(l.y() * kDeg), l.x() * std::sin(l.y() * kDeg), l.z());
  } else if (kind == 'S') {
    const double t = l.y() * kDeg, f = l.z() * kDeg;
    p = l.x() * Eigen::Vector3d(std::sin(t) * std::cos(f), std::sin(t) * std::sin(f), std::cos(t));
  }
  return origin + axes * p;
}

Eigen::Matrix3d CoordSystem::directionsAt(const Eigen::Vector3d& x, bool* onAxis) const {
  if (onAxis) *onAxis = false;
  if (kind == 'R') return axes;
  const Eigen::Vector3d p = axes.transpose() * (x - origin);
  const double rho = std::hypot(p.x(), p.y());
  if (onAxis) *onAxis = !(rho > 1e-12 * p.norm());
  const double phi = rho > 0 ? std::atan2(p.y(), p.x()) : 0.0;  // azimuth about z
  const double c = std::cos(phi), s = std::sin(phi);
  Eigen::Matrix3d local;
  if (kind == 'C') {
    local << c, -s, 0, s, c, 0, 0, 0, 1;  // columns r, theta, z
  } else {
    const double t = std::atan2(rho, p.z());  // from the z axis
    const double ct = std::cos(t), st = std::sin(t);
    local << st * c, ct * c, -s, st * s, ct * s, c, ct, -st, 0;  // columns r, theta, phi
  }
  return axes * local;
}

bool systemFromPoints(char kind, const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                      CoordSystem& out, std::string& problem) {
  const Eigen::Vector3d ez = b - a, ac = c - a;
  const double scale = std::max({ez.norm(), ac.norm(), 1e-300});
  if (!(ez.norm() > 1e-12 * scale)) {
    problem = "points A and B coincide: no z axis";
    return false;
  }
  const Eigen::Vector3d z = ez.normalized();
  const Eigen::Vector3d xv = ac - ac.dot(z) * z;
  if (!(xv.norm() > 1e-9 * ac.norm()) || !(xv.norm() > 0)) {
    problem = "point C lies on the z axis (on the line through A and B): no x-z plane";
    return false;
  }
  out.kind = kind;
  out.origin = a;
  out.axes.col(0) = xv.normalized();
  out.axes.col(2) = z;
  out.axes.col(1) = z.cross(out.axes.col(0));
  if (!out.axes.allFinite() || !out.origin.allFinite()) {
    problem = "the points give no finite axes";
    return false;
  }
  return true;
}

}  // namespace flexim::io::nastran
