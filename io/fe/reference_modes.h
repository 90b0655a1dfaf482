// The FE program's own modes of a reduced body, for comparing them with the body's (MAC): a
// CalculiX result file (.frd) of a *FREQUENCY step found beside the reduced body, named after
// the deck it was reduced from (its `sources`) or after the .frb itself.
#pragma once

#include "core/fe/reduced_body.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace flexim::io {

struct ReferenceModes {
  std::string path;                 ///< the .frd read
  std::vector<double> frequencies_hz;
  Eigen::MatrixXd modes;            ///< 3n x k in the body's node order (ReducedBody::coords)
};

/// Looks for DIR/<source stem>.frd for each source deck of the body, then DIR/<frb stem>.frd,
/// DIR being the .frb's folder. Returns false with `why` when there is none, it cannot be read,
/// or it misses nodes of the body (another mesh).
bool findReferenceModes(const std::string& frbPath, const fe::ReducedBody& body, ReferenceModes& out,
                        std::string& why);

}  // namespace flexim::io
