// FlexibleBodyDynamics (modal floating-frame equations, MSD 2023 Secs. 2.2, 2.5) against
//  - direct nodal sums of Eqs. (8), (12), (13) and the d'Alembert form of Eq. (17) on a random
//    lumped-mass "FE" point cloud with random (NOT mass-orthogonal, no mean-axis) mode shapes,
//  - Lagrange's equations evaluated by finite differences of the nodal kinetic energy,
//  - conservation of energy and momenta of the free body (RK4),
//  - the rigid limit (m = 0).
// MSD 2023: the floating-frame solid-element paper (Multibody Syst. Dyn. 2023, doi:10.1007/s11044-023-09875-y);
// equation numbers are its own.
#include "core/base/rotation.h"
#include "core/fe/reduced_body.h"
#include "core/system/flexible_body.h"

#include "random_helpers.h"

#include <QtTest>

#include <Eigen/Dense>

#include <random>

using namespace flexim;

namespace {

/// A random lumped-mass point cloud with random mode shapes and a random SPD modal stiffness.
struct Cloud {
  std::vector<Vec3> x;
  std::vector<double> mass;
  MatX X;  // 3n x m, node-major
  fe::ModalInvariants inv;
  MatX Phi(int k) const { return X.middleRows(3 * k, 3); }
  int n() const { return static_cast<int>(x.size()); }
  int m() const { return static_cast<int>(X.cols()); }
};

Cloud makeCloud(int n, int m, unsigned seed, bool centre = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  Cloud c;
  c.x.resize(n);
  c.mass.resize(n);
  for (int k = 0; k < n; ++k) {
    c.x[k] = Vec3(0.8 * u(rng) + 0.3, 0.5 * u(rng) - 0.1, 0.3 * u(rng) + 0.2);  // frame origin off the CoM
    c.mass[k] = 1.0 + 0.5 * u(rng);
  }
  if (centre) {
    Vec3 cm = Vec3::Zero();
    double mt = 0;
    for (int k = 0; k < n; ++k) cm += c.mass[k] * c.x[k], mt += c.mass[k];
    for (auto& p : c.x) p -= cm / mt;
  }
  c.X.resize(3 * n, m);
  for (int i = 0; i < 3 * n; ++i)
    for (int j = 0; j < m; ++j) c.X(i, j) = 0.3 * u(rng);
  MatX B(m, m);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) B(i, j) = u(rng);
  const MatX K = 2.0 * B.transpose() * B + 3.0 * MatX::Identity(m, m);  // SPD, omega ~ 1..5 rad/s
  c.inv = fe::computeInvariants(c.x, c.mass, c.X, K);
  return c;
}

using test::randomRotation;
using test::randomVec;

/// Node Jacobian of Eq. (8), written out independently of the class: d_dot_k = Jk v.
MatX nodalJacobian(const Cloud& c, int k, const Mat3& A, const VecX& w) {
  const int m = c.m();
  const Vec3 b = c.x[k] + c.Phi(k) * w;
  MatX J = MatX::Zero(3, 6 + m);
  J.block<3, 3>(0, 0).setIdentity();
  J.block<3, 3>(0, 3) = -A * skew(b);
  J.block(0, 6, 3, m) = A * c.Phi(k);
  return J;
}

/// Eq. (13): M = sum m_k Jk^T Jk.
MatX nodalMass(const Cloud& c, const Mat3& A, const VecX& w) {
  MatX M = MatX::Zero(6 + c.m(), 6 + c.m());
  for (int k = 0; k < c.n(); ++k) {
    const MatX J = nodalJacobian(c, k, A, w);
    M += c.mass[k] * J.transpose() * J;
  }
  return M;
}

/// d'Alembert: s = -sum m_k Jk^T A (omega~ omega~ b_k + 2 omega~ Phi_k w_dot)  (corrected Eq. 17).
VecX nodalS(const Cloud& c, const Mat3& A, const Vec3& om, const VecX& w, const VecX& wd) {
  VecX s = VecX::Zero(6 + c.m());
  for (int k = 0; k < c.n(); ++k) {
    const Vec3 b = c.x[k] + c.Phi(k) * w;
    const Vec3 a = A * (om.cross(om.cross(b)) + 2.0 * om.cross(Vec3(c.Phi(k) * wd)));
    s -= c.mass[k] * nodalJacobian(c, k, A, w).transpose() * a;
  }
  return s;
}

