// Regions picked on an FE surface and their plane / cylinder fits: the bores
// and faces of the conrod (C3D10, curved tri6 faces split through their mid-edge nodes) and the
// bracket (C3D4) fixtures of tests/data/fe against their NSETs and the geometry of their .geo,
// the outer cylinder and end face of the round rod's .frb (what the GUI has at hand), and
// synthetic clouds: a tilted noisy cylinder, partial arcs, a plane and a sphere that must fail.
#include "core/fe/surface.h"
#include "core/fe/surface_regions.h"
#include "io/fe/calculix_inp.h"
#include "io/fe/reduced_body_file.h"
#include "tests/core_fe/fe_test_support.h"

#include <Eigen/Geometry>
#include <QtTest>

#include <chrono>
#include <cmath>
#include <fstream>
#include <numbers>
#include <random>

using namespace flexim;
using namespace flexim::fe;
using namespace flexim::fe::test;

namespace {

/// A deck and its outer surface, kept together because TriangleSurface only views them.
struct Meshed {
  FeModel model;
  std::vector<std::array<int, 3>> triangles;
  TriangleSurface surface() const { return {model.coords, triangles}; }
};

Meshed readMesh(const std::string& rel) {
  Meshed m;
  Diagnostics diag;
  if (!io::readCalculixInp(kData + rel, m.model, diag)) qWarning("%s", diag.str().c_str());
  m.triangles = outerSurface(m.model);
  return m;
}

std::vector<int> sorted(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  return v;
}

/// Angle between two axes, sign ignored [rad].
double axisAngle(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  return std::atan2(a.cross(b).norm(), std::abs(a.dot(b)));
}

/// Distance of point p from the line through c along unit w.
double lineDistance(const Eigen::Vector3d& p, const Eigen::Vector3d& c, const Eigen::Vector3d& w) {
  const Eigen::Vector3d d = p - c;
  return (d - d.dot(w) * w).norm();
}

/// Points on the cylinder (axis through c along unit w, radius r, axial -L/2 .. L/2) at angles
/// a0 .. a1, with Gaussian noise of sigma along the surface normal; normals out of `normals`.
std::vector<Eigen::Vector3d> cylinderPoints(const Eigen::Vector3d& c, const Eigen::Vector3d& w, double r, double L,
                                            double a0, double a1, double sigma, int n, std::mt19937& rng,
                                            std::vector<Eigen::Vector3d>* normals = nullptr) {
  Eigen::Vector3d u = w.unitOrthogonal(), v = w.cross(u);
  std::uniform_real_distribution<double> angle(a0, a1), axial(-L / 2, L / 2);
  std::normal_distribution<double> noise(0.0, sigma);
  std::vector<Eigen::Vector3d> out;
  for (int i = 0; i < n; ++i) {
    const double a = angle(rng);
    const Eigen::Vector3d radial = std::cos(a) * u + std::sin(a) * v;
    out.push_back(c + axial(rng) * w + (r + (sigma > 0 ? noise(rng) : 0.0)) * radial);
    if (normals) normals->push_back(radial);
  }
  return out;
}

}  // namespace

class SurfaceRegionsTest : public QObject {
  Q_OBJECT

