#include "core/fe/surface_regions.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>

namespace flexim::fe {

namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

// Cylinder fit limits (docs/theory/surface-fits.md): rms / radius for Good and Rough, the
// smallest arc and the largest radius / size of a cylinder that is not just a plane.
constexpr double kCylinderGood = 0.01, kCylinderRough = 0.05;
constexpr double kMinArcDeg = 10.0, kMaxRadiusPerSize = 20.0;
// Plane fit limits: rms / size.
constexpr double kPlaneGood = 1e-3, kPlaneRough = 1e-2;
// Points whose plane rms is below this share of their size are coplanar up to rounding.
constexpr double kCoplanar = 1e-9;

bool validTriangle(const TriangleSurface& s, int f) {
  if (f < 0 || std::size_t(f) >= s.triangles.size()) return false;
  for (int n : s.triangles[std::size_t(f)])
    if (n < 0 || std::size_t(n) >= s.coords.size()) return false;
  return true;
}

/// Area-weighted normal (twice the area, right-hand rule); zero for a degenerate facet.
Eigen::Vector3d areaNormal(const TriangleSurface& s, int f) {
  if (!validTriangle(s, f)) return Eigen::Vector3d::Zero();
  const auto& t = s.triangles[std::size_t(f)];
  const Eigen::Vector3d &a = s.coords[std::size_t(t[0])], &b = s.coords[std::size_t(t[1])],
                        &c = s.coords[std::size_t(t[2])];
  const Eigen::Vector3d n = (b - a).cross(c - a);
  const double edge2 = std::max({(b - a).squaredNorm(), (c - b).squaredNorm(), (a - c).squaredNorm()});
  // relative test: a sliver whose area is rounding noise has no usable normal
  if (!(n.norm() > 1e-12 * edge2)) return Eigen::Vector3d::Zero();
  return n;
}

/// Closest point of triangle abc to p (by the region of the triangle's plane p projects into).
Eigen::Vector3d closestOnTriangle(const Eigen::Vector3d& p, const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                  const Eigen::Vector3d& c) {
  const Eigen::Vector3d ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Eigen::Vector3d bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const Eigen::Vector3d cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + d1 / (d1 - d3) * ab;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + d2 / (d2 - d6) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b);
  const double denom = va + vb + vc;
  if (!(std::abs(denom) > 0)) return a;  // degenerate: any corner
  return a + (vb / denom) * ab + (vc / denom) * ac;
}

/// Facets sharing an edge with each facet (compressed rows: neighbours of f are
/// next[start[f]] .. next[start[f + 1] - 1]).
struct Adjacency {
  std::vector<int> start, next;
};

Adjacency adjacency(const TriangleSurface& s) {
  struct Edge {
    int a, b, facet;
  };
  std::vector<Edge> edges;
  edges.reserve(3 * s.triangles.size());
  for (int f = 0; f < int(s.triangles.size()); ++f) {
    if (!validTriangle(s, f)) continue;
    const auto& t = s.triangles[std::size_t(f)];
    for (int i = 0; i < 3; ++i) {
      const int a = t[std::size_t(i)], b = t[std::size_t((i + 1) % 3)];
      if (a != b) edges.push_back({std::min(a, b), std::max(a, b), f});
    }
  }
  std::sort(edges.begin(), edges.end(),
            [](const Edge& x, const Edge& y) { return x.a != y.a ? x.a < y.a : x.b != y.b ? x.b < y.b : x.facet < y.facet; });
  std::vector<std::pair<int, int>> pairs;
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i + 1;
    while (j < edges.size() && edges[j].a == edges[i].a && edges[j].b == edges[i].b) ++j;
    for (std::size_t k = i; k < j; ++k)
      for (std::size_t l = i; l < j; ++l)
        if (k != l && edges[k].facet != edges[l].facet) pairs.emplace_back(edges[k].facet, edges[l].facet);
    i = j;
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  Adjacency adj;
  adj.start.assign(s.triangles.size() + 1, 0);
  for (const auto& [f, g] : pairs) ++adj.start[std::size_t(f) + 1];
  for (std::size_t f = 0; f < s.triangles.size(); ++f) adj.start[f + 1] += adj.start[f];
  adj.next.reserve(pairs.size());
  for (const auto& p : pairs) adj.next.push_back(p.second);  // pairs are sorted by facet
  return adj;
}

