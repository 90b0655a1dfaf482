// Generalized-alpha for constrained mechanical systems in the Arnold-Bruls form, applied on
// the Lie group R^3 x SO(3) of each body (x R^m for modal coordinates) (Bruls, Cardona, Arnold
// 2012): positions are updated by q_{n+1} = q_n o exp(h dq), the constraints are enforced at
// position level (index 3, scaled by 1/beta'; velocity-level rows such as the rotational
// mean-axis conditions at velocity level, scaled by 1/gamma'), and velocities are projected
// onto G v + Phi_t = 0 after each step. Parameters from the spectral radius rho_inf (Chung-Hulbert):
//   alpha_m = (2 rho - 1)/(rho + 1), alpha_f = rho/(rho + 1),
//   gamma = 1/2 + alpha_f - alpha_m, beta = (gamma + 1/2)^2 / 4.
// Newton uses an iteration matrix [M + gamma' C_t + beta' K_t, G^T; G, 0] whose KLU symbolic
// analysis is done once; the numeric factorisation is reused while Newton converges fast.
#include "core/integrators/integrator.h"
#include "core/base/rotation.h"
#include "core/system/kkt.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace flexim {

namespace {

class GeneralizedAlpha final : public Integrator {
 public:
  GeneralizedAlpha(const System& sys, const SolverSpec& spec)
      : m_sys(sys), m_spec(spec), m_S(sys, true), m_hNominal(spec.step), m_h(spec.step) {
    const double rho = std::clamp(spec.rho_inf, 0.0, 1.0);
    m_am = (2 * rho - 1) / (rho + 1);
    m_af = rho / (rho + 1);
    m_gamma = 0.5 + m_af - m_am;
    m_beta = 0.25 * (m_gamma + 0.5) * (m_gamma + 0.5);
  }

  std::string name() const override { return "gen-alpha (Arnold-Bruls, Lie group, index-3 + velocity projection, KLU)"; }
  std::string settings() const override {
    std::ostringstream s;
    s << "h=" << m_hNominal << " rho_inf=" << m_spec.rho_inf << " newton_tol=" << m_spec.newton_tol
      << " max_newton=" << m_spec.max_newton;
    return s.str();
  }

  bool initialize(const State& s0, const VecX& vdot0, const VecX& lambda0, std::string&) override {
    m_cur = {s0, vdot0, vdot0, lambda0};
    m_prev = m_cur;
    return true;
  }

  bool step(double t_stop, std::string& error) override {
    for (;;) {
      const double h = std::min(m_h, t_stop - m_cur.s.t);
      Point next;
      std::string why;
      if (attempt(h, next, why)) {
        m_prev = m_cur;
        m_cur = next;
        ++m_stats.steps;
        // return to the nominal step after a run of good steps
        if (m_h < m_hNominal && ++m_goodSteps >= 4) {
          m_h = std::min(2 * m_h, m_hNominal);
          m_goodSteps = 0;
        }
        return true;
      }
      ++m_stats.failures;
      m_goodSteps = 0;
      m_h = 0.5 * h;
      if (m_h < 1e-8 * m_hNominal || m_h < 1e-15) {
        error = "generalized-alpha: Newton failed at t=" + fmt(m_cur.s.t) + " even with step " + fmt(m_h) + ": " + why;
        return false;
      }
    }
  }

  double time() const override { return m_cur.s.t; }
  double previousTime() const override { return m_prev.s.t; }

  void interpolate(double t, State& out) const override {
    const double h = m_cur.s.t - m_prev.s.t;
    const double s = h > 0 ? std::clamp((t - m_prev.s.t) / h, 0.0, 1.0) : 1.0;
    const double h00 = 2 * s * s * s - 3 * s * s + 1, h10 = s * s * s - 2 * s * s + s;
    const double h01 = -2 * s * s * s + 3 * s * s, h11 = s * s * s - s * s;
    // cubic Hermite in the tangent space at q_prev (velocities are its derivatives)
    const VecX dx = m_sys.tangentDifference(m_cur.s.q, m_prev.s.q);
    out.t = t;
    out.q = m_prev.s.q;
    m_sys.retract(out.q, h10 * h * m_prev.s.v + h01 * dx + h11 * h * m_cur.s.v);
    out.v = h00 * m_prev.s.v + h10 * h * m_prev.vdot + h01 * m_cur.s.v + h11 * h * m_cur.vdot;
  }

  IntegratorStats stats() const override { return m_stats; }

 private:
  struct Point {
    State s;
    VecX vdot, a, lambda;
  };

  static std::string fmt(double x) {
    std::ostringstream s;
    s << x;
    return s.str();
  }

