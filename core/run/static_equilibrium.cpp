// Static equilibrium of any model (Simulation::staticEquilibrium): Newton on
//   R(q, lambda) = f(q) - (1 - s) f(q0) - G(q)^T lambda = 0,   Phi(q, t0) = 0
// at rest (v = 0), for load levels s = 1/N ... 1. At s = 0 the assembled start q0 is an
// equilibrium (lambda = 0); at s = 1 the model's own. For a model that starts unloaded (springs
// relaxed, bodies undeformed) f(q0) is the applied load, so s scales the loads (gravity
// included). The Newton matrix [K G^T; G 0] takes K = -df/dq + d(G^T lambda)/dq, the tangent
// and geometric stiffness the implicit integrators use (IterationMatrixBlocks); a level that
// does not converge is approached in halved increments. Each attempt starts from the
// least-squares reactions G^T lambda ~ f - (1 - s) f0 at its start: a mechanism's stiffness is
// the geometric stiffness of its reactions (a pendulum's tension), which zero multipliers lack.
#include "core/integrators/iteration_matrix.h"
#include "core/run/consistency.h"
#include "core/run/sensors.h"
#include "core/run/simulation.h"
#include "core/system/kkt.h"
#include "core/system/system.h"

#include <chrono>
#include <cmath>
#include <sstream>

namespace flexim {

namespace {

std::string num(double x) {
  std::ostringstream s;
  s.precision(4);
  s << x;
  return s.str();
}

/// Newton at one load level from (q, lambda); false with `why` when it does not converge.
struct StaticNewton {
  const System& sys;
  KktMatrix K;
  IterationMatrixBlocks blocks;
  std::vector<BodyKinematics> kin;
  std::vector<ConstraintRows> rows;
  VecX f, Gtl;
  double tolerance = 0;  ///< of the position corrections [m, rad]
  int maxIterations = 30;
  int iterations = 0;
  double residual = 0;  ///< max |R| [N, N m] at the converged point

  KktMatrix metric;  ///< [I G^T; G 0] for the least-squares reactions
  MatX Mb;
  double lengthScale = 1, massScale = 1;

  /// [K + eps M, G^T; G 0] at kin/rows.
  bool factor(const State& st, const VecX& lambda, double eps) {
    K.setZero();
    blocks.assemble(kin, st.t, lambda, 0.0, 1.0, 0.0,
                    [this](int b1, int b2, const MatX& block) { K.addBodyBlock(b1, b2, block); });
    if (eps > 0)
      for (int b = 0; b < sys.nblocks(); ++b) {
        sys.massMatrix(kin, b, Mb);
        K.addBodyBlock(b, b, eps * Mb);
      }
    K.setConstraints(rows);
    return K.factor();
  }

  StaticNewton(const System& s, double tol, int maxIter)
      : sys(s), K(s, true, true), blocks(s), tolerance(tol), maxIterations(maxIter), metric(s, false) {}

  /// lambda = argmin |f - (1 - s) f0 - G^T lambda| at st.
  bool leastSquaresReactions(const State& st, VecX& lambda, const VecX& f0, double level) {
    const int nv = sys.nv(), nc = sys.nc();
    if (nc == 0) return true;
    sys.kinematics(st, kin);
    sys.forces(kin, st.t, f);
    sys.constraints(kin, st.t, rows);
    metric.setZero();
    for (int b = 0; b < sys.nblocks(); ++b) metric.addBodyBlock(b, b, MatX::Identity(sys.block(b).nv(), sys.block(b).nv()));
    metric.setConstraints(rows);
    if (!metric.factor()) return false;
    VecX rhs = VecX::Zero(nv + nc);
    rhs.head(nv) = f - (1 - level) * f0;
    if (!metric.solve(rhs)) return false;
    lambda = rhs.tail(nc);
    return lambda.allFinite();
  }

