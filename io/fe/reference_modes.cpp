#include "io/fe/reference_modes.h"

#include "io/fe/calculix_frd.h"

#include <filesystem>
#include <unordered_map>

namespace flexim::io {

namespace fs = std::filesystem;

bool findReferenceModes(const std::string& frbPath, const fe::ReducedBody& body, ReferenceModes& out,
                        std::string& why) {
  const fs::path frb(frbPath);
  std::vector<fs::path> candidates;
  for (const fe::SourceFile& source : body.sources)
    candidates.push_back(frb.parent_path() / fs::path(source.path).filename().replace_extension(".frd"));
  candidates.push_back(fs::path(frb).replace_extension(".frd"));
  const fs::path* found = nullptr;
  for (const fs::path& c : candidates)
    if (fs::exists(c)) {
      found = &c;
      break;
    }
  if (!found) {
    why = "no CalculiX results beside the reduced body (looked for " + candidates.front().filename().string() + ")";
    return false;
  }
  // read on its own (the .frd brings its mesh), then map its nodes to the body's by id
  fe::FeModel frd;
  Diagnostics diag;
  if (!readCalculixFrd(found->string(), frd, diag)) {
    why = diag.str();
    return false;
  }
  if (frd.modes.cols() == 0) {
    why = found->string() + ": no mode shapes (not a *FREQUENCY step with *NODE FILE U)";
    return false;
  }
  std::unordered_map<int, int> row;
  for (std::size_t i = 0; i < frd.node_ids.size(); ++i) row[frd.node_ids[i]] = int(i);
  Eigen::MatrixXd modes(3 * Eigen::Index(body.node_ids.size()), frd.modes.cols());
  for (std::size_t n = 0; n < body.node_ids.size(); ++n) {
    const auto it = row.find(body.node_ids[n]);
    if (it == row.end()) {
      why = found->string() + ": node " + std::to_string(body.node_ids[n]) + " of the body is not in it (another mesh?)";
      return false;
    }
    modes.middleRows<3>(3 * Eigen::Index(n)) = frd.modes.middleRows<3>(3 * Eigen::Index(it->second));
  }
  out.path = found->string();
  out.frequencies_hz = frd.frequencies_hz;
  out.modes = std::move(modes);
  return true;
}

}  // namespace flexim::io
