#include "core/integrators/dense_output.h"

#include <algorithm>

namespace flexim {

void interpolateHermite(const System& sys, double t, double t0, const VecX& q0, const VecX& v0, const VecX& a0,
                        double t1, const VecX& q1, const VecX& v1, const VecX& a1, State& out) {
  const double h = t1 - t0;
  const double s = h > 0 ? std::clamp((t - t0) / h, 0.0, 1.0) : 1.0;
  const double h00 = 2 * s * s * s - 3 * s * s + 1, h10 = s * s * s - 2 * s * s + s;
  const double h01 = -2 * s * s * s + 3 * s * s, h11 = s * s * s - s * s;
  const VecX dx = sys.tangentDifference(q1, q0);
  out.t = t;
  out.q = q0;
  sys.retract(out.q, h10 * h * v0 + h01 * dx + h11 * h * v1);
  out.v = h00 * v0 + h10 * h * a0 + h01 * v1 + h11 * h * a1;
}

}  // namespace flexim
