// The quality of a run: constraint residuals and step statistics of the accepted steps, and
// the work-energy balance, measured at every accepted integrator step (QualityMonitor,
// core/run/quality_monitor.h); the checks that turn a finished run into a warning
// (docs/user-guide.md, "Run quality").
#pragma once

#include <string>
#include <vector>

namespace flexim {

/// Limits of the run-quality checks (documented in docs/user-guide.md, "Run quality").
namespace quality {
/// Position residual tolerance: this many times the constraint accuracy the integrator is
/// asked for (gen-alpha: newton_tol; IDA: rtol L + atol, L the model's length scale).
inline constexpr double kResidualFactor = 100.0;
/// Rejected steps: at most this share of the attempted steps (accepted + rejected).
inline constexpr double kRejectedShare = 0.2;
/// Energy balance of a model on which nothing does work: at most this fraction of its energy
/// scale (largest kinetic energy + range of the potential energy; no work is exchanged).
inline constexpr double kEnergyFraction = 1e-3;
/// Energy balance of a model worked on by applied loads, dampers and geometric stiffening only
/// (no drivers): their power is smooth, so the trapezoidal rule over the steps integrates it
/// well within this.
inline constexpr double kLoadedEnergyFraction = 1e-2;
/// Energy balance of a model with drivers, whose work comes from their multipliers
/// (lambda . Phi_t): a driver's power can swing far around its mean (the rigid slider-crank's
/// +-4 kW for a net 3.6 J), and the trapezoidal rule over the steps follows it less well; the
/// energy scale counts the work exchanged both ways. The driven examples stay below 1.1e-5 of
/// it with both integrators; generalized-alpha on a driven double pendulum at a step 50 times
/// too large is off by 6e-3.
inline constexpr double kDrivenEnergyFraction = 1e-3;
/// A stiffened body runs away when the work of geometric stiffening, and the growth of the
/// energy, pass this many times all the energy put into the model from outside (initial
/// energy, range of the gravity potential, work of drivers, loads and dampers either way): the
/// run stops there with a warning.
inline constexpr double kStiffeningRunaway = 10.0;
}  // namespace quality

/// What a run measured of its own accuracy (RunSummary::quality).
struct RunQuality {
  bool measured = false;  ///< false when the run stopped before its first step
  // constraints, at the accepted steps (open contact rows left out)
  double position_residual = 0.0;   ///< max |Phi| [m or rad]
  double position_tolerance = 0.0;
  double velocity_residual = 0.0;   ///< max |G v + Phi_t| [m/s or rad/s]
  double velocity_tolerance = 0.0;
  // steps
  long steps = 0;            ///< accepted steps
  long rejected = 0;         ///< rejected attempts (error test, Newton, contact not settling)
  long halvings = 0;         ///< halvings of the step size between accepted steps (sum of floor(log2(h_prev / h)))
  double smallest_step = 0;  ///< [s] smallest accepted step (the last one, cut to t_end, left out)
  // work-energy balance E(t) - E(0) - W(t), E = kinetic + potential (gravity, springs, strain)
  bool energy_known = false;   ///< every term known (else energy_note says which is not)
  bool energy_checked = false; ///< the balance was held to a limit (every term known)
  double energy_limit = 0.0;   ///< that limit, as a fraction of the energy scale
  /// which limit: "conservative" (nothing does work), "loaded" (loads, dampers, stiffening),
  /// "driven" (drivers do work); "" when not checked
  std::string energy_check;
  std::string energy_note;     ///< why the balance is not known, or not checked
  double energy_initial = 0.0, energy_final = 0.0;  ///< [J]
  double work_drivers = 0.0;   ///< [J] of rheonomic constraints (drivers): lambda . Phi_t
  /// Accepted steps at which the drivers' multipliers were solved for exactly; at the others
  /// the integrator's biased ones were corrected (QualityMonitor), with this estimated bound
  /// on the error that put into work_drivers [J].
  long drivers_exact_steps = 0;
  double work_drivers_error = 0.0;
  double work_dampers = 0.0;   ///< [J] of dampers and structural damping (<= 0)
  double work_loads = 0.0;     ///< [J] of applied loads
  double work_stiffening = 0.0;  ///< [J] of flexible bodies' geometric stiffening (either sign)
  double work_contacts = 0.0;    ///< [J] of contacts and joint limits: friction and impacts (<= 0)
  double energy_error = 0.0;   ///< [J] max |E(t) - E(0) - W(t)| over the accepted steps
  double energy_scale = 0.0;   ///< [J] max kinetic + (max - min) potential + |work| exchanged
  std::vector<std::string> warnings;  ///< each with its measured value and its limit

  /// The summary, one topic per line: "constraint residuals at the steps: ...", "steps: ...",
  /// "energy: ...".
  std::vector<std::string> lines() const;
};

}  // namespace flexim
