#include "core/fe/element_library.h"

#include <Eigen/Dense>

#include <cmath>

namespace flexim::fe {

// ------------------------------------------------------------------------------------------------
// Quadrature rules
// ------------------------------------------------------------------------------------------------
namespace {

/// Symmetric tetrahedron points from barycentric coordinates (L1, L2, L3, L4): (xi, eta, zeta) =
/// (L2, L3, L4).
constexpr QuadPoint tetPoint(double l1, double l2, double l3, double l4, double w) {
  (void)l1;
  return {l2, l3, l4, w};
}

// Centroid rule, degree 1.
constexpr std::array<QuadPoint, 1> kTet1{{tetPoint(0.25, 0.25, 0.25, 0.25, 1.0 / 6.0)}};

// 4-point rule, degree 2 (the classical rule, e.g. Zienkiewicz & Taylor, The Finite Element
// Method vol. 1, table 5.4 / Keast 1986 rule 2): barycentric (b, a, a, a) and permutations with
// a = (5 - sqrt 5) / 20, b = (5 + 3 sqrt 5) / 20, weights 1/24.
constexpr double kT4a = 0.13819660112501051518;
constexpr double kT4b = 0.58541019662496845446;
constexpr std::array<QuadPoint, 4> kTet4{{
    tetPoint(kT4b, kT4a, kT4a, kT4a, 1.0 / 24.0),
    tetPoint(kT4a, kT4b, kT4a, kT4a, 1.0 / 24.0),
    tetPoint(kT4a, kT4a, kT4b, kT4a, 1.0 / 24.0),
    tetPoint(kT4a, kT4a, kT4a, kT4b, 1.0 / 24.0),
}};

// 15-point rule of degree 5 with positive weights: P. Keast, "Moderate-degree tetrahedral
// quadrature formulas", Comput. Methods Appl. Mech. Engrg. 55 (1986) 339-348 (the 15-point
// rule). Orbits (barycentric): centroid; face centroids (1/3, 1/3, 1/3, 0); (1/11, 1/11, 1/11,
// 8/11); (b, b, 1/2 - b, 1/2 - b). The weights and b were re-derived here to 20 digits by
// solving the moment equations of degree <= 5 (mpmath, residual < 1e-40); assembly_test checks
// exactness for every monomial of degree <= 5. Weights for reference volume 1/6.
constexpr double kK0 = 0.030283678097089175806;   // centroid
constexpr double kK1 = 0.0060267857142857142857;  // face centroids (= 27/4480)
constexpr double kK2 = 0.011645249086028969411;   // (1/11, 1/11, 1/11, 8/11)
constexpr double kK3 = 0.010949141561386459346;   // (b, b, c, c)
constexpr double kKa = 1.0 / 11.0, kKb = 8.0 / 11.0;
constexpr double kKt = 1.0 / 3.0;
constexpr double kKc = 0.06655015357366429824, kKd = 0.43344984642633570176;  // b, 1/2 - b
constexpr std::array<QuadPoint, 15> kTet15{{
    tetPoint(0.25, 0.25, 0.25, 0.25, kK0),
    tetPoint(0.0, kKt, kKt, kKt, kK1),
    tetPoint(kKt, 0.0, kKt, kKt, kK1),
    tetPoint(kKt, kKt, 0.0, kKt, kK1),
    tetPoint(kKt, kKt, kKt, 0.0, kK1),
    tetPoint(kKb, kKa, kKa, kKa, kK2),
    tetPoint(kKa, kKb, kKa, kKa, kK2),
    tetPoint(kKa, kKa, kKb, kKa, kK2),
    tetPoint(kKa, kKa, kKa, kKb, kK2),
    tetPoint(kKc, kKc, kKd, kKd, kK3),
    tetPoint(kKc, kKd, kKc, kKd, kK3),
    tetPoint(kKc, kKd, kKd, kKc, kK3),
    tetPoint(kKd, kKc, kKc, kKd, kK3),
    tetPoint(kKd, kKc, kKd, kKc, kK3),
    tetPoint(kKd, kKd, kKc, kKc, kK3),
}};

// Gauss-Legendre tensor-product rules on [-1, 1]^3 (xi fastest, then eta, then zeta).
template <int P>
constexpr std::array<QuadPoint, P * P * P> gaussRule() {
  std::array<double, P> x{}, w{};
  if constexpr (P == 1) {
    x = {0.0};
    w = {2.0};
  } else if constexpr (P == 2) {
    const double g = 0.57735026918962576451;  // 1/sqrt(3)
    x = {-g, g};
    w = {1.0, 1.0};
  } else {
    const double g = 0.77459666924148337704;  // sqrt(3/5)
    x = {-g, 0.0, g};
    w = {5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0};
  }
  std::array<QuadPoint, P * P * P> r{};
  int q = 0;
  for (int k = 0; k < P; ++k)
    for (int j = 0; j < P; ++j)
      for (int i = 0; i < P; ++i) r[q++] = {x[i], x[j], x[k], w[i] * w[j] * w[k]};
  return r;
}

// constexpr: no static-initialisation-order issue when used from other translation units
constexpr std::array<QuadPoint, 1> kHex1 = gaussRule<1>();
constexpr std::array<QuadPoint, 8> kHex8 = gaussRule<2>();
constexpr std::array<QuadPoint, 27> kHex27 = gaussRule<3>();

// ------------------------------------------------------------------------------------------------
// Shape functions
// ------------------------------------------------------------------------------------------------

constexpr std::array<std::array<double, 3>, 4> kTet4Nodes{{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
// C3D10 mid-edge nodes 5..10: edges 1-2, 2-3, 3-1, 1-4, 2-4, 3-4 (1-based)
constexpr int kTet10Edges[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
constexpr std::array<std::array<double, 3>, 10> kTet10Nodes{{{0, 0, 0},
                                                             {1, 0, 0},
                                                             {0, 1, 0},
                                                             {0, 0, 1},
                                                             {0.5, 0, 0},
                                                             {0.5, 0.5, 0},
                                                             {0, 0.5, 0},
                                                             {0, 0, 0.5},
                                                             {0.5, 0, 0.5},
                                                             {0, 0.5, 0.5}}};
// C3D8 / C3D20 corners, then C3D20 mid-edge nodes 9..20: edges 1-2, 2-3, 3-4, 4-1, 5-6, 6-7,
// 7-8, 8-5, 1-5, 2-6, 3-7, 4-8 (1-based)
constexpr std::array<std::array<double, 3>, 20> kHex20Nodes{{{-1, -1, -1}, {1, -1, -1}, {1, 1, -1},
                                                             {-1, 1, -1},  {-1, -1, 1}, {1, -1, 1},
                                                             {1, 1, 1},    {-1, 1, 1},  {0, -1, -1},
                                                             {1, 0, -1},   {0, 1, -1},  {-1, 0, -1},
                                                             {0, -1, 1},   {1, 0, 1},   {0, 1, 1},
                                                             {-1, 0, 1},   {-1, -1, 0}, {1, -1, 0},
                                                             {1, 1, 0},    {-1, 1, 0}}};

void shapeTet4(const double xi[3], double* N, double* dN) {
  N[0] = 1.0 - xi[0] - xi[1] - xi[2];
  N[1] = xi[0];
  N[2] = xi[1];
  N[3] = xi[2];
  static constexpr double d[12] = {-1, -1, -1, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (int i = 0; i < 12; ++i) dN[i] = d[i];
}

void shapeTet10(const double xi[3], double* N, double* dN) {
  const double L[4] = {1.0 - xi[0] - xi[1] - xi[2], xi[0], xi[1], xi[2]};
  static constexpr double dL[4][3] = {{-1, -1, -1}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int a = 0; a < 4; ++a) {
    N[a] = L[a] * (2.0 * L[a] - 1.0);
    for (int k = 0; k < 3; ++k) dN[3 * a + k] = (4.0 * L[a] - 1.0) * dL[a][k];
  }
  for (int e = 0; e < 6; ++e) {
    const int i = kTet10Edges[e][0], j = kTet10Edges[e][1], a = 4 + e;
    N[a] = 4.0 * L[i] * L[j];
    for (int k = 0; k < 3; ++k) dN[3 * a + k] = 4.0 * (L[j] * dL[i][k] + L[i] * dL[j][k]);
  }
}

void shapeHex8(const double xi[3], double* N, double* dN) {
  for (int a = 0; a < 8; ++a) {
    const auto& c = kHex20Nodes[a];
    const double f0 = 1.0 + c[0] * xi[0], f1 = 1.0 + c[1] * xi[1], f2 = 1.0 + c[2] * xi[2];
    N[a] = 0.125 * f0 * f1 * f2;
    dN[3 * a + 0] = 0.125 * c[0] * f1 * f2;
    dN[3 * a + 1] = 0.125 * f0 * c[1] * f2;
    dN[3 * a + 2] = 0.125 * f0 * f1 * c[2];
  }
}

void shapeHex20(const double xi[3], double* N, double* dN) {
  for (int a = 0; a < 8; ++a) {  // corners: (1+x0)(1+y0)(1+z0)(x0+y0+z0-2)/8
    const auto& c = kHex20Nodes[a];
    const double x0 = c[0] * xi[0], y0 = c[1] * xi[1], z0 = c[2] * xi[2];
    const double f0 = 1.0 + x0, f1 = 1.0 + y0, f2 = 1.0 + z0, s = x0 + y0 + z0 - 2.0;
    N[a] = 0.125 * f0 * f1 * f2 * s;
    dN[3 * a + 0] = 0.125 * c[0] * f1 * f2 * (s + f0);
    dN[3 * a + 1] = 0.125 * c[1] * f0 * f2 * (s + f1);
    dN[3 * a + 2] = 0.125 * c[2] * f0 * f1 * (s + f2);
  }
  for (int a = 8; a < 20; ++a) {  // mid-edge: (1 - t^2)(1+u0)(1+v0)/4, t the zero coordinate
    const auto& c = kHex20Nodes[a];
    const int t = c[0] == 0.0 ? 0 : (c[1] == 0.0 ? 1 : 2);
    const int u = (t + 1) % 3, v = (t + 2) % 3;
    const double ft = 1.0 - xi[t] * xi[t], fu = 1.0 + c[u] * xi[u], fv = 1.0 + c[v] * xi[v];
    N[a] = 0.25 * ft * fu * fv;
    dN[3 * a + t] = -0.5 * xi[t] * fu * fv;
    dN[3 * a + u] = 0.25 * ft * c[u] * fv;
    dN[3 * a + v] = 0.25 * ft * fu * c[v];
  }
}

template <std::size_t N>
std::span<const std::array<double, 3>> firstNodes(const std::array<std::array<double, 3>, N>& a, int n) {
  return std::span<const std::array<double, 3>>(a.data(), static_cast<std::size_t>(n));
}

const std::array<ElementKind, 6>& kindTable() {
  static const std::array<ElementKind, 6> table{{
      {ElementType::Tet4, "C3D4", 4, shapeTet4, kTet1, kTet4, kTet1, firstNodes(kTet4Nodes, 4), false},
      {ElementType::Tet10, "C3D10", 10, shapeTet10, kTet4, kTet15, kTet4, firstNodes(kTet10Nodes, 10),
       false},
      {ElementType::Hex8, "C3D8", 8, shapeHex8, kHex8, kHex8, kHex8, firstNodes(kHex20Nodes, 8), false},
      // C3D8R: full integration instead of CalculiX's 1 point + hourglass control (see header)
      {ElementType::Hex8R, "C3D8R", 8, shapeHex8, kHex8, kHex8, kHex1, firstNodes(kHex20Nodes, 8), false},
      {ElementType::Hex20, "C3D20", 20, shapeHex20, kHex27, kHex27, kHex27, firstNodes(kHex20Nodes, 20),
       false},
      {ElementType::Hex20R, "C3D20R", 20, shapeHex20, kHex8, kHex27, kHex8, firstNodes(kHex20Nodes, 20),
       true},
  }};
  return table;
}

/// Jacobian J(i, k) = dx_i / dxi_k at a point whose shape derivatives are dN.
Eigen::Matrix3d jacobian(const ElementCoords& X, const double* dN, int n) {
  Eigen::Matrix3d J = Eigen::Matrix3d::Zero();
  for (int a = 0; a < n; ++a)
    for (int k = 0; k < 3; ++k) J.col(k) += dN[3 * a + k] * X.col(a);
  return J;
}

/// Size scale for the degeneracy test: detJ is compared with (bounding-box diagonal)^3.
double sizeCubed(const ElementCoords& X) {
  const double d = (X.rowwise().maxCoeff() - X.rowwise().minCoeff()).norm();
  return d * d * d;
}

bool detOk(double det, double h3, int q, bool massRule, JacobianFailure* fail) {
  // tiny relative to the element size: a flat element (reference detJ of a unit cube is 1/8,
  // of a unit corner tetrahedron 1)
  if (det > 1e-10 * h3) return true;
  if (fail) *fail = {q + 1, massRule, det, det > -1e-10 * h3};
  return false;
}

}  // namespace

namespace quadrature {
std::span<const QuadPoint> tet1() { return kTet1; }
std::span<const QuadPoint> tet4() { return kTet4; }
std::span<const QuadPoint> tet15() { return kTet15; }
std::span<const QuadPoint> hex1() { return kHex1; }
std::span<const QuadPoint> hex8() { return kHex8; }
std::span<const QuadPoint> hex27() { return kHex27; }
}  // namespace quadrature

const ElementKind& elementKind(ElementType t) {
  for (const auto& k : kindTable())
    if (k.type == t) return k;
  return kindTable()[0];  // unreachable: every enumerator has an entry
}

std::span<const ElementKind> elementKinds() { return kindTable(); }

bool checkJacobian(const ElementKind& kind, const ElementCoords& X, std::span<const QuadPoint> rule,
                   JacobianFailure& fail) {
  double N[20], dN[60];
  const double h3 = sizeCubed(X);
  for (std::size_t q = 0; q < rule.size(); ++q) {
    const double xi[3] = {rule[q].xi, rule[q].eta, rule[q].zeta};
    kind.shape(xi, N, dN);
    if (!detOk(jacobian(X, dN, kind.nodes).determinant(), h3, static_cast<int>(q), false, &fail))
      return false;
  }
  return true;
}

bool elementStiffness(const ElementKind& kind, const ElementCoords& X, double E, double nu,
                      ElementMatrix& K, JacobianFailure* fail) {
  const int n = kind.nodes;
  const double lambda = E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu));
  const double mu = E / (2.0 * (1.0 + nu));
  const double h3 = sizeCubed(X);
  K.setZero(3 * n, 3 * n);
  double N[20], dN[60];
  Eigen::Matrix<double, 20, 3> G;  // dN_a / dx_i
  for (std::size_t q = 0; q < kind.stiffnessRule.size(); ++q) {
    const QuadPoint& p = kind.stiffnessRule[q];
    const double xi[3] = {p.xi, p.eta, p.zeta};
    kind.shape(xi, N, dN);
    const Eigen::Matrix3d J = jacobian(X, dN, n);
    const double det = J.determinant();
    if (!detOk(det, h3, static_cast<int>(q), false, fail)) return false;
    const Eigen::Matrix3d Jinv = J.inverse();
    for (int a = 0; a < n; ++a)
      G.row(a) = Eigen::RowVector3d(dN[3 * a], dN[3 * a + 1], dN[3 * a + 2]) * Jinv;
    const double c = p.w * det, cl = c * lambda, cm = c * mu;
    // K_ab(i, j) = lambda g_a,i g_b,j + mu g_a,j g_b,i + mu delta_ij (g_a . g_b): the bilinear
    // form lambda div u div v + 2 mu eps(u) : eps(v) for u = N_b e_j, v = N_a e_i.
    for (int b = 0; b < n; ++b) {
      const Eigen::RowVector3d gb = G.row(b);
      for (int a = 0; a <= b; ++a) {
        const Eigen::RowVector3d ga = G.row(a);
        // P(i, j) = g_a,i g_b,j; for a == b, P is exactly symmetric, and so is the block
        const Eigen::Matrix3d P = ga.transpose() * gb;
        Eigen::Matrix3d blk = cl * P + cm * P.transpose();
        blk.diagonal().array() += cm * ga.dot(gb);
        K.block<3, 3>(3 * a, 3 * b) += blk;
      }
    }
  }
  for (int b = 0; b < n; ++b)
    for (int a = 0; a < b; ++a) K.block<3, 3>(3 * b, 3 * a) = K.block<3, 3>(3 * a, 3 * b).transpose();
  return true;
}

bool elementMass(const ElementKind& kind, const ElementCoords& X, double rho,
                 std::span<const QuadPoint> rule, ElementMatrix& m, double& volume,
                 JacobianFailure* fail) {
  const int n = kind.nodes;
  const double h3 = sizeCubed(X);
  m.setZero(n, n);
  volume = 0.0;
  double N[20], dN[60];
  for (std::size_t q = 0; q < rule.size(); ++q) {
    const QuadPoint& p = rule[q];
    const double xi[3] = {p.xi, p.eta, p.zeta};
    kind.shape(xi, N, dN);
    const double det = jacobian(X, dN, n).determinant();
    if (!detOk(det, h3, static_cast<int>(q), true, fail)) return false;
    const double c = p.w * det;
    volume += c;
    const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 20, 1>> Nv(N, n);
    m.noalias() += (rho * c) * Nv * Nv.transpose();
  }
  return true;
}

void hrzLump(const ElementMatrix& m, ElementVector& lumped) {
  const double total = m.sum(), diag = m.diagonal().sum();
  lumped = m.diagonal() * (total / diag);
}

void rowSumLump(const ElementMatrix& m, ElementVector& lumped) { lumped = m.rowwise().sum(); }

}  // namespace flexim::fe
