// Mass properties of closed triangle surfaces (core/geometry/mass_properties.h) against closed
// forms, in double precision: a box rotated and far from the origin, a regular prism (the
// faceted cylinder), a mesh in mm; the welding of STL's per-facet vertices; and the surfaces
// that must be refused (open, non-manifold, a facet turned, overlapping shells) or turned
// (inside out) with the message that says so.
#include "core/geometry/mass_properties.h"
#include "tests/core/solid_references.h"

#include <Eigen/Geometry>
#include <QtTest>

#include <random>

using namespace flexim;
using namespace flexim::test;
using geometry::MassPropertiesOptions;
using geometry::TriangleMesh;

namespace {

MassPropertiesOptions withDensity(double rho, double scale = 1.0) {
  MassPropertiesOptions o;
  o.density = rho;
  o.scale = scale;
  return o;
}

/// Two meshes as one (the second's indices shifted).
TriangleMesh join(const TriangleMesh& a, const TriangleMesh& b) {
  TriangleMesh m = a;
  const int offset = static_cast<int>(a.vertices.size());
  m.vertices.insert(m.vertices.end(), b.vertices.begin(), b.vertices.end());
  for (auto t : b.triangles) m.triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
  return m;
}

TriangleMesh turned(TriangleMesh m) {
  for (auto& t : m.triangles) std::swap(t[1], t[2]);
  return m;
}

Eigen::Matrix3d randomRotation(unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> g;
  return Eigen::Quaterniond(g(rng), g(rng), g(rng), g(rng)).normalized().toRotationMatrix();
}

}  // namespace

class MassPropertiesTest : public QObject {
  Q_OBJECT

 private slots:
  /// A 3 x 1.5 x 0.75 m steel box turned by a random rotation, 1 km from the origin, its facets
  /// stored as STL stores them: the closed form to round-off, and principal axes along the edges.
  void rotatedBoxFarFromTheOrigin() {
    const Eigen::Matrix3d R = randomRotation(3);
    const Vector3d edges(3, 1.5, 0.75), centre(1000.5, -250.25, 40.125);
    const SolidReference ref = boxReference(edges, R, centre, 7850);
    const auto r = geometry::computeMassProperties(perFacet(boxMesh(edges, R, centre)), withDensity(7850));
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY(r.warnings.empty());
    QCOMPARE(r.vertices_read, 36L);
    QCOMPARE(r.vertices, 8L);
    QCOMPARE(r.triangles, 12L);
    QCOMPARE(r.shells, 1);
    const double err = relativeError(r.properties, ref);
    qInfo("rotated box 1 km from the origin: largest relative error %.2e", err);
    QVERIFY2(err <= 1e-9, qPrintable(QString::number(err)));
    // principal moments ascending: the longest edge's axis has the smallest moment
    const geometry::MassProperties& p = r.properties;
    QVERIFY(p.principal_moments(0) <= p.principal_moments(1) && p.principal_moments(1) <= p.principal_moments(2));
    QVERIFY(std::abs(p.principal_axes.determinant() - 1) < 1e-12);
    for (int k = 0; k < 3; ++k) QVERIFY(std::abs(std::abs(p.principal_axes.col(k).dot(R.col(k))) - 1) < 1e-9);
    const Eigen::Matrix3d back = p.principal_axes * p.principal_moments.asDiagonal() * p.principal_axes.transpose();
    QVERIFY((back - p.inertia).norm() <= 1e-12 * p.inertia.norm());
  }

  /// Why the integrals are taken about a point near the mesh: about the origin, the tetrahedra of
  /// a 0.3 m box 2e5 m away are 1e15 times its volume and cancel to nothing; about its
  /// bounding-box centre (computeMassProperties) only the vertices' own round-off is left.
  void referencePointKeepsTheDigits() {
    const Eigen::Matrix3d R = randomRotation(5);
    const Vector3d edges(0.3, 0.2, 0.1), centre(1e5, -2e5, 5e4);
    const SolidReference ref = boxReference(edges, R, centre, 1000);
    const TriangleMesh box = boxMesh(edges, R, centre);
    const double nearErr = relativeError(geometry::computeMassProperties(box, withDensity(1000)).properties, ref);
    const double originErr = relativeError(geometry::integrateSurface(box, 1000, Vector3d::Zero()), ref);
    qInfo("box 2e5 m away: relative error %.2e about its centre, %.2e about the origin", nearErr, originErr);
    QVERIFY2(nearErr <= 1e-9, qPrintable(QString::number(nearErr)));
    QVERIFY(originErr > 1e3 * nearErr);
  }

