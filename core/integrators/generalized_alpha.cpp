// Generalized-alpha for constrained mechanical systems in the Arnold-Bruls form, applied on
// the Lie group R^3 x SO(3) of each body (x R^m for modal coordinates) (Bruls, Cardona, Arnold
// 2012): positions are updated by q_{n+1} = q_n o exp(h dq), the constraints are enforced at
// position level (index 3, scaled by 1/beta'; velocity-level rows such as the rotational
// mean-axis conditions at velocity level, scaled by 1/gamma'), and velocities are projected
// onto G v + Phi_t = 0 after each step. Parameters from the spectral radius rho_inf (Chung-Hulbert):
//   alpha_m = (2 rho - 1)/(rho + 1), alpha_f = rho/(rho + 1),
//   gamma = 1/2 + alpha_f - alpha_m, beta = (gamma + 1/2)^2 / 4.
// Newton uses an iteration matrix [M + gamma' C_t + beta' K_t, G^T; G, 0] (K_t with the
// constraint forces' geometric stiffness) whose KLU symbolic analysis is done once; it is
// factorised once per step at the predictor, which extrapolates the accelerations and
// multipliers of the last two steps, and serves the velocity projection too.
//
// Step control: fixed (`step`; halved after a Newton failure, doubled back after 4 good steps)
// or adaptive (`step_control: adaptive`). The adaptive step follows a local error estimate of
// the positions in the manner of Geradin & Cardona (Flexible Multibody Dynamics, 2001): with a_n
// the acceleration-like variable, a_n = qdd(t_n + (alpha_m - alpha_f) h) + O(h^2), the Taylor
// expansion of the position update gives the local error
//   e_q = C_q h^3 q''' ~ C_q h^2 (vdot_{n+1} - vdot_n),  C_q = beta + (alpha_m - alpha_f)/2 - 1/6
// (rho_inf = 1: 1/12, the trapezoidal rule's), in tangent coordinates, so the Lie-group
// positions need no chart. Its weighted RMS norm with weights atol + rtol |x| (x: the
// coordinate's magnitude at t_n or t_{n+1}; 1 rad for rotations) is the error (velocities are
// not tested: see docs/theory/generalized_alpha_step_control.md); a step with err > 1 is
// redone with a smaller step, and the next step is
// h err^(-1/3) times a safety factor 0.8, within [1/5, 2] (no growth right after a rejection) and
// at most `step` (0: no limit). Since a_n belongs to the step size (a - vdot = d h q''' + ...),
// a is rescaled by h_new / h_old when the step changes, which keeps the method second order
// on variable steps.
#include "core/integrators/integrator.h"
#include "core/base/rotation.h"
#include "core/integrators/dense_output.h"
#include "core/integrators/diagnosis.h"
#include "core/integrators/iteration_matrix.h"
#include "core/system/kkt.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace flexim {

