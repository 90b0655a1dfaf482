// Consistent states: assemble positions onto Phi(q,t) = 0, project velocities onto
// G v + Phi_t = 0, and solve the KKT system for accelerations and multipliers.
// Used for the initial conditions and for every output sample.
#pragma once

#include "core/system/kkt.h"

#include <string>

namespace flexim {

class Consistency {
 public:
  explicit Consistency(const System& sys);
  /// Newton with minimum-norm corrections (identity metric on [dr, dtheta]; modal coordinates
  /// weighted heavily, so a body that starts undeformed stays so while the mechanism assembles).
  /// Returns false with `error` naming the worst constraint when it does not converge.
  bool assemblePositions(State& s, double tol, int max_iter, double& residual, std::string& error);
  /// Kinetic-energy-metric projection. Returns the residual |G v + Phi_t| before projection.
  /// freeze_deformation_rates: modal rates weighted heavily (initial conditions: rigid-body
  /// consistent velocities of an undeformed body, not the minimum-energy split).
  bool projectVelocities(State& s, double& residual_before, bool freeze_deformation_rates = false);
  /// Accelerations and multipliers of a consistent state.
  bool accelerations(const State& s, VecX& vdot, VecX& lambda);
  /// Rows taken into account (open unilateral rows are left out); all rows by default.
  void setActiveRows(const std::vector<char>& active);
  const std::vector<char>& activeRows() const { return m_mass.activeRows(); }
  /// Regularisation of both KKT matrices (KktMatrix::Regularization; Always for dependent rows).
  void setRegularization(KktMatrix::Regularization r);
  /// Whether a factorisation so far found the constraint Jacobian rank-deficient.
  bool foundRankDeficiency() const {
    return m_identity.regularization() == KktMatrix::Regularization::Always ||
           m_mass.regularization() == KktMatrix::Regularization::Always;
  }
  /// max |Phi| and max |G v + Phi_t| of a state.
  void residuals(const State& s, double& position, double& velocity);

 private:
  enum class Metric { Identity, Mass, MassFrozenModes };
  bool factorMetric(const State& s, Metric metric);
  const System& m_sys;
  KktMatrix m_identity, m_mass;
  VecX m_massFactorQ;         ///< positions of the current mass-metric factorisation
  double m_massFactorT = -1;  ///< and its time (the matrix depends on q and t only)
  std::vector<BodyKinematics> m_kin;
  std::vector<ConstraintRows> m_rows;
};

}  // namespace flexim
