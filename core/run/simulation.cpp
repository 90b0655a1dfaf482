#include "core/run/simulation.h"

#include "core/integrators/integrator.h"
#include "core/model/topology.h"
#include "core/run/consistency.h"
#include "core/run/contact_channels.h"
#include "core/run/quality_monitor.h"
#include "core/run/sensors.h"
#include "core/run/stress_hot_spots.h"
#include "core/system/system.h"

#include <Eigen/SparseCore>
#include <Eigen/SparseQR>
#include <Eigen/OrderingMethods>

#include <chrono>
#include <algorithm>
#include <cstdio>
#include <numbers>
#include <cmath>
#include <sstream>
#include <string>
#include <unordered_map>
#include <thread>

namespace flexim {

std::string RunSummary::str() const {
  std::ostringstream s;
  s << (warning() ? "finished WITH WARNINGS" : ok ? "finished" : cancelled ? "cancelled" : "FAILED") << " at t = "
    << t_reached << " s";
  if (!ok && !message.empty()) s << ": " << message;
  for (const auto& n : notes) s << "\n  note: " << n;
  s << "\n  integrator: " << integrator << " (" << settings << ")"
    << "\n  steps: " << steps << ", Newton iterations: " << newton_iterations << ", rejected steps: " << failures
    << "\n  samples: " << samples << ", max constraint residual at samples: " << max_constraint_residual
    << "\n  initial assembly: constraint residual " << initial_residual << " after Newton";
  for (const auto& line : quality.lines()) s << "\n  quality: " << line;
  for (const auto& w : quality.warnings) s << "\n  WARNING: " << w;
  s << "\n  wall time: " << wall_time << " s";
  if (wall_time > 0 && steps > 0) s << " (" << static_cast<long>(steps / wall_time) << " steps/s)";
  return s.str();
}

std::string ModelCheck::str() const {
  std::ostringstream s;
  s << "bodies: " << bodies << ", coordinates: " << coordinates << ", constraint equations: " << constraint_rows
    << ", independent: " << rank << "\n"
    << "degrees of freedom: " << dof << "\n";
  if (!redundant.empty()) s << "note: " << redundancyNote(redundant) << "\n";
  for (const auto& u : unconstrained) s << "not connected to ground by any joint, force element or contact (free-floating): body '" << u << "'\n";
  s << "initial constraint residual: " << initial_position_residual
    << ", after assembly: " << assembled_position_residual << " (velocity: " << assembled_velocity_residual << ")";
  return s.str();
}

Simulation::Simulation(const ModelSpec& model) : m_model(model) {}

namespace {
/// Unilateral rows closed at the start: those that touch or penetrate.
std::vector<char> initialActiveRows(const System& sys, const State& s) {
  std::vector<BodyKinematics> kin;
  std::vector<ConstraintRows> rows;
  sys.kinematics(s, kin);
  sys.constraints(kin, s.t, rows);
  return contactActiveRows(sys, rows, 1e-9);
}
}  // namespace
Simulation::~Simulation() = default;

const BodyTable& Simulation::bodies() const { return m_system->bodyTable(); }

void Simulation::fillPoses(const VecX& q, Sample& sample) const {
  // the poses of the body table's bodies (body p is block p), not of joint coordinates
  const System& sys = *m_system;
  const BodyTable& bodies = sys.bodyTable();
  sample.poses.resize(std::size_t(bodies.size()));
  for (int p = 0; p < bodies.size(); ++p)
    sys.bodyPose(q, p, sample.poses[std::size_t(p)].position, sample.poses[std::size_t(p)].orientation);
  sample.modal.resize(bodies.deformable().size());
  for (std::size_t i = 0; i < sample.modal.size(); ++i) {
    const Block& B = sys.block(bodies.deformable()[i]);
    const int m = B.formulation->deformationCoordinates();
    sample.modal[i] = q.segment(B.q0 + B.nq() - m, m);
  }
}

Sample Simulation::displacedSample(const State& s, const VecX& dx) const {
  Sample sample;
  sample.t = s.t;
  VecX q = s.q;
  if (dx.size() == m_system->nv()) m_system->retract(q, dx);
  fillPoses(q, sample);
  return sample;
}

namespace {
std::string timeText(double t) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", t);
  return text;
}

}  // namespace