 private slots:
  // Seeding on either bore of the conrod grows exactly its NSET (corner and mid-edge nodes of
  // the split tri6 faces), whatever facet of the bore the seed is; the fit finds the bore of
  // the .geo. Every node of the bores lies on the true circle (gmsh puts mid-edge nodes on the
  // geometry too), so only the rounding of the deck's 14-digit coordinates remains. Measured:
  // radius error 3.5e-17 m (big) and 8.7e-16 m (small), axis 2.5e-15 and 1.6e-14 rad, centre
  // 1.8e-17 and 3.3e-16 m, rms 2.7e-16 and 1.6e-15 m; asserted below 1e-12 (m, rad).
  void conrodBores_data() {
    QTest::addColumn<QString>("deck");
    QTest::addColumn<QString>("set");
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("r");
    QTest::newRow("ccx big") << "conrod/mesh_ccx.inp" << "BORE_BIG" << 0.0 << 0.013;
    QTest::newRow("ccx small") << "conrod/mesh_ccx.inp" << "BORE_SMALL" << 0.12 << 0.007;
    QTest::newRow("gmsh big") << "conrod/mesh_gmsh.inp" << "BORE_BIG" << 0.0 << 0.013;
    QTest::newRow("gmsh small") << "conrod/mesh_gmsh.inp" << "BORE_SMALL" << 0.12 << 0.007;
  }
  void conrodBores() {
    if (!fixturesReady()) QSKIP("FE fixtures not generated (tests/data/fe/README.md)");
    QFETCH(QString, deck);
    QFETCH(QString, set);
    QFETCH(double, x);
    QFETCH(double, r);
    const Meshed m = readMesh(deck.toStdString());
    QVERIFY(!m.triangles.empty());
    const std::vector<int> expected = sorted(m.model.node_sets.at(set.toStdString()));
    const TriangleSurface s = m.surface();

    // picked at mid-height on the side away from the web
    const int seed = nearestFacet(s, {x + r, 0.0, 0.006});
    QVERIFY(seed >= 0);
    const SurfaceFeature bore = fitBore(s, seed);
    qInfo("%s", bore.message.c_str());
    QVERIFY2(bore.ok(), bore.message.c_str());
    QCOMPARE(bore.quality, FitQuality::Good);
    QCOMPARE(bore.kind, SurfaceFeature::Kind::Bore);
    QVERIFY(bore.hole);
    QCOMPARE(bore.region.nodes, expected);
    QVERIFY(bore.message.rfind("bore r = ", 0) == 0);

    const double radiusError = std::abs(bore.radius - r);
    const double axisError = axisAngle(bore.axis, Eigen::Vector3d::UnitZ());
    const double centreError = (bore.centre - Eigen::Vector3d(x, 0.0, 0.006)).norm();
    qInfo("radius error %.3g m, axis %.3g rad, centre %.3g m, rms %.3g m, max %.3g m", radiusError, axisError,
          centreError, bore.rms, bore.max_error);
    QVERIFY(radiusError < 1e-12);
    QVERIFY(axisError < 1e-12);
    QVERIFY(centreError < 1e-12);
    QVERIFY(bore.rms < 1e-12 && bore.max_error < 1e-12);
    QVERIFY(bore.axis.z() > 0);  // the largest component positive
    QVERIFY(std::abs(bore.length - 0.012) < 1e-12);

    // the same region from every facet of it
    for (int f : bore.region.facets) QCOMPARE(growRegion(s, f, RegionOptions::smooth()).facets, bore.region.facets);
  }

  // The outer cylinders of the conrod's ends are cut by the web: outer (not holes), partial
  // arcs on the small end (the web takes about 49 of its 360 degrees).
  void conrodOuterCylinders() {
    if (!fixturesReady()) QSKIP("FE fixtures not generated (tests/data/fe/README.md)");
    const Meshed m = readMesh("conrod/mesh_ccx.inp");
    const TriangleSurface s = m.surface();
    const SurfaceFeature big = fitBore(s, nearestFacet(s, {-0.022, 0.0, 0.006}));
    const SurfaceFeature small = fitBore(s, nearestFacet(s, {0.132, 0.0, 0.006}));
    qInfo("%s", big.message.c_str());
    qInfo("%s", small.message.c_str());
    QVERIFY(big.ok() && small.ok());
    QVERIFY(!big.hole && !small.hole);
    QVERIFY(big.message.rfind("outer cylinder r = ", 0) == 0);
    QVERIFY(std::abs(big.radius - 0.022) < 1e-12 && std::abs(small.radius - 0.012) < 1e-12);
    QVERIFY((big.centre - Eigen::Vector3d(0.0, 0.0, 0.006)).norm() < 1e-12);
    QVERIFY((small.centre - Eigen::Vector3d(0.12, 0.0, 0.006)).norm() < 1e-12);
    QVERIFY(small.message.find(", arc ") != std::string::npos);
  }

