// The one validation of a model: every check the item descriptions (core/model/description.h)
// state — limits, required and non-empty values, names unique in their scope, references to
// existing items, positive-definite inertia, driver coordinates the joint kind has, and the
// checks against the loaded reduced-body files — plus each kind's own checks. The JSON loader,
// System::compile and the GUI report problems through it, so the same fault gives the same
// message everywhere: "<JSON path>: <what>", e.g. "bodies[2].inertia: expected 3x3 symmetric
// positive-definite matrix", with Diagnostic::location naming the item and field.
#pragma once

#include "core/base/diagnostics.h"
#include "core/model/model.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace flexim {

namespace fe {
struct ReducedBody;
}
struct ItemDescription;

/// All problems of m (errors, and warnings such as a non-physical inertia).
Diagnostics validate(const ModelSpec& m);
/// Same, appended to diag; true when there are no errors.
bool validate(const ModelSpec& m, Diagnostics& diag);

/// True when the inertia tensor is symmetric to 1e-9 relative (it is symmetrised on reading).
bool nearlySymmetric(const Mat3& inertia);

/// What a file name of a flexible body may not be ("" when fine).
std::string fileNameProblem(const std::string& file);

/// Names of the model's items, for reference checks.
struct ModelIndex {
  explicit ModelIndex(const ModelSpec& m);
  const ModelSpec& model;
  /// ground and the bodies of kinds that carry markers -> the names of their markers
  std::map<std::string, std::set<std::string>> markerBodies;
  /// bodies whose axes do not turn (point masses): no torques, only spherical joints
  std::set<std::string> fixedAxes;
  std::map<std::string, const FlexibleBodySpec*> flexibleBodies;
  std::map<std::string, const JointSpec*> joints;

  /// Whether a reduced body has an FE node with this id (its ids sorted once, on first ask).
  bool hasNode(const fe::ReducedBody& body, int id) const;

 private:
  mutable std::map<const fe::ReducedBody*, std::vector<int>> m_sortedNodes;
};

/// What an item's own check (ItemDescription::check) sees and reports through.
class ItemCheck {
 public:
  /// item at path, inside the labelled item at itemPath (the same, or a list item holding it).
  ItemCheck(const ModelIndex& index, const void* item, std::string path, std::string itemPath, std::string label,
            Diagnostics& diag)
      : m_index(index),
        m_item(item),
        m_path(std::move(path)),
        m_itemPath(std::move(itemPath)),
        m_label(std::move(label)),
        m_diag(diag) {}

  const ModelSpec& model() const { return m_index.model; }
  const ModelIndex& index() const { return m_index; }
  template <class T>
  const T& item() const {
    return *static_cast<const T*>(m_item);
  }
  const std::string& path() const { return m_path; }

  /// field: the key path inside the item ("nodes[1]", "damping.ratio"; "" = the item itself).
  void error(const std::string& field, const std::string& message) const;
  void warning(const std::string& field, const std::string& message) const;

  /// The loaded data of a flexible body named name (null when it is not one or not loaded).
  const FlexibleBodySpec* flexibleBody(const std::string& name) const;

 private:
  const ModelIndex& m_index;
  const void* m_item;
  std::string m_path, m_itemPath, m_label;
  Diagnostics& m_diag;
};

/// The label of the item at a JSON path of the model ("joints[1]" -> "joints[1] 'pin'"; the
/// model's own objects by their key); "" when the path names no item.
std::string itemLabel(const ModelSpec& m, const std::string& path);

/// "'name'"
inline std::string inQuotes(const std::string& s) { return "'" + s + "'"; }

}  // namespace flexim
