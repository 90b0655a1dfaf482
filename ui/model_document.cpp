#include "ui/model_document.h"

#include "io/editing_rules.h"
#include "io/item_clipboard.h"

#include "core/model/validate.h"
#include "io/atomic_file.h"
#include "io/fe/reduced_body_file.h"
#include "io/model_json.h"

#include <QDir>
#include <QFileInfo>
#include <QUndoCommand>

#include <algorithm>
#include <functional>
#include <set>
#include <fstream>
#include <sstream>
#include <type_traits>

namespace flexim::ui {

bool sameFieldValue(const FieldValue& a, const FieldValue& b) {
  if (a.index() != b.index()) return false;
  return std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        const T& y = std::get<T>(b);
        if constexpr (std::is_same_v<T, Quat>) return x.coeffs() == y.coeffs();
        else return x == y;
      },
      a);
}

/// One field of one item set to a new value; consecutive edits of the same field merge (a spin
/// box's steps are one undo step).
class SetFieldCommand : public QUndoCommand {
 public:
  SetFieldCommand(ModelDocument& doc, ItemId id, std::string key, FieldValue before, FieldValue after)
      : m_doc(doc), m_id(id), m_key(std::move(key)), m_before(std::move(before)), m_after(std::move(after)) {
    setText(QObject::tr("Edit %1 %2").arg(doc.itemLabel(id), QString::fromStdString(m_key)));
  }
  void redo() override { m_doc.apply(m_id, m_key, m_after); }
  void undo() override { m_doc.apply(m_id, m_key, m_before); }
  int id() const override { return 1; }
  bool mergeWith(const QUndoCommand* other) override {
    const auto* o = dynamic_cast<const SetFieldCommand*>(other);
    if (!o || o->m_id != m_id || o->m_key != m_key) return false;
    m_after = o->m_after;
    return true;
  }

 private:
  ModelDocument& m_doc;
  ItemId m_id;
  std::string m_key;
  FieldValue m_before, m_after;
};

/// Several fields changed by one edit (a rename and the references that follow it), or a field
/// with data behind it (a flexible body's file): the whole model before and after, and the
/// fields to announce.
class ModelChangeCommand : public QUndoCommand {
 public:
  ModelChangeCommand(ModelDocument& doc, QString text, ModelSpec before, ModelSpec after,
                     std::vector<std::pair<ItemId, std::string>> changed)
      : m_doc(doc), m_before(std::move(before)), m_after(std::move(after)), m_changed(std::move(changed)) {
    setText(text);
  }
  void redo() override { m_doc.replaceModel(m_after, m_changed); }
  void undo() override { m_doc.replaceModel(m_before, m_changed); }

 private:
  ModelDocument& m_doc;
  ModelSpec m_before, m_after;
  std::vector<std::pair<ItemId, std::string>> m_changed;
};

/// Items added or removed: the model and its item ids before and after, and the selection on
/// each side. The ids of new items nested in an added one are made at the first redo and kept.
class StructureCommand : public QUndoCommand {
 public:
  StructureCommand(ModelDocument& doc, const QString& text, ModelSpec after, ModelDocument::Lists afterLists,
                   ItemId selectAfter)
      : m_doc(doc), m_before(doc.m_model), m_beforeLists(doc.m_lists), m_selectBefore(doc.m_selected),
        m_after(std::move(after)), m_afterLists(std::move(afterLists)), m_selectAfter(selectAfter) {
    setText(text);
  }
  void redo() override {
    m_doc.replaceStructure(m_after, m_afterLists, m_selectAfter);
    m_afterLists = m_doc.m_lists;
  }
  void undo() override { m_doc.replaceStructure(m_before, m_beforeLists, m_selectBefore); }

 private:
  ModelDocument& m_doc;
  ModelSpec m_before;
  ModelDocument::Lists m_beforeLists;
  ItemId m_selectBefore;
  ModelSpec m_after;
  ModelDocument::Lists m_afterLists;
  ItemId m_selectAfter;
};

