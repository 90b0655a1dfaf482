// ModelScene offscreen: the picture is not blank, moves where a body moves, and matches the
// committed reference image. Regenerate the reference with FLEXIM_UPDATE_REFERENCE=1 (then
// look at it before committing: tests/render/data/two_link_scene.png).
// Flexible bodies: the displayed surface is pose o (x + scale Phi w) on a hand-made reduced
// body, and a real reduced body (tests/data/fe/rod) renders and deforms.
#include "core/fe/reduced_body.h"
#include "io/fe/reduced_body_file.h"
#include "io/model_json.h"
#include "render/flexible_surface.h"
#include "render/inertia_shape.h"
#include "render/model_scene.h"
#include "render/offscreen_render.h"
#include "render/palette.h"
#include "render/video_writer.h"

#include <QFile>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <QtTest>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkDataArray.h>
#include <vtkLookupTable.h>
#include <vtkMapper.h>
#include <vtkMatrix4x4.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>

#include <cstdlib>
#include <memory>

using namespace flexim;
using namespace flexim::render;

namespace {

constexpr int kWidth = 640;
constexpr int kHeight = 480;

// Slender bar along body x with a square cross-section.
RigidBodySpec bar(const std::string& name, double length, const Vec3& centre) {
  RigidBodySpec body;
  body.name = name;
  body.mass = 1.0;
  const double a = length, b = 0.04, c = 0.04;
  body.inertia = Vec3(b * b + c * c, a * a + c * c, a * a + b * b).asDiagonal();
  body.inertia /= 12.0;
  body.position = centre;
  body.markers.push_back({"base", Vec3(-0.5 * length, 0, 0), Quat::Identity()});
  body.markers.push_back({"tip", Vec3(0.5 * length, 0, 0), Quat::Identity()});
  return body;
}

// A double pendulum in the xy plane: ground -rev- link1 -rev- link2, gravity -y.
ModelSpec twoLinkModel() {
  ModelSpec model;
  model.name = "two-link pendulum";
  model.gravity = Vec3(0, -9.81, 0);
  model.ground_markers.push_back({"pivot", Vec3::Zero(), Quat::Identity()});
  model.bodies.push_back(bar("link1", 0.4, Vec3(0.2, 0, 0)));
  model.bodies.push_back(bar("link2", 0.3, Vec3(0.55, 0, 0)));
  model.joints.push_back({"shoulder", JointType::Revolute, kGroundName, "pivot", "link1", "base"});
  model.joints.push_back({"elbow", JointType::Revolute, "link1", "tip", "link2", "base"});
  return model;
}

std::vector<BodyPose> initialPoses(const ModelSpec& model) {
  std::vector<BodyPose> poses;
  for (const RigidBodySpec& b : model.bodies) poses.push_back({b.position, b.orientation});
  return poses;
}

const std::uint8_t* backgroundRgb() {
  static std::uint8_t rgb[3];
  for (int c = 0; c < 3; ++c) rgb[c] = std::uint8_t(kBackgroundBottom[std::size_t(c)] * 255.0 + 0.5);
  return rgb;
}

// Pixel position (x right, y down) of a world point in an image of the given size.
QPointF project(vtkRenderer* renderer, const Vec3& p, int width, int height) {
  vtkMatrix4x4* m = renderer->GetActiveCamera()->GetCompositeProjectionTransformMatrix(
      double(width) / height, -1, 1);
  const double in[4] = {p.x(), p.y(), p.z(), 1.0};
  double out[4];
  m->MultiplyPoint(in, out);
  const double x = out[0] / out[3], y = out[1] / out[3];
  return {0.5 * (x + 1.0) * width, (1.0 - 0.5 * (y + 1.0)) * height};
}

// Largest distance from background within a small square around a pixel.
int contrastNear(const RgbImage& image, QPointF at, int radius = 3) {
  int best = 0;
  for (int dy = -radius; dy <= radius; ++dy)
    for (int dx = -radius; dx <= radius; ++dx) {
      const int x = int(at.x()) + dx, y = int(at.y()) + dy;
      if (x < 0 || y < 0 || x >= image.width || y >= image.height) continue;
      best = std::max(best, channelDistance(image.pixel(x, y), backgroundRgb()));
    }
  return best;
}

SceneOptions plainOptions() {
  SceneOptions options;
  options.gradientBackground = false;
  options.showFloor = false;
  options.showLabels = false;
  options.showOrientationAxes = false;
  return options;
}

// A 0.2 x 0.05 m strip of 2 x 3 surface nodes in the FE xy plane (4 display triangles) plus
// one inner node that is not on the surface, with two made-up modes: bending out of the plane
// (z = (x / 0.2)^2) and a twist-like mode with all three components.
std::shared_ptr<fe::ReducedBody> handMadeStrip() {
  auto body = std::make_shared<fe::ReducedBody>();
  body->name = "strip";
  const double xs[3] = {0.0, 0.1, 0.2}, ys[2] = {0.0, 0.05};
  for (double y : ys)
    for (double x : xs) body->coords.push_back(Vec3(x, y, 0.0));
  body->coords.push_back(Vec3(0.1, 0.025, 0.004));  // inner node 6
  const int n = int(body->coords.size());
  for (int i = 0; i < n; ++i) {
    body->node_ids.push_back(101 + i);
    body->node_mass.push_back(0.01);
  }
  body->modes.resize(3 * n, 2);
  for (int i = 0; i < n; ++i) {
    const Vec3& x = body->coords[std::size_t(i)];
    body->modes.block<3, 1>(3 * i, 0) = Vec3(0.0, 0.0, (x.x() / 0.2) * (x.x() / 0.2));
    body->modes.block<3, 1>(3 * i, 1) = Vec3(0.3 * x.y(), -0.5 * x.x(), 2.0 * x.x() * (x.y() - 0.025));
  }
  body->eigenvalues = Eigen::Vector2d(1e4, 4e4);
  body->kinds = {fe::ModeKind::Elastic, fe::ModeKind::Elastic};
  // quads (0 1 4 3) and (1 2 5 4), two triangles each
  body->surface = {{0, 1, 4}, {0, 4, 3}, {1, 2, 5}, {1, 5, 4}};
  return body;
}

// One rigid body, the strip as a flexible body (rotated and moved), a virtual body on it.
/// The hand-made strip with two made-up stress modes (linear in x and y).
std::shared_ptr<fe::ReducedBody> stressedStrip() {
  auto strip = handMadeStrip();
  const int n = int(strip->coords.size());
  strip->stress_modes.resize(6 * n, 2);
  for (int i = 0; i < n; ++i) {
    const Vec3& x = strip->coords[std::size_t(i)];
    strip->stress_modes.block<6, 1>(6 * i, 0) << 1e8 * x.x(), -2e7, 0.0, 3e7 * x.y(), 0.0, 1e6;
    strip->stress_modes.block<6, 1>(6 * i, 1) << 0.0, 5e7 * x.x(), 1e7, 0.0, -4e7 * x.x(), 2e6;
  }
  return strip;
}

ModelSpec stripModel(std::shared_ptr<const fe::ReducedBody> data, int modeCount = 0);

/// The top of the colour range of `quantity` on the strip deformed by w, its stiffness scaled.
double scaledRangeTop(std::shared_ptr<const fe::ReducedBody> strip, const Eigen::VectorXd& w, ContourQuantity quantity,
                      double stiffnessScale) {
  ModelSpec model = stripModel(std::move(strip));
  model.flexible_bodies[0].stiffness_scale = stiffnessScale;
  ModelScene scene;
  scene.build(model);
  if (!scene.setModal({w})) return -1.0;
  scene.setContour(quantity);
  return scene.colourRange().hi;
}

ModelSpec stripModel(std::shared_ptr<const fe::ReducedBody> data, int modeCount) {
  ModelSpec model;
  model.name = "strip";
  model.ground_markers.push_back({"pivot", Vec3::Zero(), Quat::Identity()});
  model.bodies.push_back(bar("crank", 0.2, Vec3(0.1, 0, 0)));
  FlexibleBodySpec strip;
  strip.name = "strip";
  strip.file = "strip.frb";
  strip.mode_count = modeCount;
  strip.position = Vec3(0.2, 0.0, 0.0);
  strip.orientation = Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ()));
  strip.data = std::move(data);
  model.flexible_bodies.push_back(strip);
  VirtualBodySpec pin;
  pin.name = "strip_A";
  pin.flexible_body = "strip";
  pin.point = Vec3::Zero();
  pin.markers.push_back({"pin", Vec3::Zero(), Quat::Identity()});
  model.virtual_bodies.push_back(pin);
  model.joints.push_back({"pivot", JointType::Revolute, kGroundName, "pivot", "crank", "base"});
  model.joints.push_back({"pin", JointType::Revolute, "crank", "tip", "strip_A", "pin"});
  return model;
}

