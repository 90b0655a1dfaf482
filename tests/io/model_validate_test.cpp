// One validation: a fault in a ModelSpec built in C++ gets the same message from validate() as
// from the JSON loader reading the saved model, with a structured location naming the item and
// field; the items' descriptions agree with the structs they describe.
#include "core/model/description.h"
#include "core/model/validate.h"
#include "core/run/simulation.h"
#include "io/model_json.h"

#include <QtTest>

#include <algorithm>
#include <functional>

using namespace flexim;

namespace {

/// A small valid model: a crank turned by a motor, with a sensor.
ModelSpec crank() {
  ModelSpec m;
  m.name = "crank";
  m.ground_markers = {{"O", Vec3::Zero(), Quat::Identity()}};
  RigidBodySpec link;
  link.name = "link";
  link.mass = 1.0;
  link.inertia = Vec3(0.01, 0.1, 0.1).asDiagonal();
  link.position = Vec3(0.5, 0, 0);
  link.markers = {{"A", Vec3(-0.5, 0, 0), Quat::Identity()}, {"B", Vec3(0.5, 0, 0), Quat::Identity()}};
  RigidBodySpec rod = link;
  rod.name = "rod";
  rod.position = Vec3(1.5, 0, 0);
  m.bodies = {link, rod};
  m.joints = {{"pivot", JointType::Revolute, "ground", "O", "link", "A"},
              {"pin", JointType::Spherical, "link", "B", "rod", "A"}};
  DriverSpec motor;
  motor.name = "motor";
  motor.joint = "pivot";
  motor.function.type = TimeFunctionSpec::Type::ConstantSpeed;
  motor.function.speed = 1.0;
  m.drivers = {motor};
  SensorSpec angle;
  angle.name = "angle";
  angle.type = SensorSpec::Type::Joint;
  angle.joint = "pivot";
  angle.quantities = {"coordinate"};
  m.sensors = {angle};
  return m;
}

std::vector<std::string> errors(const Diagnostics& d) {
  std::vector<std::string> out;
  for (const auto& item : d.items())
    if (item.severity == Severity::Error) out.push_back(item.where + ": " + item.message);
  std::sort(out.begin(), out.end());
  return out;
}

std::string lines(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

using Break = std::function<void(ModelSpec&)>;

}  // namespace

Q_DECLARE_METATYPE(Break)

class ModelValidateTest : public QObject {
  Q_OBJECT

 private slots:
  void validModelHasNoProblem() {
    const Diagnostics d = validate(crank());
    QVERIFY2(d.items().empty(), d.str().c_str());
  }

