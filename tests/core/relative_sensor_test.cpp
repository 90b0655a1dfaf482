// The relative-motion sensor against the closed form of a torque-free body spinning about a
// principal axis while it drifts: its marker seen from a turned ground marker, in global axes and
// in the reference marker's, in SI and in mm and degrees; and its JSON form.
#include "core/model/sensor_quantities.h"
#include "io/model_json.h"
#include "recording_sink.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace flexim;
using flexim::test::RecordingSink;

namespace {

constexpr double kOmega = 2.0;   // [rad/s] spin about global z
constexpr double kArm = 0.3;     // [m] the tip marker from the centre of mass
constexpr double kAlpha = 0.5;   // [rad] the reference marker turned about z
const Vec3 kDrift(0.1, -0.05, 0.02);  // [m/s]
const Vec3 kStart(0.2, 0.1, 0.0);     // [m]

ModelSpec spinningBody() {
  ModelSpec m;
  m.name = "spinning body";
  RigidBodySpec body{"top", 1.5, Vec3(0.02, 0.03, 0.04).asDiagonal(), kStart};
  body.velocity = kDrift;
  body.angular_velocity = Vec3(0, 0, kOmega);
  body.markers = {{"tip", Vec3(kArm, 0, 0), Quat::Identity()}};
  m.bodies = {body};
  m.ground_markers = {{"ref", Vec3::Zero(), Quat(Eigen::AngleAxisd(kAlpha, Vec3::UnitZ()))}};
  SensorSpec gap;
  gap.name = "gap";
  gap.type = SensorType("relative");
  gap.body = "ground";
  gap.marker = "ref";
  gap.body2 = "top";
  gap.marker2 = "tip";
  gap.quantities = {"distance", "position", "velocity", "angle", "angular_velocity"};
  SensorSpec local = gap;
  local.name = "local";
  local.frame = SensorSpec::Frame::Body;
  local.quantities = {"position"};
  SensorSpec shown = gap;
  shown.name = "shown";
  shown.quantities = {"distance", "angle"};
  shown.length_unit = SensorSpec::LengthUnit::Millimetre;
  shown.angle_unit = SensorSpec::AngleUnit::Degree;
  m.sensors = {gap, local, shown};
  m.solver.t_end = 2.0;
  m.solver.step = 0;
  m.solver.output_interval = 0.01;
  m.solver.rtol = 1e-10;
  m.solver.atol = 1e-12;
  return m;
}

Vec3 column3(const RecordingSink& s, std::size_t i, const std::string& prefix) {
  return Vec3(s.value(i, prefix + ".x"), s.value(i, prefix + ".y"), s.value(i, prefix + ".z"));
}

}  // namespace

class RelativeSensorTest : public QObject {
  Q_OBJECT

 private slots:
  void isARegisteredKind() {
    const SensorKindDescription* kind = findSensorKind("relative");
    QVERIFY(kind);
    QVERIFY(kind->marker && kind->secondMarker);
    QCOMPARE(sensorQuantities(SensorType("relative")),
             (std::vector<std::string>{"distance", "position", "velocity", "angle", "angular_velocity"}));
    SensorType parsed;
    QVERIFY(fromString("relative", parsed));
    QCOMPARE(QString(toString(parsed)), QString("relative"));
    QVERIFY(!fromString("relativ", parsed));
  }

  void followsTheClosedForm() {
    RecordingSink sink;
    const RunSummary sum = test::runModel(spinningBody(), sink);
    QVERIFY2(sum.ok, sum.message.c_str());
    QVERIFY(sink.has("gap.distance.value") && sink.has("gap.angle.value") && sink.has("gap.angular_velocity.z"));
    QCOMPARE(QString::fromStdString(sink.channels[std::size_t(sink.column("shown.distance.value"))].unit), QString("mm"));
    QCOMPARE(QString::fromStdString(sink.channels[std::size_t(sink.column("shown.angle.value"))].unit), QString("deg"));
    const Mat3 toReference = Eigen::AngleAxisd(kAlpha, Vec3::UnitZ()).toRotationMatrix().transpose();
    double worst = 0;
    for (std::size_t i = 0; i < sink.samples.size(); ++i) {
      const double t = sink.samples[i].t, theta = kOmega * t;
      const Vec3 arm = Eigen::AngleAxisd(theta, Vec3::UnitZ()) * Vec3(kArm, 0, 0);
      const Vec3 p = kStart + kDrift * t + arm;
      const Vec3 v = kDrift + Vec3(0, 0, kOmega).cross(arm);
      // the angle between the axes: theta - alpha folded into [0, pi]
      const double angle = std::abs(std::remainder(theta - kAlpha, 2 * std::numbers::pi));
      const double errors[] = {
          std::abs(sink.value(i, "gap.distance.value") - p.norm()),
          (column3(sink, i, "gap.position") - p).norm(),
          (column3(sink, i, "gap.velocity") - v).norm(),
          std::abs(sink.value(i, "gap.angle.value") - angle),
          (column3(sink, i, "gap.angular_velocity") - Vec3(0, 0, kOmega)).norm(),
          (column3(sink, i, "local.position") - toReference * p).norm(),
          std::abs(sink.value(i, "shown.distance.value") - 1e3 * p.norm()) * 1e-3,
          std::abs(sink.value(i, "shown.angle.value") - angle * 180 / std::numbers::pi) * std::numbers::pi / 180,
      };
      for (double e : errors) worst = std::max(worst, e);
    }
    qInfo("%zu samples: largest error %.2e (m, m/s, rad, rad/s)", sink.samples.size(), worst);
    QVERIFY(worst < 1e-7);
  }

  void jsonNamesBothMarkers() {
    const std::string text = io::saveModelString(spinningBody());
    QVERIFY(text.find("\"type\": \"relative\"") != std::string::npos);
    QVERIFY(text.find("\"marker2\": \"tip\"") != std::string::npos);
    ModelSpec back;
    Diagnostics diag;
    QVERIFY2(io::loadModelString(text, back, diag), diag.str().c_str());
    QCOMPARE(QString::fromStdString(back.sensors[0].type.key()), QString("relative"));
    QCOMPARE(QString::fromStdString(back.sensors[0].body2), QString("top"));
    // a second marker that does not exist is named where it is
    std::string broken = text;
    broken.replace(broken.find("\"marker2\": \"tip\""), 16, "\"marker2\": \"toe\"");
    QVERIFY(!io::loadModelString(broken, back, diag));
    QVERIFY2(diag.str().find("sensors[0].marker2") != std::string::npos, diag.str().c_str());
  }
};

QTEST_APPLESS_MAIN(RelativeSensorTest)
#include "relative_sensor_test.moc"