ModelDocument::ModelDocument(QObject* parent) : QObject(parent) {
  connect(&m_undo, &QUndoStack::cleanChanged, this, [this](bool clean) { emit dirtyChanged(!clean); });
  assignIds();
}

void ModelDocument::reset(ModelSpec model, QString path) {
  m_model = std::move(model);
  m_path = std::move(path);
  m_savedText.clear();
  m_undo.clear();
  m_undo.setClean();
  m_selected = kNoItem;
  m_nextId = kSimulationId + 1;
  assignIds();
  emit modelReset();
  emit selectionChanged(m_selected);
}

bool ModelDocument::open(const QString& path, Diagnostics& diag) {
  std::ifstream in(path.toStdString(), std::ios::binary);
  if (!in) {
    diag.error(path.toStdString(), "cannot open the file");
    return false;
  }
  std::stringstream text;
  text << in.rdbuf();
  ModelSpec model;
  // a body whose reduced-body file is missing is kept (marked in the tree) so that the user
  // can point it at its file
  if (!io::loadModelFile(path.toStdString(), model, diag, io::MissingData::Keep)) return false;
  reset(std::move(model), path);
  m_savedText = text.str();
  return true;
}

std::vector<std::pair<ItemId, std::string>> ModelDocument::rewriteForNewPath(ModelSpec& trial, const QString& newPath) const {
  std::vector<std::pair<ItemId, std::string>> changed;
  // a model named after its file takes the new file's name
  const QString newName = QFileInfo(newPath).completeBaseName();
  if (!m_path.isEmpty() && trial.name == QFileInfo(m_path).completeBaseName().toStdString() &&
      trial.name != newName.toStdString()) {
    trial.name = newName.toStdString();
    changed.emplace_back(kModelId, "name");
  }
  // the model's "file" fields (a flexible body's .frb, a visual mesh) are relative to the model
  // file: saved in another folder, they are rewritten to name the same files from there (a
  // file named absolutely stays so, unless the model had no folder yet and the file is below
  // the new one)
  const QDir oldDir = m_path.isEmpty() ? QDir() : QFileInfo(m_path).absoluteDir();
  const QDir newDir = QFileInfo(newPath).absoluteDir();
  if (!m_path.isEmpty() && oldDir == newDir) return changed;
  const std::function<void(ItemId, const ItemDescription&, const std::string&)> visit =
      [&](ItemId id, const ItemDescription& d, const std::string& prefix) {
        for (const FieldDescription& f : d.fields) {
          const std::string key = prefix + f.key;
          if (f.type == FieldType::Object && f.item && f.object && id != kModelId) visit(id, *f.item, key + ".");
          if (f.type != FieldType::String || f.fileTypes.empty() || !f.get || !f.set) continue;
          const Target t = target(trial, id, key);
          if (!t.field) continue;
          const QString file = QString::fromStdString(std::get<std::string>(t.field->get(t.object)));
          if (file.isEmpty()) continue;
          QString rewritten;
          if (QFileInfo(file).isRelative()) {
            if (m_path.isEmpty()) continue;  // relative to what? left as it is
            rewritten = newDir.relativeFilePath(oldDir.absoluteFilePath(file));
          } else if (m_path.isEmpty() && !newDir.relativeFilePath(file).startsWith("..")) {
            rewritten = newDir.relativeFilePath(file);
          }
          if (rewritten.isEmpty() || rewritten == file) continue;
          t.field->set(t.object, rewritten.toStdString());
          changed.emplace_back(id, key);
        }
      };
  for (ItemId id : m_order) visit(id, *description(id), "");
  return changed;
}

