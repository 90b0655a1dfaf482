// Contact points between two bodies: a gap g(q) that may close (g <= 0) and the Jacobians W of
// the relative velocities at the contact point (normal, then tangential), as the mixed
// timestepping schemes need them (core/integrators/mixed_timestepping.h). A contact is not a
// constraint row: the integrators that keep the constraints as equations (IDA, generalized-
// alpha) do not see it.
#pragma once

#include "core/base/diagnostics.h"
#include "core/system/contract.h"

#include <memory>
#include <string>
#include <vector>

namespace flexim {

/// A contact point at one configuration.
struct ContactPoint {
  double gap = 0.0;             ///< [m]; negative: penetration
  Vec3 point = Vec3::Zero();    ///< contact point (global; on body1's surface)
  Vec3 normal = Vec3::UnitZ();  ///< global, from body2 towards body1 (the direction body1 separates in)
  /// Per touched block: (1 + tangents) x nv of the block; row 0 gives the normal relative
  /// velocity (gap rate, positive separating), the further rows the tangential ones.
  std::vector<MatX> W;
  void resize(int rows, const std::vector<int>& cols);
};

/// One contact point of a model contact (a translational clearance makes four).
class ContactElement {
 public:
  virtual ~ContactElement() = default;
  virtual void evaluate(const System& sys, const std::vector<BodyKinematics>& kin, ContactPoint& out) const = 0;
  int rows() const { return 1 + tangents; }
  std::vector<int> blocks;  ///< touched blocks (-1 = ground)
  ContactLaw law;
  int tangents = 0;         ///< friction directions: 0 (frictionless), 1 (planar), 2 (spatial)
  std::string name;         ///< names its output columns: "<name>.gap [m]"
  std::string label;        ///< "contact 'stop'" for messages
  std::string where;        ///< the model item's JSON path, "contacts[2]"
};

/// The contact points of every model contact, through the builder of its kind.
void addContacts(System& sys, const ModelSpec& model, Diagnostics& diag);

}  // namespace flexim