/// The paper's printed s (Eq. 17) differs only by the spurious third term of s_phi.
VecX paperS(const Cloud& c, const Mat3& A, const Vec3& om, const VecX& w, const VecX& wd) {
  VecX s = nodalS(c, A, om, w, wd);
  for (int k = 0; k < c.n(); ++k) {
    const Vec3 b = c.x[k] + c.Phi(k) * w;
    s.segment<3>(3) -= c.mass[k] * om.cross(b.cross(Vec3(c.Phi(k) * wd)));  // -sum m_k omega~ b~_k Phi_k w_dot
  }
  return s;
}

/// Nodal kinetic energy, Eqs. (11)-(12), as a function of generalized coordinates
/// Q = [r, theta, w] and their rates Qd, with A(theta) = A0 exp(theta~) (body-side chart) and
/// omega' = Jr(theta) theta_dot (right Jacobian of SO(3)). No modal invariants are used.
Mat3 rightJacobian(const Vec3& th) {
  const double a = th.norm();
  double c1, c2;  // (1 - cos a)/a^2, (a - sin a)/a^3
  if (a < 1e-3) {
    c1 = 0.5 - a * a / 24.0;
    c2 = 1.0 / 6.0 - a * a / 120.0;
  } else {
    c1 = (1.0 - std::cos(a)) / (a * a);
    c2 = (a - std::sin(a)) / (a * a * a);
  }
  const Mat3 S = skew(th);
  return Mat3::Identity() - c1 * S + c2 * S * S;
}

double nodalT(const Cloud& c, const Mat3& A0, const VecX& Q, const VecX& Qd) {
  const int m = c.m();
  const Vec3 th = Q.segment<3>(3);
  const Mat3 A = A0 * expMap(th).toRotationMatrix();
  const Vec3 om = rightJacobian(th) * Qd.segment<3>(3);
  const VecX w = Q.tail(m), wd = Qd.tail(m);
  double T = 0;
  for (int k = 0; k < c.n(); ++k) {
    const Vec3 b = c.x[k] + c.Phi(k) * w;
    const Vec3 dd = Qd.segment<3>(0) + A * (om.cross(b) + c.Phi(k) * wd);
    T += 0.5 * c.mass[k] * dd.squaredNorm();
  }
  return T;
}

double rel(const VecX& a, const VecX& b) { return (a - b).norm() / std::max(1e-300, b.norm()); }
double relM(const MatX& a, const MatX& b) { return (a - b).norm() / std::max(1e-300, b.norm()); }

}  // namespace

class FlexibleBodyTest : public QObject {
  Q_OBJECT
 private slots:
  // 1. Mass matrix (invariant form) equals the nodal sum of Eq. (13) with b'_k = x'_k + Phi_k w.
  void massMatrixMatchesNodalSum() {
    const Cloud c = makeCloud(23, 5, 11);
    FlexibleBodyDynamics body(c.inv);
    QCOMPARE(body.modes(), 5);
    std::mt19937 rng(3);
    for (int trial = 0; trial < 5; ++trial) {
      const Mat3 A = randomRotation(rng);
      const VecX w = randomVec(c.m(), rng, 0.4);
      MatX M;
      body.massMatrix(A, w, M);
      const MatX Mn = nodalMass(c, A, w);
      QVERIFY2(relM(M, Mn) < 1e-12, qPrintable(QString::number(relM(M, Mn))));
      QVERIFY((M - M.transpose()).norm() < 1e-13 * M.norm());
      // kinetic energy, momenta and node kinematics against nodal sums
      const VecX v = randomVec(6 + c.m(), rng, 1.0);
      const Vec3 r = randomVec(3, rng, 2.0);
      double T = 0;
      Vec3 p = Vec3::Zero(), H = Vec3::Zero();
      for (int k = 0; k < c.n(); ++k) {
        const Vec3 dd = nodalJacobian(c, k, A, w) * v;
        const Vec3 d = r + A * (c.x[k] + c.Phi(k) * w);
        T += 0.5 * c.mass[k] * dd.squaredNorm();
        p += c.mass[k] * dd;
        H += c.mass[k] * d.cross(dd);
        MatX Jk;
        FlexibleBodyDynamics::nodeJacobian(A, c.x[k], c.Phi(k), w, Jk);
        QVERIFY(relM(Jk, nodalJacobian(c, k, A, w)) < 1e-14);
      }
      QVERIFY(std::abs(body.kineticEnergy(A, w, v) - T) < 1e-12 * T);
      VecX Mv(6 + c.m());  // the product by blocks against the formed matrix
      body.massTimes(A, w, v, Mv);
      QVERIFY2((Mv - M * v).norm() < 1e-13 * (M * v).norm(), qPrintable(QString::number((Mv - M * v).norm())));
      QVERIFY(rel(body.linearMomentum(A, w, v), p) < 1e-12);
      QVERIFY(rel(body.angularMomentum(r, A, w, v), H) < 1e-12);
    }
  }

