// Reduced-body file (.frb): a versioned, checksummed little-endian binary container for
// fe::ReducedBody (nodes, modes, inertia invariants, display surface, interfaces, provenance).
// The byte layout and the versioning policy are documented in docs/reduced-body-format.md.
#pragma once

#include "core/fe/reduced_body.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace flexim::io {

/// The format version this build writes and the newest one it reads. Version 2 adds
/// the GSTF chunk (geometric stiffening); version 1 files load without it.
inline constexpr std::uint32_t kReducedBodyFormatVersion = 2;

/// Why `body` cannot be saved (sizes that disagree, NaN/Inf, negative masses, node indices out
/// of range, duplicate node ids, ...), or an empty string if it is consistent. Everything the
/// loader rejects is rejected here too, so a saved file always loads.
std::string checkReducedBody(const fe::ReducedBody& body);

/// Writes `body` to `path` (via a temporary file in the same folder that is renamed over
/// `path`, so an existing file is only replaced by a complete one). False with a reason in
/// `error` (when given) if the body is inconsistent (checkReducedBody) or the file cannot be
/// written.
bool saveReducedBody(const fe::ReducedBody& body, const std::string& path, std::string* error = nullptr);

/// Reads a file written by saveReducedBody. Everything is validated (magic, version, chunk
/// lengths against the file size, SHA-256 checksum, sizes consistent between chunks, finite
/// numbers, index ranges); on failure returns false, leaves `out` unchanged and puts a
/// one-line reason into `error` (when given), prefixed with the path. Never allocates more
/// than a small multiple of the file size, whatever the file says.
bool loadReducedBody(const std::string& path, fe::ReducedBody& out, std::string* error = nullptr);

/// The complete file contents for `body` (no consistency check; use checkReducedBody first).
std::string encodeReducedBody(const fe::ReducedBody& body);

/// Parses the complete contents of a reduced-body file. Same checks and messages as
/// loadReducedBody, without the path prefix.
bool decodeReducedBody(std::string_view bytes, fe::ReducedBody& out, std::string* error = nullptr);

}  // namespace flexim::io