double modelScale(const ModelSpec& m) {
  double L = 1.0;
  for (const auto& b : m.bodies) {
    L = std::max(L, b.position.norm());
    for (const auto& mk : b.markers) L = std::max(L, mk.position.norm());
  }
  for (const auto& f : m.flexible_bodies) L = std::max(L, f.position.norm());
  return L;
}

std::unique_ptr<Simulation> Simulation::create(const ModelSpec& model, Diagnostics& diag) {
  std::unique_ptr<Simulation> sim(new Simulation(model));
  sim->m_system = System::compile(model, diag);  // validates the model (solver settings included)
  if (!sim->m_system) return nullptr;
  sim->m_channels = SensorSet(*sim->m_system, diag).channels();
  for (Channel& c : contactChannels(*sim->m_system)) sim->m_channels.push_back(std::move(c));
  if (diag.hasErrors()) return nullptr;
  return sim;
}

namespace {
struct ConstraintRank {
  int rows = 0;                        ///< active rows
  int rank = 0;
  std::vector<std::string> dependent;  ///< "joint 'x' (n dependent row(s))" per element
  std::vector<RedundantConstraint> elements;  ///< the same elements, with their model paths
  std::vector<char> dependentRow;      ///< per constraint row: left out of an independent set
};

/// Rank of G (columns of G^T, active rows only) at a state, by sparse QR; the dependent columns
/// name the elements with redundant rows.
ConstraintRank constraintRank(const System& sys, const State& s, const std::vector<char>& active) {
  ConstraintRank out;
  std::vector<int> column(sys.nc(), -1), rowOf;
  for (int i = 0; i < sys.nc(); ++i)
    if (active[i]) {
      column[i] = static_cast<int>(rowOf.size());
      rowOf.push_back(i);
    }
  const int nActive = static_cast<int>(rowOf.size());
  out.rows = out.rank = nActive;
  out.dependentRow.assign(sys.nc(), 0);
  if (nActive == 0) return out;
  std::vector<BodyKinematics> kin;
  std::vector<ConstraintRows> rows;
  sys.kinematics(s, kin);
  sys.constraints(kin, s.t, rows);
  std::vector<Eigen::Triplet<double>> trip;
  const auto& elems = sys.constraints();
  for (size_t c = 0; c < elems.size(); ++c) {
    const int off = sys.constraintOffsets()[c];
    for (size_t k = 0; k < elems[c]->blocks.size(); ++k) {
      const int b = elems[c]->blocks[k];
      const MatX& G = rows[c].G[k];
      if (b < 0) continue;
      for (int i = 0; i < G.rows(); ++i)
        for (int j = 0; j < G.cols(); ++j)
          if (G(i, j) != 0 && column[off + i] >= 0) trip.emplace_back(sys.block(b).v0 + j, column[off + i], G(i, j));
    }
  }
  Eigen::SparseMatrix<double> Gt(sys.nv(), nActive);
  Gt.setFromTriplets(trip.begin(), trip.end());
  Gt.makeCompressed();
  Eigen::SparseQR<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> qr;
  qr.setPivotThreshold(1e-9);
  qr.compute(Gt);
  out.rank = qr.info() == Eigen::Success ? static_cast<int>(qr.rank()) : nActive;
  if (out.rank < nActive) {
    std::vector<int> rowOwner(sys.nc());
    for (size_t c = 0; c < elems.size(); ++c)
      for (int i = 0; i < elems[c]->rows(); ++i) rowOwner[sys.constraintOffsets()[c] + i] = static_cast<int>(c);
    std::vector<int> count(elems.size(), 0);
    const auto& perm = qr.colsPermutation().indices();
    for (int k = out.rank; k < nActive; ++k) {
      ++count[rowOwner[rowOf[perm(k)]]];
      out.dependentRow[rowOf[perm(k)]] = 1;
    }
    for (size_t c = 0; c < elems.size(); ++c)
      if (count[c]) {
        out.dependent.push_back(elems[c]->label + " (" + std::to_string(count[c]) + " dependent row(s))");
        out.elements.push_back({elems[c]->label, elems[c]->where, count[c]});
      }
  }
  return out;
}
}  // namespace

