// CalculiX ASCII result file (.frd) reader: nodes, elements and the mode shapes of a
// *FREQUENCY step (format: CalculiX GraphiX manual, 'Result Format').
//
// Reads the fixed-column records: the node block (2C), the element block (3C; frd element
// types 3 = C3D4, 6 = C3D10, 1 = 8-node hex, 4 = 20-node hex, 2 = 6-node wedge, 5 = 15-node
// wedge; the frd node order of 20-node hexes and 15-node wedges is converted back to the
// Abaqus order) and result blocks (100C). DISP blocks of frequency
// steps (analysis type 2) become mode shapes; their frequency in Hz is the value in columns
// 13-24 of the 100C line. Other result blocks (STRESS, ERROR, static DISP, ...) are checked
// for structure and skipped. Both the long (format 1) and short (format 0) ASCII layouts are
// read; binary frd data (*NODE OUTPUT) is an error.
#pragma once

#include "core/base/diagnostics.h"
#include "core/fe/fe_model.h"

#include <string>
#include <string_view>

namespace flexim::io {

/// Reads path into out:
/// - if out has no nodes, out gets the frd's nodes (6 significant digits), elements and
///   material names;
/// - otherwise every frd node and element must be in out (same id, coordinates within about
///   1e-5 relative, same nodes), or the read fails;
/// - out.modes becomes the DISP blocks of frequency steps, 3 * out.nodeCount() x modes,
///   node-major in out's node index order (rows of nodes without results are zero), and
///   out.frequencies_hz their frequencies. The modes are mass-normalised (ccx's 1PGM = 1).
/// On failure returns false and leaves out unchanged.
bool readCalculixFrd(const std::string& path, fe::FeModel& out, Diagnostics& diag);

/// Same for frd text held in memory; source names it in messages.
bool readCalculixFrdFromString(std::string_view text, const std::string& source, fe::FeModel& out,
                               Diagnostics& diag);

}  // namespace flexim::io
