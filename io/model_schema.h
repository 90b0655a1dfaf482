// JSON Schema (draft 2020-12) of the model file, generated from the item descriptions, so that
// editors validate and complete model files. The schema is strict where the loader is lenient:
// an unknown key fails it (the loader only warns), which catches misspellings while typing.
#pragma once

#include <string>

namespace flexim::io {

/// The schema as formatted JSON text.
std::string modelJsonSchema();

}  // namespace flexim::io