std::string redundancyNote(const std::vector<std::string>& dependent) {
  if (dependent.empty()) return {};
  std::string s = "redundant constraints, solved as they are: ";
  for (size_t i = 0; i < dependent.size(); ++i) s += (i ? ", " : "") + dependent[i];
  return s + ". Their reactions are not unique: the reported ones are the split of least weighted norm "
             "(docs/theory/redundant-constraints.md)";
}

namespace {

/// A hint when IDA's mean step is a small part of the period of a flexible body's highest mode
/// and nothing damps that mode: undamped high modes often hold BDF's step that small (their
/// eigenvalues sit on the imaginary axis, where BDF of order above 2 is not stable). Empty
/// when the run does not look like that.
std::string stiffModeNote(const ModelSpec& model, const RunSummary& sum) {
  constexpr long kFewSteps = 2000;        // a short run says nothing about its step size
  constexpr double kStepsPerPeriod = 5;   // steps within one period of the highest mode
  if (sum.steps < kFewSteps || !(sum.t_reached > 0)) return {};
  const double step = sum.t_reached / double(sum.steps);
  const FlexibleBodySpec* stiffest = nullptr;
  int mode = 0;
  double period = 0;
  for (const FlexibleBodySpec& f : model.flexible_bodies) {
    if (!f.data || f.data->eigenvalues.size() == 0) continue;
    const DampingSpec& d = f.damping;
    if (d.alpha > 0 || d.beta > 0 || (!d.ratio.empty() && d.ratio.back() > 0)) continue;
    const int used = int(std::min<Eigen::Index>(f.mode_count > 0 ? f.mode_count : f.data->eigenvalues.size(),
                                                f.data->eigenvalues.size()));
    const double lambda = f.data->eigenvalues(used - 1);
    if (!(lambda > 0)) continue;
    const double T = 2 * std::numbers::pi / std::sqrt(lambda);
    if (step * kStepsPerPeriod <= T && (!stiffest || T < period)) {
      stiffest = &f;
      mode = used;
      period = T;
    }
  }
  if (!stiffest) return {};
  char text[512];
  std::snprintf(text, sizeof text,
                "IDA took %ld steps, %.3g s on average, %.0f in each period of mode %d of '%s' (%.4g Hz), which "
                "nothing damps: undamped high modes often hold the step this small. If they do not matter here, "
                "give the body modal damping (damping.ratio) or run gen-alpha with rho_inf < 1, which damps them",
                sum.steps, step, period / step, mode, stiffest->name.c_str(), 1 / period);
  return text;
}

}  // namespace

ModelCheck Simulation::check() const {
  const System& sys = *m_system;
  ModelCheck mc;
  for (const Block& B : sys.blocks()) mc.bodies += B.hasFrame();
  mc.coordinates = sys.nv();
  mc.constraint_rows = sys.nc();
  mc.virtual_body_nodes = sys.virtualBodyNodes();

  State s = sys.initialState();
  Consistency cons(sys);
  // open unilateral rows (stops not in contact) are not constraints of the initial configuration
  const std::vector<char> active = initialActiveRows(sys, s);
  cons.setActiveRows(active);
  double vres = 0;
  cons.residuals(s, mc.initial_position_residual, vres);
  std::string err;
  cons.assemblePositions(s, 1e-12 * modelScale(m_model), 50, mc.assembled_position_residual, err);
  cons.projectVelocities(s, vres, true);
  cons.residuals(s, mc.assembled_position_residual, mc.assembled_velocity_residual);

  const ConstraintRank cr = constraintRank(sys, s, active);
  mc.constraint_rows = cr.rows;
  mc.rank = cr.rank;
  mc.redundant = cr.dependent;
  mc.redundant_elements = cr.elements;
  mc.dof = mc.coordinates - mc.rank;

  // bodies without a path to ground; the topology's vertices 1.. are the body table's bodies
  const Topology topology = buildTopology(m_model);
  // a body that springs or bushings hold does not float free
  for (int v : heldByForces(topology, m_model).notConnectedToGround())
    mc.unconstrained.push_back(topology.vertices()[v].name);
  return mc;
}