  // The flat top face (z = 0.012): one region over big end, web and small end; the normal is
  // +z (outward) and the centre lies on the plane. Every surface node at z = 0.012 is in it.
  // A flat region is no bore, and its nodes are no cylinder.
  void conrodFaces() {
    if (!fixturesReady()) QSKIP("FE fixtures not generated (tests/data/fe/README.md)");
    const Meshed m = readMesh("conrod/mesh_ccx.inp");
    const TriangleSurface s = m.surface();
    const int seed = nearestFacet(s, {0.06, 0.0, 0.012});
    QVERIFY(seed >= 0);
    QVERIFY(std::abs(facetNormal(s, seed).z() - 1.0) < 1e-12);

    const SurfaceFeature top = fitFace(s, seed);
    qInfo("%s", top.message.c_str());
    QVERIFY2(top.ok(), top.message.c_str());
    QCOMPARE(top.quality, FitQuality::Good);
    QCOMPARE(top.kind, SurfaceFeature::Kind::Face);
    QVERIFY((top.axis - Eigen::Vector3d::UnitZ()).norm() < 1e-12);
    QVERIFY(std::abs(top.centre.z() - 0.012) < 1e-12);
    QVERIFY(top.rms < 1e-12);
    std::vector<int> onTop;
    for (const auto& t : m.triangles)
      for (int n : t)
        if (std::abs(m.model.coords[std::size_t(n)].z() - 0.012) < 1e-9) onTop.push_back(n);
    std::sort(onTop.begin(), onTop.end());
    onTop.erase(std::unique(onTop.begin(), onTop.end()), onTop.end());
    QCOMPARE(top.region.nodes, onTop);
    // the centre is the area centroid: between the ends, on the rod's line of symmetry
    QVERIFY(std::abs(top.centre.y()) < 1e-6);
    QVERIFY(top.centre.x() > 0.0 && top.centre.x() < 0.12);

    const SurfaceFeature bottom = fitFace(s, nearestFacet(s, {0.06, 0.0, 0.0}));
    QVERIFY(bottom.ok());
    QVERIFY((bottom.axis + Eigen::Vector3d::UnitZ()).norm() < 1e-12);
    QCOMPARE(bottom.region.nodes.size(), top.region.nodes.size());

    // a face is no bore
    const SurfaceFeature notBore = fitBore(s, seed);
    qInfo("%s", notBore.message.c_str());
    QVERIFY(!notBore.ok());
    QVERIFY(notBore.message.find("flat") != std::string::npos);
    std::vector<Eigen::Vector3d> points;
    for (int n : top.region.nodes) points.push_back(m.model.coords[std::size_t(n)]);
    const CylinderFit plane = fitCylinder(points);
    QCOMPARE(plane.quality, FitQuality::Failed);
    QVERIFY(plane.message.find("not a cylinder") != std::string::npos);

    // a bore picked as a face: the tight cone keeps one sliver of facets, not the bore
    const int boreSeed = nearestFacet(s, {0.013, 0.0, 0.006});
    const SurfaceRegion sliver = growRegion(s, boreSeed, RegionOptions::flat());
    QVERIFY(sliver.nodes.size() < 20);
  }

  // The bolt hole of the first-order bracket: 11 facets round (edges up to 37.7 degrees), one region
  // with the 40 degree default; its nodes are the NSET HOLE and lie on the circle.
  void bracketHole() {
    if (!fixturesReady()) QSKIP("FE fixtures not generated (tests/data/fe/README.md)");
    const Meshed m = readMesh("bracket/mesh_ccx.inp");
    const TriangleSurface s = m.surface();
    const int seed = nearestFacet(s, {0.044, 0.02, 0.0025});
    const SurfaceFeature hole = fitBore(s, seed);
    qInfo("%s", hole.message.c_str());
    QVERIFY2(hole.ok(), hole.message.c_str());
    QVERIFY(hole.hole);
    QCOMPARE(hole.region.nodes, sorted(m.model.node_sets.at("HOLE")));
    const double radiusError = std::abs(hole.radius - 0.004);
    const double centreError = (hole.centre - Eigen::Vector3d(0.04, 0.02, 0.0025)).norm();
    qInfo("radius error %.3g m, axis %.3g rad, centre %.3g m", radiusError, axisAngle(hole.axis, Eigen::Vector3d::UnitZ()),
          centreError);
    QVERIFY(radiusError < 1e-12 && centreError < 1e-12);
    QVERIFY(axisAngle(hole.axis, Eigen::Vector3d::UnitZ()) < 1e-12);
    // a 30 degree crease cuts some of its edges: the region is then smaller
    QVERIFY(growRegion(s, seed, RegionOptions::smooth(30.0)).facets.size() < hole.region.facets.size());

    // the upright's top face (NSET TOP) as a face
    const SurfaceFeature top = fitFace(s, nearestFacet(s, {0.0025, 0.02, 0.05}));
    QVERIFY(top.ok());
    QCOMPARE(top.region.nodes, sorted(m.model.node_sets.at("TOP")));
    QVERIFY((top.axis - Eigen::Vector3d::UnitZ()).norm() < 1e-12);
  }