bool ModelDocument::save(const QString& path, QString& error) {
  // One transaction: the fields that follow the file (its name, relative paths) are changed in a
  // trial, the trial is written to a temporary file beside the target and renamed over it, and
  // only then does the document take the changes. A failed write leaves the document and the
  // old file as they were.
  ModelSpec trial = m_model;
  std::vector<std::pair<ItemId, std::string>> changed = rewriteForNewPath(trial, path);
  // unchanged since it was read or saved: the same bytes (a hand-formatted file stays as it is)
  const std::string text =
      changed.empty() && !isDirty() && !m_savedText.empty() ? m_savedText : io::saveModelString(trial);
  // (not QSaveFile: under a file-size limit it commits a truncated file and reports success)
  std::string why;
  if (!io::writeFileAtomically(path.toStdString(), text, &why)) {
    error = QString::fromStdString(why) + tr("; nothing was changed");
    return false;
  }
  if (!changed.empty()) {
    // the text first: the command takes `changed` over
    const QString folder = QDir::toNativeSeparators(QFileInfo(path).absolutePath());
    const QString what = changed.size() == 1 ? tr("Rewrite 1 field for %1").arg(folder)
                                             : tr("Rewrite %1 fields for %2").arg(changed.size()).arg(folder);
    m_undo.push(new ModelChangeCommand(*this, what, m_model, std::move(trial), std::move(changed)));
  }
  m_savedText = text;
  m_path = path;
  m_undo.setClean();
  return true;
}

void ModelDocument::assignIds(const Lists* keep) {
  m_nodes.clear();
  m_order.clear();
  m_lists.clear();
  m_nodes[kModelId] = {kNoItem, nullptr, &modelDescription()};
  m_order.push_back(kModelId);
  assignChildIds(kModelId, modelDescription(), &m_model, keep);
}

void ModelDocument::assignChildIds(ItemId id, const ItemDescription& d, void* object, const Lists* keep) {
  // the ids kept for (id, key) by a structural edit, a new one where there is none
  const auto idFor = [this, keep, id](const std::string& key, std::size_t i) {
    if (keep)
      if (const auto it = keep->find({id, key}); it != keep->end() && i < it->second.size() && it->second[i] != kNoItem)
        return it->second[i];
    return m_nextId++;
  };
  for (const FieldDescription& f : d.fields) {
    if (!f.item) continue;
    if (f.type == FieldType::List && f.count && f.element) {
      std::vector<ItemId>& ids = m_lists[{id, f.key}];
      const std::size_t n = f.count(object);
      for (std::size_t i = 0; i < n; ++i) {
        const ItemId child = idFor(f.key, i);
        ids.push_back(child);
        m_nodes[child] = {id, &f, f.item};
        m_order.push_back(child);
        assignChildIds(child, *f.item, f.element(object, i), keep);
      }
    } else if (f.type == FieldType::Object && f.object && id == kModelId) {
      // the model's own objects are items; an item's nested objects (a visual) are its fields
      const ItemId child = f.key == "simulation" ? kSimulationId : idFor(f.key, 0);
      m_lists[{id, f.key}] = {child};
      m_nodes[child] = {id, &f, f.item};
      m_order.push_back(child);
      assignChildIds(child, *f.item, f.object(object), keep);
    }
  }
}

std::vector<ItemId> ModelDocument::items() const { return m_order; }

ItemId ModelDocument::parentOf(ItemId id) const {
  const Node* n = node(id);
  return n ? n->parent : kNoItem;
}

const ModelDocument::Node* ModelDocument::node(ItemId id) const {
  const auto it = m_nodes.find(id);
  return it == m_nodes.end() ? nullptr : &it->second;
}

std::size_t ModelDocument::indexOf(ItemId id, const Node& n) const {
  const std::vector<ItemId>& ids = m_lists.at({n.parent, n.field->key});
  return static_cast<std::size_t>(std::find(ids.begin(), ids.end(), id) - ids.begin());
}

void* ModelDocument::itemPointer(ModelSpec& model, ItemId id) const {
  const Node* n = node(id);
  if (!n) return nullptr;
  if (!n->field) return &model;
  void* holder = itemPointer(model, n->parent);
  if (!holder) return nullptr;
  return n->field->type == FieldType::List ? n->field->element(holder, indexOf(id, *n)) : n->field->object(holder);
}

const void* ModelDocument::itemPointer(const ModelSpec& model, ItemId id) const {
  // the accessors take non-const pointers; nothing is written through this one
  return itemPointer(const_cast<ModelSpec&>(model), id);
}

