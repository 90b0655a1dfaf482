// CalculiX / Abaqus input deck (.inp) reader: the mesh, sets, materials, solid sections,
// discrete elements and couplings of a deck, into the common FE model (core/fe/fe_model.h).
// docs/fe-support.md ("CalculiX") lists every keyword and what becomes of it.
//
// Read: *NODE (NSET=), *ELEMENT (TYPE=C3D4, C3D10, C3D8, C3D8R, C3D8I, C3D20, C3D20R, C3D6,
// C3D15, the pyramids C3D5, C3D13 that ccx 2.20 lacks (fe_model.h), MASS, ROTARYI, SPRINGA,
// SPRING1, SPRING2; ELSET=), *NSET / *ELSET (ids, names of other sets, GENERATE), *MATERIAL
// with *ELASTIC (isotropic) and *DENSITY, *SOLID SECTION (ELSET=, MATERIAL=), *MASS,
// *ROTARY INERTIA, *SPRING, *SURFACE (element faces S1..S6 or TYPE=NODE), *RIGID BODY and
// *COUPLING with *KINEMATIC / *DISTRIBUTING (-> FeModel::couplings, interface candidates),
// *INCLUDE (INPUT= relative to the including file; cycles and depth > 32 are errors), *HEADING.
// Syntax: keywords and parameter names are case-insensitive and blanks in them do not count
// ("*Solid Section" = "*SOLIDSECTION", REF NODE = REFNODE, as in ccx); set, material,
// surface and coupling names are stored in upper case; "**" lines are comments; keyword lines
// ending in ',' continue on the next line; an element's node list continues on the next line
// when its line ends in ',' or holds 16 entries (Abaqus limit); empty fields (gmsh's trailing
// ", ") are ignored in set and element lists and mean 0 in *NODE coordinates. References
// (element nodes, set members, section sets and materials, surfaces and sets of couplings) are
// resolved after the whole deck is read, so their order in the file does not matter.
// Tolerated as ccx does, with a warning: unknown keywords and unused options inside *MATERIAL
// (they do not end it), a lone '*', entries after an element's last node, undefined nodes in an
// *NSET (left out), numbers longer than ccx's 20 characters.
// Skipped: analysis, step, load and output keywords silently; model keywords that do not change
// mass, stiffness or connectivity (*FRICTION, *SURFACE INTERACTION, ...) with one info each;
// keywords that do (*TIE, *EQUATION, *MPC, *CONTACT PAIR, *TRANSFORM, anisotropic *ELASTIC,
// shell/beam/membrane sections, *GAP, ...) with a warning saying what is affected and a phrase
// in FeModel::model_changes, as are the couplings (not applied to K and M). Non-solid element
// blocks (CPS6, S8R, B31, ...) are skipped with a warning; truly unknown keywords too. Unknown
// and unsupported 3-D element types are errors.
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