Pose userMatrix(vtkActor* actor) {
  Pose pose = Pose::Identity();
  vtkMatrix4x4* m = actor->GetUserMatrix();
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) pose.matrix()(r, c) = m->GetElement(r, c);
  return pose;
}

// Largest distance between the drawn surface points (actor placement applied) and
// pose o (x + scale Phi w) of the same nodes.
double surfaceError(const ModelScene& scene, const fe::ReducedBody& body, const Pose& pose,
                    const Eigen::VectorXd& w, double scale) {
  const FlexibleSurface* surface = scene.flexibleSurface(0);
  vtkPolyData* mesh = surface->mesh();
  const Pose placed = userMatrix(scene.flexibleActor(0));
  double worst = 0.0;
  for (vtkIdType j = 0; j < mesh->GetNumberOfPoints(); ++j) {
    const int node = surface->nodes()[std::size_t(j)];
    const Vec3 expected =
        pose * (body.coords[std::size_t(node)] + scale * body.modes.block(3 * node, 0, 3, w.size()) * w);
    double p[3];
    mesh->GetPoint(j, p);
    worst = std::max(worst, (placed * Vec3(p[0], p[1], p[2]) - expected).norm());
  }
  return worst;
}

std::shared_ptr<const fe::ReducedBody> loadRodFixture() {
  auto body = std::make_shared<fe::ReducedBody>();
  std::string error;
  if (!io::loadReducedBody(FLEXIM_SOURCE_DIR "/tests/data/fe/rod/rod_round_c3d10.frb", *body, &error)) {
    qWarning("%s", error.c_str());
    return nullptr;
  }
  return body;
}

// Compares an image with tests/render/data/NAME (FLEXIM_UPDATE_REFERENCE=1 rewrites it);
// returns "" when they agree within the tolerance, else what differs.
QString compareWithReference(const RgbImage& image, const std::string& name) {
  const std::string reference = FLEXIM_TEST_DATA "/" + name;
  const char* update = std::getenv("FLEXIM_UPDATE_REFERENCE");
  if (update && std::string(update) == "1") {
    if (!writePng(image, reference)) return QString("cannot write %1").arg(QString::fromStdString(reference));
    qInfo("reference image written: %s", reference.c_str());
    return {};
  }
  const RgbImage expected = readPng(reference);
  if (expected.empty())
    return QString("missing reference %1; create it with FLEXIM_UPDATE_REFERENCE=1").arg(QString::fromStdString(reference));
  const double differing = differingFraction(image, expected, 40);
  // small tolerance for driver differences (anti-aliasing, font hinting)
  if (differing < 0.01) return {};
  const QString actual = QDir::temp().filePath(QString::fromStdString("actual_" + name));
  writePng(image, actual.toStdString());
  return QString("%1 % of pixels differ from %2; actual image in %3")
      .arg(100.0 * differing)
      .arg(QString::fromStdString(name), actual);
}

}  // namespace

class RenderSceneTest : public QObject {
  Q_OBJECT

 private slots:
  void inertiaBoxRecoversBoxDimensions();
  void inertiaBoxRejectsBadMassProperties();
  void buildsOneVisualPerBody();
  void imageIsNotBlank();
  void movingABodyMovesItsPixels();
  void markerTriadsToggle();
  void matchesReferenceImage();
  void flexibleSurfaceFollowsPoseAndModes();
  void deformationScaleAndColours();
  void flexibleModeCountAndBadInput();
  void flexibleBodyWithoutDataIsReported();
  void realReducedBodyRendersAndDeforms();
  void visualMeshDrawsTheBody();
  void contourComponentsAndRangeModes();
  void stressContours();
  void strainContours();
  void undeformedGhostAndTrace();
  void modeShapeWithContourMatchesReference();
  void visualMeshMatchesReference();
  void videoWriterWritesOggTheora();
  void loadsAreArrowsAtTheirMarkers();
  void boundsGrowWithTheMotion();
};

void RenderSceneTest::inertiaBoxRecoversBoxDimensions() {
  // box 0.5 x 0.2 x 0.1 m, 3 kg, rotated 30 degrees about z in the body frame
  const double m = 3.0, a = 0.5, b = 0.2, c = 0.1;
  const Mat3 principal = Vec3(b * b + c * c, a * a + c * c, a * a + b * b).asDiagonal() * (m / 12.0);
  const Mat3 R = Eigen::AngleAxisd(M_PI / 6, Vec3::UnitZ()).toRotationMatrix();
  const InertiaBox box = equivalentInertiaBox(m, R * principal * R.transpose());
  QVERIFY(box.valid);
  // the same three edge lengths, each along the rotated principal direction
  const Mat3 axes = box.orientation.toRotationMatrix();
  const Vec3 expected(a, b, c);
  for (int i = 0; i < 3; ++i) {
    int match = 0;
    (R.transpose() * axes.col(i)).cwiseAbs().maxCoeff(&match);
    QVERIFY2(std::abs(box.size(i) - expected(match)) < 1e-9,
             qPrintable(QString("edge %1: %2 vs %3").arg(i).arg(box.size(i)).arg(expected(match))));
  }
  QVERIFY(std::abs(axes.determinant() - 1.0) < 1e-12);
}

void RenderSceneTest::inertiaBoxRejectsBadMassProperties() {
  QVERIFY(!equivalentInertiaBox(0.0, Mat3::Identity()).valid);
  QVERIFY(!equivalentInertiaBox(1.0, Mat3::Zero()).valid);
  // a point-like inertia still gives a visible, non-degenerate box
  const InertiaBox thin = equivalentInertiaBox(1.0, Vec3(1e-12, 1.0, 1.0).asDiagonal());
  QVERIFY(thin.valid);
  QVERIFY(thin.size.minCoeff() >= 0.08 * thin.size.maxCoeff() - 1e-12);
}

void RenderSceneTest::buildsOneVisualPerBody() {
  ModelScene scene(plainOptions());
  Diagnostics diag;
  ModelSpec model = twoLinkModel();
  model.joints.push_back({"extra", JointType::Spherical, "link1", "tip", "link2", "tip"});
  scene.build(model, &diag);
  QCOMPARE(scene.bodyCount(), std::size_t(2));
  QVERIFY(scene.characteristicLength() > 0.5 && scene.characteristicLength() < 1.5);
  QVERIFY2(diag.items().empty(), diag.str().c_str());
  // a joint glyph whose marker does not exist is skipped with a warning naming the joint
  model.joints.back().name = "broken";
  model.joints.back().marker2 = "missing";
  scene.build(model, &diag);
  QCOMPARE(int(diag.items().size()), 1);
  QVERIFY(diag.items()[0].where.find("broken") != std::string::npos);

  QVERIFY(!scene.setPoses({}));  // wrong count is refused
  QVERIFY(scene.setPoses(initialPoses(model)));
  // a rigid-only model: no flexible parts, modal coordinates are simply absent
  QCOMPARE(scene.bodyCount("bodies"), std::size_t(2));
  QCOMPARE(scene.flexibleBodyCount(), std::size_t(0));
  QVERIFY(scene.colourBar() == nullptr);
  QVERIFY(scene.setModal({}));
  QVERIFY(!scene.setModal({Eigen::VectorXd::Zero(1)}));
  Sample sample;
  sample.t = 0.5;
  sample.poses = initialPoses(model);
  QVERIFY(scene.setSample(sample));
  sample.poses.pop_back();
  QVERIFY(!scene.setSample(sample));
}

