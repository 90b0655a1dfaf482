#include "render/versions.h"

#include <assimp/version.h>
#include <vtkVersion.h>

namespace flexim::render {

std::vector<std::pair<std::string, std::string>> renderLibraryVersions() {
  return {
      {"VTK", vtkVersion::GetVTKVersion()},
      {"Assimp", std::to_string(aiGetVersionMajor()) + "." + std::to_string(aiGetVersionMinor()) + "." +
                     std::to_string(aiGetVersionPatch())},
  };
}

}  // namespace flexim::render
