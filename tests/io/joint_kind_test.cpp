// A joint kind registered with a parameter of its own (a screw-like kind with a pitch) is read,
// written, validated, put in the schema and the docs tables from its description alone.
#include "core/model/description.h"
#include "core/model/validate.h"
#include "io/model_docs.h"
#include "io/model_json.h"
#include "io/model_schema.h"

#include <QtTest>

#include <nlohmann/json.hpp>

using namespace flexim;
using nlohmann::json;

namespace {

const char* kKind = "test_screw";

json doc() {
  return json::parse(R"({
    "schema_version": 1,
    "ground": {"markers": [{"name": "O"}]},
    "bodies": [{"name": "nut", "mass": 1, "inertia": [1, 1, 1], "markers": [{"name": "A"}]}],
    "joints": [{"name": "lead", "type": "test_screw", "body1": "ground", "marker1": "O", "body2": "nut",
                "marker2": "A", "pitch": 0.002}],
    "drivers": [{"name": "motor", "joint": "lead", "function": {"type": "constant_speed", "speed": 1}}]
  })");
}

struct Loaded {
  bool ok = false;
  Diagnostics diag;
  ModelSpec model;
};
Loaded load(const json& j) {
  Loaded r;
  r.ok = io::loadModelString(j.dump(2), r.model, r.diag);
  return r;
}

bool has(const Diagnostics& d, const std::string& line) {
  for (const auto& item : d.items())
    if (item.where + ": " + item.message == line) return true;
  return false;
}

}  // namespace

class JointKindTest : public QObject {
  Q_OBJECT

 private slots:
  void readWriteRoundTrip() {
    const Loaded r = load(doc());
    QVERIFY2(r.ok && r.diag.items().empty(), r.diag.str().c_str());
    QCOMPARE(r.model.joints[0].type.key(), std::string(kKind));
    QCOMPARE(r.model.joints[0].parameters.at("pitch"), 0.002);
    QCOMPARE(constraintCount(r.model.joints[0].type), 5);
    const std::string text = io::saveModelString(r.model);
    QVERIFY2(text.find("\"marker2\": \"A\",\n      \"pitch\": 0.002\n") != std::string::npos, text.c_str());
    ModelSpec again;
    Diagnostics diag;
    QVERIFY(io::loadModelString(text, again, diag));
    QCOMPARE(io::saveModelString(again), text);
  }

  void defaultAndLimits() {
    json j = doc();
    j["joints"][0].erase("pitch");
    Loaded r = load(j);
    QVERIFY2(r.ok, r.diag.str().c_str());
    QVERIFY(io::saveModelString(r.model).find("\"pitch\": 0.01") != std::string::npos);  // the default

    j["joints"][0]["pitch"] = -1;
    r = load(j);
    QVERIFY(!r.ok);
    QVERIFY2(has(r.diag, "joints[0].pitch: must be positive"), r.diag.str().c_str());
    ModelSpec m = load(doc()).model;
    m.joints[0].parameters["pitch"] = -1;
    QVERIFY(has(validate(m), "joints[0].pitch: must be positive"));
  }

  void parameterOfAnotherKindIsUnknown() {
    json j = doc();
    j["joints"][0]["type"] = "revolute";
    const Loaded r = load(j);
    QVERIFY2(r.ok, r.diag.str().c_str());
    QVERIFY2(has(r.diag, "joints[0].pitch: unknown key (ignored)"), r.diag.str().c_str());
  }

  void driversKnowItsCoordinates() {
    json j = doc();
    j["drivers"][0]["coordinate"] = "translation";
    const Loaded r = load(j);
    QVERIFY(!r.ok);
    QVERIFY2(has(r.diag, "drivers[0].coordinate: a test_screw joint cannot be driven in translation (drivers need a "
                         "revolute, prismatic, cylindrical, screw or test_screw joint)"),
             r.diag.str().c_str());
  }

  void schemaAndDocsHaveIt() {
    const json schema = json::parse(io::modelJsonSchema());
    bool found = false;
    for (const auto& rule : schema["$defs"]["joint"]["allOf"])
      if (rule["if"]["properties"]["type"]["const"] == kKind)
        found = rule["then"]["properties"]["pitch"]["exclusiveMinimum"] == 0;
    QVERIFY(found);
    const std::string table = io::generatedTable("joint");
    QVERIFY2(table.find("| `pitch` | `test_screw` | number [m] | `0.01` |") != std::string::npos, table.c_str());
    QVERIFY(io::generatedTable("joint_kinds").find("| `test_screw` | 5 | rotation |") != std::string::npos);
  }

  void registrationClosesOnFirstUse() {
    QVERIFY(!registerJointKind({"late", "too late", 1, false, false, {}}));
    QVERIFY(!findJointKind("late"));
  }
};

int main(int argc, char** argv) {
  // registered before anything looks at the kinds, as a plug-in would at start-up
  registerJointKind({kKind, "a screw for the test: rotation about and translation along z, coupled by the pitch", 5,
                     true, false, {jointParameter("pitch", "m", "advance per turn", 0.01).above(0)}});
  JointKindTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "joint_kind_test.moc"
