#include "render/visual_mesh.h"

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <vtkCellArray.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>

#include <filesystem>
#include <map>
#include <mutex>

namespace flexim::render {

namespace {

struct CachedMesh {
  std::filesystem::file_time_type modified;
  vtkSmartPointer<vtkPolyData> unscaled;
};

vtkSmartPointer<vtkPolyData> readMesh(const std::string& path, std::string& error) {
  Assimp::Importer importer;
  // one set of triangles in the file's axes: node transforms baked in, polygons split
  const aiScene* scene = importer.ReadFile(
      path, aiProcess_Triangulate | aiProcess_PreTransformVertices | aiProcess_JoinIdenticalVertices |
                aiProcess_SortByPType);
  if (!scene || !scene->mRootNode) {
    error = importer.GetErrorString();
    return nullptr;
  }
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetDataTypeToDouble();
  auto triangles = vtkSmartPointer<vtkCellArray>::New();
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* mesh = scene->mMeshes[m];
    const vtkIdType offset = points->GetNumberOfPoints();
    for (unsigned v = 0; v < mesh->mNumVertices; ++v)
      points->InsertNextPoint(mesh->mVertices[v].x, mesh->mVertices[v].y, mesh->mVertices[v].z);
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
      const aiFace& face = mesh->mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines of the file are not drawn
      const vtkIdType ids[3] = {offset + face.mIndices[0], offset + face.mIndices[1], offset + face.mIndices[2]};
      triangles->InsertNextCell(3, ids);
    }
  }
  if (triangles->GetNumberOfCells() == 0) {
    error = "no triangles in the file";
    return nullptr;
  }
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->SetPoints(points);
  poly->SetPolys(triangles);
  return poly;
}

}  // namespace

vtkSmartPointer<vtkPolyData> loadVisualMesh(const std::string& path, double scale, std::string& error) {
  static std::mutex mutex;
  static std::map<std::string, CachedMesh> cache;
  std::error_code ec;
  const auto modified = std::filesystem::last_write_time(path, ec);
  if (ec) {
    error = "cannot read '" + path + "': " + ec.message();
    return nullptr;
  }
  vtkSmartPointer<vtkPolyData> unscaled;
  {
    const std::lock_guard lock(mutex);
    auto it = cache.find(path);
    if (it == cache.end() || it->second.modified != modified) {
      std::string why;
      auto poly = readMesh(path, why);
      if (!poly) {
        error = "cannot read '" + path + "': " + why;
        return nullptr;
      }
      it = cache.insert_or_assign(path, CachedMesh{modified, poly}).first;
    }
    unscaled = it->second.unscaled;
  }
  // the scaled copy belongs to the caller: the cached surface stays as read
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(unscaled->GetNumberOfPoints());
  for (vtkIdType i = 0; i < unscaled->GetNumberOfPoints(); ++i) {
    double p[3];
    unscaled->GetPoint(i, p);
    points->SetPoint(i, scale * p[0], scale * p[1], scale * p[2]);
  }
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->SetPoints(points);
  poly->SetPolys(unscaled->GetPolys());
  return poly;
}

}  // namespace flexim::render
