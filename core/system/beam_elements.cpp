#include "core/system/beam_elements.h"

#include <Eigen/Dense>
#include <unsupported/Eigen/AutoDiff>

#include <cmath>
#include <limits>

namespace flexim {

namespace {

// First derivatives over the element's 12 node tangents and at most 7 strains, exact (forward
// mode): the local Newton and the nodes' forces need C_ε and C_x to machine precision.
constexpr int kInputs = 19;
using Derivatives = Eigen::Matrix<double, kInputs, 1>;
using AD = Eigen::AutoDiffScalar<Derivatives>;

template <class S>
using V3 = Eigen::Matrix<S, 3, 1>;
template <class S>
using V4 = Eigen::Matrix<S, 4, 1>;
template <class S>
using M3 = Eigen::Matrix<S, 3, 3>;
template <class S>
using M4 = Eigen::Matrix<S, 4, 4>;

double value(double x) { return x; }
double value(const AD& x) { return x.value(); }

/// a ⊗ b of quaternions stored (w, x, y, z).
template <class S>
V4<S> multiply(const V4<S>& a, const V4<S>& b) {
  V4<S> c;
  c(0) = a(0) * b(0) - a(1) * b(1) - a(2) * b(2) - a(3) * b(3);
  c(1) = a(0) * b(1) + a(1) * b(0) + a(2) * b(3) - a(3) * b(2);
  c(2) = a(0) * b(2) - a(1) * b(3) + a(2) * b(0) + a(3) * b(1);
  c(3) = a(0) * b(3) + a(1) * b(2) - a(2) * b(1) + a(3) * b(0);
  return c;
}

/// The rotation of the unit quaternion λ/|λ| (axes -> global).
template <class S>
M3<S> rotation(const V4<S>& l) {
  const S n2 = l.squaredNorm();
  const V3<S> v = l.template tail<3>();
  M3<S> R = M3<S>::Identity() * (l(0) * l(0) - v.squaredNorm());
  R += S(2) * v * v.transpose();
  M3<S> vx;
  vx << S(0), -v(2), v(1), v(2), S(0), -v(0), -v(1), v(0), S(0);
  R += S(2) * l(0) * vx;
  return R / n2;
}

/// R(λ/|λ|) v, cheaper than forming R.
template <class S>
V3<S> rotate(const V4<S>& l, const V3<S>& v) {
  const V3<S> u = l.template tail<3>();
  const V3<S> t = S(2) * u.cross(v);
  // R v = v + 2 w (u × v) + 2 u × (u × v) for a unit quaternion; scaled by |λ|² otherwise
  return ((l(0) * l(0) + u.squaredNorm()) * v + l(0) * t + u.cross(t)) / l.squaredNorm();
}

/// The first column of R(λ/|λ|): the section's x axis.
template <class S>
V3<S> xAxis(const V4<S>& l) {
  return V3<S>(l(0) * l(0) + l(1) * l(1) - l(2) * l(2) - l(3) * l(3), S(2) * (l(1) * l(2) + l(0) * l(3)),
               S(2) * (l(1) * l(3) - l(0) * l(2))) /
         l.squaredNorm();
}

/// ½ Ω(k): λ' = ½ λ ⊗ (0, κ) = ½ Ω(κ) λ, κ in section axes.
template <class S>
M4<S> halfOmega(const V3<S>& k) {
  M4<S> W;
  W << S(0), -k(0), -k(1), -k(2),  //
      k(0), S(0), k(2), -k(1),     //
      k(1), -k(2), S(0), k(0),     //
      k(2), k(1), -k(0), S(0);
  return S(0.5) * W;
}

/// A node's position and quaternion moved by the tangent inputs (δr global, δθ node axes) at
/// `offset` of the inputs; λ ⊗ (1, δθ/2) has the exact first derivative at δθ = 0.
template <class S>
void movedNode(const BeamNodePose& n, const Eigen::Matrix<S, kInputs, 1>& in, int offset, V3<S>& r, V4<S>& l) {
  for (int i = 0; i < 3; ++i) r(i) = S(n.r(i)) + in(offset + i);
  const V4<S> p(S(n.p.w()), S(n.p.x()), S(n.p.y()), S(n.p.z()));
  const V4<S> d(S(1), S(0.5) * in(offset + 3), S(0.5) * in(offset + 4), S(0.5) * in(offset + 5));
  l = multiply(p, d);
}

/// The inputs [0 (12 node tangents), strains] with derivatives seeded for AD.
Eigen::Matrix<AD, kInputs, 1> seededInputs(const VecX& strains) {
  Eigen::Matrix<AD, kInputs, 1> in;
  for (int i = 0; i < kInputs; ++i) {
    const double v = i < 12 ? 0.0 : (i - 12 < strains.size() ? strains(i - 12) : 0.0);
    in(i) = AD(v, Derivatives::Unit(i));
  }
  return in;
}
Eigen::Matrix<double, kInputs, 1> plainInputs(const VecX& strains) {
  Eigen::Matrix<double, kInputs, 1> in = Eigen::Matrix<double, kInputs, 1>::Zero();
  in.segment(12, strains.size()) = strains;
  return in;
}

}  // namespace

// ---- names -------------------------------------------------------------------------------

const std::vector<std::string>& beamFormulationNames() {
  static const std::vector<std::string> names{"spatial", "spatial_constant_torsion", "planar"};
  return names;
}

bool beamFormulationFromName(const std::string& name, BeamFormulationKind& out) {
  const auto& names = beamFormulationNames();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) {
      out = static_cast<BeamFormulationKind>(i);
      return true;
    }
  return false;
}