State Simulation::initialState() const { return m_system->initialState(); }

bool Simulation::mapState(const Simulation& from, const State& state, State& out, std::string& why) const {
  // a body's block is known by its item path (a renamed body keeps its state), any other block
  // (a joint's coordinate) by its name
  const auto keys = [](const System& sys) {
    std::unordered_map<std::string, int> key;
    for (int b = 0; b < sys.nblocks(); ++b)
      key.emplace(b < sys.bodyTable().size() ? sys.bodyTable()[b].path : sys.block(b).name, b);
    return key;
  };
  const auto said = [](const System& sys, int b) {
    return b < sys.bodyTable().size() ? sys.bodyTable()[b].kind->noun + " '" + sys.bodyTable()[b].name + "'"
                                      : sys.block(b).name;
  };
  const System& old = *from.m_system;
  const System& now = *m_system;
  const auto before = keys(old), after = keys(now);
  for (const auto& [key, b] : before)
    if (!after.count(key)) {
      why = said(old, b) + " is gone";
      return false;
    }
  out.t = state.t;
  out.q.resize(now.nq());
  out.v.resize(now.nv());
  for (int b = 0; b < now.nblocks(); ++b) {
    const std::string key = b < now.bodyTable().size() ? now.bodyTable()[b].path : now.block(b).name;
    const auto it = before.find(key);
    if (it == before.end()) {
      why = said(now, b) + " is new";
      return false;
    }
    const Block& B = now.block(b);
    const Block& A = old.block(it->second);
    if (A.nq() != B.nq() || A.nv() != B.nv()) {
      why = said(now, b) + " has " + std::to_string(B.nv()) + " coordinates now, " + std::to_string(A.nv()) + " before";
      return false;
    }
    out.q.segment(B.q0, B.nq()) = state.q.segment(A.q0, A.nq());
    out.v.segment(B.v0, B.nv()) = state.v.segment(A.v0, A.nv());
  }
  return true;
}

std::string Simulation::redundancyHint() const {
  const ModelCheck c = check();
  if (c.redundant.empty()) return " (constraint Jacobian is rank-deficient at the initial configuration)";
  std::string s = "; redundant constraints: ";
  for (size_t i = 0; i < c.redundant.size(); ++i) s += (i ? ", " : "") + c.redundant[i];
  return s;
}