/// Bounding-box diagonal of the points.
double sizeOf(std::span<const Eigen::Vector3d> points) {
  if (points.empty()) return 0.0;
  Eigen::Vector3d lo = points[0], hi = points[0];
  for (const auto& p : points) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  return (hi - lo).norm();
}

/// Two unit vectors completing w (unit) to a right-handed orthonormal basis.
void basis(const Eigen::Vector3d& w, Eigen::Vector3d& u, Eigen::Vector3d& v) {
  Eigen::Index k = 0;
  w.cwiseAbs().minCoeff(&k);
  u = w.cross(Eigen::Vector3d::Unit(k)).normalized();
  v = w.cross(u);
}

/// Largest component positive (a deterministic sign for an axis).
Eigen::Vector3d canonicalSign(const Eigen::Vector3d& a) {
  Eigen::Index k = 0;
  a.cwiseAbs().maxCoeff(&k);
  return a[k] < 0 ? Eigen::Vector3d(-a) : a;
}

/// A cylinder in the scaled frame of the fit: axis through c with unit direction w, radius r.
struct Cylinder {
  Eigen::Vector3d c, w;
  double r = 0.0;
};

double cost(const std::vector<Eigen::Vector3d>& x, const Cylinder& cyl) {
  double s = 0.0;
  for (const auto& p : x) {
    const Eigen::Vector3d d = p - cyl.c;
    const double e = (d - d.dot(cyl.w) * cyl.w).norm() - cyl.r;
    s += e * e;
  }
  return s;
}

/// Initial cylinder along w: the algebraic (Kasa) circle fit of the points projected on the
/// plane normal to w, x^2 + y^2 + D x + E y + F = 0, linear in D, E, F. The points are centred
/// on the origin and scaled to unit size, so the 3 x 3 normal equations are well conditioned.
bool circleAlong(const std::vector<Eigen::Vector3d>& x, const Eigen::Vector3d& w, Cylinder& out) {
  Eigen::Vector3d u, v;
  basis(w, u, v);
  Eigen::Matrix3d A = Eigen::Matrix3d::Zero();
  Eigen::Vector3d b = Eigen::Vector3d::Zero();
  for (const auto& p : x) {
    const Eigen::Vector3d row(p.dot(u), p.dot(v), 1.0);
    const double rhs = -(row[0] * row[0] + row[1] * row[1]);
    A += row * row.transpose();
    b += row * rhs;
  }
  Eigen::FullPivLU<Eigen::Matrix3d> lu(A);
  if (lu.rank() < 3) return false;
  const Eigen::Vector3d s = lu.solve(b);
  const double cx = -0.5 * s[0], cy = -0.5 * s[1], r2 = cx * cx + cy * cy - s[2];
  if (!(r2 > 0) || !std::isfinite(r2)) return false;
  out.w = w;
  out.c = cx * u + cy * v;
  out.r = std::sqrt(r2);
  return true;
}

