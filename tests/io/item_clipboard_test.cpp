// Copy and paste of items between models (io/item_clipboard.h): free names
// for clashing ones, references that follow them, references to items not pasted checked
// against the target, markers onto a selected holder, file paths that survive another folder,
// and the loader's validation of the merged model.
#include "core/model/validate.h"
#include "io/item_clipboard.h"
#include "io/model_json.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <filesystem>

using namespace flexim;

namespace {

std::string examples() { return std::string(FLEXIM_SOURCE_DIR) + "/resources/examples"; }

ModelSpec load(const std::string& name) {
  ModelSpec m;
  Diagnostics diag;
  if (!io::loadModelFile(examples() + "/" + name, m, diag)) qFatal("cannot load %s: %s", name.c_str(), diag.str().c_str());
  return m;
}

std::string copy(const ModelSpec& m, const std::vector<std::string>& paths, const std::string& dir = examples()) {
  std::string error;
  const std::string text = io::copyItems(m, paths, dir, &error);
  if (text.empty()) qFatal("copy failed: %s", error.c_str());
  return text;
}

struct Paste {
  bool ok = false;
  ModelSpec merged;
  std::vector<std::string> added;
  std::string error;
};

Paste paste(const ModelSpec& target, const std::string& text, const std::string& dir = examples(),
            const std::string& holder = {}) {
  Paste p;
  p.ok = io::pasteItems(target, text, dir, holder, p.merged, p.added, p.error);
  return p;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

class ItemClipboardTest : public QObject {
  Q_OBJECT
 private slots:
  /// The text is a partial model file: only the lists of the copied items, each item whole.
  void copyWritesOnlyTheCopiedLists() {
    const ModelSpec m = load("slider_crank_rigid.json");
    const auto j = nlohmann::json::parse(copy(m, {"joints[0]", "bodies[0]", "bodies[0].markers[1]"}));
    QCOMPARE(j.size(), std::size_t(3));  // schema_version, bodies, joints
    QCOMPARE(j["schema_version"].get<int>(), 1);
    QCOMPARE(j["bodies"].size(), std::size_t(1));
    QCOMPARE(j["bodies"][0]["name"].get<std::string>(), std::string("crank"));
    QCOMPARE(j["bodies"][0]["markers"].size(), std::size_t(2));  // the marker goes with its body
    QCOMPARE(j["joints"][0]["name"].get<std::string>(), std::string("crank_pivot"));
    QVERIFY(!j.contains("ground") && !j.contains("simulation") && !j.contains("gravity"));
    std::string error;
    QVERIFY(io::copyItems(m, {"bodies[7]"}, examples(), &error).empty());
    QVERIFY2(contains(error, "bodies[7]"), error.c_str());
    QVERIFY(io::copyItems(m, {"simulation"}, examples(), &error).empty());
    QVERIFY(io::copyItems(m, {}, examples(), &error).empty());
  }

  /// Crank and its pivot pasted into their own model: free names, the joint on the new crank
  /// and on the ground, and a model the loader accepts.
  void pasteIntoTheSameModelRenames() {
    const ModelSpec m = load("slider_crank_rigid.json");
    const Paste p = paste(m, copy(m, {"bodies[0]", "joints[0]"}));
    QVERIFY2(p.ok, p.error.c_str());
    QCOMPARE(p.added, (std::vector<std::string>{"bodies[3]", "joints[4]"}));
    QCOMPARE(p.merged.bodies.size(), std::size_t(4));
    QCOMPARE(p.merged.bodies[3].name, std::string("crank1"));  // ModelDocument's free-name rule
    QCOMPARE(p.merged.bodies[3].markers.size(), std::size_t(2));
    const JointSpec& j = p.merged.joints[4];
    QCOMPARE(j.name, std::string("crank_pivot1"));
    QCOMPARE(j.body1, std::string("ground"));
    QCOMPARE(j.marker1, std::string("O"));
    QCOMPARE(j.body2, std::string("crank1"));
    QCOMPARE(j.marker2, std::string("O"));
    QVERIFY(p.merged.joints[0].body2 == "crank");  // the original is untouched
    QVERIFY2(!validate(p.merged).hasErrors(), validate(p.merged).str().c_str());
    // pasted again: the next free names
    const Paste again = paste(p.merged, copy(m, {"bodies[0]", "joints[0]"}));
    QVERIFY2(again.ok, again.error.c_str());
    QCOMPARE(again.merged.bodies[4].name, std::string("crank2"));
    QCOMPARE(again.merged.joints[5].body2, std::string("crank2"));
  }

  /// A joint alone refers to the target's bodies of the same names.
  void jointAloneRefersToTheTargetsBodies() {
    const ModelSpec m = load("slider_crank_rigid.json");
    ModelSpec target = m;
    target.joints.clear();
    target.drivers.clear();
    target.sensors.erase(target.sensors.begin() + 1);  // observes crank_pivot
    const Paste p = paste(target, copy(m, {"joints[1]"}));
    QVERIFY2(p.ok, p.error.c_str());
    QCOMPARE(p.added, std::vector<std::string>{"joints[0]"});
    const JointSpec& j = p.merged.joints[0];
    QCOMPARE(j.name, std::string("crank_pin"));  // no clash: kept
    QCOMPARE(j.body1, std::string("crank"));
    QCOMPARE(j.marker1, std::string("A"));
    QCOMPARE(j.body2, std::string("rod"));
    QCOMPARE(j.marker2, std::string("A"));
  }

  /// What is not pasted must be in the target: named in the error, with what is missing.
  void missingReferencesAreNamed() {
    const ModelSpec m = load("slider_crank_rigid.json");
    const ModelSpec empty;
    Paste p = paste(empty, copy(m, {"joints[1]"}));
    QVERIFY(!p.ok);
    QVERIFY2(contains(p.error, "joint 'crank_pin': body 'crank' is not in this model; copy it too"), p.error.c_str());
    QVERIFY2(contains(p.error, "joint 'crank_pin': body 'rod' is not in this model; copy it too"), p.error.c_str());
    QVERIFY(p.added.empty());
    // the crank copied too: only the rod is missing
    p = paste(empty, copy(m, {"bodies[0]", "joints[1]"}));
    QVERIFY(!p.ok);
    QVERIFY2(contains(p.error, "body 'rod' is not in this model") && !contains(p.error, "body 'crank'"), p.error.c_str());
    // the ground is always there, its markers are not
    p = paste(empty, copy(m, {"bodies[0]", "joints[0]"}));
    QVERIFY(!p.ok);
    QVERIFY2(contains(p.error, "joint 'crank_pivot': marker 'O' on body 'ground' is not in this model; copy it too"),
             p.error.c_str());
    // a driver without its joint
    p = paste(empty, copy(m, {"drivers[0]"}));
    QVERIFY2(contains(p.error, "driver 'motor': joint 'crank_pivot' is not in this model"), p.error.c_str());
  }

  /// The flexible rod and its virtual bodies pasted into a model in another folder: the file
  /// is named relative to that folder and its data is loaded; the model saved there opens.
  void flexibleBodyIntoAnotherFolder() {
    const ModelSpec m = load("slider_crank_flexible.json");
    const std::string text = copy(m, {"flexible_bodies[0]", "virtual_bodies[0]", "virtual_bodies[1]"});
    const auto j = nlohmann::json::parse(text);
    const std::string absolute = j["flexible_bodies"][0]["file"].get<std::string>();
    QVERIFY2(std::filesystem::path(absolute).is_absolute(), absolute.c_str());
    QVERIFY(std::filesystem::exists(absolute));

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string folder = (dir.path() + "/models").toStdString();
    QVERIFY(QDir().mkpath(QString::fromStdString(folder)));
    const Paste p = paste(ModelSpec{}, text, folder);
    QVERIFY2(p.ok, p.error.c_str());
    QCOMPARE(p.added, (std::vector<std::string>{"flexible_bodies[0]", "virtual_bodies[0]", "virtual_bodies[1]"}));
    const FlexibleBodySpec& rod = p.merged.flexible_bodies[0];
    QVERIFY2(std::filesystem::path(rod.file).is_relative(), rod.file.c_str());
    QVERIFY2(contains(rod.file, "../"), rod.file.c_str());
    QCOMPARE(QFileInfo(QString::fromStdString(folder + "/" + rod.file)).canonicalFilePath(),
             QFileInfo(QString::fromStdString(absolute)).canonicalFilePath());
    QVERIFY(rod.data != nullptr);
    QCOMPARE(p.merged.virtual_bodies[0].flexible_body, std::string("rod"));
    QCOMPARE(p.merged.virtual_bodies[1].markers.size(), std::size_t(1));
    const std::string file = folder + "/model.json";
    std::string error;
    QVERIFY2(io::saveModelFile(p.merged, file, &error), error.c_str());
    ModelSpec reopened;
    Diagnostics diag;
    QVERIFY2(io::loadModelFile(file, reopened, diag), diag.str().c_str());
    QVERIFY(reopened.flexible_bodies[0].data != nullptr);

    // into its own model: new names, the virtual bodies on the new rod, the same relative file
    const Paste same = paste(m, text);
    QVERIFY2(same.ok, same.error.c_str());
    QCOMPARE(same.merged.flexible_bodies[1].name, std::string("rod1"));
    QCOMPARE(same.merged.flexible_bodies[1].file, m.flexible_bodies[0].file);
    QCOMPARE(same.merged.virtual_bodies[2].name, std::string("rod_A1"));
    QCOMPARE(same.merged.virtual_bodies[2].flexible_body, std::string("rod1"));
    QCOMPARE(same.merged.virtual_bodies[3].flexible_body, std::string("rod1"));
  }

  /// Markers copied without their body go to the selected holder, with free names there.
  void markersOntoAHolder() {
    const ModelSpec m = load("slider_crank_rigid.json");
    const std::string text = copy(m, {"bodies[0].markers[1]", "ground.markers[0]"});  // crank's A, ground's O
    Paste p = paste(m, text, examples(), "bodies[1]");  // the rod has A and B
    QVERIFY2(p.ok, p.error.c_str());
    QCOMPARE(p.added, (std::vector<std::string>{"bodies[1].markers[2]", "bodies[1].markers[3]"}));
    QCOMPARE(p.merged.bodies[1].markers[2].name, std::string("O"));
    QCOMPARE(p.merged.bodies[1].markers[3].name, std::string("A1"));
    QCOMPARE(p.merged.bodies[1].markers[3].position, m.bodies[0].markers[1].position);
    p = paste(m, text, examples(), "ground");
    QVERIFY2(p.ok, p.error.c_str());
    QCOMPARE(p.added, (std::vector<std::string>{"ground.markers[2]", "ground.markers[3]"}));
    QCOMPARE(p.merged.ground_markers[2].name, std::string("O1"));
    QCOMPARE(p.merged.ground_markers[3].name, std::string("A"));
    // no holder, or one that holds no markers
    p = paste(m, text);
    QVERIFY(!p.ok);
    QVERIFY2(contains(p.error, "select a body"), p.error.c_str());
    QVERIFY(!paste(m, text, examples(), "joints[0]").ok);
    QVERIFY(!paste(m, text, examples(), "bodies[9]").ok);

    // a joint pasted with a marker onto the marker's body: its reference follows that marker's
    // new name; the reference to the other body's marker (not renamed) stays
    p = paste(m, copy(m, {"joints[1]", "bodies[1].markers[0]"}), examples(), "bodies[1]");
    QVERIFY2(p.ok, p.error.c_str());
    QCOMPARE(p.merged.bodies[1].markers[2].name, std::string("A1"));
    const JointSpec& j = p.merged.joints[4];
    QCOMPARE(j.name, std::string("crank_pin1"));
    QCOMPARE(j.body1, std::string("crank"));
    QCOMPARE(j.marker1, std::string("A"));
    QCOMPARE(j.body2, std::string("rod"));
    QCOMPARE(j.marker2, std::string("A1"));
  }

  /// Copy -> paste into an empty model -> copy again: the same text; the saved model's lists are
  /// the copied ones.
  void roundTripThroughAnEmptyModel() {
    for (const char* name : {"slider_crank_rigid.json", "slider_crank_flexible.json"}) {
      const ModelSpec m = load(name);
      std::vector<std::string> paths{"ground.markers[0]", "ground.markers[1]"};
      for (std::size_t i = 0; i < m.bodies.size(); ++i) paths.push_back("bodies[" + std::to_string(i) + "]");
      for (std::size_t i = 0; i < m.flexible_bodies.size(); ++i) paths.push_back("flexible_bodies[" + std::to_string(i) + "]");
      for (std::size_t i = 0; i < m.virtual_bodies.size(); ++i) paths.push_back("virtual_bodies[" + std::to_string(i) + "]");
      for (std::size_t i = 0; i < m.joints.size(); ++i) paths.push_back("joints[" + std::to_string(i) + "]");
      for (std::size_t i = 0; i < m.drivers.size(); ++i) paths.push_back("drivers[" + std::to_string(i) + "]");
      for (std::size_t i = 0; i < m.sensors.size(); ++i) paths.push_back("sensors[" + std::to_string(i) + "]");
      const std::string text = copy(m, paths);
      // no folder: the file paths stay absolute, and the saved lists are the copied ones
      Paste p = paste(ModelSpec{}, text, "", "ground");
      QVERIFY2(p.ok, p.error.c_str());
      QCOMPARE(p.added.size(), paths.size());
      QCOMPARE(copy(p.merged, p.added, ""), text);
      const auto copied = nlohmann::json::parse(text);
      auto saved = nlohmann::json::parse(io::saveModelString(p.merged));
      for (const auto& [key, value] : copied.items()) QVERIFY2(saved[key] == value, key.c_str());
      // in the original's folder: the lists are the original model's, relative paths and all
      p = paste(ModelSpec{}, text, examples(), "ground");
      QVERIFY2(p.ok, p.error.c_str());
      QCOMPARE(copy(p.merged, p.added), text);
      saved = nlohmann::json::parse(io::saveModelString(p.merged));
      const auto original = nlohmann::json::parse(io::saveModelString(m));
      for (const char* key : {"ground", "bodies", "flexible_bodies", "virtual_bodies", "joints", "drivers", "sensors"})
        QVERIFY2(saved.value(key, nlohmann::json()) == original.value(key, nlohmann::json()), key);
    }
  }

  /// Text that is not a part of a model is refused.
  void badTextIsRefused() {
    const ModelSpec m = load("slider_crank_rigid.json");
    QVERIFY(!paste(m, "not json").ok);
    QVERIFY(!paste(m, "{}").ok);
    QVERIFY(!paste(m, R"({"schema_version": 99, "bodies": []})").ok);
    const Paste p = paste(m, R"({"bodies": [{"name": "b", "mass": -1, "inertia": [1, 1, 1]}]})");
    QVERIFY(!p.ok);
    QVERIFY2(contains(p.error, "bodies[3].mass"), p.error.c_str());  // the loader's message, at the merged path
  }
};

QTEST_GUILESS_MAIN(ItemClipboardTest)
#include "item_clipboard_test.moc"