  // What the GUI has: a ReducedBody from a .frb. The round rod's mantle is an outer cylinder
  // (8 arcs of 45 degrees, tri6 split: 22.5 degree edges), its end a flat face.
  void reducedBodyRod() {
    if (!fixturesReady()) QSKIP("FE fixtures not generated (tests/data/fe/README.md)");
    ReducedBody body;
    std::string error;
    QVERIFY2(io::loadReducedBody(kData + "rod/rod_round_c3d10.frb", body, &error), error.c_str());
    const TriangleSurface s{body.coords, body.surface};

    const auto start = std::chrono::steady_clock::now();
    const SurfaceFeature mantle = fitBore(s, nearestFacet(s, {0.15, 0.0, 0.003}));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    qInfo("%s (%.3f s, %zu triangles)", mantle.message.c_str(), seconds, body.surface.size());
    QVERIFY2(mantle.ok(), mantle.message.c_str());
    QVERIFY(!mantle.hole);
    QVERIFY(mantle.message.rfind("outer cylinder r = ", 0) == 0);
    QVERIFY(std::abs(mantle.radius - 0.003) < 1e-9);
    QVERIFY(axisAngle(mantle.axis, Eigen::Vector3d::UnitX()) < 1e-9);
    QVERIFY((mantle.centre - Eigen::Vector3d(0.15, 0.0, 0.0)).norm() < 1e-9);
    QVERIFY(std::abs(mantle.length - 0.3) < 1e-9);
    // 81 node planes (40 layers, mid-edge planes between) x 16 nodes round (8 corners, 8 mid)
    QCOMPARE(int(mantle.region.nodes.size()), 81 * 16);

    const SurfaceFeature end = fitFace(s, nearestFacet(s, {0.3, 0.001, 0.001}));
    QVERIFY2(end.ok(), end.message.c_str());
    QVERIFY((end.axis - Eigen::Vector3d::UnitX()).norm() < 1e-9);
    QVERIFY((end.centre - Eigen::Vector3d(0.3, 0.0, 0.0)).norm() < 1e-9);
    QCOMPARE(int(end.region.nodes.size()), 25);  // NSET END_B of the deck
  }

  // A tilted cylinder with noise, from points alone and with normals: the errors are of the
  // order of sigma / sqrt(points). Measured (r = 0.05 m, sigma = 5e-3 r, 2000 points, both
  // ways): radius error 5.7e-6 m, axis 1.2e-4 rad, centre 1.9e-6 m off the axis, rms = sigma.
  void syntheticTilted() {
    std::mt19937 rng(7);
    const Eigen::Vector3d c(0.1, -0.2, 0.3), w = Eigen::Vector3d(1, 2, 3).normalized();
    const double r = 0.05, L = 0.2, sigma = 5e-3 * r;
    std::vector<Eigen::Vector3d> normals;
    const auto points = cylinderPoints(c, w, r, L, 0.0, 2 * std::numbers::pi, sigma, 2000, rng, &normals);
    for (bool withNormals : {false, true}) {
      const CylinderFit fit = withNormals ? fitCylinder(points, normals) : fitCylinder(points);
      QVERIFY2(fit.ok(), fit.message.c_str());
      QCOMPARE(fit.quality, FitQuality::Good);
      const double radiusError = std::abs(fit.radius - r), axisError = axisAngle(fit.axis, w);
      const double centreError = lineDistance(fit.centre, c, w);
      qInfo("normals %d: radius error %.3g, axis %.3g rad, centre off axis %.3g, rms %.3g (sigma %.3g), %d iterations",
            int(withNormals), radiusError, axisError, centreError, fit.rms, sigma, fit.iterations);
      QVERIFY(radiusError < 3e-5);
      QVERIFY(axisError < 3e-4);
      QVERIFY(centreError < 3e-5);
      QVERIFY(std::abs(fit.rms - sigma) < 0.1 * sigma);
      QVERIFY(std::abs((fit.centre - c).dot(w)) < 0.01);  // mid-length
      QVERIFY(fit.arc_deg > 355);
    }
  }

