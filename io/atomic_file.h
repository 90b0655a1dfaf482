// Writing a file so that it is either whole or not changed at all: the bytes go to a new file
// beside the target, every write is checked (a full disk or a file-size limit shows as a short
// or failed write, which buffered writers may hide until it is too late), the file is flushed to
// the disk, and only then renamed over the target. Used for model files and reduced bodies.
#pragma once

#include <string>
#include <string_view>

namespace flexim::io {

/// Writes bytes to path atomically. An existing target keeps its permissions; a new one gets
/// the usual ones (0666 less the umask). On failure returns false, leaves the target and its
/// folder as they were (no temporary file), and sets error (when given) to
/// "cannot write '<path>': <reason>".
bool writeFileAtomically(const std::string& path, std::string_view bytes, std::string* error = nullptr);

}  // namespace flexim::io
