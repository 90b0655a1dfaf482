// Floating-frame inertia invariants against direct nodal sums of the Eq. (13) blocks of
// the floating-frame solid-element paper (Multibody Syst. Dyn. 2023, doi:10.1007/s11044-023-09875-y), for arbitrary
// modal coordinates w.
#include "core/base/rotation.h"
#include "core/fe/reduced_body.h"

#include <Eigen/Geometry>
#include <Eigen/SparseCore>
#include <QtTest>

#include <random>

using namespace flexim;
using namespace flexim::fe;

class InvariantsTest : public QObject {
  Q_OBJECT
 private slots:
  void matchNodalSums() {
    std::mt19937 rng(42);
    std::uniform_real_distribution<double> u(-1, 1);
    const int n = 37, m = 5;
    std::vector<Eigen::Vector3d> x(n);
    std::vector<double> mass(n);
    for (int k = 0; k < n; ++k) {
      x[k] = Eigen::Vector3d(u(rng), u(rng), u(rng));
      mass[k] = 1 + u(rng) * 0.5;
    }
    Eigen::MatrixXd X(3 * n, m);
    for (int i = 0; i < X.rows(); ++i)
      for (int j = 0; j < m; ++j) X(i, j) = u(rng);
    const ModalInvariants inv = computeInvariants(x, mass, X, Eigen::MatrixXd::Identity(m, m));
    Eigen::VectorXd w(m);
    for (int j = 0; j < m; ++j) w(j) = 0.3 * u(rng);

    // direct sums with deformed positions b_k = x_k + Phi_k w
    double I1 = 0;
    Eigen::Vector3d c = Eigen::Vector3d::Zero();
    Eigen::Matrix3d J = Eigen::Matrix3d::Zero();
    Eigen::MatrixXd Mphiw = Eigen::MatrixXd::Zero(3, m), Mww = Eigen::MatrixXd::Zero(m, m);
    for (int k = 0; k < n; ++k) {
      const Eigen::MatrixXd Phi = X.middleRows(3 * k, 3);
      const Eigen::Vector3d b = x[k] + Phi * w;
      I1 += mass[k];
      c += mass[k] * b;
      J -= mass[k] * skew(b) * skew(b);
      Mphiw += mass[k] * skew(b) * Phi;
      Mww += mass[k] * Phi.transpose() * Phi;
    }
    // the same blocks from the invariants
    Eigen::Matrix3d Jinv = inv.J0;
    Eigen::MatrixXd MphiwInv = inv.I4;
    for (int j = 0; j < m; ++j) {
      Jinv += w(j) * inv.J1[j];
      MphiwInv += w(j) * inv.I5[j];
      for (int l = 0; l < m; ++l) Jinv += w(j) * w(l) * inv.J2[j * m + l];
    }
    QVERIFY(std::abs(inv.I1 - I1) < 1e-12 * I1);
    QVERIFY((inv.I2 + inv.I3 * w - c).norm() < 1e-12 * c.norm());
    QVERIFY((Jinv - J).norm() < 1e-12 * J.norm());
    QVERIFY((MphiwInv - Mphiw).norm() < 1e-12 * Mphiw.norm());
    QVERIFY((inv.Mbar - Mww).norm() < 1e-12 * Mww.norm());
    // J1 is symmetric, J2[j,l] + J2[l,j] is symmetric, I5 is antisymmetric in (l, j)
    for (int j = 0; j < m; ++j) {
      QVERIFY((inv.J1[j] - inv.J1[j].transpose()).norm() < 1e-12);
      for (int l = 0; l < m; ++l) QVERIFY((inv.I5[l].col(j) + inv.I5[j].col(l)).norm() < 1e-12);
    }
  }

  void consistentMassMatchesPairSums() {
    // a non-diagonal symmetric scalar mass (as a consistent element mass is): every invariant
    // against the direct double sum over node pairs of its definition (reduced_body.h)
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1, 1);
    const int n = 23, m = 4;
    std::vector<Eigen::Vector3d> x(n);
    for (auto& p : x) p = Eigen::Vector3d(u(rng), u(rng), u(rng));
    Eigen::MatrixXd Ms = Eigen::MatrixXd::Zero(n, n);
    for (int a = 0; a < n; ++a) {
      Ms(a, a) = 2 + u(rng);
      for (int b = a + 1; b < n; ++b)
        if (u(rng) > 0.6) Ms(a, b) = Ms(b, a) = 0.2 * u(rng);
    }
    Eigen::MatrixXd X(3 * n, m);
    for (int i = 0; i < X.rows(); ++i)
      for (int j = 0; j < m; ++j) X(i, j) = u(rng);
    const ModalInvariants inv = computeInvariants(x, Eigen::SparseMatrix<double>(Ms.sparseView()), X, Eigen::MatrixXd::Identity(m, m));

