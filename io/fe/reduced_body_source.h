// What a reduced body records about where it came from, filled the same way by
// `flexim-cli reduce` and the application: its name (the file's stem), its display surface
// (the mesh's outer faces), its source files with their SHA-256, and the date.
#pragma once

#include "core/fe/fe_model.h"
#include "core/fe/reduced_body.h"

#include <string>

namespace flexim::io {

void describeReducedBody(const fe::FeModel& mesh, const std::string& input, fe::ReducedBody& body);

/// "2026-11-27T11:21:55Z"
std::string utcNow();

}  // namespace flexim::io
