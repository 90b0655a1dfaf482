// The mixed timestepping integrator (see mixed_timestepping.h). Per step:
//  1. the base scheme's stages by Newton: each iteration linearises the equations of motion and
//     the joints' rows at the iterate (iteration matrix [M + CV C_t + CQ K_t, G^T; G, 0]: the KKT
//     matrix for one stage, a dense matrix for ED-alpha's two), and solves the contact forces of
//     the contacts closed at t_n on velocity level in prox form with the Delassus matrix of that
//     linearisation (Gauss-Newton with a pseudo-inverse, core/integrators/contact_solver.h);
//  2. the velocities are projected onto the joints' velocity constraints (mass metric);
//  3. if a gap closed in the step, Newton's impact law on every contact closed at t_{n+1} gives the
//     impulses, and v+ = v- + M^-1 W^T Lambda (with the joints held at velocity level).
// Moreau's midpoint scheme does 1 and 3 in one: a linearly implicit velocity update at the
// midpoint with the impact law on the contacts closed there; the half-explicit scheme (HETS) an
// explicit one at the step's end.
#include "core/integrators/mixed_timestepping.h"

#include "core/integrators/contact_solver.h"
#include "core/integrators/dense_output.h"
#include "core/integrators/diagnosis.h"
#include "core/integrators/iteration_matrix.h"
#include "core/system/kkt.h"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>

namespace flexim {

GeneralizedAlphaCoefficients GeneralizedAlphaCoefficients::fromRho(double rho) {
  rho = std::clamp(rho, 0.0, 1.0);
  GeneralizedAlphaCoefficients c;
  c.am = (2 * rho - 1) / (rho + 1);
  c.af = rho / (rho + 1);
  c.gamma = 0.5 - c.am + c.af;
  c.beta = 0.25 * (1 - c.am + c.af) * (1 - c.am + c.af);
  return c;
}

SchemeStages GeneralizedAlphaCoefficients::stage(double h, const VecX& v, const VecX& a, const VecX& A) const {
  // A_{n+1} = ((1 - af) a_{n+1} + af a_n - am A_n) / (1 - am)
  const VecX A0 = (af * a - am * A) / (1 - am);
  const double c = (1 - af) / (1 - am);
  SchemeStages s;
  s.dt[0] = h;
  s.vbar[0] = v + h * (1 - gamma) * A + h * gamma * A0;
  s.dbar[0] = h * v + h * h * (0.5 - beta) * A + h * h * beta * A0;
  s.CV[0][0] = h * gamma * c;
  s.CQ[0][0] = h * h * beta * c;
  return s;
}

VecX GeneralizedAlphaCoefficients::auxiliary(const VecX& aNext, const VecX& a, const VecX& A) const {
  return ((1 - af) * aNext + af * a - am * A) / (1 - am);
}

SchemeStages BatheStages::first(double h, const VecX& v, const VecX& a) {
  // v_{1/2} = v_n + h/4 (a_n + x), q_{1/2} = q_n + h/4 (v_n + v_{1/2})
  SchemeStages s;
  s.dt[0] = 0.5 * h;
  s.vbar[0] = v + 0.25 * h * a;
  s.dbar[0] = 0.5 * h * v + h * h / 16 * a;
  s.CV[0][0] = 0.25 * h;
  s.CQ[0][0] = h * h / 16;
  return s;
}

SchemeStages BatheStages::second(double h, const VecX& v, const VecX& vHalf, const VecX& dHalf) {
  // v_{n+1} = (q_n - 4 q_{1/2} + 3 q_{n+1}) / h,  x = a_{n+1} = (v_n - 4 v_{1/2} + 3 v_{n+1}) / h
  SchemeStages s;
  s.dt[0] = h;
  s.vbar[0] = (4 * vHalf - v) / 3;
  s.dbar[0] = (h * s.vbar[0] + 4 * dHalf) / 3;
  s.CV[0][0] = h / 3;
  s.CQ[0][0] = h * h / 9;
  return s;
}

EdAlphaCoefficients EdAlphaCoefficients::fromRho(double rho) {
  rho = std::clamp(rho, 0.0, 1.0);
  EdAlphaCoefficients c;
  c.alpha = (1 - rho) / (1 + rho);
  return c;
}

SchemeStages EdAlphaCoefficients::stages(double h, const VecX& v, const VecX& a) const {
  // (Bottasso; Rezaei and Schindler eqs. 79-82), x = (a_j, a_{n+1}):
  //   v_j = v_n + h aAR [alpha (a_j - a_n) - a_{n+1} + a_n],  v_{n+1} = v_n + h/2 (a_j + a_{n+1}),
  //   q_j = q_n + h aAR [alpha (v_j - v_n) - v_{n+1} + v_n],  q_{n+1} = q_n + h/2 (v_j + v_{n+1})
  const double k = h * alphaAR;
  SchemeStages s;
  s.count = 2;
  s.dt = {0.0, h};
  s.vbar[0] = v + k * (1 - alpha) * a;
  s.vbar[1] = v;
  s.CV[0] = {k * alpha, -k};
  s.CV[1] = {0.5 * h, 0.5 * h};
  s.accelerationLevel[0] = true;  // q_j = q_n - h^2 aAR a + ...: not a point of the trajectory
  s.dbar[0] = k * alpha * (s.vbar[0] - v);
  s.dbar[1] = 0.5 * h * (s.vbar[0] + s.vbar[1]);
  for (int t = 0; t < 2; ++t) {
    s.CQ[0][t] = k * (alpha * s.CV[0][t] - s.CV[1][t]);
    s.CQ[1][t] = 0.5 * h * (s.CV[0][t] + s.CV[1][t]);
  }
  return s;
}

namespace {

enum class Scheme { GenAlpha, Bathe, EdAlpha, Moreau, Hets };

/// Where a contact point comes from: a contact element, or a unilateral row of a constraint
/// element (a joint limit: frictionless, plastic).
struct ContactSource {
  int element = -1;                ///< System::contacts() index, or -1
  int constraint = -1, row = 0;    ///< constraint element and its row, when element < 0
  ContactLaw law;
  int tangents = 0;
  std::string label;
};

/// What a contact point did in the last step (the outputs).
struct ContactOutput {
  double gap = 0, normalVelocity = 0, normalForce = 0, normalImpulse = 0;
  Eigen::Vector2d tangentialForce = Eigen::Vector2d::Zero(), tangentialImpulse = Eigen::Vector2d::Zero();
  int status = 0;  ///< 0 open, 1 closed (sticking), 2 closed and slipping
  long impacts = 0;
};

/// Newton increments that shrink by less than this factor have stalled.
constexpr double kStallRatio = 0.5;
/// A gap at most this large counts as closed [m or rad]: a contact at rest sits at a gap of
/// round-off size of either sign, and must not open and close from step to step.
constexpr double kClosedGap = 1e-10;

class MixedTimestepping final : public Integrator {
 public:
  MixedTimestepping(const System& sys, const SolverSpec& spec)
      : m_sys(sys), m_spec(spec), m_S(sys, true, true), m_mass(sys, false), m_h(spec.step), m_hNominal(spec.step) {
    switch (spec.integrator) {
      case IntegratorType::MixedBathe: m_scheme = Scheme::Bathe; break;
      case IntegratorType::MixedEdAlpha: m_scheme = Scheme::EdAlpha; break;
      case IntegratorType::Moreau: m_scheme = Scheme::Moreau; break;
      case IntegratorType::Hets: m_scheme = Scheme::Hets; break;
      default: m_scheme = Scheme::GenAlpha; break;
    }
    m_ga = GeneralizedAlphaCoefficients::fromRho(spec.rho_inf);
    m_ed = EdAlphaCoefficients::fromRho(spec.rho_inf);
    m_settings.tol = spec.contact_tol;
    m_settings.iterations = spec.contact_iterations;
    // the joints in the matrices; joint limits (unilateral rows) are contacts
    m_active.assign(std::size_t(sys.nc()), 1);
    for (int r = 0; r < sys.nc(); ++r)
      if (sys.rowKinds()[std::size_t(r)] == RowKind::Unilateral) m_active[std::size_t(r)] = 0;
    m_S.setActiveRows(m_active);
    m_mass.setActiveRows(m_active);
    for (int k = 0; k < static_cast<int>(sys.contacts().size()); ++k) {
      const ContactElement& e = *sys.contacts()[std::size_t(k)];
      m_sources.push_back({k, -1, 0, e.law, e.tangents, e.label});
    }
    for (int c = 0; c < static_cast<int>(sys.constraints().size()); ++c)
      for (int i = 0; i < sys.constraints()[std::size_t(c)]->rows(); ++i)
        if (sys.rowKinds()[std::size_t(sys.constraintOffsets()[std::size_t(c)] + i)] == RowKind::Unilateral)
          m_sources.push_back({-1, c, i, sys.constraints()[std::size_t(c)]->unilateralLaw, 0,
                               sys.constraints()[std::size_t(c)]->label});
  }

