#include "core/run/consistency.h"

#include "core/integrators/integrator.h"

namespace flexim {

Consistency::Consistency(const System& sys) : m_sys(sys), m_identity(sys, false), m_mass(sys, false) {}

bool Consistency::factorMetric(const State& s, bool mass_metric) {
  KktMatrix& K = mass_metric ? m_mass : m_identity;
  m_sys.kinematics(s, m_kin);
  m_sys.constraints(m_kin, s.t, m_rows);
  // velocity projection and accelerations at one output state share the factorisation
  if (mass_metric && s.t == m_massFactorT && s.q == m_massFactorQ) return true;
  K.setZero();
  for (int b = 0; b < m_sys.nb(); ++b) K.addBodyBlock(b, b, mass_metric ? m_sys.massBlock(b) : Mat6::Identity());
  K.setConstraints(m_rows);
  const bool ok = K.factor();
  if (mass_metric) {
    m_massFactorT = ok ? s.t : -1;
    m_massFactorQ = s.q;
  }
  return ok;
}

namespace {
/// Stacks per-element rows (phi, or G v + phi_t when v is given) into one vector.
VecX stack(const System& sys, const std::vector<ConstraintRows>& rows, const VecX* v) {
  VecX out(sys.nc());
  for (size_t c = 0; c < rows.size(); ++c) {
    const auto& con = *sys.constraints()[c];
    VecX r = v ? rows[c].phit : rows[c].phi;
    if (v && con.body1 >= 0) r += rows[c].G1 * v->segment<6>(6 * con.body1);
    if (v && con.body2 >= 0) r += rows[c].G2 * v->segment<6>(6 * con.body2);
    out.segment(sys.constraintOffsets()[c], con.rows()) = r;
  }
  return out;
}
}  // namespace

void Consistency::residuals(const State& s, double& position, double& velocity) {
  m_sys.kinematics(s, m_kin);
  m_sys.constraints(m_kin, s.t, m_rows);
  position = m_sys.nc() ? stack(m_sys, m_rows, nullptr).lpNorm<Eigen::Infinity>() : 0.0;
  velocity = m_sys.nc() ? stack(m_sys, m_rows, &s.v).lpNorm<Eigen::Infinity>() : 0.0;
}

bool Consistency::assemblePositions(State& s, double tol, int max_iter, double& residual, std::string& error) {
  const int nv = m_sys.nv(), nc = m_sys.nc();
  residual = 0;
  if (nc == 0) return true;
  for (int it = 0; it <= max_iter; ++it) {
    m_sys.kinematics(s, m_kin);
    m_sys.constraints(m_kin, s.t, m_rows);
    const VecX phi = stack(m_sys, m_rows, nullptr);
    residual = phi.lpNorm<Eigen::Infinity>();
    if (!std::isfinite(residual)) break;
    if (residual <= tol) return true;
    if (it == max_iter) break;
    if (!factorMetric(s, false)) {
      error = "constraint Jacobian is singular during assembly (redundant constraints?); largest residual in " +
              worstConstraint(m_sys, phi);
      return false;
    }
    VecX rhs = VecX::Zero(nv + nc);
    rhs.tail(nc) = -phi;
    if (!m_identity.solve(rhs)) break;
    System::retract(s.q, rhs.head(nv));
  }
  m_sys.kinematics(s, m_kin);
  m_sys.constraints(m_kin, s.t, m_rows);
  error = "positions could not be assembled onto the constraints; largest residual in " +
          worstConstraint(m_sys, stack(m_sys, m_rows, nullptr));
  return false;
}

bool Consistency::projectVelocities(State& s, double& residual_before) {
  const int nv = m_sys.nv(), nc = m_sys.nc();
  residual_before = 0;
  if (nc == 0) return true;
  if (!factorMetric(s, true)) return false;
  const VecX r = stack(m_sys, m_rows, &s.v);
  residual_before = r.lpNorm<Eigen::Infinity>();
  VecX rhs = VecX::Zero(nv + nc);
  rhs.tail(nc) = -r;
  if (!m_mass.solve(rhs)) return false;
  s.v += rhs.head(nv);
  return true;
}

bool Consistency::accelerations(const State& s, VecX& vdot, VecX& lambda) {
  const int nv = m_sys.nv(), nc = m_sys.nc();
  if (!factorMetric(s, true)) return false;
  VecX f;
  m_sys.forces(m_kin, s.t, f);
  VecX rhs(nv + nc);
  rhs.head(nv) = f;
  for (size_t c = 0; c < m_rows.size(); ++c)
    rhs.segment(nv + m_sys.constraintOffsets()[c], m_sys.constraints()[c]->rows()) = -m_rows[c].gamma;
  if (!m_mass.solve(rhs)) return false;
  vdot = rhs.head(nv);
  lambda = rhs.tail(nc);
  return true;
}

}  // namespace flexim