  // Partial arcs: a half bore (180 degrees) with noise, and a quarter without, still fit.
  // Measured (half, sigma = 1e-5 m, 400 points): radius error 6.2e-7 m, axis 4.1e-4 rad,
  // centre 1.0e-6 m; quarter: 2e-18 m, 8e-17 rad.
  void partialArcs() {
    std::mt19937 rng(11);
    const Eigen::Vector3d c(0.02, 0.01, -0.03), w = Eigen::Vector3d(0.2, -0.1, 1).normalized();
    const double r = 0.013, L = 0.012;
    {
      const auto points = cylinderPoints(c, w, r, L, 0.0, std::numbers::pi, 1e-5, 400, rng);
      const CylinderFit fit = fitCylinder(points);
      qInfo("half: radius error %.3g, axis %.3g rad, centre %.3g, arc %.1f deg", std::abs(fit.radius - r),
            axisAngle(fit.axis, w), lineDistance(fit.centre, c, w), fit.arc_deg);
      QVERIFY2(fit.ok(), fit.message.c_str());
      QVERIFY(std::abs(fit.radius - r) < 1e-5);
      QVERIFY(axisAngle(fit.axis, w) < 3e-3);
      QVERIFY(lineDistance(fit.centre, c, w) < 1e-5);
      QVERIFY(fit.arc_deg > 170 && fit.arc_deg <= 180.0 + 1e-9);
    }
    {
      const auto points = cylinderPoints(c, w, r, L, 1.0, 1.0 + std::numbers::pi / 2, 0.0, 200, rng);
      const CylinderFit fit = fitCylinder(points);
      QVERIFY2(fit.ok(), fit.message.c_str());
      qInfo("quarter: radius error %.3g, axis %.3g rad", std::abs(fit.radius - r), axisAngle(fit.axis, w));
      QVERIFY(std::abs(fit.radius - r) < 1e-10);
      QVERIFY(axisAngle(fit.axis, w) < 1e-9);
    }
  }

  // What must fail, and say why.
  void failures() {
    std::mt19937 rng(3);
    // too few points
    const std::vector<Eigen::Vector3d> five{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
    CylinderFit fit = fitCylinder(five);
    QCOMPARE(fit.quality, FitQuality::Failed);
    QVERIFY(fit.message.find("too few points") != std::string::npos);
    QVERIFY(!fitPlane(std::vector<Eigen::Vector3d>{{0, 0, 0}, {1, 0, 0}}).ok());
    QVERIFY(!fitPlane(std::vector<Eigen::Vector3d>{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}}).ok());

    // a noisy plane: no exact coplanarity, still no cylinder
    std::uniform_real_distribution<double> uniform(-0.05, 0.05);
    std::normal_distribution<double> noise(0.0, 1e-6);
    std::vector<Eigen::Vector3d> plane, planeNormals;
    const Eigen::Matrix3d R = Eigen::AngleAxisd(0.4, Eigen::Vector3d(1, 1, 0).normalized()).toRotationMatrix();
    for (int i = 0; i < 500; ++i) {
      plane.push_back(R * Eigen::Vector3d(uniform(rng), uniform(rng), noise(rng)));
      planeNormals.push_back(R.col(2));
    }
    for (bool withNormals : {false, true}) {
      fit = withNormals ? fitCylinder(plane, planeNormals) : fitCylinder(plane);
      qInfo("noisy plane: %s (r %.3g)", fit.message.c_str(), fit.radius);
      QCOMPARE(fit.quality, FitQuality::Failed);
      QVERIFY(fit.message.find("plane") != std::string::npos);
    }
    const PlaneFit pf = fitPlane(plane);
    QCOMPARE(pf.quality, FitQuality::Good);
    QVERIFY(axisAngle(pf.normal, R.col(2)) < 1e-4);

    // a sphere is not a cylinder
    std::vector<Eigen::Vector3d> sphere;
    std::normal_distribution<double> gauss;
    for (int i = 0; i < 500; ++i) sphere.push_back(0.02 * Eigen::Vector3d(gauss(rng), gauss(rng), gauss(rng)).normalized());
    fit = fitCylinder(sphere);
    qInfo("sphere: %s", fit.message.c_str());
    QCOMPARE(fit.quality, FitQuality::Failed);
    QVERIFY(fit.message.find("not a cylinder") != std::string::npos);

    // a seed that is no facet
    const std::vector<Eigen::Vector3d> coords{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    const std::vector<std::array<int, 3>> tris{{0, 1, 2}, {0, 1, 1}, {0, 1, 7}};
    const TriangleSurface s{coords, tris};
    QVERIFY(growRegion(s, 5).facets.empty());
    QVERIFY(growRegion(s, 1).facets.empty());  // degenerate
    QVERIFY(growRegion(s, 2).facets.empty());  // node out of range
    QCOMPARE(growRegion(s, 0).facets, std::vector<int>{0});
    QVERIFY(!fitBore(s, -1).ok());
    QCOMPARE(nearestFacet(s, {0.2, 0.2, 1.0}), 0);
    QCOMPARE(nearestFacet(TriangleSurface{}, {0, 0, 0}), -1);
  }
};

QTEST_GUILESS_MAIN(SurfaceRegionsTest)
#include "surface_regions_test.moc"