void RenderSceneTest::imageIsNotBlank() {
  ModelScene scene(plainOptions());
  scene.build(twoLinkModel());
  const RgbImage image = renderToImage(scene, kWidth, kHeight);
  QCOMPARE(image.width, kWidth);
  QCOMPARE(image.height, kHeight);
  const Coverage covered = coverage(image, backgroundRgb());
  const double fraction = double(covered.count) / (kWidth * kHeight);
  QVERIFY2(fraction > 0.01 && fraction < 0.6, qPrintable(QString("covered %1").arg(fraction)));
  // framed: the model is near the middle of the picture
  QVERIFY(std::abs(covered.centroidX - kWidth / 2.0) < 0.25 * kWidth);
  QVERIFY(std::abs(covered.centroidY - kHeight / 2.0) < 0.25 * kHeight);
}

void RenderSceneTest::movingABodyMovesItsPixels() {
  const ModelSpec model = twoLinkModel();
  ModelScene scene(plainOptions());
  scene.build(model);
  const RgbImage before = renderToImage(scene, kWidth, kHeight);

  // swing link2 up: rotate it 90 degrees about the elbow (0.4, 0, 0)
  std::vector<BodyPose> poses = initialPoses(model);
  const Quat up(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ()));
  poses[1].position = Vec3(0.4, 0.15, 0.0);
  poses[1].orientation = up;
  QVERIFY(scene.setPoses(poses));
  const RgbImage after = renderToImage(scene, kWidth, kHeight);

  // the old place of link2's middle is empty now, the new one is drawn
  const QPointF oldSpot = project(scene.renderer(), Vec3(0.58, 0, 0), kWidth, kHeight);
  const QPointF newSpot = project(scene.renderer(), Vec3(0.4, 0.18, 0), kWidth, kHeight);
  QVERIFY2(contrastNear(before, oldSpot) > 40, "link2 drawn before the move");
  QVERIFY2(contrastNear(after, oldSpot) <= 12, "link2 gone from its old place");
  QVERIFY2(contrastNear(before, newSpot) <= 12, "new place empty before the move");
  QVERIFY2(contrastNear(after, newSpot) > 40, "link2 drawn at its new place");

  // and the picture's mass moved left and up
  const Coverage c0 = coverage(before, backgroundRgb()), c1 = coverage(after, backgroundRgb());
  QVERIFY(c1.centroidX < c0.centroidX - 2.0);
  QVERIFY(c1.centroidY < c0.centroidY - 2.0);

  scene.resetPoses();
  const RgbImage reset = renderToImage(scene, kWidth, kHeight);
  QVERIFY(differingFraction(before, reset) < 1e-4);
}

void RenderSceneTest::markerTriadsToggle() {
  ModelScene scene(plainOptions());
  scene.build(twoLinkModel());
  const long withMarkers = coverage(renderToImage(scene, kWidth, kHeight), backgroundRgb()).count;
  scene.setMarkersVisible(false);
  QVERIFY(!scene.markersVisible());
  const long without = coverage(renderToImage(scene, kWidth, kHeight), backgroundRgb()).count;
  QVERIFY2(without < withMarkers, qPrintable(QString("%1 vs %2").arg(without).arg(withMarkers)));
}

void RenderSceneTest::matchesReferenceImage() {
  // the full default look: gradient, floor, labels, markers
  ModelScene scene;
  scene.build(twoLinkModel());
  scene.setTime(0.25);
  const RgbImage image = renderToImage(scene, kWidth, kHeight);
  QVERIFY(!image.empty());
  const QString problem = compareWithReference(image, "two_link_scene.png");
  QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void RenderSceneTest::flexibleSurfaceFollowsPoseAndModes() {
  const auto strip = handMadeStrip();
  const ModelSpec model = stripModel(strip);
  ModelScene scene(plainOptions());
  Diagnostics diag;
  scene.build(model, &diag);
  QVERIFY2(!diag.hasErrors() && diag.items().empty(), diag.str().c_str());
  QCOMPARE(scene.bodyCount(), std::size_t(3));
  QCOMPARE(scene.bodyCount("bodies"), std::size_t(1));
  QCOMPARE(scene.flexibleBodyCount(), std::size_t(1));
  QCOMPARE(scene.bodyCount("virtual_bodies"), std::size_t(1));

  // only the surface nodes are displayed (the inner node 6 is not)
  const FlexibleSurface* surface = scene.flexibleSurface(0);
  QVERIFY(surface != nullptr);
  QVERIFY(surface->hasTriangles());
  QCOMPARE(surface->modeCount(), 2);
  QCOMPARE(int(surface->mesh()->GetNumberOfPoints()), 6);
  QCOMPARE(int(surface->mesh()->GetNumberOfPolys()), 4);
  QVERIFY(std::find(surface->nodes().begin(), surface->nodes().end(), 6) == surface->nodes().end());

  // initial configuration: the FE frame at the model's pose, undeformed
  const Pose initial = makePose(model.flexible_bodies[0].position, model.flexible_bodies[0].orientation);
  QVERIFY(surfaceError(scene, *strip, initial, Eigen::Vector2d::Zero(), 1.0) < 1e-12);
  // the virtual body starts at its point on the strip
  QVERIFY((scene.bodyPose(2).translation() - initial * Vec3::Zero()).norm() < 1e-12);

  // the old rigid-only pose vector no longer fits
  std::vector<BodyPose> poses = initialPoses(model);
  QVERIFY(!scene.setPoses(poses));

  // new poses for all three bodies (Sample::poses order) and a modal state
  const BodyPose flexPose{Vec3(0.3, -0.1, 0.05),
                          Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()))};
  const BodyPose pinPose{Vec3(0.3, -0.1, 0.05), Quat(Eigen::AngleAxisd(-0.4, Vec3::UnitZ()))};
  poses.push_back(flexPose);
  poses.push_back(pinPose);
  const Eigen::Vector2d w(0.012, -0.03);
  Sample sample;
  sample.t = 0.125;
  sample.poses = poses;
  sample.modal = {w};
  QVERIFY(scene.setSample(sample));

  const Pose moved = makePose(flexPose.position, flexPose.orientation);
  const double error = surfaceError(scene, *strip, moved, w, 1.0);
  QVERIFY2(error < 1e-12, qPrintable(QString("surface off by %1 m").arg(error)));
  QVERIFY(scene.bodyPose(2).isApprox(makePose(pinPose.position, pinPose.orientation), 1e-12));
  QVERIFY(surface->modal().isApprox(w));

  // the displacement array holds |Phi w| per surface node
  vtkDataArray* magnitude = surface->mesh()->GetPointData()->GetArray(FlexibleSurface::kDisplacementArray);
  QVERIFY(magnitude != nullptr);
  double largest = 0.0;
  for (vtkIdType j = 0; j < magnitude->GetNumberOfTuples(); ++j) {
    const int node = surface->nodes()[std::size_t(j)];
    const double expected = (strip->modes.block(3 * node, 0, 3, 2) * w).norm();
    QVERIFY(std::abs(magnitude->GetTuple1(j) - expected) < 1e-14);
    largest = std::max(largest, expected);
  }
  QVERIFY(std::abs(scene.colourRangeMax() - largest) < 1e-14);

  // setPoses alone moves without changing the deformation; setModal alone deforms in place
  std::vector<BodyPose> atOrigin = poses;
  atOrigin[1] = BodyPose{};  // FE frame at the global origin
  QVERIFY(scene.setPoses(atOrigin));
  QVERIFY(surfaceError(scene, *strip, Pose::Identity(), w, 1.0) < 1e-12);
  QVERIFY(scene.setModal({Eigen::Vector2d(0.0, 0.05)}));
  QVERIFY(surfaceError(scene, *strip, Pose::Identity(), Eigen::Vector2d(0.0, 0.05), 1.0) < 1e-12);

  // back to the initial configuration
  scene.resetPoses();
  QVERIFY(surfaceError(scene, *strip, initial, Eigen::Vector2d::Zero(), 1.0) < 1e-12);
}