const ItemDescription* ModelDocument::description(ItemId id) const {
  const Node* n = node(id);
  return n ? n->item : nullptr;
}

std::string ModelDocument::itemPath(ItemId id) const {
  const Node* n = node(id);
  if (!n || !n->field) return {};
  std::string path = itemPath(n->parent);
  if (!path.empty()) path += '.';
  path += n->field->key;
  if (n->field->type == FieldType::List) path += "[" + std::to_string(indexOf(id, *n)) + "]";
  return path;
}

std::string ModelDocument::itemName(ItemId id) const {
  const FieldValue v = value(id, "name");
  const auto* s = std::get_if<std::string>(&v);
  return s ? *s : std::string();
}

QString ModelDocument::itemLabel(ItemId id) const {
  const ItemDescription* d = description(id);
  if (!d) return {};
  const std::string name = itemName(id);
  if (id == kModelId) return tr("model");
  if (name.empty()) return QString::fromStdString(d->label).toLower();
  QString label = QString::fromStdString(d->label).toLower() + " '" + QString::fromStdString(name) + "'";
  // a marker's name is unique on its body only: say which body
  const ItemId parent = parentOf(id);
  if (parent != kModelId && parent != kNoItem) {
    const std::string holder = itemName(parent);
    label += tr(" on %1").arg(holder.empty() ? QString::fromStdString(description(parent)->label).toLower()
                                             : QString::fromStdString(holder));
  }
  return label;
}

ItemId ModelDocument::itemAtPath(const std::string& path) const {
  // the longest item path that starts `path` and ends at a field or word boundary
  ItemId best = kNoItem;
  std::size_t bestLength = 0;
  for (ItemId id : m_order) {
    const std::string p = itemPath(id);
    if (p.empty() || p.size() <= bestLength) continue;
    if (path.compare(0, p.size(), p) == 0 && (path.size() == p.size() || path[p.size()] == '.' || path[p.size()] == ' ')) {
      best = id;
      bestLength = p.size();
    }
  }
  return best;
}

ItemId ModelDocument::findItem(const std::string& listKey, const std::string& name) const {
  const auto it = m_lists.find({kModelId, listKey});
  if (it == m_lists.end()) return kNoItem;
  for (ItemId id : it->second)
    if (itemName(id) == name) return id;
  return kNoItem;
}

ModelDocument::Target ModelDocument::target(ModelSpec& model, ItemId id, const std::string& key) const {
  // "visual.file": a field of a nested object, reached through the object's field
  const ItemDescription* d = description(id);
  void* object = itemPointer(model, id);
  if (!d || !object) return {};
  std::string rest = key;
  for (std::size_t dot; (dot = rest.find('.')) != std::string::npos;) {
    const FieldDescription* outer = d->field(rest.substr(0, dot));
    if (!outer || outer->type != FieldType::Object || !outer->object || !outer->item) return {};
    object = outer->object(object);
    d = outer->item;
    rest = rest.substr(dot + 1);
  }
  // a key may be described more than once, for different kinds of the item: take the one that applies
  const FieldDescription* first = nullptr;
  for (const FieldDescription& f : d->fields) {
    if (f.key != rest) continue;
    if (d->applies(f, object)) return {&f, d, object};
    if (!first) first = &f;
  }
  return {first, d, object};
}

ModelDocument::Target ModelDocument::target(ItemId id, const std::string& key) const {
  // the accessors take non-const pointers; nothing is written through this one
  return target(const_cast<ModelSpec&>(m_model), id, key);
}

bool ModelDocument::applies(ItemId id, const std::string& key) const {
  const Target t = target(id, key);
  return t.field && t.owner->applies(*t.field, t.object);
}

bool ModelDocument::applies(ItemId id, const FieldDescription& field) const {
  const ItemDescription* d = description(id);
  return d && d->applies(field, itemPointer(m_model, id));
}

FieldValue ModelDocument::value(ItemId id, const std::string& key) const {
  const Target t = target(id, key);
  if (!t.field || !t.field->get) return {};
  return t.field->get(t.object);
}

