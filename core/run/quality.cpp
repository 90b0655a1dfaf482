#include "core/run/quality_monitor.h"

#include "core/system/kkt.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace flexim {

namespace {

std::string num(double x, int precision = 3) {
  std::ostringstream s;
  s.precision(precision);
  s << x;
  return s.str();
}

std::string percent(double share) {
  std::ostringstream s;
  s.precision(share < 0.01 && share > 0 ? 2 : 3);
  s << 100 * share << " %";
  return s.str();
}

}  // namespace

std::vector<std::string> RunQuality::lines() const {
  std::vector<std::string> out;
  if (!measured) return {"no step was taken: nothing measured"};
  out.push_back("constraint residuals at the steps: position " + num(position_residual) + " (tolerance " +
                num(position_tolerance) + "), velocity " + num(velocity_residual) + " (tolerance " +
                num(velocity_tolerance) + ")");
  const long attempts = steps + rejected;
  out.push_back("steps: " + std::to_string(steps) + " accepted, " + std::to_string(rejected) + " rejected (" +
                percent(attempts ? double(rejected) / attempts : 0.0) + " of the attempts, limit " +
                percent(quality::kRejectedShare) + "), " + std::to_string(halvings) + " halvings, smallest step " +
                num(smallest_step) + " s");
  std::string e = "energy: E(0) = " + num(energy_initial, 6) + " J, E(end) = " + num(energy_final, 6) + " J";
  if (energy_known) {
    e += ", work of drivers " + num(work_drivers, 4) + " J";
    if (work_drivers != 0 && drivers_exact_steps < steps)
      e += " (exact multipliers at " + std::to_string(drivers_exact_steps) + " of the steps, corrected between: error " +
           "estimated at " + num(work_drivers_error, 2) + " J)";
    e += ", dampers " + num(work_dampers, 4) + " J, loads " + num(work_loads, 4) + " J";
    if (work_stiffening != 0) e += ", geometric stiffening " + num(work_stiffening, 4) + " J";
    if (work_contacts != 0) e += ", contacts " + num(work_contacts, 4) + " J";
    e += "; balance error max |E - E(0) - W| = " + num(energy_error) + " J = " +
         num(energy_scale > 0 ? energy_error / energy_scale : 0.0) + " of the energy scale " + num(energy_scale) +
         " J";
    const char* why = energy_check == "conservative" ? ": nothing does work on the model)"
                      : energy_check == "loaded"     ? ": no driver does work on the model)"
                                                     : ": drivers do work on the model, their work from their multipliers)";
    e += energy_checked ? " (limit " + num(energy_limit) + why : " (not checked: " + energy_note + ")";
  } else {
    e += "; balance not known: " + energy_note;
  }
  out.push_back(e);
  return out;
}

struct QualityMonitor::Point {
  double t = 0;
  double T = 0, V = 0;
  double gravity = 0;  ///< the part of V that is gravity's [J]
  double drivers = 0, dampers = 0, loads = 0, stiffening = 0;  ///< powers [W]
  double E() const { return T + V; }
};