namespace {

/// Gap below which an open unilateral row counts as penetrating [m or rad]; closed rows hold
/// phi = 0 to the Newton tolerance.
constexpr double kPenetrationTolerance = 1e-9;
/// Active-set changes tried within one step before its result is taken as it is.
constexpr int kMaxSwitchesPerStep = 4;
/// Iterative-refinement steps of the velocity projection before it factorises afresh.
constexpr int kMaxProjectionRefinements = 6;
/// Velocity error left by the projection, relative to the velocity error Newton's tolerance
/// allows (gamma'/beta' newton_tol).
constexpr double kProjectionTolerance = 1e-2;
/// Adaptive step: safety factor, largest decrease and increase per step.
constexpr double kSafety = 0.8, kMinRatio = 0.2, kMaxRatio = 2.0;
/// Adaptive step: Newton tolerance (scaled increment, and a tenth of the constraint residual)
/// as a share of atol, when that is looser than newton_tol.
constexpr double kNewtonShareOfAtol = 1e-3;
/// Adaptive step: Newton error of the velocities as a share of atol, and the smallest Newton
/// tolerance used [m, rad] (round-off).
constexpr double kNewtonVelocityShareOfAtol = 0.1, kNewtonFloor = 1e-14;
/// Newton increments that stop shrinking within this factor of the tolerance, with the constraints
/// holding to round-off, are taken as converged (round-off near a singular configuration).
constexpr double kRoundOffStall = 100, kStallShareOfTolerance = 1.0;

class GeneralizedAlpha final : public Integrator {
 public:
  GeneralizedAlpha(const System& sys, const SolverSpec& spec)
      : m_sys(sys), m_spec(spec), m_S(sys, true, true), m_hNominal(spec.step), m_h(spec.step),
        m_adaptive(spec.step_control == StepControl::Adaptive) {
    const double rho = std::clamp(spec.rho_inf, 0.0, 1.0);
    m_am = (2 * rho - 1) / (rho + 1);
    m_af = rho / (rho + 1);
    m_gamma = 0.5 + m_af - m_am;
    m_beta = 0.25 * (m_gamma + 0.5) * (m_gamma + 0.5);
    m_cq = std::abs(m_beta + 0.5 * (m_am - m_af) - 1.0 / 6.0);
    if (m_adaptive) {
      m_hMax = spec.step > 0 ? spec.step : std::numeric_limits<double>::infinity();
      // a first step small enough for most models; the error test corrects it within a few steps
      m_h = std::min({m_hMax, 1e-3 * spec.t_end, spec.output_interval});
      m_hNominal = m_hMax;
    }
    // Newton's error need only be small against the error tolerance (IDA stops at a third of it)
    m_newtonTol = m_adaptive ? std::max(spec.newton_tol, kNewtonShareOfAtol * spec.atol) : spec.newton_tol;
  }

  std::string name() const override { return "gen-alpha (Arnold-Bruls, Lie group, index-3 + velocity projection, KLU)"; }
  std::string settings() const override {
    std::ostringstream s;
    if (m_adaptive)
      s << "adaptive rtol=" << m_spec.rtol << " atol=" << m_spec.atol << " hmax=" << (m_spec.step > 0 ? m_spec.step : 0);
    else
      s << "h=" << m_hNominal;
    s << " rho_inf=" << m_spec.rho_inf << " newton_tol=" << (m_adaptive ? "adaptive" : fmt(m_newtonTol))
      << " max_newton=" << m_spec.max_newton;
    return s.str();
  }

  bool initialize(const State& s0, const VecX& vdot0, const VecX& lambda0, std::string&) override {
    m_cur = {s0, vdot0, vdot0, lambda0};
    m_aStep = 0;
    if (m_startJerk.size() == vdot0.size() && m_h > 0) {
      // a = vdot(t + (alpha_m - alpha_f) h) + O(h^2) (Arnold & Bruls 2007): started at vdot
      // itself, a carries an O(h) error that the velocity update turns into a lasting O(h^2)
      // velocity (and energy) error, large against the O(h^3) local error of a short run
      m_cur.a = vdot0 + ((m_am - m_af) * m_h) * m_startJerk;
      m_aStep = m_h;
    }
    m_prev = m_cur;
    m_extrapolate = false;
    if (m_sys.hasUnilateralRows()) {
      m_sys.kinematics(s0, m_kin);
      m_sys.constraints(m_kin, s0.t, m_rows);
      m_rowsAtCurrent = false;
      m_S.setActiveRows(contactActiveRows(m_sys, m_rows, kPenetrationTolerance));
    }
    return true;
  }

  void setStartingJerk(const VecX& vddot) override { m_startJerk = vddot; }

  const std::vector<char>* activeRows() const override { return &m_S.activeRows(); }
  /// Keeps every row and regularises the iteration matrix (KktMatrix): the multipliers are
  /// then a least-norm split, and rows that become dependent later are handled alike.
  void setDependentRows(const std::vector<char>&) override {
    m_S.setRegularization(KktMatrix::Regularization::Always);
  }

