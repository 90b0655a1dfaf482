// SUNDIALS IDA (variable-order, variable-step BDF) on the stabilised index-2 formulation of
// Gear, Gupta and Leimkuhler (GGL), with a direct solver (dense LU for small models, else KLU).
//
// Unknowns y = [q (nq), v (nv), lambda (nc), mu (nc)]:
//   F_q = q_dot - H(q) (v + G^T mu)     H: r_dot = v_r, p_dot = 1/2 p (x) (0, omega'), w_dot = v_w
//   F_v = M(q) v_dot - f(q, v, t) + G^T lambda
//   F_l = Phi(q, t)                      position constraints (velocity-level rows: F_l = mu)
//   F_m = G v + Phi_t                    velocity constraints
// mu vanishes on the exact solution; it lets both constraint levels hold without drift.
// Velocities of massless virtual bodies are algebraic (no v_dot in F_v).
// lambda and mu are algebraic and excluded from the error test (IDASetSuppressAlg).
// Euler parameters are integrated as they are (the quaternion ODE keeps |p| = 1 exactly;
// rotation matrices use p/|p|, so numerical drift of |p| is harmless).
// The Jacobian dF/dy + cj dF/dy_dot is built by column-coloured finite differences over a
// structural pattern from the body/constraint topology (O(N) per Jacobian); the linear solver
// (ida_linear_solver.h) analyses that pattern once.
//
// Singular configurations (docs/theory/singular-configurations.md): where the constraint
// Jacobian loses rank for an instant (an aligned four-bar), the multipliers have a pole and
// IDA's multistep predictor and Newton fail on steps that end near it. When IDA's corrector or
// error test fails repeatedly, the interval from its last accepted state is handed to adaptive
// generalized-alpha (a one-step method whose Newton solves a regularised KKT matrix, at the same
// tolerances), and IDA restarts at order 1 at the end of it. Every hand-over is reported
// (notes()); a failure of generalized-alpha, or too many hand-overs in a row, ends the run.
#include "core/integrators/integrator.h"
#include "core/integrators/constraint_norm.h"
#include "core/integrators/diagnosis.h"
#include "core/integrators/ida_linear_solver.h"

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <set>
#include <sstream>

namespace flexim {

namespace {

/// Size of the iteration-matrix regularisation relative to the multiplier blocks it completes
/// (see Ida::regularize).
constexpr double kRegularization = 1e-9;
/// Hand-overs to generalized-alpha (file comment): the interval is this many times IDA's largest
/// recent step, doubled when IDA fails again before it has stepped as far; generalized-alpha's
/// steps are at most 1/kHandoverSubsteps of IDA's; this many in a row end the run;
/// generalized-alpha's atol is at least kHandoverAtolFloor (see startHandover).
constexpr double kHandoverSteps = 4, kHandoverSubsteps = 32;
constexpr int kMaxHandoversInARow = 10;
/// IDA's largest recent step: over this many accepted steps. A step below kCollapsedStep times it
/// is a collapse, handed over like a failure.
constexpr size_t kRecentSteps = 32;
constexpr double kCollapsedStep = 1e-6;
constexpr double kHandoverAtolFloor = 1e-10;

// IDA measures local errors and Newton corrections only through N_VWrmsNorm and N_VWrmsNormMask
// of its vectors, all clones of y. Replacing those two operations of y before IDAInit gives it
// the constraint-aware norm of the Ida that is stepping on this thread.
thread_local const ConstraintNorm* t_stepping = nullptr;

const ConstraintNorm& steppingNorm() {
  static const ConstraintNorm plain;  // before any Ida steps: the plain weighted RMS norm
  return t_stepping ? *t_stepping : plain;
}
sunrealtype constraintWrmsNorm(N_Vector x, N_Vector w) {
  return steppingNorm().wrms(N_VGetArrayPointer(x), N_VGetArrayPointer(w), nullptr, static_cast<int>(N_VGetLength(x)));
}
sunrealtype constraintWrmsNormMask(N_Vector x, N_Vector w, N_Vector id) {
  return steppingNorm().wrms(N_VGetArrayPointer(x), N_VGetArrayPointer(w), N_VGetArrayPointer(id),
                             static_cast<int>(N_VGetLength(x)));
}

class Ida final : public Integrator {
 public:
  Ida(const System& sys, const SolverSpec& spec) : m_sys(sys), m_spec(spec) {
    m_nb = sys.nblocks();
    m_nc = sys.nc();
    m_nq = sys.nq();
    m_nv = sys.nv();
    m_N = m_nq + m_nv + 2 * m_nc;
    buildPattern();
  }

  ~Ida() override {
    if (m_mem) IDAFree(&m_mem);
    if (m_ls) SUNLinSolFree(m_ls);
    if (m_A) SUNMatDestroy(m_A);
    for (N_Vector v : {m_y, m_yp, m_atol, m_id, m_dky})
      if (v) N_VDestroy(v);
    if (m_ctx) SUNContext_Free(&m_ctx);
  }

  std::string name() const override { return "ida (SUNDIALS BDF, GGL stabilised index-2, direct LU)"; }
  std::string settings() const override {
    std::ostringstream s;
    s << "rtol=" << m_spec.rtol << " atol=" << m_spec.atol << " hmax=" << (m_spec.step > 0 ? m_spec.step : 0);
    return s.str();
  }