struct QualityMonitor::Impl {
  std::unique_ptr<KktMatrix> kkt;  ///< [M G^T; G 0] for the drivers' multipliers (made when needed)
  MatX M;
  VecX f, x;
  std::vector<BodyKinematics> kin;
  std::vector<ConstraintRows> rows;
  const std::vector<ConstraintRows>* use = &rows;  ///< the rows at the last state: these or the integrator's
  VecX vel, lambda;
  double t = 0;  ///< of the evaluated kinematics
  std::vector<char> allRows;
  Point first, prev;
  bool started = false;
  // constraints
  double posRes = 0, velRes = 0, vmax = 0;
  int posWorst = -1, velWorst = -1;  ///< constraint elements with the largest residuals
  // energy
  bool known = true, worked = false, driven = false;
  std::string note;
  double Tmax = 0, Vmin = std::numeric_limits<double>::infinity(), Vmax = -Vmin;
  double Wdrivers = 0, Wdampers = 0, Wloads = 0, Wstiffening = 0, Wabs = 0, err = 0;
  double Wcontacts = 0;  ///< of the contacts and joint limits, from the integrator
  // what was put into the model from outside, for the runaway check: range of the gravity
  // potential, work of drivers, loads and dampers either way
  double Gmin = std::numeric_limits<double>::infinity(), Gmax = -Gmin, WabsOutside = 0;
  std::vector<double> stiffeningPower, stiffeningWork;  ///< per block: now [W], so far [J]
  std::string stop;  ///< why the run should stop now (a runaway); empty while it may go on
  // steps
  struct StepSizes {
    long halvings = 0;
    double last = 0, smallest = std::numeric_limits<double>::infinity();
    void add(double h) {
      if (last > 0 && h < last) halvings += static_cast<long>(std::floor(std::log2(last / h) + 1e-9));
      last = h;
      smallest = std::min(smallest, h);
    }
  } sizes;
  long accepted = 0;
  double hPending = 0;  ///< the newest step, added when the next one comes
  /// The correction of an integrator's biased multipliers (step with schemeLambda): the
  /// drivers' power difference d = P(exact) - P(scheme), solved for every `stride` steps and
  /// extrapolated linearly from the last two solutions in between.
  struct Correction {
    int stride = 1, since = 0, points = 0;
    double t1 = 0, d1 = 0, t2 = 0, d2 = 0;  ///< the last two solved differences (t2 newest)
    double h = 0;                           ///< step size of the last solution
    double powerScale = 0;                  ///< largest exact drivers' power seen [W]
    double workError = 0;                   ///< estimated error in the drivers' work [J]
    long exact = 0;                         ///< steps with exact multipliers
    std::vector<char> active;
    double predict(double t) const {
      return points > 1 ? d2 + (t - t2) * (d2 - d1) / (t2 - t1) : d2;
    }
  } correction;
};

QualityMonitor::QualityMonitor(const System& sys, const SolverSpec& spec, double lengthScale, bool contactWork)
    : m_sys(sys), m_spec(spec), m_L(lengthScale), m(std::make_unique<Impl>()) {
  m->allRows.assign(sys.nc(), 1);
  if (contactWork) return;
  if (!sys.contacts().empty()) {
    m->note = sys.contacts().front()->label + " is a contact: impacts and friction lose energy that no power "
              "accounts for";
    m->known = false;
  }
  // contacts (joint limits) lose energy in impacts, velocity jumps that no power accounts for
  for (int r = 0; r < sys.nc() && m->known; ++r)
    if (sys.rowKinds()[r] == RowKind::Unilateral) {
      for (size_t c = 0; c < sys.constraints().size(); ++c)
        if (r >= sys.constraintOffsets()[c] && r < sys.constraintOffsets()[c] + sys.constraints()[c]->rows())
          m->note = sys.constraints()[c]->label + " has contact rows: impacts lose energy in velocity jumps, "
                    "which no power accounts for";
      m->known = false;
    }
}

QualityMonitor::~QualityMonitor() = default;

