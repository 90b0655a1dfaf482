#include "render/fe_preview.h"

#include "core/fe/surface.h"
#include "render/palette.h"

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCellPicker.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>

namespace flexim::render {

namespace {

vtkSmartPointer<vtkActor> actorOf(vtkPolyData* data, const Rgb& colour) {
  auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  mapper->SetInputData(data);
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  actor->GetProperty()->SetColor(colour[0], colour[1], colour[2]);
  return actor;
}

vtkSmartPointer<vtkPoints> pointsOf(const std::vector<Eigen::Vector3d>& coords) {
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(vtkIdType(coords.size()));
  for (std::size_t i = 0; i < coords.size(); ++i) points->SetPoint(vtkIdType(i), coords[i].data());
  return points;
}

vtkSmartPointer<vtkPolyData> trianglesOf(vtkPoints* points, const std::vector<std::array<int, 3>>& triangles,
                                         const std::vector<int>& which) {
  auto cells = vtkSmartPointer<vtkCellArray>::New();
  const auto add = [&](const std::array<int, 3>& t) {
    const vtkIdType ids[3] = {t[0], t[1], t[2]};
    cells->InsertNextCell(3, ids);
  };
  if (which.empty())
    for (const auto& t : triangles) add(t);
  else
    for (int f : which)
      if (f >= 0 && std::size_t(f) < triangles.size()) add(triangles[std::size_t(f)]);
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->SetPoints(points);
  data->SetPolys(cells);
  return data;
}

vtkSmartPointer<vtkPolyData> verticesOf(vtkPoints* points, const std::vector<int>& nodes) {
  auto cells = vtkSmartPointer<vtkCellArray>::New();
  for (int n : nodes)
    if (n >= 0 && n < points->GetNumberOfPoints()) {
      const vtkIdType id = n;
      cells->InsertNextCell(1, &id);
    }
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->SetPoints(points);
  data->SetVerts(cells);
  return data;
}

constexpr Rgb kMeshColour{0.70, 0.76, 0.86};
constexpr Rgb kSetColour{1.00, 0.55, 0.10};
constexpr Rgb kRegionColour{0.95, 0.30, 0.25};

}  // namespace

FePreview::FePreview() : m_renderer(vtkSmartPointer<vtkRenderer>::New()) {
  m_renderer->GradientBackgroundOn();
  m_renderer->SetBackground(kBackgroundBottom[0], kBackgroundBottom[1], kBackgroundBottom[2]);
  m_renderer->SetBackground2(kBackgroundTop[0], kBackgroundTop[1], kBackgroundTop[2]);
}

FePreview::~FePreview() = default;

vtkRenderer* FePreview::renderer() const { return m_renderer; }

void FePreview::setMesh(const fe::FeModel& mesh) {
  m_renderer->RemoveAllViewProps();
  m_nodes = m_region = nullptr;
  m_coords = mesh.coords;
  m_triangles = fe::outerSurface(mesh);
  auto points = pointsOf(m_coords);
  if (m_triangles.empty()) {
    std::vector<int> all(m_coords.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = int(i);
    m_surface = actorOf(verticesOf(points, all), kMeshColour);
    m_surface->GetProperty()->SetPointSize(3);
  } else {
    m_surface = actorOf(trianglesOf(points, m_triangles, {}), kMeshColour);
    m_surface->GetProperty()->EdgeVisibilityOn();
    m_surface->GetProperty()->SetEdgeColor(0.35, 0.40, 0.48);
  }
  m_renderer->AddActor(m_surface);
  resetCamera();
}

void FePreview::highlightNodes(const std::vector<int>& nodes) {
  if (m_nodes) m_renderer->RemoveActor(m_nodes);
  m_nodes = nullptr;
  if (nodes.empty() || m_coords.empty()) return;
  m_nodes = actorOf(verticesOf(pointsOf(m_coords), nodes), kSetColour);
  m_nodes->GetProperty()->SetPointSize(7);
  m_nodes->GetProperty()->RenderPointsAsSpheresOn();
  m_nodes->PickableOff();
  m_renderer->AddActor(m_nodes);
}

void FePreview::highlightFacets(const std::vector<int>& facets) {
  if (m_region) m_renderer->RemoveActor(m_region);
  m_region = nullptr;
  if (facets.empty() || m_coords.empty()) return;
  m_region = actorOf(trianglesOf(pointsOf(m_coords), m_triangles, facets), kRegionColour);
  m_region->PickableOff();
  // drawn over the surface it lies on
  m_region->GetMapper()->SetResolveCoincidentTopologyToPolygonOffset();
  m_renderer->AddActor(m_region);
}

int FePreview::pickFacet(double x, double y) const {
  if (!m_surface || m_triangles.empty()) return -1;
  auto picker = vtkSmartPointer<vtkCellPicker>::New();
  picker->SetTolerance(0.002);
  picker->PickFromListOn();
  picker->AddPickList(m_surface);
  if (!picker->Pick(x, y, 0.0, m_renderer) || picker->GetActor() != m_surface.GetPointer()) return -1;
  return int(picker->GetCellId());
}

void FePreview::resetCamera() {
  vtkCamera* camera = m_renderer->GetActiveCamera();
  camera->SetPosition(1, 0.8, 1.2);
  camera->SetFocalPoint(0, 0, 0);
  camera->SetViewUp(0, 1, 0);
  m_renderer->ResetCamera();
}

}  // namespace flexim::render