void RenderSceneTest::deformationScaleAndColours() {
  const auto strip = handMadeStrip();
  const ModelSpec model = stripModel(strip);
  ModelScene scene;  // default options: legend and labels on
  scene.build(model);
  QVERIFY(scene.colourBar() != nullptr);
  QVERIFY(scene.displacementColouring());
  // nothing deformed yet: body colour, no legend
  QVERIFY(!scene.colourBar()->GetVisibility());
  QVERIFY(!scene.flexibleActor(0)->GetMapper()->GetScalarVisibility());

  const Eigen::Vector2d w(0.01, 0.02);
  QVERIFY(scene.setModal({w}));
  const Pose initial = makePose(model.flexible_bodies[0].position, model.flexible_bodies[0].orientation);
  QVERIFY(surfaceError(scene, *strip, initial, w, 1.0) < 1e-12);
  const double range = scene.colourRangeMax();
  QVERIFY(range > 0.0);
  QVERIFY(scene.colourBar()->GetVisibility());
  QVERIFY(scene.flexibleActor(0)->GetMapper()->GetScalarVisibility());
  double tableRange[2];
  scene.displacementColours()->GetTableRange(tableRange);
  QCOMPARE(tableRange[0], 0.0);
  QCOMPARE(tableRange[1], range);

  // the scale multiplies the displayed displacement only; colours keep the true values
  scene.setDeformationScale(25.0);
  QCOMPARE(scene.deformationScale(), 25.0);
  QVERIFY(surfaceError(scene, *strip, initial, w, 25.0) < 1e-12);
  QCOMPARE(scene.colourRangeMax(), range);
  scene.setDeformationScale(0.0);  // rigid picture
  QVERIFY(surfaceError(scene, *strip, initial, w, 0.0) < 1e-12);
  scene.setDeformationScale(-3.0);  // ignored
  QCOMPARE(scene.deformationScale(), 0.0);
  scene.setDeformationScale(25.0);

  // the scale is kept by a rebuild (a newly loaded model)
  scene.build(model);
  QVERIFY(scene.setModal({w}));
  QVERIFY(surfaceError(scene, *strip, initial, w, 25.0) < 1e-12);

  // the colour range covers every sample fed to it, and is reset on request
  scene.includeInColourRange({Eigen::Vector2d(0.1, 0.0)});
  QVERIFY(std::abs(scene.colourRangeMax() - 0.1) < 1e-12);  // mode 0 is 1 at the far edge
  scene.resetColourRange();
  QCOMPARE(scene.colourRangeMax(), range);

  // plain body colour on request
  scene.setDisplacementColouring(false);
  QVERIFY(!scene.flexibleActor(0)->GetMapper()->GetScalarVisibility());
  QVERIFY(!scene.colourBar()->GetVisibility());
  scene.setDisplacementColouring(true);
  QVERIFY(scene.flexibleActor(0)->GetMapper()->GetScalarVisibility());

  // and it all renders
  const RgbImage image = renderToImage(scene, kWidth, kHeight);
  QVERIFY(!image.empty());
}

void RenderSceneTest::flexibleModeCountAndBadInput() {
  const auto strip = handMadeStrip();
  ModelScene scene(plainOptions());
  scene.build(stripModel(strip, 1));  // only the first mode of the file
  const FlexibleSurface* surface = scene.flexibleSurface(0);
  QCOMPARE(surface->modeCount(), 1);
  const Pose initial = makePose(Vec3(0.2, 0, 0), Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ())));
  QVERIFY(scene.setModal({Eigen::VectorXd::Constant(1, 0.02)}));
  QVERIFY(surfaceError(scene, *strip, initial, Eigen::VectorXd::Constant(1, 0.02), 1.0) < 1e-12);

  // refused, nothing changed: too many modes, wrong body count, not finite
  QVERIFY(!scene.setModal({Eigen::Vector2d(1.0, 1.0)}));
  QVERIFY(!scene.setModal({Eigen::VectorXd::Zero(1), Eigen::VectorXd::Zero(1)}));
  QVERIFY(!scene.setModal({Eigen::VectorXd::Constant(1, std::nan(""))}));
  QVERIFY(surfaceError(scene, *strip, initial, Eigen::VectorXd::Constant(1, 0.02), 1.0) < 1e-12);
  // an empty list shows the bodies undeformed
  QVERIFY(scene.setModal({}));
  QVERIFY(surfaceError(scene, *strip, initial, Eigen::VectorXd::Zero(1), 1.0) < 1e-12);

  // initial modal coordinates of the model are shown (and restored by resetPoses)
  ModelSpec model = stripModel(strip);
  model.flexible_bodies[0].modal_coordinates = {0.0, 0.04};
  scene.build(model);
  QVERIFY(surfaceError(scene, *strip, initial, Eigen::Vector2d(0.0, 0.04), 1.0) < 1e-12);
  QVERIFY(scene.setModal({Eigen::Vector2d(0.01, 0.0)}));
  scene.resetPoses();
  QVERIFY(surfaceError(scene, *strip, initial, Eigen::Vector2d(0.0, 0.04), 1.0) < 1e-12);

  // a body without display triangles shows its nodes as points
  auto cloud = handMadeStrip();
  cloud->surface.clear();
  scene.build(stripModel(cloud));
  QVERIFY(!scene.flexibleSurface(0)->hasTriangles());
  QCOMPARE(int(scene.flexibleSurface(0)->mesh()->GetNumberOfPoints()), 7);
  QCOMPARE(int(scene.flexibleSurface(0)->mesh()->GetNumberOfVerts()), 7);
  QVERIFY(scene.setModal({Eigen::Vector2d(0.01, 0.02)}));
  QVERIFY(surfaceError(scene, *cloud, initial, Eigen::Vector2d(0.01, 0.02), 1.0) < 1e-12);
}

void RenderSceneTest::flexibleBodyWithoutDataIsReported() {
  ModelSpec model = stripModel(nullptr);
  ModelScene scene(plainOptions());
  Diagnostics diag;
  scene.build(model, &diag);
  QCOMPARE(int(diag.items().size()), 1);
  QVERIFY(diag.items()[0].where.find("strip") != std::string::npos);
  QVERIFY(scene.flexibleSurface(0) == nullptr);
  QCOMPARE(scene.bodyCount(), std::size_t(3));
  // samples still fit (the body is just not drawn)
  std::vector<BodyPose> poses = initialPoses(model);
  poses.resize(3);
  QVERIFY(scene.setPoses(poses));
  QVERIFY(scene.setModal({Eigen::VectorXd::Zero(4)}));
  QVERIFY(!renderToImage(scene, 320, 240).empty());
}

