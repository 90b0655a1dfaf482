#include "core/fe/stress.h"

#include "core/fe/element_library.h"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace flexim::fe {

namespace {

constexpr int kTypes = 11;             // ElementType enumerators

/// Extrapolation of one element type: nodal value a = sum_q E(a, q) * value at point q.
struct Scheme {
  std::span<const QuadPoint> points;
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, 20, 27> E;
};

/// E = P (A^T A)^-1 A^T: the least-squares fit A c = point values (A: fitted functions at the
/// points, as many or more points than functions), evaluated at the nodes (P).
Scheme makeScheme(ElementType t) {
  const ElementKind& kind = elementKind(t);
  Scheme s;
  s.points = kind.stiffnessRule;
  const int np = static_cast<int>(s.points.size());
  double f[20];
  const double centre[3] = {0.0, 0.0, 0.0};
  const int nf = kind.stressFit(centre, f);
  Eigen::MatrixXd A(np, nf), P(kind.nodes, nf);
  for (int q = 0; q < np; ++q) {
    const double xi[3] = {s.points[q].xi, s.points[q].eta, s.points[q].zeta};
    kind.stressFit(xi, f);
    for (int k = 0; k < nf; ++k) A(q, k) = f[k];
  }
  for (int a = 0; a < kind.nodes; ++a) {
    kind.stressFit(kind.naturalNodes[static_cast<std::size_t>(a)].data(), f);
    for (int k = 0; k < nf; ++k) P(a, k) = f[k];
  }
  const Eigen::MatrixXd AtA = A.transpose() * A;
  s.E = P * AtA.ldlt().solve(A.transpose());
  return s;
}

const Scheme& scheme(ElementType t) {
  static const std::array<Scheme, kTypes> all = [] {
    std::array<Scheme, kTypes> r;
    for (int i = 0; i < kTypes; ++i) r[static_cast<std::size_t>(i)] = makeScheme(static_cast<ElementType>(i));
    return r;
  }();
  return all[static_cast<std::size_t>(t)];
}

/// Stresses at a point for all columns: Sq (m x 6) from the element displacements Ue (m x 3 *
/// rows of G: nodes, then incompatible modes) and the shape-function gradients G. Voigt xx, yy,
/// zz, xy, yz, zx; engineering shear strains.
void pointStresses(const ShapeGradients& G, const Eigen::Map<Eigen::MatrixXd>& Ue, double lambda, double mu,
                   Eigen::Map<Eigen::MatrixXd>& Sq) {
  Sq.setZero();  // strains first: eps_xx, eps_yy, eps_zz, gamma_xy, gamma_yz, gamma_zx
  for (Eigen::Index a = 0; a < G.rows(); ++a) {
    const double gx = G(a, 0), gy = G(a, 1), gz = G(a, 2);
    const auto ux = Ue.col(3 * a), uy = Ue.col(3 * a + 1), uz = Ue.col(3 * a + 2);
    Sq.col(0) += gx * ux;
    Sq.col(1) += gy * uy;
    Sq.col(2) += gz * uz;
    Sq.col(3) += gy * ux + gx * uy;
    Sq.col(4) += gz * uy + gy * uz;
    Sq.col(5) += gx * uz + gz * ux;
  }
  for (Eigen::Index j = 0; j < Sq.rows(); ++j) {
    const double tr = lambda * (Sq(j, 0) + Sq(j, 1) + Sq(j, 2));
    for (int i = 0; i < 3; ++i) Sq(j, i) = tr + 2.0 * mu * Sq(j, i);
    for (int i = 3; i < 6; ++i) Sq(j, i) *= mu;
  }
}

/// Checks and prepares the inputs of the stress loops: the materials as the assembly takes them.
bool prepare(const FeModel& mesh, const AssemblyOptions& options, const Eigen::MatrixXd& displacements,
             std::vector<const Material*>& mat, std::vector<Material>& materials, Diagnostics& diag) {
  const int n = mesh.nodeCount();
  if (displacements.rows() != 3 * static_cast<Eigen::Index>(n)) {
    diag.error("displacements", "have " + std::to_string(displacements.rows()) + " rows, expected 3 x " +
                                    std::to_string(n) + " nodes");
    return false;
  }
  bool ok = checkElementNodes(mesh, diag);
  if (!resolveMaterials(mesh, options, mat, materials, diag)) ok = false;
  return ok;
}

/// The stress loop both results share: for every element, its stresses at its integration
/// points for all columns of the displacements, Ut (m x 3n, transposed: a node's values for all
/// columns are contiguous). Calls
///   atPoint(e, kind, q, G, Sq, weight)  with the gradients G, the stresses Sq (m x 6) and the
///                                       integration weight times det J at stiffness point q;
///   atElementEnd(e, kind)               after the last point of an element with good Jacobians.
/// Elements with a non-positive Jacobian determinant are reported and skipped; false if any.
template <class AtPoint, class AtElementEnd>
bool forEachPointStress(const FeModel& mesh, const std::vector<const Material*>& mat, const Eigen::MatrixXd& Ut,
                        Diagnostics& diag, AtPoint&& atPoint, AtElementEnd&& atElementEnd) {
  const Eigen::Index m = Ut.rows();
  // per-element buffers, sized for the largest element (20 nodes; 8 + 3 bubbles)
  std::vector<double> ueBuf(static_cast<std::size_t>(m) * 60), sqBuf(static_cast<std::size_t>(m) * 6);
  ElementCoords X;
  ShapeGradients G;
  ElementMatrix R;
  ElementErrors badJacobian(diag, "a non-positive Jacobian determinant");
  for (std::size_t ie = 0; ie < mesh.elements.size(); ++ie) {
    const Element& e = mesh.elements[ie];
    const ElementKind& kind = elementKind(e.type);
    const Scheme& sch = scheme(e.type);
    const int nn = kind.nodes, ns = nn + kind.bubbles;
    X.resize(3, nn);
    for (int a = 0; a < nn; ++a) X.col(a) = mesh.coords[static_cast<std::size_t>(e.nodes[a])];
    const double E = mat[ie]->E, nu = mat[ie]->nu;
    const double lambda = E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu)), mu = E / (2.0 * (1.0 + nu));