bool QualityMonitor::evaluate(const State& s, double h, const std::vector<char>* activeRows, const VecX* lambda,
                              const VecX* schemeLambda, const std::vector<ConstraintRows>* rowsAtState, Point& p) {
  Impl& I = *m;
  const std::vector<char>& active = activeRows ? *activeRows : I.allRows;
  p.t = I.t = s.t;
  m_sys.kinematics(s, I.kin);
  if (rowsAtState) {
    I.use = rowsAtState;
  } else {
    m_sys.constraints(I.kin, s.t, I.rows);
    I.use = &I.rows;
  }
  const std::vector<ConstraintRows>& rows = *I.use;
  // residuals of the rows in force; a velocity-level row has no position residual
  bool rheonomic = false;
  const auto& kinds = m_sys.rowKinds();
  for (size_t c = 0; c < rows.size(); ++c) {
    const int off = m_sys.constraintOffsets()[c], n = m_sys.constraints()[c]->rows();
    if (I.vel.size() < n) I.vel.resize(n);
    constraintVelocity(m_sys, static_cast<int>(c), rows[c], s.v, I.vel.head(n));
    for (int i = 0; i < n; ++i) {
      if (!active[off + i]) continue;
      const double pr = kinds[off + i] == RowKind::VelocityLevel ? 0.0 : std::abs(rows[c].phi(i));
      const double vr = std::abs(I.vel(i));
      if (pr > I.posRes) I.posRes = pr, I.posWorst = static_cast<int>(c);
      if (vr > I.velRes) I.velRes = vr, I.velWorst = static_cast<int>(c);
      rheonomic = rheonomic || rows[c].phit(i) != 0;
    }
  }
  // speed scale: of the bodies' frames (|r_dot|, L |omega|); modal rates have other units
  for (int b = 0; b < m_sys.nblocks(); ++b)
    if (m_sys.block(b).hasFrame()) {
      const BodyKinematics& K = I.kin[b + 1];
      I.vmax = std::max({I.vmax, K.rdot.lpNorm<Eigen::Infinity>(), m_L * K.omega.lpNorm<Eigen::Infinity>()});
    }
  p.T = m_sys.kineticEnergy(I.kin);
  const System::PotentialParts V = m_sys.potentialParts(I.kin);
  p.V = V.gravity + V.spring + V.strain;
  p.gravity = V.gravity;
  if (!I.known) return true;
  I.stiffeningPower.assign(static_cast<size_t>(m_sys.nblocks()), 0.0);
  // powers of what the energies do not hold: damping of the formulations, force elements, drivers
  for (int b = 0; b < m_sys.nblocks() && I.known; ++b) {
    const Formulation& f = *m_sys.block(b).formulation;
    const double P = f.dampingPower(I.kin[b + 1]), S = f.stiffeningPower(I.kin[b + 1]);
    if (!std::isfinite(P) || !std::isfinite(S)) {
      I.known = false;
      I.note = "the formulation of '" + m_sys.block(b).name + "' does not give its damping power";
    }
    p.dampers += P;
    p.stiffening += S;
    I.stiffeningPower[static_cast<size_t>(b)] = S;
  }
  for (const auto& e : m_sys.forces()) {
    if (!I.known) break;
    double damping = 0, applied = 0;
    if (!e->power(m_sys, I.kin, s.t, damping, applied) || !std::isfinite(damping) || !std::isfinite(applied)) {
      I.known = false;
      I.note = e->label + " does not give the power of its forces";
    }
    p.dampers += damping;
    p.loads += applied;
  }
  if (I.known && rheonomic) {
    // rheonomic rows (drivers) work at lambda . Phi_t: the constraint forces -G^T lambda on
    // velocities with G v + Phi_t = 0
    bool solved = true;
    if (lambda) p.drivers = driversPower(*lambda, active);
    else if (schemeLambda) solved = correctedDriversPower(h, active, *schemeLambda, p.drivers);
    else if ((solved = multipliers(active))) p.drivers = driversPower(I.lambda, active);
    if (!solved) {
      I.known = false;
      I.note = "the drivers' multipliers could not be computed (singular KKT matrix) at t = " + num(s.t);
    }
  }
  if (p.drivers != 0 || p.dampers != 0 || p.loads != 0 || p.stiffening != 0) I.worked = true;
  if (p.drivers != 0) I.driven = true;
  return I.known;
}

bool QualityMonitor::multipliers(const std::vector<char>& active) {
  // [M G^T; G 0] [v_dot; lambda] = [f; -Gamma] at the evaluated kinematics and rows (one
  // numeric factorisation per step; the symbolic analysis is kept)
  Impl& I = *m;
  const int nv = m_sys.nv(), nc = m_sys.nc();
  if (!I.kkt) I.kkt = std::make_unique<KktMatrix>(m_sys, false);
  KktMatrix& K = *I.kkt;
  if (I.use != &I.rows) {  // the integrator's rows: their gamma may be at other velocities
    m_sys.constraints(I.kin, I.t, I.rows);
    I.use = &I.rows;
  }
  K.setActiveRows(active);
  K.setZero();
  for (int b = 0; b < m_sys.nblocks(); ++b) {
    m_sys.massMatrix(I.kin, b, I.M);
    K.addBodyBlock(b, b, I.M);
  }
  K.setConstraints(I.rows);
  if (!K.factor()) return false;
  m_sys.forces(I.kin, I.t, I.f);
  I.x.resize(nv + nc);
  I.x.head(nv) = I.f;
  for (size_t c = 0; c < I.rows.size(); ++c)
    I.x.segment(nv + m_sys.constraintOffsets()[c], I.rows[c].gamma.size()) = -I.rows[c].gamma;
  for (int i = 0; i < nc; ++i)
    if (!active[i]) I.x(nv + i) = 0;
  if (!K.solve(I.x)) return false;
  I.lambda = I.x.tail(nc);
  return I.lambda.allFinite();
}

