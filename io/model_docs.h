// The field tables of docs/model-format.md, generated from the item descriptions. The document
// holds each table between "<!-- generated:KIND -->" and "<!-- end generated -->";
// `flexim-cli docs model-format-tables --update docs/model-format.md` rewrites them.
#pragma once

#include <string>
#include <vector>

namespace flexim::io {

/// The sections generated: the item kinds ("body", "joint", ...) and "joint_kinds".
std::vector<std::string> generatedSections();

/// The Markdown table of one section (without the marker comments).
std::string generatedTable(const std::string& section);

/// Every section's table between its marker comments, one after the other.
std::string modelFormatTables();

/// doc with the text between each section's markers replaced by its table; the sections doc
/// has no markers for go to missing (when given).
std::string withGeneratedTables(const std::string& doc, std::vector<std::string>* missing = nullptr);

/// A whole text file; false with error set when it cannot be read.
bool readDocument(const std::string& path, std::string& text, std::string& error);

}  // namespace flexim::io
