#include "core/model/validate.h"

#include "core/fe/reduced_body.h"
#include "core/model/body_table.h"
#include "core/model/description.h"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <set>

namespace flexim {

bool nearlySymmetric(const Mat3& inertia) {
  const double scale = inertia.cwiseAbs().maxCoeff();
  return (inertia - inertia.transpose()).cwiseAbs().maxCoeff() <= 1e-9 * scale;
}

std::string fileNameProblem(const std::string& file) {
  if (std::any_of(file.begin(), file.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; }))
    return "must not contain control characters";
  return {};
}

ModelIndex::ModelIndex(const ModelSpec& m) : model(m) {
  // the first of equal names counts (the others are reported as duplicates)
  auto& ground = markerBodies[kGroundName];
  for (const auto& marker : m.ground_markers) ground.insert(marker.name);
  const BodyTable table(m);
  for (const BodyEntry& e : table.entries()) {
    if (e.name.empty() || markerBodies.count(e.name) || flexibleBodies.count(e.name)) continue;
    if (e.kind->deformable) {
      flexibleBodies.emplace(e.name, &m.flexible_bodies[std::size_t(e.index)]);
      continue;
    }
    if (!e.kind->carriesMarkers) continue;
    auto& names = markerBodies[e.name];
    for (const MarkerSpec* marker : table.markers(m, e.pose)) names.insert(marker->name);
    if (!e.kind->rotates) fixedAxes.insert(e.name);
  }
  for (const auto& j : m.joints)
    if (!j.name.empty()) joints.emplace(j.name, &j);
}

bool ModelIndex::hasNode(const fe::ReducedBody& body, int id) const {
  auto [it, added] = m_sortedNodes.try_emplace(&body);
  if (added) {
    it->second = body.node_ids;
    std::sort(it->second.begin(), it->second.end());
  }
  return std::binary_search(it->second.begin(), it->second.end(), id);
}

namespace {

std::string joinPath(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }

/// A diagnostic at where, inside the item at itemPath labelled itemLabel.
Diagnostic at(Severity s, const std::string& where, const std::string& itemPath, const std::string& itemLabel,
              std::string message) {
  Diagnostic d;
  d.severity = s;
  d.where = where;
  d.message = std::move(message);
  d.location.item = itemLabel;
  if (where.size() > itemPath.size() && where.compare(0, itemPath.size(), itemPath) == 0)
    d.location.field = where.substr(itemPath.size() + (where[itemPath.size()] == '.' ? 1 : 0));
  else if (itemPath.empty())
    d.location.field = where;
  return d;
}

std::string joined(const std::vector<std::string>& items, const std::string& separator = ", ") {
  std::string s;
  for (const auto& item : items) s += (s.empty() ? "" : separator) + item;
  return s;
}

/// "joints[1] 'pin'": the path, and the name when the item has one.
std::string labelOf(const ItemDescription& d, const void* item, const std::string& path) {
  const FieldDescription* name = d.field("name");
  return name && name->get ? path + " " + inQuotes(std::get<std::string>(name->get(item))) : path;
}

/// Walks the descriptions over a model, checking each field and calling each item's check.
class Walker {
 public:
  Walker(const ModelIndex& index, Diagnostics& diag) : m_index(index), m_diag(diag) {}

  void item(const ItemDescription& d, const void* p, const std::string& path, const std::string& itemPath,
            const std::string& label, std::set<std::string>* names) {
    if (names) checkName(d, p, path, itemPath, label, *names);
    for (const FieldDescription& f : d.fields) {
      if (f.inputOnly || !d.applies(f, p) || (f.inUse && !f.inUse(p))) continue;
      field(d, f, p, joinPath(path, f.key), path, itemPath, label);
    }
    if (d.check) {
      ItemCheck c(m_index, p, path, itemPath, label, m_diag);
      d.check(c);
    }
  }

 private:
  void error(const std::string& where, const std::string& itemPath, const std::string& label, std::string message) {
    m_diag.add(at(Severity::Error, where, itemPath, label, std::move(message)));
  }

  void checkName(const ItemDescription& d, const void* p, const std::string& path, const std::string& itemPath,
                 const std::string& label, std::set<std::string>& names) {
    const FieldDescription* f = d.field("name");
    if (!f || !f->get) return;
    const std::string name = std::get<std::string>(f->get(p));
    const std::string where = joinPath(path, "name");
    if (name.empty()) return;  // reported as a required value
    if (d.nameScope == "body" && name == kGroundName)
      error(where, itemPath, label, inQuotes(name) + " is reserved for the fixed ground body");
    else if (!names.insert(name).second)
      error(where, itemPath, label, "duplicate name " + inQuotes(name));
  }

