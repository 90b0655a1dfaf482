#include "render/visual_mesh.h"

#include "io/mesh/mesh_file.h"

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
  geometry::TriangleMesh mesh;
  if (!io::readTriangleMesh(path, mesh, error)) return nullptr;  // error names the file
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(static_cast<vtkIdType>(mesh.vertices.size()));
  for (std::size_t v = 0; v < mesh.vertices.size(); ++v)
    points->SetPoint(static_cast<vtkIdType>(v), mesh.vertices[v].data());
  auto triangles = vtkSmartPointer<vtkCellArray>::New();
  const auto count = static_cast<vtkIdType>(mesh.triangles.size());
  triangles->AllocateExact(count, 3 * count);
  for (const auto& t : mesh.triangles) {
    const vtkIdType ids[3] = {t[0], t[1], t[2]};
    triangles->InsertNextCell(3, ids);
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
      auto poly = readMesh(path, error);
      if (!poly) return nullptr;
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
