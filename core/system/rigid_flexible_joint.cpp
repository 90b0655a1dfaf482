// Rigid-flexible joint for virtual bodies on 3-DOF-node flexible bodies and its node selection (Fig. 4), after the
// floating-frame solid-element paper (Multibody Syst. Dyn. 2023, doi:10.1007/s11044-023-09875-y), Sec. 2.4; see .h.
#include "core/system/rigid_flexible_joint.h"

#include "core/base/rotation.h"
#include "core/system/flexible_body.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <stdexcept>

namespace flexim {

namespace {

/// Unit vector e = c/|c| of a body-frame vector c(w) with its rate, its Jacobian w.r.t. w and its
/// second derivative at zero modal acceleration (the paper's Eqs. 52-55, 61-63, rederived):
///   e_dot = P(e) c_dot / |c|,  de/dw = P(e) dc/dw / |c|,
///   e_ddot = P(e) c_ddot / |c| - (2 e_dot e^T + e e_dot^T) c_dot / |c|,   P(e) = I - e e^T.
struct UnitVec {
  Vec3 e, rate, acc;
  MatX D;  // 3 x m
};

UnitVec unitOf(const Vec3& c, const Vec3& cdot, const Vec3& cddot, const MatX& Dc, const char* what) {
  const double L = c.norm();
  if (!(L > 0)) throw std::domain_error(std::string("RigidFlexibleJoint: degenerate node frame (") + what + ")");
  UnitVec u;
  u.e = c / L;
  const Mat3 P = Mat3::Identity() - u.e * u.e.transpose();
  u.rate = P * cdot / L;
  u.acc = P * cddot / L - (2.0 * u.rate * u.e.transpose() + u.e * u.rate.transpose()) * cdot / L;
  u.D = P * Dc / L;
  return u;
}

/// The node frame of Eqs. (46)-(48) with rates (52)-(55) and zero-acceleration second derivatives.
struct NodeTriad {
  UnitVec e1, a, e2;
};

NodeTriad nodeTriad(const std::array<Vec3, 3>& x, const std::array<MatX, 3>& Phi, const VecX& w, const VecX& wd) {
  const int m = static_cast<int>(Phi[0].cols());
  const MatX B1 = Phi[1] - Phi[0], Ba = Phi[2] - Phi[0];  // d b'_km / dw, d b'_kn / dw (3 x m)
  Vec3 bkm = x[1] - x[0], bkn = x[2] - x[0], bkmDot = Vec3::Zero(), bknDot = Vec3::Zero();
  if (m > 0) {
    bkm += B1 * w;
    bkn += Ba * w;
    bkmDot = B1 * wd;
    bknDot = Ba * wd;
  }
  NodeTriad t;
  // b'_km, b'_kn are linear in w: their second derivative vanishes at w_ddot = 0
  t.e1 = unitOf(bkm, bkmDot, Vec3::Zero(), B1, "nodes k and m coincide");  // Eq. (46), (52)
  t.a = unitOf(bkn, bknDot, Vec3::Zero(), Ba, "nodes k and n coincide");   // Eq. (47), (54)
  // c = e1 x a (Eq. 48); c_dot = e1_dot x a + e1 x a_dot = -a~ e1_dot + e1~ a_dot (Eq. 55);
  // c_ddot = e1_ddot x a + 2 e1_dot x a_dot + e1 x a_ddot (Eq. 63)
  const Vec3 c = t.e1.e.cross(t.a.e);
  const Vec3 cdot = t.e1.rate.cross(t.a.e) + t.e1.e.cross(t.a.rate);
  const Vec3 cddot = t.e1.acc.cross(t.a.e) + 2.0 * t.e1.rate.cross(t.a.rate) + t.e1.e.cross(t.a.acc);
  const MatX Dc = skew(t.e1.e) * t.a.D - skew(t.a.e) * t.e1.D;  // Eq. (58) before P(e2)/|c|
  t.e2 = unitOf(c, cdot, cddot, Dc, "nodes k, m, n collinear (Eq. 64)");  // Eq. (48), (53), (55)
  return t;
}

}  // namespace

double RigidFlexibleSingularity::worst() const { return std::max({collinear, c12, c13, c23, 1.0 - determinant}); }

RigidFlexibleJoint::RigidFlexibleJoint(const Vec3& xK, const MatX& PhiK, const Vec3& xM, const MatX& PhiM,
                                       const Vec3& xN, const MatX& PhiN, const Mat3& axesJ)
    : m_x{xK, xM, xN}, m_Phi{PhiK, PhiM, PhiN}, m_axesJ(axesJ) {
  const int m = static_cast<int>(PhiK.cols());
  for (const MatX& P : m_Phi)
    if (P.rows() != 3 || P.cols() != m)
      throw std::invalid_argument("RigidFlexibleJoint: mode-shape rows must be 3 x m for all three nodes");
}

Vec3 RigidFlexibleJoint::nodeKPosition(const Vec3& ri, const Mat3& Ai, const VecX& w) const {
  return ri + Ai * FlexibleBodyDynamics::nodeLocalPosition(m_x[0], m_Phi[0], w);  // Eq. (3)
}

Mat3 RigidFlexibleJoint::nodeFrame(const VecX& w) const {
  const NodeTriad t = nodeTriad(m_x, m_Phi, w, VecX::Zero(w.size()));
  Mat3 F;
  F.col(0) = t.e1.e;
  F.col(1) = t.e2.e;
  F.col(2) = t.e1.e.cross(t.e2.e);
  return F;
}

Vec3 RigidFlexibleJoint::initialize(const Mat3& Ai, const VecX& w, const Mat3& Aj) {
  const Mat3 F = Ai * nodeFrame(w), Ej = Aj * m_axesJ;
  // Eq. (50): cosines of the initial angles between the node frame and the virtual-body axes
  m_beta = Vec3(F.col(0).dot(Ej.col(1)), F.col(0).dot(Ej.col(2)), F.col(1).dot(Ej.col(2)));
  return m_beta;
}

void RigidFlexibleJoint::evaluate(const Vec3& ri, const Mat3& Ai, const VecX& w, const VecX& vi, const Vec3& rj,
                                  const Mat3& Aj, const Vec6& vj, RigidFlexibleRows& out) const {
  const int m = modes();
  if (w.size() != m || vi.size() != 6 + m)
    throw std::invalid_argument("RigidFlexibleJoint::evaluate: expected w of size m and v_i of size 6 + m");
  const Vec3 omi = vi.segment<3>(3), omj = vj.segment<3>(3);
  const VecX wd = vi.tail(m);
  out.phi.setZero();
  out.phit.setZero();  // Eqs. (43), (59): nu = 0
  out.gamma.setZero();
  out.Gi.setZero(6, 6 + m);
  out.Gj.setZero();

  // --- translational part, Eqs. (40)-(45) -------------------------------------------------------
  const Vec3 bk = FlexibleBodyDynamics::nodeLocalPosition(m_x[0], m_Phi[0], w);
  out.phi.head<3>() = rj - ri - Ai * bk;  // Eq. (40)
  MatX Jk;
  FlexibleBodyDynamics::nodeJacobian(Ai, m_x[0], m_Phi[0], w, Jk);  // [I, -A b~'_k, A Phi_k], Eq. (8)
  out.Gi.topRows(3) = -Jk;                                          // Eq. (42)
  out.Gj.block<3, 3>(0, 0).setIdentity();
  // Gamma = -gamma of Eq. (45) = -A omega~ (omega~ b'_k + 2 Phi_k w_dot)
  out.gamma.head<3>() = -FlexibleBodyDynamics::nodeAccelerationBias(Ai, omi, m_x[0], m_Phi[0], w, wd);

  // --- rotational part, Eqs. (46)-(63) ----------------------------------------------------------
  const NodeTriad t = nodeTriad(m_x, m_Phi, w, wd);
  const UnitVec* ui[3] = {&t.e1, &t.e1, &t.e2};  // body-i vector of each row (Eq. 50)
  const int vjCol[3] = {1, 2, 2};                 // e'_j2, e'_j3, e'_j3
  for (int r = 0; r < 3; ++r) {
    const UnitVec& U = *ui[r];
    const Vec3 vL = m_axesJ.col(vjCol[r]);  // e'_j in body-j axes
    const Vec3 u = Ai * U.e, v = Aj * vL;   // global
    const Vec3 vInI = Ai.transpose() * v, uInJ = Aj.transpose() * u;
    out.phi(3 + r) = u.dot(v) - m_beta(r);  // Eq. (50)
    // Jacobian, Eq. (57): d(u.v)/dt = v.(A_i (omega_i x e' + e'_dot)) + u.(A_j (omega_j x v'))
    //   omega_i columns: (e' x A_i^T v)^T = -(A_j e'_j)^T A_i e~'   ;  omega_j columns: (v' x A_j^T u)^T
    //   w columns: (A_j e'_j)^T A_i de'/dw   (de'/dw = P(e)/L (S_m - S_k) X or P(e2)/|c| D X, Eq. 58)
    out.Gi.block<1, 3>(3 + r, 3) = U.e.cross(vInI).transpose();
    if (m > 0) out.Gi.block(3 + r, 6, 1, m) = vInI.transpose() * U.D;
    out.Gj.block<1, 3>(3 + r, 3) = vL.cross(uInJ).transpose();
    // Gamma = u_ddot.v + 2 u_dot.v_dot + u.v_ddot at zero accelerations (structure of Eqs. 61-63, rederived):
    //   u_dot = A_i (omega_i x e' + e'_dot),  u_ddot = A_i (omega_i x (omega_i x e') + 2 omega_i x e'_dot + e'_ddot)
    //   v_dot = A_j (omega_j x v'),           v_ddot = A_j (omega_j x (omega_j x v'))
    const Vec3 uDot = Ai * (omi.cross(U.e) + U.rate);
    const Vec3 uDdot = Ai * (omi.cross(omi.cross(U.e)) + 2.0 * omi.cross(U.rate) + U.acc);
    const Vec3 vDot = Aj * omj.cross(vL), vDdot = Aj * omj.cross(omj.cross(vL));
    out.gamma(3 + r) = uDdot.dot(v) + 2.0 * uDot.dot(vDot) + u.dot(vDdot);
  }
}

RigidFlexibleSingularity RigidFlexibleJoint::singularity(const Mat3& Ai, const VecX& w, const Mat3& Aj,
                                                         double tol) const {
  RigidFlexibleSingularity s;
  const NodeTriad t = nodeTriad(m_x, m_Phi, w, VecX::Zero(w.size()));
  const Vec3 e1 = Ai * t.e1.e, e2 = Ai * t.e2.e, ej2 = Aj * m_axesJ.col(1), ej3 = Aj * m_axesJ.col(2);
  s.collinear = std::abs(t.e1.e.dot(t.a.e));  // (64)
  s.c12 = std::abs(ej2.dot(e1));              // (65)
  s.c13 = std::abs(ej3.dot(e1));              // (66)
  s.c23 = std::abs(ej3.dot(e2));              // (67)
  s.determinant = std::abs(e1.dot(Aj * m_axesJ.col(0)) * e1.cross(e2).dot(ej3));
  s.nearSingular = s.worst() > 1.0 - tol;
  if (s.nearSingular) {
    char buf[360];
    std::snprintf(buf, sizeof buf,
                  "rf joint near a singular configuration (Eqs. 64-67, Multibody Syst. Dyn. 2023): |e_i1.a_i| = %.6f, "
                  "|e_j2.e_i1| = %.6f, |e_j3.e_i1| = %.6f, |e_j3.e_i2| = %.6f, rotational Jacobian |det| = %.6f "
                  "(limit 1 - %.3g)",
                  s.collinear, s.c12, s.c13, s.c23, s.determinant, tol);
    s.warning = buf;
  }
  return s;
}

RfNodeSelection selectRfNodes(const std::vector<Vec3>& coords, const Vec3& P, const Mat3& axesJ_in_i, double tol,
                              const std::vector<int>& candidates) {
  RfNodeSelection sel;
  std::vector<int> idx = candidates;
  if (idx.empty()) {
    idx.resize(coords.size());
    std::iota(idx.begin(), idx.end(), 0);
  }
  for (int i : idx)
    if (i < 0 || i >= static_cast<int>(coords.size())) {
      sel.message = "rf node selection: candidate node index out of range";
      return sel;
    }
  if (idx.size() < 3) {
    sel.message = "rf node selection: fewer than 3 candidate nodes";
    return sel;
  }
  // Section 3.3: order the nodes by distance from the attachment point P (equal distances in
  // candidate order); k = nearest. m and n are nearly always among the nearest few, so the order
  // is made as far as the search below reads it: a sort of 100 000 nodes would cost milliseconds
  // at every compile.
  std::vector<std::pair<double, int>> order(idx.size());  // (distance^2, position in idx)
  Eigen::AlignedBox3d box;
  for (std::size_t p = 0; p < idx.size(); ++p) {
    order[p] = {(coords[std::size_t(idx[p])] - P).squaredNorm(), static_cast<int>(p)};
    box.extend(coords[std::size_t(idx[p])]);
  }
  std::size_t ordered = std::min<std::size_t>(order.size(), 64);
  std::partial_sort(order.begin(), order.begin() + std::ptrdiff_t(ordered), order.end());
  const auto nearest = [&](std::size_t c) {  // the c-th nearest candidate
    if (c >= ordered) {  // the rest is not below the ordered prefix: sorting it completes the order
      std::sort(order.begin() + std::ptrdiff_t(ordered), order.end());
      ordered = order.size();
    }
    return idx[std::size_t(order[c].second)];
  };
  const double minLen = 1e-9 * std::max(box.diagonal().norm(), 1e-300);
  const int k = nearest(0);
  const Vec3 xk = coords[k], ej1 = axesJ_in_i.col(0), ej2 = axesJ_in_i.col(1), ej3 = axesJ_in_i.col(2);
  // The rotational rows' Jacobian has det = (e_i1.e_j1)(e_i3.e_j3) (RigidFlexibleSingularity):
  // besides (64)-(67) both factors must stay away from zero, or the joint locks only 2 rotations.
  const double minFactor = std::sqrt(tol);
  // m: first node (by distance from P) whose direction from k violates neither (65) nor (66).
  int m = -1;
  Vec3 e1 = Vec3::Zero();
  for (size_t c = 1; c < idx.size() && m < 0; ++c) {
    const int node = nearest(c);
    const Vec3 d = coords[std::size_t(node)] - xk;
    if (d.norm() <= minLen) continue;
    const Vec3 e = d.normalized();
    if (std::abs(ej2.dot(e)) < 1.0 - tol && std::abs(ej3.dot(e)) < 1.0 - tol && std::abs(ej1.dot(e)) >= minFactor) {
      m = node;
      e1 = e;
    }
  }
  if (m < 0) {
    sel.message = "rf node selection: no node m with |e_j2.e_i1| and |e_j3.e_i1| below 1 - tol (Eqs. 65, 66) and "
                  "|e_j1.e_i1| above sqrt(tol)";
    return sel;
  }
  // n: first remaining node with k, m, n not collinear (64) and |e_j3.e_i2| below 1 - tol (67).
  int n = -1;
  Vec3 e2 = Vec3::Zero();
  for (size_t c = 1; c < idx.size() && n < 0; ++c) {
    const int node = nearest(c);
    if (node == m) continue;
    const Vec3 d = coords[std::size_t(node)] - xk;
    if (d.norm() <= minLen) continue;
    const Vec3 a = d.normalized();
    if (std::abs(e1.dot(a)) >= 1.0 - tol) continue;
    const Vec3 e = e1.cross(a).normalized();
    if (std::abs(ej3.dot(e)) < 1.0 - tol && std::abs(ej3.dot(e1.cross(e))) >= minFactor) {
      n = node;
      e2 = e;
    }
  }
  if (n < 0) {
    sel.message = "rf node selection: no node n with |e_i1.a_i| and |e_j3.e_i2| below 1 - tol (Eqs. 64, 67) and "
                  "|e_j3.e_i3| above sqrt(tol)";
    return sel;
  }
  sel.ok = true;
  sel.nodeK = k;
  sel.nodeM = m;
  sel.nodeN = n;
  sel.offset = xk - P;
  sel.distance = sel.offset.norm();
  sel.beta0 = Vec3(e1.dot(ej2), e1.dot(ej3), e2.dot(ej3));  // Eq. (50) at the undeformed configuration
  sel.cosines.collinear = std::abs(e1.dot((coords[n] - xk).normalized()));
  sel.cosines.c12 = std::abs(sel.beta0(0));
  sel.cosines.c13 = std::abs(sel.beta0(1));
  sel.cosines.c23 = std::abs(sel.beta0(2));
  sel.cosines.determinant = std::abs(e1.dot(ej1) * e1.cross(e2).dot(ej3));
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "virtual-body origin placed at node %d, %.6g m from the requested point", k,
                sel.distance);
  sel.message = buf;
  return sel;
}

}  // namespace flexim