  /// Drops the dependent rows: their equations become lambda_i = 0 and mu_i = 0 (the
  /// independent rows imply them while the rank stays as it is; the outputs' reactions are
  /// computed afresh as a least-norm split). An FD Jacobian is too noisy to keep them.
  void setDependentRows(const std::vector<char>& dependent) override { m_dropped = dependent; }

  bool initialize(const State& s0, const VecX& vdot0, const VecX& lambda0, std::string& error) override {
    for (size_t c = 0; c < m_sys.constraints().size(); ++c)
      for (int i = 0; i < m_sys.constraints()[c]->rows(); ++i)
        if (m_sys.constraints()[c]->rowKind(i) == RowKind::Unilateral)
          return fail(error, m_sys.constraints()[c]->label +
                                 " has unilateral (contact) rows, which need the generalized-alpha integrator");
    if (SUNContext_Create(nullptr, &m_ctx) != 0) return fail(error, "SUNContext_Create failed");
    m_y = N_VNew_Serial(m_N, m_ctx);
    m_yp = N_VNew_Serial(m_N, m_ctx);
    m_atol = N_VNew_Serial(m_N, m_ctx);
    m_id = N_VNew_Serial(m_N, m_ctx);
    m_dky = N_VNew_Serial(m_N, m_ctx);
    setStartingPoint(s0, vdot0, lambda0);
    Eigen::Map<VecX> atol(N_VGetArrayPointer(m_atol), m_N), id(N_VGetArrayPointer(m_id), m_N);
    id.setZero();
    id.head(m_nq + m_nv).setOnes();
    for (int b = 0; b < m_nb; ++b) {
      const Block& B = m_sys.block(b);
      if (B.formulation->massless()) id.segment(m_nq + B.v0, B.nv()).setZero();  // massless: algebraic
    }
    atol.setConstant(m_spec.atol);
    atol.tail(2 * m_nc).setConstant(std::max(m_spec.atol, 1e-5));  // multipliers: loose, not error-tested

    m_y->ops->nvwrmsnorm = &constraintWrmsNorm;
    m_y->ops->nvwrmsnormmask = &constraintWrmsNormMask;
    m_mem = IDACreate(m_ctx);
    if (!m_mem) return fail(error, "IDACreate failed");
    IDASetErrHandlerFn(m_mem, &Ida::errorHandler, this);
    if (IDAInit(m_mem, &Ida::residualFn, s0.t, m_y, m_yp) != IDA_SUCCESS) return fail(error, "IDAInit failed");
    IDASVtolerances(m_mem, m_spec.rtol, m_atol);
    IDASetUserData(m_mem, this);
    IDASetId(m_mem, m_id);
    IDASetSuppressAlg(m_mem, SUNTRUE);
    IDASetMaxNumSteps(m_mem, 1000000);
    if (m_spec.step > 0) IDASetMaxStep(m_mem, m_spec.step);
    IDASetStopTime(m_mem, m_spec.t_end);
    // The GGL iteration matrix has condition O(1/h^2): IDA's own first step from tight
    // tolerances (~1e-13 s) makes it numerically singular, so start from a sane step.
    const double h0 = std::min(m_spec.step > 0 ? m_spec.step : m_spec.t_end, m_spec.t_end) * 1e-3;
    IDASetInitStep(m_mem, h0);

    m_A = SUNSparseMatrix(m_N, m_N, static_cast<sunindextype>(m_rows.size()), CSC_MAT, m_ctx);
    m_ls = idaLinearSolver(m_ctx);
    if (!m_ls || IDASetLinearSolver(m_mem, m_ls, m_A) != IDA_SUCCESS) return fail(error, "linear solver setup failed");
    IDASetJacFn(m_mem, &Ida::jacobianFn);
    // every change of cj rebuilds the iteration matrix (the cached dF/dy plus cj dF/dy', see
    // jacobian()): IDA's default band of 25 % made Newton contract only ~4x per iteration
    IDASetDeltaCjLSetup(m_mem, 0.0);
    m_t = m_tPrev = s0.t;
    return true;
  }

  bool step(double t_stop, std::string& error) override {
    if (m_handingOver) return handoverStep(t_stop, error);
    double tret = m_t;
    m_lastError.clear();
    t_stepping = &m_norm;
    const int flag = IDASolve(m_mem, t_stop, &tret, m_y, m_yp, IDA_ONE_STEP);
    t_stepping = nullptr;
    if (flag < 0) {
      error = diagnose(flag, tret);
      if ((flag == IDA_CONV_FAIL || flag == IDA_ERR_FAIL) && startHandover(error)) return handoverStep(t_stop, error);
      return false;
    }
    double h = 0;
    IDAGetLastStep(m_mem, &h);
    m_history.accepted(h);
    const double largest = m_recentSteps.empty() ? h : *std::max_element(m_recentSteps.begin(), m_recentSteps.end());
    m_recentSteps.push_back(h);
    if (m_recentSteps.size() > kRecentSteps) m_recentSteps.pop_front();
    ++m_stepsSinceRestart;
    m_lastStepHandedOver = false;
    m_tPrev = m_t;
    m_t = tret;
    // IDA crawling at steps many decades below its recent ones (it can creep towards a
    // singular instant without ever failing): hand over as after a failure
    if (h < kCollapsedStep * largest && m_t < m_spec.t_end) {
      std::string why = "IDA's step fell from " + fmt(largest) + " to " + fmt(h) + " s at t=" + fmt(m_t);
      startHandover(why);  // when it cannot, IDA goes on
    }
    return true;
  }

