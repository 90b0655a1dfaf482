// The editable model document: edits through undoable commands, refused edits
// with the JSON loader's own message, the dirty state, stable item ids and saving.
#include "io/fe/reduced_body_file.h"
#include "io/model_json.h"
#include "core/model/validate.h"
#include "ui/model_document.h"

#include <QDir>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

using namespace flexim;
using namespace flexim::ui;

namespace {

const std::string kExample = FLEXIM_SOURCE_DIR "/resources/examples/slider_crank_rigid.json";

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

ModelSpec loadExample() {
  ModelSpec m;
  Diagnostics diag;
  if (!io::loadModelFile(kExample, m, diag)) qFatal("%s", diag.str().c_str());
  return m;
}

}  // namespace

class ModelDocumentTest : public QObject {
  Q_OBJECT

 private slots:
  void editUndoRedo() {
    ModelDocument doc;
    doc.reset(loadExample(), QString::fromStdString(kExample));
    QVERIFY(!doc.isDirty());
    const ItemId crank = doc.findItem("bodies", "crank");
    QVERIFY(crank != ModelDocument::kNoItem);
    QCOMPARE(doc.itemPath(crank), std::string("bodies[0]"));
    const double mass = std::get<double>(doc.value(crank, "mass"));
    QSignalSpy changed(&doc, &ModelDocument::fieldChanged);
    QSignalSpy dirty(&doc, &ModelDocument::dirtyChanged);
    QString error;
    QVERIFY2(doc.setField(crank, "mass", 2.5, error), qPrintable(error));
    QCOMPARE(doc.model().bodies[0].mass, 2.5);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(1).toString(), QString("mass"));
    QVERIFY(doc.isDirty());
    QCOMPARE(dirty.count(), 1);
    QCOMPARE(doc.undoStack()->undoText(), QString("Edit rigid body 'crank' mass"));
    doc.undoStack()->undo();
    QCOMPARE(doc.model().bodies[0].mass, mass);
    QVERIFY(!doc.isDirty());
    doc.undoStack()->redo();
    QCOMPARE(doc.model().bodies[0].mass, 2.5);
    // the same value again: no command
    const int count = doc.undoStack()->count();
    QVERIFY(doc.setField(crank, "mass", 2.5, error));
    QCOMPARE(doc.undoStack()->count(), count);
  }

  /// A spin box's steps on one field are one undo step.
  void editsOfOneFieldMerge() {
    ModelDocument doc;
    doc.reset(loadExample(), {});
    const ItemId crank = doc.findItem("bodies", "crank");
    const double mass = doc.model().bodies[0].mass;
    QString error;
    for (double m : {1.1, 1.2, 1.3}) QVERIFY(doc.setField(crank, "mass", m, error));
    QCOMPARE(doc.undoStack()->count(), 1);
    doc.undoStack()->undo();
    QCOMPARE(doc.model().bodies[0].mass, mass);
  }

  /// An invalid edit is refused in place with the message the JSON loader gives for the same
  /// value, and the model is unchanged.
  void invalidEditRefusedWithTheLoadersMessage() {
    ModelDocument doc;
    doc.reset(loadExample(), {});
    const ItemId crank = doc.findItem("bodies", "crank");
    QString error;
    QVERIFY(!doc.setField(crank, "mass", -1.0, error));
    QVERIFY(!doc.isDirty());
    QVERIFY(doc.model().bodies[0].mass > 0);
    // the loader on the same model with mass -1
    ModelSpec bad = loadExample();
    bad.bodies[0].mass = -1.0;
    ModelSpec back;
    Diagnostics diag;
    QVERIFY(!io::loadModelString(io::saveModelString(bad), back, diag));
    std::string loaderMessage;
    for (const Diagnostic& d : diag.items())
      if (d.severity == Severity::Error) loaderMessage = d.where + ": " + d.message;
    QCOMPARE(error.toStdString(), loaderMessage);
    QVERIFY2(error.startsWith("bodies[0].mass: "), qPrintable(error));

    // a field of the solver settings, and a field that does not exist
    QVERIFY(!doc.setField(ModelDocument::kSimulationId, "t_end", 0.0, error));
    QVERIFY2(error.startsWith("simulation.t_end: "), qPrintable(error));
    QVERIFY(doc.setField(ModelDocument::kSimulationId, "t_end", 3.0, error));
    QCOMPARE(doc.model().solver.t_end, 3.0);
    QVERIFY(!doc.setField(crank, "no_such_field", 1.0, error));
  }

  /// Ids stay with their items: a renamed body keeps its id; the path of a message finds it.
  void idsAreStable() {
    ModelDocument doc;
    doc.reset(loadExample(), {});
    const ItemId crank = doc.findItem("bodies", "crank");
    QString error;
    QVERIFY2(doc.setField(crank, "name", std::string("crank2"), error), qPrintable(error));
    QCOMPARE(doc.findItem("bodies", "crank2"), crank);
    QCOMPARE(doc.itemAtPath("bodies[0].inertia"), crank);
    QCOMPARE(doc.itemAtPath("simulation.t_end"), ModelDocument::kSimulationId);
    const auto items = doc.items();
    QCOMPARE(items.front(), ModelDocument::kModelId);
    QCOMPARE(items.back(), ModelDocument::kSimulationId);
    QCOMPARE(std::size_t(std::count(items.begin(), items.end(), crank)), std::size_t(1));
  }

  /// A rename carries the references to the item along, in one command that undoes as one; a
  /// name another body has is refused with the loader's duplicate-name message.
  void renameFollowsReferences() {
    ModelDocument doc;
    doc.reset(loadExample(), {});
    const ItemId crank = doc.findItem("bodies", "crank");
    const auto referencing = [&doc](const std::string& name) {
      int n = 0;
      for (const JointSpec& j : doc.model().joints) n += (j.body1 == name) + (j.body2 == name);
      return n;
    };
    const int before = referencing("crank");
    QVERIFY(before >= 2);
    QString error;
    QVERIFY2(doc.setField(crank, "name", std::string("lever"), error), qPrintable(error));
    QCOMPARE(referencing("lever"), before);
    QCOMPARE(referencing("crank"), 0);
    QVERIFY(!validate(doc.model()).hasErrors());
    QCOMPARE(doc.undoStack()->count(), 1);
    QVERIFY2(doc.undoStack()->text(0).contains("lever"), qPrintable(doc.undoStack()->text(0)));
    doc.undoStack()->undo();
    QCOMPARE(referencing("crank"), before);
    QCOMPARE(doc.itemName(crank), std::string("crank"));
    // a duplicate name is a new error elsewhere (at the other body): refused all the same
    QVERIFY(!doc.setField(crank, "name", std::string("slider"), error));
    QVERIFY2(error.contains("duplicate name 'slider'"), qPrintable(error));
    QCOMPARE(doc.itemName(crank), std::string("crank"));
  }

  /// Markers are items of their own, below their body (or the ground): paths, the innermost
  /// item of a message's path, labels that name the body, and edits of their fields.
  void markersAreItems() {
    ModelDocument doc;
    doc.reset(loadExample(), {});
    const ItemId crank = doc.findItem("bodies", "crank");
    const ItemId pin = doc.itemAtPath("bodies[0].markers[1]");
    QVERIFY(pin != ModelDocument::kNoItem && pin != crank);
    QCOMPARE(doc.parentOf(pin), crank);
    QCOMPARE(doc.parentOf(crank), ModelDocument::kModelId);
    QCOMPARE(doc.description(pin)->kind, std::string("marker"));
    QCOMPARE(doc.itemName(pin), std::string("A"));
    QCOMPARE(doc.itemLabel(pin), QString("marker 'A' on crank"));
    QCOMPARE(doc.itemAtPath("bodies[0].markers[1].position"), pin);
    QCOMPARE(doc.itemAtPath("bodies[0].mass"), crank);
    const ItemId rail = doc.itemAtPath("ground.markers[1]");
    QVERIFY(rail != ModelDocument::kNoItem);
    QCOMPARE(doc.itemPath(rail), std::string("ground.markers[1]"));
    QCOMPARE(doc.itemLabel(rail), QString("marker 'rail' on ground"));
    QCOMPARE(doc.description(doc.parentOf(rail))->kind, std::string("ground"));
    // document order: each body directly followed by its markers
    const auto items = doc.items();
    const auto at = std::find(items.begin(), items.end(), crank);
    QCOMPARE(*(at + 2), pin);
    // a marker's position is edited like any field, undoably, with the loader's checks
    QString error;
    QVERIFY2(doc.setField(pin, "position", Vec3(0.2, 0.01, 0.0), error), qPrintable(error));
    QCOMPARE(doc.model().bodies[0].markers[1].position, Vec3(0.2, 0.01, 0.0));
    QCOMPARE(doc.undoStack()->undoText(), QString("Edit marker 'A' on crank position"));
    QVERIFY(!doc.setField(pin, "name", std::string("O"), error));  // the crank has an 'O' already
    QVERIFY2(error.startsWith("bodies[0].markers[1]") && error.contains("duplicate name 'O'"), qPrintable(error));
    doc.undoStack()->undo();
    QCOMPARE(doc.model().bodies[0].markers[1].position, loadExample().bodies[0].markers[1].position);
  }

  /// Renaming a marker renames the references to it on its own body only: the crank's 'A' and
  /// the rod's 'A' are different markers of the same name.
  void markerRenameFollowsItsBodysReferences() {
    ModelDocument doc;
    doc.reset(loadExample(), {});
    const ItemId crankA = doc.itemAtPath("bodies[0].markers[1]");
    QString error;
    QVERIFY2(doc.setField(crankA, "name", std::string("pin"), error), qPrintable(error));
    const JointSpec& crankPin = doc.model().joints[1];
    QCOMPARE(crankPin.body1, std::string("crank"));
    QCOMPARE(crankPin.marker1, std::string("pin"));
    QCOMPARE(crankPin.marker2, std::string("A"));  // the rod's marker keeps its name
    QVERIFY(!validate(doc.model()).hasErrors());
    // a ground marker: only the joint end on the ground follows
    const ItemId groundO = doc.itemAtPath("ground.markers[0]");
    QVERIFY2(doc.setField(groundO, "name", std::string("origin"), error), qPrintable(error));
    QCOMPARE(doc.model().joints[0].marker1, std::string("origin"));
    QCOMPARE(doc.model().joints[0].marker2, std::string("O"));
    QVERIFY(!validate(doc.model()).hasErrors());
    doc.undoStack()->undo();
    doc.undoStack()->undo();
    QCOMPARE(doc.model().joints[1].marker1, std::string("A"));
    QCOMPARE(doc.model().joints[0].marker1, std::string("O"));
  }

  /// Adding an item: at the end of its list or at a place, one undoable command, selected; the
  /// other items keep their ids; undo and redo give the same ids back.
  void addItemUndoRedo() {
    ModelDocument doc;
    doc.reset(loadExample(), {});
    const ItemId crank = doc.findItem("bodies", "crank");
    const ItemId slider = doc.findItem("bodies", "slider");
    QSignalSpy structure(&doc, &ModelDocument::itemsChanged);
    RigidBodySpec arm;
    arm.name = doc.freeName(ModelDocument::kModelId, "bodies", "body");
    QCOMPARE(arm.name, std::string("body1"));
    arm.mass = 2.0;
    arm.position = Vec3(0.1, 0.2, 0.3);
    QString error;
    const ItemId id = doc.addItem(ModelDocument::kModelId, "bodies", &arm, "Add rigid body 'body1'", error, 1);
    QVERIFY2(id != ModelDocument::kNoItem, qPrintable(error));
    QCOMPARE(structure.count(), 1);
    QCOMPARE(doc.model().bodies.size(), std::size_t(4));
    QCOMPARE(doc.model().bodies[1].name, std::string("body1"));
    QCOMPARE(doc.itemPath(id), std::string("bodies[1]"));
    QCOMPARE(doc.itemPath(slider), std::string("bodies[3]"));  // same id, new place
    QCOMPARE(doc.itemPath(crank), std::string("bodies[0]"));
    QCOMPARE(doc.selected(), id);
    QCOMPARE(doc.undoStack()->undoText(), QString("Add rigid body 'body1'"));
    // a marker on the new body
    MarkerSpec tip;
    tip.name = doc.freeName(id, "markers", "marker");
    QCOMPARE(tip.name, std::string("marker1"));
    const ItemId marker = doc.addItem(id, "markers", &tip, "Add marker", error);
    QVERIFY2(marker != ModelDocument::kNoItem, qPrintable(error));
    QCOMPARE(doc.itemPath(marker), std::string("bodies[1].markers[0]"));
    QCOMPARE(doc.parentOf(marker), id);
    doc.undoStack()->undo();
    doc.undoStack()->undo();
    QCOMPARE(doc.model().bodies.size(), std::size_t(3));
    QCOMPARE(doc.itemPath(slider), std::string("bodies[2]"));
    QCOMPARE(doc.description(id), nullptr);
    QVERIFY(!doc.isDirty());
    doc.undoStack()->redo();
    doc.undoStack()->redo();
    QCOMPARE(doc.itemPath(id), std::string("bodies[1]"));
    QCOMPARE(doc.itemPath(marker), std::string("bodies[1].markers[0]"));
    QCOMPARE(doc.selected(), marker);
    // an item that adds an error is refused with the loader's message, unless it is a draft
    RigidBodySpec bad;
    bad.name = "crank";
    QCOMPARE(doc.addItem(ModelDocument::kModelId, "bodies", &bad, "Add", error), ModelDocument::kNoItem);
    QVERIFY2(error.contains("duplicate name 'crank'"), qPrintable(error));
    QVERIFY(doc.addItem(ModelDocument::kModelId, "bodies", nullptr, "Add", error, -1, true) != ModelDocument::kNoItem);
  }

  /// Deleting: what depends on an item is found (joints on a body, their drivers and sensors,
  /// the body's markers); deleting it alone is refused with the dangling reference named;
  /// deleting it with its dependents is one command, and undo brings all back with their ids.
  void deleteWithDependents() {
    ModelDocument doc;
    doc.reset(loadExample(), {});
    const ItemId rod = doc.findItem("bodies", "rod");
    const ItemId crankPin = doc.findItem("joints", "crank_pin");
    const ItemId wristPin = doc.findItem("joints", "wrist_pin");
    const std::vector<ItemId> deps = doc.dependents(rod);
    QVERIFY(std::find(deps.begin(), deps.end(), crankPin) != deps.end());
    QVERIFY(std::find(deps.begin(), deps.end(), wristPin) != deps.end());
    QVERIFY(std::find(deps.begin(), deps.end(), doc.itemAtPath("bodies[1].markers[0]")) != deps.end());
    QVERIFY(std::find(deps.begin(), deps.end(), doc.findItem("joints", "crank_pivot")) == deps.end());
    QVERIFY(std::find(deps.begin(), deps.end(), doc.findItem("bodies", "crank")) == deps.end());
    QString error;
    QVERIFY(!doc.removeItems({rod}, error));
    QVERIFY2(error.contains("no body named 'rod'"), qPrintable(error));
    QCOMPARE(doc.model().bodies.size(), std::size_t(3));
    std::vector<ItemId> all{rod};
    for (ItemId d : deps)
      if (doc.parentOf(d) == ModelDocument::kModelId) all.push_back(d);
    const std::size_t joints = doc.model().joints.size();
    QVERIFY2(doc.removeItems(all, error), qPrintable(error));
    QCOMPARE(doc.model().bodies.size(), std::size_t(2));
    QVERIFY(doc.model().joints.size() < joints);
    QVERIFY(!validate(doc.model()).hasErrors());
    QCOMPARE(doc.description(rod), nullptr);
    const ItemId slider = doc.findItem("bodies", "slider");
    QCOMPARE(doc.itemPath(slider), std::string("bodies[1]"));
    doc.undoStack()->undo();
    QCOMPARE(doc.model().bodies.size(), std::size_t(3));
    QCOMPARE(doc.itemName(rod), std::string("rod"));
    QCOMPARE(doc.itemName(crankPin), std::string("crank_pin"));
    QCOMPARE(doc.itemPath(slider), std::string("bodies[2]"));
    QCOMPARE(doc.model().joints.size(), joints);
    // the ground and the simulation are not list items
    QVERIFY(!doc.removeItems({ModelDocument::kSimulationId}, error));
    // a marker that a joint uses depends on it: the crank's 'A' takes crank_pin with it, the rod's does not
    const auto markerDeps = doc.dependents(doc.itemAtPath("bodies[0].markers[1]"));
    QCOMPARE(markerDeps.size() >= 1, true);
    QCOMPARE(markerDeps.front(), crankPin);
  }

  /// Duplicating: a copy right after the item, with a free name and its own markers.
  void duplicateItem() {
    ModelDocument doc;
    doc.reset(loadExample(), {});
    const ItemId crank = doc.findItem("bodies", "crank");
    QString error;
    const ItemId copy = doc.duplicateItem(crank, error);
    QVERIFY2(copy != ModelDocument::kNoItem, qPrintable(error));
    QCOMPARE(doc.itemName(copy), std::string("crank1"));
    QCOMPARE(doc.itemPath(copy), std::string("bodies[1]"));
    QCOMPARE(doc.model().bodies[1].markers.size(), doc.model().bodies[0].markers.size());
    QCOMPARE(doc.model().bodies[1].mass, doc.model().bodies[0].mass);
    QVERIFY(doc.itemAtPath("bodies[1].markers[0]") != doc.itemAtPath("bodies[0].markers[0]"));
    QCOMPARE(doc.undoStack()->undoText(), QString("Duplicate rigid body 'crank'"));
    // a joint duplicates too (same bodies: a redundant pair, but not invalid)
    const ItemId pin = doc.findItem("joints", "crank_pin");
    QVERIFY2(doc.duplicateItem(pin, error) != ModelDocument::kNoItem, qPrintable(error));
    QCOMPARE(doc.model().joints[2].name, std::string("crank_pin1"));
  }

  /// Saved to another folder, the model's relative file paths are rewritten to name the same
  /// files from there: the saved model opens there with its reduced body.
  void saveAsElsewhereRewritesFilePaths() {
    const QString example = QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/slider_crank_flexible.json");
    ModelDocument doc;
    Diagnostics diag;
    QVERIFY2(doc.open(example, diag), diag.str().c_str());
    const std::string before = doc.model().flexible_bodies[0].file;
    QVERIFY(QFileInfo(QString::fromStdString(before)).isRelative());
    const QString absolute = QFileInfo(example).absoluteDir().absoluteFilePath(QString::fromStdString(before));
    QTemporaryDir dir;
    const QString saved = dir.filePath("elsewhere/model.json");
    QVERIFY(QDir().mkpath(dir.filePath("elsewhere")));
    QString error;
    QVERIFY2(doc.save(saved, error), qPrintable(error));
    const QString now = QString::fromStdString(doc.model().flexible_bodies[0].file);
    QVERIFY2(QFileInfo(now).isRelative(), qPrintable(now));
    QCOMPARE(QFileInfo(QDir(dir.filePath("elsewhere")).absoluteFilePath(now)).canonicalFilePath(),
             QFileInfo(absolute).canonicalFilePath());
    QVERIFY(!doc.isDirty());
    ModelSpec reopened;
    Diagnostics reopenDiag;
    QVERIFY2(io::loadModelFile(saved.toStdString(), reopened, reopenDiag), reopenDiag.str().c_str());
    QVERIFY(reopened.flexible_bodies[0].data);
    // saving again in the same folder changes nothing; undo gives the old path back
    QVERIFY(doc.save(saved, error));
    QCOMPARE(doc.undoStack()->count(), 1);
    doc.undoStack()->undo();
    QCOMPARE(doc.model().flexible_bodies[0].file, before);
  }

  /// A flexible body's file is its data: a new file is read at once (relative to the model
  /// file), undo brings the old data back, and a file that cannot be read is refused.
  void flexibleBodyFileLoadsItsData() {
    ModelDocument doc;
    Diagnostics diag;
    QVERIFY(doc.open(QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/slider_crank_flexible.json"), diag));
    const ItemId rod = doc.findItem("flexible_bodies", "rod");
    const auto round = doc.model().flexible_bodies.at(0).data;
    QVERIFY(round);
    QString error;
    QVERIFY2(doc.setField(rod, "file", std::string("rod/rod_rect_c3d10.frb"), error), qPrintable(error));
    const auto rect = doc.model().flexible_bodies.at(0).data;
    QVERIFY(rect && rect != round);
    fe::ReducedBody expected;
    std::string why;
    QVERIFY(io::loadReducedBody(FLEXIM_SOURCE_DIR "/resources/examples/rod/rod_rect_c3d10.frb", expected, &why));
    QCOMPARE(rect->eigenvalues, expected.eigenvalues);
    QVERIFY(rect->eigenvalues != round->eigenvalues);  // the other rod: other frequencies
    doc.undoStack()->undo();
    QCOMPARE(doc.model().flexible_bodies.at(0).data, round);
    QCOMPARE(doc.model().flexible_bodies.at(0).file, std::string("rod/rod_round_c3d10.frb"));
    doc.undoStack()->redo();
    QCOMPARE(doc.model().flexible_bodies.at(0).data, rect);
    // a file that is not there: refused, naming the field, nothing changed
    QVERIFY(!doc.setField(rod, "file", std::string("rod/missing.frb"), error));
    QVERIFY2(error.contains("flexible_bodies[0].file"), qPrintable(error));
    QCOMPARE(doc.model().flexible_bodies.at(0).data, rect);
  }

  /// Saving an unchanged model writes what it read, byte for byte; saving makes it clean.
  void saveRoundTrip() {
    ModelDocument doc;
    Diagnostics diag;
    QVERIFY(doc.open(QString::fromStdString(kExample), diag));
    QTemporaryDir dir;
    // the same file name elsewhere (a new name would rename the model named after its file)
    const QString out = dir.filePath(QFileInfo(QString::fromStdString(kExample)).fileName());
    QString error;
    QVERIFY2(doc.save(out, error), qPrintable(error));
    QCOMPARE(readFile(out.toStdString()), readFile(kExample));
    QVERIFY(doc.setField(doc.findItem("bodies", "crank"), "mass", 4.0, error));
    QVERIFY(doc.isDirty());
    QVERIFY(doc.save(out, error));
    QVERIFY(!doc.isDirty());
    QCOMPARE(doc.path(), out);
    ModelSpec back;
    QVERIFY(io::loadModelFile(out.toStdString(), back, diag));
    QCOMPARE(back.bodies[0].mass, 4.0);
    // a change undone is no change: the file written last is written again, byte for byte
    const std::string written = readFile(out.toStdString());
    doc.undoStack()->undo();
    doc.undoStack()->redo();
    QVERIFY(!doc.isDirty());
    QTemporaryDir other;
    const QString again = other.filePath(QFileInfo(out).fileName());
    QVERIFY(doc.save(again, error));
    QCOMPARE(readFile(again.toStdString()), written);
  }
};

QTEST_GUILESS_MAIN(ModelDocumentTest)
#include "model_document_test.moc"
