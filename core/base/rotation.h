// Small rotation helpers on unit quaternions (w, x, y, z) and 3-vectors.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <cmath>

namespace flexim {

/// Cross-product matrix: skew(a) * b == a.cross(b).
inline Eigen::Matrix3d skew(const Eigen::Vector3d& a) {
  Eigen::Matrix3d m;
  m << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return m;
}

/// Quaternion of a rotation vector (exponential map of SO(3)).
inline Eigen::Quaterniond expMap(const Eigen::Vector3d& theta) {
  const double a2 = theta.squaredNorm();
  if (a2 < 1e-16) {
    // second-order series keeps the result unit to machine precision for tiny angles
    Eigen::Quaterniond q(1.0 - a2 / 8.0, 0.5 * theta.x(), 0.5 * theta.y(), 0.5 * theta.z());
    return q.normalized();
  }
  if (a2 < 1e-2) {
    // below 0.1 rad (a step's rotation) the series to a^8 is exact to round-off and spares sin/cos
    const double c = 1 - a2 / 8 * (1 - a2 / 48 * (1 - a2 / 120 * (1 - a2 / 224)));
    const double s = 0.5 * (1 - a2 / 24 * (1 - a2 / 80 * (1 - a2 / 168 * (1 - a2 / 288))));
    return Eigen::Quaterniond(c, s * theta.x(), s * theta.y(), s * theta.z());
  }
  const double angle = std::sqrt(a2);
  const double s = std::sin(0.5 * angle) / angle;
  return Eigen::Quaterniond(std::cos(0.5 * angle), s * theta.x(), s * theta.y(), s * theta.z());
}

/// Rotation vector of a unit quaternion (logarithm), angle in [0, pi].
inline Eigen::Vector3d logMap(Eigen::Quaterniond q) {
  if (q.w() < 0) q.coeffs() = -q.coeffs();
  const Eigen::Vector3d v = q.vec();
  const double sn = v.norm();
  if (sn < 1e-12) return 2.0 * v;
  const double angle = 2.0 * std::atan2(sn, q.w());
  return (angle / sn) * v;
}

}  // namespace flexim