  double time() const override { return m_t; }
  double previousTime() const override { return m_tPrev; }

  void interpolate(double t, State& out) const override {
    if (m_lastStepHandedOver) return m_handover->interpolate(t, out);
    IDAGetDky(m_mem, std::clamp(t, m_tPrev, m_t), 0, m_dky);
    const Eigen::Map<const VecX> y(N_VGetArrayPointer(m_dky), m_N);
    out.t = t;
    out.q = y.head(m_nq);
    m_sys.normalize(out.q);
    out.v = y.segment(m_nq, m_nv);
  }

  // run-quality monitor: y at the last step holds the state and the multipliers
  void currentState(State& out) const override {
    if (m_lastStepHandedOver) return m_handover->currentState(out);
    const Eigen::Map<const VecX> y(N_VGetArrayPointer(m_y), m_N);
    out.t = m_t;
    out.q = y.head(m_nq);
    m_sys.normalize(out.q);
    out.v = y.segment(m_nq, m_nv);
  }
  const VecX* currentMultipliers() const override {
    if (m_lastStepHandedOver) return nullptr;  // generalized-alpha's carry its numerical damping
    m_lambda = Eigen::Map<const VecX>(N_VGetArrayPointer(m_y) + m_nq + m_nv, m_nc);
    return &m_lambda;
  }

  /// IDA's counters since its last (re)start, plus those of the runs before and of the
  /// hand-overs (IDAReInit zeroes IDA's own).
  IntegratorStats stats() const override {
    IntegratorStats s = m_earlierStats;
    if (!m_mem) return s;
    add(s, idaStats());
    if (m_handover) add(s, m_handover->stats());
    return s;
  }

  void setConsistentState(ConsistentState f) override { m_consistent = std::move(f); }

  std::vector<std::string> notes() const override {
    if (m_handovers.empty()) return {};
    std::ostringstream s;
    s.precision(4);
    double total = 0;
    for (const Handover& h : m_handovers) total += h.t1 - h.t0;
    s << "IDA handed " << m_handovers.size() << (m_handovers.size() == 1 ? " interval" : " intervals") << " ("
      << total << " s in all, " << m_handedOverSteps + (m_handover ? m_handover->stats().steps : 0)
      << " steps) to adaptive generalized-alpha at the same tolerances, where its corrector or error test failed "
         "repeatedly or its step collapsed (a singular configuration: docs/theory/singular-configurations.md): ";
    for (size_t i = 0; i < m_handovers.size() && i < 5; ++i)
      s << (i ? ", " : "") << "t = " << m_handovers[i].t0 << " ... " << m_handovers[i].t1;
    if (m_handovers.size() > 5) s << " and " << m_handovers.size() - 5 << " more";
    return {s.str()};
  }

 private:
  static std::string fmt(double x) {
    std::ostringstream s;
    s.precision(6);
    s << x;
    return s.str();
  }
  static bool fail(std::string& error, const std::string& what) {
    error = "IDA: " + what;
    return false;
  }

  /// y = [q, v, lambda, mu = 0] and y' = [q_dot, v_dot, 0, 0] of a consistent state.
  void setStartingPoint(const State& s, const VecX& vdot, const VecX& lambda) {
    Eigen::Map<VecX> y(N_VGetArrayPointer(m_y), m_N), yp(N_VGetArrayPointer(m_yp), m_N);
    y.setZero();
    yp.setZero();
    y.head(m_nq) = s.q;
    y.segment(m_nq, m_nv) = s.v;
    y.segment(m_nq + m_nv, m_nc) = lambda;
    yp.segment(m_nq, m_nv) = vdot;
    m_sys.coordinateRate(s.q, s.v, yp.head(m_nq));
  }

  static void add(IntegratorStats& to, const IntegratorStats& from) {
    to.steps += from.steps;
    to.newton_iterations += from.newton_iterations;
    to.failures += from.failures;
  }

  IntegratorStats idaStats() const {
    IntegratorStats s;
    long v = 0;
    IDAGetNumSteps(m_mem, &v);
    s.steps = v;
    IDAGetNumNonlinSolvIters(m_mem, &v);
    s.newton_iterations = v;
    long ef = 0, cf = 0;
    IDAGetNumErrTestFails(m_mem, &ef);
    IDAGetNumNonlinSolvConvFails(m_mem, &cf);
    s.failures = ef + cf;
    return s;
  }