  bool step(double t_stop, std::string& error) override {
    int switches = 0;       // active-set changes in this attempt's step size
    bool switched = false;  // any in this call
    bool rejected = false;  // an error-test failure in this call
    for (;;) {
      double h = std::min(m_h, t_stop - m_cur.s.t);
      // no sliver of a step before t_stop: stretch this one a little or split the rest in two
      if (m_adaptive && t_stop - m_cur.s.t - h < 0.1 * h && t_stop - m_cur.s.t <= m_hMax) h = t_stop - m_cur.s.t;
      else if (m_adaptive && t_stop - m_cur.s.t < 2 * h) h = 0.5 * (t_stop - m_cur.s.t);
      Point next;
      std::string why;
      bool ok = attempt(h, next, why);
      std::string culprit;
      if (ok && m_sys.hasUnilateralRows() && updateActiveSet(next, switches < kMaxSwitchesPerStep, culprit)) {
        // a contact that closed or pulls: redo the step with the new active set (bounded); one that
        // does not settle is never accepted: the step is halved as after a Newton failure
        if (switches < kMaxSwitchesPerStep) {
          ++switches;
          switched = true;
          ++m_stats.active_set_changes;
          continue;
        }
        ok = false;
        switches = 0;
        why = "the contact state of " + culprit + " does not settle within a step";
      }
      double err = 0;
      if (ok && m_adaptive && !switched) {
        err = errorNorm(next, h);
        if (!(err <= 1)) {
          // error test failed: redo with a smaller step
          ++m_stats.failures;
          rejected = true;
          m_history.tried(h);
          m_h = h * (std::isfinite(err) ? std::max(kMinRatio, kSafety * std::cbrt(1 / err)) : kMinRatio);
          if (m_h < minStep()) {
            error = "generalized-alpha: error test failed at t=" + fmt(m_cur.s.t) + " with step " + fmt(h) +
                    " (weighted error " + fmt(err) + "; largest in " + worstVariable(next, h) + "); " +
                    m_history.str();
            return false;
          }
          continue;
        }
      }
      if (ok) {
        // after a switch the acceleration history holds the impulse: restart it from the
        // accelerations consistent with the new active set
        if (switched && !restartAccelerations(next)) {
          error = "generalized-alpha: singular KKT matrix after a contact change at t=" + fmt(next.s.t);
          return false;
        }
        m_prev = m_cur;
        m_cur = next;
        m_aStep = switched ? 0.0 : h;
        m_extrapolate = !switched;  // not across the impulse of a contact change
        ++m_stats.steps;
        m_history.accepted(h);
        if (m_adaptive) {
          // the standard controller for a local error of order h^3
          const double ratio = err > 0 ? kSafety * std::cbrt(1 / err) : kMaxRatio;
          m_h = std::min(m_hMax, h * std::clamp(ratio, kMinRatio, rejected ? 1.0 : kMaxRatio));
          // below the step at which Newton last failed, probing upwards by 5 % a step
          m_hNewton *= 1.05;
          m_h = std::min(m_h, m_hNewton);
        } else if (m_h < m_hNominal && ++m_goodSteps >= 4) {
          // return to the nominal step after a run of good steps
          m_h = std::min(2 * m_h, m_hNominal);
          m_goodSteps = 0;
        }
        return true;
      }
      ++m_stats.failures;
      m_goodSteps = 0;
      m_history.tried(h);
      m_h = 0.5 * h;
      m_hNewton = 0.8 * h;
      if (m_h < (m_adaptive ? minStep() : 1e-8 * m_hNominal) || m_h < 1e-15) {
        error = "generalized-alpha: Newton failed at t=" + fmt(m_cur.s.t) + " even with step " + fmt(m_h) + ": " + why +
                "; " + m_history.str();
        return false;
      }
    }
  }

  double time() const override { return m_cur.s.t; }
  double previousTime() const override { return m_prev.s.t; }

  void interpolate(double t, State& out) const override {
    interpolateHermite(m_sys, t, m_prev.s.t, m_prev.s.q, m_prev.s.v, m_prev.vdot, m_cur.s.t, m_cur.s.q, m_cur.s.v,
                       m_cur.vdot, out);
  }

  IntegratorStats stats() const override {
    IntegratorStats s = m_stats;
    s.pattern_analyses = m_S.analyses();
    return s;
  }