  // 2a. s equals the nodal d'Alembert form of the corrected Eq. (17).
  void quadraticVelocityMatchesDAlembert() {
    const Cloud c = makeCloud(23, 5, 12);
    FlexibleBodyDynamics body(c.inv);
    std::mt19937 rng(4);
    for (int trial = 0; trial < 5; ++trial) {
      const Mat3 A = randomRotation(rng);
      const Vec3 om = randomVec(3, rng, 2.0);
      const VecX w = randomVec(c.m(), rng, 0.4), wd = randomVec(c.m(), rng, 1.5);
      VecX s;
      body.quadraticVelocity(A, om, w, wd, s);
      const VecX sn = nodalS(c, A, om, w, wd);
      QVERIFY2(rel(s, sn) < 1e-12, qPrintable(QString::number(rel(s, sn))));
      // node acceleration bias = the per-node velocity-dependent acceleration used above
      for (int k = 0; k < c.n(); k += 5) {
        const Vec3 b = c.x[k] + c.Phi(k) * w;
        const Vec3 a = A * (om.cross(om.cross(b)) + 2.0 * om.cross(Vec3(c.Phi(k) * wd)));
        QVERIFY(rel(FlexibleBodyDynamics::nodeAccelerationBias(A, om, c.x[k], c.Phi(k), w, wd), a) < 1e-14);
      }
    }
  }