std::vector<std::string> ModelDocument::options(ItemId id, const std::string& key) const {
  const Target t = target(id, key);
  return t.field && t.field->options ? t.field->options(t.object) : std::vector<std::string>{};
}

bool ModelDocument::setField(ItemId id, const std::string& key, const FieldValue& v, QString& error) {
  const ItemDescription* d = description(id);
  if (!d) {
    error = tr("no such item");
    return false;
  }
  const Target t = target(id, key);
  if (!t.field || !t.field->set || !t.field->get) {
    error = tr("%1 has no field '%2' that can be edited").arg(itemLabel(id), QString::fromStdString(key));
    return false;
  }
  const FieldValue before = t.field->get(t.object);
  if (sameFieldValue(before, v)) return true;
  ModelSpec trial = m_model;
  t.field->set(target(trial, id, key).object, v);
  std::vector<std::pair<ItemId, std::string>> changed{{id, key}};
  const auto* oldName = std::get_if<std::string>(&before);
  const auto* newName = std::get_if<std::string>(&v);
  if (key == "name" && oldName && newName && !d->nameScope.empty())
    renameReferences(trial, id, *newName, changed);
  // a flexible body's file is its data: the new file is read now (relative to the model file,
  // as the loader does), so the body drawn and run is the one named; unreadable is refused
  const bool newData = key == "file" && d->kind == "flexible_body";
  if (newData && !loadData(trial, id, error)) return false;
  // the same check as the JSON loader's: validate the edited model and refuse an edit that adds
  // an error, with validation's message (the one at this field, if there is one)
  const std::string fieldPath = itemPath(id).empty() ? key : itemPath(id) + "." + key;
  const std::string problem = newProblem(m_model, trial, fieldPath, m_draft == kNoItem ? "" : itemPath(m_draft));
  if (!problem.empty()) {
    error = QString::fromStdString(problem);
    return false;
  }
  if (newData)  // the whole model, so that undo brings the old data back with the old name
    m_undo.push(new ModelChangeCommand(*this, tr("Edit %1 file").arg(itemLabel(id)), m_model, std::move(trial),
                                       std::move(changed)));
  else if (changed.size() == 1)
    m_undo.push(new SetFieldCommand(*this, id, key, before, v));
  else {
    // the text before the command takes `changed` over (argument order is unspecified)
    const std::size_t references = changed.size() - 1;
    const QString text = tr("Rename %1 to '%2' (and %3 %4)")
                             .arg(itemLabel(id), QString::fromStdString(*newName))
                             .arg(references)
                             .arg(references == 1 ? tr("reference") : tr("references"));
    m_undo.push(new ModelChangeCommand(*this, text, m_model, std::move(trial), std::move(changed)));
  }
  return true;
}

bool ModelDocument::loadData(ModelSpec& trial, ItemId id, QString& error) const {
  auto* body = static_cast<FlexibleBodySpec*>(itemPointer(trial, id));
  body->data = nullptr;
  if (body->file.empty()) return true;
  const QString file = QString::fromStdString(body->file);
  const QString path = QFileInfo(file).isRelative() && !m_path.isEmpty() ? QFileInfo(m_path).dir().filePath(file) : file;
  auto data = std::make_shared<fe::ReducedBody>();
  std::string why;
  if (!io::loadReducedBody(path.toStdString(), *data, &why)) {
    error = QString::fromStdString(itemPath(id) + ".file: " + (why.empty() ? "cannot be read" : why));
    return false;
  }
  body->data = std::move(data);
  return true;
}