  bool solve(State& st, VecX& lambda, const VecX& f0, double level, std::string& why) {
    const int nv = sys.nv(), nc = sys.nc();
    const auto& kinds = sys.rowKinds();
    double previous = 0;
    if (!leastSquaresReactions(st, lambda, f0, level)) {
      why = "the least-squares reactions at the start could not be computed (singular constraint Jacobian)";
      return false;
    }
    for (iterations = 0; iterations < maxIterations; ++iterations) {
      sys.kinematics(st, kin);
      sys.forces(kin, st.t, f);
      sys.constraints(kin, st.t, rows);
      VecX rhs(nv + nc);
      Gtl.setZero(nv);
      addConstraintForces(sys, rows, lambda, Gtl);
      rhs.head(nv) = f - (1 - level) * f0 - Gtl;
      double phi = 0;
      for (std::size_t c = 0; c < rows.size(); ++c)
        for (int i = 0; i < rows[c].phi.size(); ++i) {
          const int row = sys.constraintOffsets()[c] + i;
          const bool position = kinds[std::size_t(row)] == RowKind::Equality;
          rhs(nv + row) = position ? -rows[c].phi(i) : 0.0;
          if (position) phi = std::max(phi, std::abs(rows[c].phi(i)));
        }
      residual = rhs.head(nv).lpNorm<Eigen::Infinity>();
      if (!rhs.allFinite()) {
        why = "the forces are not finite";
        return false;
      }
      if (!factor(st, lambda, 0.0)) {
        // a stiffness that vanishes with the reactions (a mechanism far from its equilibrium at a
        // small load): a damped step, K + eps M with eps such that the residual alone would move
        // a body by about a tenth of the model's size; eps falls with the residual, and near
        // the equilibrium the steps are Newton's again
        if (!factor(st, lambda, 10 * residual / (lengthScale * massScale))) {
          why = "singular stiffness matrix: a motion that nothing resists (a free body, a mechanism in neutral "
                "equilibrium) or inconsistent constraints";
          return false;
        }
      }
      if (!K.solve(rhs)) {
        why = "the linear solve failed";
        return false;
      }
      const double step = rhs.head(nv).lpNorm<Eigen::Infinity>();
      sys.retract(st.q, rhs.head(nv));
      lambda += rhs.tail(nc);
      if (step <= tolerance && phi <= tolerance) {
        ++iterations;
        return true;
      }
      if (iterations > 2 && step > 0.9 * previous && previous > 0 && step > 0.01 * lengthScale) {
        why = "Newton does not converge (position correction " + num(step) + " after " + std::to_string(iterations + 1) +
              " iterations)";
        return false;
      }
      previous = step;
    }
    why = "no convergence in " + std::to_string(maxIterations) + " Newton iterations (force residual " + num(residual) +
          ")";
    return false;
  }
};

}  // namespace

std::vector<Channel> Simulation::staticChannels() const {
  Diagnostics ignored;
  SensorSet sensors(*m_system, ignored);
  std::vector<Channel> channels{{"load_factor", "-"}};
  for (const Channel& c : sensors.channels()) channels.push_back(c);
  return channels;
}

RunSummary Simulation::staticEquilibrium(const std::vector<ResultSink*>& sinks, const StaticOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const System& sys = *m_system;
  RunSummary sum;
  sum.integrator = "static equilibrium (Newton with load stepping, tangent and geometric stiffness)";
  sum.settings = "load_steps=" + std::to_string(options.load_steps) + " newton_tol=" + num(m_model.solver.newton_tol);
  bool begun = false;
  State s;
  VecX lambda;
  auto finish = [&](bool ok, std::string message) {
    if (options.equilibrium && s.q.size()) *options.equilibrium = s;
    if (options.multipliers && s.q.size()) *options.multipliers = lambda;
    sum.ok = ok;
    sum.message = std::move(message);
    sum.wall_time = std::chrono::duration<double>(Clock::now() - start).count();
    if (!begun)
      for (auto* k : sinks) k->begin({}, sum);
    for (auto* k : sinks) k->end(sum);
    return sum;
  };
  if (!sys.contacts().empty())
    return finish(false, "static equilibrium does not take contacts yet (" + sys.contacts().front()->label + ")");
  if (sys.hasUnilateralRows())
    return finish(false, "static equilibrium does not take joint limits yet (a model with a limit: run it to rest)");
  if (options.load_steps < 1) return finish(false, "load steps: at least 1");

  // the assembled start, at rest
  Consistency cons(sys);
  s = sys.initialState();
  s.v.setZero();
  double residual = 0;
  std::string error;
  const double L = modelScale(m_model);
  if (!cons.assemblePositions(s, 1e-12 * L, 50, residual, error)) return finish(false, "initial positions: " + error);
  sum.initial_residual = residual;
  s.v.setZero();

  Diagnostics ignored;
  SensorSet sensors(sys, ignored);
  for (auto* k : sinks) k->begin(staticChannels(), sum);
  begun = true;

  std::vector<BodyKinematics> kin;
  VecX f0;
  sys.kinematics(s, kin);
  sys.forces(kin, s.t, f0);
  StaticNewton newton(sys, m_model.solver.newton_tol * L, options.max_iterations);
  newton.lengthScale = L;
  for (int b = 0; b < sys.nblocks(); ++b) {
    sys.massMatrix(kin, b, newton.Mb);
    if (newton.Mb.size() > 0) newton.massScale = std::max(newton.massScale, newton.Mb.diagonal().maxCoeff());
  }
  if (cons.foundRankDeficiency()) {
    newton.K.setRegularization(KktMatrix::Regularization::Always);
    newton.metric.setRegularization(KktMatrix::Regularization::Always);
    sum.notes.push_back("the constraints have dependent rows: their reactions are a least-norm split");
  }
  lambda = VecX::Zero(sys.nc());
  const VecX zero = VecX::Zero(sys.nv());
  Sample sample;
  auto emit = [&](double level) {
    sample.t = s.t;
    sample.values.assign(1, level);
    sensors.evaluate(s, zero, lambda, sample.values);
    fillPoses(s.q, sample);
    for (auto* k : sinks) k->sample(sample);
    ++sum.samples;
  };
  emit(0.0);

  double reached = 0, emitted = 0;
  long iterations = 0;
  for (int k = 1; k <= options.load_steps; ++k) {
    const double target = double(k) / options.load_steps;
    double increment = target - reached;
    while (reached < target * (1 - 1e-14)) {
      if (options.cancel && options.cancel->load()) {
        if (reached > emitted) emit(reached);
        sum.cancelled = true;
        sum.newton_iterations = iterations;
        return finish(false, "cancelled by the user at load " + num(reached));
      }
      const double level = std::min(target, reached + increment);
      State trial = s;
      VecX trialLambda = lambda;
      std::string why;
      const bool ok = newton.solve(trial, trialLambda, f0, level, why);
      iterations += newton.iterations;
      if (options.log)
        options.log("load " + num(level) + ": " + (ok ? "converged" : "failed") + " in " +
                    std::to_string(newton.iterations) + " Newton iterations, force residual " + num(newton.residual) +
                    (ok ? "" : ": " + why));
      if (ok) {
        s = trial;
        lambda = trialLambda;
        reached = level;
        continue;
      }
      increment *= 0.5;
      if (increment < 1e-4 / options.load_steps) {
        if (reached > emitted) emit(reached);
        sum.newton_iterations = iterations;
        sum.steps = k - 1;
        return finish(false, "no equilibrium at load " + num(level) + " (the last converged load " + num(reached) +
                                 " is kept): " + why);
      }
    }
    emit(target);
    emitted = target;
    sum.steps = k;
  }
  sum.newton_iterations = iterations;
  sum.t_reached = s.t;
  return finish(true, "");
}

}  // namespace flexim