/// Levenberg-Marquardt on the 5 cylinder parameters: axis point moved in the plane normal to w
/// (2), w tilted towards u and v (2), r. Residual e_i = |q_i| - r with q_i the part of
/// d_i = x_i - c normal to w; with the unit radial e_hat_i = q_i / |q_i| the derivatives are
/// de/dc = -e_hat . u (resp. v), de/dw = -(d_i . w) e_hat . u (resp. v), de/dr = -1.
int refine(const std::vector<Eigen::Vector3d>& x, Cylinder& cyl) {
  double f = cost(x, cyl), lambda = 1e-3;
  int it = 0;
  for (; it < 200; ++it) {
    Eigen::Vector3d u, v;
    basis(cyl.w, u, v);
    Eigen::Matrix<double, 5, 5> H = Eigen::Matrix<double, 5, 5>::Zero();
    Eigen::Matrix<double, 5, 1> g = Eigen::Matrix<double, 5, 1>::Zero();
    for (const auto& p : x) {
      const Eigen::Vector3d d = p - cyl.c;
      const double t = d.dot(cyl.w);
      const Eigen::Vector3d q = d - t * cyl.w;
      const double rho = q.norm();
      if (!(rho > 0)) continue;  // a point on the axis has no radial direction
      const Eigen::Vector3d e = q / rho;
      Eigen::Matrix<double, 5, 1> J;
      J << -e.dot(u), -e.dot(v), -t * e.dot(u), -t * e.dot(v), -1.0;
      H += J * J.transpose();
      g += J * (rho - cyl.r);
    }
    bool accepted = false;
    double step = 0.0;
    while (lambda < 1e12) {
      Eigen::Matrix<double, 5, 5> Hd = H;
      for (int k = 0; k < 5; ++k) Hd(k, k) += lambda * std::max(H(k, k), 1e-12);
      const Eigen::Matrix<double, 5, 1> delta = -Hd.ldlt().solve(g);
      Cylinder next;
      next.w = (cyl.w + delta[2] * u + delta[3] * v).normalized();
      next.c = cyl.c + delta[0] * u + delta[1] * v;
      next.c -= next.c.dot(next.w) * next.w;  // keep the axis point nearest the centroid (origin)
      next.r = cyl.r + delta[4];
      const double fn = next.r > 0 ? cost(x, next) : std::numeric_limits<double>::infinity();
      if (fn < f) {
        step = delta.norm();
        const double gain = f - fn;
        cyl = next;
        accepted = true;
        lambda = std::max(lambda / 4.0, 1e-12);
        if (gain <= 1e-15 * f || step < 1e-13) return it + 1;
        f = fn;
        break;
      }
      lambda *= 4.0;
    }
    if (!accepted) break;  // no step lowers the cost: converged to rounding
  }
  return it;
}

/// Points on the unit hemisphere (z >= 0) spread evenly (a Fibonacci lattice).
std::vector<Eigen::Vector3d> hemisphere(int n) {
  std::vector<Eigen::Vector3d> out;
  const double golden = std::numbers::pi * (3.0 - std::sqrt(5.0));
  for (int i = 0; i < n; ++i) {
    const double z = (i + 0.5) / n, rho = std::sqrt(1.0 - z * z);
    out.emplace_back(rho * std::cos(golden * i), rho * std::sin(golden * i), z);
  }
  return out;
}

std::string number(double v, int precision) {
  if (std::abs(v) < 1e-9) v = 0.0;  // no "-0" or "1e-17" for a zero
  char text[32];
  std::snprintf(text, sizeof text, "%.*g", precision, v);
  return text;
}

std::string triple(const Eigen::Vector3d& a, double scale, int precision) {
  std::string out = "(";  // appended piecewise: g++ 12 warns (-Wrestrict) on "(" + string
  out += number(a.x() * scale, precision);
  out += ", ";
  out += number(a.y() * scale, precision);
  out += ", ";
  out += number(a.z() * scale, precision);
  out += ")";
  return out;
}

std::string mm(double metres) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g mm", metres * 1e3);
  return text;
}

}  // namespace

const char* toString(FitQuality q) {
  switch (q) {
    case FitQuality::Good: return "good";
    case FitQuality::Rough: return "rough";
    case FitQuality::Failed: break;
  }
  return "failed";
}

