#include "render/scene_framing.h"

#include <algorithm>
#include <cmath>

#include "render/geometry.h"

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <cmath>

namespace flexim::render {

void SceneBounds::add(const Vec3& point, double radius) {
  const Vec3 r = Vec3::Constant(radius);
  if (m_empty) {
    m_min = point - r;
    m_max = point + r;
    m_empty = false;
    return;
  }
  m_min = m_min.cwiseMin(point - r);
  m_max = m_max.cwiseMax(point + r);
}

Vec3 upDirection(const Vec3& gravity) {
  return gravity.norm() > 1e-12 ? Vec3(-gravity.normalized()) : Vec3(Vec3::UnitZ());
}

Vec3 motionPlaneNormal(const std::vector<Vec3>& jointAxes) {
  if (jointAxes.empty()) return Vec3::Zero();
  Vec3 normal = jointAxes.front().normalized();
  for (const Vec3& axis : jointAxes)
    if (std::abs(axis.normalized().dot(normal)) < 0.999) return Vec3::Zero();
  int largest = 0;
  normal.cwiseAbs().maxCoeff(&largest);
  return normal(largest) < 0 ? Vec3(-normal) : normal;
}

namespace {

// The flat direction of the bounds, preferring one across "up" (a linkage standing upright).
bool flatDirection(const SceneBounds& bounds, const Vec3& up, Vec3& normal) {
  const Vec3 extent = bounds.extent();
  const double largest = extent.maxCoeff();
  bool found = false;
  for (int axis = 0; axis < 3; ++axis) {
    if (extent(axis) >= 0.25 * largest) continue;
    const bool acrossUp = std::abs(Vec3::Unit(axis).dot(up)) < 0.9;
    if (!found || acrossUp) {
      normal = Vec3::Unit(axis);
      found = true;
      if (acrossUp) break;
    }
  }
  return found;
}

}  // namespace

Vec3 defaultViewDirection(const SceneBounds& bounds, const Vec3& up, const Vec3& planeNormal) {
  Vec3 normal = planeNormal;
  const bool planar = planeNormal.norm() > 0.5 || flatDirection(bounds, up, normal);
  const bool lyingFlat = planar && std::abs(normal.normalized().dot(up)) > 0.9;

  // a camera on the "front" side sees "side" pointing to the right (not a mirrored view)
  const Vec3 side = anyPerpendicular(up);
  const Vec3 front = side.cross(up);
  Vec3 direction;
  if (planar && !lyingFlat) {
    // face-on, turned a little so the joint glyphs show depth
    const Vec3 across = up.cross(normal).normalized();
    direction = normal + 0.45 * across + 0.3 * up;
  } else if (planar) {
    direction = up + 0.6 * front + 0.3 * side;  // looking down at a flat layout
  } else {
    direction = front + 0.8 * side + 0.7 * up;  // isometric-like
  }
  return direction.normalized();
}

void frameCamera(vtkRenderer& renderer, const SceneBounds& bounds, const Vec3& up,
                 const Vec3& planeNormal) {
  frameCameraAlong(renderer, bounds, up, defaultViewDirection(bounds, up, planeNormal));
}

Vec3 presetViewDirection(ViewPreset preset, const SceneBounds& bounds, const Vec3& up, const Vec3& planeNormal) {
  // the same right-handed horizontal axes as the default view
  const Vec3 side = anyPerpendicular(up);
  const Vec3 front = side.cross(up);
  switch (preset) {
    case ViewPreset::Default: return defaultViewDirection(bounds, up, planeNormal);
    case ViewPreset::Front: return -front;
    case ViewPreset::Back: return front;
    case ViewPreset::Right: return side;
    case ViewPreset::Left: return -side;
    case ViewPreset::Top: return up;
    case ViewPreset::Bottom: return -up;
    case ViewPreset::Isometric: return (-front + side + up).normalized();
  }
  return defaultViewDirection(bounds, up, planeNormal);
}

void frameCameraAlong(vtkRenderer& renderer, const SceneBounds& bounds, const Vec3& up, const Vec3& direction,
                      double fill) {
  vtkCamera* camera = renderer.GetActiveCamera();
  const Vec3 centre = bounds.empty() ? Vec3::Zero() : bounds.centre();
  const double distance = std::max(bounds.diagonal(), 1e-3) * 2.0;
  const Vec3 position = centre + distance * direction;
  camera->SetFocalPoint(centre.x(), centre.y(), centre.z());
  camera->SetPosition(position.x(), position.y(), position.z());
  // looking straight down (or up), "up" on screen is the far horizontal direction instead
  const Vec3 screenUp = std::abs(direction.dot(up)) > 0.999 ? Vec3(anyPerpendicular(up).cross(up)) : up;
  camera->SetViewUp(screenUp.x(), screenUp.y(), screenUp.z());
  camera->OrthogonalizeViewUp();
  camera->SetViewAngle(30.0);
  if (bounds.empty()) {
    renderer.ResetCameraClippingRange();
    return;
  }
  const Vec3 lo = bounds.min(), hi = bounds.max();
  double box[6] = {lo.x(), hi.x(), lo.y(), hi.y(), lo.z(), hi.z()};
  renderer.ResetCamera(box);
  // ResetCamera fits a bounding sphere, which leaves wide margins: zoom in until the box's
  // corners reach `fill` of the view (at most 1.3x)
  double reach = 0.0;
  for (int corner = 0; corner < 8; ++corner) {
    renderer.SetWorldPoint(box[corner & 1], box[2 + ((corner >> 1) & 1)], box[4 + ((corner >> 2) & 1)], 1.0);
    renderer.WorldToView();
    const double* v = renderer.GetViewPoint();
    reach = std::max({reach, std::abs(v[0]), std::abs(v[1])});
  }
  camera->Zoom(reach > 0 ? std::min(1.3, fill / reach) : 1.3);
}

}  // namespace flexim::render
