// Time integrators see the System through its evaluation functions only; they own the
// State and expose it between steps for dense output (interpolation at sample times).
#pragma once

#include "core/system/system.h"

#include <functional>
#include <memory>
#include <string>

namespace flexim {

struct IntegratorStats {
  long steps = 0;
  long newton_iterations = 0;
  long failures = 0;  ///< rejected steps (convergence or error test)
  long pattern_analyses = 0;    ///< symbolic analyses of the iteration matrix (one per active set)
  long active_set_changes = 0;  ///< unilateral rows opened or closed (each redoes a step)
};

/// What a contact point did in the last step, for the output channels (core/run/contact_channels.h).
struct ContactChannelValues {
  double gap = 0;              ///< [m] at the step's end
  double normal_velocity = 0;  ///< [m/s] after the step (post-impact)
  double normal_force = 0;     ///< [N] within the step (at its end)
  Eigen::Vector2d tangential_force = Eigen::Vector2d::Zero();
  double normal_impulse = 0;   ///< [N s] of an impact at the step's end
  Eigen::Vector2d tangential_impulse = Eigen::Vector2d::Zero();
  int status = 0;              ///< 0 open, 1 closed (sticking), 2 closed and slipping
  long impacts = 0;            ///< impacts so far
};

class Integrator {
 public:
  virtual ~Integrator() = default;
  virtual std::string name() const = 0;      ///< e.g. "gen-alpha (Arnold-Bruls, Lie group, index-3)"
  virtual std::string settings() const = 0;  ///< e.g. "h=1e-4 rho_inf=0.8"
  /// Starts from a consistent state with its accelerations and multipliers.
  virtual bool initialize(const State& s0, const VecX& vdot0, const VecX& lambda0, std::string& error) = 0;
  /// Advances one step without passing t_stop. On failure `error` says why and names the item.
  virtual bool step(double t_stop, std::string& error) = 0;
  virtual double time() const = 0;
  virtual double previousTime() const = 0;
  /// State at t in [previousTime(), time()].
  virtual void interpolate(double t, State& out) const = 0;
  virtual IntegratorStats stats() const = 0;
  /// Rows that depend on the others at the initial configuration (per row, non-zero =
  /// dependent): redundant constraints, which the integrator must cope with. Called before
  /// initialize(), only when there are some.
  virtual void setDependentRows(const std::vector<char>& dependent) = 0;
  /// Active constraint rows (open unilateral rows are inactive); nullptr when all are active.
  virtual const std::vector<char>* activeRows() const { return nullptr; }

  // For the run-quality monitor (core/run/quality_monitor.h), after every accepted step:
  /// The state at time(), the end of the last accepted step.
  virtual void currentState(State& out) const { interpolate(time(), out); }
  /// Multipliers of all System::nc() rows at time() (M v_dot + G^T lambda = f there); nullptr
  /// when the integrator has none to give (the monitor then solves for them).
  virtual const VecX* currentMultipliers() const { return nullptr; }
  /// Multipliers of the scheme's own equations at time() when they are not the exact ones but
  /// differ from them by a bias that is smooth in time (generalized-alpha: O(h)); the monitor
  /// then solves for the exact ones only now and then and corrects these in between.
  virtual const VecX* schemeMultipliers() const { return nullptr; }
  /// The constraint rows at time()'s positions and time, when the integrator evaluated them
  /// there (phi, phit and G exact; gamma possibly at velocities before a final projection);
  /// nullptr when it has none (the monitor evaluates them).
  virtual const std::vector<ConstraintRows>* currentRows() const { return nullptr; }

  /// Puts a state onto its constraints (positions, then velocities) and solves for its
  /// accelerations and multipliers (false with a message when it cannot), for an integrator that
  /// hands a state over to another method. Set by the run layer, which owns the consistency
  /// solver; ignored by integrators that need none.
  using ConsistentState = std::function<bool(State&, VecX& vdot, VecX& lambda, std::string&)>;
  virtual void setConsistentState(ConsistentState) {}
  /// The second time derivative of the velocities (v_ddot, the positions' third) at the state
  /// the next initialize() starts from, when the caller knows it (a hand-over from a multistep
  /// method): generalized-alpha's acceleration-like variable starts from it (see
  /// generalized_alpha.cpp); ignored by integrators that need none.
  virtual void setStartingJerk(const VecX&) {}
  /// Facts about how the run was integrated that a reader of the results must know (e.g.
  /// intervals stepped by another method); empty by default.
  virtual std::vector<std::string> notes() const { return {}; }
  /// For schemes whose states the consistency solver must not touch (contacts, which it does
  /// not know): the accelerations and multipliers at a sample time t in [previousTime(), time()],
  /// true; false for integrators whose samples are made consistent by the run.
  virtual bool sampleDynamics(double t, VecX& vdot, VecX& lambda) const { return false; }
  /// The contact points' values (System::contacts() order) at time(); empty without contacts.
  virtual std::vector<ContactChannelValues> contactValues() const { return {}; }
  /// The work [J] the contacts' forces and impulses (and the joint limits') did on the model from
  /// the start to time(), for the energy balance; nullptr when the integrator does not account
  /// for it (the balance of a model with contacts is then not known).
  virtual const double* contactWork() const { return nullptr; }
};

std::unique_ptr<Integrator> makeGeneralizedAlpha(const System& sys, const SolverSpec& spec);
std::unique_ptr<Integrator> makeIda(const System& sys, const SolverSpec& spec);
/// The integrator spec.integrator names (IDA, generalized-alpha or a mixed timestepping scheme).
std::unique_ptr<Integrator> makeIntegrator(const System& sys, const SolverSpec& spec);

/// Active rows for a state whose rows are evaluated: every equality and velocity-level row, and
/// the unilateral rows that touch or penetrate (phi <= tolerance).
std::vector<char> contactActiveRows(const System& sys, const std::vector<ConstraintRows>& rows, double tolerance);

/// Names the constraint element with the largest |value| in a constraint-row vector, e.g.
/// "joint 'pin' (|residual| 3.1e-03)".
std::string worstConstraint(const System& sys, const VecX& rows, const char* what = "residual");

}  // namespace flexim