  std::string name() const override {
    const char* base = m_scheme == Scheme::GenAlpha  ? "generalized-alpha"
                       : m_scheme == Scheme::Bathe   ? "Bathe"
                       : m_scheme == Scheme::EdAlpha ? "ED-alpha"
                                                     : "";
    if (m_scheme == Scheme::Moreau) return "Moreau midpoint timestepping (first order, prox contacts)";
    if (m_scheme == Scheme::Hets)
      return "half-explicit timestepping (HETS: first order, explicit in the forces, prox contacts)";
    return std::string("mixed timestepping, ") + base +
           " base scheme (Rezaei-Schindler; joints index-3 + velocity projection, prox contacts)";
  }
  std::string settings() const override {
    std::ostringstream s;
    s << "h=" << m_hNominal;
    if (m_scheme == Scheme::GenAlpha || m_scheme == Scheme::EdAlpha) s << " rho_inf=" << m_spec.rho_inf;
    s << " newton_tol=" << m_spec.newton_tol << " prox_r=" << m_spec.prox_r << " ("
      << toString(m_spec.prox_scaling) << ") contact_tol=" << m_spec.contact_tol;
    return s.str();
  }

  bool initialize(const State& s0, const VecX& vdot0, const VecX& lambda0, std::string& error) override {
    m_cur.s = s0;
    m_cur.vminus = s0.v;
    m_cur.a = vdot0;
    m_cur.A = vdot0;
    m_cur.lambda = lambda0;
    for (int r = 0; r < m_sys.nc(); ++r)
      if (!m_active[std::size_t(r)]) m_cur.lambda(r) = 0;
    m_outputs.assign(m_sources.size(), {});
    if (!gapsAt(m_cur.s, m_cur.gaps, error)) return false;
    for (std::size_t k = 0; k < m_sources.size(); ++k) m_outputs[k].gap = m_cur.gaps(Eigen::Index(k));
    if (!initialContactForces(error)) return false;
    if (!checkStepAgainstFrequencies(error)) return false;
    m_prev = m_cur;
    return true;
  }

  const std::vector<char>* activeRows() const override { return &m_active; }
  void setDependentRows(const std::vector<char>&) override {
    m_S.setRegularization(KktMatrix::Regularization::Always);
    m_mass.setRegularization(KktMatrix::Regularization::Always);
  }

  bool step(double t_stop, std::string& error) override {
    for (;;) {
      double h = std::min(m_h, t_stop - m_cur.s.t);
      // no sliver of a step before t_stop
      if (t_stop - m_cur.s.t - h < 1e-9 * h) h = t_stop - m_cur.s.t;
      Point next;
      std::string why;
      const bool ok = m_scheme == Scheme::Moreau ? moreauStep(h, next, why)
                      : m_scheme == Scheme::Hets ? hetsStep(h, next, why)
                                                 : baseStep(h, next, why) && finishStep(h, next, why);
      if (ok) {
        m_prev = m_cur;
        m_cur = std::move(next);
        ++m_stats.steps;
        m_history.accepted(h);
        if (m_h < m_hNominal && ++m_goodSteps >= 4) {
          m_h = std::min(2 * m_h, m_hNominal);
          m_goodSteps = 0;
        }
        return true;
      }
      ++m_stats.failures;
      m_goodSteps = 0;
      m_history.tried(h);
      m_h = 0.5 * h;
      if (m_h < 1e-8 * m_hNominal || m_h < 1e-15) {
        error = name() + ": the step failed at t=" + fmt(m_cur.s.t) + " even with step " + fmt(m_h) + ": " + why + "; " +
                m_history.str();
        return false;
      }
    }
  }

  double time() const override { return m_cur.s.t; }
  double previousTime() const override { return m_prev.s.t; }

  void interpolate(double t, State& out) const override {
    const double h = m_cur.s.t - m_prev.s.t;
    if (h <= 0 || t >= m_cur.s.t) {
      out = m_cur.s;
      out.t = t;
      return;
    }
    // between the post-impact velocity of the last point and the pre-impact velocity of this one
    // (the velocities jump only at the points)
    interpolateHermite(m_sys, t, m_prev.s.t, m_prev.s.q, m_prev.s.v, m_prev.a, m_cur.s.t, m_cur.s.q, m_cur.vminus,
                       m_cur.a, out);
  }

  IntegratorStats stats() const override {
    IntegratorStats s = m_stats;
    s.pattern_analyses = m_S.analyses() + m_mass.analyses();
    return s;
  }

  void currentState(State& out) const override { out = m_cur.s; }
  /// The joints' multipliers of the last stage carry the scheme's error (index 3: O(h), from the
  /// stage's positions): the monitor corrects them from exact ones now and then.
  const VecX* schemeMultipliers() const override { return &m_cur.lambda; }
  const double* contactWork() const override { return &m_cur.contactWork; }

  bool sampleDynamics(double t, VecX& vdot, VecX& lambda) const override {
    const bool atPoint = t >= m_cur.s.t * (1 - 1e-13) - 1e-15;
    vdot = atPoint || m_cur.s.t <= m_prev.s.t
               ? m_cur.a
               : VecX(m_prev.a + (t - m_prev.s.t) / (m_cur.s.t - m_prev.s.t) * (m_cur.a - m_prev.a));
    lambda = m_cur.lambda;
    return true;
  }

  std::vector<ContactChannelValues> contactValues() const override {
    std::vector<ContactChannelValues> out;
    for (std::size_t k = 0; k < m_sources.size(); ++k) {
      if (m_sources[k].element < 0) continue;  // joint limits have no contact channels
      const ContactOutput& o = m_outputs[k];
      out.push_back({o.gap, o.normalVelocity, o.normalForce, o.tangentialForce, o.normalImpulse, o.tangentialImpulse,
                     o.status, o.impacts});
    }
    return out;
  }

  std::vector<std::string> notes() const override {
    std::vector<std::string> n;
    if (m_impactSteps > 0) {
      std::ostringstream s;
      s << m_impactSteps << " step" << (m_impactSteps == 1 ? "" : "s") << " ended with an impact (impulsive correction)";
      n.push_back(s.str());
    }
    if (m_maxPenetration > kClosedGap) {
      std::ostringstream s;
      s.precision(3);
      s << "largest penetration " << m_maxPenetration << " m (" << m_sources[m_worstPenetration].label << ", t = "
        << m_penetrationTime << " s): contacts are held on velocity level, so a closed gap keeps the penetration it "
        << "closed with";
      n.push_back(s.str());
    }
    if (!m_frequencyNote.empty()) n.push_back(m_frequencyNote);
    if (m_fallbacks > 0)
      n.push_back("the contact solver fell back to fixed-point iterations in " + std::to_string(m_fallbacks) +
                  " solves (Gauss-Newton did not converge)");
    return n;
  }

