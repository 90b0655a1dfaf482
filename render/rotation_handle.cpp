#include "render/rotation_handle.h"

#include <vtkActor.h>
#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkMatrix4x4.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRegularPolygonSource.h>
#include <vtkRenderer.h>
#include <vtkTubeFilter.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace flexim::render {

namespace {

constexpr int kRingPoints = 96;
/// x, y, z as the axis triads draw them
constexpr double kAxisRgb[3][3] = {{0.90, 0.16, 0.16}, {0.16, 0.78, 0.16}, {0.20, 0.35, 1.00}};
constexpr double kActiveRgb[3] = {1.00, 0.86, 0.20};

/// The ring about axis `axis` in its own frame: a circle of radius 1 in the plane normal to z,
/// turned so that its normal is that axis.
Pose ringInFrame(int axis) {
  if (axis == 0) return Pose(Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitY()));
  if (axis == 1) return Pose(Eigen::AngleAxisd(-std::numbers::pi / 2, Vec3::UnitX()));
  return Pose::Identity();
}

/// Point `i` of kRingPoints on ring `axis` of radius r, in the handle's frame.
Vec3 ringPoint(int axis, int i, double r) {
  const double a = 2 * std::numbers::pi * i / kRingPoints;
  return ringInFrame(axis) * Vec3(r * std::cos(a), r * std::sin(a), 0.0);
}

double distanceToSegment(const Eigen::Vector2d& p, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  const Eigen::Vector2d ab = b - a;
  const double length2 = ab.squaredNorm();
  const double t = length2 > 0 ? std::clamp((p - a).dot(ab) / length2, 0.0, 1.0) : 0.0;
  return (a + t * ab - p).norm();
}

}  // namespace

RotationHandle::RotationHandle() {
  for (int axis = 0; axis < 3; ++axis) {
    auto circle = vtkSmartPointer<vtkRegularPolygonSource>::New();
    circle->SetNumberOfSides(kRingPoints);
    circle->SetRadius(1.0);
    circle->GeneratePolygonOff();
    circle->GeneratePolylineOn();
    auto tube = vtkSmartPointer<vtkTubeFilter>::New();
    tube->SetInputConnection(circle->GetOutputPort());
    tube->SetRadius(0.025);
    tube->SetNumberOfSides(8);
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputConnection(tube->GetOutputPort());
    auto& ring = m_rings[static_cast<std::size_t>(axis)];
    ring = vtkSmartPointer<vtkActor>::New();
    ring->SetMapper(mapper);
    ring->PickableOff();  // found by ringAt, not by the scene's picker
    ring->GetProperty()->SetAmbient(0.5);
    drawOnTop(ring);
  }
  auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  mapper->SetInputData(axisTriads({Pose::Identity()}, 1.0));
  m_triad = vtkSmartPointer<vtkActor>::New();
  m_triad->SetMapper(mapper);
  m_triad->PickableOff();
  m_triad->GetProperty()->SetLineWidth(3.0);
  m_triad->GetProperty()->LightingOff();
  drawOnTop(m_triad);
  setActive(-1);
}

RotationHandle::~RotationHandle() { hide(); }

void RotationHandle::show(vtkRenderer* renderer, const Pose& frame, double pixels) {
  if (m_renderer && m_renderer != renderer) hide();
  if (!m_renderer) {
    auto resize = vtkSmartPointer<vtkCallbackCommand>::New();
    resize->SetClientData(this);
    resize->SetCallback([](vtkObject*, unsigned long, void* self, void*) { static_cast<RotationHandle*>(self)->place(); });
    m_observer = renderer->AddObserver(vtkCommand::StartEvent, resize);
  }
  m_renderer = renderer;
  m_frame = frame;
  m_pixels = pixels;
  for (auto& ring : m_rings)
    if (!renderer->HasViewProp(ring)) renderer->AddActor(ring);
  if (!renderer->HasViewProp(m_triad)) renderer->AddActor(m_triad);
  place();
}

void RotationHandle::hide() {
  if (!m_renderer) return;
  for (auto& ring : m_rings) m_renderer->RemoveActor(ring);
  m_renderer->RemoveActor(m_triad);
  m_renderer->RemoveObserver(m_observer);
  m_renderer = nullptr;
}

