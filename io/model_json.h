// The model file: ModelSpec <-> JSON (schema version 1, see docs/model-format.md).
// Loading validates everything the document alone can tell (types, ranges, names, references),
// plus what the reduced-body files of flexible bodies tell (node ids, interfaces, mode counts),
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
/// allowed); on failure out is left unchanged. Never throws. The reduced-body files of flexible
/// bodies are resolved relative to the model file's folder and loaded into
/// FlexibleBodySpec::data (each distinct file once, shared); a file that cannot be loaded is an
/// error ("flexible_bodies[0].file: <reason>"), and what depends on its contents (node ids,
/// interfaces, mode counts) is then not checked.
/// What a flexible body whose reduced-body file cannot be loaded does to the load: refuse the
/// model (the default: a run needs the data), or keep the body without its data with a warning
/// (an editor, so that the user can point the body at its file; validate() and a run still
/// refuse the body, naming it).
enum class MissingData { Refuse, Keep };

bool loadModelFile(const std::string& path, ModelSpec& out, Diagnostics& diag,
                   MissingData missing = MissingData::Refuse);

/// Same, from text; source names the text in syntax-error locations ("<source>:LINE:COL") and
/// baseDir is the folder reduced-body files are resolved against ("" = the current directory).
bool loadModelString(const std::string& text, ModelSpec& out, Diagnostics& diag,
                     const std::string& source = "<string>", const std::string& baseDir = "",
                     MissingData missing = MissingData::Refuse);

/// Canonical JSON text of a model (2-space indent, fixed key order, final newline).
std::string saveModelString(const ModelSpec& m);

/// Writes the model atomically (temporary file + rename). On failure returns false and, when
/// error is given, sets it to a readable reason.
bool saveModelFile(const ModelSpec& m, const std::string& path, std::string* error = nullptr);

}  // namespace flexim::io