bool ModelDocument::setFields(ItemId id, const std::vector<std::pair<std::string, FieldValue>>& values,
                              const QString& text, QString& error) {
  if (!description(id)) {
    error = tr("no such item");
    return false;
  }
  ModelSpec trial = m_model;
  std::vector<std::pair<ItemId, std::string>> changed;
  for (const auto& [key, v] : values) {
    const Target t = target(trial, id, key);
    if (!t.field || !t.field->set || !t.field->get) {
      error = tr("%1 has no field '%2' that can be edited").arg(itemLabel(id), QString::fromStdString(key));
      return false;
    }
    if (sameFieldValue(t.field->get(t.object), v)) continue;
    t.field->set(t.object, v);
    changed.emplace_back(id, key);
    if (key == "file" && description(id)->kind == "flexible_body" && !loadData(trial, id, error)) return false;
  }
  if (changed.empty()) return true;
  const std::string problem = newProblem(m_model, trial, itemPath(id), m_draft == kNoItem ? "" : itemPath(m_draft));
  if (!problem.empty()) {
    error = QString::fromStdString(problem);
    return false;
  }
  m_undo.push(new ModelChangeCommand(*this, text, m_model, std::move(trial), std::move(changed)));
  return true;
}

void ModelDocument::renameReferences(ModelSpec& trial, ItemId renamed, const std::string& to,
                                     std::vector<std::pair<ItemId, std::string>>& changed) const {
  // every reference that names the item (found in the model before the rename) follows the new name
  for (ItemId other : m_order)
    for (const FieldDescription* f : referencesTo(other, renamed)) {
      f->set(itemPointer(trial, other), to);
      changed.emplace_back(other, f->key);
    }
}

std::string ModelDocument::holderName(ItemId id) const {
  const ItemId holder = parentOf(id);
  if (holder == kModelId || holder == kNoItem) return {};
  const std::string name = itemName(holder);
  return name.empty() ? std::string(kGroundName) : name;
}

std::vector<const FieldDescription*> ModelDocument::referencesTo(ItemId from, ItemId to) const {
  // a reference to the item's kind (or to its name scope: "body" names rigid and virtual bodies
  // alike) that holds its name; a marker is named together with its body (marker1 with body1),
  // so the body field must name the marker's own. References inside nested objects are not
  // visited (none names an item today).
  std::vector<const FieldDescription*> out;
  const ItemDescription* d = description(from);
  const ItemDescription* target = description(to);
  if (!d || !target || target->nameScope.empty() || from == to) return out;
  const std::string name = itemName(to);
  const void* item = itemPointer(m_model, from);
  for (const FieldDescription& f : d->fields) {
    if (f.type != FieldType::Reference || !f.get || !f.set || !d->applies(f, item)) continue;
    if (!io::refersToKind(f.refersTo, *target)) continue;
    const FieldValue value = f.get(item);
    const auto* named = std::get_if<std::string>(&value);
    if (!named || *named != name) continue;
    if (!f.bodyKey.empty()) {
      const FieldDescription* bodyField = d->field(f.bodyKey);
      const FieldValue body = bodyField && bodyField->get ? bodyField->get(item) : FieldValue{};
      const auto* bodyName = std::get_if<std::string>(&body);
      if (!bodyName || *bodyName != holderName(to)) continue;
    }
    out.push_back(&f);
  }
  return out;
}

const void* ModelDocument::itemData(ItemId id) const { return itemPointer(m_model, id); }

ItemId ModelDocument::addItem(ItemId holder, const std::string& listKey, const void* element, const QString& text,
                              QString& error, int index, bool draft) {
  const ItemDescription* d = description(holder);
  const FieldDescription* list = d ? d->field(listKey) : nullptr;
  if (!list || list->type != FieldType::List || !list->insert) {
    error = tr("%1 has no list '%2'").arg(itemLabel(holder), QString::fromStdString(listKey));
    return kNoItem;
  }
  ModelSpec trial = m_model;
  void* holderData = itemPointer(trial, holder);
  const std::size_t n = list->count(holderData);
  const std::size_t at = index < 0 || std::size_t(index) > n ? n : std::size_t(index);
  list->insert(holderData, at, element);
  if (!draft) {
    const std::string path = itemPath(holder);
    const std::string problem =
        newProblem(m_model, trial, (path.empty() ? "" : path + ".") + listKey + "[" + std::to_string(at) + "]");
    if (!problem.empty()) {
      error = QString::fromStdString(problem);
      return kNoItem;
    }
  }
  Lists lists = m_lists;
  const ItemId id = m_nextId++;
  std::vector<ItemId>& ids = lists[{holder, listKey}];
  ids.insert(ids.begin() + std::ptrdiff_t(at), id);
  m_undo.push(new StructureCommand(*this, text, std::move(trial), std::move(lists), id));
  if (draft) m_draft = id;
  return id;
}