  void sameMessageFromLoaderAndValidate_data() {
    QTest::addColumn<Break>("breakIt");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<QString>("item");
    QTest::addColumn<QString>("field");
    QTest::newRow("negative mass") << Break([](ModelSpec& m) { m.bodies[0].mass = -1; })
                                   << "bodies[0].mass: must be positive" << "bodies[0] 'link'" << "mass";
    QTest::newRow("unknown marker") << Break([](ModelSpec& m) { m.joints[1].marker2 = "Z"; })
                                    << "joints[1].marker2: body 'rod' has no marker 'Z'" << "joints[1] 'pin'"
                                    << "marker2";
    QTest::newRow("unknown body") << Break([](ModelSpec& m) { m.joints[1].body1 = "nope"; })
                                  << "joints[1].body1: no body named 'nope'" << "joints[1] 'pin'" << "body1";
    QTest::newRow("unknown joint in a driver") << Break([](ModelSpec& m) { m.drivers[0].joint = "hinge"; })
                                               << "drivers[0].joint: no joint named 'hinge'" << "drivers[0] 'motor'"
                                               << "joint";
    QTest::newRow("duplicate name") << Break([](ModelSpec& m) {
      m.bodies.push_back(m.bodies[1]);
      m.bodies[2].name = "link";
    }) << "bodies[2].name: duplicate name 'link'"
       << "bodies[2] 'link'" << "name";
    QTest::newRow("unknown joint type")
        << Break([](ModelSpec& m) { m.joints[1].type = JointType("hinge"); })
        << "joints[1].type: expected one of fixed, revolute, prismatic, cylindrical, spherical, universal, planar, "
           "screw, got 'hinge'"
        << "joints[1] 'pin'" << "type";
    QTest::newRow("inertia") << Break([](ModelSpec& m) { m.bodies[1].inertia(0, 1) = 0.5; })
                             << "bodies[1].inertia: expected 3x3 symmetric positive-definite matrix" << "bodies[1] 'rod'"
                             << "inertia";
    QTest::newRow("driver coordinate")
        << Break([](ModelSpec& m) { m.drivers[0].coordinate = DriverSpec::Coordinate::Translation; })
        << "drivers[0].coordinate: a revolute joint cannot be driven in translation (drivers need a revolute, "
           "prismatic, cylindrical or screw joint)"
        << "drivers[0] 'motor'" << "coordinate";
    QTest::newRow("time function") << Break([](ModelSpec& m) {
      m.drivers[0].function = TimeFunctionSpec();
      m.drivers[0].function.type = TimeFunctionSpec::Type::Table;
      m.drivers[0].function.times = {0, 1, 1};
      m.drivers[0].function.values = {0, 1, 2};
    }) << "drivers[0].function: times must be strictly increasing"
       << "drivers[0] 'motor'" << "function";
    QTest::newRow("self joint") << Break([](ModelSpec& m) { m.joints[1].body2 = "link"; m.joints[1].marker2 = "A"; })
                                << "joints[1].body2: a joint cannot connect body 'link' to itself" << "joints[1] 'pin'"
                                << "body2";
    QTest::newRow("coupling") << Break([](ModelSpec& m) { m.couplings = {{"gear", "pivot", "pin", 2.0}}; })
                              << "couplings[0].joint2: a spherical joint has no single coordinate to couple (couple a "
                                 "revolute, prismatic or screw joint)"
                              << "couplings[0] 'gear'" << "joint2";
    // a component none of the sensor's quantities has: refused at the component (the GUI's field)
    QTest::newRow("sensor component") << Break([](ModelSpec& m) {
      m.sensors[0].quantities = {"coordinate", "reaction_force"};
      m.sensors[0].components = {"x", "w"};
    }) << "sensors[0].components[1]: no quantity of this sensor has component 'w' (expected one of x, y, z)"
       << "sensors[0] 'angle'" << "components[1]";
    QTest::newRow("solver") << Break([](ModelSpec& m) { m.solver.rho_inf = 2; }) << "simulation.rho_inf: must be in [0, 1]"
                            << "simulation" << "rho_inf";
    // the times: each by its limit, then together (t_end, output_interval, step)
    QTest::newRow("t_end zero") << Break([](ModelSpec& m) { m.solver.t_end = 0; }) << "simulation.t_end: must be positive"
                                << "simulation" << "t_end";
    QTest::newRow("t_end below the output interval")
        << Break([](ModelSpec& m) { m.solver.t_end = 1e-300; })
        << "simulation.t_end: must be at least output_interval (0.001 s)" << "simulation" << "t_end";
    QTest::newRow("t_end just below the output interval")
        << Break([](ModelSpec& m) {
             m.solver.t_end = 0.0999;
             m.solver.output_interval = 0.1;
           })
        << "simulation.t_end: must be at least output_interval (0.1 s)" << "simulation" << "t_end";
    QTest::newRow("output interval zero") << Break([](ModelSpec& m) { m.solver.output_interval = 0; })
                                          << "simulation.output_interval: must be positive" << "simulation"
                                          << "output_interval";
    QTest::newRow("output interval negative") << Break([](ModelSpec& m) { m.solver.output_interval = -1e-3; })
                                              << "simulation.output_interval: must be positive" << "simulation"
                                              << "output_interval";
    QTest::newRow("too many output samples")
        << Break([](ModelSpec& m) {
             m.solver.t_end = 1e6;
             m.solver.step = 0;
           })
        << "simulation.output_interval: 0.001 s up to t_end = 1e+06 s gives 1e+09 output samples (at most 1e+08)"
        << "simulation" << "output_interval";
    QTest::newRow("gen-alpha step beyond t_end")
        << Break([](ModelSpec& m) {
             m.solver.integrator = IntegratorType::GeneralizedAlpha;
             m.solver.t_end = 0.01;
             m.solver.step = 0.02;
           })
        << "simulation.step: must not exceed t_end (0.01 s): gen-alpha takes steps of exactly this size" << "simulation"
        << "step";
    QTest::newRow("step negative") << Break([](ModelSpec& m) { m.solver.step = -1e-3; })
                                   << "simulation.step: must not be negative" << "simulation" << "step";
    QTest::newRow("step too small")
        << Break([](ModelSpec& m) { m.solver.step = 1e-300; })
        << "simulation.step: 1e-300 s up to t_end = 1 s means 1e+300 steps at the largest step allowed (at most 1e+09)"
        << "simulation" << "step";
  }
  void sameMessageFromLoaderAndValidate() {
    QFETCH(Break, breakIt);
    QFETCH(QString, expected);
    QFETCH(QString, item);
    QFETCH(QString, field);
    ModelSpec m = crank();
    breakIt(m);

    const Diagnostics checked = validate(m);
    QCOMPARE(lines(errors(checked)), expected.toStdString() + "\n");
    const auto& d = checked.items().front();
    QCOMPARE(d.location.item, item.toStdString());
    QCOMPARE(d.location.field, field.toStdString());

    Diagnostics loaded;
    ModelSpec out;
    QVERIFY(!io::loadModelString(io::saveModelString(m), out, loaded, "crank.json"));
    QCOMPARE(lines(errors(loaded)), lines(errors(checked)));
    QCOMPARE(loaded.items().front().location.file, std::string("crank.json"));
    QCOMPARE(loaded.items().front().location.item, item.toStdString());
  }