void RenderSceneTest::realReducedBodyRendersAndDeforms() {
  const auto rod = loadRodFixture();
  QVERIFY(rod != nullptr);
  QVERIFY(!rod->surface.empty());
  ModelSpec model;
  model.name = "round rod";
  FlexibleBodySpec body;
  body.name = "rod";
  body.file = "rod_round_c3d10.frb";
  body.mode_count = 8;  // 6 rigid + the first 2 elastic modes
  body.data = rod;
  model.flexible_bodies.push_back(body);
  for (const double x : {0.0, 0.3}) {
    VirtualBodySpec end;
    end.name = x == 0.0 ? "rod_A" : "rod_B";
    end.flexible_body = "rod";
    end.point = Vec3(x, 0, 0);
    end.markers.push_back({"pin", Vec3::Zero(), Quat::Identity()});
    model.virtual_bodies.push_back(end);
  }

  ModelScene scene(plainOptions());
  Diagnostics diag;
  scene.build(model, &diag);
  QVERIFY2(diag.items().empty(), diag.str().c_str());
  const FlexibleSurface* surface = scene.flexibleSurface(0);
  QVERIFY(surface != nullptr);
  QCOMPARE(surface->modeCount(), 8);
  // a surface, not the whole mesh
  QVERIFY(surface->nodes().size() < rod->coords.size());
  QVERIFY(surface->mesh()->GetNumberOfPolys() > 100);

  const RgbImage undeformed = renderToImage(scene, kWidth, kHeight);
  const Coverage covered = coverage(undeformed, backgroundRgb());
  // (a slender rod, framed left of the colour bar: about 1 % of the picture)
  const double fraction = double(covered.count) / (kWidth * kHeight);
  QVERIFY2(fraction > 0.005 && fraction < 0.6, qPrintable(QString("covered %1").arg(fraction)));
  QVERIFY(std::abs(covered.centroidX - kWidth / 2.0) < 0.25 * kWidth);

  // the first elastic mode, amplitude chosen for a tip deflection of about 10 mm
  Eigen::VectorXd w = Eigen::VectorXd::Zero(8);
  const Eigen::VectorXd mode = rod->modes.col(6);
  const double peak = Eigen::Map<const Eigen::Matrix3Xd>(mode.data(), 3, mode.size() / 3).colwise().norm().maxCoeff();
  w(6) = 0.01 / peak;
  QVERIFY(scene.setModal({w}));
  QVERIFY(std::abs(scene.colourRangeMax() - 0.01) < 1e-6);
  QVERIFY(surfaceError(scene, *rod, Pose::Identity(), w, 1.0) < 1e-12);
  scene.setDeformationScale(3.0);
  QVERIFY(surfaceError(scene, *rod, Pose::Identity(), w, 3.0) < 1e-12);
  const RgbImage deformed = renderToImage(scene, kWidth, kHeight);
  QVERIFY2(differingFraction(undeformed, deformed) > 0.005,
           qPrintable(QString::number(differingFraction(undeformed, deformed))));
  const double drawn = double(coverage(deformed, backgroundRgb()).count) / (kWidth * kHeight);
  QVERIFY(drawn > 0.01);

  // for a look by eye: FLEXIM_KEEP_RENDER=DIR writes the full default look of both states
  if (qEnvironmentVariableIsSet("FLEXIM_KEEP_RENDER")) {
    const QString dir = qEnvironmentVariable("FLEXIM_KEEP_RENDER");
    ModelScene full;
    full.build(model);
    QVERIFY(renderToPng(full, kWidth, kHeight, (dir + "/rod_undeformed.png").toStdString()));
    full.setModal({w});
    full.setDeformationScale(3.0);
    QVERIFY(renderToPng(full, kWidth, kHeight, (dir + "/rod_deformed.png").toStdString()));
  }
}

/// A rigid body with a visual mesh (resources/examples/slider_crank_visual.json: the gmsh crank
/// in mm, scripts/make_visual_meshes.sh) is drawn from the mesh, scaled and placed in body axes:
/// its actor's bounds are the STL's (read here independently) mapped to the world. A mesh that
/// cannot be read is a warning, and the body keeps its box.
void RenderSceneTest::visualMeshDrawsTheBody() {
  const std::string dir = FLEXIM_SOURCE_DIR "/resources/examples/";
  ModelSpec model;
  Diagnostics diag;
  QVERIFY2(io::loadModelFile(dir + "slider_crank_visual.json", model, diag), diag.str().c_str());
  // the STL's own extent, from its text
  QFile stl(QString::fromStdString(dir + "meshes/crank.stl"));
  QVERIFY(stl.open(QIODevice::ReadOnly | QIODevice::Text));
  Vec3 lo = Vec3::Constant(1e300), hi = Vec3::Constant(-1e300);
  while (!stl.atEnd()) {
    const QStringList words = QString::fromUtf8(stl.readLine()).simplified().split(' ');
    if (words.size() == 4 && words[0] == "vertex") {
      const Vec3 v(words[1].toDouble(), words[2].toDouble(), words[3].toDouble());
      lo = lo.cwiseMin(v);
      hi = hi.cwiseMax(v);
    }
  }
  const RigidBodySpec& crank = model.bodies[0];
  const Vec3 expectedLo = crank.position + crank.visual.position + crank.visual.scale * lo;
  const Vec3 expectedHi = crank.position + crank.visual.position + crank.visual.scale * hi;

  ModelScene scene;
  scene.setBaseDirectory(dir);
  Diagnostics sceneDiag;
  scene.build(model, &sceneDiag);
  QVERIFY2(sceneDiag.items().empty(), sceneDiag.str().c_str());
  const auto actors = scene.actorsOf("bodies[0]");
  bool found = false;
  for (vtkActor* actor : actors) {
    double b[6];
    actor->GetBounds(b);
    const Vec3 alo(b[0], b[2], b[4]), ahi(b[1], b[3], b[5]);
    if ((alo - expectedLo).norm() < 1e-9 && (ahi - expectedHi).norm() < 1e-9) found = true;
  }
  QVERIFY2(found, "no actor of the crank has the mesh's bounds");

  // without the file: a warning naming the field, and the inertia box
  model.bodies[0].visual.file = "meshes/missing.stl";
  Diagnostics missing;
  scene.build(model, &missing);
  QVERIFY2(missing.str().find("bodies[0].visual.file") != std::string::npos, missing.str().c_str());
  QVERIFY(!scene.actorsOf("bodies[0]").empty());
}

