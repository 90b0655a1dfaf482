#include "core/system/body_units.h"

#include "core/system/system.h"

#include <map>
#include <string>

namespace flexim {

namespace {

void addRigidBodies(System& sys, const ModelSpec& model, Diagnostics&) {
  for (const RigidBodySpec& spec : model.bodies) {
    const Quat p = spec.orientation.normalized();
    VecX q0(7), v0(6);
    q0 << spec.position, p.w(), p.x(), p.y(), p.z();
    v0 << spec.velocity, p.toRotationMatrix().transpose() * spec.angular_velocity;
    const Mat3 J = 0.5 * (spec.inertia + spec.inertia.transpose());
    const int b = sys.addBlock(spec.name, std::make_unique<RigidBodyFormulation>(spec.mass, J), q0, v0);
    sys.addMarkers(b, spec.name, spec.markers);
  }
}

}  // namespace

const BodyUnit* findBodyUnit(std::string_view kind) {
  // one line per registered body kind
  static const std::map<std::string, BodyUnit, std::less<>> units{
      {"rigid", addRigidBodies},
      {"flexible", [](System& sys, const ModelSpec& model, Diagnostics& diag) { sys.compileFlexibleBodies(model, diag); }},
      {"virtual", [](System& sys, const ModelSpec& model, Diagnostics& diag) { sys.compileVirtualBodies(model, diag); }},
      {"point_mass", addPointMasses},
      {"beam_node", addBeamNodes},
  };
  const auto it = units.find(kind);
  return it == units.end() ? nullptr : &it->second;
}

}  // namespace flexim
