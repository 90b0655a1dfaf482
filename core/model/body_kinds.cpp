// The registered body kinds, in pose order (core/model/body_table.h). A new kind adds its
// registration here; the body table, the topology, the model check and the scene's bookkeeping
// then know it.
#include "core/model/body_table.h"

namespace flexim {

std::vector<BodyKindDescription> registeredBodyKinds() {
  return {
      {"rigid", "bodies", "body", true, false, false},
      {"flexible", "flexible_bodies", "flexible body", false, true, false},
      {"virtual", "virtual_bodies", "virtual body", true, false, true},
      {"point_mass", "point_masses", "point mass", true, false, false, false},
  };
}

}  // namespace flexim
