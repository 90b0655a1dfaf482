// CalculiX / Abaqus input deck (.inp) reader: the mesh, sets, materials and solid sections
// of a deck, into the common FE model (core/fe/fe_model.h).
//
// Read: *NODE (NSET=), *ELEMENT (TYPE=C3D4, C3D10, C3D8, C3D8R, C3D8I, C3D20, C3D20R, C3D6,
// C3D15, and the pyramids C3D5, C3D13 that ccx 2.20 lacks (fe_model.h); ELSET=),
// *NSET / *ELSET (ids, names of other sets, GENERATE), *MATERIAL with *ELASTIC (isotropic)
// and *DENSITY, *SOLID SECTION (ELSET=, MATERIAL=), *INCLUDE (INPUT= relative to the
// including file; cycles and depth > 32 are errors), *HEADING.
// Syntax: keywords and parameter names are case-insensitive and blanks inside keywords are
// collapsed ("*Solid Section"); set and material names are stored in upper case; "**" lines
// are comments; keyword lines ending in ',' continue on the next line; an element's node
// list continues on the next line when its line ends in ',' or holds 16 entries (Abaqus
// limit); empty fields (gmsh's trailing ", ") are ignored in set and element lists and mean 0
// in *NODE coordinates. References (element nodes, set members, section sets and materials)
// are resolved after the whole deck is read, so their order in the file does not matter.
// Skipped: analysis, step, load and output keywords silently; other model keywords that the
// FE model cannot hold (*EQUATION, *SHELL SECTION, *ORIENTATION, *PLASTIC, ...) with one info
// each; non-solid element types that gmsh or Abaqus write next to solids (CPS6, S8R, B31,
// ...) with a warning; truly unknown keywords with a warning. Unknown element types are errors.
// Every problem is reported as "file:line: message"; no input crashes or hangs the reader.
#pragma once

#include "core/base/diagnostics.h"
#include "core/fe/fe_model.h"

#include <string>
#include <string_view>

namespace flexim::io {

struct InpOptions {
  bool follow_includes = true;  ///< false: *INCLUDE is reported as an error (in-memory decks, fuzzing)
  int max_errors = 50;          ///< stop reading after this many errors
};

/// Reads the deck at path. On success replaces out with the deck's model (sources = the deck
/// and its includes) and returns true; on failure returns false, reports errors and leaves
/// out unchanged. Warnings and infos do not make it fail.
bool readCalculixInp(const std::string& path, fe::FeModel& out, Diagnostics& diag,
                     const InpOptions& options = {});

/// Same for a deck held in memory; source names it in messages, and *INCLUDE paths are
/// relative to its directory.
bool readCalculixInpFromString(std::string_view text, const std::string& source, fe::FeModel& out,
                               Diagnostics& diag, const InpOptions& options = {});

}  // namespace flexim::io