ItemId ModelDocument::duplicateItem(ItemId id, QString& error) {
  const Node* n = node(id);
  if (!n || !n->field || n->field->type != FieldType::List) {
    error = tr("%1 cannot be duplicated").arg(itemLabel(id));
    return kNoItem;
  }
  ModelSpec scratch = m_model;
  void* copy = itemPointer(scratch, id);
  const std::string name = itemName(id);
  if (const FieldDescription* nameField = n->item->field("name"); nameField && nameField->set && !name.empty())
    nameField->set(copy, io::freeName(usedNames(n->parent, *n->field), name, n->item->kind));
  return addItem(n->parent, n->field->key, copy, tr("Duplicate %1").arg(itemLabel(id)), error,
                 int(indexOf(id, *n)) + 1);
}

QString ModelDocument::copyText(const std::vector<ItemId>& ids, QString& error) const {
  std::vector<std::string> paths;
  for (ItemId id : ids) paths.push_back(itemPath(id));
  std::string why;
  const std::string dir = m_path.isEmpty() ? std::string() : QFileInfo(m_path).absolutePath().toStdString();
  const std::string text = io::copyItems(m_model, paths, dir, &why);
  if (text.empty()) error = QString::fromStdString(why.empty() ? "nothing to copy" : why);
  return QString::fromStdString(text);
}

std::vector<ItemId> ModelDocument::pasteText(const QString& text, ItemId holder, QString& error) {
  ModelSpec merged;
  std::vector<std::string> added;
  std::string why;
  const std::string dir = m_path.isEmpty() ? std::string() : QFileInfo(m_path).absolutePath().toStdString();
  const std::string holderPath = holder == kNoItem ? std::string() : itemPath(holder);
  if (!io::pasteItems(m_model, text.toStdString(), dir, holderPath, merged, added, why)) {
    error = QString::fromStdString(why);
    return {};
  }
  // the pasted items come after the others in their lists: every item there keeps its id
  m_undo.push(new StructureCommand(*this, added.size() == 1 ? tr("Paste 1 item") : tr("Paste %1 items").arg(added.size()),
                                   std::move(merged), m_lists, kNoItem));
  std::vector<ItemId> ids;
  for (const std::string& path : added)
    if (const ItemId id = itemAtPath(path); id != kNoItem) ids.push_back(id);
  if (!ids.empty()) select(ids.front());
  return ids;
}

std::vector<ItemId> ModelDocument::dependents(ItemId id) const {
  const auto inside = [this](ItemId item, ItemId holder) {
    for (ItemId p = parentOf(item); p != kNoItem; p = parentOf(p))
      if (p == holder) return true;
    return false;
  };
  std::set<ItemId> gone{id};
  std::vector<ItemId> queue{id};
  while (!queue.empty()) {
    const ItemId x = queue.back();
    queue.pop_back();
    for (ItemId y : m_order)
      if (!gone.count(y) && (inside(y, x) || !referencesTo(y, x).empty())) {
        gone.insert(y);
        queue.push_back(y);
      }
  }
  std::vector<ItemId> out;
  for (ItemId y : m_order)
    if (y != id && gone.count(y)) out.push_back(y);
  return out;
}

