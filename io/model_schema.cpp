#include "io/model_schema.h"

#include "core/model/description.h"
#include "io/json_reader.h"
#include "io/model_json.h"

#include <map>

namespace flexim::io {

namespace {

OrderedJson numbers(std::size_t size, const OrderedJson& item) {
  return OrderedJson{{"type", "array"}, {"items", item}, {"minItems", size}, {"maxItems", size}};
}

/// A number's schema with the field's limits.
OrderedJson number(const FieldDescription& f, const char* type = "number") {
  OrderedJson s{{"type", type}};
  if (f.minimum.set) s[f.minimum.exclusive ? "exclusiveMinimum" : "minimum"] = f.minimum.value;
  if (f.maximum.set) s[f.maximum.exclusive ? "exclusiveMaximum" : "maximum"] = f.maximum.value;
  return s;
}

OrderedJson arrayOf(const OrderedJson& item) { return OrderedJson{{"type", "array"}, {"items", item}}; }

std::string description(const FieldDescription& f) {
  return f.unit.empty() ? f.help : f.help + " [" + unitIn(f.unit, "f") + "]";
}

OrderedJson fieldSchema(const FieldDescription& f) {
  OrderedJson s;
  switch (f.type) {
    case FieldType::Number: s = number(f); break;
    case FieldType::Integer: s = number(f, "integer"); break;
    case FieldType::Bool: s = {{"type", "boolean"}}; break;
    case FieldType::String:
    case FieldType::Reference:
      s = {{"type", "string"}};
      if (f.nonEmpty) s["minLength"] = 1;
      break;
    case FieldType::Vec3: s = numbers(3, number(f)); break;
    case FieldType::Vec6: s = numbers(6, number(f)); break;
    case FieldType::Quaternion:
    case FieldType::Orientation: s = numbers(4, {{"type", "number"}}); break;
    case FieldType::Inertia:
      s = {{"anyOf", {numbers(3, {{"type", "number"}}), numbers(3, numbers(3, {{"type", "number"}}))}}};
      break;
    case FieldType::Enum: s = {{"enum", f.choices}}; break;
    case FieldType::NumberList: s = arrayOf(number(f)); break;
    case FieldType::NumberOrList: s = {{"anyOf", {number(f), arrayOf(number(f))}}}; break;
    case FieldType::IntList: s = arrayOf({{"type", "integer"}}); break;
    case FieldType::StringList: s = arrayOf({{"type", "string"}}); break;
    case FieldType::Object: s = {{"$ref", "#/$defs/" + f.item->kind}}; break;
    case FieldType::List: s = arrayOf({{"$ref", "#/$defs/" + f.item->kind}}); break;
  }
  s["description"] = description(f);
  if (!f.defaultText.empty()) {
    const OrderedJson d = OrderedJson::parse(f.defaultText, nullptr, false);
    if (!d.is_discarded()) s["default"] = d;
  }
  return s;
}

/// Properties, required keys and the one-of-two rules of a set of fields.
struct Group {
  OrderedJson properties = OrderedJson::object();
  OrderedJson required = OrderedJson::array();
  OrderedJson rules = OrderedJson::array();

  void add(const FieldDescription& f) {
    properties[f.key] = fieldSchema(f);
    if (!f.alternative.empty()) {
      // exactly one of the two when required, else at most one
      const OrderedJson both{{"required", {f.key, f.alternative}}};
      if (f.required)
        rules.push_back({{"oneOf", {{{"required", {f.key}}}, {{"required", {f.alternative}}}}}});
      else
        rules.push_back({{"not", both}});
    } else if (f.required) {
      required.push_back(f.key);
    }
    if (f.type == FieldType::Orientation) {
      rules.push_back({{"not", {{"required", {f.key, "z_axis"}}}}});
      rules.push_back({{"not", {{"required", {f.key, "x_axis"}}}}});
      rules.push_back({{"not", {{"required", {f.key + kAnglesSuffix, "z_axis"}}}}});
    }
    if (f.type == FieldType::Orientation || f.type == FieldType::Quaternion)
      rules.push_back({{"not", {{"required", {f.key, f.key + kAnglesSuffix}}}}});
  }

  void into(OrderedJson& s) const {
    s["properties"] = properties;
    if (!required.empty()) s["required"] = required;
    if (!rules.empty()) s["allOf"] = rules;
  }
};

OrderedJson objectSchema(const ItemDescription& d) {
  OrderedJson s{{"type", "object"}, {"title", d.label}, {"description", d.help}};
  Group common;
  // fields that apply to some values of a discriminator: one if/then per value
  std::map<std::string, std::map<std::string, Group>> byValue;
  std::vector<std::pair<std::string, std::string>> order;
  for (const FieldDescription& f : d.fields) {
    if (!f.condition) {
      common.add(f);
      continue;
    }
    for (const auto& value : f.condition->values) {
      auto& groups = byValue[f.condition->key];
      if (!groups.count(value)) order.emplace_back(f.condition->key, value);
      groups[value].add(f);
    }
  }
  common.into(s);
  if (order.empty()) {
    s["additionalProperties"] = false;
  } else {
    OrderedJson& rules = s["allOf"];
    if (rules.is_null()) rules = OrderedJson::array();
    for (const auto& [key, value] : order) {
      OrderedJson then = OrderedJson::object();
      byValue[key][value].into(then);
      // the discriminator's default value applies when it is left out (a visual's shape "mesh")
      const FieldDescription* discriminator = d.field(key);
      const bool isDefault = discriminator && discriminator->defaultText == "\"" + value + "\"";
      OrderedJson condition{{"properties", {{key, {{"const", value}}}}}};
      if (!isDefault) condition["required"] = {key};
      rules.push_back({{"if", condition}, {"then", then}});
    }
    // keys of other types fail as well as misspelt ones
    s["unevaluatedProperties"] = false;
  }
  if (d.field("z_axis")) s["dependentRequired"] = {{"x_axis", {"z_axis"}}};
  return s;
}

}  // namespace

std::string modelJsonSchema() {
  const ItemDescription& model = modelDescription();
  OrderedJson schema{{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                     {"$id", "flexim-model.schema.json"},
                     {"title", "Flexim model (schema version " + std::to_string(kModelSchemaVersion) + ")"}};
  const OrderedJson top = objectSchema(model);
  for (const auto& [key, value] : top.items())
    if (key != "title") schema[key] = value;
  OrderedJson defs = OrderedJson::object();
  for (const ItemDescription* d : itemDescriptions())
    if (d != &model) defs[d->kind] = objectSchema(*d);
  schema["$defs"] = defs;
  return formatJson(schema);
}

}  // namespace flexim::io
