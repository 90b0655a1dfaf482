// The model file: ModelSpec <-> JSON (schema version 1, see docs/model-format.md).
// Loading validates everything the document alone can tell (types, ranges, names, references)
// and reports each problem with its JSON path, e.g. "bodies[2].inertia: expected 3x3 symmetric
// positive-definite matrix". Saving is canonical: save -> load -> save is byte-identical.
#pragma once

#include "core/base/diagnostics.h"
#include "core/model/model.h"

#include <string>

namespace flexim::io {

/// The schema version this build reads and writes.
inline constexpr int kModelSchemaVersion = 1;

/// Reads a model file. Returns true when there are no errors (warnings, e.g. unknown keys, are
/// allowed); on failure out is left unchanged. Never throws.
bool loadModelFile(const std::string& path, ModelSpec& out, Diagnostics& diag);

/// Same, from text; source names the text in syntax-error locations ("<source>:LINE:COL").
bool loadModelString(const std::string& text, ModelSpec& out, Diagnostics& diag,
                     const std::string& source = "<string>");

/// Canonical JSON text of a model (2-space indent, fixed key order, final newline).
std::string saveModelString(const ModelSpec& m);

/// Writes the model atomically (temporary file + rename). On failure returns false and, when
/// error is given, sets it to a readable reason.
bool saveModelFile(const ModelSpec& m, const std::string& path, std::string* error = nullptr);

}  // namespace flexim::io
