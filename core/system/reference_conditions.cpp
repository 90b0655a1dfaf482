// Mean-axis and principal-axis reference conditions from the modal invariants (conventions: reference_conditions.h),
// after the floating-frame solid-element paper (Multibody Syst. Dyn. 2023, doi:10.1007/s11044-023-09875-y), Sec. 2.3.
#include "core/system/reference_conditions.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace flexim {

namespace {

constexpr int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};  // (xi, eta), (xi, zeta), (eta, zeta): Eq. (25)/(26) order

void checkInvariants(const fe::ModalInvariants& inv, const char* who) {
  const int m = inv.modeCount();
  const bool ok = inv.I3.rows() == 3 && inv.I4.rows() == 3 && inv.I4.cols() == m &&
                  static_cast<int>(inv.I5.size()) == m && static_cast<int>(inv.J1.size()) == m &&
                  static_cast<int>(inv.J2.size()) == m * m;
  if (!ok && m > 0) throw std::invalid_argument(std::string(who) + ": inconsistent modal invariants");
}

void checkSizes(int m, const VecX& w, const VecX& v, const char* who) {
  if (w.size() != m || v.size() != 6 + m)
    throw std::invalid_argument(std::string(who) + ": expected w of size m and v of size 6 + m");
}

}  // namespace

void FlexibleConstraintRows::resize(int rows, int cols) {
  phi.setZero(rows);
  phit.setZero(rows);
  gamma.setZero(rows);
  G.setZero(rows, cols);
  holonomic.assign(rows, true);
}

// ---------------------------------------------------------------------------------------------
// MAC (MSD 2023 Sec. 2.3.2)

MeanAxisConditions::MeanAxisConditions(const fe::ModalInvariants& inv) : m_inv(inv), m_m(inv.modeCount()) {
  checkInvariants(m_inv, "MeanAxisConditions");
  if (m_m == 0) m_inv.I3 = m_inv.I4 = MatX::Zero(3, 0);
}

void MeanAxisConditions::evaluate(const VecX& w, const VecX& v, FlexibleConstraintRows& out) const {
  const int m = m_m;
  checkSizes(m, w, v, "MeanAxisConditions");
  out.resize(6, 6 + m);
  // Position level: translational rows are the exact integral of Eq. (36) rows 1-3 (sum m_k delta'_k = I3 w);
  // rotational rows are velocity-level only (they have no position form); report the linearised residual I4 w.
  out.phi.head<3>() = m_inv.I3 * w;
  out.phi.tail<3>() = m_inv.I4 * w;
  for (int r = 3; r < 6; ++r) out.holonomic[r] = false;
  // Jacobian, Eq. (38) times X, in invariant form: [I3 ; M_phi_w], zero on r_dot and omega' columns (Eq. 19).
  MatX Mpw = m_inv.I4;
  for (int l = 0; l < m; ++l) Mpw += w(l) * m_inv.I5[l];
  out.G.block(0, 6, 3, m) = m_inv.I3;
  out.G.block(3, 6, 3, m) = Mpw;
  // Gamma = d/dt(M_phi_w) w_dot = (sum_l w_dot_l I5_l) w_dot = sum m_k delta_dot'_k x delta_dot'_k = 0,
  // Eq. (39). Evaluated (rather than hard-coded) so that the result is the exact Phi_ddot of the
  // invariant form: it is zero up to round-off because I5_l(:, j) = -I5_j(:, l).
  const VecX wd = v.tail(m);
  Vec3 g = Vec3::Zero();
  for (int l = 0; l < m; ++l) g += wd(l) * (m_inv.I5[l] * wd);
  out.gamma.tail<3>() = g;
}

Eigen::Matrix<double, 6, 1> MeanAxisConditions::velocityResidual(const VecX& w, const VecX& v) const {
  FlexibleConstraintRows rows;
  evaluate(w, v, rows);
  return rows.G * v;
}

// ---------------------------------------------------------------------------------------------
// PAC (MSD 2023 Sec. 2.3.1)

PrincipalAxisConditions::PrincipalAxisConditions(const fe::ModalInvariants& inv)
    : m_inv(inv), m_m(inv.modeCount()) {
  checkInvariants(m_inv, "PrincipalAxisConditions");
  if (m_m == 0) m_inv.I3 = m_inv.I4 = MatX::Zero(3, 0);
}

Mat3 PrincipalAxisConditions::secondMoment(const VecX& w) const {
  Mat3 J = m_inv.J0;  // J(w) = J0 + sum w_j J1_j + sum w_j w_l J2_jl
  for (int j = 0; j < m_m; ++j) {
    J += w(j) * m_inv.J1[j];
    for (int l = 0; l < m_m; ++l) J += w(j) * w(l) * m_inv.J2[static_cast<size_t>(j) * m_m + l];
  }
  return 0.5 * J.trace() * Mat3::Identity() - J;  // E = 1/2 tr(J) I - J  (J = tr(E) I - E, Eq. 23)
}