Eigen::Vector3d facetNormal(const TriangleSurface& surface, int f) {
  const Eigen::Vector3d n = areaNormal(surface, f);
  return n.isZero() ? n : n.normalized();
}

SurfaceRegion growRegion(const TriangleSurface& surface, int seed, const RegionOptions& options) {
  SurfaceRegion region;
  const Eigen::Vector3d seedNormal = facetNormal(surface, seed);
  if (seedNormal.isZero()) return region;
  const Adjacency adj = adjacency(surface);
  const double creaseCos = std::cos(options.crease_angle_deg * kDeg);
  const double coneCos = std::cos(options.normal_cone_deg * kDeg);
  const bool cone = options.normal_cone_deg > 0.0;

  std::vector<Eigen::Vector3d> normal(surface.triangles.size(), Eigen::Vector3d::Zero());
  std::vector<char> seen(surface.triangles.size(), 0);
  std::vector<int> stack{seed};
  seen[std::size_t(seed)] = 1;
  normal[std::size_t(seed)] = seedNormal;
  while (!stack.empty()) {
    const int f = stack.back();
    stack.pop_back();
    region.facets.push_back(f);
    for (int k = adj.start[std::size_t(f)]; k < adj.start[std::size_t(f) + 1]; ++k) {
      const int g = adj.next[std::size_t(k)];
      if (seen[std::size_t(g)]) continue;
      Eigen::Vector3d& ng = normal[std::size_t(g)];
      if (ng.isZero()) ng = facetNormal(surface, g);
      if (ng.isZero()) continue;  // degenerate: neither joins nor bridges
      // oriented normals: a 170 degree fold is a crease, not a 10 degree one
      if (ng.dot(normal[std::size_t(f)]) < creaseCos) continue;
      if (cone && ng.dot(seedNormal) < coneCos) continue;
      seen[std::size_t(g)] = 1;
      stack.push_back(g);
    }
  }
  std::sort(region.facets.begin(), region.facets.end());
  for (int f : region.facets) {
    region.area += 0.5 * areaNormal(surface, f).norm();
    for (int n : surface.triangles[std::size_t(f)]) region.nodes.push_back(n);
  }
  std::sort(region.nodes.begin(), region.nodes.end());
  region.nodes.erase(std::unique(region.nodes.begin(), region.nodes.end()), region.nodes.end());
  return region;
}

int nearestFacet(const TriangleSurface& surface, const Eigen::Vector3d& p) {
  int best = -1;
  double bestDistance = std::numeric_limits<double>::infinity();
  for (int f = 0; f < int(surface.triangles.size()); ++f) {
    if (areaNormal(surface, f).isZero()) continue;
    const auto& t = surface.triangles[std::size_t(f)];
    const double d = (closestOnTriangle(p, surface.coords[std::size_t(t[0])], surface.coords[std::size_t(t[1])],
                                        surface.coords[std::size_t(t[2])]) - p)
                         .squaredNorm();
    if (d < bestDistance) {
      bestDistance = d;
      best = f;
    }
  }
  return best;
}

PlaneFit fitPlane(std::span<const Eigen::Vector3d> points) {
  PlaneFit fit;
  const int n = int(points.size());
  if (n < 3) {
    fit.message = "too few points (" + std::to_string(n) + ") for a plane: at least 3 are needed";
    return fit;
  }
  for (const auto& p : points) fit.centroid += p;
  fit.centroid /= n;
  fit.size = sizeOf(points);
  Eigen::Matrix3d C = Eigen::Matrix3d::Zero();
  for (const auto& p : points) C += (p - fit.centroid) * (p - fit.centroid).transpose();
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(C);  // eigenvalues ascending
  fit.normal = eig.eigenvectors().col(0);
  double sum = 0.0;
  for (const auto& p : points) {
    const double d = std::abs((p - fit.centroid).dot(fit.normal));
    sum += d * d;
    fit.max_error = std::max(fit.max_error, d);
  }
  fit.rms = std::sqrt(sum / n);
  // on a line the two smaller spreads both vanish and the normal is any direction round it
  if (!(fit.size > 0) || eig.eigenvalues()[1] <= 1e-18 * fit.size * fit.size * n) {
    fit.message = "the points lie on a line (or coincide): no plane through them";
    return fit;
  }
  const double relative = fit.rms / fit.size;
  fit.quality = relative <= kPlaneGood ? FitQuality::Good : relative <= kPlaneRough ? FitQuality::Rough : FitQuality::Failed;
  if (fit.quality != FitQuality::Good)
    fit.message = std::string(fit.quality == FitQuality::Rough ? "roughly flat" : "not flat") + ": rms distance " +
                  mm(fit.rms) + " is " + number(100.0 * relative, 2) + " % of the size " + mm(fit.size);
  return fit;
}