  /// The first limit problem of values, reported at where (or at where[i] when each is its own).
  void limits(const FieldDescription& f, const double* values, std::size_t n, const std::string& where, bool eachOwnPath,
              const std::string& itemPath, const std::string& label) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::string elementPath = eachOwnPath ? where + "[" + std::to_string(i) + "]" : where;
      if (!std::isfinite(values[i])) {
        error(elementPath, itemPath, label, eachOwnPath || n == 1 ? "expected a finite number" : "expected finite numbers");
        if (!eachOwnPath) return;
        continue;
      }
      if (const std::string problem = f.limitProblem(values[i]); !problem.empty()) {
        error(elementPath, itemPath, label, problem);
        if (!eachOwnPath) return;
      }
    }
  }

  void field(const ItemDescription& d, const FieldDescription& f, const void* p, const std::string& where,
             const std::string& path, const std::string& itemPath, const std::string& label) {
    if (f.type == FieldType::Object) {
      // the model's own objects (ground, simulation) are items of their own for locations
      const bool top = itemPath.empty() && label.empty();
      item(*f.item, f.object(const_cast<void*>(p)), where, top ? where : itemPath, top ? where : label, nullptr);
      return;
    }
    if (f.type == FieldType::List) {
      void* list = const_cast<void*>(p);
      // names are unique in the model (bodies, joints, ...) or within their list (markers)
      std::set<std::string> local;
      std::set<std::string>& names = f.item->nameScope == "marker" ? local : m_scopes[f.item->nameScope];
      for (std::size_t i = 0; i < f.count(p); ++i) {
        const void* e = f.element(list, i);
        const std::string elementPath = where + "[" + std::to_string(i) + "]";
        const bool top = itemPath.empty();
        item(*f.item, e, elementPath, top ? elementPath : itemPath, top ? labelOf(*f.item, e, elementPath) : label,
             f.item->nameScope.empty() ? nullptr : &names);
      }
      return;
    }
    if (!f.get) return;
    const FieldValue v = f.get(p);
    switch (f.type) {
      case FieldType::Number: limits(f, &std::get<double>(v), 1, where, false, itemPath, label); break;
      case FieldType::Integer: {
        const double x = std::get<int>(v);
        limits(f, &x, 1, where, false, itemPath, label);
        break;
      }
      case FieldType::Vec3: limits(f, std::get<Vec3>(v).data(), 3, where, false, itemPath, label); break;
      case FieldType::Vec6: limits(f, std::get<Vec6>(v).data(), 6, where, false, itemPath, label); break;
      case FieldType::NumberList:
      case FieldType::NumberOrList: {
        const auto& list = std::get<std::vector<double>>(v);
        // a single value may have been written as a number: report it at the field
        const bool each = !(f.type == FieldType::NumberOrList && list.size() == 1);
        limits(f, list.data(), list.size(), where, each, itemPath, label);
        break;
      }
      case FieldType::Quaternion:
      case FieldType::Orientation: {
        const Quat& q = std::get<Quat>(v);
        if (!q.coeffs().allFinite() || !(q.coeffs().stableNorm() > 0))
          error(where, itemPath, label, "expected [w, x, y, z] with a non-zero length");
        break;
      }
      case FieldType::Inertia:
        // a field that may be zero (atLeast(0): a beam node's own inertia besides its elements')
        if (!(f.minimum.set && !f.minimum.exclusive && std::get<Mat3>(v).isZero(0.0)))
          inertia(std::get<Mat3>(v), where, itemPath, label);
        break;
      case FieldType::Enum: {
        const std::string& s = std::get<std::string>(v);
        if (std::find(f.choices.begin(), f.choices.end(), s) == f.choices.end())
          error(where, itemPath, label, "expected one of " + joined(f.choices) + ", got " + inQuotes(s));
        break;
      }
      case FieldType::String:
        if (f.nonEmpty && std::get<std::string>(v).empty()) error(where, itemPath, label, "must not be empty");
        break;
      case FieldType::Reference: reference(d, f, p, std::get<std::string>(v), where, path, itemPath, label); break;
      default: break;
    }
  }

  void inertia(const Mat3& I, const std::string& where, const std::string& itemPath, const std::string& label) {
    const double scale = I.cwiseAbs().maxCoeff();
    if (!I.allFinite() || !nearlySymmetric(I) || !(scale > 0) || Eigen::LLT<Mat3>(I).info() != Eigen::Success) {
      error(where, itemPath, label, "expected 3x3 symmetric positive-definite matrix");
      return;
    }
    const Vec3 m = Eigen::SelfAdjointEigenSolver<Mat3>(0.5 * (I + I.transpose()), Eigen::EigenvaluesOnly).eigenvalues();
    if (m[0] + m[1] < m[2] * (1 - 1e-9))
      m_diag.add(at(Severity::Warning, where, itemPath, label,
                    "principal moments violate the triangle inequality (no rigid body has this inertia)"));
  }

  void reference(const ItemDescription& d, const FieldDescription& f, const void* p, const std::string& name,
                 const std::string& where, const std::string& path, const std::string& itemPath,
                 const std::string& label) {
    if (f.refersTo == "marker") {
      // the body and its marker are checked together
      const FieldDescription* bodyField = d.field(f.bodyKey);
      for (const auto& candidate : d.fields)
        if (candidate.key == f.bodyKey && d.applies(candidate, p)) bodyField = &candidate;
      const std::string body = std::get<std::string>(bodyField->get(p));
      const std::string bodyPath = joinPath(path, f.bodyKey);
      if (const auto it = m_index.markerBodies.find(body); it != m_index.markerBodies.end()) {
        if (!it->second.count(name))
          error(where, itemPath, label, "body " + inQuotes(body) + " has no marker " + inQuotes(name));
      } else if (m_index.flexibleBodies.count(body)) {
        error(bodyPath, itemPath, label, inQuotes(body) + " is a flexible body; connect it through a virtual body");
      } else {
        error(bodyPath, itemPath, label, "no body named " + inQuotes(body));
      }
    } else if (f.refersTo == "flexible_body") {
      if (m_index.flexibleBodies.count(name)) return;
      if (m_index.markerBodies.count(name))
        error(where, itemPath, label, inQuotes(name) + " is not a flexible body (" + f.referenceNote + ")");
      else
        error(where, itemPath, label, "no flexible body named " + inQuotes(name));
    } else if (f.refersTo == "joint") {
      if (!m_index.joints.count(name)) error(where, itemPath, label, "no joint named " + inQuotes(name));
    }
  }

  const ModelIndex& m_index;
  Diagnostics& m_diag;
  std::map<std::string, std::set<std::string>> m_scopes;
};

}  // namespace

