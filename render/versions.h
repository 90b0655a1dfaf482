// Versions of the rendering libraries (VTK, Assimp) for Help > About.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace flexim::render {

std::vector<std::pair<std::string, std::string>> renderLibraryVersions();

}  // namespace flexim::render
