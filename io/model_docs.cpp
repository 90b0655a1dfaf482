#include "io/model_docs.h"

#include "core/model/description.h"
#include "core/model/sensor_quantities.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace flexim::io {

namespace {

const std::string kEnd = "<!-- end generated -->";

std::string begin(const std::string& section) { return "<!-- generated:" + section + " -->"; }

std::string code(const std::string& s) { return "`" + s + "`"; }

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string lowerFirst(std::string s) {
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z') s[0] = static_cast<char>(s[0] - 'A' + 'a');
  return s;
}

/// "> 0", "≥ 1", "in [0, 1]" ("" without limits).
std::string limitText(const FieldDescription& f) {
  const Limit &lo = f.minimum, &hi = f.maximum;
  if (lo.set && hi.set)
    return "in " + std::string(lo.exclusive ? "(" : "[") + number(lo.value) + ", " + number(hi.value) +
           (hi.exclusive ? ")" : "]");
  if (lo.set) return (lo.exclusive ? "> " : "≥ ") + number(lo.value);
  if (hi.set) return (hi.exclusive ? "< " : "≤ ") + number(hi.value);
  return {};
}

std::string typeText(const FieldDescription& f) {
  std::string t;
  if (f.type == FieldType::List) {
    std::string items = f.item->listKey;
    std::replace(items.begin(), items.end(), '_', ' ');
    t = "array of " + items;
  } else if (f.type == FieldType::Object) {
    // an object named after its own kind (ground, damping, simulation) is just an object
    t = f.item->kind == f.key ? "object" : lowerFirst(f.item->label);
  } else if (f.type == FieldType::Enum) {
    for (const auto& c : f.choices) t += (t.empty() ? "" : " \\| ") + code("\"" + c + "\"");
  } else {
    t = f.typeName();
  }
  if (!f.unit.empty()) t += " [" + unitIn(f.unit, "f") + "]";
  if (f.required) t += f.alternative.empty() ? ", **required**" : ", **required** (or " + code(f.alternative) + ")";
  return t;
}

std::string fieldRow(const FieldDescription& f, bool withCondition) {
  std::string row = "| " + code(f.key) + " | ";
  if (withCondition) {
    std::string values;
    if (f.condition)
      for (const auto& v : f.condition->values) values += (values.empty() ? "" : ", ") + code(v);
    row += values + " | ";
  }
  const std::string deflt = f.required || f.defaultText.empty() ? "—" : code(f.defaultText);
  std::string meaning = f.help;
  if (const std::string limits = limitText(f); !limits.empty()) meaning += "; " + limits;
  return row + typeText(f) + " | " + deflt + " | " + meaning + " |\n";
}

std::string itemTable(const ItemDescription& d) {
  bool conditional = false;
  for (const auto& f : d.fields) conditional = conditional || f.condition.has_value();
  std::string condKey;
  for (const auto& f : d.fields)
    if (f.condition) condKey = f.condition->key;
  std::string out = conditional ? "| key | for `" + condKey + "` | type | default | meaning |\n|---|---|---|---|---|\n"
                                : "| key | type | default | meaning |\n|---|---|---|---|\n";
  for (const auto& f : d.fields) out += fieldRow(f, conditional);
  return out;
}

std::string jointKindsTable() {
  std::string out = "| `type` | rows | driven coordinates | constraint and free motion (marker axes) |\n|---|--:|---|---|\n";
  for (const auto& k : jointKinds()) {
    std::string driven = k.rotation && k.translation ? "rotation, translation"
                         : k.rotation               ? "rotation"
                         : k.translation            ? "translation"
                                                    : "—";
    out += "| " + code(k.key) + " | " + std::to_string(k.constraints) + " | " + driven + " | " + k.help + " |\n";
  }
  return out;
}

std::string forceKindsTable() {
  std::string out = "| `type` | acts | what it applies |\n|---|---|---|\n";
  for (const auto& k : forceKinds())
    out += "| " + code(k.key) + " | " + (k.twoEnds ? "between two markers" : "at one marker") + " | " + k.help + " |\n";
  return out;
}

std::string contactKindsTable() {
  std::string out = "| `type` | points | friction | geometry |\n|---|---|---|---|\n";
  for (const auto& k : contactKinds())
    out += "| " + code(k.key) + " | " + std::to_string(k.points) + " | " +
           (k.tangents == 2 ? "spatial (a cone)" : "planar (an interval)") + " | " + k.help + " |\n";
  return out;
}

std::string sensorQuantitiesTable() {
  std::string out = "| sensor type | quantity | components | unit | meaning |\n|---|---|---|---|---|\n";
  for (const auto& kind : sensorKinds())
    for (std::size_t i = 0; i < kind.quantities.size(); ++i) {
      const SensorQuantityInfo& q = kind.quantities[i];
      std::string components = q.componentsText ? q.componentsText : "";
      for (const char* c : q.components) components += (components.empty() ? "" : ", ") + std::string(c);
      out += "| " + (i == 0 ? code(kind.key) : std::string()) + " | " + code(q.name) + " | " + components + " | " +
             (q.unitText ? q.unitText : q.unit) + " | " + q.help + " |\n";
    }
  return out;
}

}  // namespace

std::vector<std::string> generatedSections() {
  std::vector<std::string> sections;
  for (const ItemDescription* d : itemDescriptions())
    if (d->kind != "ground") sections.push_back(d->kind);
  sections.push_back("joint_kinds");
  sections.push_back("force_kinds");
  sections.push_back("contact_kinds");
  sections.push_back("sensor_quantities");
  return sections;
}

std::string generatedTable(const std::string& section) {
  if (section == "joint_kinds") return jointKindsTable();
  if (section == "force_kinds") return forceKindsTable();
  if (section == "contact_kinds") return contactKindsTable();
  if (section == "sensor_quantities") return sensorQuantitiesTable();
  const ItemDescription* d = findItemDescription(section);
  return d ? itemTable(*d) : std::string();
}

std::string modelFormatTables() {
  std::string out;
  for (const auto& s : generatedSections()) out += begin(s) + "\n" + generatedTable(s) + kEnd + "\n\n";
  return out;
}

std::string withGeneratedTables(const std::string& doc, std::vector<std::string>* missing) {
  std::string out = doc;
  for (const auto& s : generatedSections()) {
    const auto at = out.find(begin(s) + "\n");
    const auto end = at == std::string::npos ? std::string::npos : out.find(kEnd, at);
    if (end == std::string::npos) {
      if (missing) missing->push_back(s);
      continue;
    }
    const auto from = at + begin(s).size() + 1;
    out.replace(from, end - from, generatedTable(s));
  }
  return out;
}

bool readDocument(const std::string& path, std::string& text, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read '" + path + "'";
    return false;
  }
  std::ostringstream s;
  s << in.rdbuf();
  text = s.str();
  return true;
}

}  // namespace flexim::io