// ---- the constraint functions ---------------------------------------------------------------

namespace {

/// The spatial element's 6 rows (Lobatto IIIA over the quaternion ODE, position by its weights)
/// for full strains e (7) and the moved nodes.
template <class S>
Eigen::Matrix<S, 6, 1> spatialRows(const V3<S>& rp, const V4<S>& lp, const V3<S>& rq, const V4<S>& lq,
                                   const Eigen::Matrix<S, 7, 1>& e, double l0, double shearY, double shearZ) {
  const V3<S> k1(e(1), e(3), e(5));  // l0 κ at ξ = 0
  const V3<S> k3(e(2), e(4), e(6));  // l0 κ at ξ = 1
  const V3<S> k2 = S(0.5) * (k1 + k3);
  const M4<S> W1 = halfOmega(k1), W2 = halfOmega(k2), W3 = halfOmega(k3);
  // stages: Y1 = λp; [I − W2/3, W3/24; −2W2/3, I − W3/6] [Y2; Y3] = [λp + 5/24 W1 λp; λp + 1/6 W1 λp]
  Eigen::Matrix<S, 8, 8> A;
  A.template topLeftCorner<4, 4>() = M4<S>::Identity() - W2 / S(3);
  A.template topRightCorner<4, 4>() = W3 / S(24);
  A.template bottomLeftCorner<4, 4>() = -S(2) * W2 / S(3);
  A.template bottomRightCorner<4, 4>() = M4<S>::Identity() - W3 / S(6);
  Eigen::Matrix<S, 8, 1> b;
  const V4<S> W1l = W1 * lp;
  b.template head<4>() = lp + S(5.0 / 24.0) * W1l;
  b.template tail<4>() = lp + W1l / S(6);
  // the values by a plain LU, the derivatives by implicit differentiation with the same factors:
  // Y = Y₀ + A₀⁻¹ (b − A Y₀) carries dY = A⁻¹ (db − dA Y) and the value Y₀
  Eigen::Matrix<double, 8, 8> A0;
  Eigen::Matrix<double, 8, 1> b0;
  for (int i = 0; i < 8; ++i) {
    b0(i) = value(b(i));
    for (int j = 0; j < 8; ++j) A0(i, j) = value(A(i, j));
  }
  const Eigen::PartialPivLU<Eigen::Matrix<double, 8, 8>> lu(A0);
  const Eigen::Matrix<double, 8, 1> Y0 = lu.solve(b0);
  const Eigen::Matrix<double, 8, 8> Ainv = lu.inverse();
  Eigen::Matrix<S, 8, 1> res = b - A * Y0.cast<S>();
  Eigen::Matrix<S, 8, 1> Y;
  for (int i = 0; i < 8; ++i) {
    Y(i) = S(Y0(i));
    for (int j = 0; j < 8; ++j) Y(i) += Ainv(i, j) * res(j);
  }
  const V4<S> Y2 = Y.template head<4>(), Y3 = Y.template tail<4>();
  // position: the stages normalised (Lobatto IIIA does not keep |λ| = 1)
  const V3<S> g(S(1) + e(0), S(shearY) * (e(5) - e(6)), S(shearZ) * (e(4) - e(3)));
  Eigen::Matrix<S, 6, 1> C;
  C.template head<3>() = rq - rp - S(l0) * ((rotate(lp, g) + rotate(Y3, g)) / S(6) + S(2.0 / 3.0) * rotate(Y2, g));
  // orientation: −Λ̄(λq) Y3 = −vec(λq* ⊗ Y3), zero when Y3 is parallel to λq
  const V4<S> lqc(lq(0), -lq(1), -lq(2), -lq(3));
  C.template tail<3>() = -multiply(lqc, Y3).template tail<3>();
  return C;
}

/// The planar element's 3 rows (Simpson over the element) in the plane (e1, e2) of `plane`.
template <class S>
Eigen::Matrix<S, 3, 1> planarRows(const V3<S>& rp, const V4<S>& lp, const V3<S>& rq, const V4<S>& lq,
                                  const Eigen::Matrix<S, 3, 1>& e, double l0, double shear, const Mat3& plane) {
  using std::atan2;
  using std::cos;
  using std::sin;
  const V3<S> e1 = plane.col(0).cast<S>(), e2 = plane.col(1).cast<S>();
  const V3<S> ap = xAxis(lp), aq = xAxis(lq);  // the section x axes
  const S apx = ap.dot(e1), apy = ap.dot(e2), aqx = aq.dot(e1), aqy = aq.dot(e2);
  const S phiP = atan2(apy, apx);
  const S dphi = atan2(apx * aqy - apy * aqx, apx * aqx + apy * aqy);
  const S phi[3] = {phiP, phiP + S(3.0 / 8.0) * e(1) + e(2) / S(8), phiP + S(0.5) * (e(1) + e(2))};
  const S w[3] = {S(1.0 / 6.0), S(4.0 / 6.0), S(1.0 / 6.0)};
  const S gamma = S(shear) * (e(1) - e(2));
  S ix = S(0), iy = S(0);
  for (int i = 0; i < 3; ++i) {
    ix += w[i] * ((S(1) + e(0)) * cos(phi[i]) - gamma * sin(phi[i]));
    iy += w[i] * ((S(1) + e(0)) * sin(phi[i]) + gamma * cos(phi[i]));
  }
  const V3<S> d = rq - rp;
  Eigen::Matrix<S, 3, 1> C;
  C(0) = d.dot(e1) - S(l0) * ix;
  C(1) = d.dot(e2) - S(l0) * iy;
  C(2) = dphi - S(0.5) * (e(1) + e(2));
  return C;
}

}  // namespace

