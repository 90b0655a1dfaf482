// The bodies of a model in one table, and the registered kinds of body.
//
// A body is an item of one of the model's body lists: the lists whose item description has a
// body kind (ItemDescription::body: "bodies", "flexible_bodies", "virtual_bodies",
// "point_masses"). Its pose index is its place among the poses of a run (Sample::poses) and its
// coordinate block in the compiled System. The order is: the kinds in the order of their lists
// in the model's description (bodyKinds()), within a kind the items in list order. Only this table knows that order; the
// compiler, the run's samples, the scene, the topology and the model check read it, and nothing
// else may rely on it (docs/architecture.md, "The body table").
#pragma once

#include "core/model/description.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace flexim {

/// The registered body kinds, in pose order.
const std::vector<BodyKindDescription>& bodyKinds();
/// The kind whose list is listKey ("flexible_bodies"), nullptr for a list of no body kind.
const BodyKindDescription* findBodyKind(std::string_view listKey);

/// One body of the table.
struct BodyEntry {
  std::string path;  ///< its JSON path, "flexible_bodies[0]"
  std::string name;
  const BodyKindDescription* kind = nullptr;
  int index = 0;           ///< in its list
  int pose = 0;            ///< in Sample::poses, and its System block
  int deformable = -1;     ///< in Sample::modal (deformable kinds), -1 otherwise
};

class BodyTable {
 public:
  BodyTable() = default;
  explicit BodyTable(const ModelSpec& model);

  int size() const { return static_cast<int>(m_entries.size()); }
  bool empty() const { return m_entries.empty(); }
  const std::vector<BodyEntry>& entries() const { return m_entries; }
  const BodyEntry& operator[](int pose) const { return m_entries[static_cast<std::size_t>(pose)]; }

  /// The pose of the body at a JSON path ("virtual_bodies[2]"), or of the body a path inside it
  /// names ("bodies[0].markers[1]" is body 0's); -1 for any other path or an index out of range.
  int poseOf(std::string_view path) const;
  /// The pose of item `index` of a body list; -1 when there is none.
  int poseOf(std::string_view listKey, std::size_t index) const;
  /// The pose of the body named `name` (the first of equal names); -1 for ground, -2 for none.
  int poseNamed(std::string_view name) const;
  /// The marker `marker` of the body named `body` (or of ground) in `model`, the model this
  /// table was made from; nullptr when there is none.
  const MarkerSpec* marker(const ModelSpec& model, std::string_view body, std::string_view marker) const;
  /// The markers of the body of pose `pose` in `model` (none for a kind without markers).
  std::vector<const MarkerSpec*> markers(const ModelSpec& model, int pose) const;
  /// Where the body of pose `pose` in `model` starts (t = 0, undeformed; a flexible body's FE
  /// frame); a virtual body's origin at its interface's reference point, its first node or its
  /// point, before the solver picks its node (BodyKindDescription::startPose).
  BodyPose startPose(const ModelSpec& model, int pose) const;
  /// The bodies with modal coordinates, in Sample::modal order (pose indices).
  const std::vector<int>& deformable() const { return m_deformable; }

  /// Same bodies in the same order (paths, names and kinds).
  bool operator==(const BodyTable& other) const;

 private:
  std::vector<BodyEntry> m_entries;
  std::vector<int> m_deformable;
  std::unordered_map<std::string, int> m_byName;  ///< the first body of each name
  struct Range {
    const BodyKindDescription* kind;
    int first, count;
  };
  std::vector<Range> m_ranges;  ///< each kind's poses: [first, first + count)
};

}  // namespace flexim
