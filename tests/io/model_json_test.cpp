// Model JSON: lossless canonical round trip, every documented error message, warnings for
// unknown keys, the convenience forms (z_axis, diagonal inertia), and the examples. Flexible
// and virtual bodies load a tiny reduced body written by the test (tiny_reduced_body.h).
#include "io/model_json.h"
#include "model_compare.h"
#include "tiny_reduced_body.h"

#include "core/run/simulation.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <QDir>

#include <fstream>
#include <sstream>

using namespace flexim;
using nlohmann::json;

namespace {

const std::string kExamples = FLEXIM_SOURCE_DIR "/resources/examples/";
const std::string kData = FLEXIM_SOURCE_DIR "/tests/io/data/";

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Loaded {
  bool ok = false;
  Diagnostics diag;
  ModelSpec model;
};

Loaded load(const std::string& text) {
  Loaded r;
  r.ok = io::loadModelString(text, r.model, r.diag);
  return r;
}
Loaded load(const json& doc) { return load(doc.dump(2)); }
/// Loads with reduced-body files resolved against baseDir.
Loaded loadIn(const std::string& text, const std::string& baseDir) {
  Loaded r;
  r.ok = io::loadModelString(text, r.model, r.diag, "<string>", baseDir);
  return r;
}
Loaded loadIn(const json& doc, const std::string& baseDir) { return loadIn(doc.dump(2), baseDir); }

/// "where: message" of every item with the given severity.
std::vector<std::string> lines(const Diagnostics& d, Severity s) {
  std::vector<std::string> out;
  for (const auto& item : d.items())
    if (item.severity == s) out.push_back(item.where.empty() ? item.message : item.where + ": " + item.message);
  return out;
}
bool hasError(const Loaded& r, const std::string& text) {
  const auto e = lines(r.diag, Severity::Error);
  return std::find(e.begin(), e.end(), text) != e.end();
}

/// A small valid model; each error test breaks one thing in it.
json baseDoc() {
  return json::parse(R"({
    "schema_version": 1,
    "name": "base",
    "ground": {"markers": [{"name": "O"}]},
    "bodies": [
      {"name": "link", "mass": 1, "inertia": [1, 1, 1],
       "markers": [{"name": "A"}, {"name": "B", "position": [1, 0, 0]}]},
      {"name": "rod", "mass": 2, "inertia": [1, 2, 2], "position": [1, 0, 0], "markers": [{"name": "A"}]},
      {"name": "tip", "mass": 0.5, "inertia": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}
    ],
    "joints": [
      {"name": "pivot", "type": "revolute", "body1": "ground", "marker1": "O", "body2": "link", "marker2": "A"},
      {"name": "pin", "type": "spherical", "body1": "link", "marker1": "B", "body2": "rod", "marker2": "A"}
    ],
    "drivers": [{"name": "motor", "joint": "pivot", "function": {"type": "constant_speed", "speed": 1}}],
    "forces": [{"name": "push", "type": "point_force", "body": "rod", "marker": "A", "vector": [1, 0, 0]}],
    "sensors": [{"name": "angle", "type": "joint", "joint": "pivot", "quantities": ["coordinate"]}],
    "simulation": {"t_end": 1}
  })");
}

/// A valid model with every new kind of item; it loads without a diagnostic where rod.frb is
/// test::tinyRod() (node ids 101..108, 4 modes of which 2 elastic, interfaces END_A, END_B).
json flexDoc() {
  return json::parse(R"({
    "schema_version": 1,
    "ground": {"markers": [{"name": "O"}]},
    "bodies": [{"name": "link", "mass": 1, "inertia": [1, 1, 1], "markers": [{"name": "A"}]}],
    "flexible_bodies": [{"name": "beam", "file": "rod.frb", "damping": {"ratio": 0.02}}],
    "virtual_bodies": [
      {"name": "beam_A", "flexible_body": "beam", "point": [0, 0, 0], "nodes": [101, 102, 103],
       "markers": [{"name": "pin", "z_axis": [0, 0, 1]}]},
      {"name": "beam_B", "flexible_body": "beam", "interface": "END_B", "markers": [{"name": "pin"}]}
    ],
    "joints": [
      {"name": "pivot", "type": "revolute", "body1": "ground", "marker1": "O", "body2": "beam_A", "marker2": "pin"},
      {"name": "hinge", "type": "spherical", "body1": "beam_B", "marker1": "pin", "body2": "link", "marker2": "A"}
    ],
    "forces": [{"name": "push", "type": "point_force", "body": "beam_B", "marker": "pin", "vector": [0, 1, 0]}],
    "sensors": [
      {"name": "tip", "type": "node", "body": "beam", "node": 108, "frame": "body",
       "quantities": ["position", "displacement"]},
      {"name": "mid", "type": "deflection", "body": "beam", "node": 104, "chord": [101, 108],
       "quantities": ["deflection", "normalized"]},
      {"name": "q", "type": "modal", "body": "beam", "quantities": ["coordinate", "velocity"]},
      {"name": "end", "type": "marker", "body": "beam_B", "marker": "pin", "quantities": ["position"]},
      {"name": "energy", "type": "energy", "quantities": ["strain", "total"]}
    ]
  })");
}

Quat unitQuat(double w, double x, double y, double z) { return Quat(w, x, y, z).normalized(); }