/// The colours show |u| or one body-frame component of u = Phi w: the surface scalars are
/// recomputed here from the modes, the scale spans them (0 included for the magnitude only),
/// the legend reads the same range in mm, and "each frame" follows the frame shown while
/// "whole run" keeps every sample fed in.
void RenderSceneTest::contourComponentsAndRangeModes() {
  const auto strip = handMadeStrip();
  ModelScene scene;
  scene.build(stripModel(strip));
  const Eigen::Vector2d w(0.01, 0.03);
  QVERIFY(scene.setModal({w}));
  const FlexibleSurface* surface = scene.flexibleSurface(0);
  vtkDataArray* values = surface->mesh()->GetPointData()->GetArray(FlexibleSurface::kDisplacementArray);
  for (const ContourQuantity q : {ContourQuantity::X, ContourQuantity::Y, ContourQuantity::Z, ContourQuantity::Magnitude}) {
    scene.setContour(q);
    QCOMPARE(surface->quantity(), q);
    double lo = 1e300, hi = -1e300;
    for (vtkIdType j = 0; j < values->GetNumberOfTuples(); ++j) {
      const int node = surface->nodes()[std::size_t(j)];
      const Vec3 u = strip->modes.block(3 * node, 0, 3, 2) * w;
      const double expected = q == ContourQuantity::Magnitude ? u.norm() : u(int(q) - int(ContourQuantity::X));
      QVERIFY2(std::abs(values->GetTuple1(j) - expected) < 1e-15,
               qPrintable(QString("%1: node %2 shows %3, expected %4").arg(contourSymbol(q)).arg(node).arg(values->GetTuple1(j)).arg(expected)));
      lo = std::min(lo, expected), hi = std::max(hi, expected);
    }
    if (q == ContourQuantity::Magnitude) lo = 0.0;
    const ScalarRange range = scene.colourRange();
    QVERIFY(std::abs(range.lo - lo) < 1e-15 && std::abs(range.hi - hi) < 1e-15);
    double table[2], legend[2];
    scene.displacementColours()->GetTableRange(table);
    std::copy_n(scene.colourBar()->GetLookupTable()->GetRange(), 2, legend);
    QVERIFY(std::abs(table[0] - lo) < 1e-15 && std::abs(table[1] - hi) < 1e-15);
    QVERIFY(std::abs(legend[0] - 1e3 * lo) < 1e-12 && std::abs(legend[1] - 1e3 * hi) < 1e-12);
    QCOMPARE(QString(scene.colourBar()->GetTitle()), QString("%1 [mm]").arg(contourSymbol(q)));
  }
  // the y component of the twist mode changes sign along the strip: a signed scale
  scene.setContour(ContourQuantity::Y);
  QVERIFY(scene.colourRange().lo < 0.0 && scene.colourRange().hi <= 0.0 + 1e-15);

  // whole run: a larger sample widens the scale and it stays when a smaller frame is shown
  scene.setContour(ContourQuantity::Magnitude);
  scene.includeInColourRange({Eigen::Vector2d(0.1, 0.0)});
  QVERIFY(std::abs(scene.colourRangeMax() - 0.1) < 1e-12);
  QVERIFY(scene.setModal({w}));
  QVERIFY(std::abs(scene.colourRangeMax() - 0.1) < 1e-12);
  // each frame: the frame's own largest displacement
  scene.setColourRangeMode(ColourRangeMode::EachFrame);
  QVERIFY(std::abs(scene.colourRangeMax() - surface->currentMaxDisplacement()) < 1e-15);
  QVERIFY(scene.setModal({Eigen::Vector2d(0.0, 0.001)}));
  QVERIFY(std::abs(scene.colourRangeMax() - surface->currentMaxDisplacement()) < 1e-15);
  scene.setColourRangeMode(ColourRangeMode::WholeRun);
  QVERIFY(std::abs(scene.colourRangeMax() - 0.1) < 1e-12);
  // a frame without deformation in "each frame" mode: plain colour, no legend
  scene.setColourRangeMode(ColourRangeMode::EachFrame);
  QVERIFY(scene.setModal({Eigen::Vector2d::Zero()}));
  QVERIFY(scene.colourRange().empty());
  QVERIFY(!scene.colourBar()->GetVisibility());
}

/// Stress contours: von Mises, principal stresses and components of sigma = S w from the body's
/// stress modes (made up here), against the closed forms on the same tensors; the legend in MPa
/// on two lines, the von Mises scale from 0. A body without stress modes shows no colours.
void RenderSceneTest::stressContours() {
  auto strip = stressedStrip();
  ModelScene scene;
  scene.build(stripModel(strip));
  const Eigen::Vector2d w(0.5, -1.5);
  QVERIFY(scene.setModal({w}));
  const FlexibleSurface* surface = scene.flexibleSurface(0);
  QVERIFY(surface->hasStress());
  vtkDataArray* values = surface->mesh()->GetPointData()->GetArray(FlexibleSurface::kDisplacementArray);
  for (const ContourQuantity q : {ContourQuantity::VonMises, ContourQuantity::MaxPrincipal, ContourQuantity::MinPrincipal,
                                  ContourQuantity::Sxx, ContourQuantity::Syz}) {
    scene.setContour(q);
    double hi = -1e300;
    for (vtkIdType j = 0; j < values->GetNumberOfTuples(); ++j) {
      const int node = surface->nodes()[std::size_t(j)];
      const Eigen::Matrix<double, 6, 1> s = strip->stress_modes.block(6 * node, 0, 6, 2) * w;
      Mat3 t;
      t << s(0), s(3), s(5), s(3), s(1), s(4), s(5), s(4), s(2);
      const Vec3 eig = Eigen::SelfAdjointEigenSolver<Mat3>(t).eigenvalues();  // ascending
      const double vm = std::sqrt(0.5 * ((s(0) - s(1)) * (s(0) - s(1)) + (s(1) - s(2)) * (s(1) - s(2)) +
                                         (s(2) - s(0)) * (s(2) - s(0))) + 3 * (s(3) * s(3) + s(4) * s(4) + s(5) * s(5)));
      const double expected = q == ContourQuantity::VonMises       ? vm
                              : q == ContourQuantity::MaxPrincipal ? eig(2)
                              : q == ContourQuantity::MinPrincipal ? eig(0)
                              : q == ContourQuantity::Sxx          ? s(0)
                                                                   : s(4);
      QVERIFY2(std::abs(values->GetTuple1(j) - expected) < 1e-6,
               qPrintable(QString("%1: node %2 shows %3, expected %4").arg(contourSymbol(q)).arg(node).arg(values->GetTuple1(j)).arg(expected)));
      hi = std::max(hi, expected);
    }
    if (q == ContourQuantity::VonMises) QCOMPARE(scene.colourRange().lo, 0.0);
    QVERIFY2(std::abs(scene.colourRange().hi - hi) < 1e-6, qPrintable(QString("%1: %2 vs %3").arg(contourSymbol(q)).arg(scene.colourRange().hi).arg(hi)));
    double legend[2];
    std::copy_n(scene.colourBar()->GetLookupTable()->GetRange(), 2, legend);
    QVERIFY(std::abs(legend[1] - 1e-6 * hi) < 1e-9);
    QCOMPARE(QString(scene.colourBar()->GetTitle()), QString("%1\n[MPa]").arg(contourSymbol(q)));
  }
  // a stiffness scale scales the stresses as the run's sensors see them (sigma = E epsilon)
  const double vonMises = scaledRangeTop(strip, w, ContourQuantity::VonMises, 1.0);
  QVERIFY(vonMises > 0.0);
  QVERIFY(std::abs(scaledRangeTop(strip, w, ContourQuantity::VonMises, 3.0) - 3.0 * vonMises) < 1e-6 * vonMises);
  // without stress modes: zero stress, so no colours and no legend
  ModelScene plain;
  plain.build(stripModel(handMadeStrip()));
  plain.setContour(ContourQuantity::VonMises);
  QVERIFY(plain.setModal({w}));
  QVERIFY(!plain.flexibleSurface(0)->hasStress());
  QVERIFY(!plain.colourBar()->GetVisibility());
}