  /// After IDA failed (`why`): generalized-alpha takes over from IDA's last accepted state, at
  /// m_t, for kHandoverSteps times IDA's largest recent step (doubled when the previous hand-over
  /// ended less than its own length ago). False when it cannot.
  bool startHandover(std::string& why) {
    const bool again = !m_handovers.empty() && m_t < m_handovers.back().t1 + (m_handovers.back().t1 - m_handovers.back().t0);
    m_handoversInARow = again ? m_handoversInARow + 1 : 1;
    if (m_handoversInARow > kMaxHandoversInARow) {
      why += "; IDA failed again after " + std::to_string(kMaxHandoversInARow) + " hand-overs to generalized-alpha in a row";
      return false;
    }
    const double h = m_recentSteps.empty() ? 0.0 : *std::max_element(m_recentSteps.begin(), m_recentSteps.end());
    if (!(h > 0)) return false;  // not a single step yet: the start itself fails
    double length = kHandoverSteps * h;
    if (again) length = std::max(length, 2 * (m_handovers.back().t1 - m_handovers.back().t0));
    length = std::min(length, m_spec.t_end - m_t);
    if (!(length > 0)) return false;
    if (again && m_stepsSinceRestart == 0 && m_handover && m_handover->time() == m_t) {
      // IDA failed at once after its restart: generalized-alpha goes on from where it stopped
      m_handovers.back().t1 = m_t + length;
      m_handoverFailure = why;
      m_handingOver = true;
      return true;
    }

    // IDA's state satisfies the constraints to its tolerance only: generalized-alpha (index 3)
    // would close that gap in its first step, a jump its error test cannot pass; and its
    // accelerations start generalized-alpha's acceleration history, which IDA's interpolant gives
    // only to its order near the singular instant
    State s;
    currentState(s);
    VecX vdot, lambda;
    std::string e;
    if (!m_consistent) return false;
    if (!m_consistent(s, vdot, lambda, e)) {
      why += "; its last state could not be put onto the constraints for generalized-alpha: " + e;
      return false;
    }

    SolverSpec g = m_spec;
    g.integrator = IntegratorType::GeneralizedAlpha;
    g.step_control = StepControl::Adaptive;
    // generalized-alpha is second order and IDA up to fifth: at the same local tolerance its
    // energy error per unit time is far larger (up to 2.3e-5 J per bridge on the N = 10 four-bar
    // at rtol 1e-8, against the 2e-7 ... 3e-6 J IDA's own steps add between two bridges); its steps
    // are capped so that a bridge adds no more than IDA does (at most 1.6e-6 J at 1/32, 1e-7 J at
    // 1/128: the error falls as h^2; docs/theory/singular-configurations.md)
    g.step = std::min(m_spec.step > 0 ? std::min(m_spec.step, length) : length, h / kHandoverSubsteps);
    // near the singular instant generalized-alpha's Newton increments and error estimate carry
    // round-off amplified by 1/sigma: below this atol they fail its tests (measured on the aligned
    // four-bar at atol 1e-12)
    g.atol = std::max(m_spec.atol, kHandoverAtolFloor);
    if (m_handover) {  // keep the counters of the earlier hand-overs
      add(m_earlierStats, m_handover->stats());
      m_handedOverSteps += m_handover->stats().steps;
    }
    m_handover = makeGeneralizedAlpha(m_sys, g);
    if (!m_dropped.empty()) m_handover->setDependentRows(m_dropped);
    // IDA's interpolating polynomial knows v_ddot, which generalized-alpha's start needs
    int order = 0;
    IDAGetLastOrder(m_mem, &order);
    if (order >= 2 && IDAGetDky(m_mem, m_t, 2, m_dky) == IDA_SUCCESS)
      m_handover->setStartingJerk(Eigen::Map<const VecX>(N_VGetArrayPointer(m_dky) + m_nq, m_nv));
    if (!m_handover->initialize(s, vdot, lambda, e)) {
      why += "; generalized-alpha could not take over: " + e;
      return false;
    }
    m_handovers.push_back({m_t, m_t + length});
    m_handoverFailure = why;
    m_handingOver = true;
    return true;
  }

  /// One generalized-alpha step of the hand-over; IDA restarts at its end.
  bool handoverStep(double t_stop, std::string& error) {
    const double end = std::min(t_stop, m_handovers.back().t1);
    std::string e;
    if (!m_handover->step(end, e)) {
      error = m_handoverFailure + "; generalized-alpha, which took over at t=" + fmt(m_handovers.back().t0) +
              ", failed too: " + e;
      return false;
    }
    m_tPrev = m_handover->previousTime();
    m_t = m_handover->time();
    m_lastStepHandedOver = true;
    if (m_t >= m_handovers.back().t1 * (1 - 1e-14) || m_t >= t_stop * (1 - 1e-14)) {
      m_handovers.back().t1 = m_t;
      return restartIda(error);
    }
    return true;
  }

  /// IDA from generalized-alpha's state at m_t with consistent accelerations and multipliers
  /// (mu = 0), at order 1, with its first step the hand-over's last one.
  bool restartIda(std::string& error) {
    State s;
    VecX vdot, lambda;
    m_handover->currentState(s);
    std::string e;
    if (!m_consistent(s, vdot, lambda, e)) return fail(error, "no consistent state to restart from at t=" + fmt(s.t) + ": " + e);
    for (size_t i = 0; i < m_dropped.size(); ++i)
      if (m_dropped[i]) lambda(static_cast<int>(i)) = 0;  // IDA holds the dependent rows' multipliers at 0
    setStartingPoint(s, vdot, lambda);
    add(m_earlierStats, idaStats());
    if (IDAReInit(m_mem, s.t, m_y, m_yp) != IDA_SUCCESS) return fail(error, "IDAReInit failed at t=" + fmt(s.t));
    m_partialStep = -1;
    IDASetInitStep(m_mem, m_t - m_tPrev);
    m_stepsSinceRestart = 0;
    m_handingOver = false;
    return true;
  }