  // 2b. Independent check against Lagrange's equations (15) by finite differences of the NODAL kinetic
  // energy T(Q, Qd), Q = [r, theta, w], A = A0 exp(theta~), omega' = Jr(theta) theta_dot.
  // For any coordinates, sum_k m_k d_ddot_k . dd_k/dQ = d/dt(dT/dQd) - dT/dQ =: L, and
  // dd_k/dQ = Jk B with B = blockdiag(I, Jr(theta), I), so L = B^T (M v_dot - s). At theta = 0:
  // B = I, v = Qd and v_dot = Q_ddot (d/dt Jr(theta) theta_dot = -1/2 theta_dot x theta_dot = 0), hence
  //     L = M(q) v_dot - s(q, v)      exactly, for an arbitrary Q_ddot.
  // L is evaluated along the parabola Q(t) = Q0 + Qd0 t + Q_ddot t^2/2:
  //   dT/dQd: exact polarisation of the quadratic form (T(Qd + e_i) - T(Qd - e_i))/2,
  //   d/dt and d/dQ: 4th-order central differences (h = 1e-3, error ~1e-11 relative).
  void quadraticVelocityMatchesLagrange() {
    const int m = 8;
    const Cloud c = makeCloud(29, m, 13);
    FlexibleBodyDynamics body(c.inv);
    std::mt19937 rng(5);
    const int nd = 6 + m;
    const Mat3 A0 = randomRotation(rng);
    VecX Q0(nd);
    Q0 << randomVec(3, rng, 1.0), Vec3::Zero(), randomVec(m, rng, 0.4);
    const VecX Qd0 = randomVec(nd, rng, 1.5), Qdd = randomVec(nd, rng, 1.0);

    const auto momentum = [&](const VecX& Q, const VecX& Qd) {
      VecX p(nd);
      for (int i = 0; i < nd; ++i) {
        const VecX e = VecX::Unit(nd, i);
        p(i) = 0.5 * (nodalT(c, A0, Q, Qd + e) - nodalT(c, A0, Q, Qd - e));
      }
      return p;
    };
    const auto pAt = [&](double t) { return momentum(Q0 + Qd0 * t + 0.5 * Qdd * t * t, Qd0 + Qdd * t); };
    const double h = 1e-3;
    const VecX dpdt = (8.0 * (pAt(h) - pAt(-h)) - (pAt(2 * h) - pAt(-2 * h))) / (12.0 * h);
    VecX dTdQ(nd);
    for (int i = 0; i < nd; ++i) {
      const VecX e = h * VecX::Unit(nd, i);
      const auto T = [&](double s) { return nodalT(c, A0, Q0 + s * e, Qd0); };
      dTdQ(i) = (8.0 * (T(1) - T(-1)) - (T(2) - T(-2))) / (12.0 * h);
    }
    const VecX L = dpdt - dTdQ;

    const VecX w = Q0.tail(m), wd = Qd0.tail(m);
    const Vec3 om = Qd0.segment<3>(3);
    MatX M;
    VecX s;
    body.massMatrix(A0, w, M);
    body.quadraticVelocity(A0, om, w, wd, s);
    const VecX Lmodal = M * Qdd - s;
    qInfo("Lagrange FD: relative residual corrected s %.3e, paper's printed s %.3e", rel(Lmodal, L),
          rel(M * Qdd - paperS(c, A0, om, w, wd), L));
    QVERIFY2(rel(Lmodal, L) < 1e-8, qPrintable(QString("Lagrange residual %1").arg(rel(Lmodal, L))));

    // The paper's printed s_phi (with the third term -sum m_k omega~ b~_k Phi_k w_dot) fails this
    // check whenever the mean-axis condition sum m_k b~_k Phi_k w_dot = 0 (Eq. 36) does not hold.
    const VecX sPaper = paperS(c, A0, om, w, wd);
    const Vec3 macResidual = body.rotationModeCoupling(w) * wd;
    QVERIFY(macResidual.norm() > 0.1);
    QVERIFY((sPaper - s).norm() > 1e-2 * s.norm());
    QVERIFY(rel(M * Qdd - sPaper, L) > 1e3 * rel(Lmodal, L));
    QVERIFY(rel(M * Qdd - sPaper, L) > 1e-3);

    // ... and it is harmless under MAC: pick w_dot in the null space of the MAC Jacobian
    // [I3; M_phi_w] (6 x m, m = 8 > 6), then the spurious term vanishes.
    MatX G(6, m);
    G << c.inv.I3, body.rotationModeCoupling(w);
    const MatX N = Eigen::FullPivLU<MatX>(G).kernel();
    QVERIFY(N.cols() >= 2);
    const VecX wdMac = N * randomVec(static_cast<int>(N.cols()), rng, 1.0);
    VecX sMac;
    body.quadraticVelocity(A0, om, w, wdMac, sMac);
    QVERIFY(rel(paperS(c, A0, om, w, wdMac), sMac) < 1e-12);
  }