// ---- the kernel ------------------------------------------------------------------------------

BeamElementKernel::BeamElementKernel(BeamFormulationKind kind, double l0, const BeamSection& s, const Vec3& k0,
                                     const Mat3& plane)
    : m_kind(kind), m_l0(l0), m_section(s), m_plane(plane) {
  // Φ/12 = EI/(l0² GAk): the constant shear strain per difference of the end curvatures
  m_shearY = s.GAky > 0 ? s.EIz / (l0 * l0 * s.GAky) : 0.0;
  m_shearZ = s.GAkz > 0 ? s.EIy / (l0 * l0 * s.GAkz) : 0.0;
  auto bending = [&](double EI, double shear) {
    // (EI/l0) [1/3 + Φ/12, 1/6 − Φ/12; ...]
    Eigen::Matrix2d B;
    B << 1.0 / 3.0 + shear, 1.0 / 6.0 - shear, 1.0 / 6.0 - shear, 1.0 / 3.0 + shear;
    return Eigen::Matrix2d(EI / l0 * B);
  };
  switch (kind) {
    case BeamFormulationKind::Planar:
      m_e0 = Eigen::Vector3d(0.0, k0.z() * l0, k0.z() * l0);
      m_S = MatX::Zero(3, 3);
      m_S(0, 0) = s.EA * l0;
      m_S.bottomRightCorner<2, 2>() = bending(s.EIz, m_shearY);
      break;
    case BeamFormulationKind::Spatial:
    case BeamFormulationKind::SpatialConstantTorsion: {
      MatX S7 = MatX::Zero(7, 7);
      S7(0, 0) = s.EA * l0;
      S7.block<2, 2>(1, 1) = bending(s.GJ, 0.0);
      S7.block<2, 2>(3, 3) = bending(s.EIy, m_shearZ);
      S7.block<2, 2>(5, 5) = bending(s.EIz, m_shearY);
      Eigen::Matrix<double, 7, 1> e0;
      e0 << 0.0, k0.x() * l0, k0.x() * l0, k0.y() * l0, k0.y() * l0, k0.z() * l0, k0.z() * l0;
      if (kind == BeamFormulationKind::Spatial) {
        m_S = S7;
        m_e0 = e0;
      } else {
        // ε2 = ε3: one torsion strain
        MatX T = MatX::Zero(7, 6);
        T(0, 0) = 1.0;
        T(1, 1) = T(2, 1) = 1.0;
        for (int i = 3; i < 7; ++i) T(i, i - 1) = 1.0;
        m_S = T.transpose() * S7 * T;
        m_e0.resize(6);
        m_e0 << e0(0), e0(1), e0(3), e0(4), e0(5), e0(6);
      }
      break;
    }
  }
}