  /// Names the real cause of a failure: the variable with the largest weighted local error (error
  /// test) or Newton correction (convergence), the item that owns it, the constraint residual
  /// only when it is not round-off, and the step size history.
  std::string diagnose(int flag, double tret) {
    std::ostringstream s;
    s.precision(3);
    double h = 0;
    IDAGetCurrentStep(m_mem, &h);
    m_history.tried(h);
    s << "IDA failed at t=" << tret << " (flag " << flag << "): " << m_lastError;
    N_Vector ewt = N_VClone(m_y), ele = N_VClone(m_y);
    IDAGetErrWeights(m_mem, ewt);
    const Eigen::Map<const VecX> w(N_VGetArrayPointer(ewt), m_N);
    VecX weighted;
    const char* what = nullptr;
    if (flag == IDA_ERR_FAIL && IDAGetEstLocalErrors(m_mem, ele) == IDA_SUCCESS) {
      weighted = Eigen::Map<const VecX>(N_VGetArrayPointer(ele), m_N).cwiseProduct(w);
      weighted.tail(2 * m_nc).setZero();  // multipliers are not error-tested
      what = "weighted local error";
    } else if (m_newtonCorrection.size() == m_N) {
      weighted = m_newtonCorrection.cwiseProduct(w);
      what = "weighted Newton correction";
    }
    N_VDestroy(ewt);
    N_VDestroy(ele);
    if (what) {
      int i = 0;
      const double value = weighted.cwiseAbs().maxCoeff(&i);
      s << "; largest " << what << " " << value << " in " << variableName(i);
    }
    VecX F(m_N);
    residual(tret, N_VGetArrayPointer(m_y), N_VGetArrayPointer(m_yp), F.data());
    const double cres = m_nc ? F.segment(m_nq + m_nv, m_nc).lpNorm<Eigen::Infinity>() : 0.0;
    if (cres > kRoundOffResidual) s << "; largest constraint residual in " << worstConstraint(m_sys, F.segment(m_nq + m_nv, m_nc));
    else s << "; the constraints hold (largest residual " << cres << ")";
    // rows dropped as dependent at the start may have stopped being so (contradictory drivers)
    int dropped = 0;
    for (size_t i = 0; i < m_dropped.size(); ++i)
      if (m_dropped[i] && dropped++ < 3) s << (dropped == 1 ? "; rows dropped as dependent at the start: " : ", ")
                                           << constraintRowName(m_sys, static_cast<int>(i));
    if (dropped > 3) s << " and " << dropped - 3 << " more";
    s << "; " << m_history.str();
    return s.str();
  }

  /// Name of unknown i of y = [q, v, lambda, mu].
  std::string variableName(int i) const {
    if (i < m_nq) return positionCoordinateName(m_sys, i);
    if (i < m_nq + m_nv) return velocityCoordinateName(m_sys, i - m_nq);
    if (i < m_nq + m_nv + m_nc) return "the multiplier of " + constraintRowName(m_sys, i - m_nq - m_nv);
    return "the position correction (mu) of " + constraintRowName(m_sys, i - m_nq - m_nv - m_nc);
  }

  /// F(t, y, yp) into F (all arrays of length N).
  void residual(double t, const double* yd, const double* ypd, double* Fd) {
    const Eigen::Map<const VecX> y(yd, m_N), yp(ypd, m_N);
    Eigen::Map<VecX> F(Fd, m_N);
    State s;
    s.t = t;
    s.q = y.head(m_nq);
    s.v = y.segment(m_nq, m_nv);
    const VecX lambda = y.segment(m_nq + m_nv, m_nc), mu = y.segment(m_nq + m_nv + m_nc, m_nc);
    m_sys.kinematics(s, m_kin);
    m_sys.forces(m_kin, t, m_f);
    m_sys.constraints(m_kin, t, m_rowsEval);
    m_GtLambda.setZero(m_nv);
    m_GtMu.setZero(m_nv);
    addConstraintForces(m_sys, m_rowsEval, lambda, m_GtLambda);
    addConstraintForces(m_sys, m_rowsEval, mu, m_GtMu);
    const auto& kinds = m_sys.rowKinds();
    for (size_t c = 0; c < m_rowsEval.size(); ++c) {
      const int off = m_sys.constraintOffsets()[c], r = m_sys.constraints()[c]->rows();
      const auto& R = m_rowsEval[c];
      for (int i = 0; i < r; ++i)
        F(m_nq + m_nv + off + i) = kinds[off + i] == RowKind::VelocityLevel ? mu(off + i) : R.phi(i);
      constraintVelocity(m_sys, static_cast<int>(c), R, s.v, F.segment(m_nq + m_nv + m_nc + off, r));
    }
    for (int i = 0; i < static_cast<int>(m_dropped.size()); ++i)
      if (m_dropped[i]) {
        F(m_nq + m_nv + i) = mu(i);
        F(m_nq + m_nv + m_nc + i) = lambda(i);
      }
    // F_q = q_dot - B(q) (v + G^T mu)
    m_vbar = s.v + m_GtMu;
    m_sys.coordinateRate(s.q, m_vbar, F.head(m_nq));
    F.head(m_nq) = yp.head(m_nq) - F.head(m_nq);
    for (int b = 0; b < m_nb; ++b) {
      const Block& B = m_sys.block(b);
      m_sys.massMatrix(m_kin, b, m_M);
      F.segment(m_nq + B.v0, B.nv()) =
          m_M * yp.segment(m_nq + B.v0, B.nv()) - m_f.segment(B.v0, B.nv()) + m_GtLambda.segment(B.v0, B.nv());
    }
  }