    Eigen::Map<Eigen::MatrixXd> Ue(ueBuf.data(), m, 3 * ns);
    for (int a = 0; a < nn; ++a) Ue.middleCols(3 * a, 3) = Ut.middleCols(3 * e.nodes[a], 3);
    Eigen::Matrix3d J0inv = Eigen::Matrix3d::Zero();
    double det0 = 0.0;
    JacobianFailure fail;
    bool good = true;
    if (kind.bubbles) {
      // the condensed incompatible modes of these nodal displacements: alpha = R u
      good = incompatibleModeFrame(kind, X, J0inv, det0, &fail) && incompatibleModeRecovery(kind, X, E, nu, R, &fail);
      if (good) Ue.rightCols(3 * kind.bubbles).noalias() = Ue.leftCols(3 * nn) * R.transpose();
    }
    Eigen::Map<Eigen::MatrixXd> Sq(sqBuf.data(), m, 6);
    for (std::size_t q = 0; good && q < sch.points.size(); ++q) {
      const QuadPoint& p = sch.points[q];
      const double xi[3] = {p.xi, p.eta, p.zeta};
      const double det = shapeGradients(kind, X, xi, J0inv, det0, G);
      if (!(det > 0.0)) {
        fail = {static_cast<int>(q) + 1, false, det, !(det < 0.0)};
        good = false;
        break;
      }
      pointStresses(G, Ue, lambda, mu, Sq);
      atPoint(e, kind, static_cast<Eigen::Index>(q), G, Sq, p.w * det);
    }
    if (!good) {
      badJacobian.add(e, jacobianMessage(fail));
      continue;
    }
    atElementEnd(e, kind);
  }
  return badJacobian.finish();
}

}  // namespace