RunSummary Simulation::run(const std::vector<ResultSink*>& sinks, const RunOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  double pausedSeconds = 0.0;
  const System& sys = *m_system;
  const SolverSpec& spec = m_model.solver;
  RunSummary sum;
  std::unique_ptr<Integrator> integ;
  std::unique_ptr<QualityMonitor> monitor;
  StressHotSpots hotSpots(sys);
  bool begun = false;
  auto finish = [&](bool ok, std::string message) {
    sum.ok = ok;
    sum.message = std::move(message);
    if (integ && options.stoppedAt && begun) integ->currentState(*options.stoppedAt);
    if (integ) {
      const IntegratorStats st = integ->stats();
      sum.steps = st.steps;
      sum.newton_iterations = st.newton_iterations;
      sum.failures = st.failures;
      if (monitor) sum.quality = monitor->finish(st.steps, st.failures, ok);
      for (std::string& note : integ->notes()) sum.notes.push_back(std::move(note));
      if (spec.integrator == IntegratorType::Ida)
        if (std::string note = stiffModeNote(m_model, sum); !note.empty()) sum.notes.push_back(std::move(note));
    }
    for (std::string& note : hotSpots.notes()) sum.notes.push_back(std::move(note));
    sum.wall_time = std::chrono::duration<double>(Clock::now() - start).count() - pausedSeconds;
    if (!begun)
      for (auto* k : sinks) k->begin({}, sum);
    for (auto* k : sinks) k->end(sum);
    return sum;
  };

  try {
    integ = makeIntegrator(sys, spec);
    sum.integrator = integ->name();
    sum.settings = integ->settings();

    // consistent initial conditions
    Consistency cons(sys);
    const double posTol = 1e-12 * modelScale(m_model);
    State s = options.resume ? *options.resume : sys.initialState();
    if (options.resume) sum.notes.push_back("continued at t=" + timeText(s.t) + " s from the state of a paused run, with the edited model");
    if (!options.resume && spec.start == RunStart::StaticEquilibrium) {
      StaticOptions statics;
      statics.equilibrium = &s;
      statics.cancel = options.cancel;
      const RunSummary equilibrium = staticEquilibrium({}, statics);
      if (!equilibrium.ok) {
        sum.cancelled = equilibrium.cancelled;
        return finish(false, "the static equilibrium to start from: " + equilibrium.message);
      }
      sum.notes.push_back("started at rest from the static equilibrium (" + std::to_string(statics.load_steps) +
                          " load levels, " + std::to_string(equilibrium.newton_iterations) + " Newton iterations)");
    }
    if (sys.hasUnilateralRows()) cons.setActiveRows(initialActiveRows(sys, s));
    double residual = 0, vres = 0;
    std::string error;
    if (!cons.assemblePositions(s, posTol, 50, residual, error)) return finish(false, "initial conditions: " + error);
    // flexible bodies start with the modal rates they were given (rigid-body-consistent velocities)
    if (!cons.projectVelocities(s, vres, true))
      return finish(false, "initial conditions: velocity projection failed" + redundancyHint());
    sum.initial_residual = residual;
    // dependent rows: every KKT matrix is regularised from the start (a plain factorisation
    // could pass on round-off and return multipliers of no meaning)
    // the sparse QR costs seconds on a 1000-body chain: only when the assembly's factorisations
    // already met a rank-deficient Jacobian
    const ConstraintRank rank = cons.foundRankDeficiency() ? constraintRank(sys, s, cons.activeRows()) : ConstraintRank{};
    VecX vdot, lambda;
    if (!rank.dependent.empty()) {
      cons.setRegularization(KktMatrix::Regularization::Always);
      integ->setDependentRows(rank.dependentRow);
      sum.notes.push_back(redundancyNote(rank.dependent));
      // the integrator starts from multipliers on an independent row set (the dependent rows'
      // ones zero: IDA drops those rows); the outputs report the least-norm split
      const std::vector<char> all = cons.activeRows();
      std::vector<char> independent = all;
      for (int i = 0; i < sys.nc(); ++i)
        if (rank.dependentRow[i]) independent[i] = 0;
      cons.setActiveRows(independent);
      const bool ok = cons.accelerations(s, vdot, lambda);
      cons.setActiveRows(all);
      if (!ok) return finish(false, "initial conditions: singular KKT matrix" + redundancyHint());
    } else if (!cons.accelerations(s, vdot, lambda)) {
      return finish(false, "initial conditions: singular KKT matrix" + redundancyHint());
    }
    // states handed from one method to another are put onto the constraints like the initial one
    auto handover = std::make_shared<Consistency>(sys);
    if (!rank.dependent.empty()) handover->setRegularization(KktMatrix::Regularization::Always);
    integ->setConsistentState([handover, posTol](State& st, VecX& a, VecX& l, std::string& e) {
      double r = 0, vr = 0;
      if (!handover->assemblePositions(st, posTol, 20, r, e)) return false;
      if (handover->projectVelocities(st, vr) && handover->accelerations(st, a, l)) return true;
      e = "velocity projection or accelerations failed";
      return false;
    });
    if (!integ->initialize(s, vdot, lambda, error)) return finish(false, error);
    // quality: residuals, step sizes and the energy balance at every accepted step
    monitor = std::make_unique<QualityMonitor>(sys, spec, modelScale(m_model), integ->contactWork() != nullptr);
    monitor->start(s, integ->activeRows());

    Diagnostics ignored;
    SensorSet sensors(sys, ignored);
    std::vector<Channel> channels = sensors.channels();
    for (Channel& c : contactChannels(sys)) channels.push_back(std::move(c));
    for (auto* k : sinks) k->begin(channels, sum);
    begun = true;

    Sample sample;
    auto emit = [&](State st) -> bool {
      if (const auto* active = integ->activeRows()) cons.setActiveRows(*active);
      double pres = 0, vr = 0;
      cons.residuals(st, pres, vr);
      sum.max_constraint_residual = std::max(sum.max_constraint_residual, pres);
      // a scheme with contacts gives its own accelerations and multipliers (the consistency
      // solver knows no contact forces and would project an impact's velocity jump away)
      if (!integ->sampleDynamics(st.t, vdot, lambda)) {
        std::string e;
        double r = 0;
        if (pres > posTol && !cons.assemblePositions(st, posTol, 20, r, e)) return false;
        if (!cons.projectVelocities(st, vr) || !cons.accelerations(st, vdot, lambda)) return false;
      }
      sample.t = st.t;
      sample.values.clear();
      sensors.evaluate(st, vdot, lambda, sample.values);
      appendContactValues(sys, integ->contactValues(), sample.values);
      fillPoses(st.q, sample);
      hotSpots.sample(st.t, sample.modal);
      for (auto* k : sinks) k->sample(sample);
      ++sum.samples;
      sum.t_reached = st.t;
      return true;
    };

    const double tEnd = spec.t_end, dtOut = spec.output_interval;
    const long nOut = static_cast<long>(std::floor(tEnd / dtOut * (1 + 1e-12)));
    auto outTime = [&](long k) { return k > nOut ? tEnd : std::min(k * dtOut, tEnd); };
    long k = 1;
    if (options.resume) {
      // its samples up to now were the paused run's: go on with the next output time
      while (k <= nOut && outTime(k) <= s.t * (1 + 1e-13) + 1e-15) ++k;
    } else if (!emit(s)) {
      return finish(false, "could not evaluate the sensors at t=0");
    }
    const bool endExtra = nOut * dtOut < tEnd * (1 - 1e-12);
    const long kLast = endExtra ? nOut + 1 : nOut;
    State st;
    long stepsSinceProgress = 0;
    const auto cancelled = [&] { return options.cancel && options.cancel->load(); };
    while (k <= kLast) {
      if (options.pause && options.pause->load()) {
        const auto pausedAt = Clock::now();
        while (options.pause->load() && !cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        pausedSeconds += std::chrono::duration<double>(Clock::now() - pausedAt).count();
      }
      if (cancelled()) {
        sum.cancelled = true;
        return finish(false, "cancelled by the user");
      }
      if (!integ->step(tEnd, error)) return finish(false, error);
      if (options.steps) options.steps->fetch_add(1, std::memory_order_relaxed);
      const double tNow = integ->time();
      integ->currentState(st);
      monitor->step(st, integ->previousTime(), integ->activeRows(), integ->currentMultipliers(),
                    integ->schemeMultipliers(), integ->currentRows(), integ->contactWork());
      while (k <= kLast && outTime(k) <= tNow * (1 + 1e-13) + 1e-15) {
        integ->interpolate(outTime(k), st);
        if (!emit(st)) return finish(false, "output at t=" + std::to_string(outTime(k)) + " failed");
        ++k;
      }
      if (!monitor->stopReason().empty()) {  // a runaway: the results so far, with a warning
        if (k == 0 || outTime(k - 1) < tNow * (1 - 1e-13)) {  // its last state, unless just written
          integ->interpolate(tNow, st);
          if (!emit(st)) return finish(false, "final output failed");
        }
        std::ostringstream why;
        why << "stopped at t = " << tNow << " s: a stiffened body's energy runs away (the warning says more)";
        return finish(true, why.str());
      }
      if (options.progress && ++stepsSinceProgress >= 50) {
        options.progress(tNow, tEnd);
        stepsSinceProgress = 0;
      }
      if (tNow >= tEnd * (1 - 1e-14) && k <= kLast) {  // guard against a final sample lost to rounding
        integ->interpolate(tNow, st);
        if (!emit(st)) return finish(false, "final output failed");
        break;
      }
    }
    if (options.progress) options.progress(tEnd, tEnd);
    return finish(true, {});
  } catch (const std::exception& e) {
    return finish(false, std::string("internal error: ") + e.what());
  }
}

}  // namespace flexim