  // run-quality monitor. No currentMultipliers(): this step's multipliers carry the scheme's
  // numerical damping (an O(h) bias, and a period-2 oscillation), so the drivers' work from them
  // is off (by 53 % on the rigid slider-crank example, whose net work is small beside its power
  // swings, 4 % on the flexible one). After the oscillation has died out the bias is smooth:
  // the monitor corrects them from exact multipliers every few steps.
  void currentState(State& out) const override { out = m_cur.s; }
  const VecX* schemeMultipliers() const override { return &m_cur.lambda; }
  const std::vector<ConstraintRows>* currentRows() const override { return m_rowsAtCurrent ? &m_rows : nullptr; }

 private:
  struct Point {
    State s;
    VecX vdot, a, lambda;
  };

  /// Smallest step the adaptive control tries before it gives up.
  double minStep() const { return std::max(1e-14, 1e-12 * std::abs(m_cur.s.t)); }

  /// Local position error of a step of size h from m_cur to p, per tangent coordinate.
  void localErrors(const Point& p, double h, VecX& eq) const { eq = (m_cq * h * h) * (p.vdot - m_cur.vdot); }

  /// Weights atol + rtol |x| per position tangent coordinate: translations by the larger |r|
  /// at either end of the step, rotations by 1 rad, other coordinates by their value.
  void weights(const Point& p, VecX& wq) const {
    const int nv = m_sys.nv();
    wq.resize(nv);
    for (int b = 0; b < m_sys.nblocks(); ++b) {
      const Block& B = m_sys.block(b);
      const int n = B.nv();
      for (int i = 0; i < n; ++i) {
        double x = 1.0;
        int qi = -1;
        if (B.hasFrame()) {
          if (i < 3) qi = i;
          else if (i >= 6) qi = i + 1;  // q = [r, p(4), w], v = [r_dot, omega', w_dot]
        } else if (B.nq() == n) {
          qi = i;
        }
        if (qi >= 0 && qi < B.nq()) x = std::max(std::abs(m_cur.s.q(B.q0 + qi)), std::abs(p.s.q(B.q0 + qi)));
        wq(B.v0 + i) = m_spec.atol + m_spec.rtol * x;
      }
    }
  }

  /// Weighted RMS norm of the local error estimate of the step h to p (accepted when <= 1).
  double errorNorm(const Point& p, double h) {
    localErrors(p, h, m_eq);
    weights(p, m_wq);
    const auto n = m_eq.size();
    return n > 0 ? std::sqrt(m_eq.cwiseQuotient(m_wq).squaredNorm() / n) : 0.0;
  }

  /// The block and coordinate with the largest weighted local error, for a failure message.
  std::string worstVariable(const Point& p, double h) {
    localErrors(p, h, m_eq);
    weights(p, m_wq);
    int worst = 0;
    double value = -1;
    for (int i = 0; i < m_eq.size(); ++i)
      if (std::abs(m_eq(i) / m_wq(i)) > value) value = std::abs(m_eq(i) / m_wq(i)), worst = i;
    for (int b = 0; b < m_sys.nblocks(); ++b) {
      const Block& B = m_sys.block(b);
      if (worst >= B.v0 && worst < B.v0 + B.nv())
        return "'" + B.name + "' position coordinate " + std::to_string(worst - B.v0) +
               " (weighted " + fmt(value) + ")";
    }
    return "coordinate " + std::to_string(worst);
  }

  static std::string fmt(double x) {
    std::ostringstream s;
    s << x;
    return s.str();
  }

