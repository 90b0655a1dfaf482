// Gmsh mesh file (.msh version 4.1, ASCII) reader: nodes, solid elements and physical groups,
// into the common FE model (core/fe/fe_model.h).
//
// Sections: $MeshFormat (must be "4.1 0 <size_t size>"; binary files and other versions are
// errors naming the fix: Mesh.MshFileVersion = 4.1, Mesh.Binary = 0), $PhysicalNames,
// $Entities (which physical groups each geometric entity belongs to), $Nodes, $Elements.
// Other sections ($Comments, $NodeData, $Periodic, ...) are skipped with an info each;
// $PartitionedEntities is an error (save the unpartitioned mesh).
//
// Elements: volume elements of type 4 (tet4 -> C3D4), 11 (tet10 -> C3D10), 5 (hex8 -> C3D8),
// 17 (hex20 -> C3D20), 6 (prism6 -> C3D6), 18 (prism15 -> C3D15), 7 (pyramid5 -> C3D5) and 19
// (pyramid13 -> C3D13) become FE elements, with their node order mapped from gmsh's to the
// Abaqus/CalculiX one (gmshToAbaqus(); docs/fe-support.md, Elements). Other volume types (the complete
// second-order hex27, prism18, pyramid14: save with Mesh.SecondOrderIncomplete = 1; tet20, ...)
// are errors. Points, lines, triangles and quadrangles (any order) only
// feed node sets. Element ids are gmsh's element tags; node ids are gmsh's node tags. All
// nodes of $Nodes are kept, in file order.
//
// Physical groups: a group's name comes from $PhysicalNames (upper case; unnamed groups are
// called "PHYSICAL_<dim>D_<tag>"). Every physical group gives a node set of the nodes of its
// elements; a volume group also gives an element set of its elements. Groups of different
// dimensions with the same name share one node set. Sets are sorted and free of duplicates.
// Elements of entities without a physical group are read like the others (gmsh saves them
// only with Mesh.SaveAll = 1).
//
// Every problem is reported as "file:line: message"; no input crashes or hangs the reader.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/base/diagnostics.h"
#include "core/fe/fe_model.h"

namespace flexim::io {

struct MshOptions {
  int max_errors = 50;  ///< stop reading after this many errors
};

/// Reads the mesh at path. On success replaces out with the mesh (sources = {path}) and
/// returns true; on failure returns false, reports errors and leaves out unchanged. Warnings
/// and infos do not make it fail.
bool readGmshMsh(const std::string& path, fe::FeModel& out, Diagnostics& diag, const MshOptions& options = {});

/// Same for a file held in memory; source names it in messages.
bool readGmshMshFromString(std::string_view text, const std::string& source, fe::FeModel& out, Diagnostics& diag,
                           const MshOptions& options = {});

/// Node-order map of a supported gmsh volume element type: abaqus[i] = gmsh[map[i]].
/// Empty for types that are not imported as FE elements.
std::span<const int> gmshToAbaqus(int gmshType);

}  // namespace flexim::io