 private:
  struct Point {
    State s;      ///< v: the post-impact velocity v+
    VecX vminus;  ///< pre-impact velocity
    VecX a, A, lambda;
    VecX gaps;    ///< of every contact source at s.q
    double contactWork = 0;  ///< of the contact forces and impulses since the start [J]
  };

  /// One stage system's unknowns and data at an iterate.
  struct StageData {
    SchemeStages map;
    std::array<VecX, 2> x, lambda;
    std::array<State, 2> state;
    std::array<VecX, 2> dq;
    std::array<std::vector<BodyKinematics>, 2> kin;
    std::array<std::vector<ConstraintRows>, 2> rows;
    std::array<VecX, 2> f;
    std::array<MatX, 2> W;     ///< contact Jacobians of the closed set at each stage (rows x nv)
    VecX lambdaC;              ///< contact forces of the closed set, stacked over the stages
  };

  static std::string fmt(double x) {
    std::ostringstream s;
    s << x;
    return s.str();
  }

  /// The contact rows W of the points in `set` at m_kin/m_rows, and the response Y = S^-1 [W^T; 0]
  /// (all n_v + n_c rows) with the factorised matrix S.
  bool contactResponse(const std::vector<int>& set, const KktMatrix& S, MatX& W, MatX& Y, std::string& why) {
    const int nv = m_sys.nv(), nc = m_sys.nc();
    contactJacobian(set, m_kin, m_rows, W);
    Y.resize(nv + nc, W.rows());
    VecX y;
    for (int j = 0; j < W.rows(); ++j) {
      y.setZero(nv + nc);
      y.head(nv) = W.row(j).transpose();
      if (!S.solve(y)) {
        why = "linear solve failed (contact response)";
        return false;
      }
      Y.col(j) = y;
    }
    return true;
  }

  /// Newton's impact law's target: adds eps (times the pre-impact velocities `pre`) to F, per point
  /// of `set` (eps_N on the normal row, eps_T on the tangential ones).
  void addRestitution(const std::vector<int>& set, const VecX& pre, VecX& F) const {
    int r = 0;
    for (int k : set) {
      const ContactSource& c = m_sources[std::size_t(k)];
      F(r) += c.law.restitution * pre(r);
      F.segment(r + 1, c.tangents) += c.law.tangential_restitution * pre.segment(r + 1, c.tangents);
      r += 1 + c.tangents;
    }
  }

  /// The accelerations at the start with the forces of the contacts closed there (a block at
  /// rest on a slope): the velocity-level contact problem over one step with the mass matrix,
  /// a_0 = a_free + M^-1 W^T lambda (the joints held). The base schemes start from a_0; the
  /// accelerations of free motion would put an error of O(h) into the first step's velocities.
  bool initialContactForces(std::string& error) {
    std::vector<int> closed;
    for (std::size_t k = 0; k < m_sources.size(); ++k)
      if (m_cur.gaps(Eigen::Index(k)) <= kClosedGap) closed.push_back(static_cast<int>(k));
    if (closed.empty() || m_h <= 0) return true;
    const int nv = m_sys.nv(), nc = m_sys.nc();
    m_sys.kinematics(m_cur.s, m_kin);
    m_sys.constraints(m_kin, m_cur.s.t, m_rows);
    if (!factorMass(m_kin, m_rows)) {
      error = "initial contact forces: singular mass matrix with the joints";
      return false;
    }
    MatX W, Y;
    if (!contactResponse(closed, m_mass, W, Y, error)) {
      error = "initial contact forces: " + error;
      return false;
    }
    const int m = static_cast<int>(W.rows());
    ContactProblem p;
    p.D = m_h * W * Y.topRows(nv);
    p.F = W * (m_cur.s.v + m_h * m_cur.a);
    layout(closed, p, m_h, false);
    VecX lambda = VecX::Zero(m);
    if (!solveContacts(p, lambda, closed, error)) {
      error = "initial contact forces: " + error;
      return false;
    }
    m_cur.a += Y.topRows(nv) * lambda;
    m_cur.A = m_cur.a;
    m_cur.lambda += Y.bottomRows(nc) * lambda;
    m_lastForces = lambda;
    m_lastClosed = closed;
    return true;
  }

  // ---- contact points -------------------------------------------------------------------

  /// Gaps of every contact source at state s.
  bool gapsAt(const State& s, VecX& gaps, std::string& error) {
    gaps.resize(Eigen::Index(m_sources.size()));
    if (m_sources.empty()) return true;
    m_sys.kinematics(s, m_kinG);
    m_sys.constraints(m_kinG, s.t, m_rowsG);
    for (std::size_t k = 0; k < m_sources.size(); ++k) {
      const ContactSource& c = m_sources[k];
      if (c.element >= 0) {
        m_sys.contact(c.element, m_kinG, m_point);
        gaps(Eigen::Index(k)) = m_point.gap;
      } else {
        gaps(Eigen::Index(k)) = m_rowsG[std::size_t(c.constraint)].phi(c.row);
      }
      if (!std::isfinite(gaps(Eigen::Index(k)))) {
        error = c.label + ": the gap is not finite";
        return false;
      }
    }
    return true;
  }

  /// Rows of the contact points in `set` (sources) at kinematics kin: W (rows x nv, normal then
  /// tangents per point), and the problem's layout.
  void contactJacobian(const std::vector<int>& set, const std::vector<BodyKinematics>& kin,
                       const std::vector<ConstraintRows>& rows, MatX& W, VecX* gaps = nullptr) {
    int n = 0;
    for (int k : set) n += 1 + m_sources[std::size_t(k)].tangents;
    W.setZero(n, m_sys.nv());
    if (gaps) gaps->resize(Eigen::Index(set.size()));
    int r = 0;
    for (std::size_t i = 0; i < set.size(); ++i) {
      const ContactSource& c = m_sources[std::size_t(set[i])];
      if (c.element >= 0) {
        m_sys.contact(c.element, kin, m_point);
        const ContactElement& e = *m_sys.contacts()[std::size_t(c.element)];
        for (std::size_t b = 0; b < e.blocks.size(); ++b)
          if (e.blocks[b] >= 0) {
            const Block& B = m_sys.block(e.blocks[b]);
            W.block(r, B.v0, 1 + c.tangents, B.nv()) += m_point.W[b];
          }
        if (gaps) (*gaps)(Eigen::Index(i)) = m_point.gap;
      } else {
        const ConstraintElement& e = *m_sys.constraints()[std::size_t(c.constraint)];
        const ConstraintRows& R = rows[std::size_t(c.constraint)];
        for (std::size_t b = 0; b < e.blocks.size(); ++b)
          if (e.blocks[b] >= 0) {
            const Block& B = m_sys.block(e.blocks[b]);
            W.block(r, B.v0, 1, B.nv()) += R.G[b].row(c.row);
          }
        if (gaps) (*gaps)(Eigen::Index(i)) = R.phi(c.row);
      }
      r += 1 + c.tangents;
    }
  }

  /// The contact problem's layout for `set`, its prox parameters from the Delassus matrix D
  /// (rImpulse: the impulse form, r = prox_r h).
  void layout(const std::vector<int>& set, ContactProblem& p, double h, bool impulse) const {
    p.offset.clear();
    p.tangents.clear();
    p.mu.clear();
    p.r.clear();
    int r = 0;
    for (int k : set) {
      const ContactSource& c = m_sources[std::size_t(k)];
      p.offset.push_back(r);
      p.tangents.push_back(c.tangents);
      p.mu.push_back(c.law.friction);
      double rk = impulse ? m_spec.prox_r * h : m_spec.prox_r;
      if (m_spec.prox_scaling == ProxScaling::PerContact && p.D.rows() > r && p.D(r, r) > 0)
        rk = m_spec.prox_r / p.D(r, r);
      p.r.push_back(rk);
      r += 1 + c.tangents;
    }
  }

