// Orientations as angles for people: Cardan angles of the x-y'-z'' sequence, which the property
// panel offers beside the quaternion and the model format accepts as `xyz_deg`.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>

namespace flexim {

/// Cardan angles (a, b, c) [rad] of the x-y'-z'' sequence: R = Rx(a) Ry(b) Rz(c), turning first
/// about x, then about the new y, then about the newest z. b in [-pi/2, pi/2]; a, c in (-pi, pi].
/// At b = +-pi/2 (gimbal lock) only a +- c is defined: c is then 0.
inline Eigen::Vector3d xyzAngles(const Eigen::Quaterniond& q) {
  const Eigen::Matrix3d R = q.normalized().toRotationMatrix();
  const double sb = std::clamp(R(0, 2), -1.0, 1.0);
  const double b = std::asin(sb);
  if (std::abs(sb) > 1.0 - 1e-12) return {std::atan2(R(2, 1), R(1, 1)), b, 0.0};
  return {std::atan2(-R(1, 2), R(2, 2)), b, std::atan2(-R(0, 1), R(0, 0))};
}

/// The rotation of Cardan angles (a, b, c) [rad], x-y'-z'' sequence (see xyzAngles).
inline Eigen::Quaterniond fromXyzAngles(const Eigen::Vector3d& angles) {
  return Eigen::Quaterniond(Eigen::AngleAxisd(angles.x(), Eigen::Vector3d::UnitX()) *
                            Eigen::AngleAxisd(angles.y(), Eigen::Vector3d::UnitY()) *
                            Eigen::AngleAxisd(angles.z(), Eigen::Vector3d::UnitZ()));
}

}  // namespace flexim