void PrincipalAxisConditions::evaluate(const VecX& w, const VecX& v, FlexibleConstraintRows& out) const {
  const int m = m_m;
  checkSizes(m, w, v, "PrincipalAxisConditions");
  out.resize(6, 6 + m);
  const VecX wd = v.tail(m);
  // Eq. (26): first moment and the products sum m_k b_a b_b = E_ab = -J_ab (Eqs. 21, 25)
  const Mat3 E = secondMoment(w);
  out.phi.head<3>() = m_inv.I2 + m_inv.I3 * w;
  for (int p = 0; p < 3; ++p) out.phi(3 + p) = E(kPairs[p][0], kPairs[p][1]);
  // Jacobian, Eqs. (29)-(31) times X: rows 0-2 = I3; rows 3-5: dE_ab/dw_j = -(dJ/dw_j)_ab
  out.G.block(0, 6, 3, m) = m_inv.I3;
  Mat3 Jq = Mat3::Zero();  // sum_jl w_dot_j w_dot_l J2_jl
  for (int j = 0; j < m; ++j) {
    Mat3 dJ = m_inv.J1[j];
    for (int l = 0; l < m; ++l) {
      const Mat3& J2jl = m_inv.J2[static_cast<size_t>(j) * m + l];
      dJ += w(l) * (J2jl + m_inv.J2[static_cast<size_t>(l) * m + j]);
      Jq += wd(j) * wd(l) * J2jl;
    }
    for (int p = 0; p < 3; ++p) out.G(3 + p, 6 + j) = -dJ(kPairs[p][0], kPairs[p][1]);
  }
  // Gamma = Phi_ddot at w_ddot = 0 = 2 sum m_k delta_dot_a delta_dot_b = -2 Jq_ab  (= -gamma of Eq. 33)
  for (int p = 0; p < 3; ++p) out.gamma(3 + p) = -2.0 * Jq(kPairs[p][0], kPairs[p][1]);
}

PrincipalAxisCheck PrincipalAxisConditions::applicability(const fe::ModalInvariants& inv, double relTol) {
  // check() reads only the mass and the first and second moments: the rest stays empty
  fe::ModalInvariants centroidal;
  centroidal.I1 = inv.I1;
  const Vec3 c = inv.I1 > 0 ? Vec3(inv.I2 / inv.I1) : Vec3::Zero();
  const Mat3 Jc = inv.J0 - inv.I1 * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
  Eigen::SelfAdjointEigenSolver<Mat3> es(Jc, Eigen::EigenvaluesOnly);
  centroidal.J0 = es.eigenvalues().asDiagonal();  // on the principal axes
  return check(centroidal, relTol);
}

PrincipalAxisCheck PrincipalAxisConditions::check(const fe::ModalInvariants& inv, double relTol, double frameTol) {
  PrincipalAxisCheck c;
  Eigen::SelfAdjointEigenSolver<Mat3> es(inv.J0, Eigen::EigenvaluesOnly);
  c.principalMoments = es.eigenvalues();  // ascending
  const Vec3& J = c.principalMoments;
  const double jmax = std::max(std::abs(J(2)), 1e-300);
  c.minRelativeGap = std::min(J(1) - J(0), J(2) - J(1)) / jmax;
  c.distinct = c.minRelativeGap >= relTol;
  const double L = inv.I1 > 0 ? std::sqrt(std::max(inv.J0.trace(), 0.0) / inv.I1) : 1.0;
  c.firstMomentResidual = inv.I1 > 0 && L > 0 ? inv.I2.norm() / (inv.I1 * L) : 0.0;
  c.productResidual = std::max({std::abs(inv.J0(0, 1)), std::abs(inv.J0(0, 2)), std::abs(inv.J0(1, 2))}) / jmax;
  char buf[400];
  if (!c.distinct) {
    std::snprintf(buf, sizeof buf,
                  "PAC is ill-posed: two principal moments of inertia are nearly equal (%.6g, %.6g, %.6g kg m^2; "
                  "relative gap %.3g < %.3g), so the principal axes, and the frame's rotation about them, are "
                  "not determined by the body. Use the mean-axis conditions (MAC, \"reference\": \"mean_axis\") "
                  "for this body.",
                  J(0), J(1), J(2), c.minRelativeGap, relTol);
    c.warning = buf;
  }
  if (c.firstMomentResidual > frameTol || c.productResidual > frameTol) {
    std::snprintf(buf, sizeof buf,
                  "%sPAC requires the body frame at the lumped-mass centre of mass on the principal axes at t = 0 "
                  "(first-moment residual %.3g, product-of-inertia residual %.3g, relative).",
                  c.warning.empty() ? "" : " ", c.firstMomentResidual, c.productResidual);
    c.warning += buf;
  }
  return c;
}

}  // namespace flexim