  bool solveContacts(const ContactProblem& p, VecX& lambda, const std::vector<int>& set, std::string& why) {
    ContactSolveReport report;
    const bool ok = solveContactProblem(p, m_settings, lambda, report);
    if (report.fallback) ++m_fallbacks;
    if (!ok) {
      std::string names;
      for (std::size_t i = 0; i < set.size() && i < 4; ++i) names += (i ? ", " : "") + m_sources[std::size_t(set[i])].label;
      why = "the contact equations of " + names + " have no solution to the tolerance (residual " + fmt(report.residual) +
            " after " + std::to_string(report.iterations) + " iterations)";
    }
    return ok;
  }

  // ---- the base schemes' stages ------------------------------------------------------------

  /// Newton on the stages of `d.map` from m_cur, with contact forces on the points in `set`.
  bool solveStages(StageData& d, const std::vector<int>& set, std::string& why) {
    const int S = d.map.count, nv = m_sys.nv(), nc = m_sys.nc();
    const int N = S * (nv + nc);
    const auto& kinds = m_sys.rowKinds();
    auto xOf = [&](int s) { return s * nv; };
    auto lOf = [&](int s) { return S * nv + s * nc; };
    auto place = [&](int s) {
      State& st = d.state[std::size_t(s)];
      st.t = m_cur.s.t + d.map.dt[std::size_t(s)];
      st.v = d.map.vbar[std::size_t(s)];
      d.dq[std::size_t(s)] = d.map.dbar[std::size_t(s)];
      for (int t = 0; t < S; ++t) {
        st.v += d.map.CV[std::size_t(s)][std::size_t(t)] * d.x[std::size_t(t)];
        d.dq[std::size_t(s)] += d.map.CQ[std::size_t(s)][std::size_t(t)] * d.x[std::size_t(t)];
      }
      st.q = m_cur.s.q;
      m_sys.retract(st.q, d.dq[std::size_t(s)]);
    };
    VecX rhs(N), phiScaled(S * nc), dz, y;
    double prev = 0;
    bool fresh = false;  // the matrix was refreshed at a later iterate already
    bool valid = false;
    int m = 0;           // contact rows per stage
    for (int k = 0; k < m_spec.max_newton; ++k) {
      double phiNorm = 0;
      for (int s = 0; s < S; ++s) {
        place(s);
        const std::size_t z = std::size_t(s);
        m_sys.kinematics(d.state[z], d.kin[z]);
        m_sys.forces(d.kin[z], d.state[z].t, d.f[z]);
        m_sys.constraints(d.kin[z], d.state[z].t, d.rows[z]);
        // residual f - M x - G^T lambda + W^T lambda_c
        auto r = rhs.segment(xOf(s), nv);
        r = d.f[z];
        for (int b = 0; b < m_sys.nblocks(); ++b) {
          const Block& B = m_sys.block(b);
          B.formulation->subtractMassTimes(d.kin[z][std::size_t(b) + 1], d.x[z].segment(B.v0, B.nv()),
                                           r.segment(B.v0, B.nv()));
        }
        m_Gtl.setZero(nv);
        addConstraintForces(m_sys, d.rows[z], d.lambda[z], m_Gtl);
        r -= m_Gtl;
        contactJacobian(set, d.kin[z], d.rows[z], d.W[z]);
        m = static_cast<int>(d.W[z].rows());
        if (m > 0) r += d.W[z].transpose() * d.lambdaC.segment(s * m, m);
        // the joints' rows: Phi / CQ_ss, velocity-level rows (G v + Phi_t) / CV_ss, on
        // acceleration level G x + Gamma
        const double cq = d.map.CQ[z][z], cv = d.map.CV[z][z];
        const bool accelerations = d.map.accelerationLevel[z];
        for (std::size_t c = 0; c < d.rows[z].size(); ++c) {
          const int off = m_sys.constraintOffsets()[c], n = m_sys.constraints()[c]->rows();
          if (m_vel.size() < n) m_vel.resize(n);
          constraintVelocity(m_sys, static_cast<int>(c), d.rows[z][c], accelerations ? d.x[z] : d.state[z].v,
                             m_vel.head(n));
          for (int i = 0; i < n; ++i) {
            const int row = off + i;
            double value = 0, scaled = 0;
            if (!m_active[std::size_t(row)]) {
            } else if (accelerations) {
              scaled = m_vel(i) - d.rows[z][c].phit(i) + d.rows[z][c].gamma(i);
              value = std::abs(cq) * scaled;
            } else if (kinds[std::size_t(row)] == RowKind::VelocityLevel) {
              value = cq / cv * m_vel(i);
              scaled = m_vel(i) / cv;
            } else {
              value = d.rows[z][c].phi(i);
              scaled = value / cq;
            }
            phiScaled(s * nc + row) = scaled;
            phiNorm = std::max(phiNorm, std::abs(value));
          }
        }
        rhs.segment(lOf(s), nc) = -phiScaled.segment(s * nc, nc);
      }
      if (!rhs.allFinite()) {
        why = "non-finite residual";
        return false;
      }
      if (!valid) {
        if (!assembleStages(d)) {
          why = "singular iteration matrix (redundant or inconsistent constraints?)";
          return false;
        }
        valid = true;
      }
      dz = rhs;
      if (!solveLinear(S, dz)) {
        why = "linear solve failed";
        return false;
      }
      ++m_stats.newton_iterations;
      // contact forces with the Delassus matrix of this linearisation
      if (m > 0) {
        const int M = S * m;
        m_Y.resize(N, M);
        for (int s = 0; s < S; ++s)
          for (int j = 0; j < m; ++j) {
            y.setZero(N);
            y.segment(xOf(s), nv) = d.W[std::size_t(s)].row(j).transpose();
            if (!solveLinear(S, y)) {
              why = "linear solve failed (contact response)";
              return false;
            }
            m_Y.col(s * m + j) = y;
          }
        // a stage that is no point of the trajectory (ED-alpha's t_n^+, whose velocity hardly
        // depends on the forces) takes the contact forces of the step's end, where the velocity
        // conditions hold: held there, a slip that stops within the step would need unbounded
        // forces
        const bool tied = S == 2 && d.map.accelerationLevel[0];
        if (tied) {
          m_Y.leftCols(m) += m_Y.middleCols(m, m);
          m_Y.conservativeResize(Eigen::NoChange, m);
        }
        const int first = tied ? S - 1 : 0, Mc = tied ? m : M;
        // gap velocities: gdot_s = W_s v_s, v_s affine in the stages' x
        ContactProblem p;
        p.D.setZero(Mc, Mc);
        p.F.resize(Mc);
        for (int s = first; s < S; ++s) {
          VecX vNew = d.state[std::size_t(s)].v;
          MatX dv = MatX::Zero(nv, Mc);
          for (int t = 0; t < S; ++t) {
            const double cvst = d.map.CV[std::size_t(s)][std::size_t(t)];
            vNew += cvst * dz.segment(xOf(t), nv);
            dv += cvst * m_Y.middleRows(xOf(t), nv);
          }
          p.F.segment((s - first) * m, m) = d.W[std::size_t(s)] * vNew;
          p.D.middleRows((s - first) * m, m) = d.W[std::size_t(s)] * dv;
        }
        const VecX lambdaOld = d.lambdaC.tail(Mc);
        p.F -= p.D * lambdaOld;
        std::vector<int> stacked;
        for (int s = first; s < S; ++s) stacked.insert(stacked.end(), set.begin(), set.end());
        layout(stacked, p, 0.0, false);
        VecX lambdaNew = lambdaOld;
        if (!solveContacts(p, lambdaNew, set, why)) return false;
        dz += m_Y * (lambdaNew - lambdaOld);
        if (tied) d.lambdaC << lambdaNew, lambdaNew;
        else d.lambdaC = lambdaNew;
      }
      double incr = 0;
      for (int s = 0; s < S; ++s) {
        VecX dq = VecX::Zero(nv);
        for (int t = 0; t < S; ++t) dq += d.map.CQ[std::size_t(s)][std::size_t(t)] * dz.segment(xOf(t), nv);
        incr = std::max(incr, dq.lpNorm<Eigen::Infinity>());
        d.x[std::size_t(s)] += dz.segment(xOf(s), nv);
        d.lambda[std::size_t(s)] += dz.segment(lOf(s), nc);
      }
      const double theta = k > 0 && prev > 0 ? incr / prev : 1.0;
      const double remaining = theta < 0.5 ? theta / (1 - theta) * incr : incr;
      if (remaining <= m_spec.newton_tol && phiNorm <= 10 * m_spec.newton_tol) {
        for (int s = 0; s < S; ++s) place(s);
        return true;
      }
      if (k > 0 && theta > kStallRatio) {
        if (fresh) {
          why = "Newton iterations do not converge (largest position correction " + fmt(incr) + ")";
          return false;
        }
        fresh = true;
        valid = false;
      }
      prev = incr;
    }
    why = "no convergence in " + std::to_string(m_spec.max_newton) + " Newton iterations";
    return false;
  }