  /// Structural pattern from the topology (see the dependency list in the file comment).
  void buildPattern() {
    std::vector<std::set<int>> cols(m_N);
    auto Q = [&](int b) { return std::pair{m_sys.block(b).q0, m_sys.block(b).nq()}; };
    auto V = [&](int b) { return std::pair{m_nq + m_sys.block(b).v0, m_sys.block(b).nv()}; };
    auto dep = [&](std::pair<int, int> rows, std::pair<int, int> c) {
      for (int j = c.first; j < c.first + c.second; ++j)
        for (int i = rows.first; i < rows.first + rows.second; ++i) cols[j].insert(i);
    };
    for (int b = 0; b < m_nb; ++b) {
      for (auto rows : {Q(b), V(b)}) {
        dep(rows, Q(b));
        dep(rows, V(b));
      }
    }
    const auto& cons = m_sys.constraints();
    for (size_t c = 0; c < cons.size(); ++c) {
      const int off = m_sys.constraintOffsets()[c], r = cons[c]->rows();
      const std::pair<int, int> L{m_nq + m_nv + off, r}, U{m_nq + m_nv + m_nc + off, r};
      for (int i = 0; i < r; ++i) {
        // (F_l, mu): velocity-level rows have F_l = mu; and with (F_m, lambda) the entries of
        // the multiplier regularisation
        cols[m_nq + m_nv + m_nc + off + i].insert(m_nq + m_nv + off + i);
        cols[m_nq + m_nv + off + i].insert(m_nq + m_nv + m_nc + off + i);
      }
      for (int b : cons[c]->blocks) {
        if (b < 0) continue;
        dep(Q(b), U);
        dep(V(b), L);
        dep(L, Q(b));
        dep(U, Q(b));
        dep(U, V(b));
        for (int other : cons[c]->blocks)
          if (other >= 0) {
            dep(Q(b), Q(other));
            dep(V(b), Q(other));
          }
      }
    }
    for (const auto& f : m_sys.forces())
      for (int b : f->blocks)
        for (int other : f->blocks)
          if (b >= 0 && other >= 0) {
            dep(V(b), Q(other));
            dep(V(b), V(other));
          }
    // keep the diagonal present so the factorisation always sees it
    for (int j = 0; j < m_N; ++j) cols[j].insert(j);
    m_colStart.assign(m_N + 1, 0);
    for (int j = 0; j < m_N; ++j) {
      m_rows.insert(m_rows.end(), cols[j].begin(), cols[j].end());
      m_colStart[j + 1] = static_cast<int>(m_rows.size());
    }
    colour(cols);
  }

  /// Greedy distance-2 colouring: columns sharing no row get the same colour.
  void colour(const std::vector<std::set<int>>& cols) {
    std::vector<std::vector<int>> rowCols(m_N);
    for (int j = 0; j < m_N; ++j)
      for (int i : cols[j]) rowCols[i].push_back(j);
    std::vector<int> colourOf(m_N, -1), forbidden;
    int ncolours = 0;
    for (int j = 0; j < m_N; ++j) {
      forbidden.assign(ncolours + 1, -1);
      for (int i : cols[j])
        for (int k : rowCols[i])
          if (colourOf[k] >= 0) forbidden[colourOf[k]] = j;
      int c = 0;
      while (c < ncolours && forbidden[c] == j) ++c;
      colourOf[j] = c;
      ncolours = std::max(ncolours, c + 1);
    }
    m_groups.assign(ncolours, {});
    for (int j = 0; j < m_N; ++j) m_groups[colourOf[j]].push_back(j);
  }