/// Strain contours: the strain of sigma = S w by the nodes' own elastic constants (two materials
/// here), against the compliance of each node's D matrix inverted independently; the legend in
/// um/m, the equivalent strain's scale from 0. Without elastic constants: no strain, no colours.
void RenderSceneTest::strainContours() {
  auto strip = stressedStrip();
  for (std::size_t i = 0; i < strip->coords.size(); ++i)
    strip->node_elasticity.push_back(i % 2 ? std::array<double, 2>{2.1e11, 0.3} : std::array<double, 2>{7e10, 0.33});
  ModelScene scene;
  scene.build(stripModel(strip));
  const Eigen::Vector2d w(0.5, -1.5);
  QVERIFY(scene.setModal({w}));
  const FlexibleSurface* surface = scene.flexibleSurface(0);
  QVERIFY(surface->hasStrain());
  vtkDataArray* values = surface->mesh()->GetPointData()->GetArray(FlexibleSurface::kDisplacementArray);
  for (const ContourQuantity q : {ContourQuantity::EquivalentStrain, ContourQuantity::MaxPrincipalStrain,
                                  ContourQuantity::MinPrincipalStrain, ContourQuantity::Exx, ContourQuantity::Eyz}) {
    scene.setContour(q);
    double hi = -1e300;
    for (vtkIdType j = 0; j < values->GetNumberOfTuples(); ++j) {
      const int node = surface->nodes()[std::size_t(j)];
      const Eigen::Matrix<double, 6, 1> s = strip->stress_modes.block(6 * node, 0, 6, 2) * w;
      // sigma = D eps_engineering (Voigt), D from the Lame constants
      const auto [E, nu] = strip->node_elasticity[std::size_t(node)];
      const double lambda = E * nu / ((1 + nu) * (1 - 2 * nu)), mu = E / (2 * (1 + nu));
      Eigen::Matrix<double, 6, 6> D = Eigen::Matrix<double, 6, 6>::Zero();
      D.topLeftCorner<3, 3>().setConstant(lambda);
      D.topLeftCorner<3, 3>().diagonal().array() += 2 * mu;
      D.bottomRightCorner<3, 3>().diagonal().setConstant(mu);
      Eigen::Matrix<double, 6, 1> e = D.inverse() * s;
      e.tail<3>() *= 0.5;  // tensor shear
      Mat3 t;
      t << e(0), e(3), e(5), e(3), e(1), e(4), e(5), e(4), e(2);
      const Vec3 eig = Eigen::SelfAdjointEigenSolver<Mat3>(t).eigenvalues();
      const Mat3 deviator = t - t.trace() / 3 * Mat3::Identity();
      const double equivalent = std::sqrt(2.0 / 3.0 * (deviator.array() * deviator.array()).sum());
      const double expected = q == ContourQuantity::EquivalentStrain     ? equivalent
                              : q == ContourQuantity::MaxPrincipalStrain ? eig(2)
                              : q == ContourQuantity::MinPrincipalStrain ? eig(0)
                              : q == ContourQuantity::Exx                ? e(0)
                                                                         : e(4);
      QVERIFY2(std::abs(values->GetTuple1(j) - expected) < 1e-12,
               qPrintable(QString("%1: node %2 shows %3, expected %4").arg(contourSymbol(q)).arg(node).arg(values->GetTuple1(j)).arg(expected)));
      hi = std::max(hi, expected);
    }
    if (q == ContourQuantity::EquivalentStrain) QCOMPARE(scene.colourRange().lo, 0.0);
    QVERIFY(std::abs(scene.colourRange().hi - hi) < 1e-15);
    const QString symbol = contourSymbol(q);  // a long name takes two lines
    QCOMPARE(QString(scene.colourBar()->GetTitle()), symbol + (symbol.size() > 6 ? "\n" : " ") + "[um/m]");
  }
  // a stiffness scale leaves the strains as they are (stress and E scale together)
  const double strain = scaledRangeTop(strip, w, ContourQuantity::EquivalentStrain, 1.0);
  QVERIFY(strain > 0.0);
  QVERIFY(std::abs(scaledRangeTop(strip, w, ContourQuantity::EquivalentStrain, 3.0) - strain) < 1e-12 * strain);
  // the stress modes without elastic constants: no strain
  auto bare = handMadeStrip();
  bare->stress_modes = strip->stress_modes;
  ModelScene plain;
  plain.build(stripModel(bare));
  plain.setContour(ContourQuantity::EquivalentStrain);
  QVERIFY(plain.setModal({w}));
  QVERIFY(plain.flexibleSurface(0)->hasStress() && !plain.flexibleSurface(0)->hasStrain());
  QVERIFY(!plain.colourBar()->GetVisibility());
}

/// The ghost is the undeformed surface riding with the body frame; a traced surface point is
/// at pose * (x + scale * u) of each sample, a traced rigid-body point at pose * p.
void RenderSceneTest::undeformedGhostAndTrace() {
  const auto strip = handMadeStrip();
  ModelScene scene(plainOptions());
  scene.build(stripModel(strip));
  vtkActor* ghost = scene.undeformedActor(0);
  QVERIFY(ghost != nullptr);
  QVERIFY(!ghost->GetVisibility());
  QVERIFY(!ghost->GetPickable());
  scene.setUndeformedVisible(true);
  QVERIFY(ghost->GetVisibility());
  const Eigen::Vector2d w(0.02, -0.01);
  std::vector<BodyPose> poses(3);
  poses[1] = BodyPose{Vec3(0.1, 0.2, 0.0), Quat(Eigen::AngleAxisd(0.5, Vec3::UnitZ()))};
  Sample sample;
  sample.poses = poses;
  sample.modal = {w};
  QVERIFY(scene.setSample(sample));
  const FlexibleSurface* surface = scene.flexibleSurface(0);
  vtkPolyData* undeformed = vtkPolyData::SafeDownCast(ghost->GetMapper()->GetInput());
  QVERIFY(undeformed != nullptr);
  QCOMPARE(undeformed->GetNumberOfPoints(), surface->mesh()->GetNumberOfPoints());
  for (vtkIdType j = 0; j < undeformed->GetNumberOfPoints(); ++j) {
    double p[3];
    undeformed->GetPoint(j, p);
    QVERIFY((Vec3(p[0], p[1], p[2]) - strip->coords[std::size_t(surface->nodes()[std::size_t(j)])]).norm() < 1e-15);
  }
  QVERIFY(userMatrix(ghost).isApprox(userMatrix(scene.flexibleActor(0)), 1e-15));
  scene.setUndeformedVisible(false);
  QVERIFY(!ghost->GetVisibility());

  // the trace of the far corner node (x = 0.2, y = 0.05: node index 5)
  PickResult pick;
  pick.item = "flexible_bodies[0]";
  pick.body = 1;
  pick.node_id = 106;
  const auto it = std::find(surface->nodes().begin(), surface->nodes().end(), 5);
  QVERIFY(it != surface->nodes().end());
  pick.surface_point = int(it - surface->nodes().begin());
  const TracePoint point = scene.tracePointOf(pick);
  QVERIFY(point.valid());
  QVERIFY(point.label.find("node 106") != std::string::npos);
  scene.setDeformationScale(10.0);
  std::vector<Vec3> path;
  for (int k = 0; k < 5; ++k) {
    Sample s = sample;
    s.poses[1].position = Vec3(0.01 * k, 0.0, 0.0);
    s.modal = {w * double(k)};
    Vec3 p;
    QVERIFY(scene.tracePosition(point, s, p));
    const Pose pose = makePose(s.poses[1].position, s.poses[1].orientation);
    const Vec3 expected = pose * (strip->coords[5] + 10.0 * strip->modes.block(15, 0, 3, 2) * s.modal[0]);
    QVERIFY((p - expected).norm() < 1e-14);
    path.push_back(p);
  }
  scene.setTracePath(path);
  QCOMPARE(scene.tracePathSize(), std::size_t(5));
  scene.setTracePath({path[0]});
  QCOMPARE(scene.tracePathSize(), std::size_t(0));

  // a point fixed to the rigid crank
  PickResult onCrank;
  onCrank.item = "bodies[0]";
  onCrank.body = 0;
  onCrank.point_in_body = Vec3(0.05, 0.01, 0.0);
  const TracePoint fixed = scene.tracePointOf(onCrank);
  Vec3 p;
  QVERIFY(scene.tracePosition(fixed, sample, p));
  QVERIFY((p - makePose(poses[0].position, poses[0].orientation) * onCrank.point_in_body).norm() < 1e-15);
  // nothing picked, or a sample of another model: no trace
  QVERIFY(!scene.tracePointOf(PickResult{}).valid());
  Sample wrong = sample;
  wrong.poses.pop_back();
  QVERIFY(!scene.tracePosition(fixed, wrong, p));
}

