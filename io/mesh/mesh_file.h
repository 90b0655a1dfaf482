// Triangle meshes from files, read with Assimp (STL ascii and binary, OBJ, PLY, glTF/GLB, and
// whatever else Assimp reads): the one Assimp reader of Flexim, for visual meshes (render) and
// for the mass properties of a mesh (flexim-cli mass-properties, the GUI).
#pragma once

#include "core/geometry/mass_properties.h"

#include <string>

namespace flexim::io {

/// Every triangle of the file in one mesh, in the file's axes and units: the node transforms
/// baked in, polygons split into triangles, the meshes of the file one after the other (their
/// vertices not merged: see geometry::weldVertices). Points and lines of the file are skipped
/// (counted in skipped, if given). Assimp stores coordinates as 32-bit floats, whatever the file
/// holds. False with error set ("cannot read 'PATH': why") when the file is missing, Assimp
/// cannot read it, or it holds no triangles; mesh is then unchanged.
bool readTriangleMesh(const std::string& path, geometry::TriangleMesh& mesh, std::string& error, long* skipped = nullptr);

/// Mass properties of the solid a mesh file bounds (readTriangleMesh, then
/// geometry::computeMassProperties): error is "cannot read 'PATH': why" or "no mass properties
/// for 'PATH': what is wrong with the surface".
geometry::MassPropertiesReport meshFileMassProperties(const std::string& path, const geometry::MassPropertiesOptions& options);

}  // namespace flexim::io