  /// The iteration matrix of the stages at the current iterate: the KKT matrix for one stage,
  /// a dense LU for two.
  bool assembleStages(StageData& d) {
    const int S = d.map.count, nv = m_sys.nv(), nc = m_sys.nc();
    if (S == 1) {
      m_S.setZero();
      m_blocks.assemble(d.kin[0], d.state[0].t, d.lambda[0], 1.0, d.map.CQ[0][0], d.map.CV[0][0],
                        [this](int b1, int b2, const MatX& block) { m_S.addBodyBlock(b1, b2, block); });
      m_S.setConstraints(d.rows[0]);
      return m_S.factor();
    }
    const int N = S * (nv + nc);
    MatX J = MatX::Zero(N, N);
    const auto& kinds = m_sys.rowKinds();
    for (int s = 0; s < S; ++s) {
      const std::size_t z = std::size_t(s);
      // M, C_t and K_t (with the joints' geometric stiffness) of stage s, each alone
      MatX Ms = MatX::Zero(nv, nv), Cs = Ms, Ks = Ms;
      auto into = [&](MatX& T) {
        return [&, this](int b1, int b2, const MatX& block) {
          const Block &B1 = m_sys.block(b1), &B2 = m_sys.block(b2);
          T.block(B1.v0, B2.v0, block.rows(), block.cols()) += block;
        };
      };
      m_blocks.assemble(d.kin[z], d.state[z].t, d.lambda[z], 1.0, 0.0, 0.0, into(Ms));
      m_blocks.assemble(d.kin[z], d.state[z].t, d.lambda[z], 0.0, 0.0, 1.0, into(Cs));
      m_blocks.assemble(d.kin[z], d.state[z].t, d.lambda[z], 0.0, 1.0, 0.0, into(Ks));
      for (int t = 0; t < S; ++t) {
        auto blk = J.block(s * nv, t * nv, nv, nv);
        blk = d.map.CV[z][std::size_t(t)] * Cs + d.map.CQ[z][std::size_t(t)] * Ks;
        if (s == t) blk += Ms;
      }
      // G of the stage (dense)
      MatX G = MatX::Zero(nc, nv);
      for (std::size_t c = 0; c < d.rows[z].size(); ++c) {
        const ConstraintElement& e = *m_sys.constraints()[c];
        const int off = m_sys.constraintOffsets()[c];
        for (std::size_t b = 0; b < e.blocks.size(); ++b)
          if (e.blocks[b] >= 0) {
            const Block& B = m_sys.block(e.blocks[b]);
            G.block(off, B.v0, e.rows(), B.nv()) += d.rows[z][c].G[b];
          }
      }
      const int l0 = S * nv + s * nc;
      for (int i = 0; i < nc; ++i) {
        if (!m_active[std::size_t(i)]) {
          J(l0 + i, l0 + i) = 1.0;
          continue;
        }
        J.block(s * nv, l0 + i, nv, 1) = G.row(i).transpose();
        const bool velocity = kinds[std::size_t(i)] == RowKind::VelocityLevel;
        for (int t = 0; t < S; ++t) {
          const double c = d.map.accelerationLevel[z] ? (s == t ? 1.0 : 0.0)
                           : velocity ? d.map.CV[z][std::size_t(t)] / d.map.CV[z][z]
                                      : d.map.CQ[z][std::size_t(t)] / d.map.CQ[z][z];
          J.block(l0 + i, t * nv, 1, nv) = c * G.row(i);
        }
      }
    }
    if (!J.allFinite()) return false;
    // partial pivoting while the matrix is well conditioned; full pivoting (a solution of a
    // consistent singular system: dependent joint rows) otherwise
    m_partial.compute(J);
    m_full = !(m_partial.rcond() > 1e-13);
    if (m_full) m_dense.compute(J);
    return !m_full || m_dense.rank() > 0;
  }

  bool solveLinear(int stages, VecX& rhs) {
    if (stages == 1) return m_S.solve(rhs);
    rhs = m_full ? VecX(m_dense.solve(rhs)) : VecX(m_partial.solve(rhs));
    return rhs.allFinite();
  }

  /// The stages of a step h from m_cur into `next` (pre-impact: next.s.v = v-).
  bool baseStep(double h, Point& next, std::string& why) {
    // contacts closed at the step's start carry forces within the step
    std::vector<int> closed;
    for (std::size_t k = 0; k < m_sources.size(); ++k)
      if (m_cur.gaps(Eigen::Index(k)) <= kClosedGap) closed.push_back(static_cast<int>(k));
    StageData d;
    auto start = [&](const SchemeStages& map, const VecX& x0) {
      d.map = map;
      for (int s = 0; s < map.count; ++s) {
        d.x[std::size_t(s)] = x0;
        d.lambda[std::size_t(s)] = m_cur.lambda;
      }
      int rows = 0;
      for (int k : closed) rows += 1 + m_sources[std::size_t(k)].tangents;
      d.lambdaC.setZero(map.count * rows);
    };
    next = Point{};
    switch (m_scheme) {
      case Scheme::GenAlpha: {
        start(m_ga.stage(h, m_cur.s.v, m_cur.a, m_cur.A), m_cur.a);
        if (!solveStages(d, closed, why)) return false;
        next.a = d.x[0];
        next.A = m_ga.auxiliary(d.x[0], m_cur.a, m_cur.A);
        break;
      }
      case Scheme::Bathe: {
        start(BatheStages::first(h, m_cur.s.v, m_cur.a), m_cur.a);
        if (!solveStages(d, closed, why)) {
          why = "first half step: " + why;
          return false;
        }
        const VecX vHalf = d.state[0].v, dHalf = d.dq[0], aHalf = d.x[0];
        const VecX lambdaHalf = d.lambda[0], contactsHalf = d.lambdaC;
        start(BatheStages::second(h, m_cur.s.v, vHalf, dHalf), aHalf);
        d.lambda[0] = lambdaHalf;
        d.lambdaC = contactsHalf;
        if (!solveStages(d, closed, why)) {
          why = "second half step: " + why;
          return false;
        }
        next.a = d.x[0];
        next.A = next.a;
        break;
      }
      case Scheme::EdAlpha: {
        start(m_ed.stages(h, m_cur.s.v, m_cur.a), m_cur.a);
        if (!solveStages(d, closed, why)) return false;
        next.a = d.x[1];
        next.A = next.a;
        break;
      }
      case Scheme::Moreau:
      case Scheme::Hets: return false;
    }
    const int last = d.map.count - 1;
    next.s = d.state[std::size_t(last)];
    next.s.t = m_cur.s.t + h;
    next.lambda = d.lambda[std::size_t(last)];
    // the contact forces at the step's end (the last stage's)
    m_lastForces.setZero(0);
    if (!closed.empty()) {
      const int m = static_cast<int>(d.W[std::size_t(last)].rows());
      m_lastForces = d.lambdaC.segment(last * m, m);
    }
    m_lastClosed = closed;
    return true;
  }