CylinderFit fitCylinder(std::span<const Eigen::Vector3d> points, std::span<const Eigen::Vector3d> normals) {
  CylinderFit fit;
  const int n = int(points.size());
  if (n < 6) {
    fit.message = "too few points (" + std::to_string(n) + ") for a cylinder: at least 6 are needed";
    return fit;
  }
  const PlaneFit plane = fitPlane(points);
  if (plane.size > 0 && plane.rms <= kCoplanar * plane.size) {
    fit.message = "the points are flat (plane rms " + mm(plane.rms) + " over a size of " + mm(plane.size) +
                  "): a plane, not a cylinder";
    return fit;
  }
  if (!(plane.size > 0)) {
    fit.message = "the points coincide: no cylinder through them";
    return fit;
  }

  // work centred on the centroid and scaled to unit size
  const double scale = plane.size;
  std::vector<Eigen::Vector3d> x;
  x.reserve(points.size());
  for (const auto& p : points) x.push_back((p - plane.centroid) / scale);

  // candidate axes: from the normals, the principal directions, a grid over the hemisphere;
  // the search uses at most 2000 of the points
  std::vector<Eigen::Vector3d> sample;
  const std::size_t stride = std::max<std::size_t>(1, x.size() / 2000);
  for (std::size_t i = 0; i < x.size(); i += stride) sample.push_back(x[i]);
  std::vector<Eigen::Vector3d> axes;
  if (normals.size() >= 2) {
    Eigen::Matrix3d N = Eigen::Matrix3d::Zero();
    for (const auto& m : normals)
      if (m.allFinite() && m.norm() > 0) N += m.normalized() * m.normalized().transpose();
    axes.push_back(Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(N).eigenvectors().col(0));
  }
  {
    Eigen::Matrix3d C = Eigen::Matrix3d::Zero();
    for (const auto& p : x) C += p * p.transpose();
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(C);
    for (int k = 0; k < 3; ++k) axes.push_back(eig.eigenvectors().col(k));
  }
  for (const auto& w : hemisphere(500)) axes.push_back(w);

  struct Candidate {
    Cylinder cyl;
    double cost;
  };
  std::vector<Candidate> candidates;
  std::vector<Cylinder> starts;  // refined: the normals' guess and the best few others
  for (std::size_t k = 0; k < axes.size(); ++k) {
    Cylinder cyl;
    if (!circleAlong(sample, axes[k], cyl)) continue;
    candidates.push_back({cyl, cost(sample, cyl)});
    if (k == 0 && normals.size() >= 2) starts.push_back(cyl);
  }
  if (candidates.empty()) {
    fit.message = "no circle fits the points along any direction: not a cylinder";
    return fit;
  }
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) { return a.cost < b.cost; });
  for (const auto& c : candidates) {
    if (starts.size() >= 4) break;
    bool distinct = true;  // skip near-repeats of a start already taken
    for (const auto& s : starts) distinct = distinct && std::abs(s.w.dot(c.cyl.w)) < std::cos(5.0 * kDeg);
    if (distinct) starts.push_back(c.cyl);
  }
  Cylinder best;
  double bestCost = std::numeric_limits<double>::infinity();
  for (Cylinder cyl : starts) {
    const int it = refine(x, cyl);
    const double c = cost(x, cyl);
    if (c < bestCost && std::isfinite(cyl.r)) {
      bestCost = c;
      best = cyl;
      fit.iterations = it;
    }
  }
  if (!std::isfinite(bestCost)) {
    fit.message = "the cylinder fit did not converge";
    return fit;
  }

  // back to the model's units; the centre in the middle of the axial extent
  fit.axis = canonicalSign(best.w);
  fit.radius = best.r * scale;
  const Eigen::Vector3d c = plane.centroid + best.c * scale;
  Eigen::Vector3d u, v;
  basis(fit.axis, u, v);
  double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0.0;
  std::vector<double> angle;
  angle.reserve(points.size());
  for (const auto& p : points) {
    const Eigen::Vector3d d = p - c;
    const double t = d.dot(fit.axis);
    const Eigen::Vector3d q = d - t * fit.axis;
    const double e = q.norm() - fit.radius;
    lo = std::min(lo, t);
    hi = std::max(hi, t);
    sum += e * e;
    fit.max_error = std::max(fit.max_error, std::abs(e));
    angle.push_back(std::atan2(q.dot(v), q.dot(u)));
  }
  fit.centre = c + 0.5 * (lo + hi) * fit.axis;
  fit.length = hi - lo;
  fit.rms = std::sqrt(sum / n);
  std::sort(angle.begin(), angle.end());
  double gap = angle.front() + 2.0 * std::numbers::pi - angle.back();
  for (std::size_t i = 1; i < angle.size(); ++i) gap = std::max(gap, angle[i] - angle[i - 1]);
  fit.arc_deg = 360.0 - gap / kDeg;

  // verdict: a plane is a cylinder of infinite radius, so a huge radius or a tiny arc means flat
  const double relative = fit.rms / fit.radius;
  if (fit.radius > kMaxRadiusPerSize * plane.size) {
    fit.message = "the radius " + mm(fit.radius) + " is over " + number(kMaxRadiusPerSize, 3) +
                  " times the size of the points (" + mm(plane.size) + "): flat, a plane, not a cylinder";
  } else if (fit.arc_deg < kMinArcDeg) {
    fit.message = "the points cover only " + number(fit.arc_deg, 2) +
                  " degrees round the fitted axis: too flat to tell a cylinder from a plane";
  } else if (relative > kCylinderRough) {
    fit.message = "not a cylinder: rms " + mm(fit.rms) + " is " + number(100.0 * relative, 2) + " % of the radius " +
                  mm(fit.radius);
  } else {
    fit.quality = relative <= kCylinderGood ? FitQuality::Good : FitQuality::Rough;
    if (fit.quality == FitQuality::Rough)
      fit.message = "roughly a cylinder: rms " + mm(fit.rms) + " is " + number(100.0 * relative, 2) +
                    " % of the radius";
  }
  return fit;
}