/// Every field of ModelSpec set to something other than its default, every enum value used.
ModelSpec everyField() {
  ModelSpec m;
  m.name = "every \"field\"";
  m.description = "line one\nline two, unicode: \xce\xbc = 0.3 \xe2\x80\x94 tab\t";
  m.gravity = Vec3(0.1, -9.80665, 1e-300);
  m.ground_markers = {{"G1", Vec3(1, 2, 3), unitQuat(0.9, 0.1, -0.2, 0.3)}, {"G2", Vec3(-0.5, 0, 1e-7), Quat::Identity()}};
  RigidBodySpec b;
  b.name = "body one";
  b.mass = 3.25;
  b.inertia << 2.0, 0.1, -0.2, 0.1, 3.0, 0.05, -0.2, 0.05, 4.0;
  b.position = Vec3(0.1, 0.2, 0.3);
  b.orientation = unitQuat(0.5, 0.5, -0.5, 0.5);
  b.velocity = Vec3(1, -2, 3);
  b.angular_velocity = Vec3(-0.1, 0.2, 1.0 / 3.0);
  b.markers = {{"M1", Vec3(0.3, 0, 0), unitQuat(0.2, 0.3, 0.4, 0.5)}, {"M2", Vec3(0, 0.1, 0), Quat::Identity()}};
  RigidBodySpec c = b;
  c.name = "body2";
  c.mass = 0.001;
  c.inertia = Vec3(1e-6, 2e-6, 2.5e-6).asDiagonal();
  m.bodies = {b, c};
  int i = 0;
  for (JointType t : {JointType::Fixed, JointType::Revolute, JointType::Prismatic, JointType::Cylindrical,
                      JointType::Spherical, JointType::Universal, JointType::Planar})
    m.joints.push_back({"j" + std::to_string(i++), t, "ground", "G1", "body one", "M1"});

  using TF = TimeFunctionSpec::Type;
  TimeFunctionSpec constant{TF::Constant, 2.5};
  TimeFunctionSpec speed;
  speed.type = TF::ConstantSpeed;
  speed.initial = 0.1;
  speed.speed = 150;
  TimeFunctionSpec ramp;
  ramp.type = TF::Ramp;
  ramp.initial = -1;
  ramp.start = 0.25;
  ramp.slope = 3;
  TimeFunctionSpec step;
  step.type = TF::SmoothStep;
  step.t0 = 0.5;
  step.t1 = 1.5;
  step.value0 = -2;
  step.value1 = 7;
  TimeFunctionSpec harmonic;
  harmonic.type = TF::Harmonic;
  harmonic.amplitude = 0.3;
  harmonic.frequency = 2.5;
  harmonic.phase = 0.7;
  harmonic.offset = -0.1;
  TimeFunctionSpec table;
  table.type = TF::Table;
  table.times = {0, 0.1, 0.25, 1};
  table.values = {0, 1.5, -0.3, 2};
  using C = DriverSpec::Coordinate;
  m.drivers = {{"d0", "j1", C::Rotation, constant}, {"d1", "j1", C::Rotation, speed},
               {"d2", "j2", C::Translation, ramp},  {"d3", "j3", C::Translation, step},
               {"d4", "j3", C::Rotation, harmonic}, {"d5", "j1", C::Rotation, table}};

  ForceSpec pf;
  pf.name = "pf";
  pf.type = ForceSpec::Type::PointForce;
  pf.body1 = "body one";
  pf.marker1 = "M2";
  pf.vector = Vec3(1, 2, 3);
  pf.frame = ForceSpec::Frame::Marker;
  pf.function = harmonic;
  ForceSpec pt = pf;
  pt.name = "pt";
  pt.type = ForceSpec::Type::PointTorque;
  pt.body1 = "ground";
  pt.marker1 = "G2";
  pt.frame = ForceSpec::Frame::Global;
  pt.function = table;
  ForceSpec sd;
  sd.name = "sd";
  sd.type = ForceSpec::Type::SpringDamper;
  sd.body1 = "ground";
  sd.marker1 = "G1";
  sd.body2 = "body2";
  sd.marker2 = "M1";
  sd.stiffness = 1e4;
  sd.damping = 12.5;
  sd.free_length = 0.4;
  sd.preload = -3;
  ForceSpec bu;
  bu.name = "bu";
  bu.type = ForceSpec::Type::Bushing;
  bu.body1 = "body one";
  bu.marker1 = "M1";
  bu.body2 = "body2";
  bu.marker2 = "M2";
  bu.bushing_stiffness << 1, 2, 3, 4, 5, 6;
  bu.bushing_damping << 0.1, 0.2, 0.3, 0.4, 0.5, 0.6;
  m.forces = {pf, pt, sd, bu};

  SensorSpec ms;
  ms.name = "marker_sensor";
  ms.type = SensorSpec::Type::Marker;
  ms.body = "body2";
  ms.marker = "M2";
  ms.frame = SensorSpec::Frame::Body;
  ms.quantities = {"position", "orientation", "velocity", "angular_velocity", "acceleration", "angular_acceleration"};
  ms.components = {"z", "w", "x"};
  ms.length_unit = SensorSpec::LengthUnit::Millimetre;
  ms.angle_unit = SensorSpec::AngleUnit::Degree;
  SensorSpec js;
  js.name = "joint_sensor";
  js.type = SensorSpec::Type::Joint;
  js.joint = "j3";
  js.frame = SensorSpec::Frame::Body;
  js.quantities = {"reaction_torque", "coordinate", "velocity", "reaction_force"};
  js.components = {"y"};
  js.length_unit = SensorSpec::LengthUnit::Millimetre;
  SensorSpec es;
  es.name = "energy";
  es.type = SensorSpec::Type::Energy;
  es.quantities = {"total", "kinetic", "potential"};
  m.sensors = {ms, js, es};

  m.solver.t_end = 2.5;
  m.solver.step = 2e-4;
  m.solver.output_interval = 5e-3;
  m.solver.integrator = IntegratorType::GeneralizedAlpha;
  m.solver.step_control = StepControl::Adaptive;
  m.solver.rtol = 1e-9;
  m.solver.atol = 1e-11;
  m.solver.rho_inf = 0.6;
  m.solver.newton_tol = 1e-12;
  m.solver.max_newton = 7;
  return m;
}

/// everyField() plus flexible bodies (three naming one file, spelled two ways), virtual bodies
/// in all three placements, joints, forces and sensors on them, and the new sensor types.
ModelSpec everyFlexibleField() {
  ModelSpec m = everyField();
  FlexibleBodySpec f;
  f.name = "beam";
  f.file = "rod.frb";
  f.mode_count = 3;
  f.reference = ReferenceFrame::Interface;
  f.reference_interface = "END_A";
  f.position = Vec3(0.1, -0.2, 0.3);
  f.orientation = unitQuat(0.7, 0.1, 0.2, -0.3);
  f.velocity = Vec3(1, 2, 3);
  f.angular_velocity = Vec3(0.5, -0.25, 1.0 / 3.0);
  f.modal_coordinates = {1e-3, -2e-4, 5e-6};
  f.damping.ratio = {0.02};
  f.damping.alpha = 0.1;
  f.damping.beta = 1e-5;
  f.stiffness_scale = 1e6;
  FlexibleBodySpec g;
  g.name = "beam2";
  g.file = "./sub/../rod.frb";  // the same file: loaded once
  g.reference = ReferenceFrame::PrincipalAxis;
  g.damping.ratio = {0.01, 0.03};  // one per elastic mode
  FlexibleBodySpec h;
  h.name = "beam3";
  h.file = "rod.frb";
  m.flexible_bodies = {f, g, h};

  VirtualBodySpec a;
  a.name = "beam_A";
  a.flexible_body = "beam";
  a.point = Vec3(0.01, 0, 0);
  a.nodes = {101, 103, 102};
  a.orientation = unitQuat(0.5, 0.5, 0.5, 0.5);
  a.markers = {{"pin", Vec3(0, 0.01, 0), unitQuat(0.9, 0, 0.1, 0)}, {"tip", Vec3::Zero(), Quat::Identity()}};
  VirtualBodySpec b;
  b.name = "beam_B";
  b.flexible_body = "beam";
  b.interface = "END_B";
  b.markers = {{"pin", Vec3::Zero(), Quat::Identity()}};
  VirtualBodySpec c;
  c.name = "beam2 mid";
  c.flexible_body = "beam2";
  c.point = Vec3(0.15, 0.001, -0.002);
  m.virtual_bodies = {a, b, c};

  m.joints.push_back({"jv1", JointType::Spherical, "beam_A", "pin", "body one", "M1"});
  m.joints.push_back({"jv2", JointType::Revolute, "ground", "G2", "beam_B", "pin"});
  ForceSpec sd;
  sd.name = "spring to flex";
  sd.type = ForceSpec::Type::SpringDamper;
  sd.body1 = "beam_A";
  sd.marker1 = "tip";
  sd.body2 = "body2";
  sd.marker2 = "M2";
  sd.stiffness = 100;
  m.forces.push_back(sd);

  SensorSpec node;
  node.name = "tip";
  node.type = SensorSpec::Type::Node;
  node.body = "beam";
  node.node = 108;
  node.frame = SensorSpec::Frame::Body;
  node.quantities = {"displacement", "position", "velocity", "acceleration"};
  SensorSpec node2 = node;
  node2.name = "tip global";
  node2.body = "beam3";
  node2.node = 101;
  node2.frame = SensorSpec::Frame::Global;
  node2.quantities = {"position"};
  SensorSpec defl;
  defl.name = "mid";
  defl.type = SensorSpec::Type::Deflection;
  defl.body = "beam2";
  defl.node = 104;
  defl.chord = {108, 101};
  defl.quantities = {"normalized", "deflection"};
  SensorSpec modal;
  modal.name = "q";
  modal.type = SensorSpec::Type::Modal;
  modal.body = "beam";
  modal.quantities = {"velocity", "coordinate"};
  SensorSpec onVirtual;
  onVirtual.name = "pin";
  onVirtual.type = SensorSpec::Type::Marker;
  onVirtual.body = "beam_A";
  onVirtual.marker = "pin";
  onVirtual.quantities = {"position", "angular_velocity"};
  SensorSpec strain;
  strain.name = "strain";
  strain.type = SensorSpec::Type::Energy;
  strain.quantities = {"strain", "kinetic"};
  for (const SensorSpec& sensor : {node, node2, defl, modal, onVirtual, strain}) m.sensors.push_back(sensor);
  return m;
}

std::vector<std::string> errorsStartingWith(const Loaded& r, const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& e : lines(r.diag, Severity::Error))
    if (e.rfind(prefix, 0) == 0) out.push_back(e);
  return out;
}

}  // namespace