  /// System::compile reports through validate() too: the same errors, word for word.
  void sameMessageFromCompile_data() { sameMessageFromLoaderAndValidate_data(); }
  void sameMessageFromCompile() {
    QFETCH(Break, breakIt);
    ModelSpec m = crank();
    breakIt(m);
    Diagnostics compiled;
    Simulation::create(m, compiled);
    QCOMPARE(lines(errors(compiled)), lines(errors(validate(m))));
  }

  void loaderLocationsHaveLines() {
    const std::string text =
        "{\n"
        "  \"schema_version\": 1,\n"
        "  \"bodies\": [\n"
        "    {\"name\": \"a\", \"mass\": 1, \"inertia\": [1, 1, 1]},\n"
        "    {\"name\": \"b\",\n"
        "     \"mass\": -1,\n"
        "     \"inertia\": [1, 1, 1], \"colour\": \"red\"}\n"
        "  ]\n"
        "}\n";
    ModelSpec m;
    Diagnostics diag;
    QVERIFY(!io::loadModelString(text, m, diag, "two.json"));
    QCOMPARE(diag.items().size(), size_t(2));
    for (const Diagnostic& d : diag.items()) {
      QCOMPARE(d.location.file, std::string("two.json"));
      QCOMPARE(d.location.item, std::string("bodies[1] 'b'"));
    }
    // in document order, though the reader found the second and validate() the first
    QCOMPARE(diag.items()[0].where, std::string("bodies[1].mass"));
    QCOMPARE(diag.items()[0].location.field, std::string("mass"));
    QCOMPARE(diag.items()[0].location.line, 6);
    QCOMPARE(diag.items()[0].str(), std::string("two.json:6: bodies[1].mass: error: must be positive"));
    QCOMPARE(diag.items()[1].where, std::string("bodies[1].colour"));
    QCOMPARE(diag.items()[1].location.line, 7);

    Diagnostics syntax;
    QVERIFY(!io::loadModelString("{\n  \"schema_version\": 1,\n  x\n}", m, syntax, "bad.json"));
    QCOMPARE(syntax.items().at(0).location.file, std::string("bad.json"));
    QCOMPARE(syntax.items().at(0).location.line, 3);
  }

  void couplingsRoundTrip() {
    ModelSpec m = crank();
    m.joints[1].type = JointType::Revolute;
    m.couplings = {{"gear", "pivot", "pin", -0.5}};
    const std::string text = io::saveModelString(m);
    QVERIFY(text.find("{\"name\": \"gear\", \"joint1\": \"pivot\", \"joint2\": \"pin\", \"ratio\": -0.5}") != std::string::npos);
    ModelSpec back;
    Diagnostics diag;
    QVERIFY2(io::loadModelString(text, back, diag), diag.str().c_str());
    QCOMPARE(back.couplings.size(), size_t(1));
    QCOMPARE(back.couplings[0].ratio, -0.5);
    QCOMPARE(io::saveModelString(back), text);
    // a model without couplings is written as before they existed
    QVERIFY(io::saveModelString(crank()).find("couplings") == std::string::npos);
  }

  void descriptionsAreComplete() {
    // every field has help text, a known type's accessors, and lists and objects their items
    for (const ItemDescription* d : itemDescriptions()) {
      QVERIFY2(!d->kind.empty() && !d->label.empty() && !d->help.empty(), d->kind.c_str());
      for (const FieldDescription& f : d->fields) {
        const std::string name = d->kind + "." + f.key;
        QVERIFY2(!f.help.empty(), name.c_str());
        if (f.type == FieldType::Object)
          QVERIFY2(f.item && f.object, name.c_str());
        else if (f.type == FieldType::List)
          QVERIFY2(f.item && f.count && f.resize && f.element, name.c_str());
        else if (!f.inputOnly)
          QVERIFY2(f.get && f.set, name.c_str());
        if (f.type == FieldType::Enum) QVERIFY2(!f.choices.empty(), name.c_str());
        if (f.condition) QVERIFY2(d->field(f.condition->key), name.c_str());
      }
    }
    QCOMPARE(jointKinds().size(), size_t(8));
    QCOMPARE(constraintCount(JointType::Cylindrical), 4);
    QCOMPARE(constraintCount(JointType("hinge")), 0);
  }

  void jointTypeKeepsItsKey() {
    const JointType revolute = JointType::Revolute;
    QCOMPARE(revolute.key(), std::string("revolute"));
    QVERIFY(revolute == JointType::Revolute);
    QVERIFY(JointType("prismatic") == JointType::Prismatic);
    QVERIFY(!(JointType("hinge") == JointType::Revolute));
    JointType parsed;
    QVERIFY(fromString("planar", parsed) && parsed == JointType::Planar);
    QVERIFY(!fromString("hinge", parsed));
  }
};

QTEST_GUILESS_MAIN(ModelValidateTest)
#include "model_validate_test.moc"