  /// The iteration matrix dF/dy + cj dF/dy'. IDA rebuilds it at every change of cj, and
  /// cj dF/dy' is exact. dF/dy comes from finite differences, kept as IDA would keep the whole
  /// matrix: until cj has changed by kPartialCj, Newton failed with it (IDA asks again within
  /// one step), the dependent rows change, or at most kPartialAge steps.
  void jacobian(double t, double cj, const double* yd, const double* ypd, const double* Fd, SUNMatrix J) {
    // IDA zeroes J before this call, and SUNMatZero on a sparse matrix clears its pattern too
    sunindextype* ptr = SUNSparseMatrix_IndexPointers(J);
    sunindextype* idx = SUNSparseMatrix_IndexValues(J);
    for (int j = 0; j <= m_N; ++j) ptr[j] = m_colStart[j];
    for (size_t k = 0; k < m_rows.size(); ++k) idx[k] = m_rows[k];
    double* data = SUNSparseMatrix_Data(J);
    long steps = 0;
    IDAGetNumSteps(m_mem, &steps);
    const bool retry = t == m_residualTime && m_residualCalls > 1;
    const double cjRatio = cj / m_partialCj;
    const bool fresh = m_partialStep < 0 || retry || steps - m_partialStep >= kPartialAge ||
                       cjRatio < 1 / (1 + kPartialCj) || cjRatio > 1 + kPartialCj ||
                       m_partial.size() != static_cast<Eigen::Index>(m_rows.size()) || m_partialDropped != m_dropped;
    m_residualCalls = 0;
    if (fresh) {
      differences(t, yd, ypd, Fd, data);
      m_partial = Eigen::Map<const VecX>(data, static_cast<Eigen::Index>(m_rows.size()));
      m_partialStep = steps;
      m_partialCj = cj;
      m_partialDropped = m_dropped;
    } else {
      std::copy(m_partial.data(), m_partial.data() + m_partial.size(), data);
    }
    addRateTerms(t, cj, yd, data);
  }

  /// dF/dy by coloured finite differences into data (the pattern's order).
  void differences(double t, const double* yd, const double* ypd, const double* Fd, double* data) {
    std::fill(data, data + m_rows.size(), 0.0);
    VecX y = Eigen::Map<const VecX>(yd, m_N);
    const Eigen::Map<const VecX> F0(Fd, m_N);
    VecX F1(m_N), delta(m_N);
    for (const auto& group : m_groups) {
      for (int j : group) {
        delta(j) = 1.5e-8 * std::max(std::abs(y(j)), 0.1);
        y(j) += delta(j);
      }
      residual(t, y.data(), ypd, F1.data());
      for (int j : group) {
        y(j) = yd[j];
        for (int k = m_colStart[j]; k < m_colStart[j + 1]; ++k) data[k] = (F1(m_rows[k]) - F0(m_rows[k])) / delta(j);
      }
    }
  }

  /// Adds cj dF/dy' and the regularisation to data, and rebuilds the norm's projections (at
  /// every setup, not only with fresh differences: near an aligned position G turns within a few
  /// steps, and projections kept from an older state made the ten-bar four-bar's error at rtol
  /// 1e-8 five times larger).
  void addRateTerms(double t, double cj, const double* yd, double* data) {
    // + cj dF/dy_dot: identity on the q rows, M on the v rows
    auto add = [&](int row, int col, double v) {
      const auto begin = m_rows.begin() + m_colStart[col], end = m_rows.begin() + m_colStart[col + 1];
      data[std::lower_bound(begin, end, row) - m_rows.begin()] += v;
    };
    State s;
    s.t = t;
    s.q = Eigen::Map<const VecX>(yd, m_nq);
    s.v = Eigen::Map<const VecX>(yd + m_nq, m_nv);
    m_sys.kinematics(s, m_kin);
    m_massDiagonal.resize(m_nv);
    for (int b = 0; b < m_nb; ++b) {
      const Block& B = m_sys.block(b);
      for (int i = 0; i < B.nq(); ++i) add(B.q0 + i, B.q0 + i, cj);
      m_sys.massMatrix(m_kin, b, m_M);
      m_massDiagonal.segment(B.v0, B.nv()) = m_M.diagonal().cwiseAbs();
      for (int i = 0; i < B.nv(); ++i)
        for (int k = 0; k < B.nv(); ++k)
          if (m_M(i, k) != 0) add(m_nq + B.v0 + i, m_nq + B.v0 + k, cj * m_M(i, k));
    }
    measureRows(s);
    regularize(cj, add);
    m_norm.update(m_sys, s.q, m_rowsEval, m_dropped, cj, m_massDiagonal);
  }

  /// Per constraint row, (G M^-1 G^T)_ii and (G G^T)_ii at s, for regularize() (m_kin and
  /// m_massDiagonal at s already).
  void measureRows(const State& s) {
    m_sys.constraints(m_kin, s.t, m_rowsEval);
    const double meanMass = m_nv ? std::max(m_massDiagonal.mean(), 1e-300) : 1.0;
    m_rowMobility.setZero(m_nc);
    m_rowLength.setZero(m_nc);
    const auto& cons = m_sys.constraints();
    for (size_t c = 0; c < cons.size(); ++c) {
      const int off = m_sys.constraintOffsets()[c];
      for (int i = 0; i < cons[c]->rows(); ++i)
        for (size_t k = 0; k < cons[c]->blocks.size(); ++k) {
          const int b = cons[c]->blocks[k];
          if (b < 0) continue;
          const auto g = m_rowsEval[c].G[k].row(i);
          const int v0 = m_sys.block(b).v0;
          for (int j = 0; j < g.size(); ++j) {
            const double m = m_massDiagonal(v0 + j);
            m_rowMobility(off + i) += g(j) * g(j) / (m > 0 ? m : meanMass);
            m_rowLength(off + i) += g(j) * g(j);
          }
        }
    }
  }