Eigen::Matrix<double, 7, 1> BeamElementKernel::fullStrains(const VecX& e) const {
  Eigen::Matrix<double, 7, 1> full = Eigen::Matrix<double, 7, 1>::Zero();
  switch (m_kind) {
    case BeamFormulationKind::Spatial: full = e; break;
    case BeamFormulationKind::SpatialConstantTorsion: full << e(0), e(1), e(1), e(2), e(3), e(4), e(5); break;
    case BeamFormulationKind::Planar: full << e(0), 0.0, 0.0, 0.0, 0.0, e(1), e(2); break;
  }
  return full;
}

namespace {

/// The element's rows at inputs `in` (node tangents, strains), for either scalar type.
template <class S>
Eigen::Matrix<S, Eigen::Dynamic, 1> rowsAt(const BeamElementKernel& k, BeamFormulationKind kind, const BeamNodePose& p,
                                           const BeamNodePose& q, const Eigen::Matrix<S, kInputs, 1>& in, double shearY,
                                           double shearZ, const Mat3& plane) {
  V3<S> rp, rq;
  V4<S> lp, lq;
  movedNode(p, in, 0, rp, lp);
  movedNode(q, in, 6, rq, lq);
  const double l0 = k.length();
  switch (kind) {
    case BeamFormulationKind::Planar: {
      const Eigen::Matrix<S, 3, 1> e = in.template segment<3>(12);
      return planarRows<S>(rp, lp, rq, lq, e, l0, shearY, plane);
    }
    case BeamFormulationKind::Spatial: {
      const Eigen::Matrix<S, 7, 1> e = in.template segment<7>(12);
      return spatialRows<S>(rp, lp, rq, lq, e, l0, shearY, shearZ);
    }
    case BeamFormulationKind::SpatialConstantTorsion: {
      Eigen::Matrix<S, 7, 1> e;
      e << in(12), in(13), in(13), in(14), in(15), in(16), in(17);
      return spatialRows<S>(rp, lp, rq, lq, e, l0, shearY, shearZ);
    }
  }
  return {};
}

}  // namespace

VecX BeamElementKernel::constraints(const BeamNodePose& p, const BeamNodePose& q, const VecX& strains) const {
  return rowsAt<double>(*this, m_kind, p, q, plainInputs(strains), m_shearY, m_shearZ, m_plane);
}

