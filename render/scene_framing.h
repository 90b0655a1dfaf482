// Where the model is and how to look at it: bounds of the model, the up direction and a
// default camera that shows a planar linkage face-on (with a little perspective) and a
// spatial one from an isometric direction.
#pragma once

#include "core/model/model.h"

#include <vector>

class vtkRenderer;

namespace flexim::render {

class SceneBounds {
 public:
  void add(const Vec3& point, double radius = 0.0);
  bool empty() const { return m_empty; }
  Vec3 min() const { return m_min; }
  Vec3 max() const { return m_max; }
  Vec3 centre() const { return 0.5 * (m_min + m_max); }
  Vec3 extent() const { return m_empty ? Vec3::Zero() : Vec3(m_max - m_min); }
  double diagonal() const { return extent().norm(); }

 private:
  bool m_empty = true;
  Vec3 m_min = Vec3::Zero();
  Vec3 m_max = Vec3::Zero();
};

/// Against gravity; +z when the model has no gravity.
Vec3 upDirection(const Vec3& gravity);
/// Normal of the plane a linkage moves in: the common axis of all revolute and cylindrical
/// joints (world axes, initial configuration), signed towards the positive coordinate axes.
/// Zero when there are no such joints or their axes are not parallel.
Vec3 motionPlaneNormal(const std::vector<Vec3>& jointAxes);
/// Direction from the focal point to the camera for the default view (unit). A planar
/// mechanism (non-zero planeNormal, or flat bounds) is seen face-on with a little perspective.
Vec3 defaultViewDirection(const SceneBounds& bounds, const Vec3& up,
                          const Vec3& planeNormal = Vec3::Zero());
/// Points the renderer's active camera at the bounds along defaultViewDirection and fits them.
void frameCamera(vtkRenderer& renderer, const SceneBounds& bounds, const Vec3& up,
                 const Vec3& planeNormal = Vec3::Zero());
/// The same along a given direction (focal point to camera, unit).
/// `fill`: the share of the half-width/height the box's corners reach (0.85 leaves a margin;
/// less keeps the right edge clear for a colour bar).
void frameCameraAlong(vtkRenderer& renderer, const SceneBounds& bounds, const Vec3& up, const Vec3& direction,
                      double fill = 0.85);

/// The standard views: the default one, and along the axes seen from "up".
enum class ViewPreset { Default, Front, Back, Left, Right, Top, Bottom, Isometric };
/// Direction from the focal point to the camera for a preset (unit). Front looks along the
/// horizontal "front" axis (the y axis when z is up), Top down against up.
Vec3 presetViewDirection(ViewPreset preset, const SceneBounds& bounds, const Vec3& up,
                         const Vec3& planeNormal = Vec3::Zero());

}  // namespace flexim::render
