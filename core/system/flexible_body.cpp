// Modal floating-frame equations of one flexible body (see flexible_body.h for conventions).
// Equation numbers: floating-frame solid-element paper (Multibody Syst. Dyn. 2023, doi:10.1007/s11044-023-09875-y).
#include "core/system/flexible_body.h"

#include "core/base/rotation.h"
#include "core/fe/stiffening.h"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <stdexcept>
#include <string>

namespace flexim {

FlexibleBodyDynamics::FlexibleBodyDynamics(const fe::ModalInvariants& inv, const ModalDamping& damping)
    : m_inv(inv), m_m(inv.modeCount()) {
  const int m = m_m;
  if (m == 0) {  // allow a default-constructed (rigid) invariant set
    m_inv.I3 = MatX::Zero(3, 0);
    m_inv.I4 = MatX::Zero(3, 0);
  }
  const auto check = [&](bool ok, const char* what) {
    if (!ok) throw std::invalid_argument(std::string("FlexibleBodyDynamics: inconsistent invariants (") + what + ")");
  };
  check(m_inv.I4.rows() == 3 && m_inv.I4.cols() == m, "I4");
  check(static_cast<int>(m_inv.I5.size()) == m, "I5");
  check(static_cast<int>(m_inv.J1.size()) == m, "J1");
  check(static_cast<int>(m_inv.J2.size()) == m * m, "J2");
  check(m_inv.Mbar.rows() == m && m_inv.Mbar.cols() == m, "Mbar");
  if (m_inv.Kbar.size() == 0) m_inv.Kbar = MatX::Zero(m, m);
  check(m_inv.Kbar.rows() == m && m_inv.Kbar.cols() == m, "Kbar");
  check(damping.zeta.size() == 0 || damping.zeta.size() == m, "damping ratios: one per mode");

  // Optional damping (not in the paper): modal part diag(2 zeta_j sqrt(Kbar_jj Mbar_jj)) (= 2 zeta_j omega_j
  // for mass-normalised modes, Eqs. 72-73) plus Rayleigh alpha Mbar + beta Kbar.
  m_D = damping.alpha * m_inv.Mbar + damping.beta * m_inv.Kbar;
  for (int j = 0; j < damping.zeta.size(); ++j) {
    const double kj = std::max(0.0, m_inv.Kbar(j, j)), mj = std::max(0.0, m_inv.Mbar(j, j));
    m_D(j, j) += 2.0 * damping.zeta(j) * std::sqrt(kj * mj);
  }
}

void FlexibleBodyDynamics::setGeometricStiffening(std::shared_ptr<const GeometricStiffening> stiffening) {
  m_stiffening = std::move(stiffening);
  // J0^-1 I4 on the well-determined axes of J0; on the others the held interface's rate (the
  // frame's only when it is that interface or there is none; GeometricStiffening)
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(m_inv.J0);
  const Vec3 moments = eig.eigenvalues();
  Mat3 inverse = Mat3::Zero(), poor = Mat3::Zero();
  for (int i = 0; i < 3; ++i) {
    const Vec3 axis = eig.eigenvectors().col(i);
    if (moments(i) >= 1e-2 * moments.maxCoeff() && moments(i) > 0) inverse += axis * axis.transpose() / moments(i);
    else poor += axis * axis.transpose();
  }
  m_meanRate = inverse * m_inv.I4;
  if (m_stiffening && m_stiffening->held.rows() == 3 && m_stiffening->held.cols() == m_m)
    m_meanRate += poor * m_stiffening->held;
}

VecX FlexibleBodyDynamics::stiffeningForce(const Mat3& A, const Vec3& om, const VecX& w, const VecX& wdot) const {
  VecX f = VecX::Zero(m_m);
  if (!m_stiffening || m_m == 0) return f;
  const GeometricStiffening& S = *m_stiffening;
  // the load factors of gravity (body axes) and of the body's mean angular velocity; the frame's
  // accelerations are left out (GeometricStiffening)
  const auto factors = fe::inertiaLoadFactors(Vec3::Zero(), Vec3::Zero(), om + m_meanRate * wdot,
                                              A.transpose() * S.gravity);
  for (int i = 0; i < 3; ++i)
    if (factors[i] != 0.0) f.noalias() -= factors[i] * (S.translational[static_cast<size_t>(i)] * w);
  for (int p = 0; p < 6; ++p)
    if (factors[6 + p] != 0.0) f.noalias() -= factors[6 + p] * (S.centrifugal[static_cast<size_t>(p)] * w);
  return f;
}

Vec3 FlexibleBodyDynamics::firstMoment(const VecX& w) const { return m_inv.I2 + m_inv.I3 * w; }

MatX FlexibleBodyDynamics::rotationModeCoupling(const VecX& w) const {
  MatX Mpw = m_inv.I4;  // invariant form: M_phi_w = I4 + sum_l w_l I5_l (= M_phi_f X of Eq. 13)
  for (int l = 0; l < m_m; ++l) Mpw += w(l) * m_inv.I5[l];
  return Mpw;
}

void FlexibleBodyDynamics::inertiaDerivatives(const VecX& w, std::vector<Mat3>& dJ) const {
  const int m = m_m;
  dJ.resize(m);
  for (int j = 0; j < m; ++j) {
    Mat3 d = m_inv.J1[j];
    for (int l = 0; l < m; ++l) d += w(l) * (m_inv.J2[static_cast<size_t>(j) * m + l] + m_inv.J2[static_cast<size_t>(l) * m + j]);
    dJ[j] = d;
  }
}

// J(w) = J0 + sum_j w_j J1_j + sum_jl w_j w_l J2_jl = J0 + 1/2 sum_j w_j (J1_j + dJ/dw_j)  (Eqs. 22-24 via 2.8)
Mat3 FlexibleBodyDynamics::inertiaFrom(const VecX& w, const std::vector<Mat3>& dJ) const {
  Mat3 J = m_inv.J0;
  for (int j = 0; j < m_m; ++j) J += 0.5 * w(j) * (m_inv.J1[j] + dJ[j]);
  return J;
}

Mat3 FlexibleBodyDynamics::inertia(const VecX& w) const {
  Mat3 J = m_inv.J0;
  for (int j = 0; j < m_m; ++j) {
    Mat3 row = m_inv.J1[j];
    for (int l = 0; l < m_m; ++l) row += w(l) * m_inv.J2[static_cast<size_t>(j) * m_m + l];
    J += w(j) * row;
  }
  return J;
}

void FlexibleBodyDynamics::massTimes(const Mat3& A, const VecX& w, const Eigen::Ref<const VecX>& a,
                                     Eigen::Ref<VecX> out) const {
  // massMatrix's blocks times a; M_r_phi = -A c~, so M_r_phi a_phi = -A (c x a_phi) and
  // M_phi_r a_r = c x (A^T a_r)
  const Vec3 c = firstMoment(w), ar = a.segment<3>(0), ap = a.segment<3>(3), arBody = A.transpose() * ar;
  out.segment<3>(0) = m_inv.I1 * ar - A * c.cross(ap);
  out.segment<3>(3) = c.cross(arBody) + inertia(w) * ap;
  if (m_m > 0) {
    const auto aw = a.tail(m_m);
    const MatX Mpw = rotationModeCoupling(w);
    out.segment<3>(0) += A * (m_inv.I3 * aw);
    out.segment<3>(3) += Mpw * aw;
    out.tail(m_m).noalias() = m_inv.I3.transpose() * arBody;
    out.tail(m_m).noalias() += Mpw.transpose() * ap;
    out.tail(m_m).noalias() += m_inv.Mbar * aw;
  }
}

void FlexibleBodyDynamics::massMatrix(const Mat3& A, const VecX& w, MatX& M) const {
  const int m = m_m, n = 6 + m;
  M.setZero(n, n);
  const Vec3 c = firstMoment(w);
  const Mat3 cs = skew(c);
  const MatX Mpw = rotationModeCoupling(w);
  // Eq. (13) blocks with delta' = X w (Eq. 68), in invariant form
  M.block<3, 3>(0, 0) = m_inv.I1 * Mat3::Identity();  // M_rr
  M.block<3, 3>(0, 3) = -A * cs;                       // M_r_phi = -sum m_k A b~'_k
  M.block<3, 3>(3, 0) = M.block<3, 3>(0, 3).transpose();
  M.block<3, 3>(3, 3) = inertia(w);                    // M_phi_phi = J(w)
  if (m > 0) {
    M.block(0, 6, 3, m) = A * m_inv.I3;                // M_r_w = sum m_k A Phi_k
    M.block(6, 0, m, 3) = M.block(0, 6, 3, m).transpose();
    M.block(3, 6, 3, m) = Mpw;                         // M_phi_w = sum m_k b~'_k Phi_k
    M.block(6, 3, m, 3) = Mpw.transpose();
    M.block(6, 6, m, m) = m_inv.Mbar;                  // M_ww = X^T M_ff X (Eq. 72: = I)
  }
}

void FlexibleBodyDynamics::quadraticVelocity(const Mat3& A, const Vec3& om, const VecX& w, const VecX& wdot,
                                             VecX& s) const {
  const int m = m_m;
  s.setZero(6 + m);
  std::vector<Mat3> dJ;
  inertiaDerivatives(w, dJ);
  const Mat3 J = inertiaFrom(w, dJ);
  const Vec3 c = firstMoment(w);
  const MatX Mpw = rotationModeCoupling(w);
  Mat3 Jdot = Mat3::Zero();
  MatX W5 = MatX::Zero(3, m);  // sum_l w_dot_l I5_l
  for (int l = 0; l < m; ++l) {
    Jdot += wdot(l) * dJ[l];
    W5 += wdot(l) * m_inv.I5[l];
  }
  const Vec3 I3wd = m_inv.I3 * wdot;  // sum m_k delta_dot'_k (Eq. 70)
  // corrected Eq. (17) (MSD 2023 Sec. 2.2), in invariant form:
  s.segment<3>(0) = -A * om.cross(om.cross(c) + 2.0 * I3wd);
  // s_phi = -sum m_k b~'_k (omega~ omega~ b'_k + 2 omega~ delta_dot'_k)
  //       = -omega~ (J omega + M_phi_w w_dot) - J_dot omega      (the paper's third term is spurious)
  s.segment<3>(3) = -om.cross(J * om + Mpw * wdot) - Jdot * om;
  // s_w = -sum m_k Phi_k^T (omega~ omega~ b'_k + 2 omega~ Phi_k w_dot)   (flexible row; Eq. 17 prints b~'_k for b'_k)
  for (int j = 0; j < m; ++j) s(6 + j) = 0.5 * om.dot(dJ[j] * om) - 2.0 * W5.col(j).dot(om);
}

void FlexibleBodyDynamics::elasticForces(const VecX& w, const VecX& wdot, VecX& f) const {
  f.setZero(6 + m_m);
  if (m_m > 0) f.tail(m_m) = -m_inv.Kbar * w - m_D * wdot;  // Eq. (75): -Lambda w (general Kbar), - D w_dot
}

double FlexibleBodyDynamics::kineticEnergy(const Mat3& A, const VecX& w, const VecX& v) const {
  thread_local VecX Mv;
  Mv.resize(6 + m_m);
  massTimes(A, w, v, Mv);
  return 0.5 * v.dot(Mv);  // Eq. (12)
}

double FlexibleBodyDynamics::strainEnergy(const VecX& w) const {
  return m_m > 0 ? 0.5 * w.dot(m_inv.Kbar * w) : 0.0;  // Eq. (14)
}

Vec3 FlexibleBodyDynamics::linearMomentum(const Mat3& A, const VecX& w, const VecX& v) const {
  const Vec3 c = firstMoment(w);
  Vec3 p = m_inv.I1 * v.segment<3>(0) + A * v.segment<3>(3).cross(c);  // -A c~ omega = A (omega x c)
  if (m_m > 0) p += A * (m_inv.I3 * v.tail(m_m));
  return p;
}

Vec3 FlexibleBodyDynamics::angularMomentum(const Vec3& r, const Mat3& A, const VecX& w, const VecX& v) const {
  const Vec3 c = firstMoment(w);
  const Vec3 p = linearMomentum(A, w, v);
  // body-axes moment of momentum about the frame origin = M_phi rows of M v
  Vec3 h = c.cross(A.transpose() * v.segment<3>(0)) + inertia(w) * v.segment<3>(3);
  if (m_m > 0) h += rotationModeCoupling(w) * v.tail(m_m);
  return r.cross(p) + A * h;
}

Vec3 FlexibleBodyDynamics::nodeLocalPosition(const Vec3& x_k, const MatX& Phi_k, const VecX& w) {
  return Phi_k.cols() > 0 ? Vec3(x_k + Phi_k * w) : x_k;
}

void FlexibleBodyDynamics::nodeJacobian(const Mat3& A, const Vec3& x_k, const MatX& Phi_k, const VecX& w, MatX& Jk) {
  const int m = static_cast<int>(Phi_k.cols());
  Jk.setZero(3, 6 + m);
  Jk.block<3, 3>(0, 0).setIdentity();
  Jk.block<3, 3>(0, 3) = -A * skew(nodeLocalPosition(x_k, Phi_k, w));  // Eq. (8)
  if (m > 0) Jk.block(0, 6, 3, m) = A * Phi_k;
}

Vec3 FlexibleBodyDynamics::nodeAccelerationBias(const Mat3& A, const Vec3& om, const Vec3& x_k, const MatX& Phi_k,
                                                const VecX& w, const VecX& wdot) {
  const Vec3 b = nodeLocalPosition(x_k, Phi_k, w);
  const Vec3 bd = Phi_k.cols() > 0 ? Vec3(Phi_k * wdot) : Vec3::Zero();
  return A * om.cross(om.cross(b) + 2.0 * bd);  // velocity terms of d/dt of Eq. (8)
}

void FlexibleBodyDynamics::addPointForce(const Mat3& A, const VecX& w, const Vec3& x_k, const MatX& Phi_k,
                                         const Vec3& F, VecX& g) const {
  const Vec3 b = nodeLocalPosition(x_k, Phi_k, w);
  const Vec3 Fb = A.transpose() * F;
  g.segment<3>(0) += F;              // F
  g.segment<3>(3) += b.cross(Fb);    // b~'_k A^T F
  if (m_m > 0) g.tail(m_m) += Phi_k.transpose() * Fb;
}

void FlexibleBodyDynamics::addGravity(const Mat3& A, const VecX& w, const Vec3& gv, VecX& g) const {
  const Vec3 gb = A.transpose() * gv;
  g.segment<3>(0) += m_inv.I1 * gv;           // I1 g
  g.segment<3>(3) += firstMoment(w).cross(gb);  // c~(w) A^T g
  if (m_m > 0) g.tail(m_m) += m_inv.I3.transpose() * gb;
}

double FlexibleBodyDynamics::gravityPotential(const Vec3& r, const Mat3& A, const VecX& w, const Vec3& gv) const {
  return -gv.dot(m_inv.I1 * r + A * firstMoment(w));
}

}  // namespace flexim
