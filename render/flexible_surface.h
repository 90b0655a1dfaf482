// The display surface of a reduced flexible body (fe::ReducedBody::surface), deformed by modal
// coordinates. Everything that depends only on the body is precomputed once: the surface nodes
// and their mode-shape rows, so a new set of modal coordinates costs one small dense product
// over the surface nodes (u = Phi_s w) and rewrites the points in place.
// Points are in the FE (body) frame; the owner places the actor with the body pose.
#pragma once

#include "core/fe/reduced_body.h"
#include "core/model/model.h"

#include <vtkSmartPointer.h>

#include <vector>

class vtkDoubleArray;
class vtkPolyData;

namespace flexim::render {

class FlexibleSurface {
 public:
  /// Name of the point array with |u| (true elastic displacement magnitude [m], not scaled).
  static constexpr const char* kDisplacementArray = "displacement";

  /// Uses the first `modeCount` modes of the body (0 or more than it has: all of them).
  /// Without display triangles, the nodes are shown as points.
  FlexibleSurface(const fe::ReducedBody& body, int modeCount);
  ~FlexibleSurface();
  FlexibleSurface(const FlexibleSurface&) = delete;
  FlexibleSurface& operator=(const FlexibleSurface&) = delete;

  int modeCount() const { return int(m_phi.cols()); }
  /// Node index (into ReducedBody::coords) of each point of mesh().
  const std::vector<int>& nodes() const { return m_nodes; }
  /// Triangles (or vertices when the body has no surface), body-frame points, point scalars
  /// kDisplacementArray.
  vtkPolyData* mesh() const;
  bool hasTriangles() const { return m_hasTriangles; }

  /// Modal coordinates; a vector shorter than modeCount() sets the first modes and zeroes the
  /// rest. Returns false (and changes nothing) when it is longer or not finite.
  bool setModal(const Eigen::VectorXd& modal);
  const Eigen::VectorXd& modal() const { return m_modal; }
  /// Multiplies the displayed displacement (not the colours): x + scale * Phi w.
  void setScale(double scale);
  double scale() const { return m_scale; }

  /// Largest |Phi w| over the surface nodes for these modal coordinates (0 if they do not fit).
  double maxDisplacement(const Eigen::VectorXd& modal) const;
  /// Largest |u| of the current modal coordinates.
  double currentMaxDisplacement() const { return m_currentMax; }
  /// Undeformed surface points, body frame.
  const std::vector<Vec3>& undeformed() const { return m_undeformed; }
  /// True elastic displacement u = Phi w of surface point i (body frame, not scaled).
  Vec3 displacement(std::size_t i) const;
  /// The surface point nearest to p (body frame, as drawn: deformation scale included).
  std::size_t nearestPoint(const Vec3& p) const;

 private:
  void update();

  std::vector<int> m_nodes;
  std::vector<Vec3> m_undeformed;
  Eigen::VectorXd m_base;  ///< 3k undeformed coordinates of the surface nodes
  Eigen::MatrixXd m_phi;   ///< 3k x m mode-shape rows of the surface nodes
  Eigen::VectorXd m_modal;
  Eigen::VectorXd m_u;     ///< 3k displacement of the current modal coordinates
  double m_scale = 1.0;
  double m_currentMax = 0.0;
  bool m_hasTriangles = false;
  vtkSmartPointer<vtkPolyData> m_mesh;
  vtkSmartPointer<vtkDoubleArray> m_magnitude;
};

}  // namespace flexim::render
