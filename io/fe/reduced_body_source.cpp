#include "io/fe/reduced_body_source.h"

#include "core/fe/surface.h"
#include "io/sha256.h"

#include <ctime>
#include <filesystem>

namespace flexim::io {

std::string utcNow() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

void describeReducedBody(const fe::FeModel& mesh, const std::string& input, fe::ReducedBody& body) {
  body.name = std::filesystem::path(input).stem().string();
  body.surface = fe::outerSurface(mesh);
  body.created = utcNow();
  body.sources.clear();
  for (const auto& source : mesh.sources.empty() ? std::vector<std::string>{input} : mesh.sources) {
    std::string hex;
    sha256FileHex(source, hex);
    body.sources.push_back({source, hex});
  }
}

}  // namespace flexim::io
