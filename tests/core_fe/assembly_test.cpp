// FE assembly (core/fe/assembly.h, element_library.h) against independent references:
// quadrature exactness, shape-function identities, rigid-body modes, symmetry and rank of single
// elements, analytic volumes of distorted elements, the constant-strain patch test on distorted
// meshes, mass totals, HRZ versus row-sum lumping, diagnostics naming the element/set/material,
// and Euler-Bernoulli / bar frequencies of a steel beam meshed in code.
#include "core/fe/active_dofs.h"
#include "core/fe/assembly.h"
#include "core/fe/element_library.h"
#include "tests/core_fe/fe_test_support.h"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <QtTest>

#include <chrono>
#include <cmath>
#include <functional>
#include <numbers>
#include <random>

using namespace flexim;
using namespace flexim::fe;
using namespace flexim::fe::test;

namespace {

bool isQuadratic(ElementType t) { return t == ElementType::Tet10 || t == ElementType::Hex20 || t == ElementType::Hex20R; }
bool isTet(ElementType t) { return t == ElementType::Tet4 || t == ElementType::Tet10; }

double factorial(int n) { return n <= 1 ? 1.0 : n * factorial(n - 1); }

/// A structured mesh of the box [0, size] with nx x ny x nz cells. Hexahedra: one element per
/// cell; tetrahedra: the 6 Kuhn tetrahedra of each cell (all sharing the cell diagonal, which is
/// conforming between cells). Corner positions are mapped by `map` (identity by default);
/// mid-edge nodes are placed at the midpoint of their (straight) edge.
struct BoxMesh {
  FeModel model;
  std::vector<Eigen::Vector3i> lattice;  ///< per node: lattice position (step 1 for linear, 2 for quadratic per cell)
  Eigen::Vector3i latticeMax;
};

BoxMesh boxMesh(ElementType type, int nx, int ny, int nz, const Eigen::Vector3d& size,
                const std::function<Eigen::Vector3d(const Eigen::Vector3d&)>& map = {}) {
  BoxMesh out;
  const int s = isQuadratic(type) ? 2 : 1;  // lattice steps per cell
  const Eigen::Vector3i dim(s * nx + 1, s * ny + 1, s * nz + 1);
  out.latticeMax = dim - Eigen::Vector3i::Ones();
  std::vector<int> index(static_cast<std::size_t>(dim.prod()), -1);
  auto corner = [&](const Eigen::Vector3i& L) {  // position of an even lattice point
    Eigen::Vector3d x(size.x() * L.x() / (s * nx), size.y() * L.y() / (s * ny), size.z() * L.z() / (s * nz));
    return map ? map(x) : x;
  };
  auto node = [&](const Eigen::Vector3i& L) {
    int& idx = index[static_cast<std::size_t>(L.x() + dim.x() * (L.y() + dim.y() * L.z()))];
    if (idx < 0) {
      // mid nodes: odd lattice coordinates; the edge runs from L - odd to L + odd (Kuhn edges
      // and hex edges are monotone in every coordinate)
      Eigen::Vector3i odd(L.x() % 2, L.y() % 2, L.z() % 2);
      if (s == 1) odd.setZero();
      const Eigen::Vector3d x = odd.any() ? 0.5 * (corner(L - odd) + corner(L + odd)) : corner(L);
      idx = out.model.addNode(out.model.nodeCount() + 1, x);
      out.lattice.push_back(L);
    }
    return idx;
  };
  // corners of a cell by bit (x = bit 0, y = bit 1, z = bit 2)
  auto cornerOffset = [&](int bits) -> Eigen::Vector3i {
    return Eigen::Vector3i(bits & 1, (bits >> 1) & 1, (bits >> 2) & 1) * s;
  };
  int id = 1;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const Eigen::Vector3i base = Eigen::Vector3i(i, j, k) * s;
        if (!isTet(type)) {
          // Abaqus corners: (0,0,0) (1,0,0) (1,1,0) (0,1,0) then the same at z = 1
          static constexpr int kBits[8] = {0, 1, 3, 2, 4, 5, 7, 6};
          static constexpr int kEdges[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                                                {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
          Element e;
          e.id = id++;
          e.type = type;
          Eigen::Vector3i c[8];
          for (int a = 0; a < 8; ++a) {
            c[a] = base + cornerOffset(kBits[a]);
            e.nodes[a] = node(c[a]);
          }
          if (type == ElementType::Hex20 || type == ElementType::Hex20R)
            for (int m = 0; m < 12; ++m) e.nodes[8 + m] = node((c[kEdges[m][0]] + c[kEdges[m][1]]) / 2);
          e.material = 0;
          out.model.elements.push_back(e);
        } else {
          static constexpr int kPerm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
          for (const auto& p : kPerm) {
            Eigen::Vector3i v[4];
            v[0] = base;
            v[1] = v[0];
            v[1][p[0]] += s;
            v[2] = v[1];
            v[2][p[1]] += s;
            v[3] = v[2];
            v[3][p[2]] += s;
            // orientation: the sign of the permutation decides; swap two corners if negative
            const Eigen::Vector3d a = (v[1] - v[0]).cast<double>(), b = (v[2] - v[0]).cast<double>(),
                                  c = (v[3] - v[0]).cast<double>();
            if (a.cross(b).dot(c) < 0) std::swap(v[1], v[2]);
            Element e;
            e.id = id++;
            e.type = type;
            for (int q = 0; q < 4; ++q) e.nodes[q] = node(v[q]);
            if (type == ElementType::Tet10) {
              static constexpr int kEdges[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
              for (int m = 0; m < 6; ++m) e.nodes[4 + m] = node((v[kEdges[m][0]] + v[kEdges[m][1]]) / 2);
            }
            e.material = 0;
            out.model.elements.push_back(e);
          }
        }
      }
  out.model.materials = {steel()};
  return out;
}

/// One element of the given type: natural node coordinates mapped by x = A xi + b, plus a random
/// perturbation of every node of up to `noise` times the element size (corners: distortion;
/// mid-edge nodes: curved edges).
FeModel singleElement(ElementType type, double noise, unsigned seed = 1) {
  const ElementKind& k = elementKind(type);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::Matrix3d A;
  A << 0.9, 0.15, -0.1, 0.05, 1.1, 0.2, -0.12, 0.08, 0.8;
  A *= 0.05;
  const Eigen::Vector3d b(0.3, -0.2, 0.1);
  FeModel m;
  Element e;
  e.id = 7;
  e.type = type;
  for (int a = 0; a < k.nodes; ++a) {
    const auto& xi = k.naturalNodes[static_cast<std::size_t>(a)];
    Eigen::Vector3d x = A * Eigen::Vector3d(xi[0], xi[1], xi[2]) + b;
    // the reference tetrahedron and pyramid are about half as high as the others
    const double size = isTet(type) || type == ElementType::Pyramid5 || type == ElementType::Pyramid13 ? 0.05 : 0.1;
    x += noise * size * Eigen::Vector3d(u(rng), u(rng), u(rng));
    e.nodes[a] = m.addNode(100 + a, x);
  }
  e.material = 0;
  m.elements.push_back(e);
  m.materials = {steel()};
  return m;
}

/// The 6 rigid-body displacement fields (3 translations, 3 small rotations about the centroid).
Eigen::MatrixXd rigidModes(const FeModel& m) {
  const int n = m.nodeCount();
  Eigen::Vector3d c = Eigen::Vector3d::Zero();
  for (const auto& x : m.coords) c += x;
  c /= n;
  Eigen::MatrixXd R = Eigen::MatrixXd::Zero(3 * n, 6);
  for (int a = 0; a < n; ++a) {
    const Eigen::Vector3d r = m.coords[static_cast<std::size_t>(a)] - c;
    for (int i = 0; i < 3; ++i) {
      R(3 * a + i, i) = 1.0;
      const Eigen::Vector3d w = Eigen::Vector3d::Unit(i).cross(r);
      R.block<3, 1>(3 * a, 3 + i) = w;
    }
  }
  return R;
}

/// Lowest frequencies [Hz] of K x = w^2 M x restricted to `keep` dofs (dense, eigenvalues sorted).
Eigen::VectorXd frequencies(const Eigen::SparseMatrix<double>& K, const Eigen::SparseMatrix<double>& M,
                            const std::vector<int>& keep, Eigen::MatrixXd* vectors = nullptr) {
  const Eigen::MatrixXd Kd(K), Md(M);
  const int n = static_cast<int>(keep.size());
  Eigen::MatrixXd Kr(n, n), Mr(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      Kr(i, j) = Kd(keep[i], keep[j]);
      Mr(i, j) = Md(keep[i], keep[j]);
    }
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> es(
      Kr, Mr, vectors ? Eigen::ComputeEigenvectors | Eigen::Ax_lBx : Eigen::EigenvaluesOnly | Eigen::Ax_lBx);
  if (vectors) *vectors = es.eigenvectors();
  return es.eigenvalues().unaryExpr([](double l) { return std::sqrt(std::max(l, 0.0)) / (2 * std::numbers::pi); });
}

std::vector<int> allDofs(int n) {
  std::vector<int> d(static_cast<std::size_t>(3 * n));
  for (int i = 0; i < 3 * n; ++i) d[static_cast<std::size_t>(i)] = i;
  return d;
}

// Test beam: 0.3 m x 0.01 m x 0.01 m steel
constexpr double kL = 0.3, kB = 0.01;
double bendingReference(double betaL) {
  const double I = kB * kB * kB * kB / 12.0, A = kB * kB;
  return betaL * betaL / (2 * std::numbers::pi) * std::sqrt(kE * I / (kRho * A * kL * kL * kL * kL));
}

void addElementTypeRows(bool boxMeshOnly = false) {
  QTest::addColumn<int>("type");
  for (const ElementKind& k : elementKinds())
    if (!boxMeshOnly || isTet(k.type) || k.nodes == 8 || k.nodes == 20) QTest::newRow(k.name) << static_cast<int>(k.type);
}

}  // namespace

class AssemblyTest : public QObject {
  Q_OBJECT
 private slots:
  // ---------------------------------------------------------------- element library
  void quadratureExactness() {
    // tetrahedra: integral of xi^a eta^b zeta^c over the unit tetrahedron = a! b! c! / (a+b+c+3)!
    struct TetCase {
      std::span<const QuadPoint> rule;
      int degree;
    };
    for (const TetCase& c : {TetCase{quadrature::tet1(), 1}, TetCase{quadrature::tet4(), 2}, TetCase{quadrature::tet15(), 5}}) {
      for (int a = 0; a <= c.degree; ++a)
        for (int b = 0; a + b <= c.degree; ++b)
          for (int d = 0; a + b + d <= c.degree; ++d) {
            double s = 0;
            for (const QuadPoint& p : c.rule) s += p.w * std::pow(p.xi, a) * std::pow(p.eta, b) * std::pow(p.zeta, d);
            const double exact = factorial(a) * factorial(b) * factorial(d) / factorial(a + b + d + 3);
            QVERIFY2(std::abs(s - exact) < 1e-15, qPrintable(QString("tet rule %1 points, monomial %2 %3 %4: %5 vs %6")
                                                                  .arg(c.rule.size()).arg(a).arg(b).arg(d).arg(s).arg(exact)));
          }
      for (const QuadPoint& p : c.rule) QVERIFY(p.w > 0);
    }
    // the 4-point rule is not exact for degree 3 (that is why C3D10 needs the 15-point mass rule)
    {
      double s = 0;
      for (const QuadPoint& p : quadrature::tet4()) s += p.w * p.xi * p.xi * p.xi * p.xi;
      QVERIFY(std::abs(s - factorial(4) / factorial(7)) > 1e-6);
    }
    // Gauss tensor rules: exact per direction up to 2P - 1
    struct HexCase {
      std::span<const QuadPoint> rule;
      int degree;
    };
    for (const HexCase& c : {HexCase{quadrature::hex1(), 1}, HexCase{quadrature::hex8(), 3}, HexCase{quadrature::hex27(), 5}})
      for (int a = 0; a <= c.degree; ++a)
        for (int b = 0; b <= c.degree; ++b)
          for (int d = 0; d <= c.degree; ++d) {
            double s = 0;
            for (const QuadPoint& p : c.rule) s += p.w * std::pow(p.xi, a) * std::pow(p.eta, b) * std::pow(p.zeta, d);
            auto m1 = [](int k) { return k % 2 ? 0.0 : 2.0 / (k + 1); };
            QVERIFY(std::abs(s - m1(a) * m1(b) * m1(d)) < 1e-14);
          }
  }

  void shapeFunctions_data() { addElementTypeRows(); }
  void shapeFunctions() {
    QFETCH(int, type);
    const ElementKind& k = elementKind(static_cast<ElementType>(type));
    double N[20], dN[60], Np[20], dNp[60], Nm[20], dNm[60];
    // Kronecker property at the nodes
    for (int b = 0; b < k.nodes; ++b) {
      const auto& xb = k.naturalNodes[static_cast<std::size_t>(b)];
      k.shape(xb.data(), N, dN);
      for (int a = 0; a < k.nodes; ++a) QVERIFY(std::abs(N[a] - (a == b ? 1.0 : 0.0)) < 1e-14);
    }
    // partition of unity, reproduction of the coordinates, derivatives vs central differences
    const double xi[3] = {0.21, 0.13, 0.27};
    k.shape(xi, N, dN);
    double sum = 0;
    Eigen::Vector3d x = Eigen::Vector3d::Zero(), dsum = Eigen::Vector3d::Zero();
    for (int a = 0; a < k.nodes; ++a) {
      sum += N[a];
      const auto& xa = k.naturalNodes[static_cast<std::size_t>(a)];
      x += N[a] * Eigen::Vector3d(xa[0], xa[1], xa[2]);
      dsum += Eigen::Vector3d(dN[3 * a], dN[3 * a + 1], dN[3 * a + 2]);
    }
    QVERIFY(std::abs(sum - 1) < 1e-14);
    QVERIFY((x - Eigen::Vector3d(xi[0], xi[1], xi[2])).norm() < 1e-14);
    QVERIFY(dsum.norm() < 1e-13);
    const double h = 1e-6;
    for (int d = 0; d < 3; ++d) {
      double xp[3] = {xi[0], xi[1], xi[2]}, xm[3] = {xi[0], xi[1], xi[2]};
      xp[d] += h;
      xm[d] -= h;
      k.shape(xp, Np, dNp);
      k.shape(xm, Nm, dNm);
      for (int a = 0; a < k.nodes; ++a) QVERIFY(std::abs((Np[a] - Nm[a]) / (2 * h) - dN[3 * a + d]) < 1e-8);
    }
  }

  // ---------------------------------------------------------------- single elements
  void singleElementStiffness_data() { addElementTypeRows(); }
  void singleElementStiffness() {
    QFETCH(int, type);
    const auto t = static_cast<ElementType>(type);
    const FeModel m = singleElement(t, 0.1);  // distorted; quadratic edges curved
    const AssembledMatrices am = assembleOrFail(m);
    QVERIFY(am.K.rows() == 3 * m.nodeCount());
    QVERIFY(am.K.isCompressed() && am.M.isCompressed());
    const Eigen::MatrixXd K(am.K);
    // symmetry: exact
    QCOMPARE((K - K.transpose()).cwiseAbs().maxCoeff(), 0.0);
    // rigid-body modes
    const Eigen::MatrixXd R = rigidModes(m);
    const double rel = (K * R).norm() / (K.norm() * R.norm());
    QVERIFY2(rel < 1e-10, qPrintable(QString("|K r| / (|K| |r|) = %1").arg(rel)));
    // positive semi-definite with exactly 6 zero eigenvalues (C3D20R: 2x2x2 reduced integration
    // and C3D6: CalculiX's 2-point rule leave spurious zero-energy modes in a single element)
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(K, Eigen::EigenvaluesOnly);
    const Eigen::VectorXd ev = es.eigenvalues();
    const double lmax = ev.maxCoeff();
    int zeros = 0;
    for (int i = 0; i < ev.size(); ++i) {
      QVERIFY(ev[i] > -1e-10 * lmax);
      if (ev[i] < 1e-10 * lmax) ++zeros;
    }
    const int expectedZeros = 6 + elementKind(t).spuriousModes;
    qInfo("%s: %d zero eigenvalues, smallest non-zero / max = %.3g, |K r| rel = %.2g", abaqusName(t), zeros,
          ev[zeros] / lmax, rel);
    QCOMPARE(zeros, expectedZeros);
    QVERIFY(ev[zeros] > 1e-8 * lmax);
  }

  void hex20ReducedSpuriousModesDoNotSurviveInAMesh() {
    // the 6 spurious modes of a single C3D20R element are not shared by neighbours: a 2x2x2
    // mesh has exactly the 6 rigid-body zero modes
    const BoxMesh b = boxMesh(ElementType::Hex20R, 2, 2, 2, Eigen::Vector3d(0.02, 0.02, 0.02));
    const Eigen::MatrixXd K(assembleOrFail(b.model).K);
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(K, Eigen::EigenvaluesOnly);
    const Eigen::VectorXd ev = es.eigenvalues();
    int zeros = 0;
    for (int i = 0; i < ev.size(); ++i)
      if (ev[i] < 1e-10 * ev.maxCoeff()) ++zeros;
    QCOMPARE(zeros, 6);
  }

  void volumes() {
    const Material mat = steel();
    AssemblyOptions opt;
    opt.override_material = &mat;
    Eigen::Matrix3d A;  // a general affine map (det != 1)
    A << 1.1, 0.2, -0.3, 0.1, 0.9, 0.25, 0.05, -0.15, 1.3;
    const Eigen::Vector3d t(0.4, -1.0, 2.0);
    // tetrahedra: arbitrary corners; C3D10 with one mid-edge node moved off its edge by d:
    // V = V0 (1 + d . (grad L_i + grad L_j)) exactly (det(J0 + d grad N_m) is linear in d)
    {
      FeModel m = singleElement(ElementType::Tet10, 0.0);
      const auto& c = m.coords;
      const Eigen::Vector3d e1 = c[1] - c[0], e2 = c[2] - c[0], e3 = c[3] - c[0];
      const double V0 = e1.cross(e2).dot(e3) / 6;
      Eigen::Matrix3d J0;
      J0 << e1, e2, e3;
      const Eigen::Matrix3d gradL = J0.inverse();  // rows: grad of L2, L3, L4
      const Eigen::Vector3d d(0.004, -0.003, 0.006);
      m.coords[8] += d;  // node 9: edge 2-4 (1-based)
      const double V = V0 * (1 + d.dot(gradL.row(0).transpose() + gradL.row(2).transpose()));
      QVERIFY(std::abs(assembleOrFail(m, opt).volume - V) < 1e-14 * V);
      FeModel m4 = singleElement(ElementType::Tet4, 0.0);
      QVERIFY(std::abs(assembleOrFail(m4, opt).volume - V0) < 1e-14 * V0);
      QVERIFY(std::abs(V - V0) > 1e-3 * V0);  // the test does move the volume
    }
    // hexahedra: frustum with rectangular faces a1 x a2 (z = 0) and b1 x b2 (z = h), then the
    // affine map: V = det A * h (a1 a2 + (a1 (b2 - a2) + a2 (b1 - a1)) / 2 + (b1 - a1)(b2 - a2) / 3)
    for (ElementType type : {ElementType::Hex8, ElementType::Hex8R, ElementType::Hex20, ElementType::Hex20R}) {
      const double a1 = 2.0, a2 = 1.5, b1 = 1.0, b2 = 0.6, h = 0.8;
      const ElementKind& k = elementKind(type);
      FeModel m;
      Element e;
      e.type = type;
      e.id = 1;
      for (int a = 0; a < k.nodes; ++a) {
        const auto& xi = k.naturalNodes[static_cast<std::size_t>(a)];
        const double s = 0.5 * (xi[2] + 1);  // 0 at the bottom, 1 at the top
        const Eigen::Vector3d x(0.5 * xi[0] * (a1 + (b1 - a1) * s), 0.5 * xi[1] * (a2 + (b2 - a2) * s), h * s);
        e.nodes[a] = m.addNode(a + 1, A * x + t);
      }
      m.elements.push_back(e);
      const double V =
          A.determinant() * h * (a1 * a2 + (a1 * (b2 - a2) + a2 * (b1 - a1)) / 2 + (b1 - a1) * (b2 - a2) / 3);
      const double got = assembleOrFail(m, opt).volume;
      QVERIFY2(std::abs(got - V) < 1e-13 * V, qPrintable(QString("%1: %2 vs %3").arg(k.name).arg(got).arg(V)));
    }
    // C3D20 with curved top: unit cube, the 4 top mid-edge nodes raised by delta: the top
    // surface is 1 + delta * sum of the quad8 mid-side functions, whose mean is 4/3 -> V = 1 + 4 delta / 3
    for (ElementType type : {ElementType::Hex20, ElementType::Hex20R}) {
      const double delta = 0.1;
      const ElementKind& k = elementKind(type);
      FeModel m;
      Element e;
      e.type = type;
      e.id = 1;
      for (int a = 0; a < k.nodes; ++a) {
        const auto& xi = k.naturalNodes[static_cast<std::size_t>(a)];
        Eigen::Vector3d x(0.5 * (xi[0] + 1), 0.5 * (xi[1] + 1), 0.5 * (xi[2] + 1));
        if (a >= 12 && a <= 15) x.z() += delta;
        e.nodes[a] = m.addNode(a + 1, A * x + t);
      }
      m.elements.push_back(e);
      const double V = A.determinant() * (1 + 4 * delta / 3);
      QVERIFY(std::abs(assembleOrFail(m, opt).volume - V) < 1e-13 * V);
    }
  }

  void massTotalsAndLumping_data() { addElementTypeRows(); }
  void massTotalsAndLumping() {
    QFETCH(int, type);
    const auto t = static_cast<ElementType>(type);
    const FeModel m = singleElement(t, 0.1);
    // CalculiX's mass rules integrate detJ exactly only for undistorted elements
    const FeModel straight = singleElement(t, 0.0);
    for (bool ccx : {false, true}) {
      AssemblyOptions opt;
      opt.ccx_mass_rule = ccx;
      const AssembledMatrices am = assembleOrFail(ccx ? straight : m, opt);
      const double rhoV = kRho * am.volume;
      QVERIFY(std::abs(am.mass - rhoV) < 1e-14 * rhoV);
      const Eigen::MatrixXd M(am.M);
      QCOMPARE((M - M.transpose()).cwiseAbs().maxCoeff(), 0.0);
      const Eigen::MatrixXd R = rigidModes(ccx ? straight : m);
      for (int d = 0; d < 3; ++d) {
        const double total = R.col(d).dot(M * R.col(d));  // 1^T M_d 1
        QVERIFY2(std::abs(total - rhoV) < 1e-12 * rhoV,
                 qPrintable(QString("direction %1: %2 vs rho V = %3").arg(d).arg(total).arg(rhoV)));
      }
      // no coupling between directions
      QVERIFY(std::abs(R.col(0).dot(M * R.col(1))) < 1e-15 * rhoV);
      if (!ccx) {  // the consistent mass is positive definite
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(M, Eigen::EigenvaluesOnly);
        QVERIFY(es.eigenvalues().minCoeff() > 0);
      }
    }
    // HRZ: positive, sums to rho V; the lumped option gives that diagonal
    AssemblyOptions lumped;
    lumped.lumped = true;
    const AssembledMatrices am = assembleOrFail(m, lumped);
    double sum = 0;
    for (double v : am.lumped_node_mass) {
      QVERIFY(v > 0);
      sum += v;
    }
    QVERIFY(std::abs(sum - am.mass) < 1e-13 * am.mass);
    QCOMPARE(am.M.nonZeros(), static_cast<Eigen::Index>(3 * m.nodeCount()));
    for (int i = 0; i < 3 * m.nodeCount(); ++i) QCOMPARE(am.M.coeff(i, i), am.lumped_node_mass[static_cast<std::size_t>(i / 3)]);
  }

  void hrzVersusRowSumForQuadraticTet() {
    // straight C3D10: consistent mass diagonal 6/420 (corners), 32/420 (mid-edge) of rho V;
    // row sums -1/20 (corners!) and 1/5; HRZ: 1/36 and 4/27
    const FeModel m = singleElement(ElementType::Tet10, 0.0);
    const ElementKind& k = elementKind(ElementType::Tet10);
    ElementCoords X(3, 10);
    for (int a = 0; a < 10; ++a) X.col(a) = m.coords[static_cast<std::size_t>(a)];
    ElementMatrix me;
    double V = 0;
    QVERIFY(elementMass(k, X, kRho, k.massRule, me, V));
    const double rhoV = kRho * V;
    ElementVector rowSum, hrz;
    rowSumLump(me, rowSum);
    hrzLump(me, hrz);
    for (int a = 0; a < 10; ++a) {
      const bool corner = a < 4;
      QVERIFY(std::abs(me(a, a) / rhoV - (corner ? 6.0 : 32.0) / 420) < 1e-14);
      QVERIFY(std::abs(rowSum[a] / rhoV - (corner ? -1.0 / 20 : 1.0 / 5)) < 1e-14);
      QVERIFY(std::abs(hrz[a] / rhoV - (corner ? 1.0 / 36 : 4.0 / 27)) < 1e-14);
      if (corner) QVERIFY(rowSum[a] < 0);  // why row-sum lumping is unusable for C3D10
      QVERIFY(hrz[a] > 0);
    }
    QVERIFY(std::abs(hrz.sum() - rhoV) < 1e-14 * rhoV);
    // the same holds on a distorted (curved) element, and for C3D20 row sums are negative too
    const FeModel c = singleElement(ElementType::Hex20, 0.1);
    const ElementKind& k20 = elementKind(ElementType::Hex20);
    ElementCoords X20(3, 20);
    for (int a = 0; a < 20; ++a) X20.col(a) = c.coords[static_cast<std::size_t>(a)];
    QVERIFY(elementMass(k20, X20, kRho, k20.massRule, me, V));
    rowSumLump(me, rowSum);
    hrzLump(me, hrz);
    QVERIFY(rowSum.head(8).maxCoeff() < 0);
    QVERIFY(hrz.minCoeff() > 0);
  }

  // ---------------------------------------------------------------- patch test
  // boxMesh makes tetrahedra and bricks; wedges and pyramids: elements_test.cpp
  void patchTest_data() { addElementTypeRows(true); }
  void patchTest() {
    // 2 x 2 x 2 cells with every corner moved at random (straight edges): a linear displacement
    // field must give zero nodal forces at interior nodes, and prescribing it on the boundary
    // must reproduce it exactly inside
    QFETCH(int, type);
    const auto t = static_cast<ElementType>(type);
    std::mt19937 rng(42);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::map<std::tuple<long, long, long>, Eigen::Vector3d> moved;
    auto map = [&](const Eigen::Vector3d& x) {
      const auto key = std::make_tuple(std::lround(x.x() * 1e6), std::lround(x.y() * 1e6), std::lround(x.z() * 1e6));
      auto it = moved.find(key);
      if (it == moved.end()) it = moved.emplace(key, x + 0.12 * Eigen::Vector3d(u(rng), u(rng), u(rng))).first;
      return it->second;
    };
    const BoxMesh b = boxMesh(t, 2, 2, 2, Eigen::Vector3d(1, 1, 1), map);
    const AssembledMatrices am = assembleOrFail(b.model);
    QVERIFY(am.K.rows() > 0);
    const int n = b.model.nodeCount();
    Eigen::Matrix3d G;
    G << 1e-3, 2e-4, -3e-4, 5e-4, -2e-3, 1e-4, -1e-4, 3e-4, 1.5e-3;
    const Eigen::Vector3d c(1e-3, -2e-3, 5e-4);
    Eigen::VectorXd u_lin(3 * n);
    for (int a = 0; a < n; ++a) u_lin.segment<3>(3 * a) = G * b.model.coords[static_cast<std::size_t>(a)] + c;
    const Eigen::VectorXd f = am.K * u_lin;
    std::vector<int> interior, boundary;
    for (int a = 0; a < n; ++a) {
      const Eigen::Vector3i& L = b.lattice[static_cast<std::size_t>(a)];
      const bool in = (L.array() > 0).all() && (L.array() < b.latticeMax.array()).all();
      for (int i = 0; i < 3; ++i) (in ? interior : boundary).push_back(3 * a + i);
    }
    QVERIFY(!interior.empty());
    const double scale = f.cwiseAbs().maxCoeff();
    double fin = 0;
    for (int i : interior) fin = std::max(fin, std::abs(f[i]));
    qInfo("%s: %zu interior dofs, max interior force / max force = %.2g", abaqusName(t), interior.size(), fin / scale);
    QVERIFY2(fin < 1e-10 * scale, qPrintable(QString("interior force %1 vs %2").arg(fin).arg(scale)));
    // equilibrium of the boundary forces: zero resultant and zero moment
    Eigen::Vector3d F = Eigen::Vector3d::Zero(), Mo = Eigen::Vector3d::Zero();
    for (int a = 0; a < n; ++a) {
      F += f.segment<3>(3 * a);
      Mo += b.model.coords[static_cast<std::size_t>(a)].cross(f.segment<3>(3 * a));
    }
    QVERIFY(F.norm() < 1e-10 * scale && Mo.norm() < 1e-10 * scale);
    // solve the interior with the boundary prescribed
    const Eigen::MatrixXd Kd(am.K);
    const int ni = static_cast<int>(interior.size()), nb = static_cast<int>(boundary.size());
    Eigen::MatrixXd Kii(ni, ni), Kib(ni, nb);
    Eigen::VectorXd ub(nb), ui_exact(ni);
    for (int i = 0; i < ni; ++i) {
      for (int j = 0; j < ni; ++j) Kii(i, j) = Kd(interior[i], interior[j]);
      for (int j = 0; j < nb; ++j) Kib(i, j) = Kd(interior[i], boundary[j]);
      ui_exact[i] = u_lin[interior[i]];
    }
    for (int j = 0; j < nb; ++j) ub[j] = u_lin[boundary[j]];
    const Eigen::VectorXd ui = Kii.ldlt().solve(-Kib * ub);
    QVERIFY2((ui - ui_exact).norm() < 1e-10 * ui_exact.norm(),
             qPrintable(QString("interior error %1").arg((ui - ui_exact).norm() / ui_exact.norm())));
  }

  // ---------------------------------------------------------------- diagnostics
  void diagnostics() {
    // inverted element: C3D10 numbered 1-3-2-4 (with the matching mid nodes): negative Jacobian
    {
      FeModel m = singleElement(ElementType::Tet10, 0.0);
      m.elements[0].id = 123;
      const auto orig = m.elements[0].nodes;
      const int perm[10] = {0, 2, 1, 3, 6, 5, 4, 7, 9, 8};
      for (int a = 0; a < 10; ++a) m.elements[0].nodes[a] = orig[perm[a]];
      AssembledMatrices out;
      Diagnostics diag;
      QVERIFY(!assemble(m, {}, out, diag));
      const QString s = QString::fromStdString(diag.str());
      QVERIFY2(s.contains("element 123 (C3D10)") && s.contains("negative Jacobian determinant") &&
                   s.contains("integration point 1") && s.contains("inverted or badly ordered element"),
               qPrintable(s));
      QCOMPARE(out.K.rows(), 0);
    }
    // flat element
    {
      FeModel m = singleElement(ElementType::Hex8, 0.0);
      for (int a = 4; a < 8; ++a) m.coords[static_cast<std::size_t>(m.elements[0].nodes[a])] = m.coords[static_cast<std::size_t>(m.elements[0].nodes[a - 4])];
      AssembledMatrices out;
      Diagnostics diag;
      QVERIFY(!assemble(m, {}, out, diag));
      QVERIFY2(QString::fromStdString(diag.str()).contains("degenerate"), diag.str().c_str());
    }
    // elements without material: the set is named, with the deck's keyword for a CalculiX deck
    {
      BoxMesh b = boxMesh(ElementType::Hex8, 2, 1, 1, Eigen::Vector3d(1, 1, 1));
      b.model.elements[1].material = -1;
      b.model.element_sets["EALL"] = {0, 1};
      b.model.element_sets["BRACKET"] = {1};
      AssembledMatrices out;
      Diagnostics diag;
      QVERIFY(!assemble(b.model, {}, out, diag));
      QVERIFY2(diag.str().find("element set BRACKET: error: has no material (1 elements") != std::string::npos &&
                   diag.str().find("SOLID SECTION") == std::string::npos,
               diag.str().c_str());
      b.model.sources = {"bracket.inp"};
      diag = Diagnostics{};
      QVERIFY(!assemble(b.model, {}, out, diag));
      const QString s = QString::fromStdString(diag.str());
      QVERIFY2(s.contains("element set BRACKET") && s.contains("has no *SOLID SECTION/material") && !s.contains("EALL"),
               qPrintable(s));
      // an override material makes the mesh usable
      const Material mat = steel();
      AssemblyOptions opt;
      opt.override_material = &mat;
      Diagnostics d2;
      QVERIFY(assemble(b.model, opt, out, d2));
      // an element in no set
      b.model.element_sets.clear();
      Diagnostics d3;
      QVERIFY(!assemble(b.model, {}, out, d3));
      QVERIFY2(QString::fromStdString(d3.str()).contains("element 2 (C3D8)"), d3.str().c_str());
    }
    // bad materials are named with the offending value
    {
      struct Bad {
        double E, nu, rho;
        const char* text;
      };
      for (const Bad& bad : {Bad{0, 0.3, 7850, "Young's modulus E = 0"}, Bad{2e11, 0.5, 7850, "Poisson's ratio nu = 0.5"},
                             Bad{2e11, -1, 7850, "Poisson's ratio nu = -1"}, Bad{2e11, 0.3, 0, "density rho = 0"},
                             Bad{2e11, 0.3, -1, "density rho = -1"}}) {
        FeModel m = singleElement(ElementType::Tet4, 0.0);
        m.materials[0].name = "ALU";
        m.materials[0].E = bad.E;
        m.materials[0].nu = bad.nu;
        m.materials[0].rho = bad.rho;
        AssembledMatrices out;
        Diagnostics diag;
        QVERIFY(!assemble(m, {}, out, diag));
        const QString s = QString::fromStdString(diag.str());
        QVERIFY2(s.contains("material 'ALU'") && s.contains(bad.text), qPrintable(s));
      }
    }
    // unused node: empty rows, left out of the eigen solution with a note naming it
    {
      FeModel m = singleElement(ElementType::Tet4, 0.0);
      m.addNode(999, Eigen::Vector3d(5, 5, 5));
      AssembledMatrices out;
      Diagnostics diag;
      QVERIFY(assemble(m, {}, out, diag));
      const ActiveDofs active = activeDofs(out.K, out.M, m.nodeCount());
      QCOMPARE(active.orphan_nodes, std::vector<int>{4});
      noteLeftOut(m, active, diag);
      QVERIFY(QString::fromStdString(diag.str()).contains("no element or spring (coupling reference nodes, nodes of "
                                                          "skipped cards, geometry points): 999;"));
      QCOMPARE(out.K.rows(), 15);
      QCOMPARE(out.K.col(12).nonZeros(), 0);
      QCOMPARE(out.lumped_node_mass[4], 0.0);
    }
  }

  /// One material rule for the readers, the command line, the import wizard and the assembly:
  /// an auxetic nu = -0.2 is a material, nu = 0.5 (incompressible) is not, with one message.
  void materialRule() {
    QCOMPARE(materialProblem(2e11, -0.2, 7850), std::string());
    QCOMPARE(materialProblem(2e11, 0.5, 7850), std::string("Poisson's ratio nu = 0.5 must be in (-1, 0.5)"));
    QCOMPARE(materialProblem(2e11, 0.5, 7850), elasticProblem(2e11, 0.5));
    QCOMPARE(materialProblem(2e11, 0.3, -1), std::string("density rho = -1 must be > 0"));
    QCOMPARE(materialProblem(0, 0.3, -1), std::string("Young's modulus E = 0 must be > 0"));  // the first problem
    FeModel m = singleElement(ElementType::Tet4, 0.0);
    m.materials[0].nu = -0.2;
    AssembledMatrices out;
    Diagnostics diag;
    QVERIFY2(assemble(m, {}, out, diag), diag.str().c_str());
    m.materials[0].nu = 0.5;
    QVERIFY(!assemble(m, {}, out, diag));
    QVERIFY2(diag.str().find("Poisson's ratio nu = 0.5 must be in (-1, 0.5)") != std::string::npos, diag.str().c_str());
  }

  // ---------------------------------------------------------------- beam frequencies
  void beamFrequencies_data() {
    QTest::addColumn<int>("type");
    QTest::addColumn<int>("nx");
    QTest::addColumn<int>("ny");
    QTest::newRow("C3D20 20x1x1") << static_cast<int>(ElementType::Hex20) << 20 << 1;
    QTest::newRow("C3D20R 10x2x2") << static_cast<int>(ElementType::Hex20R) << 10 << 2;
    QTest::newRow("C3D10 20x1x1 (Kuhn)") << static_cast<int>(ElementType::Tet10) << 20 << 1;
  }
  void beamFrequencies() {
    QFETCH(int, type);
    QFETCH(int, nx);
    QFETCH(int, ny);
    const auto t = static_cast<ElementType>(type);
    const BoxMesh b = boxMesh(t, nx, ny, ny, Eigen::Vector3d(kL, kB, kB),
                              [](const Eigen::Vector3d& x) { return Eigen::Vector3d(x.x(), x.y() - kB / 2, x.z() - kB / 2); });
    const AssembledMatrices am = assembleOrFail(b.model);
    const int n = b.model.nodeCount();
    QVERIFY(std::abs(am.volume - kL * kB * kB) < 1e-12 * kL * kB * kB);

    const double fCF = bendingReference(1.87510407), fFF = bendingReference(4.73004074);
    const double fAxial = 1 / (2 * kL) * std::sqrt(kE / kRho);

    // clamped-free: remove every dof of the nodes at x = 0
    std::vector<int> keep;
    for (int a = 0; a < n; ++a)
      if (b.lattice[static_cast<std::size_t>(a)].x() > 0)
        for (int i = 0; i < 3; ++i) keep.push_back(3 * a + i);
    const Eigen::VectorXd cf = frequencies(am.K, am.M, keep);
    // free-free with mode shapes: 6 rigid modes, then the flexible ones
    Eigen::MatrixXd V;
    const Eigen::VectorXd ff = frequencies(am.K, am.M, allDofs(n), &V);
    QVERIFY(ff[5] < 1e-3 * ff[6]);
    // first axial mode: the lowest flexible mode whose kinetic energy is mostly in x
    const Eigen::MatrixXd Md(am.M);
    double fAx = 0;
    for (int j = 6; j < V.cols() && fAx == 0; ++j) {
      Eigen::VectorXd vx = Eigen::VectorXd::Zero(3 * n);
      for (int a = 0; a < n; ++a) vx[3 * a] = V(3 * a, j);
      if (vx.dot(Md * vx) > 0.9 * V.col(j).dot(Md * V.col(j))) fAx = ff[j];
    }
    const double eCF = cf[0] / fCF - 1, eFF = ff[6] / fFF - 1, eAx = fAx / fAxial - 1;
    qInfo("%s %dx%dx%d (%d dofs): clamped-free 1st bending %.2f Hz (EB %.2f, %+.3f%%), free-free 1st bending "
          "%.2f Hz (EB %.2f, %+.3f%%), 1st axial %.1f Hz (bar %.1f, %+.3f%%)",
          abaqusName(t), nx, ny, ny, 3 * n, cf[0], fCF, 100 * eCF, ff[6], fFF, 100 * eFF, fAx, fAxial, 100 * eAx);
    // the two bending directions are equal (square section; the Kuhn tetrahedra are not
    // symmetric between y and z)
    const double tol = isTet(t) ? 1e-2 : 1e-6;
    QVERIFY(std::abs(cf[1] / cf[0] - 1) < tol && std::abs(ff[7] / ff[6] - 1) < tol);
    QVERIFY(std::abs(eCF) < 0.01);
    QVERIFY(std::abs(eFF) < 0.01);
    QVERIFY(std::abs(eAx) < 0.01);

    // HRZ-lumped mass: the same modes within 1 % too
    AssemblyOptions lumped;
    lumped.lumped = true;
    const AssembledMatrices al = assembleOrFail(b.model, lumped);
    const Eigen::VectorXd cfl = frequencies(al.K, al.M, keep);
    qInfo("   HRZ-lumped mass: clamped-free 1st bending %.2f Hz (%+.3f%%)", cfl[0], 100 * (cfl[0] / fCF - 1));
    QVERIFY(std::abs(cfl[0] / fCF - 1) < 0.01);

    // CalculiX's mass rule (C3D10: 4 points, C3D20R: 2x2x2): how much the frequency moves. The
    // 2x2x2 mass of C3D20R is singular (8 points for 20 nodes), so solve M x = (1 / w^2) K x
    // with the clamped (positive definite) K instead.
    AssemblyOptions ccx;
    ccx.ccx_mass_rule = true;
    const AssembledMatrices ac = assembleOrFail(b.model, ccx);
    const Eigen::VectorXd inv = frequencies(ac.M, ac.K, keep);  // = 1 / (4 pi^2 f), ascending
    const double fc = 1 / (4 * std::numbers::pi * std::numbers::pi * inv[inv.size() - 1]);
    qInfo("   ccx mass rule: clamped-free 1st bending %.4f Hz (exact-rule mass %.4f Hz, %+.2g)", fc, cf[0],
          fc / cf[0] - 1);
    QVERIFY(std::abs(fc / cf[0] - 1) < 1e-3);
  }

  void hex20ReducedSingleLayerHasSpuriousModes() {
    // A single layer of C3D20R through the thickness does propagate the 2x2x2 hourglass modes:
    // a free 4x1x1 bar has more than 6 zero-energy modes (CalculiX's C3D20R uses the same 2x2x2
    // rule, so the same holds there). Meshes of C3D20R need 2 or more elements through every
    // thickness.
    const BoxMesh b = boxMesh(ElementType::Hex20R, 4, 1, 1, Eigen::Vector3d(kL / 5, kB, kB));
    const Eigen::MatrixXd K(assembleOrFail(b.model).K);
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(K, Eigen::EigenvaluesOnly);
    const Eigen::VectorXd ev = es.eigenvalues();
    int zeros = 0;
    for (int i = 0; i < ev.size(); ++i)
      if (ev[i] < 1e-10 * ev.maxCoeff()) ++zeros;
    qInfo("C3D20R 4x1x1: %d zero-energy modes", zeros);
    QVERIFY(zeros > 6);
  }

  // ---------------------------------------------------------------- size / time
  void largeTet10MeshTiming() {
#ifdef NDEBUG
    const int c = 23;  // 23^3 cells x 6 = 73 002 C3D10, 103 823 nodes
#else
    const int c = 8;
#endif
    const BoxMesh b = boxMesh(ElementType::Tet10, c, c, c, Eigen::Vector3d(1, 1, 1));
    for (bool lumped : {false, true}) {
      AssemblyOptions opt;
      opt.lumped = lumped;
      const auto t0 = std::chrono::steady_clock::now();
      const AssembledMatrices am = assembleOrFail(b.model, opt);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      qInfo("%zu C3D10, %d nodes, %s mass: assembly %.2f s, nnz(K) = %lld, nnz(M) = %lld", b.model.elements.size(),
            b.model.nodeCount(), lumped ? "lumped" : "consistent", s, static_cast<long long>(am.K.nonZeros()),
            static_cast<long long>(am.M.nonZeros()));
      QVERIFY(std::abs(am.volume - 1) < 1e-12);
      QVERIFY(std::abs(am.mass - kRho) < 1e-9 * kRho);
      // rigid translation: K 1 = 0
      Eigen::VectorXd ux = Eigen::VectorXd::Zero(am.K.rows());
      for (int a = 0; a < b.model.nodeCount(); ++a) ux[3 * a] = 1;
      QVERIFY((am.K * ux).norm() < 1e-6 * kE);
      QVERIFY(std::abs(ux.dot(am.M * ux) - kRho) < 1e-9 * kRho);
    }
  }
};

QTEST_APPLESS_MAIN(AssemblyTest)
#include "assembly_test.moc"