double QualityMonitor::driversPower(const VecX& lambda, const std::vector<char>& active) const {
  double P = 0;
  const std::vector<ConstraintRows>& rows = *m->use;
  for (size_t c = 0; c < rows.size(); ++c) {
    const int off = m_sys.constraintOffsets()[c];
    for (int i = 0; i < rows[c].phit.size(); ++i)
      if (active[off + i]) P += lambda(off + i) * rows[c].phit(i);
  }
  return P;
}

namespace {
/// The corrected drivers' power is held to this fraction of the largest drivers' power: the
/// extrapolation's error, measured at each exact solution, must stay below it, so that the
/// drivers' work is off by less than this fraction of the work exchanged (the balance's limit
/// is 1e-3 of it).
constexpr double kCorrectionTolerance = 1e-6;
/// At most this many steps between exact solutions.
constexpr int kMaxCorrectionStride = 16;
}  // namespace

bool QualityMonitor::correctedDriversPower(double h, const std::vector<char>& active, const VecX& schemeLambda,
                                           double& power) {
  // The scheme's multipliers differ from the exact ones by a numerical-damping bias that is
  // smooth in time once the scheme's period-2 oscillation has died out (generalized-alpha: a
  // few tens of steps with rho_inf = 0.8). So the exact multipliers, a KKT factorisation each,
  // are solved for only every `stride` steps, and the power difference is extrapolated in
  // between. The extrapolation's error, measured at each solution, sets the stride: it halves
  // when the error passes the tolerance, doubles when well below. A new active set or step size
  // (the bias is proportional to h) starts over at every step.
  Impl::Correction& C = m->correction;
  const double scheme = driversPower(schemeLambda, active);
  const bool restart = C.points == 0 || active != C.active || std::abs(h - C.h) > 1e-9 * h;
  if (!restart && ++C.since < C.stride) {
    power = scheme + C.predict(m->t);
    return true;
  }
  if (!multipliers(active)) return false;
  power = driversPower(m->lambda, active);
  const double d = power - scheme;
  C.powerScale = std::max(C.powerScale, std::abs(power));
  if (restart) {
    C.points = 0;
    C.stride = 1;
    C.active = active;
    C.h = h;
  } else {
    // the steps since the last solution used the prediction, whose error grew to |error| here
    const double error = std::abs(d - C.predict(m->t)), tolerance = kCorrectionTolerance * C.powerScale;
    if (C.stride > 1) C.workError += error * (m->t - C.t2);
    if (error > tolerance) C.stride = std::max(1, C.stride / 2);
    else if (error < 0.25 * tolerance) C.stride = std::min(kMaxCorrectionStride, 2 * C.stride);
  }
  C.t1 = C.t2;
  C.d1 = C.d2;
  C.t2 = m->t;
  C.d2 = d;
  ++C.points;
  C.since = 0;
  ++C.exact;
  return true;
}

void QualityMonitor::start(const State& s, const std::vector<char>* active) {
  Impl& I = *m;
  Point p;
  evaluate(s, 0.0, active, nullptr, nullptr, nullptr, p);
  I.first = I.prev = p;
  I.started = true;
  I.Tmax = p.T;
  I.Vmin = I.Vmax = p.V;
  I.Gmin = I.Gmax = p.gravity;
  I.stiffeningWork.assign(I.stiffeningPower.size(), 0.0);
}