bool ModelDocument::removeItems(const std::vector<ItemId>& ids, QString& error) {
  std::set<ItemId> gone;
  for (ItemId id : ids) {
    const Node* n = node(id);
    if (!n || !n->field || n->field->type != FieldType::List) {
      error = tr("%1 cannot be deleted").arg(n ? itemLabel(id) : tr("an unknown item"));
      return false;
    }
    gone.insert(id);
  }
  if (gone.empty()) return true;
  // with each item go the items it holds
  for (ItemId y : m_order)
    if (gone.count(parentOf(y))) gone.insert(y);
  // erased from the last in document order: the indices of those still to erase stay valid
  ModelSpec trial = m_model;
  for (auto it = m_order.rbegin(); it != m_order.rend(); ++it) {
    if (!gone.count(*it) || gone.count(parentOf(*it))) continue;
    const Node& n = *node(*it);
    n.field->erase(itemPointer(trial, n.parent), indexOf(*it, n));
  }
  const std::string problem = newProblem(m_model, trial, "");
  if (!problem.empty()) {
    error = tr("it is still used: %1").arg(QString::fromStdString(problem));
    return false;
  }
  Lists lists;
  for (const auto& [key, list] : m_lists) {
    if (gone.count(key.first)) continue;
    std::vector<ItemId>& kept = lists[key];
    for (ItemId y : list)
      if (!gone.count(y)) kept.push_back(y);
  }
  const ItemId only = ids.size() == 1 ? ids.front() : kNoItem;
  const QString text = only != kNoItem ? tr("Delete %1").arg(itemLabel(only)) : tr("Delete %1 items").arg(ids.size());
  const ItemId select = gone.count(m_selected) ? kNoItem : m_selected;
  m_undo.push(new StructureCommand(*this, text, std::move(trial), std::move(lists), select));
  return true;
}

std::string ModelDocument::freeName(ItemId holder, const std::string& listKey, const std::string& base) const {
  const ItemDescription* d = description(holder);
  const FieldDescription* list = d ? d->field(listKey) : nullptr;
  if (!list || !list->item) return base;
  return io::numberedName(usedNames(holder, *list), base);
}

std::set<std::string> ModelDocument::usedNames(ItemId holder, const FieldDescription& list) const {
  // names are unique in the model per name scope, markers within their list (as validate() says)
  std::set<std::string> used;
  if (io::holderScoped(*list.item)) {
    if (const auto it = m_lists.find({holder, list.key}); it != m_lists.end())
      for (ItemId y : it->second) used.insert(itemName(y));
  } else {
    for (ItemId y : m_order)
      if (description(y)->nameScope == list.item->nameScope) used.insert(itemName(y));
    used.insert(kGroundName);
  }
  return used;
}

void ModelDocument::replaceStructure(const ModelSpec& model, const Lists& lists, ItemId select) {
  m_model = model;
  assignIds(&lists);
  m_selected = m_nodes.count(select) ? select : kNoItem;
  emit itemsChanged();
  emit selectionChanged(m_selected);
}

std::string ModelDocument::newProblem(const ModelSpec& before, const ModelSpec& after, const std::string& fieldPath,
                                      const std::string& draftPath) {
  const auto inside = [](const std::string& e, const std::string& path) {
    return !path.empty() && e.compare(0, path.size(), path) == 0 && std::string(".[ :").find(e[path.size()]) != std::string::npos;
  };
  const auto errors = [](const ModelSpec& m) {
    std::vector<std::string> out;
    const Diagnostics d = validate(m);  // kept: its items() is read below
    for (const Diagnostic& item : d.items())
      if (item.severity == Severity::Error) out.push_back(item.where + ": " + item.message);
    return out;
  };
  const std::vector<std::string> old = errors(before);
  std::string first;
  for (const std::string& e : errors(after)) {
    if (std::find(old.begin(), old.end(), e) != old.end()) continue;
    if (inside(e, fieldPath)) return e;
    if (inside(e, draftPath)) continue;
    if (first.empty()) first = e;
  }
  return first;
}

void ModelDocument::replaceModel(const ModelSpec& model, const std::vector<std::pair<ItemId, std::string>>& changed) {
  m_model = model;
  for (const auto& [id, key] : changed) emit fieldChanged(id, QString::fromStdString(key));
}

void ModelDocument::apply(ItemId id, const std::string& key, const FieldValue& v) {
  const Target t = target(m_model, id, key);
  if (!t.field || !t.field->set) return;
  t.field->set(t.object, v);
  emit fieldChanged(id, QString::fromStdString(key));
}

void ModelDocument::select(ItemId id) {
  if (id == m_selected) return;
  m_selected = id;
  emit selectionChanged(id);
}

}  // namespace flexim::ui
