// Visual meshes of rigid bodies, read with Assimp (STL, OBJ, PLY, glTF, ...; io/mesh/mesh_file.h):
// every mesh of the file in one triangle surface, in the file's own axes, scaled to metres. A file is read once
// per modification time: a model rebuilt after an edit does not read it again.
#pragma once

#include <vtkSmartPointer.h>

#include <string>

class vtkPolyData;

namespace flexim::render {

/// The file's triangles (node transforms applied), points multiplied by scale; null with error
/// set to why not (the file is missing, Assimp cannot read it, it has no triangles).
vtkSmartPointer<vtkPolyData> loadVisualMesh(const std::string& path, double scale, std::string& error);

}  // namespace flexim::render
