#include "render/inertia_shape.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>

namespace flexim::render {

InertiaBox equivalentInertiaBox(double mass, const Mat3& inertia, double minAspect) {
  InertiaBox box;
  const Mat3 sym = 0.5 * (inertia + inertia.transpose());
  if (!(mass > 0.0) || !sym.allFinite()) return box;

  const Eigen::SelfAdjointEigenSolver<Mat3> eig(sym);
  if (eig.info() != Eigen::Success) return box;
  const Vec3 moments = eig.eigenvalues();
  Mat3 axes = eig.eigenvectors();
  if (axes.determinant() < 0) axes.col(2) = -axes.col(2);  // keep a proper rotation

  // a^2 = 6 (I2 + I3 - I1) / m, cyclic
  Vec3 squared;
  for (int i = 0; i < 3; ++i) {
    const double sum = moments((i + 1) % 3) + moments((i + 2) % 3) - moments(i);
    squared(i) = 6.0 * sum / mass;
  }
  const double longest = std::sqrt(std::max(squared.maxCoeff(), 0.0));
  if (!(longest > 0.0) || !std::isfinite(longest)) return box;

  for (int i = 0; i < 3; ++i)
    box.size(i) = std::max(std::sqrt(std::max(squared(i), 0.0)), minAspect * longest);
  box.orientation = Quat(axes).normalized();
  box.valid = true;
  return box;
}

}  // namespace flexim::render