  /// Newton iterations for one step of size h from m_cur. Factorises the iteration matrix at
  /// the predictor; refreshes it once at a later iterate before giving up.
  bool attempt(double h, Point& out, std::string& why) {
    const double betap = h * h * m_beta * (1 - m_af) / (1 - m_am);
    const double gammap = h * m_gamma * (1 - m_af) / (1 - m_am);
    const int nv = m_sys.nv(), nc = m_sys.nc();
    // adaptive: the Newton error of the positions (the increment) small against atol, and that of
    // the velocities (gamma'/beta' times it) too, or it would be noise in the velocity error
    // estimate that grows as 1/h; never below what round-off allows
    const double newtonTol =
        m_adaptive ? std::max(kNewtonFloor, std::min(m_newtonTol, kNewtonVelocityShareOfAtol * m_spec.atol * betap / gammap))
                   : m_newtonTol;
    // stalled increments this small are round-off (adaptive: also up to the local error
    // tolerance of a coordinate of size 1)
    const double stallTol =
        std::max(kRoundOffStall * newtonTol, m_adaptive ? kStallShareOfTolerance * (m_spec.atol + m_spec.rtol) : 0.0);
    // a matrix at this step's predictor: one from the last step is an O(h) worse model and
    // costs more iterations than its factorisation
    m_matrixValid = false;
    Point p;
    p.s.t = m_cur.s.t + h;
    p.vdot = m_cur.vdot;
    p.lambda = m_cur.lambda;
    if (m_extrapolate && m_prev.s.t < m_cur.s.t) {
      // linear in time: the first Newton increment drops by an order of magnitude on smooth motion
      const double ratio = h / (m_cur.s.t - m_prev.s.t);
      p.vdot += ratio * (m_cur.vdot - m_prev.vdot);
      p.lambda += ratio * (m_cur.lambda - m_prev.lambda);
    }
    const auto& active = m_S.activeRows();
    for (int i = 0; i < nc; ++i)
      if (!active[i]) p.lambda(i) = 0;  // an open row carries no force
    // a_n belongs to the step it was computed with: a - vdot = (alpha_m - alpha_f) h q''' + O(h^2)
    m_a0 = m_cur.a;
    if (m_adaptive && m_aStep > 0 && h != m_aStep) m_a0 = m_cur.vdot + (h / m_aStep) * (m_cur.a - m_cur.vdot);
    const VecX& a0 = m_a0;
    auto update = [&]() {
      p.a = (m_af * m_cur.vdot + (1 - m_af) * p.vdot - m_am * a0) / (1 - m_am);
      p.s.v = m_cur.s.v + h * (1 - m_gamma) * a0 + h * m_gamma * p.a;
      p.s.q = m_cur.s.q;
      m_dx = h * m_cur.s.v + h * h * (0.5 - m_beta) * a0 + h * h * m_beta * p.a;
      m_sys.retract(p.s.q, m_dx);
    };
    update();
    // scratch kept between steps: no allocation in an iteration
    VecX &f = m_f, &rhs = m_rhs, &phi = m_phi, &Gtl = m_Gtl;
    rhs.resize(nv + nc);
    phi.resize(nc);
    double prevNorm = 0;
    int assemblies = 0;
    for (int k = 0; k < m_spec.max_newton; ++k) {
      m_sys.kinematics(p.s, m_kin);
      m_sys.forces(m_kin, p.s.t, f);
      m_sys.constraints(m_kin, p.s.t, m_rows);
      m_rowsAtCurrent = false;
      // residual: M vdot - f + G^T lambda ; Phi / beta' (velocity-level rows: (G v + Phi_t) / gamma')
      rhs.head(nv) = f;
      for (int b = 0; b < m_sys.nblocks(); ++b) {
        const Block& B = m_sys.block(b);
        B.formulation->subtractMassTimes(m_kin[b + 1], p.vdot.segment(B.v0, B.nv()), rhs.segment(B.v0, B.nv()));
      }
      Gtl.setZero(nv);
      addConstraintForces(m_sys, m_rows, p.lambda, Gtl);
      rhs.head(nv) -= Gtl;
      const auto& kinds = m_sys.rowKinds();
      for (size_t ci = 0; ci < m_rows.size(); ++ci) {
        const int off = m_sys.constraintOffsets()[ci], r = m_sys.constraints()[ci]->rows();
        phi.segment(off, r) = m_rows[ci].phi;
        if (!m_allEquality) {
          if (m_vel.size() < r) m_vel.resize(r);
          constraintVelocity(m_sys, static_cast<int>(ci), m_rows[ci], p.s.v, m_vel.head(r));
          for (int i = 0; i < r; ++i)
            if (kinds[off + i] == RowKind::VelocityLevel) phi(off + i) = betap / gammap * m_vel(i);
        }
      }
      rhs.tail(nc) = -phi / betap;
      // inactive (open) unilateral rows: their multiplier stays zero, phi is free
      for (int i = 0; i < nc; ++i)
        if (!active[i]) {
          phi(i) = 0;
          rhs(nv + i) = 0;
        }
      if (!rhs.allFinite()) {
        why = "non-finite residual";
        return false;
      }
      if (!m_matrixValid) {
        if (!assemble(h, p.s.t, p.lambda)) {
          why = "singular iteration matrix (redundant or inconsistent constraints?)";
          return false;
        }
        ++assemblies;
      }
      if (!m_S.solve(rhs, false)) {
        why = "linear solve failed";
        return false;
      }
      ++m_stats.newton_iterations;
      p.vdot += rhs.head(nv);
      p.lambda += rhs.tail(nc);
      update();
      const double incr = betap * rhs.head(nv).lpNorm<Eigen::Infinity>();
      const double phiNorm = nc ? phi.lpNorm<Eigen::Infinity>() : 0.0;
      const bool stalled = k > 0 && incr > 0.5 * prevNorm;
      // converged; or stalled at round-off: near a singular configuration the increments along
      // the direction the constraints barely fix stop shrinking at round-off amplified by
      // 1/sigma, while the constraints hold to round-off (a motion of that size along a
      // direction they allow is no error)
      if ((remainingError(incr, k > 0 ? prevNorm : 0.0) <= newtonTol && phiNorm <= 10 * newtonTol) ||
          (stalled && incr <= stallTol && phiNorm <= kRoundOffResidual)) {
        if (!projectVelocities(p, h, gammap / betap * newtonTol * kProjectionTolerance)) {
          why = "velocity projection failed (singular constraint Jacobian)";
          return false;
        }
        out = p;
        return true;
      }
      // a matrix that stops contracting is refreshed once at the current iterate before the
      // step is rejected
      if (stalled) {
        if (assemblies > 1) {
          why = "Newton iterations do not converge" + newtonDiagnosis(rhs, betap, phi);
          m_matrixValid = false;
          return false;
        }
        m_matrixValid = false;
      }
      prevNorm = incr;
    }
    why = "no convergence in " + std::to_string(m_spec.max_newton) + " iterations" + newtonDiagnosis(rhs, betap, phi);
    m_matrixValid = false;
    return false;
  }