bool nodalStresses(const FeModel& mesh, const AssemblyOptions& options, const Eigen::MatrixXd& displacements,
                   Eigen::MatrixXd& stresses, Diagnostics& diag) {
  stresses.resize(0, 0);
  std::vector<const Material*> mat;
  std::vector<Material> materials;  // what mat points to
  if (!prepare(mesh, options, displacements, mat, materials, diag)) return false;
  const int n = mesh.nodeCount();
  const Eigen::Index m = displacements.cols();

  // Transposed work layout (m x dofs): a node's values for all columns are contiguous, so the
  // gather per element and the scatter per node run over memory sequentially.
  const Eigen::MatrixXd Ut = displacements.transpose();
  Eigen::MatrixXd St = Eigen::MatrixXd::Zero(m, 6 * static_cast<Eigen::Index>(n));
  std::vector<int> count(static_cast<std::size_t>(n), 0);
  std::vector<double> ndBuf(static_cast<std::size_t>(m) * 120);  // 20 nodes x 6
  Eigen::Map<Eigen::MatrixXd> Nd(ndBuf.data(), m, 120);
  const bool good = forEachPointStress(
      mesh, mat, Ut, diag,
      [&](const Element& e, const ElementKind& kind, Eigen::Index q, const ShapeGradients&, const auto& Sq, double) {
        const Scheme& sch = scheme(e.type);
        if (q == 0) Nd.leftCols(6 * kind.nodes).setZero();
        for (int a = 0; a < kind.nodes; ++a) {
          const double w = sch.E(a, q);
          if (w != 0.0) Nd.middleCols(6 * a, 6) += w * Sq;
        }
      },
      [&](const Element& e, const ElementKind& kind) {
        for (int a = 0; a < kind.nodes; ++a) {
          St.middleCols(6 * static_cast<Eigen::Index>(e.nodes[a]), 6) += Nd.middleCols(6 * a, 6);
          ++count[static_cast<std::size_t>(e.nodes[a])];
        }
      });
  if (!good) return false;
  for (int i = 0; i < n; ++i)
    if (count[static_cast<std::size_t>(i)] > 1)
      St.middleCols(6 * static_cast<Eigen::Index>(i), 6) /= static_cast<double>(count[static_cast<std::size_t>(i)]);
  stresses = St.transpose();
  return true;
}

bool modalGeometricStiffness(const FeModel& mesh, const AssemblyOptions& options, const Eigen::MatrixXd& displacements,
                             const Eigen::MatrixXd& modes, std::vector<Eigen::MatrixXd>& out, Diagnostics& diag) {
  out.clear();
  std::vector<const Material*> mat;
  std::vector<Material> materials;
  if (!prepare(mesh, options, displacements, mat, materials, diag)) return false;
  if (modes.rows() != displacements.rows()) {
    diag.error("modes", "have " + std::to_string(modes.rows()) + " rows, expected " + std::to_string(displacements.rows()));
    return false;
  }
  const Eigen::Index L = displacements.cols(), m = modes.cols(), pairs = m * (m + 1) / 2;
  const Eigen::MatrixXd Ut = displacements.transpose();
  // F rows 3c + i: d(Phi component c)/dx_i at the point, for all modes (9 x m). Phi^T K_G Phi
  // gains F^T (I3 (x) S) F = sum over the six stress components s_q of s_q Q_q, with the
  // gradient products Q_ii = sum_c F_ci^T F_ci and Q_ij = sum_c (F_ci^T F_cj + F_cj^T F_ci) (F_ci:
  // row 3c + i), which do not depend on the load case. The load cases' weighted stresses (A, L x
  // 6 per point) times the products' upper triangles (B, 6 per point x pairs) are one matrix
  // product per chunk of points: about a third of the arithmetic of a product per load case and
  // point (12 load cases, 26 modes), and in one large product instead of many small ones.
  constexpr Eigen::Index kChunk = 256;  // points per product
  constexpr int kComponent[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {1, 2}, {2, 0}};  // Voigt order
  Eigen::MatrixXd A(L, 6 * kChunk);
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> B(6 * kChunk, pairs);
  Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(L, pairs);
  Eigen::Index filled = 0;
  const auto flush = [&] {
    if (filled) sum.noalias() += A.leftCols(6 * filled) * B.topRows(6 * filled);
    filled = 0;
  };
  Eigen::MatrixXd F(9, m), Q(m, m);
  const bool good = forEachPointStress(
      mesh, mat, Ut, diag,
      [&](const Element& e, const ElementKind& kind, Eigen::Index, const ShapeGradients& G, const auto& Sq, double w) {
        F.setZero();
        for (int a = 0; a < kind.nodes; ++a) {
          const Eigen::Index row = 3 * static_cast<Eigen::Index>(e.nodes[a]);
          for (int c = 0; c < 3; ++c)
            for (int i = 0; i < 3; ++i) F.row(3 * c + i) += G(a, i) * modes.row(row + c);
        }
        for (int q = 0; q < 6; ++q) {
          const int i = kComponent[q][0], j = kComponent[q][1];
          Q.noalias() = F.row(i).transpose() * F.row(j);
          for (int c = 1; c < 3; ++c) Q.noalias() += F.row(3 * c + i).transpose() * F.row(3 * c + j);
          if (i != j) Q += Q.transpose().eval();
          const Eigen::Index r = 6 * filled + q;
          for (Eigen::Index k = 0, p = 0; k < m; ++k)
            for (Eigen::Index l = 0; l <= k; ++l) B(r, p++) = Q(l, k);
          A.col(r) = w * Sq.col(q);
        }
        if (++filled == kChunk) flush();
      },
      [](const Element&, const ElementKind&) {});
  if (!good) return false;
  flush();
  std::vector<Eigen::MatrixXd> Kg(static_cast<std::size_t>(L), Eigen::MatrixXd(m, m));
  for (Eigen::Index c = 0; c < L; ++c)
    for (Eigen::Index k = 0, p = 0; k < m; ++k)
      for (Eigen::Index l = 0; l <= k; ++l, ++p) Kg[std::size_t(c)](l, k) = Kg[std::size_t(c)](k, l) = sum(c, p);
  out = std::move(Kg);
  return true;
}