  /// Newton iterations for one step of size h from m_cur. Reuses the factorised iteration
  /// matrix while it converges; refreshes it once before giving up.
  bool attempt(double h, Point& out, std::string& why) {
    const double betap = h * h * m_beta * (1 - m_af) / (1 - m_am);
    const double gammap = h * m_gamma * (1 - m_af) / (1 - m_am);
    const int nv = m_sys.nv(), nc = m_sys.nc();
    if (h != m_factorH) m_matrixValid = false;
    Point p;
    p.s.t = m_cur.s.t + h;
    p.vdot = m_cur.vdot;
    p.lambda = m_cur.lambda;
    auto update = [&]() {
      p.a = (m_af * m_cur.vdot + (1 - m_af) * p.vdot - m_am * m_cur.a) / (1 - m_am);
      p.s.v = m_cur.s.v + h * (1 - m_gamma) * m_cur.a + h * m_gamma * p.a;
      p.s.q = m_cur.s.q;
      m_sys.retract(p.s.q, h * m_cur.s.v + h * h * (0.5 - m_beta) * m_cur.a + h * h * m_beta * p.a);
    };
    update();
    VecX f, rhs(nv + nc);
    double prevNorm = 0;
    bool refreshed = false;
    for (int k = 0; k < m_spec.max_newton; ++k) {
      m_sys.kinematics(p.s, m_kin);
      m_sys.forces(m_kin, p.s.t, f);
      m_sys.constraints(m_kin, p.s.t, m_rows);
      // residual: M vdot - f + G^T lambda ; Phi / beta' (velocity-level rows: (G v + Phi_t) / gamma')
      VecX phi(nc);
      for (int b = 0; b < m_sys.nb(); ++b) {
        const BodyData& B = m_sys.body(b);
        m_sys.massMatrix(m_kin, b, m_M);
        rhs.segment(B.v0, B.nv()) = f.segment(B.v0, B.nv()) - m_M * p.vdot.segment(B.v0, B.nv());
      }
      VecX Gtl = VecX::Zero(nv);
      addConstraintForces(m_sys, m_rows, p.lambda, Gtl);
      rhs.head(nv) -= Gtl;
      for (size_t ci = 0; ci < m_rows.size(); ++ci) {
        const int off = m_sys.constraintOffsets()[ci], r = m_sys.constraints()[ci]->rows();
        phi.segment(off, r) = m_rows[ci].phi;
        if (!m_allHolonomic) {
          const VecX vel = constraintVelocity(m_sys, static_cast<int>(ci), m_rows[ci], p.s.v);
          for (int i = 0; i < r; ++i)
            if (!m_sys.holonomicRows()[off + i]) phi(off + i) = betap / gammap * vel(i);
        }
      }
      rhs.tail(nc) = -phi / betap;
      if (!rhs.allFinite()) {
        why = "non-finite residual";
        return false;
      }
      if (!m_matrixValid) {
        if (!assemble(h)) {
          why = "singular iteration matrix (redundant or inconsistent constraints?)";
          return false;
        }
        refreshed = true;
      }
      if (!m_S.solve(rhs)) {
        why = "linear solve failed";
        return false;
      }
      ++m_stats.newton_iterations;
      p.vdot += rhs.head(nv);
      p.lambda += rhs.tail(nc);
      update();
      const double incr = betap * rhs.head(nv).lpNorm<Eigen::Infinity>();
      const double phiNorm = nc ? phi.lpNorm<Eigen::Infinity>() : 0.0;
      if (incr <= m_spec.newton_tol && phiNorm <= 10 * m_spec.newton_tol) {
        if (!projectVelocities(p, h)) {
          why = "velocity projection failed (singular constraint Jacobian)";
          return false;
        }
        out = p;
        return true;
      }
      // a stale matrix that stops contracting is refreshed once before the step is rejected
      if (k > 0 && incr > 0.5 * prevNorm) {
        if (refreshed) {
          why = "Newton iterations do not converge; largest constraint residual in " + worstConstraint(m_sys, phi);
          m_matrixValid = false;
          return false;
        }
        m_matrixValid = false;
      }
      prevNorm = incr;
    }
    why = "no convergence in " + std::to_string(m_spec.max_newton) + " iterations";
    m_matrixValid = false;
    return false;
  }

  /// Iteration matrix for step h at the current iterate (m_kin, m_rows hold it).
  bool assemble(double h) {
    const double c = (1 - m_af) / (1 - m_am);
    const double betap = h * h * m_beta * c, gammap = h * m_gamma * c;
    m_factorH = h;
    m_S.setZero();
    for (int b = 0; b < m_sys.nb(); ++b) {
      const BodyData& B = m_sys.body(b);
      m_sys.massMatrix(m_kin, b, m_M);
      if (B.kind == BodyKind::Rigid) {
        // gyroscopic term -w x J w: d/dw = -(w~ J - (J w)~)
        const Vec3 w = m_kin[b + 1].omega_body;
        m_M.bottomRightCorner<3, 3>() += gammap * (skew(w) * B.J - skew(B.J * w));
      } else if (B.kind == BodyKind::Flexible) {
        // modal stiffness and damping (the stiff part); inertia coupling terms are left to Newton
        m_M.bottomRightCorner(B.modes, B.modes) += betap * m_sys.modalStiffness(b) + gammap * m_sys.modalDamping(b);
      }
      m_S.addBodyBlock(b, b, m_M);
    }
    addForceTangents(betap, gammap);
    m_S.setConstraints(m_rows);
    m_matrixValid = m_S.factor();
    return m_matrixValid;
  }