    ModalInvariants ref;
    ref.I3 = Eigen::MatrixXd::Zero(3, m);
    ref.I4 = Eigen::MatrixXd::Zero(3, m);
    ref.I5.assign(m, Eigen::MatrixXd::Zero(3, m));
    ref.J1.assign(m, Eigen::Matrix3d::Zero());
    ref.J2.assign(m * m, Eigen::Matrix3d::Zero());
    ref.Mbar = Eigen::MatrixXd::Zero(m, m);
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        const double w = Ms(a, b);
        const Eigen::MatrixXd Pa = X.middleRows(3 * a, 3), Pb = X.middleRows(3 * b, 3);
        ref.I1 += w;
        ref.I2 += w * x[b];
        ref.I3 += w * Pb;
        ref.I4 += w * skew(x[a]) * Pb;
        ref.J0 -= w * skew(x[a]) * skew(x[b]);
        ref.Mbar += w * Pa.transpose() * Pb;
        for (int l = 0; l < m; ++l) {
          ref.I5[l] += w * skew(Pa.col(l)) * Pb;
          ref.J1[l] -= w * (skew(x[a]) * skew(Pb.col(l)) + skew(Pa.col(l)) * skew(x[b]));
          for (int j = 0; j < m; ++j) ref.J2[j * m + l] -= w * skew(Pa.col(j)) * skew(Pb.col(l));
        }
      }
    QVERIFY(std::abs(inv.I1 - ref.I1) < 1e-12 * std::abs(ref.I1));
    QVERIFY((inv.I2 - ref.I2).norm() < 1e-12 * ref.I2.norm());
    QVERIFY((inv.I3 - ref.I3).norm() < 1e-12 * ref.I3.norm());
    QVERIFY((inv.I4 - ref.I4).norm() < 1e-12 * ref.I4.norm());
    QVERIFY((inv.J0 - ref.J0).norm() < 1e-12 * ref.J0.norm());
    QVERIFY((inv.Mbar - ref.Mbar).norm() < 1e-12 * ref.Mbar.norm());
    for (int l = 0; l < m; ++l) {
      QVERIFY((inv.I5[l] - ref.I5[l]).norm() < 1e-12 * ref.I5[l].norm());
      QVERIFY((inv.J1[l] - ref.J1[l]).norm() < 1e-12 * ref.J1[l].norm());
      for (int j = 0; j < m; ++j) QVERIFY((inv.J2[j * m + l] - ref.J2[j * m + l]).norm() < 1e-12 * ref.J2[j * m + l].norm());
    }
  }

  void movedFrameMatchesRecomputation() {
    // moveInvariants (no node loop) against the invariants of the moved cloud
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-1, 1);
    const int n = 19, m = 3;
    std::vector<Eigen::Vector3d> x(n), moved(n);
    std::vector<double> mass(n);
    for (int k = 0; k < n; ++k) {
      x[k] = Eigen::Vector3d(u(rng), u(rng), u(rng));
      mass[k] = 1 + 0.5 * u(rng);
    }
    Eigen::MatrixXd X(3 * n, m), Xm(3 * n, m);
    for (int i = 0; i < X.rows(); ++i)
      for (int j = 0; j < m; ++j) X(i, j) = u(rng);
    const Eigen::Vector3d c(0.3, -0.7, 1.1);
    const Eigen::Matrix3d R = Eigen::AngleAxisd(0.8, Eigen::Vector3d(1, 2, -1).normalized()).toRotationMatrix();
    for (int k = 0; k < n; ++k) {
      moved[k] = R.transpose() * (x[k] - c);
      Xm.middleRows(3 * k, 3) = R.transpose() * X.middleRows(3 * k, 3);
    }
    const Eigen::MatrixXd K = Eigen::MatrixXd::Identity(m, m);
    const ModalInvariants a = moveInvariants(computeInvariants(x, mass, X, K), c, R);
    const ModalInvariants b = computeInvariants(moved, mass, Xm, K);
    QVERIFY((a.I2 - b.I2).norm() < 1e-12 * b.I2.norm() + 1e-12);
    QVERIFY((a.I3 - b.I3).norm() < 1e-12 * b.I3.norm());
    QVERIFY((a.I4 - b.I4).norm() < 1e-12 * b.I4.norm());
    QVERIFY((a.J0 - b.J0).norm() < 1e-12 * b.J0.norm());
    QVERIFY((a.Mbar - b.Mbar).norm() < 1e-12 * b.Mbar.norm());
    for (int l = 0; l < m; ++l) {
      QVERIFY((a.I5[l] - b.I5[l]).norm() < 1e-12 * b.I5[l].norm());
      QVERIFY((a.J1[l] - b.J1[l]).norm() < 1e-12 * b.J1[l].norm());
      for (int j = 0; j < m; ++j) QVERIFY((a.J2[j * m + l] - b.J2[j * m + l]).norm() < 1e-12 * b.J2[j * m + l].norm());
    }
  }
};

QTEST_APPLESS_MAIN(InvariantsTest)
#include "invariants_test.moc"
