#include "io/item_clipboard.h"

#include "core/model/description.h"
#include "io/editing_rules.h"
#include "io/json_reader.h"
#include "io/model_json.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>

namespace flexim::io {

namespace {

namespace fs = std::filesystem;

/// The name scope the ground's name is reserved in (as validate() reserves it): a reference to a
/// body may name the ground.
constexpr const char* kGroundScope = "body";

// ---- paths ------------------------------------------------------------------------------

struct Segment {
  std::string key;
  bool indexed = false;
  std::size_t index = 0;
};

bool parsePath(const std::string& path, std::vector<Segment>& out) {
  out.clear();
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('.', start);
    if (end == std::string::npos) end = path.size();
    const std::string part = path.substr(start, end - start);
    Segment s;
    const std::size_t open = part.find('[');
    s.key = part.substr(0, open);
    if (s.key.empty()) return false;
    if (open != std::string::npos) {
      if (part.back() != ']' || part.size() < open + 3) return false;
      const std::string digits = part.substr(open + 1, part.size() - open - 2);
      if (digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        return false;
      s.indexed = true;
      s.index = std::stoul(digits);
    }
    out.push_back(std::move(s));
    start = end + 1;
  }
  return !out.empty();
}

/// The List or Object field with key (lists and objects are described once per key).
const FieldDescription* holdingField(const ItemDescription& d, const std::string& key) {
  for (const FieldDescription& f : d.fields)
    if (f.key == key && f.item && ((f.type == FieldType::List && f.count && f.element) || (f.type == FieldType::Object && f.object)))
      return &f;
  return nullptr;
}

/// What a JSON path names in a model: an item in a list, or an object (the ground).
struct Place {
  const ItemDescription* item = nullptr;  ///< its description
  void* object = nullptr;
  const FieldDescription* list = nullptr;  ///< the list it is in (null: an object)
  bool topLevel = false;                   ///< in a list of the model itself
  std::vector<std::size_t> order;          ///< document order: (field position, index + 1) per level
};

/// The accessors take non-const pointers; callers with a const model write nothing through them.
bool resolve(ModelSpec& model, const std::string& path, Place& out) {
  std::vector<Segment> segments;
  if (!parsePath(path, segments)) return false;
  const ItemDescription* d = &modelDescription();
  void* object = &model;
  Place p;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const Segment& s = segments[i];
    const FieldDescription* f = holdingField(*d, s.key);
    if (!f || s.indexed != (f->type == FieldType::List)) return false;
    p.order.push_back(std::size_t(f - d->fields.data()));
    if (f->type == FieldType::List) {
      if (s.index >= f->count(object)) return false;
      object = f->element(object, s.index);
      p.order.push_back(s.index + 1);
      p.list = f;
    } else {
      object = f->object(object);
      p.order.push_back(0);
      p.list = nullptr;
    }
    d = f->item;
    p.topLevel = i == 0;
  }
  p.item = d;
  p.object = object;
  out = std::move(p);
  return true;
}

// ---- names ------------------------------------------------------------------------------

std::string nameOf(const ItemDescription& d, const void* item) {
  const FieldDescription* f = d.field("name");
  if (!f || !f->get) return {};
  const FieldValue v = f->get(item);
  const auto* s = std::get_if<std::string>(&v);
  return s ? *s : std::string();
}

std::string kindText(std::string kind) {
  std::replace(kind.begin(), kind.end(), '_', ' ');
  return kind;
}

/// An item of the target model that references may name: the items of the model's lists, and
/// the model's own holders (the ground).
struct TargetItem {
  const ItemDescription* d = nullptr;
  void* object = nullptr;
  std::string name, path;
};

std::vector<TargetItem> targetItems(ModelSpec& model) {
  std::vector<TargetItem> out;
  for (const FieldDescription& f : modelDescription().fields) {
    if (!f.item) continue;
    if (f.type == FieldType::List && f.count && f.element) {
      for (std::size_t i = 0; i < f.count(&model); ++i) {
        void* item = f.element(&model, i);
        out.push_back({f.item, item, nameOf(*f.item, item), f.key + "[" + std::to_string(i) + "]"});
      }
    } else if (f.type == FieldType::Object && f.object) {
      const bool holds = std::any_of(f.item->fields.begin(), f.item->fields.end(),
                                     [](const FieldDescription& g) { return g.type == FieldType::List && g.item; });
      if (holds) out.push_back({f.item, f.object(&model), kGroundName, f.key});  // named as ModelDocument::holderName
    }
  }
  return out;
}

/// The names of the items held in the lists of holder (of description d) whose items are `of`.
std::set<std::string> heldNames(const ItemDescription& d, void* holder, const ItemDescription& of) {
  std::set<std::string> names;
  for (const FieldDescription& f : d.fields)
    if (f.type == FieldType::List && f.item == &of && f.count && f.element)
      for (std::size_t i = 0; i < f.count(holder); ++i) names.insert(nameOf(of, f.element(holder, i)));
  return names;
}

// ---- JSON items ----------------------------------------------------------------------------

/// Whether f applies to a JSON item of d (its condition holds): the discriminator's value, or its
/// default when the item leaves it out.
bool appliesJson(const ItemDescription& d, const FieldDescription& f, const Json& item) {
  if (!f.condition) return true;
  std::string value;
  if (const auto it = item.find(f.condition->key); it != item.end()) {
    if (!it->is_string()) return true;
    value = it->get<std::string>();
  } else {
    const FieldDescription* on = d.field(f.condition->key);
    if (!on || on->defaultText.empty()) return true;
    const Json def = Json::parse(on->defaultText, nullptr, false);
    if (!def.is_string()) return true;
    value = def.get<std::string>();
  }
  return std::find(f.condition->values.begin(), f.condition->values.end(), value) != f.condition->values.end();
}

std::string stringAt(const Json& item, const std::string& key) {
  const auto it = item.find(key);
  return it != item.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/// Calls visit(description, item) for a JSON item and every object and list item inside it.
template <class Visit>
void eachNested(const ItemDescription& d, Json& item, const Visit& visit) {
  if (!item.is_object()) return;
  visit(d, item);
  for (const FieldDescription& f : d.fields) {
    if (!f.item || f.inputOnly) continue;
    const auto it = item.find(f.key);
    if (it == item.end()) continue;
    if (f.type == FieldType::Object) eachNested(*f.item, *it, visit);
    if (f.type == FieldType::List && it->is_array())
      for (Json& e : *it) eachNested(*f.item, e, visit);
  }
}

/// Rewrites every file name (a field with file types) of a JSON item (and of its nested objects and items).
template <class Rewrite>
void rewriteFiles(const ItemDescription& d, Json& item, const Rewrite& rewrite) {
  eachNested(d, item, [&](const ItemDescription& nd, Json& j) {
    for (const FieldDescription& f : nd.fields) {
      if (f.type != FieldType::String || f.fileTypes.empty() || f.inputOnly) continue;
      const auto it = j.find(f.key);
      if (it == j.end() || !it->is_string() || it->get<std::string>().empty()) continue;
      *it = rewrite(it->get<std::string>());
    }
  });
}

/// The same for an item of the spec.
void absoluteFiles(const ItemDescription& d, void* item, const fs::path& base) {
  for (const FieldDescription& f : d.fields) {
    if (f.type == FieldType::String && !f.fileTypes.empty() && !f.inputOnly && f.get && f.set) {
      const FieldValue v = f.get(item);
      const auto* file = std::get_if<std::string>(&v);
      if (!file || file->empty() || fs::path(*file).is_absolute()) continue;
      f.set(item, (base / *file).lexically_normal().generic_string());
    } else if (f.type == FieldType::Object && f.item && f.object) {
      absoluteFiles(*f.item, f.object(item), base);
    } else if (f.type == FieldType::List && f.item && f.count && f.element) {
      for (std::size_t i = 0; i < f.count(item); ++i) absoluteFiles(*f.item, f.element(item, i), base);
    }
  }
}

// ---- pasting ----------------------------------------------------------------------------

/// One item of the clipboard text.
struct Pasted {
  const ItemDescription* d = nullptr;
  const FieldDescription* list = nullptr;  ///< its list (in the model, or in the holder when loose)
  bool loose = false;                      ///< without its holder: goes to the selected one
  Json item;
  std::string oldName, newName;
  std::string label() const { return kindText(d->kind) + (oldName.empty() ? "" : " '" + oldName + "'"); }
};

class Paster {
 public:
  Paster(ModelSpec& target, std::vector<Pasted>& pasted, const std::string& holderName,
         const TargetItem* holder)
      : m_pasted(pasted), m_holderName(holderName), m_holder(holder), m_items(targetItems(target)) {}

  /// Free names for clashing ones, per scope.
  void rename() {
    // model-wide scopes: the target's names and the ground's (as the editor's freeName has them)
    std::map<std::string, std::set<std::string>> used;
    const auto scope = [&used](const std::string& key) -> std::set<std::string>& {
      auto [it, added] = used.try_emplace(key);
      if (added) it->second.insert(kGroundName);
      return it->second;
    };
    std::set<std::string> looseUsed;  // the holder's names
    for (const TargetItem& t : m_items)
      if (!t.d->nameScope.empty() && !holderScoped(*t.d)) scope(t.d->nameScope).insert(t.name);
    if (m_holder)
      for (const Pasted& p : m_pasted)
        if (p.loose) looseUsed.merge(heldNames(*m_holder->d, m_holder->object, *p.d));
    // which clash: with the target, or with a pasted item before
    std::map<std::string, std::set<std::string>> seen;
    std::set<std::string> looseSeen;
    std::vector<bool> clash(m_pasted.size(), false);
    for (std::size_t i = 0; i < m_pasted.size(); ++i) {
      const Pasted& p = m_pasted[i];
      if (p.oldName.empty() || p.d->nameScope.empty()) continue;
      std::set<std::string>& names = p.loose ? looseUsed : scope(p.d->nameScope);
      std::set<std::string>& before = p.loose ? looseSeen : seen[p.d->nameScope];
      clash[i] = names.count(p.oldName) || !before.insert(p.oldName).second;
    }
    for (const Pasted& p : m_pasted)
      if (!p.oldName.empty() && !p.d->nameScope.empty()) (p.loose ? looseUsed : scope(p.d->nameScope)).insert(p.oldName);
    for (std::size_t i = 0; i < m_pasted.size(); ++i) {
      Pasted& p = m_pasted[i];
      p.newName = p.oldName;
      if (!clash[i]) continue;
      std::set<std::string>& names = p.loose ? looseUsed : scope(p.d->nameScope);
      p.newName = freeName(names, p.oldName, p.d->kind);
      names.insert(p.newName);
      p.item["name"] = p.newName;
    }
  }

  /// References follow the renames; those to items not pasted must name target items.
  void references(std::vector<std::string>& errors) {
    for (Pasted& p : m_pasted)
      eachNested(*p.d, p.item, [&](const ItemDescription& d, Json& j) { resolveItem(p, d, j, errors); });
  }

 private:
  /// A pasted (not loose) item of a kind `refersTo` names, called name before the paste.
  const Pasted* pastedItem(const std::string& refersTo, const std::string& name) const {
    for (const Pasted& p : m_pasted)
      if (!p.loose && p.oldName == name && refersToKind(refersTo, *p.d)) return &p;
    return nullptr;
  }

  const TargetItem* targetItem(const std::string& refersTo, const std::string& name) const {
    for (const TargetItem& t : m_items)
      if (t.name == name && (refersToKind(refersTo, *t.d) || (t.name == kGroundName && t.d->nameScope.empty() &&
                                                                refersTo == kGroundScope)))
        return &t;
    return nullptr;
  }

  void resolveItem(const Pasted& p, const ItemDescription& d, Json& j, std::vector<std::string>& errors) {
    const Json copied = j;
    std::set<std::string> missingBodies;
    // first the references that name an item by itself, then markers, named with their body
    for (int pass = 0; pass < 2; ++pass)
      for (const FieldDescription& f : d.fields) {
        if (f.type != FieldType::Reference || f.inputOnly || f.bodyKey.empty() != (pass == 0)) continue;
        if (!appliesJson(d, f, copied)) continue;
        const std::string name = stringAt(copied, f.key);
        if (name.empty()) continue;  // the loader says what is missing
        if (pass == 0) {
          if (const Pasted* q = pastedItem(f.refersTo, name)) {
            j[f.key] = q->newName;
          } else if (!targetItem(f.refersTo, name)) {
            errors.push_back(p.label() + ": " + kindText(f.refersTo) + " '" + name + "' is not in this model; copy it too");
            missingBodies.insert(f.key);
          }
          continue;
        }
        // a marker: on a pasted body (copied with it, never renamed), or on the target body of
        // that name (the holder of loose markers: follow their renames)
        if (missingBodies.count(f.bodyKey)) continue;
        const std::string body = stringAt(copied, f.bodyKey);
        const FieldDescription* bodyField = nullptr;
        for (const FieldDescription& g : d.fields)
          if (g.key == f.bodyKey && g.type == FieldType::Reference && appliesJson(d, g, copied)) bodyField = &g;
        const std::string bodyKind = bodyField ? bodyField->refersTo : std::string(kGroundScope);
        if (body.empty() || pastedItem(bodyKind, body)) continue;
        if (body == m_holderName) {
          const Pasted* loose = nullptr;
          for (const Pasted& q : m_pasted)
            if (q.loose && q.oldName == name && refersToKind(f.refersTo, *q.d)) loose = &q;
          if (loose) {
            j[f.key] = loose->newName;
            continue;
          }
        }
        const TargetItem* holder = targetItem(bodyKind, body);
        const ItemDescription* marker = findItemDescription(f.refersTo);
        if (!holder || !marker) continue;  // the loader says why
        if (!heldNames(*holder->d, holder->object, *marker).count(name))
          errors.push_back(p.label() + ": " + kindText(f.refersTo) + " '" + name + "' on " + kindText(bodyKind) + " '" +
                           body + "' is not in this model; copy it too");
      }
  }

  std::vector<Pasted>& m_pasted;
  std::string m_holderName;
  const TargetItem* m_holder;
  std::vector<TargetItem> m_items;
};

std::string joinLines(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += (s.empty() ? "" : "\n") + l;
  return s;
}

}  // namespace

std::string copyItems(const ModelSpec& model, const std::vector<std::string>& paths, const std::string& modelDir,
                      std::string* error) {
  const auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return std::string();
  };
  try {
    ModelSpec& source = const_cast<ModelSpec&>(model);  // read only
    std::vector<std::pair<std::string, Place>> places;
    for (const std::string& path : paths) {
      Place p;
      if (!resolve(source, path, p) || !p.list || !p.list->insert)
        return fail("'" + path + "' is not an item that can be copied");
      places.emplace_back(path, std::move(p));
    }
    if (places.empty()) return fail("nothing to copy");
    // document order; an item inside another copied one (or copied twice) goes with it
    std::sort(places.begin(), places.end(), [](const auto& a, const auto& b) { return a.second.order < b.second.order; });
    std::vector<std::pair<std::string, Place>> kept;
    for (auto& entry : places) {
      const bool inside = std::any_of(kept.begin(), kept.end(), [&](const auto& k) {
        const std::string& outer = k.first;
        return entry.first == outer ||
               (entry.first.compare(0, outer.size(), outer) == 0 && entry.first.size() > outer.size() &&
                entry.first[outer.size()] == '.');
      });
      if (!inside) kept.push_back(std::move(entry));
    }

    ModelSpec part;
    const ItemDescription& md = modelDescription();
    std::set<const FieldDescription*> used;  // the model's fields that hold copied items
    for (const auto& [path, p] : kept) {
      if (p.topLevel) {
        p.list->insert(&part, p.list->count(&part), p.object);
        used.insert(p.list);
        continue;
      }
      // without its holder: into the model's own holder of such items (the ground's markers)
      const FieldDescription* into = nullptr;
      const FieldDescription* holderField = nullptr;
      for (const FieldDescription& f : md.fields) {
        if (f.type != FieldType::Object || !f.item || !f.object || into) continue;
        for (const FieldDescription& g : f.item->fields)
          if (g.type == FieldType::List && g.item == p.item && g.insert && g.count) {
            into = &g;
            holderField = &f;
            break;
          }
      }
      if (!into) return fail("'" + path + "' cannot be copied without its holder");
      void* holder = holderField->object(&part);
      into->insert(holder, into->count(holder), p.object);
      used.insert(holderField);
    }
    const fs::path base = modelDir.empty() ? fs::current_path() : fs::absolute(fs::path(modelDir));
    absoluteFiles(md, &part, base);

    // the lists of the copied items only
    OrderedJson j = OrderedJson::parse(saveModelString(part));
    OrderedJson out = OrderedJson::object();
    out["schema_version"] = j["schema_version"];
    for (const FieldDescription& f : md.fields)
      if (used.count(&f) && j.contains(f.key)) out[f.key] = j[f.key];
    return formatJson(out);
  } catch (const std::exception& e) {
    return fail(std::string("cannot copy: ") + e.what());
  }
}

