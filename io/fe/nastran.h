// Nastran bulk data (.bdf, .nas, .dat) reader: grids, solid elements, MAT1 and PSOLID, into
// the common FE model (core/fe/fe_model.h).
//
// Cards: GRID (CP and CD blank or 0 only: other coordinate systems are errors), CTETRA (4 or
// 10 grids), CPYRAM (5 or 13), CPENTA (6 or 15), CHEXA (8 or 20), PSOLID (PID -> MID), MAT1 (E,
// G, NU, RHO; a missing one of E, G, NU is derived from the other two; NU = 0 if only E is
// given, as Nastran does).
// Element node order is mapped to the Abaqus/CalculiX one (nastranToAbaqus()): CTETRA G5..G10
// are the edges 1-2, 2-3, 3-1, 1-4, 2-4, 3-4 like C3D10; CHEXA G13..G16 and CPENTA G10..G12 are
// the vertical edges and CHEXA G17..G20, CPENTA G13..G15 the top edges, the other way round in
// C3D20 and C3D15; CPYRAM is the pyramids' own order (C3D5, C3D13).
// Model: node ids = GRID ids, element ids = EIDs, one material "MAT1_<mid>" per MAT1 card, one
// element set "PSOLID_<pid>" per property used. Nodes and elements keep the file order.
//
// Syntax: small field (8 columns, fields 2..9 in columns 9..72, column 73..80 a continuation
// marker that is not checked), large field (name ending in '*', 16-column fields, continuation
// lines starting with '*'), free field (commas; "GRID*," for large free field), mixed in one
// file. A line continues the card above when it starts with '+' or '*', or when its first field
// is blank (8 blank columns, or a leading comma in free field). Tabs are expanded to 8-column
// stops. '$' starts a comment. Card names are case-insensitive. Reals may use Nastran's
// implicit exponent ("2.1+11", "-.5-3") or D exponents. If the file has a "BEGIN BULK" line,
// everything before it (executive and case control) is skipped; "ENDDATA" ends the data.
// "INCLUDE 'file'" reads another file (path relative to the including file).
// Cards that are not part of the solid model are skipped: analysis, load and output cards
// (PARAM, EIGRL, SPC1, CORD2R, ...) with one info per card name, structural cards that the
// model cannot hold (CQUAD4, CBAR, CONM2, RBE2, PSHELL, MAT9, ...) and unknown names with one
// warning per card name.
// Every problem is reported as "file:line: message"; no input crashes or hangs the reader.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/base/diagnostics.h"
#include "core/fe/fe_model.h"

namespace flexim::io {

struct NastranOptions {
  bool follow_includes = true;  ///< false: INCLUDE is reported as an error (in-memory decks, fuzzing)
  int max_errors = 50;          ///< stop reading after this many errors
};

/// Reads the bulk data at path. On success replaces out with the model (sources = the file and
/// its includes) and returns true; on failure returns false, reports errors and leaves out
/// unchanged. Warnings and infos do not make it fail.
bool readNastranBulk(const std::string& path, fe::FeModel& out, Diagnostics& diag, const NastranOptions& options = {});

/// Same for bulk data held in memory; source names it in messages, and INCLUDE paths are
/// relative to its directory.
bool readNastranBulkFromString(std::string_view text, const std::string& source, fe::FeModel& out, Diagnostics& diag,
                               const NastranOptions& options = {});

/// Node-order map from a Nastran solid (CTETRA 4/10 grids, CPYRAM 5/13, CPENTA 6/15, CHEXA 8/20)
/// to the FE element type's Abaqus order: abaqus[i] = nastran[map[i]].
std::span<const int> nastranToAbaqus(fe::ElementType type);

/// Parses a Nastran real field: "1.5", "1.", ".5", "1.5E+3", "1.5D3", "2.1+11", "-.5-3".
/// An integer is accepted as well. Rejects NaN, Inf and trailing text.
bool parseNastranReal(std::string_view field, double& out, std::string* problem = nullptr);

}  // namespace flexim::io