bool BeamElementKernel::solve(const BeamNodePose& p, const BeamNodePose& q, const VecX* guess,
                              BeamSolution& out) const {
  const int ns = strainCount(), m = rows();
  VecX e;
  if (guess && guess->size() == ns) {
    e = *guess;
  } else {
    // the relative rotation spread evenly over the element, the axial strain from the chord
    e = m_e0;
    const Quat rel = p.p.conjugate() * q.p;
    const Eigen::AngleAxisd aa(rel.w() < 0 ? Quat(-rel.coeffs()) : rel);
    const Vec3 theta = aa.angle() * aa.axis();
    if (m_kind == BeamFormulationKind::Planar) {
      e(1) = e(2) = theta.dot(p.p.conjugate() * m_plane.col(2));
    } else {
      const Eigen::Matrix<double, 7, 1> full =
          (Eigen::Matrix<double, 7, 1>() << 0.0, theta.x(), theta.x(), theta.y(), theta.y(), theta.z(), theta.z())
              .finished();
      if (m_kind == BeamFormulationKind::Spatial) e.tail<6>() = full.tail<6>();
      else e.tail<5>() << full(1), full(3), full(4), full(5), full(6);
    }
  }
  MatX K(ns + m, ns + m);
  VecX rhs(ns + m);
  out.converged = false;
  for (out.iterations = 0; out.iterations < 40; ++out.iterations) {
    const auto C = rowsAt<AD>(*this, m_kind, p, q, seededInputs(e), m_shearY, m_shearZ, m_plane);
    out.dC_dx.resize(m, 12);
    out.dC_de.resize(m, ns);
    VecX c(m);
    for (int i = 0; i < m; ++i) {
      c(i) = C(i).value();
      out.dC_dx.row(i) = C(i).derivatives().head<12>().transpose();
      out.dC_de.row(i) = C(i).derivatives().segment(12, ns).transpose();
    }
    // [S C_εᵀ; C_ε 0] [Δε; μ] = [−S(ε − ε0); −C]: Newton on C = 0 with the energy's stationarity
    // where there are more strains than rows (its Hessian without μᵀC_εε: converges to the same point)
    K.setZero();
    K.topLeftCorner(ns, ns) = m_S;
    K.topRightCorner(ns, m) = out.dC_de.transpose();
    K.bottomLeftCorner(m, ns) = out.dC_de;
    rhs.head(ns) = -m_S * (e - m_e0);
    rhs.tail(m) = -c;
    const VecX sol = K.partialPivLu().solve(rhs);
    if (!sol.allFinite()) break;
    const VecX step = sol.head(ns);
    out.mu = sol.tail(m);
    // converged when the step is at the rounding level of the strains (Newton: the residual
    // then is too); the derivatives and multipliers of this evaluation stand for the solution
    e += step;
    if (step.lpNorm<Eigen::Infinity>() < 1e-13 * (1.0 + e.lpNorm<Eigen::Infinity>())) {
      out.converged = true;
      break;
    }
  }
  out.strains = e;
  out.stresses = m_S * (e - m_e0);
  return out.converged;
}

Eigen::Matrix<double, 12, 1> BeamSolution::nodeForces() const { return -dC_dx.transpose() * mu; }

MatX BeamElementKernel::strainSensitivity(const BeamSolution& s) const {
  // [S C_εᵀ; C_ε 0] [dε; dμ] = [0; −C_x dx]: exact for a square C_ε (ε follows from C = 0 alone)
  const int ns = strainCount(), m = rows();
  MatX K = MatX::Zero(ns + m, ns + m);
  K.topLeftCorner(ns, ns) = m_S;
  K.topRightCorner(ns, m) = s.dC_de.transpose();
  K.bottomLeftCorner(m, ns) = s.dC_de;
  MatX rhs = MatX::Zero(ns + m, 12);
  rhs.bottomRows(m) = -s.dC_dx;
  return K.partialPivLu().solve(rhs).topRows(ns);
}

