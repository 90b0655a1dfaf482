// Polygon data for the scene's shapes, each built in its own local frame. Callers place them
// with actor transforms, so a pose update never rebuilds geometry.
#pragma once

#include "core/model/model.h"

#include <vtkSmartPointer.h>

#include <vector>

class vtkActor;
class vtkPolyData;
class vtkMatrix4x4;

namespace flexim::render {

using Pose = Eigen::Isometry3d;

/// Rigid transform from a position and a unit quaternion (local -> parent).
Pose makePose(const Vec3& position, const Quat& orientation);
/// Row-major copy into a VTK matrix (for vtkProp3D::SetUserMatrix).
vtkSmartPointer<vtkMatrix4x4> toVtkMatrix(const Pose& pose);

/// Box centred at the origin with the given full edge lengths.
vtkSmartPointer<vtkPolyData> boxMesh(const Vec3& size);
/// Sphere centred at the origin.
vtkSmartPointer<vtkPolyData> sphereMesh(double radius);
/// A visual's box, cylinder (axis z) or sphere, centred at the origin of its axes (null for a mesh).
vtkSmartPointer<vtkPolyData> primitiveMesh(const VisualSpec& visual);
/// Joint glyph in the joint marker frame; the joint axis is z. `size` is the glyph diameter.
vtkSmartPointer<vtkPolyData> jointGlyph(JointType type, double size);
/// Tubes from the origin to each point (the links of a body from its centre of mass).
/// Points closer to the origin than radius are skipped. Returns an empty mesh when none remain.
vtkSmartPointer<vtkPolyData> linkTubes(const std::vector<Vec3>& ends, double radius);
/// Red/green/blue line triads (x/y/z) at each frame, coloured through unsigned-char cell scalars.
vtkSmartPointer<vtkPolyData> axisTriads(const std::vector<Pose>& frames, double length);
/// Square grid of lines centred at `centre` in the plane normal to `up`.
vtkSmartPointer<vtkPolyData> floorGrid(const Vec3& centre, const Vec3& up, double halfExtent,
                                       double spacing);
/// A zig-zag polyline from a to b (spring-damper elements). Move it with placeSpring.
vtkSmartPointer<vtkPolyData> springLine(const Vec3& a, const Vec3& b, double amplitude);
/// Rewrites the points of a springLine for new end points (same point count).
void placeSpring(vtkPolyData* spring, const Vec3& a, const Vec3& b, double amplitude);
/// Cone with its apex at the origin, opening along -axis (the "fixed to ground" symbol).
vtkSmartPointer<vtkPolyData> groundCone(const Vec3& axis, double height, double radius);

/// A load glyph along +z, `length` long: a force arrow whose tip is at the origin, or a
/// torque's double-headed arrow starting there.
vtkSmartPointer<vtkPolyData> loadArrow(double length, bool torque);
/// Draws an actor in front of the model's surfaces (a large depth offset): marks and handles
/// that sit inside a body stay visible.
void drawOnTop(vtkActor* actor);
/// Unit vector perpendicular to v (any one).
Vec3 anyPerpendicular(const Vec3& v);
/// 1, 2 or 5 times a power of ten, close to x (grid spacing).
double niceStep(double x);

}  // namespace flexim::render