void QualityMonitor::step(const State& s, double tPrev, const std::vector<char>* active, const VecX* lambda,
                          const VecX* schemeLambda, const std::vector<ConstraintRows>* rowsAtState,
                          const double* contactWork) {
  Impl& I = *m;
  if (!I.started) return;
  Point p;
  evaluate(s, s.t - tPrev, active, lambda, schemeLambda, rowsAtState, p);
  // step sizes: the newest step is folded in when the next one comes (the last one, cut to
  // t_end, stays out)
  if (I.hPending > 0) I.sizes.add(I.hPending);
  I.hPending = s.t - tPrev;
  ++I.accepted;
  I.Tmax = std::max(I.Tmax, p.T);
  I.Vmin = std::min(I.Vmin, p.V);
  I.Vmax = std::max(I.Vmax, p.V);
  I.Gmin = std::min(I.Gmin, p.gravity);
  I.Gmax = std::max(I.Gmax, p.gravity);
  if (I.known) {
    // trapezoid over the step
    const double dt = p.t - I.prev.t;
    I.Wdrivers += 0.5 * (I.prev.drivers + p.drivers) * dt;
    I.Wdampers += 0.5 * (I.prev.dampers + p.dampers) * dt;
    I.Wloads += 0.5 * (I.prev.loads + p.loads) * dt;
    I.Wstiffening += 0.5 * (I.prev.stiffening + p.stiffening) * dt;
    I.Wabs += 0.5 *
              (std::abs(I.prev.drivers) + std::abs(p.drivers) + std::abs(I.prev.dampers) + std::abs(p.dampers) +
               std::abs(I.prev.loads) + std::abs(p.loads) + std::abs(I.prev.stiffening) + std::abs(p.stiffening)) *
              dt;
    if (contactWork) {
      I.Wabs += std::abs(*contactWork - I.Wcontacts);
      if (*contactWork != I.Wcontacts) I.worked = true;
      I.Wcontacts = *contactWork;
    }
    I.err = std::max(I.err, std::abs(p.E() - I.first.E() -
                                     (I.Wdrivers + I.Wdampers + I.Wloads + I.Wstiffening + I.Wcontacts)));
    I.WabsOutside += 0.5 *
                     (std::abs(I.prev.drivers) + std::abs(p.drivers) + std::abs(I.prev.dampers) + std::abs(p.dampers) +
                      std::abs(I.prev.loads) + std::abs(p.loads)) *
                     dt;
    I.stiffeningWork.resize(I.stiffeningPower.size(), 0.0);
    for (size_t b = 0; b < I.stiffeningWork.size(); ++b)  // rectangle rule: only for naming the body
      I.stiffeningWork[b] += I.stiffeningPower[b] * dt;
    checkRunaway(p);
  }
  I.prev = p;
}

void QualityMonitor::checkRunaway(const Point& p) {
  // Geometric stiffening moves energy between a body's rigid motion and its deformation; it
  // cannot supply more than was ever put into the model. When its work passes that many times
  // over and the energy has grown by as much, the stiffened body is unstable (a runaway feeds
  // itself, so it is compared with what came from outside: the initial energy, the range of
  // the gravity potential, the work of drivers, loads and dampers either way). The run is
  // stopped here with a warning instead of going on to overflow.
  Impl& I = *m;
  if (!I.stop.empty()) return;
  // 1e-12 J: a model at rest with nothing acting on it has zero outside energy, and rounding of
  // zero-sized works must not count as a runaway
  const double outside = std::abs(I.first.E()) + (I.Gmax - I.Gmin) + I.WabsOutside + 1e-12;
  const double grown = p.E() - I.first.E();
  if (!(std::abs(I.Wstiffening) > quality::kStiffeningRunaway * outside && grown > quality::kStiffeningRunaway * outside))
    return;
  size_t worst = 0;
  for (size_t b = 1; b < I.stiffeningWork.size(); ++b)
    if (std::abs(I.stiffeningWork[b]) > std::abs(I.stiffeningWork[worst])) worst = b;
  I.stop = "the energy grows without a cause: at t = " + num(p.t) + " s geometric stiffening has done " +
           num(I.Wstiffening) + " J of work (most on '" + m_sys.block(static_cast<int>(worst)).name +
           "'), more than " + num(quality::kStiffeningRunaway, 2) + " times all that was put into the model (" +
           num(outside) + " J: initial energy, gravity, drivers, loads, dampers), and the energy has grown by " +
           num(grown) + " J; the run was stopped there. The stiffened body is unstable: try its interface frame "
           "instead of the mean axes, fewer modes, or geometric_stiffening false";
}

const std::string& QualityMonitor::stopReason() const { return m->stop; }