Eigen::Matrix<double, 12, 12> BeamElementKernel::tangent(const BeamNodePose& p, const BeamNodePose& q,
                                                        const BeamSolution& s) const {
  const int ns = strainCount(), m = rows(), n = 12 + ns;
  // H = ∂(C_wᵀ μ)/∂w over w = [node tangents, strains], by differences of the exact gradient
  // (μ held): ~1e-8 of the geometric part, which is what differences cost here; the material
  // part below is exact
  auto gradient = [&](const Eigen::Matrix<double, kInputs, 1>& at) {
    Eigen::Matrix<AD, kInputs, 1> in;
    for (int i = 0; i < kInputs; ++i) in(i) = AD(at(i), Derivatives::Unit(i));
    const auto C = rowsAt<AD>(*this, m_kind, p, q, in, m_shearY, m_shearZ, m_plane);
    Derivatives g = Derivatives::Zero();
    for (int i = 0; i < m; ++i) g += s.mu(i) * C(i).derivatives();
    return g;
  };
  const Eigen::Matrix<double, kInputs, 1> base = plainInputs(s.strains);
  const Derivatives g0 = gradient(base);
  MatX H(n, n);
  for (int j = 0; j < n; ++j) {
    // positions in m, angles and strains dimensionless
    const double h = 1e-8 * (j % 6 < 3 && j < 12 ? std::max(1.0, m_l0) : 1.0);
    Eigen::Matrix<double, kInputs, 1> moved = base;
    moved(j) += h;
    H.col(j) = ((gradient(moved) - g0) / h).head(n);
  }
  H = 0.5 * (H + H.transpose()).eval();
  // [S + H_εε, C_εᵀ; C_ε, 0] [ε_x; μ_x] = −[H_εx; C_x];  df/dx = −H_xx − H_xε ε_x − C_xᵀ μ_x
  MatX K = MatX::Zero(ns + m, ns + m);
  K.topLeftCorner(ns, ns) = m_S + H.bottomRightCorner(ns, ns);
  K.topRightCorner(ns, m) = s.dC_de.transpose();
  K.bottomLeftCorner(m, ns) = s.dC_de;
  MatX rhs(ns + m, 12);
  rhs.topRows(ns) = -H.bottomLeftCorner(ns, 12);
  rhs.bottomRows(m) = -s.dC_dx;
  const MatX sol = K.partialPivLu().solve(rhs);
  Eigen::Matrix<double, 12, 12> T =
      -H.topLeftCorner(12, 12) - H.topRightCorner(12, ns) * sol.topRows(ns) - s.dC_dx.transpose() * sol.bottomRows(m);
  // that is the derivative in the chart at the current pose; the torques are in each node's own
  // axes, which turn with it: d τ'/dθ' gains ½ [τ']× (the right Jacobian of the rotation)
  const Eigen::Matrix<double, 12, 1> f = s.nodeForces();
  for (int node = 0; node < 2; ++node) {
    const Vec3 torque = f.segment<3>(6 * node + 3);
    Mat3 skew;
    skew << 0, -torque.z(), torque.y(), torque.z(), 0, -torque.x(), -torque.y(), torque.x(), 0;
    T.block<3, 3>(6 * node + 3, 6 * node + 3) += 0.5 * skew;
  }
  return T;
}

double BeamElementKernel::strainEnergy(const BeamSolution& s) const {
  const VecX d = s.strains - m_e0;
  return 0.5 * d.dot(m_S * d);
}

BeamNodePose BeamElementKernel::endNode(const BeamNodePose& p, const VecX& strains) const {
  BeamNodePose q = p;
  if (m_kind == BeamFormulationKind::Planar) {
    // turned about the plane's normal by the element's angle, then moved by the position rows
    const Eigen::Matrix<double, 7, 1> e = fullStrains(strains);
    q.p = Quat(Eigen::AngleAxisd(0.5 * (e(5) + e(6)), m_plane.col(2))) * p.p;
  } else {
    // the last stage: C_rot = −vec(λq* ⊗ Y3) vanishes for λq = Y3/|Y3|; found by Newton on λq's
    // tangent (the rows are linear in Y3, so two or three steps)
    for (int it = 0; it < 8; ++it) {
      const auto C = rowsAt<AD>(*this, m_kind, p, q, seededInputs(strains), m_shearY, m_shearZ, m_plane);
      Mat3 J;
      Vec3 c;
      for (int i = 0; i < 3; ++i) {
        c(i) = C(3 + i).value();
        J.row(i) = C(3 + i).derivatives().segment<3>(9).transpose();
      }
      const Vec3 d = -J.partialPivLu().solve(c);
      q.p = (q.p * Quat(Eigen::AngleAxisd(d.norm(), d.norm() > 0 ? Vec3(d.normalized()) : Vec3::UnitX()))).normalized();
      if (d.norm() < 1e-15) break;
    }
  }
  // the position rows are q.r − (their value at q.r = p.r) − ...: one step puts them at zero
  const VecX C = constraints(p, q, strains);
  q.r -= m_kind == BeamFormulationKind::Planar ? Vec3(m_plane.col(0) * C(0) + m_plane.col(1) * C(1))
                                               : Vec3(C.head<3>());
  return q;
}

