// ModelScene offscreen: the picture is not blank, moves where a body moves, and matches the
// committed reference image. Regenerate the reference with FLEXIM_UPDATE_REFERENCE=1 (then
// look at it before committing: tests/render/data/two_link_scene.png).
#include "render/inertia_shape.h"
#include "render/model_scene.h"
#include "render/offscreen_render.h"
#include "render/palette.h"

#include <QtTest>

#include <vtkCamera.h>
#include <vtkMatrix4x4.h>
#include <vtkRenderer.h>

#include <cstdlib>

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
  return options;
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
  const std::string reference = FLEXIM_TEST_DATA "/two_link_scene.png";
  const char* update = std::getenv("FLEXIM_UPDATE_REFERENCE");
  if (update && std::string(update) == "1") {
    QVERIFY(writePng(image, reference));
    qInfo("reference image written: %s", reference.c_str());
    return;
  }
  const RgbImage expected = readPng(reference);
  QVERIFY2(!expected.empty(), ("missing reference " + reference +
                               "; create it with FLEXIM_UPDATE_REFERENCE=1").c_str());
  const double differing = differingFraction(image, expected, 40);
  if (differing >= 0.01) writePng(image, QDir::temp().filePath("render_scene_actual.png").toStdString());
  // small tolerance for driver differences (anti-aliasing, font hinting)
  QVERIFY2(differing < 0.01, qPrintable(QString("%1 % of pixels differ; actual image in %2")
                                            .arg(100.0 * differing)
                                            .arg(QDir::temp().filePath("render_scene_actual.png"))));
}

QTEST_APPLESS_MAIN(RenderSceneTest)
#include "render_scene_test.moc"