  /// Where a Newton iteration is stuck: the coordinate with the largest position-level correction
  /// (beta' dvdot) of the last increment, and the worst constraint unless it holds to round-off.
  std::string newtonDiagnosis(const VecX& increment, double betap, const VecX& phi) const {
    const int nv = m_sys.nv();
    std::ostringstream s;
    s.precision(2);
    if (nv > 0) {
      int worst = 0;
      increment.head(nv).cwiseAbs().maxCoeff(&worst);
      s << ": largest correction " << std::scientific << betap * std::abs(increment(worst)) << " in "
        << velocityCoordinateName(m_sys, worst);
    }
    const double residual = phi.size() ? phi.lpNorm<Eigen::Infinity>() : 0.0;
    if (residual > kRoundOffResidual) s << "; largest constraint residual in " << worstConstraint(m_sys, phi);
    else s << "; the constraints hold (largest residual " << std::scientific << residual << ")";
    return s.str();
  }

  /// Error left after an iteration's increment `step` (the previous one `previous`, 0 for
  /// none): with contraction rate theta = step / previous, theta / (1 - theta) step; without a
  /// rate, or while it does not contract, the increment itself.
  static double remainingError(double step, double previous) {
    const double theta = previous > 0 ? step / previous : 1.0;
    return theta < 0.5 ? theta / (1 - theta) * step : step;
  }

  /// Iteration matrix for step h at the current iterate (m_kin, m_rows hold it; lambda its
  /// multipliers).
  bool assemble(double h, double t, const VecX& lambda) {
    const double c = (1 - m_af) / (1 - m_am);
    const double betap = h * h * m_beta * c, gammap = h * m_gamma * c;
    m_S.setZero();
    m_blocks.assemble(m_kin, t, lambda, 1.0, betap, gammap,
                      [this](int b1, int b2, const MatX& block) { m_S.addBodyBlock(b1, b2, block); });
    m_S.setConstraints(m_rows);
    m_matrixValid = m_S.factor();
    return m_matrixValid;
  }

