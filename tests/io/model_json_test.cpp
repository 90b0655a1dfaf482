// Model JSON: lossless canonical round trip, every documented error message, warnings for
// unknown keys, the convenience forms (z_axis, diagonal inertia), and the examples.
#include "io/model_json.h"
#include "model_compare.h"

#include "core/run/simulation.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

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
  SensorSpec js;
  js.name = "joint_sensor";
  js.type = SensorSpec::Type::Joint;
  js.joint = "j3";
  js.frame = SensorSpec::Frame::Body;
  js.quantities = {"reaction_torque", "coordinate", "velocity", "reaction_force"};
  SensorSpec es;
  es.name = "energy";
  es.type = SensorSpec::Type::Energy;
  es.quantities = {"total", "kinetic", "potential"};
  m.sensors = {ms, js, es};

  m.solver.t_end = 2.5;
  m.solver.step = 2e-4;
  m.solver.output_interval = 5e-3;
  m.solver.integrator = IntegratorType::GeneralizedAlpha;
  m.solver.rtol = 1e-9;
  m.solver.atol = 1e-11;
  m.solver.rho_inf = 0.6;
  m.solver.newton_tol = 1e-12;
  m.solver.max_newton = 7;
  return m;
}

}  // namespace

class ModelJsonTest : public QObject {
  Q_OBJECT
 private slots:
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
        "got 'hinge'");
    row("joint type number", "/joints/1/type", "3",
        "joints[1].type: expected one of fixed, revolute, prismatic, cylindrical, spherical, universal, planar");
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
        "bodies[0].markers[0].orientation: give either orientation or z_axis/x_axis, not both");
    row("zero z axis", "/bodies/0/markers/1/z_axis", "[0,0,0]", "bodies[0].markers[1].z_axis: must not be zero");
    row("x axis without z axis", "/bodies/0/markers/1/x_axis", "[1,0,0]", "bodies[0].markers[1].z_axis: required");
    row("parallel x axis", "/bodies/0/markers/1", R"({"name": "B", "z_axis": [0,0,1], "x_axis": [0,0,-2]})",
        "bodies[0].markers[1].x_axis: must not be zero or parallel to z_axis");
    row("unknown driver joint", "/drivers/0/joint", "\"nope\"", "drivers[0].joint: no joint named 'nope'");
    row("driver coordinate", "/drivers/0/coordinate", "\"translation\"",
        "drivers[0].coordinate: a revolute joint cannot be driven in translation (drivers need a revolute, "
        "prismatic or cylindrical joint)");
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
    row("t_end zero", "/simulation/t_end", "0", "simulation.t_end: must be positive");
    row("step negative", "/simulation/step", "-1e-3", "simulation.step: must not be negative");
    row("rho_inf", "/simulation/rho_inf", "1.5", "simulation.rho_inf: must be in [0, 1]");
    row("integrator", "/simulation/integrator", "\"euler\"",
        "simulation.integrator: expected one of ida, gen-alpha, got 'euler'");
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

  void steplessIdaIsAllowedButNotGenAlpha() {
    json doc = baseDoc();
    doc["simulation"]["step"] = 0;
    QVERIFY(load(doc).ok);
    doc["simulation"]["integrator"] = "gen-alpha";
    const Loaded r = load(doc);
    QVERIFY(hasError(r, "simulation.step: must be positive for gen-alpha (0 means no limit only for ida)"));
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
