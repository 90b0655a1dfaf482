// The model being edited: the ModelSpec, its file, the selection, and one
// QUndoStack through which every change goes. Items are reached through the item descriptions
// (core/model/description.h), so an item kind registered there is editable here without code
// of its own.
//
// Items form a tree that follows the item descriptions: the model; its own objects (ground,
// simulation); the elements of its lists (bodies, joints, ...); and, below those, the elements of
// their lists (a body's markers, the ground's markers). Nested objects of an item (a body's
// visual mesh) are fields of that item, not items.
//
// Every item has an id that stays the same while the item exists (an edit of its name included);
// the tree, the viewport's pickable actors, the property panel and the messages name items by it.
// Ids are positive; kModelId is the model's top level (name, gravity), kSimulationId its solver
// settings.
#pragma once

#include "core/base/diagnostics.h"
#include "core/model/description.h"
#include "core/model/model.h"

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace flexim::ui {

using ItemId = int;

/// Field values compared as stored (Eigen's quaternion has no ==).
bool sameFieldValue(const FieldValue& a, const FieldValue& b);

class ModelDocument : public QObject {
  Q_OBJECT

 public:
  static constexpr ItemId kNoItem = 0;
  static constexpr ItemId kModelId = 1;
  static constexpr ItemId kSimulationId = 2;

  explicit ModelDocument(QObject* parent = nullptr);

  /// Replaces the model (a file just opened, or a new one): the undo history is cleared, the
  /// document is clean, every item gets a new id.
  void reset(ModelSpec model, QString path);
  /// Marks the document as having unsaved changes that no undo removes (a recovered model).
  void markUnsaved() { m_undo.resetClean(); }
  /// Reads a model file (problems into diag, the document unchanged on failure).
  bool open(const QString& path, Diagnostics& diag);
  /// Writes the model JSON to path and makes it the document's file; false with a reason, and
  /// then nothing changed (neither the document nor any file). A document without changes since
  /// it was opened or saved writes the bytes it read. Saved to another folder, the relative file
  /// paths in the model (reduced bodies, visual meshes) name the same files from there, and a
  /// model named after its old file takes the new file's name (one undoable command, pushed
  /// only when the file was written whole).
  bool save(const QString& path, QString& error);

  const ModelSpec& model() const { return m_model; }
  const QString& path() const { return m_path; }
  bool isDirty() const { return !m_undo.isClean(); }
  QUndoStack* undoStack() { return &m_undo; }

  /// Every item, in document order (the model, the ground and its markers, each list's items
  /// each followed by its own markers, ..., the simulation).
  std::vector<ItemId> items() const;
  /// The item that holds this one (kModelId for a body, the body for its marker; kNoItem for the model).
  ItemId parentOf(ItemId id) const;
  /// The description of an item's kind (null for an unknown id).
  const ItemDescription* description(ItemId id) const;
  /// JSON path of the item as validation messages name it: "bodies[2]", "bodies[2].markers[0]",
  /// "simulation", "" (the model).
  std::string itemPath(ItemId id) const;
  /// The item's name ("" when its kind has none), and a label for titles and commands.
  std::string itemName(ItemId id) const;
  QString itemLabel(ItemId id) const;
  /// The innermost item whose JSON path starts `path` ("joints[1].axis" -> the joint,
  /// "bodies[0].markers[1].position" -> the marker), kNoItem if none.
  ItemId itemAtPath(const std::string& path) const;
  /// The item of one of the model's lists with that name, kNoItem if none.
  ItemId findItem(const std::string& listKey, const std::string& name) const;

  /// Whether the field applies to the item as it is now (its condition holds: a joint's axis
  /// only for the kinds that have one).
  bool applies(ItemId id, const FieldDescription& field) const;
  /// The same for a field named by key ("visual.scale": a field of a nested object).
  bool applies(ItemId id, const std::string& key) const;
  /// The value of one of the item's fields (std::monostate when it has no such field); key
  /// "visual.file" names a field of the nested object "visual".
  FieldValue value(ItemId id, const std::string& key) const;
  /// The values a list field of the item may hold (FieldDescription::options), in order; empty
  /// when the field takes any.
  std::vector<std::string> options(ItemId id, const std::string& key) const;
  /// Changes one field through an undoable command. An edit that adds a validation error is not
  /// made: false, with validation's own message ("bodies[0].mass: must be positive") in error.
  /// Renaming an item renames the references to it in the same command. Setting a field to its
  /// current value does nothing and succeeds.
  bool setField(ItemId id, const std::string& key, const FieldValue& value, QString& error);

  /// Several fields of one item changed together, as one undoable command named text (a
  /// settings dialog's OK): checked as a whole, so intermediate states do not matter. Values equal
  /// to the current ones are skipped; nothing changed is no command and succeeds. Renames of
  /// referenced items are not followed here (use setField for a name).
  bool setFields(ItemId id, const std::vector<std::pair<std::string, FieldValue>>& values, const QString& text,
                 QString& error);

  /// The item's spec struct (a RigidBodySpec, a MarkerSpec, ...; null for an unknown id): what
  /// addItem copies from a draft made in another document.
  const void* itemData(ItemId id) const;

  /// Adds an item to a list that holder has ("bodies" of the model, "markers" of a body) at index
  /// (-1: at the end), as one undoable command named text: a copy of element (a spec struct of
  /// the list's kind), or the kind's defaults when null. Refused, like an edit, when it adds a
  /// validation error — unless draft: a new item still being filled in (a dialog's copy of the
  /// model). The new item is selected; its id, or kNoItem with the reason in error.
  ItemId addItem(ItemId holder, const std::string& listKey, const void* element, const QString& text, QString& error,
                 int index = -1, bool draft = false);
  /// A copy of the item (and what it holds) right after it, named like it with a number ("crank2").
  ItemId duplicateItem(ItemId id, QString& error);
  /// The items as clipboard text (a partial model file, io::copyItems): each with what it holds,
  /// file paths absolute. Empty with the reason when an item cannot be copied.
  QString copyText(const std::vector<ItemId>& ids, QString& error) const;
  /// Pastes clipboard text (io::pasteItems) as one undoable command: clashing names get free ones,
  /// references among the pasted items follow, markers go to holder (kNoItem: none given). The
  /// items added (their holders', not their markers'), or none with the reason.
  std::vector<ItemId> pasteText(const QString& text, ItemId holder, QString& error);
  /// What must go if the item goes: the items that name it (a joint on a body, a driver of that
  /// joint, ...), transitively, and the items it holds (its markers) and theirs; document order.
  std::vector<ItemId> dependents(ItemId id) const;
  /// Removes the items (each with what it holds) as one undoable command. Refused when it leaves a
  /// reference without its item (include dependents()), or for an item not in a list (the ground).
  bool removeItems(const std::vector<ItemId>& ids, QString& error);
  /// base followed by the smallest number that makes a name free where a new item of the list
  /// would be named ("body1", "marker3").
  std::string freeName(ItemId holder, const std::string& listKey, const std::string& base) const;

  ItemId selected() const { return m_selected; }
  void select(ItemId id);

 signals:
  /// A field of an item changed (by an edit, an undo or a redo).
  void fieldChanged(flexim::ui::ItemId id, const QString& key);
  /// The whole model was replaced (reset).
  void modelReset();
  /// Items were added or removed (an add, a delete, their undo): ids of the others are unchanged.
  void itemsChanged();
  void selectionChanged(flexim::ui::ItemId id);
  void dirtyChanged(bool dirty);

 private:
  friend class SetFieldCommand;
  friend class ModelChangeCommand;
  friend class StructureCommand;
  /// Where an item sits: the item holding it, the holder's List or Object field it is in, and its
  /// kind. The index in a list is found from the holder's id list, so it follows the list.
  struct Node {
    ItemId parent = kNoItem;
    const FieldDescription* field = nullptr;  ///< null for the model
    const ItemDescription* item = nullptr;
  };
  const Node* node(ItemId id) const;
  /// The item's index in its list (0 for an object).
  std::size_t indexOf(ItemId id, const Node& n) const;
  /// The field a key names ("mass", or "visual.file" inside a nested object), the description
  /// that has it, and the object that holds its value.
  struct Target {
    const FieldDescription* field = nullptr;
    const ItemDescription* owner = nullptr;
    void* object = nullptr;
  };
  Target target(ModelSpec& model, ItemId id, const std::string& key) const;
  Target target(ItemId id, const std::string& key) const;
  /// The item's spec struct in model (m_model or a copy being tried); null for an unknown id.
  void* itemPointer(ModelSpec& model, ItemId id) const;
  const void* itemPointer(const ModelSpec& model, ItemId id) const;
  /// Sets without a command (the commands' redo and undo).
  void apply(ItemId id, const std::string& key, const FieldValue& value);
  /// (holder, list or object key) -> the ids of its items in order (one for an object).
  using Lists = std::map<std::pair<ItemId, std::string>, std::vector<ItemId>>;
  /// Gives every item of m_model an id: the one keep has at its place, else a new one.
  void assignIds(const Lists* keep = nullptr);
  /// Ids for the items held by item id (its list elements; the model's objects too), recursively.
  void assignChildIds(ItemId id, const ItemDescription& d, void* object, const Lists* keep);
  /// The names a new item of the list must avoid (io/editing_rules.h says which scope).
  std::set<std::string> usedNames(ItemId holder, const FieldDescription& list) const;
  /// Points the references to a renamed item at its new name (in trial), listing the fields changed.
  void renameReferences(ModelSpec& trial, ItemId renamed, const std::string& to,
                        std::vector<std::pair<ItemId, std::string>>& changed) const;
  /// The first validation error of after that before does not have, preferring one at fieldPath.
  /// draftPath: an item being filled in (a new item's dialog); errors inside it elsewhere than at
  /// fieldPath are not the edit's fault (its other required fields are still to come).
  static std::string newProblem(const ModelSpec& before, const ModelSpec& after, const std::string& fieldPath,
                                const std::string& draftPath = {});
  void replaceModel(const ModelSpec& model, const std::vector<std::pair<ItemId, std::string>>& changed);
  /// The model and its item ids after a structural edit (or its undo); the selection goes to select.
  void replaceStructure(const ModelSpec& model, const Lists& lists, ItemId select);
  /// The reference fields of item `from` that name item `to` (a marker together with its body).
  std::vector<const FieldDescription*> referencesTo(ItemId from, ItemId to) const;
  /// The fields that follow the model file to newPath, changed in trial (see save()): relative
  /// "file" fields, and a name that was the old file's.
  std::vector<std::pair<ItemId, std::string>> rewriteForNewPath(ModelSpec& trial, const QString& newPath) const;
  /// Reads a flexible body's reduced-body file (relative to the model file) into its data in trial.
  bool loadData(ModelSpec& trial, ItemId id, QString& error) const;
  /// The name a reference to item id's holder gives it: a body's name, "ground" for the ground.
  std::string holderName(ItemId id) const;

  ModelSpec m_model;
  QString m_path;
  std::string m_savedText;  ///< the file's text as last read or written ("" for a model built in memory)
  QUndoStack m_undo;
  std::map<ItemId, Node> m_nodes;
  std::vector<ItemId> m_order;  ///< document order
  Lists m_lists;
  ItemId m_nextId = kSimulationId + 1;
  ItemId m_draft = kNoItem;  ///< the item a new item's dialog fills in (addItem with draft)
  ItemId m_selected = kNoItem;
};

}  // namespace flexim::ui