std::vector<Vec3> BeamElementKernel::centreLine(const BeamNodePose& p, const VecX& strains, int count) const {
  // the kinematic ODEs integrated with the element's strain field by small RK4 steps
  const Eigen::Matrix<double, 7, 1> e = fullStrains(strains);
  const double gy = m_shearY * (e(5) - e(6)), gz = m_shearZ * (e(4) - e(3));
  const Vec3 g(1.0 + e(0), gy, gz);
  auto kappa = [&](double xi) {  // l0 κ(ξ)
    return Vec3(e(1) * (1 - xi) + e(2) * xi, e(3) * (1 - xi) + e(4) * xi, e(5) * (1 - xi) + e(6) * xi);
  };
  auto rate = [&](double xi, const Eigen::Vector4d& l) { return Eigen::Vector4d(halfOmega<double>(kappa(xi)) * l); };
  auto dx = [&](const Eigen::Vector4d& l) { return Vec3(m_l0 * (rotation<double>(l) * g)); };
  std::vector<Vec3> points{p.r};
  Eigen::Vector4d l(p.p.w(), p.p.x(), p.p.y(), p.p.z());
  if (m_kind == BeamFormulationKind::Planar) {
    // in the plane: the node's axes replaced by the plane's turned by φ about e3
    const Vec3 ax = p.p * Vec3::UnitX();
    const double phi = std::atan2(ax.dot(m_plane.col(1)), ax.dot(m_plane.col(0)));
    const Quat planeQ(m_plane);
    const Quat turned = planeQ * Quat(Eigen::AngleAxisd(phi, Vec3::UnitZ()));
    l << turned.w(), turned.x(), turned.y(), turned.z();
  }
  Vec3 r = p.r;
  const int sub = 4;
  const double h = 1.0 / (count * sub);
  for (int i = 0; i < count * sub; ++i) {
    const double xi = i * h;
    const Eigen::Vector4d k1 = rate(xi, l), k2 = rate(xi + h / 2, l + h / 2 * k1), k3 = rate(xi + h / 2, l + h / 2 * k2),
                          k4 = rate(xi + h, l + h * k3);
    const Vec3 x1 = dx(l), x2 = dx(l + h / 2 * k1), x3 = dx(l + h / 2 * k2), x4 = dx(l + h * k3);
    l += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    r += h / 6 * (x1 + 2 * x2 + 2 * x3 + x4);
    if ((i + 1) % sub == 0) points.push_back(r);
  }
  return points;
}

BeamResultants BeamElementKernel::resultants(const VecX& strains, double xi) const {
  const Eigen::Matrix<double, 7, 1> d = fullStrains(strains) - fullStrains(m_e0);
  BeamResultants out;
  const BeamSection& s = m_section;
  out.N = s.EA * d(0);
  out.T = s.GJ * (d(1) * (1 - xi) + d(2) * xi) / m_l0;
  out.My = s.EIy * (d(3) * (1 - xi) + d(4) * xi) / m_l0;
  out.Mz = s.EIz * (d(5) * (1 - xi) + d(6) * xi) / m_l0;
  // shear forces from the moments' slopes (Q_y = −dM_z/ds, Q_z = dM_y/ds): with shear they are
  // GAk γ, without it the equilibrium's
  out.Qy = -s.EIz * (d(6) - d(5)) / (m_l0 * m_l0);
  out.Qz = s.EIy * (d(4) - d(3)) / (m_l0 * m_l0);
  return out;
}

}  // namespace flexim
