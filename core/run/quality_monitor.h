// Measures the quality of a run (RunQuality, core/run/quality.h) at its accepted steps.
#pragma once

#include "core/run/quality.h"
#include "core/system/system.h"

#include <memory>

namespace flexim {

/// Measures a run at its accepted steps. Not thread-safe; one per run.
class QualityMonitor {
 public:
  /// lengthScale: the model's size [m] (position tolerances are relative to it); contactWork:
  /// the integrator gives the work of the contacts and joint limits (Integrator::contactWork), so
  /// the energy balance of a model with them is known.
  QualityMonitor(const System& sys, const SolverSpec& spec, double lengthScale, bool contactWork = false);
  ~QualityMonitor();
  /// The consistent initial state. active: rows in force (nullptr: all).
  void start(const State& s, const std::vector<char>* active);
  /// The state at the end of an accepted step from tPrev to s.t, with the integrator's
  /// multipliers there (nullptr: the monitor solves for them when the drivers' power needs them),
  /// or its scheme's biased ones (Integrator::schemeMultipliers), which the monitor corrects;
  /// rowsAtState: the constraint rows at s's positions and time when the integrator has them
  /// (Integrator::currentRows; nullptr: the monitor evaluates them).
  /// contactWork: Integrator::contactWork.
  void step(const State& s, double tPrev, const std::vector<char>* active, const VecX* lambda,
            const VecX* schemeLambda = nullptr, const std::vector<ConstraintRows>* rowsAtState = nullptr,
            const double* contactWork = nullptr);
  /// Why the run should stop now (a stiffened body's energy runs away, quality::
  /// kStiffeningRunaway), which finish() also reports as a warning; empty while it may go on.
  const std::string& stopReason() const;
  /// Adds the integrator's counts, evaluates the checks (completed: the run reached t_end) and
  /// returns the result.
  RunQuality finish(long steps, long rejected, bool completed) const;

 private:
  struct Point;
  bool evaluate(const State& s, double h, const std::vector<char>* active, const VecX* lambda,
                const VecX* schemeLambda, const std::vector<ConstraintRows>* rowsAtState, Point& p);
  bool multipliers(const std::vector<char>& active);
  void checkRunaway(const Point& p);
  double driversPower(const VecX& lambda, const std::vector<char>& active) const;
  /// The drivers' power from the scheme's multipliers, corrected (false: the exact multipliers
  /// could not be computed).
  bool correctedDriversPower(double h, const std::vector<char>& active, const VecX& schemeLambda, double& power);
  const System& m_sys;
  SolverSpec m_spec;
  double m_L;
  struct Impl;
  std::unique_ptr<Impl> m;
};

}  // namespace flexim