SurfaceFeature fitBore(const TriangleSurface& surface, int seed, const RegionOptions& options) {
  SurfaceFeature out;
  out.kind = SurfaceFeature::Kind::Bore;
  out.region = growRegion(surface, seed, options);
  if (out.region.facets.empty()) {
    out.message = "facet " + std::to_string(seed) + " is not a usable facet of the surface";
    return out;
  }
  std::vector<Eigen::Vector3d> points, normals;
  for (int k : out.region.nodes) points.push_back(surface.coords[std::size_t(k)]);
  for (int f : out.region.facets) normals.push_back(facetNormal(surface, f));
  const CylinderFit fit = fitCylinder(points, normals);
  const std::string where = std::to_string(out.region.facets.size()) + " facets, " +
                            std::to_string(out.region.nodes.size()) + " nodes";
  if (!fit.ok()) {
    out.message = "no bore (" + where + "): " + fit.message;
    return out;
  }
  out.quality = fit.quality;
  out.centre = fit.centre;
  out.axis = fit.axis;
  out.radius = fit.radius;
  out.length = fit.length;
  out.rms = fit.rms;
  out.max_error = fit.max_error;
  // a hole's outward normals point at the axis
  double facing = 0.0;
  for (int f : out.region.facets) {
    const auto& t = surface.triangles[std::size_t(f)];
    const Eigen::Vector3d mid =
        (surface.coords[std::size_t(t[0])] + surface.coords[std::size_t(t[1])] + surface.coords[std::size_t(t[2])]) / 3.0;
    Eigen::Vector3d radial = mid - fit.centre;
    radial -= radial.dot(fit.axis) * fit.axis;
    facing += areaNormal(surface, f).dot(radial);
  }
  out.hole = facing < 0.0;
  out.message = std::string(out.hole ? "bore" : "outer cylinder") + " r = " + number(fit.radius * 1e3, 5) +
                " mm, axis " + triple(fit.axis, 1.0, 4) + ", centre " + triple(fit.centre, 1e3, 5) + " mm, length " +
                number(fit.length * 1e3, 4) + " mm";
  if (fit.arc_deg < 315.0) out.message += ", arc " + number(fit.arc_deg, 3) + " deg";
  out.message += ", " + where + ", rms " + mm(fit.rms);
  if (!fit.message.empty()) out.message += "; " + fit.message;
  return out;
}

