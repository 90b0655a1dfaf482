#include "io/mesh/mesh_file.h"

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <filesystem>

namespace flexim::io {

bool readTriangleMesh(const std::string& path, geometry::TriangleMesh& mesh, std::string& error, long* skipped) {
  const auto fail = [&](const std::string& why) {
    error = "cannot read '" + path + "': " + why;
    return false;
  };
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return fail(std::filesystem::exists(path, ec) ? "not a file" : "no such file");
  Assimp::Importer importer;
  // one set of triangles in the file's axes: node transforms baked in, polygons split. No
  // normal fixing (aiProcess_FixInfacingNormals): an inside-out surface must stay visible to
  // the mass properties.
  const aiScene* scene = importer.ReadFile(
      path, aiProcess_Triangulate | aiProcess_PreTransformVertices | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType);
  if (!scene || !scene->mRootNode) return fail(importer.GetErrorString());
  geometry::TriangleMesh read;
  long others = 0;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* part = scene->mMeshes[m];
    const int offset = static_cast<int>(read.vertices.size());
    for (unsigned v = 0; v < part->mNumVertices; ++v)
      read.vertices.emplace_back(part->mVertices[v].x, part->mVertices[v].y, part->mVertices[v].z);
    for (unsigned f = 0; f < part->mNumFaces; ++f) {
      const aiFace& face = part->mFaces[f];
      if (face.mNumIndices != 3) {
        ++others;
        continue;
      }
      read.triangles.push_back({offset + static_cast<int>(face.mIndices[0]), offset + static_cast<int>(face.mIndices[1]),
                                offset + static_cast<int>(face.mIndices[2])});
    }
  }
  if (read.triangles.empty()) return fail("no triangles in the file");
  mesh = std::move(read);
  if (skipped) *skipped = others;
  return true;
}

geometry::MassPropertiesReport meshFileMassProperties(const std::string& path, const geometry::MassPropertiesOptions& options) {
  geometry::TriangleMesh mesh;
  geometry::MassPropertiesReport r;
  long skipped = 0;
  if (!readTriangleMesh(path, mesh, r.error, &skipped)) return r;
  r = geometry::computeMassProperties(mesh, options);
  if (!r.ok) r.error = "no mass properties for '" + path + "': " + r.error;
  if (skipped > 0)
    r.warnings.push_back(std::to_string(skipped) + " points or lines of the file skipped (only triangles bound the solid)");
  return r;
}

}  // namespace flexim::io
