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

// Gauss-Legendre points {x, w} on [-1, 1], P = 1..4 points (exact to degree 2P - 1).
template <int P>
constexpr std::array<std::array<double, 2>, P> gauss1d() {
  if constexpr (P == 1) {
    return {{{0.0, 2.0}}};
  } else if constexpr (P == 2) {
    const double g = 0.57735026918962576451;  // 1/sqrt(3)
    return {{{-g, 1.0}, {g, 1.0}}};
  } else if constexpr (P == 3) {
    const double g = 0.77459666924148337704;  // sqrt(3/5)
    return {{{-g, 5.0 / 9.0}, {0.0, 8.0 / 9.0}, {g, 5.0 / 9.0}}};
  } else {
    const double a = 0.86113631159405257522, b = 0.33998104358485626480;
    const double wa = 0.34785484513745385737, wb = 0.65214515486254614263;
    return {{{-a, wa}, {-b, wb}, {b, wb}, {a, wa}}};
  }
}

// Tensor-product rules on [-1, 1]^3 (xi fastest, then eta, then zeta).
template <int P, int Q = P, int R = P>
constexpr std::array<QuadPoint, P * Q * R> gaussRule() {
  std::array<QuadPoint, P * Q * R> r{};
  int q = 0;
  for (const auto& z : gauss1d<R>())
    for (const auto& y : gauss1d<Q>())
      for (const auto& x : gauss1d<P>()) r[q++] = {x[0], y[0], z[0], x[1] * y[1] * z[1]};
  return r;
}

// constexpr: no static-initialisation-order issue when used from other translation units
constexpr std::array<QuadPoint, 1> kHex1 = gaussRule<1>();
constexpr std::array<QuadPoint, 8> kHex8 = gaussRule<2>();
constexpr std::array<QuadPoint, 27> kHex27 = gaussRule<3>();

// Triangle rules on the unit triangle (area 1/2): {xi, eta, w}.
using TriPoint = std::array<double, 3>;
constexpr std::array<TriPoint, 1> kTri1{{{1.0 / 3.0, 1.0 / 3.0, 0.5}}};
constexpr std::array<TriPoint, 3> kTri3{{{1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0},  // degree 2, interior points
                                         {2.0 / 3.0, 1.0 / 6.0, 1.0 / 6.0},
                                         {1.0 / 6.0, 2.0 / 3.0, 1.0 / 6.0}}};
// degree 4 with 6 points (Strang & Fix 1973; D. A. Dunavant, IJNME 21 (1985) 1129, rule 4):
// orbits (a, a, 1 - 2a) and (b, b, 1 - 2b)
constexpr double kTa = 0.44594849091596488632, kTb = 0.091576213509770743460;
constexpr double kTwa = 0.22338158967801146570 / 2, kTwb = 0.10995174365532186764 / 2;
constexpr std::array<TriPoint, 6> kTri6{{{kTa, kTa, kTwa},
                                         {1 - 2 * kTa, kTa, kTwa},
                                         {kTa, 1 - 2 * kTa, kTwa},
                                         {kTb, kTb, kTwb},
                                         {1 - 2 * kTb, kTb, kTwb},
                                         {kTb, 1 - 2 * kTb, kTwb}}};

// Wedge rules: a triangle rule times Gauss in zeta (triangle points fastest, as CalculiX).
template <int P, std::size_t T>
constexpr std::array<QuadPoint, T * P> wedgeRule(const std::array<TriPoint, T>& tri) {
  std::array<QuadPoint, T * P> r{};
  int q = 0;
  for (const auto& z : gauss1d<P>())
    for (const auto& t : tri) r[q++] = {t[0], t[1], z[0], t[2] * z[1]};
  return r;
}
constexpr std::array<QuadPoint, 2> kWedge2 = wedgeRule<2>(kTri1);    // CalculiX C3D6 (gauss3d7)
constexpr std::array<QuadPoint, 6> kWedge6 = wedgeRule<2>(kTri3);
constexpr std::array<QuadPoint, 9> kWedge9 = wedgeRule<3>(kTri3);    // CalculiX C3D15 (gauss3d8)
constexpr std::array<QuadPoint, 18> kWedge18 = wedgeRule<3>(kTri6);

