// The body blocks of an implicit integrator's iteration matrix,
//   massScale M + gamma' C_t + beta' K_t,
// with C_t, K_t the tangents of -forces() (formulations analytic, force elements by one-sided
// differences of each element alone over its blocks) and K_t including the constraint forces'
// geometric stiffness beta' d(G^T lambda)/dq. Shared by generalized-alpha and the mixed
// timestepping schemes; the caller puts the blocks where its matrix wants them.
#pragma once

#include "core/system/system.h"

#include <functional>
#include <vector>

namespace flexim {

class IterationMatrixBlocks {
 public:
  explicit IterationMatrixBlocks(const System& sys) : m_sys(sys) {}
  using Add = std::function<void(int b1, int b2, const MatX& block)>;
  /// kin: the kinematics at the iterate (perturbed and restored); lambda: the multipliers of all
  /// constraint rows (zero rows are skipped).
  void assemble(std::vector<BodyKinematics>& kin, double t, const VecX& lambda, double massScale, double betap,
                double gammap, const Add& add);

 private:
  void addForceTangents(std::vector<BodyKinematics>& kin, double betap, double gammap, const Add& add);
  void addGeometricStiffness(std::vector<BodyKinematics>& kin, double t, const VecX& lambda, double betap,
                             const Add& add);
  const System& m_sys;
  MatX m_M;                 ///< scratch: one block's mass matrix
  ForceRows m_f0, m_f1;     ///< scratch: force tangents
  std::vector<MatX> m_T;    ///< scratch: force tangent blocks
  MatX m_K0, m_D0, m_block; ///< scratch: an element's own tangent (ForceElement::tangent)
  ElementTangent m_K;       ///< scratch: one constraint element's geometric stiffness
  std::vector<int> m_sizes;
};

}  // namespace flexim