  /// Unilateral rows at the end of a converged step (m_rows holds them): an open row that
  /// penetrates closes, a closed row whose multiplier pulls (lambda > 0) opens. True when the set
  /// would change; `apply` makes the change, `culprit` names the first element concerned.
  bool updateActiveSet(const Point& p, bool apply, std::string& culprit) {
    std::vector<char> active = m_S.activeRows();
    bool changed = false;
    const auto& kinds = m_sys.rowKinds();
    for (size_t c = 0; c < m_rows.size(); ++c) {
      const int off = m_sys.constraintOffsets()[c];
      for (int i = 0; i < m_rows[c].phi.size(); ++i) {
        const int row = off + i;
        if (kinds[row] != RowKind::Unilateral) continue;
        const bool close = !active[row] && m_rows[c].phi(i) < -kPenetrationTolerance;
        const bool open = active[row] && p.lambda(row) > 0;
        if (close || open) {
          if (!changed) culprit = m_sys.constraints()[c]->label;
          active[row] = close;
          changed = true;
        }
      }
    }
    if (changed && apply) {
      m_S.setActiveRows(active);
      m_matrixValid = false;
    }
    return changed;
  }

  /// vdot and lambda from [M G^T; G 0] at p's state, with p.a = vdot (a fresh start of the
  /// generalized-alpha acceleration history).
  bool restartAccelerations(Point& p) {
    const int nv = m_sys.nv(), nc = m_sys.nc();
    m_sys.kinematics(p.s, m_kin);
    m_sys.constraints(m_kin, p.s.t, m_rows);
    VecX f;
    m_sys.forces(m_kin, p.s.t, f);
    m_S.setZero();
    for (int b = 0; b < m_sys.nblocks(); ++b) {
      m_sys.massMatrix(m_kin, b, m_M);
      m_S.addBodyBlock(b, b, m_M);
    }
    m_S.setConstraints(m_rows);
    m_matrixValid = false;
    if (!m_S.factor()) return false;
    VecX rhs(nv + nc);
    rhs.head(nv) = f;
    for (size_t c = 0; c < m_rows.size(); ++c)
      rhs.segment(nv + m_sys.constraintOffsets()[c], m_rows[c].gamma.size()) = -m_rows[c].gamma;
    for (int i = 0; i < nc; ++i)
      if (!m_S.activeRows()[i]) rhs(nv + i) = 0;
    if (!m_S.solve(rhs)) return false;
    p.vdot = rhs.head(nv);
    p.a = p.vdot;
    p.lambda = rhs.tail(nc);
    return true;
  }

  /// Projects velocities onto G v + Phi_t = 0 with the iteration matrix as metric and the
  /// Jacobian at the converged state (a stale Jacobian would leak velocity into the free
  /// directions): [H G^T; G 0] [dv; mu] = [0; -(G v + Phi_t)] solved by iterative refinement
  /// preconditioned with this step's factorisation, whose G is that of an earlier iterate.
  /// Falls back to a fresh factorisation when the refinement does not converge. tol: on the
  /// velocities left to correct.
  bool projectVelocities(Point& p, double h, double tol) {
    const int nv = m_sys.nv(), nc = m_sys.nc();
    if (nc == 0) return true;
    m_sys.kinematics(p.s, m_kin);
    m_sys.constraints(m_kin, p.s.t, m_rows);
    m_rowsAtCurrent = true;  // p's positions stay; if p is accepted, these are its rows
    m_b.setZero(nv + nc);
    for (size_t ci = 0; ci < m_rows.size(); ++ci)
      constraintVelocity(m_sys, static_cast<int>(ci), m_rows[ci], p.s.v,
                         m_b.segment(m_sys.constraintOffsets()[ci] + nv, m_sys.constraints()[ci]->rows()));
    const auto& active = m_S.activeRows();
    for (int i = 0; i < nc; ++i) m_b(nv + i) = active[i] ? -m_b(nv + i) : 0.0;
    bool converged = false;
    if (m_matrixValid) {
      m_S.setConstraints(m_rows);  // the matrix to solve with; the factorisation stays
      m_x.setZero(nv + nc);
      m_r = m_b;
      double previous = 0;
      for (int it = 0; it < kMaxProjectionRefinements; ++it) {
        if (!m_S.solve(m_r)) break;
        m_x += m_r;
        const double step = m_r.head(nv).lpNorm<Eigen::Infinity>();
        if (step == 0 || (it > 0 && remainingError(step, previous) <= tol)) {
          converged = true;
          break;
        }
        previous = step;
        m_S.multiply(m_x, m_r);
        m_r = m_b - m_r;
      }
      m_matrixValid = false;  // the matrix no longer matches its factorisation
    }
    if (!converged) {
      if (!assemble(h, p.s.t, p.lambda)) return false;
      m_x = m_b;
      if (!m_S.solve(m_x)) return false;
    }
    p.s.v += m_x.head(nv);
    return true;
  }