  /// A regular 24-gon prism (what a faceted cylinder is): the prism's closed form to round-off;
  /// the true cylinder is 1.1 % heavier.
  void facetedCylinderIsAPrism() {
    const int n = 24;
    const double r = 0.05, h = 0.2;
    const Vector3d centre(0.3, -0.2, 0.1);
    const auto result = geometry::computeMassProperties(perFacet(prismMesh(n, r, h, centre)), withDensity(2700));
    QVERIFY2(result.ok, result.error.c_str());
    QCOMPARE(result.vertices, 2L * n + 2);
    const double err = relativeError(result.properties, prismReference(n, r, h, centre, 2700));
    const SolidReference cylinder = cylinderReference(r, h, centre, 2700);
    const double massGap = 1 - result.properties.mass / cylinder.mass;
    const double axialGap = 1 - result.properties.inertia(2, 2) / cylinder.inertia(2, 2);
    qInfo("24-gon prism: relative error %.2e against its closed form; %.3f %% lighter than the cylinder, "
          "axial moment %.3f %% smaller",
          err, 100 * massGap, 100 * axialGap);
    QVERIFY2(err <= 1e-9, qPrintable(QString::number(err)));
    // 1 - 24/(2 pi) sin(15 deg) = 1.138 %
    QVERIFY(std::abs(massGap - (1 - n / (2 * std::numbers::pi) * std::sin(2 * std::numbers::pi / n))) < 1e-12);
  }

  /// --scale: a mesh in millimetres with scale 0.001 gives the same SI answer.
  void millimetres() {
    const Eigen::Matrix3d R = randomRotation(11);
    const Vector3d edges(120, 40, 8), centre(350, 20, -75);  // mm
    const SolidReference ref = boxReference(edges / 1000, R, centre / 1000, 7850);
    const auto r = geometry::computeMassProperties(perFacet(boxMesh(edges, R, centre)), withDensity(7850, 0.001));
    QVERIFY2(r.ok, r.error.c_str());
    const double err = relativeError(r.properties, ref);
    qInfo("box in mm, scale 0.001: relative error %.2e", err);
    QVERIFY2(err <= 1e-9, qPrintable(QString::number(err)));
  }

  /// Per-facet vertices that differ in the last digits (an exporter rounding each facet on its
  /// own) weld into one; vertices a hair further apart than the tolerance do not.
  void weldingWithinTheTolerance() {
    TriangleMesh stl = perFacet(boxMesh(Vector3d(1, 2, 3), Eigen::Matrix3d::Identity(), Vector3d(10, 0, 0)));
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> noise(-1e-9, 1e-9);
    for (auto& v : stl.vertices) v += Vector3d(noise(rng), noise(rng), noise(rng));
    auto r = geometry::computeMassProperties(stl, withDensity(1));
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(r.vertices, 8L);
    QVERIFY(std::abs(r.properties.volume - 6) < 1e-7);
    // exact welding keeps the 36 vertices apart: every edge is a boundary edge
    long dropped = -1;
    const TriangleMesh exact = geometry::weldVertices(stl, 0.0, &dropped);
    QCOMPARE(exact.vertices.size(), std::size_t(36));
    QCOMPARE(dropped, 0L);
    QCOMPARE(geometry::checkSurface(exact).boundary_edges, 36L);
    // a tolerance that merges two corners of a triangle drops it
    TriangleMesh sliver = boxMesh(Vector3d(1, 1, 1), Eigen::Matrix3d::Identity(), Vector3d::Zero());
    sliver.vertices.push_back(sliver.vertices[0] + Vector3d(1e-12, 0, 0));
    sliver.triangles.push_back({0, 8, 1});
    const TriangleMesh welded = geometry::weldVertices(sliver, 1e-9, &dropped);
    QCOMPARE(welded.vertices.size(), std::size_t(8));
    QCOMPARE(dropped, 1L);
  }

  /// One facet missing: refused, with the count of boundary edges and one of them.
  void openSurfaceIsRefused() {
    TriangleMesh box = perFacet(boxMesh(Vector3d(1, 2, 3), Eigen::Matrix3d::Identity(), Vector3d::Zero()));
    box.triangles.erase(box.triangles.begin());  // the +x face's first triangle: (4, 6, 7) of the corners
    const auto r = geometry::computeMassProperties(box, withDensity(1000));
    QVERIFY(!r.ok);
    QVERIFY2(r.error.find("not the closed surface of a solid: 3 boundary edges (each in one triangle only: the "
                          "surface is open), e.g. the edge (") != std::string::npos,
             r.error.c_str());
    // the example is an edge of the missing triangle
    int corners = 0;
    for (const char* corner : {"(0.5, -1, -1.5)", "(0.5, 1, -1.5)", "(0.5, 1, 1.5)"})
      corners += r.error.find(corner) != std::string::npos;
    QVERIFY2(corners == 2, r.error.c_str());
    QVERIFY2(r.error.find("(file coordinates)") != std::string::npos, r.error.c_str());
  }