  /// Keeps the iteration matrix invertible when the constraint Jacobian G loses rank
  /// (redundant rows, or an instant of singularity): eliminating q and v leaves, per row,
  /// d F_m / d lambda = -(G M^-1 G^T) / cj and d F_l / d mu = (G G^T) / cj; a fraction
  /// kRegularization of their diagonals is added on those entries, so a dependent row no longer
  /// makes the matrix singular. The residual is unchanged, so Newton still converges to the
  /// exact solution, and the multiplier corrections stay in the range of G (the multipliers of
  /// redundant rows keep the minimum-norm split they start with).
  template <class Add>
  void regularize(double cj, Add&& add) {
    for (int r = 0; r < m_nc; ++r) {
      if (!m_dropped.empty() && m_dropped[r]) continue;
      const int l = m_nq + m_nv + r, mu = l + m_nc;
      add(mu, l, -kRegularization * m_rowMobility(r) / cj);                                          // (F_m, lambda)
      if (m_sys.rowKinds()[r] != RowKind::VelocityLevel) add(l, mu, kRegularization * m_rowLength(r) / cj);  // (F_l, mu)
    }
  }

  static int residualFn(double t, N_Vector y, N_Vector yp, N_Vector F, void* user) {
    auto* self = static_cast<Ida*>(user);
    // successive calls are Newton iterates (the Jacobian's differences call residual() directly):
    // their difference is the last correction, for the failure message
    const Eigen::Map<const VecX> yv(N_VGetArrayPointer(y), self->m_N);
    if (self->m_lastIterate.size() == self->m_N) self->m_newtonCorrection = yv - self->m_lastIterate;
    self->m_lastIterate = yv;
    if (t != self->m_residualTime) self->m_residualTime = t, self->m_residualCalls = 0;
    ++self->m_residualCalls;
    self->residual(t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), N_VGetArrayPointer(F));
    return Eigen::Map<VecX>(N_VGetArrayPointer(F), self->m_N).allFinite() ? 0 : 1;  // 1: recoverable
  }
  static int jacobianFn(double t, double cj, N_Vector y, N_Vector yp, N_Vector F, SUNMatrix J, void* user,
                        N_Vector, N_Vector, N_Vector) {
    static_cast<Ida*>(user)->jacobian(t, cj, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), N_VGetArrayPointer(F), J);
    return 0;
  }
  static void errorHandler(int, const char* module, const char* function, char* msg, void* user) {
    static_cast<Ida*>(user)->m_lastError = std::string(module) + "/" + function + ": " + msg;
  }

  const System& m_sys;
  SolverSpec m_spec;
  int m_nb = 0, m_nc = 0, m_N = 0, m_nq = 0, m_nv = 0;
  std::vector<int> m_colStart, m_rows;
  std::vector<std::vector<int>> m_groups;
  SUNContext m_ctx = nullptr;
  void* m_mem = nullptr;
  N_Vector m_y = nullptr, m_yp = nullptr, m_atol = nullptr, m_id = nullptr, m_dky = nullptr;
  SUNMatrix m_A = nullptr;
  SUNLinearSolver m_ls = nullptr;
  double m_t = 0, m_tPrev = 0;
  std::vector<char> m_dropped;  ///< dependent rows left out (empty: none)
  StepHistory m_history;
  ConstraintNorm m_norm;  ///< IDA's error and Newton norm, rebuilt with the iteration matrix
  static constexpr long kPartialAge = 50;
  static constexpr double kPartialCj = 0.25;  ///< IDA's own band
  double m_partialCj = 1;
  VecX m_partial;                     ///< dF/dy at step m_partialStep (-1: none), in the pattern's order
  long m_partialStep = -1;
  std::vector<char> m_partialDropped;  ///< the dependent rows it was taken with
  double m_residualTime = std::numeric_limits<double>::quiet_NaN();
  int m_residualCalls = 0;             ///< IDA's residual calls at m_residualTime since the last setup
  VecX m_lastIterate, m_newtonCorrection;  ///< for the failure message
  std::string m_lastError;
  std::vector<BodyKinematics> m_kin;
  std::vector<ConstraintRows> m_rowsEval;
  VecX m_f, m_GtLambda, m_GtMu, m_vbar, m_massDiagonal;
  VecX m_rowMobility, m_rowLength;  ///< per row, at the last setup (measureRows)
  MatX m_M;
  mutable VecX m_lambda;  ///< currentMultipliers()
  // hand-overs to generalized-alpha (file comment)
  struct Handover {
    double t0, t1;
  };
  std::vector<Handover> m_handovers;
  std::unique_ptr<Integrator> m_handover;  ///< the current or last one
  bool m_handingOver = false;              ///< steps go to m_handover
  bool m_lastStepHandedOver = false;       ///< the last accepted step was m_handover's
  int m_handoversInARow = 0;
  long m_handedOverSteps = 0;              ///< steps of the earlier hand-overs
  std::string m_handoverFailure;           ///< IDA's failure that started the current one
  std::deque<double> m_recentSteps;        ///< IDA's last accepted step sizes
  long m_stepsSinceRestart = 0;            ///< IDA's accepted steps since it (re)started
  IntegratorStats m_earlierStats;          ///< counters of IDA before its restarts and of earlier hand-overs
  ConsistentState m_consistent;            ///< projects the state handed over (run layer)
};

}  // namespace

std::unique_ptr<Integrator> makeIda(const System& sys, const SolverSpec& spec) {
  return std::make_unique<Ida>(sys, spec);
}

}  // namespace flexim
