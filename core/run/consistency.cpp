#include "core/run/consistency.h"

#include "core/integrators/integrator.h"

namespace flexim {

Consistency::Consistency(const System& sys) : m_sys(sys), m_identity(sys, false), m_mass(sys, false) {}

namespace {
/// Weight of modal coordinates/rates in the assembly and frozen-rate metrics (relative to 1 on
/// the rigid coordinates / to the modal mass).
constexpr double kModalWeight = 1e8;
}  // namespace

bool Consistency::factorMetric(const State& s, Metric metric) {
  const bool mass = metric != Metric::Identity;
  KktMatrix& K = mass ? m_mass : m_identity;
  m_sys.kinematics(s, m_kin);
  m_sys.constraints(m_kin, s.t, m_rows);
  // velocity projection and accelerations at one output state share the factorisation
  if (metric == Metric::Mass && s.t == m_massFactorT && s.q == m_massFactorQ) return true;
  K.setZero();
  MatX M;
  for (int b = 0; b < m_sys.nblocks(); ++b) {
    const Block& B = m_sys.block(b);
    if (mass) m_sys.massMatrix(m_kin, b, M);
    else M.setIdentity(B.nv(), B.nv());
    const int modes = B.formulation->deformationCoordinates();
    if (metric != Metric::Mass)
      for (int j = B.nv() - modes; j < B.nv(); ++j) M(j, j) += kModalWeight * (mass ? M(j, j) : 1.0);
    K.addBodyBlock(b, b, M);
  }
  K.setConstraints(m_rows);
  const bool ok = K.factor();
  if (mass) {
    m_massFactorT = ok && metric == Metric::Mass ? s.t : -1;
    m_massFactorQ = s.q;
  }
  return ok;
}

void Consistency::setActiveRows(const std::vector<char>& active) {
  if (active == m_mass.activeRows()) return;
  m_identity.setActiveRows(active);
  m_mass.setActiveRows(active);
  m_massFactorT = -1;  // the cached factorisation was for another set
}

void Consistency::setRegularization(KktMatrix::Regularization r) {
  m_identity.setRegularization(r);
  m_mass.setRegularization(r);
  m_massFactorT = -1;
}

namespace {
/// Stacks per-element rows (phi of the position-level rows, or G v + phi_t when v is given) of
/// the active rows into one vector (zero for the rest).
VecX stack(const System& sys, const std::vector<ConstraintRows>& rows, const VecX* v, const std::vector<char>& active) {
  VecX out(sys.nc());
  for (size_t c = 0; c < rows.size(); ++c) {
    const auto& con = *sys.constraints()[c];
    const int off = sys.constraintOffsets()[c];
    if (v) constraintVelocity(sys, static_cast<int>(c), rows[c], *v, out.segment(off, con.rows()));
    else out.segment(off, con.rows()) = rows[c].phi;
  }
  for (int i = 0; i < sys.nc(); ++i)
    if (!active[i] || (!v && sys.rowKinds()[i] == RowKind::VelocityLevel)) out(i) = 0;  // no position residual
  return out;
}
}  // namespace

void Consistency::residuals(const State& s, double& position, double& velocity) {
  m_sys.kinematics(s, m_kin);
  m_sys.constraints(m_kin, s.t, m_rows);
  position = m_sys.nc() ? stack(m_sys, m_rows, nullptr, m_mass.activeRows()).lpNorm<Eigen::Infinity>() : 0.0;
  velocity = m_sys.nc() ? stack(m_sys, m_rows, &s.v, m_mass.activeRows()).lpNorm<Eigen::Infinity>() : 0.0;
}

bool Consistency::assemblePositions(State& s, double tol, int max_iter, double& residual, std::string& error) {
  const int nv = m_sys.nv(), nc = m_sys.nc();
  residual = 0;
  if (nc == 0) return true;
  for (int it = 0; it <= max_iter; ++it) {
    m_sys.kinematics(s, m_kin);
    m_sys.constraints(m_kin, s.t, m_rows);
    const VecX phi = stack(m_sys, m_rows, nullptr, m_mass.activeRows());
    residual = phi.lpNorm<Eigen::Infinity>();
    if (!std::isfinite(residual)) break;
    if (residual <= tol) return true;
    if (it == max_iter) break;
    if (!factorMetric(s, Metric::Identity)) {
      error = "positions could not be assembled onto the constraints: the constraint Jacobian is singular where "
              "the assembly stopped (a loop whose geometry does not close, or drivers that contradict each other?); "
              "largest residual in " + worstConstraint(m_sys, phi);
      return false;
    }
    VecX rhs = VecX::Zero(nv + nc);
    rhs.tail(nc) = -phi;
    if (!m_identity.solve(rhs)) break;
    m_sys.retract(s.q, rhs.head(nv));
  }
  m_sys.kinematics(s, m_kin);
  m_sys.constraints(m_kin, s.t, m_rows);
  error = "positions could not be assembled onto the constraints (a loop whose geometry does not close, or drivers "
          "that contradict each other?); largest residual in " +
          worstConstraint(m_sys, stack(m_sys, m_rows, nullptr, m_mass.activeRows()));
  return false;
}

bool Consistency::projectVelocities(State& s, double& residual_before, bool freeze_deformation_rates) {
  const int nv = m_sys.nv(), nc = m_sys.nc();
  residual_before = 0;
  if (nc == 0) return true;
  if (!factorMetric(s, freeze_deformation_rates ? Metric::MassFrozenModes : Metric::Mass)) return false;
  const VecX r = stack(m_sys, m_rows, &s.v, m_mass.activeRows());
  residual_before = r.lpNorm<Eigen::Infinity>();
  VecX rhs = VecX::Zero(nv + nc);
  rhs.tail(nc) = -r;
  if (!m_mass.solve(rhs)) return false;
  s.v += rhs.head(nv);
  return true;
}

bool Consistency::accelerations(const State& s, VecX& vdot, VecX& lambda) {
  const int nv = m_sys.nv(), nc = m_sys.nc();
  if (!factorMetric(s, Metric::Mass)) return false;
  VecX f;
  m_sys.forces(m_kin, s.t, f);
  VecX rhs(nv + nc);
  rhs.head(nv) = f;
  for (size_t c = 0; c < m_rows.size(); ++c)
    rhs.segment(nv + m_sys.constraintOffsets()[c], m_sys.constraints()[c]->rows()) = -m_rows[c].gamma;
  for (int i = 0; i < nc; ++i)
    if (!m_mass.activeRows()[i]) rhs(nv + i) = 0;
  if (!m_mass.solve(rhs)) return false;
  vdot = rhs.head(nv);
  lambda = rhs.tail(nc);
  return true;
}

}  // namespace flexim
