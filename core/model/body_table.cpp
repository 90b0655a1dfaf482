#include "core/model/body_table.h"

#include "core/base/diagnostics.h"
#include "core/model/description.h"

#include <algorithm>
#include <charconv>

namespace flexim {

const std::vector<BodyKindDescription>& bodyKinds() {
  // the kinds are described with their items; their order is that of the model's lists
  static const std::vector<BodyKindDescription> kinds = [] {
    std::vector<BodyKindDescription> out;
    for (const FieldDescription& list : modelDescription().fields)
      if (list.type == FieldType::List && list.item && list.item->body) out.push_back(*list.item->body);
    return out;
  }();
  return kinds;
}

const BodyKindDescription* findBodyKind(std::string_view listKey) {
  for (const BodyKindDescription& kind : bodyKinds())
    if (kind.listKey == listKey) return &kind;
  return nullptr;
}

BodyTable::BodyTable(const ModelSpec& model) {
  // each kind's list through the model's description: the table needs no case per kind
  auto& document = const_cast<ModelSpec&>(model);  // element() is not const; nothing is changed
  for (const BodyKindDescription& kind : bodyKinds()) {
    const FieldDescription* list = modelDescription().field(kind.listKey);
    if (!list || !list->item) throw FleximError("internal: body kind '" + kind.key + "' has no list in the model");
    const FieldDescription* nameField = list->item->field("name");
    const std::size_t n = list->count(&model);
    m_ranges.push_back({&kind, size(), static_cast<int>(n)});
    for (std::size_t i = 0; i < n; ++i) {
      BodyEntry e;
      e.path = kind.listKey + "[" + std::to_string(i) + "]";
      e.name = std::get<std::string>(nameField->get(list->element(&document, i)));
      e.kind = &kind;
      e.index = static_cast<int>(i);
      e.pose = size();
      if (kind.deformable) {
        e.deformable = static_cast<int>(m_deformable.size());
        m_deformable.push_back(e.pose);
      }
      m_byName.emplace(e.name, e.pose);
      m_entries.push_back(std::move(e));
    }
  }
}

int BodyTable::poseOf(std::string_view listKey, std::size_t index) const {
  for (const Range& r : m_ranges)
    if (r.kind->listKey == listKey) return index < std::size_t(r.count) ? r.first + static_cast<int>(index) : -1;
  return -1;
}

int BodyTable::poseOf(std::string_view path) const {
  const std::size_t open = path.find('[');
  if (open == std::string_view::npos) return -1;
  const std::size_t close = path.find(']', open);
  if (close == std::string_view::npos || close == open + 1) return -1;
  if (close + 1 < path.size() && path[close + 1] != '.') return -1;  // "bodies[0]x"
  std::size_t index = 0;
  const char* first = path.data() + open + 1;
  const char* last = path.data() + close;
  const auto [end, error] = std::from_chars(first, last, index);
  if (error != std::errc() || end != last) return -1;
  return poseOf(path.substr(0, open), index);
}

int BodyTable::poseNamed(std::string_view name) const {
  if (name == kGroundName) return -1;
  const auto it = m_byName.find(std::string(name));
  return it == m_byName.end() ? -2 : it->second;
}

const MarkerSpec* BodyTable::marker(const ModelSpec& model, std::string_view body, std::string_view marker) const {
  const auto named = [&](const MarkerSpec& m) { return m.name == marker; };
  const int pose = poseNamed(body);
  if (pose == -1) {
    const auto it = std::find_if(model.ground_markers.begin(), model.ground_markers.end(), named);
    return it == model.ground_markers.end() ? nullptr : &*it;
  }
  if (pose < 0) return nullptr;
  for (const MarkerSpec* m : markers(model, pose))
    if (named(*m)) return m;
  return nullptr;
}

std::vector<const MarkerSpec*> BodyTable::markers(const ModelSpec& model, int pose) const {
  std::vector<const MarkerSpec*> out;
  const BodyEntry& e = (*this)[pose];
  if (!e.kind->carriesMarkers) return out;
  // the body's markers list through its description, as the table reads the body lists
  const FieldDescription* list = modelDescription().field(e.kind->listKey);
  void* item = list->element(const_cast<ModelSpec*>(&model), std::size_t(e.index));
  const FieldDescription* markers = list->item->field("markers");
  if (!markers) return out;
  for (std::size_t i = 0; i < markers->count(item); ++i) out.push_back(static_cast<const MarkerSpec*>(markers->element(item, i)));
  return out;
}

BodyPose BodyTable::startPose(const ModelSpec& model, int pose) const {
  const BodyEntry& e = (*this)[pose];
  const FieldDescription* list = modelDescription().field(e.kind->listKey);
  const void* item = list->element(const_cast<ModelSpec*>(&model), std::size_t(e.index));
  if (e.kind->startPose) return e.kind->startPose(model, item);
  BodyPose start;
  if (const FieldDescription* f = list->item->field("position"); f && f->type == FieldType::Vec3)
    start.position = std::get<Vec3>(f->get(item));
  if (const FieldDescription* f = list->item->field("orientation")) {
    const FieldValue value = f->get(item);
    if (std::holds_alternative<Quat>(value)) start.orientation = std::get<Quat>(value).normalized();
  }
  return start;
}

bool BodyTable::operator==(const BodyTable& other) const {
  return std::equal(m_entries.begin(), m_entries.end(), other.m_entries.begin(), other.m_entries.end(),
                    [](const BodyEntry& a, const BodyEntry& b) {
                      return a.path == b.path && a.name == b.name && a.kind == b.kind;
                    });
}

}  // namespace flexim
