// The preview of an FE mesh before it is reduced (File → Import FE body…): its outer surface,
// the nodes of one node set highlighted, and a picked surface region (a bore or a face chosen as
// an interface). Points are in the mesh's own frame and units (metres).
#pragma once

#include "core/fe/fe_model.h"
#include "core/fe/surface_regions.h"

#include <vtkSmartPointer.h>

#include <array>
#include <vector>

class vtkActor;
class vtkPolyData;
class vtkRenderer;

namespace flexim::render {

class FePreview {
 public:
  FePreview();
  ~FePreview();
  FePreview(const FePreview&) = delete;
  FePreview& operator=(const FePreview&) = delete;

  /// Shows `mesh` (its outer surface; the nodes when it has no elements) and frames the camera.
  void setMesh(const fe::FeModel& mesh);
  vtkRenderer* renderer() const;
  /// Highlights these node indices (empty: none).
  void highlightNodes(const std::vector<int>& nodes);
  /// Colours these triangles of surface() (empty: none).
  void highlightFacets(const std::vector<int>& facets);
  /// The outer surface shown (node indices into the mesh's coords).
  const std::vector<std::array<int, 3>>& triangles() const { return m_triangles; }
  fe::TriangleSurface surface() const { return {m_coords, m_triangles}; }
  /// The triangle under a display position (pixels, origin bottom left), -1 for none.
  int pickFacet(double x, double y) const;
  /// Frames the whole mesh.
  void resetCamera();

 private:
  vtkSmartPointer<vtkRenderer> m_renderer;
  vtkSmartPointer<vtkActor> m_surface, m_nodes, m_region;
  std::vector<Eigen::Vector3d> m_coords;
  std::vector<std::array<int, 3>> m_triangles;
};

}  // namespace flexim::render
