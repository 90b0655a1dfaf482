// Test helper: reproducible random vectors and rotations.
#pragma once

#include "core/base/rotation.h"

#include <Eigen/Core>

#include <random>

namespace flexim::test {

inline Eigen::VectorXd randomVec(int n, std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-1, 1);
  Eigen::VectorXd v(n);
  for (int i = 0; i < n; ++i) v(i) = scale * u(rng);
  return v;
}

inline Eigen::Matrix3d randomRotation(std::mt19937& rng) {
  return expMap(Eigen::Vector3d(randomVec(3, rng, 2.0))).toRotationMatrix();
}

}  // namespace flexim::test
