// Nastran bulk data (.bdf, .nas, .dat and include fragments) reader: grids, solid elements,
// MAT1 and PSOLID, masses and springs, RBE2/RBE3 couplings, into the common FE model
// (core/fe/fe_model.h). docs/fe-support.md ("Nastran") lists every card and what happens to it.
//
// Cards: GRID (CP: the position is converted to the basic system; CD: kept per node in
// FeModel::node_cd / node_cd_axes), GRDSET (default CP and CD), CORD1R/1C/1S and CORD2R/2C/2S
// (nested through RID, CP and the grids of a CORD1; cycles and undefined systems are errors),
// CTETRA (4 or 10 grids), CPYRAM (5 or 13), CPENTA (6 or 15), CHEXA (8 or 20 grids), PSOLID (PID -> MID), MAT1 (E, G, NU, RHO; a
// missing one of E, G, NU is derived from the other two; NU = 0 if only E is given, as Nastran
// does), CONM1/CONM2/CMASS1/CMASS2/CELAS1/CELAS2/CBUSH (+ PMASS, PELAS, PBUSH) into M and K,
// RBE2 and RBE3 into FeModel::couplings (interface candidates, not in K or M).
// Element node order is mapped to the Abaqus/CalculiX one (nastranToAbaqus()): CTETRA G5..G10
// are the edges 1-2, 2-3, 3-1, 1-4, 2-4, 3-4 like C3D10; CHEXA G13..G16 and CPENTA G10..G12 are
// the vertical edges and CHEXA G17..G20, CPENTA G13..G15 the top edges, the other way round in
// C3D20 and C3D15; CPYRAM is the pyramids' own order (C3D5, C3D13).
// Model: node ids = GRID ids, element ids = EIDs, one material "MAT1_<mid>" per MAT1 card, one
// element set "PSOLID_<pid>" per property used. Nodes and elements keep the file order.
//
// Syntax: small field (8 columns, fields 2..9 in columns 9..72, column 73..80 a continuation
// marker that is not checked), large field (name ending in '*', 16-column fields, continuation
// lines starting with '*'), free field (commas; "GRID*," for large free field; a trailing comma
// is allowed), mixed in one file. A line continues the card above when it starts with '+' or
// '*', or when its first field is blank. Tabs are expanded to 8-column stops. '$' starts a
// comment. Card names are case-insensitive. Reals may use Nastran's implicit exponent
// ("2.1+11", "-.5-3") or D exponents. Replication: a card "=" copies the card before with the
// codes of its fields ("=" the same field, "==" this and every later field, "*x" or "*(x)" the
// field plus x, a value or a blank as written); "=n" or "=(n)" makes n more cards with the same
// codes. If the file has a main "BEGIN BULK" line, everything before it (executive and case
// control) is skipped; "ENDDATA" ends the data. "BEGIN SUPER=n" and other BEGIN sections are
// counted and reported, not read, up to the next BEGIN or ENDDATA. "INCLUDE 'file'" reads
// another file (path relative to the including file).
// Cards that are not read are skipped with one message per card name and count: an info for
// cards that do not change the model (loads, SPCs, output, optimisation: nastran_skipped.h), a
// warning and a FeModel::model_changes phrase for those that do (shells, beams, MPC, RBAR,
// contact, ...) and for unknown names; DEQATN's free-text equations are passed over.
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