/// The real rod in its first elastic mode, contoured by u_y with the colour bar: the picture
/// a user sees in the mode browser, compared with a committed reference image.
void RenderSceneTest::modeShapeWithContourMatchesReference() {
  const auto rod = loadRodFixture();
  QVERIFY(rod != nullptr);
  ModelSpec model;
  model.name = "rod, mode 7";
  FlexibleBodySpec body;
  body.name = "rod";
  body.file = "rod_round_c3d10.frb";
  body.mode_count = 8;
  body.data = rod;
  model.flexible_bodies.push_back(body);
  ModelScene scene;
  scene.build(model);
  scene.setContour(ContourQuantity::Magnitude);
  scene.setUndeformedVisible(true);
  Eigen::VectorXd w = Eigen::VectorXd::Zero(8);
  w(6) = 0.02 / scene.flexibleSurface(0)->maxDisplacement(Eigen::VectorXd::Unit(8, 6));
  QVERIFY(scene.setModal({w}));
  scene.setDeformationScale(2.0);
  QVERIFY(scene.colourBar()->GetVisibility());
  const RgbImage image = renderToImage(scene, kWidth, kHeight);
  QVERIFY(!image.empty());
  const QString problem = compareWithReference(image, "rod_mode7_contour.png");
  QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

/// The rigid example with a visual mesh (the gmsh crank STL), full default look.
void RenderSceneTest::visualMeshMatchesReference() {
  const std::string dir = FLEXIM_SOURCE_DIR "/resources/examples/";
  ModelSpec model;
  Diagnostics diag;
  QVERIFY2(io::loadModelFile(dir + "slider_crank_visual.json", model, diag), diag.str().c_str());
  ModelScene scene;
  scene.setBaseDirectory(dir);
  scene.build(model);
  const RgbImage image = renderToImage(scene, kWidth, kHeight);
  QVERIFY(!image.empty());
  const QString problem = compareWithReference(image, "slider_crank_visual.png");
  QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

/// Frames of a rendered scene go into an Ogg Theora file: the Ogg capture pattern and the
/// Theora identification header (with the frame size) are in it; bad input is refused.
void RenderSceneTest::videoWriterWritesOggTheora() {
  ModelScene scene;
  scene.build(twoLinkModel());
  const QString path = QDir::temp().filePath("flexim_video_test.ogv");
  VideoWriter writer;
  std::string error;
  QVERIFY2(writer.open(path.toStdString(), 10, error), error.c_str());
  for (int k = 0; k < 6; ++k) {
    std::vector<BodyPose> poses = initialPoses(twoLinkModel());
    poses[0].orientation = Quat(Eigen::AngleAxisd(0.2 * k, Vec3::UnitZ()));
    QVERIFY(scene.setPoses(poses));
    const RgbImage frame = renderToImage(scene, 321, 240);  // odd width: cropped to 320
    QVERIFY2(writer.addFrame(frame, error), error.c_str());
  }
  RgbImage other;
  other.width = 100, other.height = 80;
  other.rgb.assign(100 * 80 * 3, 0);
  QVERIFY(!writer.addFrame(other, error));
  QVERIFY2(error.find("frame 6") != std::string::npos, error.c_str());
  QCOMPARE(writer.frameCount(), 6);
  QVERIFY2(writer.close(error), error.c_str());
  QFile file(path);
  QVERIFY(file.open(QIODevice::ReadOnly));
  const QByteArray bytes = file.readAll();
  QVERIFY(bytes.startsWith("OggS"));
  const int header = bytes.indexOf("\x80theora");
  QVERIFY(header > 0);
  // identification header: version (3 bytes), then the frame size in macroblocks (2 x 16 bit)
  // and the picture size (24 bit each)
  const auto u24 = [&](int at) { return (uchar(bytes[at]) << 16) | (uchar(bytes[at + 1]) << 8) | uchar(bytes[at + 2]); };
  QCOMPARE(u24(header + 14), 320);
  QCOMPARE(u24(header + 17), 240);
  QVERIFY(bytes.size() > 2000);
  file.close();
  QFile::remove(path);

  VideoWriter bad;
  QVERIFY(!bad.open("/nonexistent-folder/x.ogv", 25, error));
  QVERIFY2(error.find("cannot write") != std::string::npos, error.c_str());
}

/// A point force in global axes is an arrow whose tip sits on its marker and whose axis keeps
/// the force's global direction whatever the body's rotation; a torque in marker axes turns
/// with its body. Both are picked as their force item.
void RenderSceneTest::loadsAreArrowsAtTheirMarkers() {
  ModelSpec model = twoLinkModel();
  ForceSpec push;
  push.name = "push";
  push.type = ForceSpec::Type::PointForce;
  push.body1 = "link2";
  push.marker1 = "tip";
  push.vector = Vec3(0, -5, 0);
  model.forces.push_back(push);
  ForceSpec twist = push;
  twist.name = "twist";
  twist.type = ForceSpec::Type::PointTorque;
  twist.body1 = "link1";
  twist.marker1 = "base";
  twist.vector = Vec3(1, 0, 0);
  twist.frame = ForceSpec::Frame::Marker;
  model.forces.push_back(twist);
  ModelScene scene(plainOptions());
  Diagnostics diag;
  scene.build(model, &diag);
  QVERIFY2(diag.items().empty(), diag.str().c_str());
  QCOMPARE(scene.actorsOf("forces[0]").size(), std::size_t(1));
  QCOMPARE(scene.actorsOf("forces[1]").size(), std::size_t(1));
  std::vector<BodyPose> poses = initialPoses(model);
  const Quat turned(Eigen::AngleAxisd(0.8, Vec3::UnitZ()));
  poses[0].orientation = turned;
  poses[1].orientation = turned;
  poses[1].position = Vec3(0.3, 0.4, 0.0);
  QVERIFY(scene.setPoses(poses));
  const Pose force = userMatrix(scene.actorsOf("forces[0]").front());
  const Pose link2 = makePose(poses[1].position, poses[1].orientation);
  QVERIFY((force.translation() - link2 * Vec3(0.15, 0, 0)).norm() < 1e-12);  // the tip marker of a 0.3 m bar
  QVERIFY((force.linear().col(2) - Vec3(0, -1, 0)).norm() < 1e-12);
  const Pose torque = userMatrix(scene.actorsOf("forces[1]").front());
  QVERIFY((torque.linear().col(2) - turned * Vec3::UnitX()).norm() < 1e-12);
  // a load on a marker that does not exist: a warning, nothing drawn
  model.forces[0].marker1 = "nowhere";
  Diagnostics missing;
  scene.build(model, &missing);
  QVERIFY2(missing.str().find("forces[0]") != std::string::npos, missing.str().c_str());
  QVERIFY(scene.actorsOf("forces[0]").empty());
}

/// The box that Home frames grows with the poses of a run: a body moved far away is inside the
/// view after a reset, where the initial framing missed it; poses that do not fit are refused.
void RenderSceneTest::boundsGrowWithTheMotion() {
  const ModelSpec model = twoLinkModel();
  ModelScene scene(plainOptions());
  scene.build(model);
  std::vector<BodyPose> poses = initialPoses(model);
  poses[1].position = Vec3(3.0, 2.0, 0.0);  // the second link far up and right
  const auto inView = [&scene](const Vec3& p) {
    const QPointF at = project(scene.renderer(), p, kWidth, kHeight);
    return at.x() >= 0 && at.x() < kWidth && at.y() >= 0 && at.y() < kHeight;
  };
  scene.resetCamera();
  QVERIFY(!inView(poses[1].position));
  QVERIFY(scene.includeInBounds(poses));
  scene.resetCamera();
  QVERIFY(inView(poses[1].position));
  QVERIFY(inView(Vec3::Zero()));  // and the pivot still
  poses.pop_back();
  QVERIFY(!scene.includeInBounds(poses));
}

QTEST_APPLESS_MAIN(RenderSceneTest)
#include "render_scene_test.moc"