  /// After the base step: joints' velocity projection, impacts, gaps and outputs.
  bool finishStep(double h, Point& next, std::string& why) {
    if (!projectOntoJoints(next, false, why)) return false;
    next.vminus = next.s.v;
    // the work of the step's contact forces: h lambda . gdot at the mean velocity (gdot with the
    // Jacobian at the end)
    next.contactWork = m_cur.contactWork;
    if (!m_lastClosed.empty() && m_lastForces.size() > 0) {
      MatX W;
      contactJacobian(m_lastClosed, m_kin, m_rows, W);
      next.contactWork += h * m_lastForces.dot(W * (0.5 * (m_cur.s.v + next.s.v)));
    }
    if (!gapsAt(next.s, next.gaps, why)) return false;
    // an impact: a gap open at t_n closed at t_{n+1}
    bool impact = false;
    for (std::size_t k = 0; k < m_sources.size(); ++k)
      if (m_cur.gaps(Eigen::Index(k)) > kClosedGap && next.gaps(Eigen::Index(k)) <= kClosedGap) impact = true;
    std::vector<int> set;
    VecX impulses;
    if (impact) {
      for (std::size_t k = 0; k < m_sources.size(); ++k)
        if (next.gaps(Eigen::Index(k)) <= kClosedGap) set.push_back(static_cast<int>(k));
      if (!impulsiveCorrection(set, h, m_mass, VecX(next.s.v), next.s.v, impulses, next.contactWork, why)) return false;
      ++m_impactSteps;
    }
    recordOutputs(next, set, impulses, m_kin, m_rows);
    return true;
  }

  /// Factorises the mass matrix with the joints at `next` (m_mass, m_kin and m_rows hold it
  /// after) and projects the velocities onto the joints' velocity constraints in the mass
  /// metric; with `positions`, first the positions onto their position constraints (Newton with
  /// the first factorisation, a few iterations).
  bool projectOntoJoints(Point& next, bool positions, std::string& why) {
    return placeOnJoints(next, positions, why) && projectVelocities(next, why);
  }

  /// The first half of projectOntoJoints: m_mass factorised at the final positions.
  bool placeOnJoints(Point& next, bool positions, std::string& why) {
    const int nv = m_sys.nv(), nc = m_sys.nc();
    m_sys.kinematics(next.s, m_kin);
    m_sys.constraints(m_kin, next.s.t, m_rows);
    if (!factorMass(m_kin, m_rows)) {
      why = "singular mass matrix with the joints (redundant or inconsistent constraints?)";
      return false;
    }
    const auto& kinds = m_sys.rowKinds();
    bool moved = false;
    for (int it = 0; positions && nc > 0 && it < 4; ++it) {
      m_b.setZero(nv + nc);
      double worst = 0;
      for (std::size_t c = 0; c < m_rows.size(); ++c)
        for (int i = 0; i < m_rows[c].phi.size(); ++i) {
          const int row = m_sys.constraintOffsets()[c] + i;
          if (!m_active[std::size_t(row)] || kinds[std::size_t(row)] == RowKind::VelocityLevel) continue;
          m_b(nv + row) = -m_rows[c].phi(i);
          worst = std::max(worst, std::abs(m_rows[c].phi(i)));
        }
      if (worst <= m_spec.newton_tol) break;
      if (!m_mass.solve(m_b)) {
        why = "position projection failed";
        return false;
      }
      m_sys.retract(next.s.q, m_b.head(nv));
      m_sys.kinematics(next.s, m_kin);
      m_sys.constraints(m_kin, next.s.t, m_rows);
      moved = true;
    }
    // the velocities with the Jacobian at the final positions
    if (moved && !factorMass(m_kin, m_rows)) {
      why = "singular mass matrix with the joints (redundant or inconsistent constraints?)";
      return false;
    }
    return true;
  }

  /// The second half: the velocities onto the joints' velocity constraints (m_mass, m_rows).
  bool projectVelocities(Point& next, std::string& why) {
    const int nv = m_sys.nv(), nc = m_sys.nc();
    if (nc > 0) {
      m_b.setZero(nv + nc);
      for (std::size_t c = 0; c < m_rows.size(); ++c)
        constraintVelocity(m_sys, static_cast<int>(c), m_rows[c], next.s.v,
                           m_b.segment(nv + m_sys.constraintOffsets()[c], m_sys.constraints()[c]->rows()));
      for (int i = 0; i < nc; ++i) m_b(nv + i) = m_active[std::size_t(i)] ? -m_b(nv + i) : 0.0;
      if (!m_mass.solve(m_b)) {
        why = "velocity projection failed";
        return false;
      }
      next.s.v += m_b.head(nv);
    }
    return true;
  }

  /// Factorises [M G^T; G 0] at kinematics kin (the joints' rows `rows`).
  bool factorMass(std::vector<BodyKinematics>& kin, const std::vector<ConstraintRows>& rows) {
    m_mass.setZero();
    for (int b = 0; b < m_sys.nblocks(); ++b) {
      m_sys.massMatrix(kin, b, m_M);
      m_mass.addBodyBlock(b, b, m_M);
    }
    m_mass.setConstraints(rows);
    return m_mass.factor();
  }

  /// Newton's impact law on the points of `set` with the factorised matrix S (at m_kin/m_rows),
  /// gdot+ + eps gdot(pre) in the prox sets with gdot+ = W (v + S^-1 W^T Lambda): v becomes the
  /// post-impact velocity; impulses: stacked per point; work += their work, Lambda . (gdot(pre)
  /// + gdot+) / 2: an impact's kinetic energy jump when S is the mass matrix; for the first-order
  /// schemes, whose impulses also carry the step's contact forces, the trapezoid over the step
  /// (with v's gdot instead, a block at rest would lose m g^2 h^2 / 2 per step that it never had:
  /// its free velocity -g h never moved it); multipliers (if given) take the joints' share of the
  /// impulses over h.
  bool impulsiveCorrection(const std::vector<int>& set, double h, const KktMatrix& S, const VecX& pre, VecX& v,
                           VecX& impulses, double& work, std::string& why, VecX* multipliers = nullptr) {
    const int nv = m_sys.nv();
    MatX W, Y;
    if (!contactResponse(set, S, W, Y, why)) return false;
    ContactProblem p;
    p.D = W * Y.topRows(nv);
    p.F = W * v;
    const VecX before = W * pre;
    addRestitution(set, before, p.F);
    layout(set, p, h, true);
    impulses.setZero(W.rows());
    if (!solveContacts(p, impulses, set, why)) {
      why = "impact: " + why;
      return false;
    }
    v += Y.topRows(nv) * impulses;
    work += impulses.dot(0.5 * (before + W * v));
    if (multipliers) *multipliers += Y * impulses / h;
    return true;
  }