void ItemCheck::error(const std::string& field, const std::string& message) const {
  m_diag.add(at(Severity::Error, field.empty() ? m_path : joinPath(m_path, field), m_itemPath, m_label, message));
}

void ItemCheck::warning(const std::string& field, const std::string& message) const {
  m_diag.add(at(Severity::Warning, field.empty() ? m_path : joinPath(m_path, field), m_itemPath, m_label, message));
}

const FlexibleBodySpec* ItemCheck::flexibleBody(const std::string& name) const {
  const auto it = m_index.flexibleBodies.find(name);
  return it == m_index.flexibleBodies.end() ? nullptr : it->second;
}

std::string itemLabel(const ModelSpec& m, const std::string& path) {
  const auto open = path.find('[');
  const std::string key = path.substr(0, std::min(open, path.find('.')));
  const FieldDescription* f = modelDescription().field(key);
  if (!f) return {};
  if (f->type == FieldType::Object) return key;
  const auto close = path.find(']');
  if (f->type != FieldType::List || open == std::string::npos || close == std::string::npos || open != key.size())
    return {};
  const std::size_t index = std::stoul(path.substr(open + 1, close - open - 1));
  if (index >= f->count(&m)) return {};
  return labelOf(*f->item, f->element(const_cast<ModelSpec*>(&m), index), path.substr(0, close + 1));
}

bool validate(const ModelSpec& m, Diagnostics& diag) {
  Diagnostics found;
  const ModelIndex index(m);
  Walker(index, found).item(modelDescription(), &m, "", "", "", nullptr);
  diag.append(found);
  return !found.hasErrors();
}

Diagnostics validate(const ModelSpec& m) {
  Diagnostics diag;
  validate(m, diag);
  return diag;
}

}  // namespace flexim