  /// beta' K_t + gamma' C_t of every force element, by one-sided differences of the element
  /// alone over its bodies' tangent coordinates (cheap: elements touch at most two bodies).
  void addForceTangents(double betap, double gammap) {
    const double eps = 1e-7;
    Vec6 f1, f2, g1, g2;
    for (const auto& e : m_sys.forces()) {
      const int bodies[2] = {e->body1, e->body2};
      e->evaluate(m_sys, m_kin, 0.0, f1, f2);  // time-only terms cancel in the difference
      for (int side = 0; side < 2; ++side) {
        const int b = bodies[side];
        if (b < 0 || (side == 1 && b == bodies[0])) continue;
        Eigen::Matrix<double, 12, 6> colsK = Eigen::Matrix<double, 12, 6>::Zero(), colsC = colsK;
        const BodyKinematics saved = m_kin[b + 1];
        for (int i = 0; i < 6; ++i) {
          for (int kind = 0; kind < 2; ++kind) {
            // perturb along the tangent: [dr global, dtheta body axes] or the velocity [r_dot, omega']
            BodyKinematics& k = m_kin[b + 1];
            k = saved;
            if (kind == 0 && i < 3) k.r(i) += eps;
            if (kind == 0 && i >= 3) k.A = saved.A * expMap(eps * Vec3::Unit(i - 3)).toRotationMatrix();
            if (kind == 1 && i < 3) k.rdot(i) += eps;
            if (kind == 1 && i >= 3) k.omega_body(i - 3) += eps;
            k.omega = k.A * k.omega_body;
            e->evaluate(m_sys, m_kin, 0.0, g1, g2);
            auto& cols = kind == 0 ? colsK : colsC;
            cols.col(i).head<6>() = -(g1 - f1) / eps;
            cols.col(i).tail<6>() = -(g2 - f2) / eps;
          }
        }
        m_kin[b + 1] = saved;
        const Eigen::Matrix<double, 12, 6> T = betap * colsK + gammap * colsC;
        if (bodies[0] >= 0) m_S.addBodyBlock(bodies[0], b, T.topRows<6>());
        if (bodies[1] >= 0 && bodies[1] != bodies[0]) m_S.addBodyBlock(bodies[1], b, T.bottomRows<6>());
      }
    }
  }

  /// Projects velocities onto G v + Phi_t = 0 with the iteration matrix as metric. The matrix
  /// is refactorised at the converged state: projecting along a stale Jacobian would leak
  /// velocity into the free directions. The fresh matrix then serves the next step's Newton.
  bool projectVelocities(Point& p, double h) {
    const int nv = m_sys.nv(), nc = m_sys.nc();
    if (nc == 0) return true;
    m_sys.kinematics(p.s, m_kin);
    m_sys.constraints(m_kin, p.s.t, m_rows);
    if (!assemble(h)) return false;
    VecX rhs = VecX::Zero(nv + nc);
    for (size_t ci = 0; ci < m_rows.size(); ++ci)
      rhs.segment(m_sys.constraintOffsets()[ci] + nv, m_sys.constraints()[ci]->rows()) =
          -constraintVelocity(m_sys, static_cast<int>(ci), m_rows[ci], p.s.v);
    if (!m_S.solve(rhs)) return false;
    p.s.v += rhs.head(nv);
    return true;
  }

  const System& m_sys;
  SolverSpec m_spec;
  KktMatrix m_S;
  double m_am = 0, m_af = 0, m_gamma = 0.5, m_beta = 0.25;
  double m_hNominal, m_h;
  double m_factorH = -1;
  bool m_matrixValid = false;
  int m_goodSteps = 0;
  Point m_cur, m_prev;
  IntegratorStats m_stats;
  std::vector<BodyKinematics> m_kin;
  std::vector<ConstraintRows> m_rows;
  MatX m_M;  ///< scratch: one body's mass matrix
  bool m_allHolonomic = std::all_of(m_sys.holonomicRows().begin(), m_sys.holonomicRows().end(), [](char h) { return h != 0; });
};

}  // namespace

std::unique_ptr<Integrator> makeGeneralizedAlpha(const System& sys, const SolverSpec& spec) {
  return std::make_unique<GeneralizedAlpha>(sys, spec);
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