  /// One facet turned: each of its edges runs the same way as its neighbour's.
  void flippedFacetIsRefused() {
    TriangleMesh box = boxMesh(Vector3d(1, 2, 3), Eigen::Matrix3d::Identity(), Vector3d::Zero());
    std::swap(box.triangles[0][1], box.triangles[0][2]);
    const auto r = geometry::computeMassProperties(box, withDensity(1000));
    QVERIFY(!r.ok);
    QVERIFY2(r.error.find("3 inconsistently oriented edge(s) (used twice in the same direction: a triangle faces the "
                          "wrong way), e.g. the edge (") != std::string::npos,
             r.error.c_str());
  }

  /// Two boxes sharing an edge: that edge is in four triangles.
  void nonManifoldEdgeIsRefused() {
    const auto I = Eigen::Matrix3d::Identity();
    const TriangleMesh two =
        join(boxMesh(Vector3d(1, 1, 1), I, Vector3d::Zero()), boxMesh(Vector3d(1, 1, 1), I, Vector3d(1, 1, 0)));
    const auto r = geometry::computeMassProperties(two, withDensity(1000));
    QVERIFY(!r.ok);
    QVERIFY2(r.error.find("1 non-manifold edge(s) (in three or more triangles: sheets or solids meet along an edge), "
                          "e.g. the edge (0.5, 0.5, -0.5) - (0.5, 0.5, 0.5)") != std::string::npos,
             r.error.c_str());
  }

  /// All facets facing inwards: accepted with a warning, as the solid they enclose.
  void insideOutIsTurnedWithAWarning() {
    const Eigen::Matrix3d R = randomRotation(7);
    const Vector3d edges(0.4, 0.1, 0.2), centre(1, 2, 3);
    const auto r = geometry::computeMassProperties(turned(boxMesh(edges, R, centre)), withDensity(7850));
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY(r.inside_out);
    QCOMPARE(r.flipped_shells, 1);
    QCOMPARE(r.warnings.size(), std::size_t(1));
    QVERIFY2(r.warnings[0].find("the surface is inside out") != std::string::npos, r.warnings[0].c_str());
    QVERIFY(relativeError(r.properties, boxReference(edges, R, centre, 7850)) <= 1e-12);
  }

  /// Shells: a box with a box-shaped cavity (inner shell facing inwards) is the difference of the
  /// two boxes, also when the whole surface is inside out; a cavity facing outwards (or a solid
  /// overlapping another) is refused; a separate box inside out is turned with a warning.
  void shellsAndCavities() {
    const auto I = Eigen::Matrix3d::Identity();
    const Vector3d outerEdges(2, 2, 2), innerEdges(1, 0.5, 0.25), c(5, 5, 5), off(0.3, -0.2, 0.1);
    const TriangleMesh outer = boxMesh(outerEdges, I, c), inner = boxMesh(innerEdges, I, c + off);
    SolidReference a = boxReference(outerEdges, I, c, 1), b = boxReference(innerEdges, I, c + off, 1);
    SolidReference hollow;
    hollow.volume = hollow.mass = a.mass - b.mass;
    hollow.centre = (a.mass * a.centre - b.mass * b.centre) / hollow.mass;
    const auto shift = [](const SolidReference& s, const Vector3d& to) {  // inertia about `to`
      const Vector3d d = s.centre - to;
      return Eigen::Matrix3d(s.inertia + s.mass * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose()));
    };
    hollow.inertia = shift(a, hollow.centre) - shift(b, hollow.centre);

    auto r = geometry::computeMassProperties(join(outer, turned(inner)), withDensity(1));
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(r.shells, 2);
    QVERIFY(r.warnings.empty());
    double err = relativeError(r.properties, hollow);
    qInfo("box with a cavity: relative error %.2e", err);
    QVERIFY2(err <= 1e-9, qPrintable(QString::number(err)));

    r = geometry::computeMassProperties(turned(join(outer, turned(inner))), withDensity(1));
    QVERIFY2(r.ok && r.inside_out && r.flipped_shells == 2, r.error.c_str());
    QVERIFY(relativeError(r.properties, hollow) <= 1e-9);

    r = geometry::computeMassProperties(join(outer, inner), withDensity(1));
    QVERIFY(!r.ok);
    QVERIFY2(r.error.find("1 shell(s) of 2 lie inside another shell but face outwards: shell 2 (around (") != std::string::npos &&
                 r.error.find("a cavity must face inwards, and solids must not overlap") != std::string::npos,
             r.error.c_str());