SurfaceFeature fitFace(const TriangleSurface& surface, int seed, const RegionOptions& options) {
  SurfaceFeature out;
  out.kind = SurfaceFeature::Kind::Face;
  out.region = growRegion(surface, seed, options);
  if (out.region.facets.empty()) {
    out.message = "facet " + std::to_string(seed) + " is not a usable facet of the surface";
    return out;
  }
  std::vector<Eigen::Vector3d> points;
  for (int k : out.region.nodes) points.push_back(surface.coords[std::size_t(k)]);
  const PlaneFit fit = fitPlane(points);
  const std::string where = std::to_string(out.region.facets.size()) + " facets, " +
                            std::to_string(out.region.nodes.size()) + " nodes";
  if (!fit.ok()) {
    out.message = "no face (" + where + "): " + fit.message;
    return out;
  }
  // outward like the facets; the centre is the area centroid, put on the fitted plane
  Eigen::Vector3d facing = Eigen::Vector3d::Zero(), centre = Eigen::Vector3d::Zero();
  double area2 = 0.0;
  for (int f : out.region.facets) {
    const auto& t = surface.triangles[std::size_t(f)];
    const Eigen::Vector3d n = areaNormal(surface, f);
    const Eigen::Vector3d mid =
        (surface.coords[std::size_t(t[0])] + surface.coords[std::size_t(t[1])] + surface.coords[std::size_t(t[2])]) / 3.0;
    facing += n;
    centre += n.norm() * mid;
    area2 += n.norm();
  }
  out.axis = facing.dot(fit.normal) < 0.0 ? Eigen::Vector3d(-fit.normal) : fit.normal;
  centre /= area2;
  out.centre = centre - (centre - fit.centroid).dot(out.axis) * out.axis;
  out.quality = fit.quality;
  out.rms = fit.rms;
  out.max_error = fit.max_error;
  char area[32];
  std::snprintf(area, sizeof area, "%.4g", out.region.area * 1e6);
  out.message = "face normal " + triple(out.axis, 1.0, 4) + ", centre " + triple(out.centre, 1e3, 5) + " mm, area " +
                area + " mm^2, " + where + ", rms " + mm(fit.rms);
  if (!fit.message.empty()) out.message += "; " + fit.message;
  return out;
}

}  // namespace flexim::fe