  const System& m_sys;
  SolverSpec m_spec;
  KktMatrix m_S;
  double m_am = 0, m_af = 0, m_gamma = 0.5, m_beta = 0.25;
  double m_hNominal, m_h;
  bool m_adaptive = false;
  double m_newtonTol = 0;    ///< Newton tolerance in use (newton_tol, or looser with the adaptive step)
  double m_hMax = 0;         ///< adaptive: largest step (infinity: no limit)
  double m_aStep = 0;        ///< step that m_cur.a belongs to (0: a = vdot, any step)
  VecX m_startJerk;          ///< v_ddot at the next initialize() when known (setStartingJerk)
  double m_cq = 0;           ///< local error constant of the positions
  double m_hNewton = std::numeric_limits<double>::infinity();  ///< adaptive: cap after a Newton failure
  VecX m_a0, m_eq, m_wq;     ///< scratch: rescaled a_n, error estimate and weights
  bool m_matrixValid = false;
  bool m_extrapolate = false;  ///< predictor from the last two points (not after a restart)
  int m_goodSteps = 0;
  Point m_cur, m_prev;
  IntegratorStats m_stats;
  StepHistory m_history;
  std::vector<BodyKinematics> m_kin;
  std::vector<ConstraintRows> m_rows;
  bool m_rowsAtCurrent = false;  ///< m_rows are at the last accepted state (its projection's)
  MatX m_M;  ///< scratch: one block's mass matrix
  VecX m_b, m_x, m_r;  ///< scratch: projection right-hand side, solution, residual
  VecX m_vel;          ///< scratch: one element's constraint velocity
  VecX m_f, m_rhs, m_phi, m_Gtl, m_dx;  ///< scratch: Newton residual and position increment
  IterationMatrixBlocks m_blocks{m_sys};
  bool m_allEquality = std::all_of(m_sys.rowKinds().begin(), m_sys.rowKinds().end(),
                                   [](RowKind k) { return k == RowKind::Equality; });
};

}  // namespace

std::unique_ptr<Integrator> makeGeneralizedAlpha(const System& sys, const SolverSpec& spec) {
  return std::make_unique<GeneralizedAlpha>(sys, spec);
}

std::vector<char> contactActiveRows(const System& sys, const std::vector<ConstraintRows>& rows, double tolerance) {
  std::vector<char> active(sys.nc(), 1);
  for (size_t c = 0; c < rows.size(); ++c)
    for (int i = 0; i < rows[c].phi.size(); ++i) {
      const int row = sys.constraintOffsets()[c] + i;
      if (sys.rowKinds()[row] == RowKind::Unilateral) active[row] = rows[c].phi(i) <= tolerance;
    }
  return active;
}

std::string worstConstraint(const System& sys, const VecX& rows, const char* what) {
  int worst = -1;
  double value = -1;
  const auto& cons = sys.constraints();
  for (size_t c = 0; c < cons.size(); ++c) {
    const double v = rows.segment(sys.constraintOffsets()[c], cons[c]->rows()).lpNorm<Eigen::Infinity>();
    if (v > value) {
      value = v;
      worst = static_cast<int>(c);
    }
  }
  if (worst < 0) return "(no constraints)";
  std::ostringstream s;
  s.precision(2);
  s << cons[worst]->label << " (|" << what << "| " << std::scientific << value << ")";
  return s.str();
}

}  // namespace flexim