// Pyramid rules: Gauss in the collapsed coordinates (a, b, c) in [-1, 1]^3, mapped to xi = a h,
// eta = b h, zeta = 1 - h with h = (1 - c) / 2; the volume element is h^2 / 2 da db dc.
template <int P, int R>
constexpr std::array<QuadPoint, P * P * R> pyramidRule() {
  std::array<QuadPoint, P * P * R> r = gaussRule<P, P, R>();
  for (QuadPoint& p : r) {
    const double h = 0.5 * (1.0 - p.zeta);
    p = {p.xi * h, p.eta * h, 1.0 - h, 0.5 * p.w * h * h};
  }
  return r;
}
constexpr std::array<QuadPoint, 8> kPyramid8 = pyramidRule<2, 2>();
constexpr std::array<QuadPoint, 12> kPyramid12 = pyramidRule<2, 3>();
constexpr std::array<QuadPoint, 27> kPyramid27 = pyramidRule<3, 3>();
constexpr std::array<QuadPoint, 36> kPyramid36 = pyramidRule<3, 4>();

// ------------------------------------------------------------------------------------------------
// Shape functions
// ------------------------------------------------------------------------------------------------

constexpr std::array<std::array<double, 3>, 4> kTet4Nodes{{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
// C3D10 mid-edge nodes 5..10: edges 1-2, 2-3, 3-1, 1-4, 2-4, 3-4 (1-based)
// Mid-edge nodes of C3D10, {a, b, mid} (also its ElementKind::midEdges).
constexpr int kTet10Edges[6][3] = {{0, 1, 4}, {1, 2, 5}, {2, 0, 6}, {0, 3, 7}, {1, 3, 8}, {2, 3, 9}};
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
    const int i = kTet10Edges[e][0], j = kTet10Edges[e][1], a = kTet10Edges[e][2];
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

// C3D8I incompatible modes 1 - xi^2, 1 - eta^2, 1 - zeta^2: dphi_k / dxi_j = -2 xi_k delta_kj.
void bubblesHex8(const double xi[3], double*, double* dphi) {
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j) dphi[3 * k + j] = k == j ? -2.0 * xi[k] : 0.0;
}

// Wedges: triangle coordinates L = (1 - xi - eta, xi, eta) (corner i % 3) times functions of
// zeta; nodes 1-3 at zeta = -1, 4-6 at zeta = 1. C3D15 mid-edge nodes 7..15: edges 1-2, 2-3,
// 3-1, 4-5, 5-6, 6-4, 1-4, 2-5, 3-6 (1-based).
constexpr std::array<std::array<double, 3>, 15> kWedgeNodes{{{0, 0, -1},
                                                            {1, 0, -1},
                                                            {0, 1, -1},
                                                            {0, 0, 1},
                                                            {1, 0, 1},
                                                            {0, 1, 1},
                                                            {0.5, 0, -1},
                                                            {0.5, 0.5, -1},
                                                            {0, 0.5, -1},
                                                            {0.5, 0, 1},
                                                            {0.5, 0.5, 1},
                                                            {0, 0.5, 1},
                                                            {0, 0, 0},
                                                            {1, 0, 0},
                                                            {0, 1, 0}}};
constexpr double kDL[3][2] = {{-1, -1}, {1, 0}, {0, 1}};  // dL_i / d(xi, eta)

void shapeWedge6(const double xi[3], double* N, double* dN) {
  const double L[3] = {1.0 - xi[0] - xi[1], xi[0], xi[1]};
  for (int a = 0; a < 6; ++a) {  // L (1 +- zeta) / 2
    const int i = a % 3;
    const double s = a < 3 ? -1.0 : 1.0, fz = 0.5 * (1.0 + s * xi[2]);
    N[a] = L[i] * fz;
    dN[3 * a + 0] = kDL[i][0] * fz;
    dN[3 * a + 1] = kDL[i][1] * fz;
    dN[3 * a + 2] = 0.5 * s * L[i];
  }
}

void shapeWedge15(const double xi[3], double* N, double* dN) {
  const double L[3] = {1.0 - xi[0] - xi[1], xi[0], xi[1]}, z = xi[2], bz = 1.0 - z * z;
  for (int a = 0; a < 6; ++a) {  // corners: L ((2L - 1)(1 +- zeta) - (1 - zeta^2)) / 2
    const int i = a % 3;
    const double s = a < 3 ? -1.0 : 1.0, fz = 1.0 + s * z;
    N[a] = 0.5 * L[i] * ((2.0 * L[i] - 1.0) * fz - bz);
    const double dL = 0.5 * ((4.0 * L[i] - 1.0) * fz - bz);
    dN[3 * a + 0] = kDL[i][0] * dL;
    dN[3 * a + 1] = kDL[i][1] * dL;
    dN[3 * a + 2] = 0.5 * L[i] * (s * (2.0 * L[i] - 1.0) + 2.0 * z);
  }
  for (int e = 0; e < 6; ++e) {  // triangle edges, bottom then top: 2 L_i L_j (1 +- zeta)
    const int i = e % 3, j = (i + 1) % 3, a = 6 + e;
    const double s = e < 3 ? -1.0 : 1.0, fz = 1.0 + s * z;
    N[a] = 2.0 * L[i] * L[j] * fz;
    for (int k = 0; k < 2; ++k) dN[3 * a + k] = 2.0 * (kDL[i][k] * L[j] + L[i] * kDL[j][k]) * fz;
    dN[3 * a + 2] = 2.0 * L[i] * L[j] * s;
  }
  for (int i = 0; i < 3; ++i) {  // vertical edges: L (1 - zeta^2)
    const int a = 12 + i;
    N[a] = L[i] * bz;
    dN[3 * a + 0] = kDL[i][0] * bz;
    dN[3 * a + 1] = kDL[i][1] * bz;
    dN[3 * a + 2] = -2.0 * z * L[i];
  }
}

// Pyramids (Bedrosian 1992): base corners 1-4, apex 5, C3D13 mid-edge nodes 6..13 on the edges
// 1-2, 2-3, 3-4, 4-1, 1-5, 2-5, 3-5, 4-5 (1-based).
constexpr std::array<std::array<double, 3>, 13> kPyramidNodes{{{-1, -1, 0},
                                                               {1, -1, 0},
                                                               {1, 1, 0},
                                                               {-1, 1, 0},
                                                               {0, 0, 1},
                                                               {0, -1, 0},
                                                               {1, 0, 0},
                                                               {0, 1, 0},
                                                               {-1, 0, 0},
                                                               {-0.5, -0.5, 0.5},
                                                               {0.5, -0.5, 0.5},
                                                               {0.5, 0.5, 0.5},
                                                               {-0.5, 0.5, 0.5}}};

/// Collapsed coordinates a = xi / h, b = eta / h, h = 1 - zeta (a = b = 0 at the apex).
struct Collapsed {
  double a, b, h;
  explicit Collapsed(const double xi[3]) : h(1.0 - xi[2]) {
    a = h > 0.0 ? xi[0] / h : 0.0;
    b = h > 0.0 ? xi[1] / h : 0.0;
  }
  /// Node `n` with N = h P(a, b, h), P polynomial: dN/dxi = P_a, dN/deta = P_b and dN/dzeta =
  /// a P_a + b P_b - P - h P_h, without dividing by h.
  void set(int n, double P, double Pa, double Pb, double Ph, double* N, double* dN) const {
    N[n] = h * P;
    dN[3 * n + 0] = Pa;
    dN[3 * n + 1] = Pb;
    dN[3 * n + 2] = a * Pa + b * Pb - P - h * Ph;
  }
};

void shapePyramid5(const double xi[3], double* N, double* dN) {
  const Collapsed c(xi);
  for (int i = 0; i < 4; ++i) {  // h (1 + a_i a)(1 + b_i b) / 4: the collapsed 8-node brick
    const double ai = kPyramidNodes[i][0], bi = kPyramidNodes[i][1], u = 1.0 + ai * c.a, v = 1.0 + bi * c.b;
    c.set(i, 0.25 * u * v, 0.25 * ai * v, 0.25 * bi * u, 0.0, N, dN);
  }
  N[4] = xi[2];  // apex: zeta
  dN[12] = dN[13] = 0.0;
  dN[14] = 1.0;
}

void shapePyramid13(const double xi[3], double* N, double* dN) {
  const Collapsed c(xi);
  const double ab[2] = {c.a, c.b};
  for (int i = 0; i < 4; ++i) {  // corners: h u v (h (a_i a + b_i b) - 1) / 4
    const double ai = kPyramidNodes[i][0], bi = kPyramidNodes[i][1], u = 1.0 + ai * c.a, v = 1.0 + bi * c.b;
    const double s = ai * c.a + bi * c.b;
    c.set(i, 0.25 * u * v * (c.h * s - 1.0), 0.25 * ai * v * (c.h * (s + u) - 1.0),
          0.25 * bi * u * (c.h * (s + v) - 1.0), 0.25 * u * v * s, N, dN);
    // slanted edge i-5: zeta h u v (its node at h = 1/2 over corner i)
    const double z = 1.0 - c.h;
    c.set(9 + i, z * u * v, z * ai * v, z * bi * u, -u * v, N, dN);
  }
  N[4] = xi[2] * (2.0 * xi[2] - 1.0);  // apex: zeta (2 zeta - 1)
  dN[12] = dN[13] = 0.0;
  dN[14] = 4.0 * xi[2] - 1.0;
  for (int m = 5; m < 9; ++m) {  // base edges: h^2 (1 - t^2)(1 + o_m o) / 2, t along the edge
    const int t = kPyramidNodes[m][0] == 0.0 ? 0 : 1, o = 1 - t;
    const double om = kPyramidNodes[m][o], q = 1.0 - ab[t] * ab[t], w = 1.0 + om * ab[o];
    double d[2];
    d[t] = -c.h * ab[t] * w;
    d[o] = 0.5 * c.h * q * om;
    c.set(m, 0.5 * c.h * q * w, d[0], d[1], 0.5 * q * w, N, dN);
  }
}

template <std::size_t N>
std::span<const std::array<double, 3>> firstNodes(const std::array<std::array<double, 3>, N>& a, int n) {
  return std::span<const std::array<double, 3>>(a.data(), static_cast<std::size_t>(n));
}

// Faces (ElementKind::faces) and mid-edge nodes (Abaqus C3D10 / C3D20 / C3D15, Nastran CPYRAM
// order for C3D13).
constexpr int kTetFaces[4][4] = {{0, 1, 2, -1}, {0, 3, 1, -1}, {1, 3, 2, -1}, {2, 3, 0, -1}};
constexpr int kHexFaces[6][4] = {{0, 1, 2, 3}, {4, 7, 6, 5}, {0, 4, 5, 1}, {1, 5, 6, 2}, {2, 6, 7, 3}, {3, 7, 4, 0}};
constexpr int kWedgeFaces[5][4] = {{0, 1, 2, -1}, {3, 5, 4, -1}, {0, 3, 4, 1}, {1, 4, 5, 2}, {2, 5, 3, 0}};
constexpr int kPyramidFaces[5][4] = {{0, 1, 2, 3}, {0, 4, 1, -1}, {1, 4, 2, -1}, {2, 4, 3, -1}, {3, 4, 0, -1}};
constexpr int kHex20Edges[12][3] = {{0, 1, 8},  {1, 2, 9},  {2, 3, 10}, {3, 0, 11}, {4, 5, 12}, {5, 6, 13},
                                    {6, 7, 14}, {7, 4, 15}, {0, 4, 16}, {1, 5, 17}, {2, 6, 18}, {3, 7, 19}};
constexpr int kWedge15Edges[9][3] = {{0, 1, 6},  {1, 2, 7},  {2, 0, 8},  {3, 4, 9}, {4, 5, 10},
                                     {5, 3, 11}, {0, 3, 12}, {1, 4, 13}, {2, 5, 14}};
constexpr int kPyramid13Edges[8][3] = {{0, 1, 5}, {1, 2, 6}, {2, 3, 7}, {3, 0, 8},
                                       {0, 4, 9}, {1, 4, 10}, {2, 4, 11}, {3, 4, 12}};

// Stress fits (ElementKind::stressFit, the table in stress.h): a constant, a constant plus a
// linear term along the wedge axis, or the shape functions of a lower-order element.
int fitConstant(const double*, double* f) {
  f[0] = 1.0;
  return 1;
}
int fitLinearZeta(const double* xi, double* f) {
  f[0] = 1.0;
  f[1] = xi[2];
  return 2;
}
template <ShapeFn shape, int n>
int fitShapes(const double* xi, double* f) {
  double dN[3 * n];
  shape(xi, f, dN);
  return n;
}

const std::array<ElementKind, 11>& kindTable() {
  static const std::array<ElementKind, 11> table{{
      {ElementType::Tet4, "C3D4", 4, shapeTet4, kTet1, kTet4, kTet1, firstNodes(kTet4Nodes, 4), 0, kTetFaces, {},
       fitConstant},
      {ElementType::Tet10, "C3D10", 10, shapeTet10, kTet4, kTet15, kTet4, firstNodes(kTet10Nodes, 10), 0, kTetFaces,
       kTet10Edges, fitShapes<shapeTet4, 4>},
      {ElementType::Hex8, "C3D8", 8, shapeHex8, kHex8, kHex8, kHex8, firstNodes(kHex20Nodes, 8), 0, kHexFaces, {},
       fitShapes<shapeHex8, 8>},
      // C3D8R: full integration instead of CalculiX's 1 point + hourglass control (see header)
      {ElementType::Hex8R, "C3D8R", 8, shapeHex8, kHex8, kHex8, kHex1, firstNodes(kHex20Nodes, 8), 0, kHexFaces, {},
       fitShapes<shapeHex8, 8>},
      {ElementType::Hex20, "C3D20", 20, shapeHex20, kHex27, kHex27, kHex27, firstNodes(kHex20Nodes, 20), 0, kHexFaces,
       kHex20Edges, fitShapes<shapeHex20, 20>},
      {ElementType::Hex20R, "C3D20R", 20, shapeHex20, kHex8, kHex27, kHex8, firstNodes(kHex20Nodes, 20), 6, kHexFaces,
       kHex20Edges, fitShapes<shapeHex8, 8>},
      {ElementType::Wedge6, "C3D6", 6, shapeWedge6, kWedge2, kWedge6, kWedge2, firstNodes(kWedgeNodes, 6), 1,
       kWedgeFaces, {}, fitLinearZeta},
      {ElementType::Wedge15, "C3D15", 15, shapeWedge15, kWedge9, kWedge18, kWedge9, firstNodes(kWedgeNodes, 15), 0,
       kWedgeFaces, kWedge15Edges, fitShapes<shapeWedge6, 6>},
      // C3D8I: C3D8 plus 3 x 3 condensed incompatible modes (see header)
      {ElementType::Hex8I, "C3D8I", 8, shapeHex8, kHex8, kHex8, kHex8, firstNodes(kHex20Nodes, 8), 0, kHexFaces, {},
       fitShapes<shapeHex8, 8>, 3, bubblesHex8},
      // pyramids: CalculiX 2.20 has none; its "mass rule" is ours
      {ElementType::Pyramid5, "C3D5", 5, shapePyramid5, kPyramid8, kPyramid12, kPyramid12,
       firstNodes(kPyramidNodes, 5), 0, kPyramidFaces, {}, fitShapes<shapePyramid5, 5>},
      {ElementType::Pyramid13, "C3D13", 13, shapePyramid13, kPyramid27, kPyramid36, kPyramid36,
       firstNodes(kPyramidNodes, 13), 0, kPyramidFaces, kPyramid13Edges, fitShapes<shapePyramid5, 5>},
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
std::span<const QuadPoint> wedge2() { return kWedge2; }
std::span<const QuadPoint> wedge6() { return kWedge6; }
std::span<const QuadPoint> wedge9() { return kWedge9; }
std::span<const QuadPoint> wedge18() { return kWedge18; }
std::span<const QuadPoint> pyramid8() { return kPyramid8; }
std::span<const QuadPoint> pyramid12() { return kPyramid12; }
std::span<const QuadPoint> pyramid27() { return kPyramid27; }
std::span<const QuadPoint> pyramid36() { return kPyramid36; }
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

bool incompatibleModeFrame(const ElementKind& kind, const ElementCoords& X, Eigen::Matrix3d& J0inv, double& det0,
                           JacobianFailure* fail) {
  double N[20], dN[60];
  const double centre[3] = {0.0, 0.0, 0.0};
  kind.shape(centre, N, dN);
  const Eigen::Matrix3d J0 = jacobian(X, dN, kind.nodes);
  det0 = J0.determinant();
  if (!detOk(det0, sizeCubed(X), -1, false, fail)) return false;
  J0inv = J0.inverse();
  return true;
}

double shapeGradients(const ElementKind& kind, const ElementCoords& X, const double xi[3], const Eigen::Matrix3d& J0inv,
                      double det0, ShapeGradients& G) {
  const int n = kind.nodes;
  double N[20], dN[60], dphi[60];
  G.resize(n + kind.bubbles, 3);
  kind.shape(xi, N, dN);
  const Eigen::Matrix3d J = jacobian(X, dN, n);
  const double det = J.determinant();
  if (!(det > 0.0)) return det;
  const Eigen::Matrix3d Jinv = J.inverse();
  for (int a = 0; a < n; ++a) G.row(a) = Eigen::RowVector3d(dN[3 * a], dN[3 * a + 1], dN[3 * a + 2]) * Jinv;
  if (kind.bubbles) {
    // incompatible modes: strains from the Jacobian J0 at the centre times det J0 / det J, so
    // that they integrate to zero and leave constant strain alone (Taylor, Beresford & Wilson 1976)
    kind.bubbleShape(xi, N, dphi);
    for (int k = 0; k < kind.bubbles; ++k)
      G.row(n + k) = Eigen::RowVector3d(dphi[3 * k], dphi[3 * k + 1], dphi[3 * k + 2]) * J0inv * (det0 / det);
  }
  return det;
}

namespace {

/// Stiffness of the nodes and, after them, of the incompatible modes (not condensed).
bool fullStiffness(const ElementKind& kind, const ElementCoords& X, double E, double nu, ElementMatrix& K,
                   JacobianFailure* fail) {
  const int n = kind.nodes, ns = n + kind.bubbles;  // shape gradients: the nodes', then the bubbles'
  const double lambda = E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu));
  const double mu = E / (2.0 * (1.0 + nu));
  const double h3 = sizeCubed(X);
  K.setZero(3 * ns, 3 * ns);
  ShapeGradients G;
  Eigen::Matrix3d J0inv = Eigen::Matrix3d::Zero();
  double det0 = 0.0;
  if (kind.bubbles && !incompatibleModeFrame(kind, X, J0inv, det0, fail)) return false;
  for (std::size_t q = 0; q < kind.stiffnessRule.size(); ++q) {
    const QuadPoint& p = kind.stiffnessRule[q];
    const double xi[3] = {p.xi, p.eta, p.zeta};
    const double det = shapeGradients(kind, X, xi, J0inv, det0, G);
    if (!detOk(det, h3, static_cast<int>(q), false, fail)) return false;
    const double c = p.w * det, cl = c * lambda, cm = c * mu;
    // K_ab(i, j) = lambda g_a,i g_b,j + mu g_a,j g_b,i + mu delta_ij (g_a . g_b): the bilinear
    // form lambda div u div v + 2 mu eps(u) : eps(v) for u = N_b e_j, v = N_a e_i.
    for (int b = 0; b < ns; ++b) {
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
  for (int b = 0; b < ns; ++b)
    for (int a = 0; a < b; ++a) K.block<3, 3>(3 * b, 3 * a) = K.block<3, 3>(3 * a, 3 * b).transpose();
  return true;
}

using Block = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, 60, 60>;

}  // namespace

bool elementStiffness(const ElementKind& kind, const ElementCoords& X, double E, double nu,
                      ElementMatrix& K, JacobianFailure* fail) {
  if (!fullStiffness(kind, X, E, nu, K, fail)) return false;
  if (kind.bubbles) {
    // static condensation K = Knn - Knb Kbb^-1 Kbn, made exactly symmetric again
    const int nn = 3 * kind.nodes, nb = 3 * kind.bubbles;
    const Block Kbb = K.bottomRightCorner(nb, nb);
    const Block Kbn = K.bottomLeftCorner(nb, nn);
    const Block C = Kbn.transpose() * Eigen::LLT<Block>(Kbb).solve(Kbn);
    const Block S = K.topLeftCorner(nn, nn) - C;
    K = 0.5 * (S + S.transpose());
  }
  return true;
}

bool incompatibleModeRecovery(const ElementKind& kind, const ElementCoords& X, double E, double nu, ElementMatrix& R,
                              JacobianFailure* fail) {
  ElementMatrix K;
  if (!fullStiffness(kind, X, E, nu, K, fail)) return false;
  const int nn = 3 * kind.nodes, nb = 3 * kind.bubbles;
  const Block Kbb = K.bottomRightCorner(nb, nb);
  const Block Kbn = K.bottomLeftCorner(nb, nn);
  R = -Eigen::LLT<Block>(Kbb).solve(Kbn);
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