  // 3. Free body, no damping, no external forces: RK4 conserves T + U, p and H.
  void freeBodyConservesEnergyAndMomenta() {
    const int m = 4;
    const Cloud c = makeCloud(19, m, 14);
    FlexibleBodyDynamics body(c.inv);
    std::mt19937 rng(6);
    const int nd = 6 + m;
    // y = [r (3), Euler parameters (4: w x y z), w (m), v (6+m)]
    const int ny = 7 + m + nd;
    VecX y(ny);
    const Eigen::Quaterniond q0(randomRotation(rng));
    y << randomVec(3, rng, 1.0), q0.w(), q0.x(), q0.y(), q0.z(), randomVec(m, rng, 0.2), randomVec(nd, rng, 1.0);

    struct Pos {
      Vec3 r;
      Mat3 A;
      VecX w, v;
    };
    const auto unpack = [&](const VecX& y) {
      Pos p;
      p.r = y.segment<3>(0);
      p.A = Eigen::Quaterniond(y(3), y(4), y(5), y(6)).normalized().toRotationMatrix();
      p.w = y.segment(7, m);
      p.v = y.tail(nd);
      return p;
    };
    const auto rhs = [&](const VecX& y) {
      const Pos p = unpack(y);
      const Vec3 om = p.v.segment<3>(3);
      MatX M;
      VecX s, fel;
      body.massMatrix(p.A, p.w, M);
      body.quadraticVelocity(p.A, om, p.w, p.v.tail(m), s);
      body.elasticForces(p.w, p.v.tail(m), fel);
      VecX dy(ny);
      dy.segment<3>(0) = p.v.segment<3>(0);
      const Eigen::Quaterniond e(y(3), y(4), y(5), y(6));
      const Eigen::Quaterniond ed = e * Eigen::Quaterniond(0, om.x(), om.y(), om.z());  // p_dot = 1/2 p (x) omega'
      dy.segment<4>(3) << 0.5 * ed.w(), 0.5 * ed.x(), 0.5 * ed.y(), 0.5 * ed.z();
      dy.segment(7, m) = p.v.tail(m);
      dy.tail(nd) = M.ldlt().solve(s + fel);  // Eq. (16): M v_dot = s + g - K w, g = 0
      return dy;
    };
    const auto invariants = [&](const VecX& y, double& E, Vec3& P, Vec3& H) {
      const Pos p = unpack(y);
      E = body.kineticEnergy(p.A, p.w, p.v) + body.strainEnergy(p.w);
      P = body.linearMomentum(p.A, p.w, p.v);
      H = body.angularMomentum(p.r, p.A, p.w, p.v);
    };
    double E0, E1;
    Vec3 P0, H0, P1, H1;
    invariants(y, E0, P0, H0);
    const double h = 2e-3;
    const int steps = 500;
    double maxU = 0;
    for (int i = 0; i < steps; ++i) {
      const VecX k1 = rhs(y), k2 = rhs(y + 0.5 * h * k1), k3 = rhs(y + 0.5 * h * k2), k4 = rhs(y + h * k3);
      y += h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4);
      y.segment<4>(3).normalize();
      maxU = std::max(maxU, body.strainEnergy(y.segment(7, m)));
    }
    invariants(y, E1, P1, H1);
    qInfo("energy drift %.3e, |dp|/|p| %.3e, |dH|/|H| %.3e, max U/E %.3f", std::abs(E1 - E0) / E0,
          (P1 - P0).norm() / P0.norm(), (H1 - H0).norm() / H0.norm(), maxU / E0);
    QVERIFY(maxU > 1e-3 * E0);  // elastic energy actually exchanged
    QVERIFY(std::abs(E1 - E0) < 1e-9 * E0);
    QVERIFY((P1 - P0).norm() < 1e-9 * P0.norm());
    QVERIFY((H1 - H0).norm() < 1e-9 * H0.norm());
  }

  // 4. Rigid limit m = 0: M = [I1 I, -A c~; c~ A^T, J0], s = [-A w~w~ c; -w~ J0 w].
  void rigidLimit() {
    std::mt19937 rng(7);
    for (bool centred : {false, true}) {
      const Cloud c = makeCloud(15, 0, 15, centred);
      FlexibleBodyDynamics body(c.inv);
      QCOMPARE(body.modes(), 0);
      const Mat3 A = randomRotation(rng);
      const Vec3 om = randomVec(3, rng, 2.0);
      const VecX none(0);
      MatX M;
      VecX s, f;
      body.massMatrix(A, none, M);
      body.quadraticVelocity(A, om, none, none, s);
      body.elasticForces(none, none, f);
      QCOMPARE(M.rows(), 6);
      QCOMPARE(s.size(), 6);
      QVERIFY(f.norm() == 0.0);
      const Vec3 cm = c.inv.I2;
      MatX Mref = MatX::Zero(6, 6);
      Mref.block<3, 3>(0, 0) = c.inv.I1 * Mat3::Identity();
      Mref.block<3, 3>(0, 3) = -A * skew(cm);
      Mref.block<3, 3>(3, 0) = skew(cm) * A.transpose();
      Mref.block<3, 3>(3, 3) = c.inv.J0;
      QVERIFY(relM(M, Mref) < 1e-14);
      VecX sref(6);
      sref << -A * om.cross(om.cross(cm)), -om.cross(c.inv.J0 * om);
      QVERIFY(rel(s, sref) < 1e-13);
      QVERIFY(rel(s, nodalS(c, A, om, none, none)) < 1e-12);
      if (centred) {  // frame at the centre of mass: exactly the rigid System's blockdiag(m I, J') and -w x J' w
        QVERIFY(cm.norm() < 1e-12);
        QVERIFY((M.block<3, 3>(0, 3).norm() < 1e-12));
        QVERIFY(s.head<3>().norm() < 1e-12);
      }
    }
    // a default-constructed invariant set is a valid (massless) rigid body
    FlexibleBodyDynamics empty{fe::ModalInvariants{}};
    QCOMPARE(empty.size(), 6);
  }

  // Generalized forces and damping (neither is written in the paper) and elastic forces.
  void generalizedForcesAndDamping() {
    const int m = 3;
    const Cloud c = makeCloud(17, m, 16);
    std::mt19937 rng(8);
    const Mat3 A = randomRotation(rng);
    const Vec3 r = randomVec(3, rng, 1.0);
    const VecX w = randomVec(m, rng, 0.3), wd = randomVec(m, rng, 1.0);
    FlexibleBodyDynamics body(c.inv);
    // point force at node k: Jk^T F
    const int k = 6;
    const Vec3 F = randomVec(3, rng, 10.0);
    VecX g = VecX::Zero(6 + m);
    body.addPointForce(A, w, c.x[k], c.Phi(k), F, g);
    QVERIFY(rel(g, nodalJacobian(c, k, A, w).transpose() * F) < 1e-14);
    // gravity: sum m_k Jk^T g, and consistent with the potential -g . (I1 r + A c(w))
    const Vec3 gv(0.3, -9.81, 0.5);
    VecX gg = VecX::Zero(6 + m), gref = VecX::Zero(6 + m);
    body.addGravity(A, w, gv, gg);
    for (int i = 0; i < c.n(); ++i) gref += c.mass[i] * nodalJacobian(c, i, A, w).transpose() * gv;
    QVERIFY(rel(gg, gref) < 1e-12);
    double V = 0;
    for (int i = 0; i < c.n(); ++i) V -= c.mass[i] * gv.dot(r + A * (c.x[i] + c.Phi(i) * w));
    QVERIFY(std::abs(body.gravityPotential(r, A, w, gv) - V) < 1e-12 * std::abs(V));
    // elastic force and strain energy: -Kbar w, U = 1/2 w^T Kbar w, -dU/dw = f_w
    VecX fel;
    body.elasticForces(w, wd, fel);
    QVERIFY(fel.head<6>().norm() == 0.0);
    QVERIFY(rel(fel.tail(m), -c.inv.Kbar * w) < 1e-14);
    const double hh = 1e-6;
    for (int j = 0; j < m; ++j) {
      const VecX e = hh * VecX::Unit(m, j);
      const double dU = (body.strainEnergy(w + e) - body.strainEnergy(w - e)) / (2 * hh);
      QVERIFY(std::abs(dU + fel(6 + j)) < 1e-7);
    }
    // modal damping on mass-normalised modes: Mbar = I, Kbar = diag(omega^2) -> D = diag(2 zeta omega)
    fe::ModalInvariants inv = c.inv;
    inv.Mbar = MatX::Identity(m, m);
    const Eigen::Vector3d om2(0.0, 4.0, 25.0);  // one rigid mode (omega = 0)
    inv.Kbar = om2.asDiagonal();
    ModalDamping d;
    d.zeta = Eigen::Vector3d(0.1, 0.02, 0.05);
    d.alpha = 0.5;
    d.beta = 1e-3;
    FlexibleBodyDynamics damped(inv, d);
    MatX Dref = d.alpha * inv.Mbar + d.beta * inv.Kbar;
    Dref.diagonal() += Eigen::Vector3d(0.0, 2 * 0.02 * 2.0, 2 * 0.05 * 5.0);
    QVERIFY(relM(damped.dampingMatrix(), Dref) < 1e-15);
    damped.elasticForces(w, wd, fel);
    QVERIFY(rel(fel.tail(m), -inv.Kbar * w - Dref * wd) < 1e-14);
    // wrong number of damping ratios is rejected
    ModalDamping bad;
    bad.zeta = VecX::Ones(m + 1);
    bool threw = false;
    try {
      FlexibleBodyDynamics x(inv, bad);
    } catch (const std::invalid_argument&) {
      threw = true;
    }
    QVERIFY(threw);
  }
};

QTEST_APPLESS_MAIN(FlexibleBodyTest)
#include "flexible_body_test.moc"