class ModelJsonTest : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;  ///< holds rod.frb (test::tinyRod())
  std::string m_base;

 private slots:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    m_base = m_dir.path().toStdString();
    const std::string error = test::writeTinyRod(m_base + "/rod.frb");
    QVERIFY2(error.empty(), error.c_str());
  }

  // ---- round trip ----------------------------------------------------------------------

  void everyFieldRoundTripsLosslessly() {
    const ModelSpec m = everyField();
    const std::string text = io::saveModelString(m);
    const Loaded r = load(text);
    QVERIFY2(r.ok, r.diag.str().c_str());
    QVERIFY2(r.diag.items().empty(), r.diag.str().c_str());  // canonical output draws no warning
    const std::string diff = test::modelDifferences(m, r.model);
    QVERIFY2(diff.empty(), diff.c_str());
    QCOMPARE(io::saveModelString(r.model), text);
  }

  void examplesRoundTripByteIdentical_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"slider_crank_rigid.json", "double_pendulum.json", "spatial_mechanism.json"})
      QTest::newRow(f) << QString(f);
  }
  void examplesRoundTripByteIdentical() {
    QFETCH(QString, file);
    ModelSpec first;
    Diagnostics diag;
    QVERIFY2(io::loadModelFile(kExamples + file.toStdString(), first, diag), diag.str().c_str());
    QVERIFY2(diag.items().empty(), diag.str().c_str());
    const std::string saved = io::saveModelString(first);
    const Loaded second = load(saved);
    QVERIFY2(second.ok, second.diag.str().c_str());
    const std::string diff = test::modelDifferences(first, second.model);
    QVERIFY2(diff.empty(), diff.c_str());
    QCOMPARE(io::saveModelString(second.model), saved);
  }

  void savedFileIsCanonicalText() {
    ModelSpec m;
    m.name = "tiny";
    m.gravity = Vec3(0, -9.81, 0);
    const std::string text = io::saveModelString(m);
    QVERIFY(text.rfind("{\n  \"schema_version\": 1,\n  \"name\": \"tiny\",\n", 0) == 0);
    QVERIFY(text.find("\"gravity\": [0.0, -9.81, 0.0],") != std::string::npos);
    QVERIFY(text.back() == '\n');
  }

  void saveFileWritesAtomicallyAndReportsFailure() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("model.json").toStdString();
    std::string error;
    QVERIFY2(io::saveModelFile(everyField(), path, &error), error.c_str());
    QCOMPARE(readFile(path), io::saveModelString(everyField()));
    QVERIFY(!QFile::exists(QString::fromStdString(path + ".tmp")));
    QVERIFY(!io::saveModelFile(everyField(), dir.filePath("missing/dir/model.json").toStdString(), &error));
    QVERIFY2(error.find("missing/dir/model.json") != std::string::npos, error.c_str());
  }

  // ---- examples ------------------------------------------------------------------------

  void examplesCompileWithExpectedMobility_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("dof");
    QTest::newRow("slider crank") << "slider_crank_rigid.json" << 0;
    QTest::newRow("double pendulum") << "double_pendulum.json" << 2;
    QTest::newRow("spatial") << "spatial_mechanism.json" << 0;
  }
  void examplesCompileWithExpectedMobility() {
    QFETCH(QString, file);
    QFETCH(int, dof);
    ModelSpec m;
    Diagnostics diag;
    QVERIFY2(io::loadModelFile(kExamples + file.toStdString(), m, diag), diag.str().c_str());
    auto sim = Simulation::create(m, diag);
    QVERIFY2(sim, diag.str().c_str());
    const ModelCheck c = sim->check();
    QCOMPARE(c.dof, dof);
    QVERIFY2(c.redundant.empty(), c.str().c_str());
    QVERIFY2(c.initial_position_residual < 1e-12, c.str().c_str());  // written consistent at t = 0
  }

  void referenceExampleLoads() {
    // the annotated example in docs/model-format.md must stay a valid model
    const std::string doc = readFile(FLEXIM_SOURCE_DIR "/docs/model-format.md");
    const auto begin = doc.find("```json\n");
    QVERIFY(begin != std::string::npos);
    const auto end = doc.find("```", begin + 8);
    const Loaded r = load(doc.substr(begin + 8, end - begin - 8));
    QVERIFY2(r.ok && r.diag.items().empty(), r.diag.str().c_str());
    QCOMPARE(r.model.joints.size(), size_t(4));
  }

  // ---- convenience forms ---------------------------------------------------------------

  void zAxisGivesMarkerOrientation() {
    json doc = baseDoc();
    doc["bodies"][0]["markers"][0] = {{"name", "A"}, {"z_axis", {2, 0, 0}}};
    doc["bodies"][0]["markers"][1] = {{"name", "B"}, {"z_axis", {0, 0, 3}}, {"x_axis", {1, 1, 5}}};
    const Loaded r = load(doc);
    QVERIFY2(r.ok, r.diag.str().c_str());
    const Mat3 a = r.model.bodies[0].markers[0].orientation.toRotationMatrix();
    QVERIFY((a.col(2) - Vec3::UnitX()).norm() < 1e-15);
    QVERIFY((a.col(0) - Vec3::UnitY()).norm() < 1e-15);  // body y, as body x is along z
    const Mat3 b = r.model.bodies[0].markers[1].orientation.toRotationMatrix();
    QVERIFY((b.col(2) - Vec3::UnitZ()).norm() < 1e-15);
    QVERIFY((b.col(0) - Vec3(1, 1, 0).normalized()).norm() < 1e-15);  // x_axis made orthogonal
    QVERIFY(io::saveModelString(r.model).find("z_axis") == std::string::npos);  // saved as orientation
  }

  /// Cardan angles [deg] of x-y'-z'': a body at (90, 0, 90) is R = Rx(90) Rz(90), checked column
  /// by column; saved as a quaternion; both forms at once is an error.
  void anglesGiveAnOrientation() {
    json doc = baseDoc();
    doc["bodies"][0]["orientation_xyz_deg"] = {90, 0, 90};
    doc["bodies"][0]["markers"][0] = {{"name", "A"}, {"orientation_xyz_deg", {0, -30, 0}}};
    const Loaded r = load(doc);
    QVERIFY2(r.ok, r.diag.str().c_str());
    // Rx(90) Rz(90): x -> Rx(90) y = z; y -> Rx(90) (-x) = -x; z -> Rx(90) z = -y
    const Mat3 R = r.model.bodies[0].orientation.toRotationMatrix();
    QVERIFY((R.col(0) - Vec3::UnitZ()).norm() < 1e-15);
    QVERIFY((R.col(1) + Vec3::UnitX()).norm() < 1e-15);
    QVERIFY((R.col(2) + Vec3::UnitY()).norm() < 1e-15);
    const Mat3 A = r.model.bodies[0].markers[0].orientation.toRotationMatrix();
    QVERIFY((A.col(0) - Vec3(std::sqrt(3.0) / 2, 0, 0.5)).norm() < 1e-15);  // -30 deg about y lifts x
    const std::string saved = io::saveModelString(r.model);
    QVERIFY(saved.find("xyz_deg") == std::string::npos);
    doc["bodies"][0]["orientation"] = {1, 0, 0, 0};
    const Loaded both = load(doc);
    QVERIFY(!both.ok);
    QVERIFY2(both.diag.str().find("give one of orientation, orientation_xyz_deg, not several") != std::string::npos, both.diag.str().c_str());
  }

  void orientationIsNormalised() {
    json doc = baseDoc();
    doc["bodies"][0]["orientation"] = {2, 0, 0, 2};
    const Loaded r = load(doc);
    QVERIFY2(r.ok, r.diag.str().c_str());
    QVERIFY(std::abs(r.model.bodies[0].orientation.norm() - 1) < 1e-15);
    QVERIFY(std::abs(r.model.bodies[0].orientation.w() - std::sqrt(0.5)) < 1e-15);
  }

  void diagonalInertiaEqualsMatrix() {
    json doc = baseDoc();
    doc["bodies"][0]["inertia"] = {1, 2, 2.5};
    const Loaded r = load(doc);
    QVERIFY2(r.ok, r.diag.str().c_str());
    QVERIFY(r.model.bodies[0].inertia == Mat3(Vec3(1, 2, 2.5).asDiagonal()));
  }

  void nearlySymmetricInertiaBecomesExactlySymmetric() {
    // off-diagonal pairs that differ in their last digits (fuzz_model found the first pair:
    // the symmetrised matrix was not symmetric, and save -> load -> save changed the text)
    json doc = baseDoc();
    doc["bodies"][0]["inertia"] = {{0.001750024324, -0.0003247454829, -0.0009374594595},
                                   {-0.0003247454828, 0.002125008108, -0.0005412424713},
                                   {-0.0009374594596, -0.0005412424712, 0.0007500675676}};
    const Loaded r = load(doc);
    QVERIFY2(r.ok, r.diag.str().c_str());
    const Mat3& I = r.model.bodies[0].inertia;
    QVERIFY(I == I.transpose());
    QCOMPARE(I(0, 1), 0.5 * (-0.0003247454829 + -0.0003247454828));
    const std::string saved = io::saveModelString(r.model);
    const Loaded again = load(saved);
    QVERIFY2(again.ok, again.diag.str().c_str());
    QCOMPARE(io::saveModelString(again.model), saved);
  }

  void defaultsApplyForOptionalKeys() {
    const Loaded r = load(baseDoc());
    QVERIFY2(r.ok, r.diag.str().c_str());
    QVERIFY2(r.diag.items().empty(), r.diag.str().c_str());
    const ModelSpec& m = r.model;
    QCOMPARE(m.bodies[0].position, Vec3::Zero());
    QVERIFY(m.bodies[0].orientation.coeffs() == Quat::Identity().coeffs());
    QCOMPARE(m.drivers[0].coordinate, DriverSpec::Coordinate::Rotation);
    QCOMPARE(m.drivers[0].function.initial, 0.0);
    QCOMPARE(m.forces[0].frame, ForceSpec::Frame::Global);
    QCOMPARE(m.forces[0].function.type, TimeFunctionSpec::Type::Constant);
    QCOMPARE(m.forces[0].function.value, 1.0);
    QCOMPARE(m.solver.t_end, 1.0);
    QCOMPARE(m.solver.rtol, SolverSpec().rtol);
  }

  void prismaticDriverDefaultsToTranslation() {
    json doc = baseDoc();
    doc["joints"][0]["type"] = "prismatic";
    const Loaded r = load(doc);
    QVERIFY2(r.ok, r.diag.str().c_str());
    QCOMPARE(r.model.drivers[0].coordinate, DriverSpec::Coordinate::Translation);
  }

  // ---- errors (exact text) -------------------------------------------------------------

  void errorMessages_data() {
    QTest::addColumn<QString>("pointer");  // JSON pointer of the value to replace ("" = remove)
    QTest::addColumn<QString>("value");    // JSON text, or "REMOVE"
    QTest::addColumn<QString>("expected");
    const auto row = [](const char* name, const char* ptr, const char* value, const char* expected) {
      QTest::newRow(name) << QString(ptr) << QString(value) << QString(expected);
    };
    row("non-symmetric inertia", "/bodies/2/inertia", "[[1,0.5,0],[0,1,0],[0,0,1]]",
        "bodies[2].inertia: expected 3x3 symmetric positive-definite matrix");
    row("negative inertia", "/bodies/2/inertia", "[1,-1,1]",
        "bodies[2].inertia: expected 3x3 symmetric positive-definite matrix");
    row("inertia shape", "/bodies/2/inertia", "[[1,0],[0,1]]",
        "bodies[2].inertia: expected a 3x3 array or a diagonal [Ixx, Iyy, Izz]");
    row("mass missing", "/bodies/0/mass", "REMOVE", "bodies[0].mass: required");
    row("mass zero", "/bodies/0/mass", "0", "bodies[0].mass: must be positive");
    row("mass negative", "/bodies/0/mass", "-2", "bodies[0].mass: must be positive");
    row("mass string", "/bodies/0/mass", "\"heavy\"", "bodies[0].mass: expected a number");
    row("mass underflow", "/bodies/0/mass", "1e-999", "bodies[0].mass: must be positive");
    row("joint type", "/joints/1/type", "\"hinge\"",
        "joints[1].type: expected one of fixed, revolute, prismatic, cylindrical, spherical, universal, planar, "
        "screw, got 'hinge'");
    row("joint type number", "/joints/1/type", "3",
        "joints[1].type: expected one of fixed, revolute, prismatic, cylindrical, spherical, universal, planar, "
        "screw");
    row("duplicate body", "/bodies/1/name", "\"link\"", "bodies[1].name: duplicate name 'link'");
    row("empty name", "/bodies/1/name", "\"\"", "bodies[1].name: must not be empty");
    row("ground name", "/bodies/1/name", "\"ground\"", "bodies[1].name: 'ground' is reserved for the fixed ground body");
    row("duplicate marker", "/bodies/0/markers/1/name", "\"A\"", "bodies[0].markers[1].name: duplicate name 'A'");
    row("unknown marker", "/joints/1/marker2", "\"B\"", "joints[1].marker2: body 'rod' has no marker 'B'");
    row("unknown body", "/joints/0/body1", "\"nope\"", "joints[0].body1: no body named 'nope'");
    row("self joint", "/joints/1/body2", "\"link\"", "joints[1].body2: a joint cannot connect body 'link' to itself");
    row("vector shape", "/bodies/0/position", "[1,2]", "bodies[0].position: expected an array of 3 numbers");
    row("zero quaternion", "/bodies/0/orientation", "[0,0,0,0]",
        "bodies[0].orientation: expected [w, x, y, z] with a non-zero length");
    row("orientation and axes", "/bodies/0/markers/0", R"({"name": "A", "orientation": [1,0,0,0], "z_axis": [0,0,1]})",
        "bodies[0].markers[0].orientation: give one of orientation, orientation_xyz_deg or z_axis/x_axis, not several");
    row("zero z axis", "/bodies/0/markers/1/z_axis", "[0,0,0]", "bodies[0].markers[1].z_axis: must not be zero");
    row("x axis without z axis", "/bodies/0/markers/1/x_axis", "[1,0,0]", "bodies[0].markers[1].z_axis: required");
    row("parallel x axis", "/bodies/0/markers/1", R"({"name": "B", "z_axis": [0,0,1], "x_axis": [0,0,-2]})",
        "bodies[0].markers[1].x_axis: must not be zero or parallel to z_axis");
    row("unknown driver joint", "/drivers/0/joint", "\"nope\"", "drivers[0].joint: no joint named 'nope'");
    row("driver coordinate", "/drivers/0/coordinate", "\"translation\"",
        "drivers[0].coordinate: a revolute joint cannot be driven in translation (drivers need a revolute, "
        "prismatic, cylindrical or screw joint)");
    row("driver function missing", "/drivers/0/function", "REMOVE", "drivers[0].function: required");
    row("function parameter missing", "/drivers/0/function", "{\"type\": \"constant_speed\"}",
        "drivers[0].function.speed: required");
    row("table not increasing", "/drivers/0/function", "{\"type\": \"table\", \"times\": [0, 1, 1], \"values\": [0, 1, 2]}",
        "drivers[0].function: times must be strictly increasing");
    row("table lengths", "/drivers/0/function", "{\"type\": \"table\", \"times\": [0, 1, 2], \"values\": [0, 1]}",
        "drivers[0].function: times and values must have the same length");
    row("table element", "/drivers/0/function", "{\"type\": \"table\", \"times\": [0, \"x\"], \"values\": [0, 1]}",
        "drivers[0].function.times[1]: expected a number");
    row("smooth step order", "/drivers/0/function", "{\"type\": \"smooth_step\", \"t0\": 1, \"value0\": 0, \"t1\": 1, \"value1\": 1}",
        "drivers[0].function: t1 must be greater than t0");
    row("function type", "/drivers/0/function/type", "\"linear\"",
        "drivers[0].function.type: expected one of constant, constant_speed, ramp, smooth_step, harmonic, table, "
        "got 'linear'");
    row("force frame", "/forces/0/frame", "\"local\"", "forces[0].frame: expected one of global, marker, got 'local'");
    row("spring negative", "/forces/0", R"({"name": "s", "type": "spring_damper", "body1": "ground", "marker1": "O",
        "body2": "rod", "marker2": "A", "stiffness": -1, "free_length": 1})",
        "forces[0].stiffness: must not be negative");
    row("bushing shape", "/forces/0", R"({"name": "b", "type": "bushing", "body1": "ground", "marker1": "O",
        "body2": "rod", "marker2": "A", "bushing_stiffness": [1, 2, 3]})",
        "forces[0].bushing_stiffness: expected an array of 6 numbers");
    row("unknown quantity", "/sensors/0/quantities", "[\"coordinate\", \"speed\"]",
        "sensors[0].quantities[1]: unknown quantity 'speed' for a joint sensor (expected one of coordinate, "
        "velocity, reaction_force, reaction_torque)");
    row("duplicate quantity", "/sensors/0/quantities", "[\"coordinate\", \"coordinate\"]",
        "sensors[0].quantities[1]: duplicate quantity 'coordinate'");
    row("no quantity", "/sensors/0/quantities", "[]", "sensors[0].quantities: expected at least one quantity");
    row("sensor name", "/sensors/0/name", "\"a.b\"",
        "sensors[0].name: must not contain , \" . [ ] or control characters (it starts CSV column names)");
    row("sensor joint", "/sensors/0/joint", "\"nope\"", "sensors[0].joint: no joint named 'nope'");
    row("unknown component", "/sensors/0", R"({"name": "angle", "type": "joint", "joint": "pivot",
        "quantities": ["coordinate", "reaction_force"], "components": ["x", "w"]})",
        "sensors[0].components[1]: no quantity of this sensor has component 'w' (expected one of x, y, z)");
    row("component of a scalar", "/sensors/0/components", "[\"x\"]",
        "sensors[0].components[0]: no quantity of this sensor has component 'x' (its quantities are scalars: there "
        "are no components to choose)");
    row("duplicate component", "/sensors/0", R"({"name": "angle", "type": "joint", "joint": "pivot",
        "quantities": ["reaction_force"], "components": ["x", "x"]})",
        "sensors[0].components[1]: duplicate component 'x'");
    row("quantity without a column", "/sensors/0", R"({"name": "m", "type": "marker", "body": "link", "marker": "A",
        "quantities": ["position", "orientation"], "components": ["w"]})",
        "sensors[0].components: leaves quantity 'position' without a column (it has x, y, z)");
    row("components not strings", "/sensors/0/components", "[1]", "sensors[0].components[0]: expected a string");
    row("length unit", "/sensors/0/length_unit", "\"cm\"", "sensors[0].length_unit: expected one of m, mm, got 'cm'");
    row("angle unit", "/sensors/0/angle_unit", "\"degrees\"",
        "sensors[0].angle_unit: expected one of rad, deg, got 'degrees'");
    const char* contact = R"({"name": "c", "type": "sphere_plane", "body1": "rod", "marker1": "A", "body2": "ground",
        "marker2": "O", "radius": 0.01)";
    row("contact friction", "/contacts", (std::string("[") + contact + R"(, "friction": -0.1}])").c_str(),
        "contacts[0].friction: must not be negative");
    row("contact restitution", "/contacts", (std::string("[") + contact + R"(, "restitution": 1.5}])").c_str(),
        "contacts[0].restitution: must be in [0, 1]");
    row("contact radius", "/contacts", (std::string("[") + contact + R"(, "radius": 0}])").c_str(),
        "contacts[0].radius: must be positive");
    row("contact integrator", "/contacts", (std::string("[") + contact + "}]").c_str(),
        "simulation.integrator: contact 'c' needs a mixed timestepping scheme (mixed-gen-alpha, mixed-bathe, "
        "mixed-ed-alpha, moreau or hets): ida cannot integrate impacts and friction");
    row("contact on one body", "/contacts", R"([{"name": "c", "type": "point_plane", "body1": "rod", "marker1": "A",
        "body2": "rod", "marker2": "A"}])", "contacts[0].body2: is the same body as body1: a body cannot touch itself");
    row("t_end zero", "/simulation/t_end", "0", "simulation.t_end: must be positive");
    row("step negative", "/simulation/step", "-1e-3", "simulation.step: must not be negative");
    row("rho_inf", "/simulation/rho_inf", "1.5", "simulation.rho_inf: must be in [0, 1]");
    row("integrator", "/simulation/integrator", "\"euler\"",
        "simulation.integrator: expected one of ida, gen-alpha, mixed-gen-alpha, mixed-bathe, mixed-ed-alpha, moreau, "
        "hets, got 'euler'");
    row("step_control", "/simulation/step_control", "\"variable\"",
        "simulation.step_control: expected one of fixed, adaptive, got 'variable'");
    row("max_newton", "/simulation/max_newton", "2.5", "simulation.max_newton: expected an integer");
    row("max_newton huge", "/simulation/max_newton", "123456789012345678901234567890",
        "simulation.max_newton: expected an integer");
    row("bodies not array", "/bodies", "{}", "bodies: expected an array");
    row("body not object", "/bodies/0", "7", "bodies[0]: expected an object");
    row("schema missing", "/schema_version", "REMOVE", "schema_version: required");
    row("schema newer", "/schema_version", "2", "<string>: schema_version 2 is newer than this Flexim supports (1)");
    row("schema zero", "/schema_version", "0", "schema_version: must be 1");
  }
  void errorMessages() {
    QFETCH(QString, pointer);
    QFETCH(QString, value);
    QFETCH(QString, expected);
    json doc = baseDoc();
    const json::json_pointer ptr(pointer.toStdString());
    if (value == "REMOVE")
      doc.at(ptr.parent_pointer()).erase(ptr.back());
    else
      doc[ptr] = json::parse(value.toStdString());
    const Loaded r = load(doc);
    QVERIFY(!r.ok);
    QVERIFY2(hasError(r, expected.toStdString()), r.diag.str().c_str());
  }

  /// A sensor's components and display units are written only when chosen, so models without
  /// them save as before; chosen, they read back as written.
  void sensorUnitsAndComponentsOnlyWhenChosen() {
    const Loaded plain = load(baseDoc());
    QVERIFY2(plain.ok, plain.diag.str().c_str());
    const std::string saved = io::saveModelString(plain.model);
    for (const char* key : {"components", "length_unit", "angle_unit"}) QVERIFY2(saved.find(key) == std::string::npos, key);
    QVERIFY(plain.model.sensors[0].components.empty());
    QCOMPARE(plain.model.sensors[0].length_unit, SensorSpec::LengthUnit::Metre);
    QCOMPARE(plain.model.sensors[0].angle_unit, SensorSpec::AngleUnit::Radian);

    json doc = baseDoc();
    doc["sensors"][0]["quantities"] = {"coordinate", "reaction_torque"};
    doc["sensors"][0]["components"] = {"z"};
    doc["sensors"][0]["length_unit"] = "mm";
    doc["sensors"][0]["angle_unit"] = "deg";
    const Loaded chosen = load(doc);
    QVERIFY2(chosen.ok && chosen.diag.items().empty(), chosen.diag.str().c_str());
    const SensorSpec& s = chosen.model.sensors[0];
    QCOMPARE(s.components, std::vector<std::string>{"z"});
    QCOMPARE(s.length_unit, SensorSpec::LengthUnit::Millimetre);
    QCOMPARE(s.angle_unit, SensorSpec::AngleUnit::Degree);
    const json back = json::parse(io::saveModelString(chosen.model));
    QCOMPARE(back["sensors"][0]["components"], json({"z"}));
    QCOMPARE(back["sensors"][0]["length_unit"], json("mm"));
    QCOMPARE(back["sensors"][0]["angle_unit"], json("deg"));

    // an energy sensor has neither: the keys are not its own (a warning, and not read)
    doc = baseDoc();
    doc["sensors"][0] = json::parse(R"({"name": "e", "type": "energy", "quantities": ["total"], "length_unit": "mm"})");
    const Loaded energy = load(doc);
    QVERIFY2(energy.ok, energy.diag.str().c_str());
    QCOMPARE(lines(energy.diag, Severity::Warning).size(), size_t(1));
    QCOMPARE(energy.model.sensors[0].length_unit, SensorSpec::LengthUnit::Metre);
  }

  void steplessIdaIsAllowedButNotGenAlpha() {
    json doc = baseDoc();
    doc["simulation"]["step"] = 0;
    QVERIFY(load(doc).ok);
    doc["simulation"]["integrator"] = "gen-alpha";
    const Loaded r = load(doc);
    QVERIFY2(hasError(r, "simulation.step: must be positive for gen-alpha with a fixed step (0 means no limit only "
                         "for ida or an adaptive step)"),
             r.diag.str().c_str());
    // the adaptive step takes 0 as "no limit", as IDA does
    doc["simulation"]["step_control"] = "adaptive";
    QVERIFY(load(doc).ok);
  }

  void severalErrorsAreCollected() {
    const Loaded r = load(readFile(kData + "several_errors.json"));
    QVERIFY(!r.ok);
    const auto e = lines(r.diag, Severity::Error);
    const std::vector<std::string> expected{
        "bodies[0].mass: must be positive",
        "bodies[1].inertia: expected 3x3 symmetric positive-definite matrix",
        "bodies[2].name: duplicate name 'link'",
        "joints[0].marker2: body 'rod' has no marker 'B'",
        "sensors[0].quantities[0]: unknown quantity 'height' for a marker sensor (expected one of position, "
        "orientation, velocity, angular_velocity, acceleration, angular_acceleration)",
        "simulation.t_end: must be positive",
    };
    for (const auto& x : expected) QVERIFY2(std::find(e.begin(), e.end(), x) != e.end(), (x + "\n" + r.diag.str()).c_str());
  }

  void failedLoadLeavesOutputUntouched() {
    ModelSpec m;
    m.name = "keep me";
    Diagnostics diag;
    QVERIFY(!io::loadModelString("{\"schema_version\": 1, \"bodies\": 3}", m, diag));
    QCOMPARE(m.name, std::string("keep me"));
  }

  void priorErrorsDoNotFailALaterLoad() {
    Diagnostics diag;
    diag.error("elsewhere", "an older problem");
    ModelSpec m;
    QVERIFY(io::loadModelString(baseDoc().dump(), m, diag));
    QCOMPARE(diag.items().size(), size_t(1));
  }

  // ---- warnings ------------------------------------------------------------------------

  void unknownKeysWarnAndLoad() {
    json doc = baseDoc();
    doc["bodies"][0]["mas"] = 3;
    doc["colour"] = "red";
    doc["drivers"][0]["function"]["value"] = 3;  // not a constant_speed parameter
    doc["simulation"]["tend"] = 2;
    const Loaded r = load(doc);
    QVERIFY2(r.ok, r.diag.str().c_str());
    const auto w = lines(r.diag, Severity::Warning);
    const std::vector<std::string> expected{
        "bodies[0].mas: unknown key (ignored)", "colour: unknown key (ignored)",
        "drivers[0].function.value: unknown key (ignored)", "simulation.tend: unknown key (ignored)"};
    for (const auto& x : expected) QVERIFY2(std::find(w.begin(), w.end(), x) != w.end(), (x + "\n" + r.diag.str()).c_str());
    QCOMPARE(w.size(), expected.size());
  }

  void nonPhysicalInertiaWarns() {
    json doc = baseDoc();
    doc["bodies"][0]["inertia"] = {1, 1, 3};
    const Loaded r = load(doc);
    QVERIFY(r.ok);
    QCOMPARE(lines(r.diag, Severity::Warning),
             std::vector<std::string>{"bodies[0].inertia: principal moments violate the triangle inequality (no "
                                      "rigid body has this inertia)"});
  }

  // ---- flexible and virtual bodies -----------------------------------------------------

  void flexibleModelRoundTripsByteIdentical() {
    const ModelSpec m = everyFlexibleField();
    const std::string text = io::saveModelString(m);
    const Loaded r = loadIn(text, m_base);
    QVERIFY2(r.ok, r.diag.str().c_str());
    QVERIFY2(r.diag.items().empty(), r.diag.str().c_str());
    const std::string diff = test::modelDifferences(m, r.model);
    QVERIFY2(diff.empty(), diff.c_str());
    QCOMPARE(io::saveModelString(r.model), text);
    // the file names are kept as written; the data is loaded once and shared
    QVERIFY(text.find("\"file\": \"./sub/../rod.frb\"") != std::string::npos);
    const auto& flex = r.model.flexible_bodies;
    QVERIFY(flex[0].data);
    QCOMPARE(flex[0].data->node_ids.size(), size_t(8));
    QCOMPARE(flex[0].data->name, std::string("tiny rod"));
    QCOMPARE(flex[1].data.get(), flex[0].data.get());
    QCOMPARE(flex[2].data.get(), flex[0].data.get());
  }

  void flexibleKeysOnlyWhenUsed() {
    const std::string rigid = io::saveModelString(everyField());
    QVERIFY(rigid.find("flexible_bodies") == std::string::npos);
    QVERIFY(rigid.find("virtual_bodies") == std::string::npos);
    // empty lists read fine and are not written back
    json doc = baseDoc();
    doc["flexible_bodies"] = json::array();
    doc["virtual_bodies"] = json::array();
    const Loaded r = load(doc);
    QVERIFY2(r.ok && r.diag.items().empty(), r.diag.str().c_str());
    QVERIFY(io::saveModelString(r.model).find("flexible_bodies") == std::string::npos);
  }

  void flexibleDefaultsAndShorthands() {
    const Loaded r = loadIn(flexDoc(), m_base);
    QVERIFY2(r.ok, r.diag.str().c_str());
    QVERIFY2(r.diag.items().empty(), r.diag.str().c_str());
    const FlexibleBodySpec& f = r.model.flexible_bodies.at(0);
    QCOMPARE(f.mode_count, 0);
    QCOMPARE(f.reference, ReferenceFrame::MeanAxis);
    QCOMPARE(f.stiffness_scale, 1.0);
    QCOMPARE(f.damping.ratio, std::vector<double>{0.02});  // a scalar ratio is one value for all
    QVERIFY(f.modal_coordinates.empty());
    QVERIFY(f.data);
    const VirtualBodySpec& a = r.model.virtual_bodies.at(0);
    QCOMPARE(a.nodes, (std::vector<int>{101, 102, 103}));
    QVERIFY(a.interface.empty());
    QCOMPARE(r.model.virtual_bodies.at(1).interface, std::string("END_B"));
    const Mat3 axes = a.markers.at(0).orientation.toRotationMatrix();
    QVERIFY((axes.col(2) - Vec3::UnitZ()).norm() < 1e-15);
    QCOMPARE(r.model.sensors.at(0).node, 108);
    QCOMPARE(r.model.sensors.at(0).frame, SensorSpec::Frame::Body);
    QCOMPARE(r.model.sensors.at(1).chord, (std::vector<int>{101, 108}));
    // the saved form writes the ratio as a list and reads back the same
    const std::string saved = io::saveModelString(r.model);
    QVERIFY2(saved.find("\"damping\": {\"ratio\": [0.02], \"alpha\": 0.0, \"beta\": 0.0}") != std::string::npos,
             saved.c_str());
    const Loaded again = loadIn(saved, m_base);
    QVERIFY2(again.ok && again.diag.items().empty(), again.diag.str().c_str());
    QCOMPARE(io::saveModelString(again.model), saved);
  }

  void virtualBodyOrientationAcceptsAxes() {
    json doc = flexDoc();
    doc["virtual_bodies"][0]["z_axis"] = {1, 0, 0};
    const Loaded r = loadIn(doc, m_base);
    QVERIFY2(r.ok && r.diag.items().empty(), r.diag.str().c_str());
    const Mat3 axes = r.model.virtual_bodies[0].orientation.toRotationMatrix();
    QVERIFY((axes.col(2) - Vec3::UnitX()).norm() < 1e-15);
  }

  void modelFileResolvesBodyFilesInItsFolder() {
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath("models") && QDir(dir.path()).mkpath("bodies"));
    const std::string root = dir.path().toStdString();
    const std::string error = test::writeTinyRod(root + "/bodies/rod.frb");
    QVERIFY2(error.empty(), error.c_str());
    json doc = flexDoc();
    doc["flexible_bodies"][0]["file"] = "../bodies/rod.frb";
    const std::string model = root + "/models/flex.json";
    std::ofstream(model) << doc.dump(2);
    ModelSpec m;
    Diagnostics diag;
    QVERIFY2(io::loadModelFile(model, m, diag), diag.str().c_str());
    QVERIFY(m.flexible_bodies.at(0).data);
    QCOMPARE(m.flexible_bodies[0].file, std::string("../bodies/rod.frb"));
    QVERIFY(io::saveModelString(m).find("\"file\": \"../bodies/rod.frb\"") != std::string::npos);
    // the same text from a string needs the folder given
    QVERIFY(loadIn(doc, root + "/models").ok);
    const Loaded elsewhere = loadIn(doc, root);
    QVERIFY(!elsewhere.ok);
    QCOMPARE(errorsStartingWith(elsewhere, "flexible_bodies[0].file: ").size(), size_t(1));
  }

  void unreadableBodyFileGivesItsReasonAndOtherChecksGoOn() {
    json doc = flexDoc();
    doc["flexible_bodies"][0]["file"] = "missing.frb";
    doc["flexible_bodies"][0]["stiffness_scale"] = -1;     // checked without the file
    doc["flexible_bodies"][0]["modes"] = 2;
    doc["flexible_bodies"][0]["modal_coordinates"] = {0, 0, 0};  // checked against modes
    doc["virtual_bodies"][0]["nodes"] = {101, 999, 103};   // needs the file: not checked
    doc["sensors"][0]["node"] = 999;                        // needs the file: not checked
    doc["joints"][0]["body2"] = "beam";                     // a flexible body all the same
    const Loaded r = loadIn(doc, m_base);
    QVERIFY(!r.ok);
    const std::string missing = m_base + "/missing.frb";
    QVERIFY2(hasError(r, "flexible_bodies[0].file: '" + missing + "': cannot read: No such file or directory"),
             r.diag.str().c_str());
    QVERIFY2(hasError(r, "flexible_bodies[0].stiffness_scale: must be positive"), r.diag.str().c_str());
    QVERIFY2(hasError(r, "flexible_bodies[0].modal_coordinates: expected 2 values (one per mode used), got 3"),
             r.diag.str().c_str());
    QVERIFY2(hasError(r, "joints[0].body2: 'beam' is a flexible body; connect it through a virtual body"),
             r.diag.str().c_str());
    QCOMPARE(lines(r.diag, Severity::Error).size(), size_t(4));

    // not a reduced-body file: the reader's reason, after the path
    std::ofstream(m_base + "/not_a_body.frb") << "{\"schema_version\": 1}";
    json other = flexDoc();
    other["flexible_bodies"][0]["file"] = "not_a_body.frb";
    const Loaded bad = loadIn(other, m_base);
    QVERIFY(!bad.ok);
    const auto e = errorsStartingWith(bad, "flexible_bodies[0].file: '" + m_base + "/not_a_body.frb': ");
    QVERIFY2(e.size() == 1 && e[0].size() > 60, bad.diag.str().c_str());

    // a folder
    other["flexible_bodies"][0]["file"] = ".";
    QCOMPARE(errorsStartingWith(loadIn(other, m_base), "flexible_bodies[0].file: ").size(), size_t(1));
  }

  void flexibleErrorMessages_data() {
    QTest::addColumn<QString>("pointer");  // as in errorMessages, on flexDoc()
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("expected");
    const auto row = [](const char* name, const char* ptr, const char* value, const char* expected) {
      QTest::newRow(name) << QString(ptr) << QString(value) << QString(expected);
    };
    const char* noInterface = "flexible body 'beam' has no interface 'END_C' (it has 'END_A', 'END_B')";
    row("bad reference", "/flexible_bodies/0/reference", "\"floating\"",
        "flexible_bodies[0].reference: expected one of mean_axis, principal_axis, interface, got 'floating'");
    row("reference interface missing", "/flexible_bodies/0/reference", "\"interface\"",
        "flexible_bodies[0].reference_interface: required");
    row("reference interface unknown", "/flexible_bodies/0",
        R"({"name": "beam", "file": "rod.frb", "reference": "interface", "reference_interface": "END_C"})",
        (std::string("flexible_bodies[0].reference_interface: ") + noInterface).c_str());
    row("reference interface empty", "/flexible_bodies/0",
        R"({"name": "beam", "file": "rod.frb", "reference": "interface", "reference_interface": ""})",
        "flexible_bodies[0].reference_interface: must not be empty");
    row("reference interface without interface reference", "/flexible_bodies/0/reference_interface", "\"END_A\"",
        "flexible_bodies[0].reference_interface: only with \"reference\": \"interface\"");
    row("too many modes", "/flexible_bodies/0/modes", "5", "flexible_bodies[0].modes: the file has only 4 modes");
    row("negative modes", "/flexible_bodies/0/modes", "-1", "flexible_bodies[0].modes: must not be negative");
    row("fractional modes", "/flexible_bodies/0/modes", "2.5", "flexible_bodies[0].modes: expected an integer");
    row("modal coordinates size", "/flexible_bodies/0/modal_coordinates", "[0, 0, 0]",
        "flexible_bodies[0].modal_coordinates: expected 4 values (one per mode used), got 3");
    row("modal coordinates size with modes", "/flexible_bodies/0",
        R"({"name": "beam", "file": "rod.frb", "modes": 2, "modal_coordinates": [0, 0, 0]})",
        "flexible_bodies[0].modal_coordinates: expected 2 values (one per mode used), got 3");
    row("damping ratio size", "/flexible_bodies/0/damping/ratio", "[0.01, 0.02, 0.03]",
        "flexible_bodies[0].damping.ratio: expected one value for all elastic modes or 2 (one per elastic mode "
        "used), got 3");
    row("damping ratio size with modes", "/flexible_bodies/0",
        R"({"name": "beam", "file": "rod.frb", "modes": 3, "damping": {"ratio": [0.01, 0.02]}})",
        "flexible_bodies[0].damping.ratio: expected one value for all elastic modes or 1 (one per elastic mode "
        "used), got 2");
    row("damping ratio negative", "/flexible_bodies/0/damping/ratio", "[0.01, -0.02]",
        "flexible_bodies[0].damping.ratio[1]: must not be negative");
    row("damping ratio scalar negative", "/flexible_bodies/0/damping/ratio", "-0.02",
        "flexible_bodies[0].damping.ratio: must not be negative");
    row("damping ratio type", "/flexible_bodies/0/damping/ratio", "\"high\"",
        "flexible_bodies[0].damping.ratio: expected a number or an array of numbers");
    row("damping alpha", "/flexible_bodies/0/damping/alpha", "-1", "flexible_bodies[0].damping.alpha: must not be negative");
    row("damping not object", "/flexible_bodies/0/damping", "0.02", "flexible_bodies[0].damping: expected an object");
    row("stiffness scale", "/flexible_bodies/0/stiffness_scale", "0", "flexible_bodies[0].stiffness_scale: must be positive");
    row("file missing", "/flexible_bodies/0/file", "REMOVE", "flexible_bodies[0].file: required");
    row("file empty", "/flexible_bodies/0/file", "\"\"", "flexible_bodies[0].file: must not be empty");
    row("file control character", "/flexible_bodies/0/file", "\"rod\\u0000.frb\"",
        "flexible_bodies[0].file: must not contain control characters");
    row("file not a string", "/flexible_bodies/0/file", "3", "flexible_bodies[0].file: expected a string");
    row("flexible named like a rigid body", "/flexible_bodies/0/name", "\"link\"",
        "flexible_bodies[0].name: duplicate name 'link'");
    row("flexible named ground", "/flexible_bodies/0/name", "\"ground\"",
        "flexible_bodies[0].name: 'ground' is reserved for the fixed ground body");
    row("flexible orientation", "/flexible_bodies/0/orientation", "[0, 0, 0, 0]",
        "flexible_bodies[0].orientation: expected [w, x, y, z] with a non-zero length");
    row("virtual named like a flexible body", "/virtual_bodies/1/name", "\"beam\"",
        "virtual_bodies[1].name: duplicate name 'beam'");
    row("virtual named ground", "/virtual_bodies/1/name", "\"ground\"",
        "virtual_bodies[1].name: 'ground' is reserved for the fixed ground body");
    row("virtual unknown flexible body", "/virtual_bodies/0/flexible_body", "\"nope\"",
        "virtual_bodies[0].flexible_body: no flexible body named 'nope'");
    row("virtual on a rigid body", "/virtual_bodies/0/flexible_body", "\"link\"",
        "virtual_bodies[0].flexible_body: 'link' is not a flexible body (a virtual body is attached to a flexible "
        "body)");
    row("virtual unknown node", "/virtual_bodies/0/nodes", "[101, 999, 103]",
        "virtual_bodies[0].nodes[1]: flexible body 'beam' has no node 999");
    row("virtual node count", "/virtual_bodies/0/nodes", "[101, 102]",
        "virtual_bodies[0].nodes: expected 3 node ids [k, m, n]");
    row("virtual repeated node", "/virtual_bodies/0/nodes", "[101, 102, 101]",
        "virtual_bodies[0].nodes: expected 3 different nodes");
    row("virtual node type", "/virtual_bodies/0/nodes", "[101, 102.5, 103]",
        "virtual_bodies[0].nodes[1]: expected an integer");
    row("virtual unknown interface", "/virtual_bodies/1/interface", "\"END_C\"",
        (std::string("virtual_bodies[1].interface: ") + noInterface).c_str());
    row("virtual point and interface", "/virtual_bodies/1/point", "[0, 0, 0]",
        "virtual_bodies[1].interface: give either point or interface, not both");
    row("virtual without location", "/virtual_bodies/1/interface", "REMOVE",
        "virtual_bodies[1].point: required (or interface): where the virtual body sits on its flexible body");
    row("virtual nodes with interface", "/virtual_bodies/1/nodes", "[101, 102, 103]",
        "virtual_bodies[1].nodes: only with point (an interface brings its own nodes)");
    row("virtual duplicate marker", "/virtual_bodies/1/markers/1", R"({"name": "pin"})",
        "virtual_bodies[1].markers[1].name: duplicate name 'pin'");
    row("virtual unknown marker", "/joints/1/marker1", "\"X\"", "joints[1].marker1: body 'beam_B' has no marker 'X'");
    row("joint on a flexible body", "/joints/1/body1", "\"beam\"",
        "joints[1].body1: 'beam' is a flexible body; connect it through a virtual body");
    row("force on a flexible body", "/forces/0/body", "\"beam\"",
        "forces[0].body: 'beam' is a flexible body; connect it through a virtual body");
    row("marker sensor on a flexible body", "/sensors/3/body", "\"beam\"",
        "sensors[3].body: 'beam' is a flexible body; connect it through a virtual body");
    row("node sensor unknown node", "/sensors/0/node", "999", "sensors[0].node: flexible body 'beam' has no node 999");
    row("node sensor node missing", "/sensors/0/node", "REMOVE", "sensors[0].node: required");
    row("node sensor on a rigid body", "/sensors/0/body", "\"link\"",
        "sensors[0].body: 'link' is not a flexible body (node, deflection, modal and stress sensors observe flexible "
        "bodies)");
    row("node sensor on an unknown body", "/sensors/0/body", "\"nope\"", "sensors[0].body: no flexible body named 'nope'");
    row("node sensor frame", "/sensors/0/frame", "\"local\"", "sensors[0].frame: expected one of global, body, got 'local'");
    row("node sensor quantity", "/sensors/0/quantities", "[\"strain\"]",
        "sensors[0].quantities[0]: unknown quantity 'strain' for a node sensor (expected one of position, velocity, "
        "acceleration, displacement)");
    row("deflection unknown node", "/sensors/1/node", "100", "sensors[1].node: flexible body 'beam' has no node 100");
    row("chord unknown node", "/sensors/1/chord", "[101, 999]", "sensors[1].chord[1]: flexible body 'beam' has no node 999");
    row("chord size", "/sensors/1/chord", "[101]", "sensors[1].chord: expected 2 node ids [a, b]");
    row("chord repeated", "/sensors/1/chord", "[101, 101]", "sensors[1].chord: expected 2 different nodes");
    row("chord missing", "/sensors/1/chord", "REMOVE", "sensors[1].chord: required");
    row("chord type", "/sensors/1/chord", "[\"a\", 101]", "sensors[1].chord[0]: expected an integer");
    row("deflection quantity", "/sensors/1/quantities", "[\"position\"]",
        "sensors[1].quantities[0]: unknown quantity 'position' for a deflection sensor (expected one of "
        "deflection, normalized)");
    row("modal sensor on a virtual body", "/sensors/2/body", "\"beam_A\"",
        "sensors[2].body: 'beam_A' is not a flexible body (node, deflection, modal and stress sensors observe flexible "
        "bodies)");
    row("modal quantity", "/sensors/2/quantities", "[\"displacement\"]",
        "sensors[2].quantities[0]: unknown quantity 'displacement' for a modal sensor (expected one of coordinate, "
        "velocity)");
    row("energy quantity", "/sensors/4/quantities", "[\"elastic\"]",
        "sensors[4].quantities[0]: unknown quantity 'elastic' for an energy sensor (expected one of kinetic, "
        "gravity, spring, strain, potential, total)");
    row("flexible bodies not an array", "/flexible_bodies", "{}", "flexible_bodies: expected an array");
    row("virtual body not an object", "/virtual_bodies/0", "7", "virtual_bodies[0]: expected an object");
  }
  void flexibleErrorMessages() {
    QFETCH(QString, pointer);
    QFETCH(QString, value);
    QFETCH(QString, expected);
    json doc = flexDoc();
    const json::json_pointer ptr(pointer.toStdString());
    if (value == "REMOVE")
      doc.at(ptr.parent_pointer()).erase(ptr.back());
    else
      doc[ptr] = json::parse(value.toStdString());
    const Loaded r = loadIn(doc, m_base);
    QVERIFY(!r.ok);
    QVERIFY2(hasError(r, expected.toStdString()), r.diag.str().c_str());
  }

  void flexibleUnknownKeysWarn() {
    json doc = flexDoc();
    doc["flexible_bodies"][0]["mode"] = 3;
    doc["flexible_bodies"][0]["damping"]["zeta"] = 0.1;
    doc["virtual_bodies"][0]["frame"] = "body";
    doc["sensors"][1]["frame"] = "body";  // deflection sensors have no frame
    doc["sensors"][2]["node"] = 101;      // nor modal sensors a node
    const Loaded r = loadIn(doc, m_base);
    QVERIFY2(r.ok, r.diag.str().c_str());
    const std::vector<std::string> expected{
        "flexible_bodies[0].mode: unknown key (ignored)", "flexible_bodies[0].damping.zeta: unknown key (ignored)",
        "virtual_bodies[0].frame: unknown key (ignored)", "sensors[1].frame: unknown key (ignored)",
        "sensors[2].node: unknown key (ignored)"};
    const auto w = lines(r.diag, Severity::Warning);
    for (const auto& x : expected) QVERIFY2(std::find(w.begin(), w.end(), x) != w.end(), (x + "\n" + r.diag.str()).c_str());
    QCOMPARE(w.size(), expected.size());
  }

  void flexibleReferenceExampleLoads() {
    // the flexible example in docs/model-format.md, beside a tiny rod with the node ids it names
    const std::string doc = readFile(FLEXIM_SOURCE_DIR "/docs/model-format.md");
    const auto at = doc.find("\"flexible_bodies\"", doc.find("## 17. Flexible example"));
    QVERIFY(at != std::string::npos);
    const auto begin = doc.rfind("```json\n", at);
    const auto end = doc.find("```", at);
    QVERIFY(begin != std::string::npos && end != std::string::npos);
    const Loaded r = loadIn(doc.substr(begin + 8, end - begin - 8), m_base);
    QVERIFY2(r.ok && r.diag.items().empty(), r.diag.str().c_str());
    QCOMPARE(r.model.flexible_bodies.size(), size_t(1));
    QCOMPARE(r.model.virtual_bodies.size(), size_t(2));
    const std::string saved = io::saveModelString(r.model);
    const Loaded again = loadIn(saved, m_base);
    QVERIFY2(again.ok && again.diag.items().empty(), again.diag.str().c_str());
    QCOMPARE(io::saveModelString(again.model), saved);
  }

  // ---- files and syntax ----------------------------------------------------------------

  void syntaxErrorNamesFileLineAndColumn() {
    const std::string path = kData + "syntax_error.json";
    ModelSpec m;
    Diagnostics diag;
    QVERIFY(!io::loadModelFile(path, m, diag));
    QCOMPARE(diag.items().size(), size_t(1));
    const Diagnostic& d = diag.items()[0];
    QCOMPARE(d.where, path + ":4:14");  // the stray 'x' in the mass value
    QVERIFY2(d.message.rfind("syntax error: ", 0) == 0, d.message.c_str());
  }

  void numberOverflowIsASyntaxErrorWithPosition() {
    const Loaded r = load(std::string("{\"schema_version\": 1,\n \"gravity\": [0, 1e999, 0]}"));
    QVERIFY(!r.ok);
    QCOMPARE(r.diag.items()[0].where, std::string("<string>:2:21"));  // last digit read
    QCOMPARE(r.diag.items()[0].message, std::string("syntax error: number overflow parsing '1e999'"));
  }

  void missingFileIsReported() {
    ModelSpec m;
    Diagnostics diag;
    QVERIFY(!io::loadModelFile(kData + "no_such_file.json", m, diag));
    QCOMPARE(diag.str(), kData + "no_such_file.json: error: file not found\n");
    Diagnostics dirDiag;
    QVERIFY(!io::loadModelFile(kData, m, dirDiag));
    QCOMPARE(dirDiag.items()[0].message, std::string("not a regular file"));
  }
};

QTEST_APPLESS_MAIN(ModelJsonTest)
#include "model_json_test.moc"