void RotationHandle::setFrame(const Pose& frame) {
  m_frame = frame;
  place();
}

double RotationHandle::worldRadius() const {
  // metres per pixel at the frame's origin: the view's height over the viewport's pixels
  vtkCamera* camera = m_renderer->GetActiveCamera();
  const int* size = m_renderer->GetSize();
  const double pixels = std::max(1, size[1]);
  double height;
  if (camera->GetParallelProjection()) {
    height = 2 * camera->GetParallelScale();
  } else {
    const double* eye = camera->GetPosition();
    const double* direction = camera->GetDirectionOfProjection();
    const double depth = (m_frame.translation() - Vec3(eye[0], eye[1], eye[2])).dot(Vec3(direction[0], direction[1], direction[2]));
    height = 2 * std::max(depth, 1e-9) * std::tan(0.5 * camera->GetViewAngle() * std::numbers::pi / 180);
  }
  return m_pixels * height / pixels;
}

void RotationHandle::place() {
  if (m_renderer) m_radius = worldRadius();
  // the unit rings and triad, scaled to the radius
  const auto matrix = [](const Eigen::Affine3d& transform) {
    auto m = vtkSmartPointer<vtkMatrix4x4>::New();
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) m->SetElement(i, j, transform.matrix()(i, j));
    return m;
  };
  const Eigen::Affine3d scaled = m_frame * Eigen::Scaling(m_radius);
  for (int axis = 0; axis < 3; ++axis) m_rings[static_cast<std::size_t>(axis)]->SetUserMatrix(matrix(scaled * ringInFrame(axis)));
  m_triad->SetUserMatrix(matrix(scaled * Eigen::Scaling(0.8)));
}

void RotationHandle::setActive(int axis) {
  for (int a = 0; a < 3; ++a) {
    const double* rgb = a == axis ? kActiveRgb : kAxisRgb[a];
    m_rings[static_cast<std::size_t>(a)]->GetProperty()->SetColor(rgb[0], rgb[1], rgb[2]);
  }
}

Eigen::Vector2d RotationHandle::toDisplay(const Vec3& local) const {
  const Vec3 p = m_frame * local;
  m_renderer->SetWorldPoint(p.x(), p.y(), p.z(), 1.0);
  m_renderer->WorldToDisplay();
  const double* d = m_renderer->GetDisplayPoint();
  return {d[0], d[1]};
}

int RotationHandle::ringAt(double x, double y, double tolerance) const {
  if (!m_renderer) return -1;
  const Eigen::Vector2d at(x, y);
  int nearest = -1;
  double best = tolerance;
  for (int axis = 0; axis < 3; ++axis) {
    // a ring seen edge on is a line across the view: it would take clicks meant for the body,
    // and the angle swept about it is ill-defined
    if (std::abs(m_frame.linear().col(axis).dot(towardsViewer().normalized())) < 0.2) continue;
    Eigen::Vector2d previous = toDisplay(ringPoint(axis, 0, m_radius));
    for (int i = 1; i <= kRingPoints; ++i) {
      const Eigen::Vector2d next = toDisplay(ringPoint(axis, i, m_radius));
      const double d = distanceToSegment(at, previous, next);
      if (d <= best) {
        best = d;
        nearest = axis;
      }
      previous = next;
    }
  }
  return nearest;
}

double RotationHandle::screenAngle(int axis, double x, double y) const {
  if (!m_renderer) return 0.0;
  const Eigen::Vector2d centre = toDisplay(Vec3::Zero());
  const double angle = std::atan2(y - centre.y(), x - centre.x());
  // counter-clockwise on the screen is a positive turn about an axis that points at the viewer
  return m_frame.linear().col(axis).dot(towardsViewer()) >= 0 ? angle : -angle;
}

Vec3 RotationHandle::towardsViewer() const {
  vtkCamera* camera = m_renderer->GetActiveCamera();
  if (camera->GetParallelProjection()) {
    const double* d = camera->GetDirectionOfProjection();
    return -Vec3(d[0], d[1], d[2]);
  }
  const double* eye = camera->GetPosition();
  return Vec3(eye[0], eye[1], eye[2]) - m_frame.translation();
}

}  // namespace flexim::render