  /// Moreau's midpoint scheme: q_m = q_n + h/2 v_n; (M + h/2 C + h^2/4 K) (v_{n+1} - v_n) =
  /// h f(q_m, v_n) + G^T mu + W^T Lambda, the joints on velocity level (with the position error
  /// fed back over h/2), Newton's impact law on the contacts closed at q_m;
  /// q_{n+1} = q_m + h/2 v_{n+1}.
  bool moreauStep(double h, Point& next, std::string& why) {
    const int nv = m_sys.nv(), nc = m_sys.nc();
    State mid = m_cur.s;
    mid.t += 0.5 * h;
    m_sys.retract(mid.q, 0.5 * h * m_cur.s.v);
    if (!gapsAt(mid, m_gapsMid, why)) return false;
    std::vector<int> set;
    for (std::size_t k = 0; k < m_sources.size(); ++k)
      if (m_gapsMid(Eigen::Index(k)) <= kClosedGap) set.push_back(static_cast<int>(k));
    m_sys.kinematics(mid, m_kin);
    m_sys.forces(m_kin, mid.t, m_f);
    m_sys.constraints(m_kin, mid.t, m_rows);
    m_S.setZero();
    m_blocks.assemble(m_kin, mid.t, m_cur.lambda, 1.0, 0.25 * h * h, 0.5 * h,
                      [this](int b1, int b2, const MatX& block) { m_S.addBodyBlock(b1, b2, block); });
    m_S.setConstraints(m_rows);
    if (!m_S.factor()) {
      why = "singular iteration matrix (redundant or inconsistent constraints?)";
      return false;
    }
    ++m_stats.newton_iterations;
    // unknown x = (v_{n+1} - v_n) / h: [H G^T; G 0] [x; lambda] = [f; -(G v_n + Phi_t + 2 Phi / h) / h]
    VecX rhs(nv + nc);
    rhs.head(nv) = m_f;
    const auto& kinds = m_sys.rowKinds();
    for (std::size_t c = 0; c < m_rows.size(); ++c) {
      const int off = m_sys.constraintOffsets()[c], n = m_sys.constraints()[c]->rows();
      if (m_vel.size() < n) m_vel.resize(n);
      constraintVelocity(m_sys, static_cast<int>(c), m_rows[c], m_cur.s.v, m_vel.head(n));
      for (int i = 0; i < n; ++i) {
        const int row = off + i;
        const double drift = kinds[std::size_t(row)] == RowKind::VelocityLevel ? 0.0 : 2 * m_rows[c].phi(i) / h;
        rhs(nv + row) = m_active[std::size_t(row)] ? -(m_vel(i) + drift) / h : 0.0;
      }
    }
    if (!m_S.solve(rhs)) {
      why = "linear solve failed";
      return false;
    }
    VecX v = m_cur.s.v + h * rhs.head(nv);
    VecX impulses;
    // impulses with the same matrix: v_{n+1} = v_free + H^-1 W^T Lambda (the joints held)
    double work = m_cur.contactWork;
    if (!set.empty() && !impulsiveCorrection(set, h, m_S, m_cur.s.v, v, impulses, work, why, &rhs)) return false;
    next = Point{};
    next.contactWork = work;
    next.s.t = m_cur.s.t + h;
    next.s.q = mid.q;
    m_sys.retract(next.s.q, 0.5 * h * v);
    next.s.v = v;
    next.vminus = v;
    next.a = rhs.head(nv);
    next.A = next.a;
    next.lambda = rhs.tail(nc);
    // the joints were held at the midpoint: put the end point onto them
    if (!projectOntoJoints(next, true, why)) return false;
    next.vminus = next.s.v;
    if (!gapsAt(next.s, next.gaps, why)) return false;
    // an impact: a gap open at the last midpoint closed at this one
    const bool impact = closedIn(m_prevGapsMid, m_gapsMid);
    m_prevGapsMid = m_gapsMid;
    recordFirstOrderStep(h, next, set, impulses, impact);
    return true;
  }

  /// The half-explicit timestepping scheme (HETS; Schindler, Rezaei, Kursawe, Acary, CMAME 290,
  /// 2015, doi:10.1016/j.cma.2015.03.001), first order: q_{n+1} = q_n + h v_n, put onto the
  /// joints; M (v_{n+1} - v_n) = h f(q_{n+1}, v_n, t_{n+1}) + G^T mu + W^T Lambda with the mass
  /// matrix, the joints and the contacts closed at q_{n+1}, the joints on velocity level there
  /// and Newton's impact law on the contacts. Explicit in the forces: one factorisation of the
  /// mass matrix per step (two when the joints' positions needed a correction), no Newton
  /// iteration, stable while h omega_max < 2 (checked at the start).
  bool hetsStep(double h, Point& next, std::string& why) {
    const int nv = m_sys.nv(), nc = m_sys.nc();
    next = Point{};
    next.s = m_cur.s;
    next.s.t = m_cur.s.t + h;
    m_sys.retract(next.s.q, h * m_cur.s.v);
    // m_kin, m_rows and m_mass at (q_{n+1}, v_n)
    if (!placeOnJoints(next, true, why)) return false;
    if (!gapsAt(next.s, next.gaps, why)) return false;
    std::vector<int> set;
    for (std::size_t k = 0; k < m_sources.size(); ++k)
      if (next.gaps(Eigen::Index(k)) <= kClosedGap) set.push_back(static_cast<int>(k));
    m_sys.forces(m_kin, next.s.t, m_f);
    ++m_stats.newton_iterations;
    // unknown x = (v_{n+1} - v_n) / h: [M G^T; G 0] [x; mu] = [f; -(G v_n + Phi_t) / h]
    VecX rhs(nv + nc);
    rhs.head(nv) = m_f;
    for (std::size_t c = 0; c < m_rows.size(); ++c) {
      const int off = m_sys.constraintOffsets()[c], n = m_sys.constraints()[c]->rows();
      if (m_vel.size() < n) m_vel.resize(n);
      constraintVelocity(m_sys, static_cast<int>(c), m_rows[c], m_cur.s.v, m_vel.head(n));
      for (int i = 0; i < n; ++i) rhs(nv + off + i) = m_active[std::size_t(off + i)] ? -m_vel(i) / h : 0.0;
    }
    if (!m_mass.solve(rhs)) {
      why = "linear solve failed";
      return false;
    }
    VecX v = m_cur.s.v + h * rhs.head(nv);
    VecX impulses;
    next.contactWork = m_cur.contactWork;
    if (!set.empty() && !impulsiveCorrection(set, h, m_mass, m_cur.s.v, v, impulses, next.contactWork, why, &rhs))
      return false;
    if (!v.allFinite()) {
      why = "the velocities are not finite";
      return false;
    }
    next.s.v = v;
    next.vminus = v;
    next.a = rhs.head(nv);
    next.A = next.a;
    next.lambda = rhs.tail(nc);
    recordFirstOrderStep(h, next, set, impulses, closedIn(m_cur.gaps, next.gaps));
    return true;
  }

  /// True if a gap open in `before` is closed in `after`.
  static bool closedIn(const VecX& before, const VecX& after) {
    if (before.size() != after.size()) return false;
    for (Eigen::Index k = 0; k < after.size(); ++k)
      if (before(k) > kClosedGap && after(k) <= kClosedGap) return true;
    return false;
  }

  /// The outputs of a first-order step whose impulses acted on `set`: an impact's impulses, or
  /// else the step's mean contact forces.
  void recordFirstOrderStep(double h, const Point& next, const std::vector<int>& set, const VecX& impulses,
                            bool impact) {
    if (impact) ++m_impactSteps;
    m_lastForces = impact ? VecX() : VecX(impulses / h);
    m_lastClosed = set;
    recordOutputs(next, impact ? set : std::vector<int>{}, impact ? impulses : VecX(), m_kin, m_rows);
  }