    // two separate boxes, the second inside out
    const TriangleMesh far = boxMesh(innerEdges, I, c + Vector3d(10, 0, 0));
    r = geometry::computeMassProperties(join(outer, turned(far)), withDensity(1));
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY(!r.inside_out);
    QCOMPARE(r.flipped_shells, 1);
    QVERIFY2(r.warnings.size() == 1 && r.warnings[0].find("1 of the 2 shells face inwards but lie inside no other shell") == 0,
             r.warnings.empty() ? "no warning" : r.warnings[0].c_str());
    QVERIFY(std::abs(r.properties.volume - (8 + 0.125)) < 1e-12);
  }

  /// The primitives of a body's visual (box, cylinder, sphere) in closed form: the box against
  /// the integration of its closed surface, the cylinder against the reference's formula and its
  /// faceted prisms, which approach it from below as the facets get finer; the sphere against
  /// the volume and moment of a solid of revolution summed in thin discs.
  void primitives() {
    const Vector3d edges(0.3, 0.2, 0.05);
    const auto box = geometry::boxMassProperties(edges, 7850);
    const auto meshBox = geometry::computeMassProperties(perFacet(boxMesh(edges, Eigen::Matrix3d::Identity(), Vector3d::Zero())), withDensity(7850));
    QVERIFY(meshBox.ok);
    QVERIFY(std::abs(box.mass - meshBox.properties.mass) < 1e-12 * box.mass);
    QVERIFY((box.inertia - meshBox.properties.inertia).norm() < 1e-12 * box.inertia.norm());
    QVERIFY(box.centre.isZero(0));

    const double r = 0.02, h = 0.1, rho = 2700;
    const auto cylinder = geometry::cylinderMassProperties(r, h, rho);
    const SolidReference ref = cylinderReference(r, h, Vector3d::Zero(), rho);
    QVERIFY(std::abs(cylinder.mass / ref.mass - 1) < 1e-14);
    QVERIFY((cylinder.inertia - ref.inertia).norm() < 1e-14 * ref.inertia.norm());
    double previous = 0;
    for (int n : {12, 48, 192, 768}) {  // inscribed prisms: lighter, converging as 1/n^2
      const SolidReference prism = prismReference(n, r, h, Vector3d::Zero(), rho);
      QVERIFY(prism.mass < cylinder.mass && prism.mass > previous);
      previous = prism.mass;
    }
    QVERIFY(1 - previous / cylinder.mass < 2e-5);

    // the sphere as 20000 discs of radius sqrt(R^2 - z^2): volume and the moment about z
    const double R = 0.05;
    const auto sphere = geometry::sphereMassProperties(R, rho);
    double volume = 0, axial = 0;
    const int discs = 20000;
    for (int i = 0; i < discs; ++i) {
      const double z = -R + (i + 0.5) * 2 * R / discs, a2 = R * R - z * z, dz = 2 * R / discs;
      volume += std::numbers::pi * a2 * dz;
      axial += rho * std::numbers::pi * a2 * dz * a2 / 2;
    }
    QVERIFY(std::abs(sphere.volume / volume - 1) < 1e-8);
    QVERIFY(std::abs(sphere.inertia(2, 2) / axial - 1) < 1e-8);
    QVERIFY(sphere.inertia.isDiagonal(0) && sphere.inertia(0, 0) == sphere.inertia(2, 2));
  }

  void nothingToMeasure() {
    geometry::TriangleMesh flat;  // two triangles back to back: closed, no volume
    flat.vertices = {Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 0)};
    flat.triangles = {{0, 1, 2}, {0, 2, 1}};
    auto r = geometry::computeMassProperties(flat, withDensity(1));
    QVERIFY2(!r.ok && r.error.find("the surface encloses no volume") == 0, r.error.c_str());
    r = geometry::computeMassProperties(geometry::TriangleMesh{}, withDensity(1));
    QVERIFY2(!r.ok && r.error == "the mesh has no triangles", r.error.c_str());
    const TriangleMesh box = boxMesh(Vector3d(1, 1, 1), Eigen::Matrix3d::Identity(), Vector3d::Zero());
    r = geometry::computeMassProperties(box, withDensity(0));
    QVERIFY(!r.ok && r.error.find("density") != std::string::npos);
    r = geometry::computeMassProperties(box, withDensity(1, -1));
    QVERIFY(!r.ok && r.error.find("scale") != std::string::npos);
  }
};

QTEST_GUILESS_MAIN(MassPropertiesTest)
#include "mass_properties_test.moc"