RunQuality QualityMonitor::finish(long steps, long rejected, bool completed) const {
  const Impl& I = *m;
  RunQuality q;
  if (!I.started) return q;
  q.measured = true;
  q.steps = steps;
  q.rejected = rejected;
  // step sizes: the last accepted step counts unless the run reached t_end with it
  Impl::StepSizes sizes = I.sizes;
  if (I.hPending > 0 && (!completed || I.accepted == 1)) sizes.add(I.hPending);
  q.halvings = sizes.halvings;
  q.smallest_step = std::isfinite(sizes.smallest) ? sizes.smallest : 0.0;

  // constraint tolerances: the accuracy the integrator is asked for, times kResidualFactor
  const bool ida = m_spec.integrator == IntegratorType::Ida;
  const double vscale = std::max(I.vmax, m_L / std::max(m_spec.t_end, 1e-300));
  q.position_residual = I.posRes;
  q.velocity_residual = I.velRes;
  q.position_tolerance = quality::kResidualFactor * (ida ? m_spec.rtol * m_L + m_spec.atol : m_spec.newton_tol * m_L);
  q.velocity_tolerance = quality::kResidualFactor * (ida ? m_spec.rtol * vscale + m_spec.atol
                                                         : m_spec.newton_tol * (vscale + m_L / m_spec.step));

  // energy
  q.energy_initial = I.first.E();
  q.energy_final = I.prev.E();
  q.energy_known = I.known;
  q.energy_checked = I.known;
  q.energy_check = !I.known ? "" : I.driven ? "driven" : I.worked ? "loaded" : "conservative";
  q.energy_limit = I.driven   ? quality::kDrivenEnergyFraction
                   : I.worked ? quality::kLoadedEnergyFraction
                              : quality::kEnergyFraction;
  q.energy_note = I.note;
  if (I.known) {
    q.work_drivers = I.Wdrivers;
    q.drivers_exact_steps = I.correction.exact > 0 ? I.correction.exact : steps;
    q.work_drivers_error = I.correction.workError;
    q.work_dampers = I.Wdampers;
    q.work_loads = I.Wloads;
    q.work_stiffening = I.Wstiffening;
    q.work_contacts = I.Wcontacts;
    q.energy_error = I.err;
    q.energy_scale = I.Tmax + (I.Vmax - I.Vmin) + I.Wabs;
  }

  // the checks
  if (!I.stop.empty()) q.warnings.push_back(I.stop);
  auto where = [&](int c) { return c >= 0 ? " in " + m_sys.constraints()[c]->label : std::string(); };
  if (q.position_residual > q.position_tolerance)
    q.warnings.push_back("position constraint residual " + num(q.position_residual) + where(I.posWorst) +
                         " exceeds its tolerance " + num(q.position_tolerance));
  if (q.velocity_residual > q.velocity_tolerance)
    q.warnings.push_back("velocity constraint residual " + num(q.velocity_residual) + where(I.velWorst) +
                         " exceeds its tolerance " + num(q.velocity_tolerance));
  const long attempts = steps + rejected;
  if (attempts > 0 && rejected > quality::kRejectedShare * attempts)
    q.warnings.push_back(std::to_string(rejected) + " of " + std::to_string(attempts) + " attempted steps rejected (" +
                         percent(double(rejected) / attempts) + ", limit " + percent(quality::kRejectedShare) + ")");
  if (q.energy_checked) {
    // rounding of an energy measured from a far datum is not drift
    const double limit = q.energy_limit * q.energy_scale +
                         1e-12 * std::max(std::abs(q.energy_initial), std::abs(q.energy_final));
    if (q.energy_error > limit)
      q.warnings.push_back(std::string(I.driven   ? "the work-energy balance of a model with drivers"
                                       : I.worked ? "the work-energy balance of a model without drivers"
                                                  : "the energy of a model on which nothing does work") +
                           " is off by up to " + num(q.energy_error) + " J, " +
                           num(q.energy_scale > 0 ? q.energy_error / q.energy_scale : 0.0) + " of its energy scale " +
                           num(q.energy_scale) + " J (limit " + num(q.energy_limit) + ")");
  }
  return q;
}

}  // namespace flexim