  /// The highest natural frequency [rad/s] of any body from its own mass matrix and tangent
  /// stiffness at the start (in the range of the mass matrix; the couplings between bodies left
  /// out), and that body's block.
  double highestFrequency(int& block) {
    m_sys.kinematics(m_cur.s, m_kin);
    std::vector<MatX> K(std::size_t(m_sys.nblocks()));
    for (int b = 0; b < m_sys.nblocks(); ++b) K[std::size_t(b)].setZero(m_sys.block(b).nv(), m_sys.block(b).nv());
    m_blocks.assemble(m_kin, m_cur.s.t, m_cur.lambda, 0.0, 1.0, 0.0, [&](int b1, int b2, const MatX& B) {
      if (b1 == b2) K[std::size_t(b1)] += B;
    });
    double highest = 0;
    block = -1;
    for (int b = 0; b < m_sys.nblocks(); ++b) {
      const MatX Ks = 0.5 * (K[std::size_t(b)] + K[std::size_t(b)].transpose());
      if (Ks.size() == 0 || Ks.cwiseAbs().maxCoeff() == 0) continue;
      // a flexible body's reference conditions leave its mass matrix singular (its joints' rows
      // hold those directions)
      m_sys.massMatrix(m_kin, b, m_M);
      const Eigen::SelfAdjointEigenSolver<MatX> mass(0.5 * (m_M + m_M.transpose()));
      const VecX& d = mass.eigenvalues();
      if (mass.info() != Eigen::Success || d.maxCoeff() <= 0) continue;  // massless
      MatX S(Ks.rows(), 0);
      for (Eigen::Index i = 0; i < d.size(); ++i)
        if (d(i) > 1e-10 * d.maxCoeff()) {
          S.conservativeResize(Eigen::NoChange, S.cols() + 1);
          S.col(S.cols() - 1) = mass.eigenvectors().col(i) / std::sqrt(d(i));
        }
      const Eigen::SelfAdjointEigenSolver<MatX> eig(S.transpose() * Ks * S, Eigen::EigenvaluesOnly);
      if (eig.info() != Eigen::Success) continue;
      const double omega = std::sqrt(std::max(0.0, eig.eigenvalues().maxCoeff()));
      if (omega > highest) {
        highest = omega;
        block = b;
      }
    }
    return highest;
  }

  /// HETS is explicit in the forces: it refuses a step above 2/omega of the stiffest body, naming
  /// the step it needs. Generalized-alpha with little damping (rho_inf >= 0.5) and modes the step
  /// cannot resolve gets a note: Rezaei and Schindler report it unstable there.
  bool checkStepAgainstFrequencies(std::string& error) {
    if (m_scheme != Scheme::Hets && !(m_scheme == Scheme::GenAlpha && m_spec.rho_inf >= 0.5)) return true;
    int b = -1;
    const double omega = highestFrequency(b);
    if (b < 0) return true;
    const std::string body = "'" + m_sys.block(b).name + "' vibrates at up to " + fmt(omega / (2 * std::numbers::pi)) + " Hz";
    if (m_scheme == Scheme::Hets && m_hNominal * omega >= 2) {
      error = "hets is explicit in the forces: " + body + ", which needs a step below 2/omega = " + fmt(2 / omega) +
              " s (the step is " + fmt(m_hNominal) + " s); take a smaller step or an implicit scheme (moreau, mixed-bathe)";
      return false;
    }
    if (m_scheme == Scheme::GenAlpha && m_hNominal * omega > std::numbers::pi)
      m_frequencyNote = body + ", less than two steps per period; generalized-alpha damps such modes only to rho_inf = " +
                        fmt(m_spec.rho_inf) + " per step, and with impacts it can go unstable there (Rezaei and "
                        "Schindler): mixed-bathe or a lower rho_inf damp them";
    return true;
  }

  /// The outputs of every contact point at the step's end.
  void recordOutputs(const Point& next, const std::vector<int>& impactSet, const VecX& impulses,
                     const std::vector<BodyKinematics>& kin, const std::vector<ConstraintRows>& rows) {
    std::vector<int> all(m_sources.size());
    for (std::size_t k = 0; k < all.size(); ++k) all[k] = static_cast<int>(k);
    MatX W;
    contactJacobian(all, kin, rows, W);
    const VecX gdot = W * next.s.v;
    int r = 0;
    for (std::size_t k = 0; k < m_sources.size(); ++k) {
      const ContactSource& c = m_sources[k];
      ContactOutput& o = m_outputs[k];
      const long impacts = o.impacts;
      o = ContactOutput{};
      o.impacts = impacts;
      o.gap = next.gaps(Eigen::Index(k));
      o.normalVelocity = gdot(r);
      const double pen = -o.gap;
      if (pen > m_maxPenetration) {
        m_maxPenetration = pen;
        m_worstPenetration = k;
        m_penetrationTime = next.s.t;
      }
      r += 1 + c.tangents;
    }
    auto spread = [&](const std::vector<int>& set, const VecX& values, bool impulse) {
      int i = 0;
      for (int k : set) {
        const ContactSource& c = m_sources[std::size_t(k)];
        ContactOutput& o = m_outputs[std::size_t(k)];
        if (values.size() >= i + 1 + c.tangents) {
          double& N = impulse ? o.normalImpulse : o.normalForce;
          Eigen::Vector2d& T = impulse ? o.tangentialImpulse : o.tangentialForce;
          N = values(i);
          for (int t = 0; t < c.tangents; ++t) T(t) = values(i + 1 + t);
          if (impulse && N > 0) ++o.impacts;
        }
        i += 1 + c.tangents;
      }
    };
    spread(m_lastClosed, m_lastForces, false);
    spread(impactSet, impulses, true);
    for (std::size_t k = 0; k < m_sources.size(); ++k) {
      ContactOutput& o = m_outputs[k];
      const ContactSource& c = m_sources[k];
      if (o.normalForce > 0 || o.normalImpulse > 0) {
        const double limit = c.law.friction * (o.normalForce > 0 ? o.normalForce : o.normalImpulse);
        const double t = (o.normalForce > 0 ? o.tangentialForce : o.tangentialImpulse).norm();
        o.status = c.tangents > 0 && t >= limit * (1 - 1e-9) && limit > 0 ? 2 : 1;
      } else {
        o.status = o.gap <= kClosedGap ? 1 : 0;
      }
    }
  }

  const System& m_sys;
  SolverSpec m_spec;
  Scheme m_scheme = Scheme::GenAlpha;
  GeneralizedAlphaCoefficients m_ga;
  EdAlphaCoefficients m_ed;
  ContactSolverSettings m_settings;
  KktMatrix m_S, m_mass;
  Eigen::PartialPivLU<MatX> m_partial;  ///< ED-alpha's two stages
  Eigen::FullPivLU<MatX> m_dense;       ///< the same when m_partial is near singular
  bool m_full = false;
  IterationMatrixBlocks m_blocks{m_sys};
  std::vector<char> m_active;
  std::vector<ContactSource> m_sources;
  std::vector<ContactOutput> m_outputs;
  double m_h, m_hNominal;
  int m_goodSteps = 0;
  Point m_cur, m_prev;
  IntegratorStats m_stats;
  StepHistory m_history;
  long m_impactSteps = 0, m_fallbacks = 0;
  double m_maxPenetration = 0, m_penetrationTime = 0;
  std::size_t m_worstPenetration = 0;
  VecX m_lastForces;
  std::vector<int> m_lastClosed;
  std::string m_frequencyNote;
  // scratch
  std::vector<BodyKinematics> m_kin, m_kinG;
  std::vector<ConstraintRows> m_rows, m_rowsG;
  ContactPoint m_point;
  MatX m_M, m_Y;
  VecX m_f, m_b, m_vel, m_Gtl, m_gapsMid, m_prevGapsMid;
};

}  // namespace

std::unique_ptr<Integrator> makeMixedTimestepping(const System& sys, const SolverSpec& spec) {
  return std::make_unique<MixedTimestepping>(sys, spec);
}

std::unique_ptr<Integrator> makeIntegrator(const System& sys, const SolverSpec& spec) {
  if (spec.integrator == IntegratorType::Ida) return makeIda(sys, spec);
  if (isMixedTimestepping(spec.integrator)) return makeMixedTimestepping(sys, spec);
  return makeGeneralizedAlpha(sys, spec);
}

}  // namespace flexim
