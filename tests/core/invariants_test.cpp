// Floating-frame inertia invariants against direct nodal sums of the Eq. (13) blocks of
// the floating-frame solid-element paper (Multibody Syst. Dyn. 2023, doi:10.1007/s11044-023-09875-y), for arbitrary
// modal coordinates w.
#include "core/base/rotation.h"
#include "core/fe/reduced_body.h"

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
};

QTEST_APPLESS_MAIN(InvariantsTest)
#include "invariants_test.moc"