bool pasteItems(const ModelSpec& target, const std::string& text, const std::string& targetDir,
                const std::string& holder, ModelSpec& merged, std::vector<std::string>& added, std::string& error) {
  try {
    Diagnostics diag;
    Json root;
    if (!parseJson(text, "clipboard", root, diag)) {
      error = diag.str();
      return false;
    }
    if (!root.is_object()) {
      error = "clipboard: expected a JSON object (a part of a model file)";
      return false;
    }
    if (const auto v = root.find("schema_version");
        v != root.end() && v->is_number() && v->get<double>() > kModelSchemaVersion) {
      error = "clipboard: schema_version " + v->dump() + " is newer than this Flexim supports (" +
              std::to_string(kModelSchemaVersion) + ")";
      return false;
    }

    // the items of the text: those of the model's lists, and those of its holders (loose)
    const ItemDescription& md = modelDescription();
    std::vector<Pasted> pasted;
    std::vector<std::string> errors;
    const auto take = [&](const Json& list, const FieldDescription& f, bool loose, const std::string& where) {
      if (!list.is_array()) {
        errors.push_back("clipboard: " + where + ": expected an array");
        return;
      }
      for (std::size_t i = 0; i < list.size(); ++i) {
        if (!list[i].is_object()) {
          errors.push_back("clipboard: " + where + "[" + std::to_string(i) + "]: expected an object");
          continue;
        }
        Pasted p;
        p.d = f.item;
        p.list = &f;
        p.loose = loose;
        p.item = list[i];
        if (f.item->field("name")) p.oldName = stringAt(p.item, "name");
        pasted.push_back(std::move(p));
      }
    };
    for (const FieldDescription& f : md.fields) {
      const auto it = root.find(f.key);
      if (it == root.end() || !f.item) continue;
      if (f.type == FieldType::List) {
        take(*it, f, false, f.key);
      } else if (f.type == FieldType::Object && it->is_object()) {
        for (const FieldDescription& g : f.item->fields)
          if (g.type == FieldType::List && g.item)
            if (const auto inner = it->find(g.key); inner != it->end()) take(*inner, g, true, f.key + "." + g.key);
      }
    }
    if (!errors.empty()) {
      error = joinLines(errors);
      return false;
    }
    if (pasted.empty()) {
      error = "the clipboard holds no model items";
      return false;
    }

    // the holder of loose items: an item (or the ground) of the target with a list of them
    ModelSpec& t = const_cast<ModelSpec&>(target);  // read only
    const bool anyLoose = std::any_of(pasted.begin(), pasted.end(), [](const Pasted& p) { return p.loose; });
    TargetItem holderItem;
    std::string holderName;
    std::map<const ItemDescription*, const FieldDescription*> holderLists;  // item description -> list in holder
    if (anyLoose) {
      Place h;
      if (holder.empty()) {
        error = "select a body (or the ground) to paste markers onto";
        return false;
      }
      if (!resolve(t, holder, h)) {
        error = "'" + holder + "' is not in this model";
        return false;
      }
      holderItem = {h.item, h.object, nameOf(*h.item, h.object), holder};
      if (holderItem.name.empty()) holderItem.name = kGroundName;  // as ModelDocument::holderName
      holderName = holderItem.name;
      for (Pasted& p : pasted) {
        if (!p.loose) continue;
        const FieldDescription* list = nullptr;
        for (const FieldDescription& g : h.item->fields)
          if (g.type == FieldType::List && g.item == p.d) list = &g;
        if (!list) {
          error = kindText(h.item->kind) + " '" + holderName + "' cannot hold a " + kindText(p.d->kind);
          return false;
        }
        p.list = list;
      }
    }

    Paster paster(t, pasted, holderName, anyLoose ? &holderItem : nullptr);
    paster.rename();
    paster.references(errors);
    if (!errors.empty()) {
      error = joinLines(errors);
      return false;
    }

    // file paths relative to the target's folder
    if (!targetDir.empty()) {
      const fs::path base = fs::absolute(fs::path(targetDir)).lexically_normal();
      for (Pasted& p : pasted)
        rewriteFiles(*p.d, p.item, [&](const std::string& file) {
          const fs::path path(file);
          if (!path.is_absolute()) return file;
          const fs::path relative = path.lexically_normal().lexically_relative(base);
          return relative.empty() ? file : relative.generic_string();
        });
    }

    // the merged document, read back by the loader
    Json doc = Json::parse(saveModelString(target));
    std::vector<std::string> paths;
    std::vector<Segment> holderPath;
    if (anyLoose) parsePath(holder, holderPath);
    for (Pasted& p : pasted) {
      Json* list = nullptr;
      std::string prefix;
      if (p.loose) {
        Json* at = &doc;
        for (const Segment& s : holderPath) {
          at = &(*at)[s.key];
          if (s.indexed) at = &(*at)[s.index];
        }
        list = &(*at)[p.list->key];
        prefix = holder + ".";
      } else {
        list = &doc[p.list->key];
      }
      if (list->is_null()) *list = Json::array();
      paths.push_back(prefix + p.list->key + "[" + std::to_string(list->size()) + "]");
      list->push_back(std::move(p.item));
    }
    Diagnostics loaded;
    ModelSpec result;
    if (!loadModelString(doc.dump(), result, loaded, "pasted model", targetDir)) {
      for (const Diagnostic& d : loaded.items())
        if (d.severity == Severity::Error) errors.push_back(d.where.empty() ? d.message : d.where + ": " + d.message);
      error = joinLines(errors);
      return false;
    }
    merged = std::move(result);
    added = std::move(paths);
    return true;
  } catch (const std::exception& e) {
    error = std::string("cannot paste: ") + e.what();
    return false;
  }
}

}  // namespace flexim::io