bool nodalElasticity(const FeModel& mesh, const AssemblyOptions& options, std::vector<std::array<double, 2>>& out,
                     Diagnostics& diag) {
  out.clear();
  std::vector<const Material*> mat;
  std::vector<Material> materials;
  bool ok = checkElementNodes(mesh, diag);
  if (!resolveMaterials(mesh, options, mat, materials, diag) || !ok) return false;
  std::vector<std::array<double, 2>> sum(static_cast<std::size_t>(mesh.nodeCount()), {0.0, 0.0});
  std::vector<int> count(sum.size(), 0);
  for (std::size_t ie = 0; ie < mesh.elements.size(); ++ie) {
    const Element& e = mesh.elements[ie];
    for (int a = 0; a < elementKind(e.type).nodes; ++a) {
      const auto node = static_cast<std::size_t>(e.nodes[a]);
      sum[node][0] += mat[ie]->E;
      sum[node][1] += mat[ie]->nu;
      ++count[node];
    }
  }
  for (std::size_t i = 0; i < sum.size(); ++i)
    if (count[i] > 1) sum[i] = {sum[i][0] / count[i], sum[i][1] / count[i]};
  out = std::move(sum);
  return true;
}

Stress6 strainOf(const Stress6& s, double E, double nu) {
  Stress6 e;
  const double trace = s[0] + s[1] + s[2];
  for (int i = 0; i < 3; ++i) e[i] = ((1.0 + nu) * s[i] - nu * trace) / E;
  for (int i = 3; i < 6; ++i) e[i] = (1.0 + nu) / E * s[i];  // tensor shear: (1 + nu) / E tau
  return e;
}

double equivalentStrain(const Stress6& e) {
  const double mean = (e[0] + e[1] + e[2]) / 3.0;
  const double dxx = e[0] - mean, dyy = e[1] - mean, dzz = e[2] - mean;
  return std::sqrt(2.0 / 3.0 * (dxx * dxx + dyy * dyy + dzz * dzz + 2.0 * (e[3] * e[3] + e[4] * e[4] + e[5] * e[5])));
}

double vonMises(const Stress6& s) {
  const double dxy = s[0] - s[1], dyz = s[1] - s[2], dzx = s[2] - s[0];
  return std::sqrt(0.5 * (dxy * dxy + dyz * dyz + dzx * dzx) + 3.0 * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5]));
}

Eigen::Vector3d principalStresses(const Stress6& s) {
  Eigen::Matrix3d T;
  T << s[0], s[3], s[5],  //
      s[3], s[1], s[4],   //
      s[5], s[4], s[2];
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(T, Eigen::EigenvaluesOnly);
  const Eigen::Vector3d ev = es.eigenvalues();  // ascending
  return {ev[2], ev[1], ev[0]};
}

}  // namespace flexim::fe
