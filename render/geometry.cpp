#include "render/geometry.h"

#include <vtkActor.h>
#include <vtkMapper.h>

#include <map>
#include <string>

#include <vtkAppendPolyData.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkConeSource.h>
#include <vtkCubeSource.h>
#include <vtkCylinderSource.h>
#include <vtkMatrix4x4.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSphereSource.h>
#include <vtkTransform.h>
#include <vtkTransformPolyDataFilter.h>
#include <vtkTubeFilter.h>
#include <vtkUnsignedCharArray.h>

#include <cmath>

namespace flexim::render {
namespace {

vtkSmartPointer<vtkPolyData> transformed(vtkPolyData* input, const Pose& pose) {
  auto transform = vtkSmartPointer<vtkTransform>::New();
  transform->SetMatrix(toVtkMatrix(pose));
  auto filter = vtkSmartPointer<vtkTransformPolyDataFilter>::New();
  filter->SetInputData(input);
  filter->SetTransform(transform);
  filter->Update();
  return filter->GetOutput();
}

vtkSmartPointer<vtkPolyData> merged(const std::vector<vtkSmartPointer<vtkPolyData>>& parts) {
  auto append = vtkSmartPointer<vtkAppendPolyData>::New();
  for (const auto& part : parts) append->AddInputData(part);
  append->Update();
  return append->GetOutput();
}

// vtkCylinderSource builds along y; rotate so the axis is z.
vtkSmartPointer<vtkPolyData> cylinderAlongZ(double radius, double height,
                                            const Pose& placement = Pose::Identity()) {
  auto source = vtkSmartPointer<vtkCylinderSource>::New();
  source->SetRadius(radius);
  source->SetHeight(height);
  source->SetResolution(32);
  source->SetCapping(true);
  source->Update();
  const Pose yToZ(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitX()));
  return transformed(source->GetOutput(), placement * yToZ);
}

vtkSmartPointer<vtkPolyData> sphere(double radius) {
  auto source = vtkSmartPointer<vtkSphereSource>::New();
  source->SetRadius(radius);
  source->SetThetaResolution(32);
  source->SetPhiResolution(20);
  source->Update();
  return source->GetOutput();
}

}  // namespace

Pose makePose(const Vec3& position, const Quat& orientation) {
  Pose pose = Pose::Identity();
  pose.linear() = orientation.normalized().toRotationMatrix();
  pose.translation() = position;
  return pose;
}

vtkSmartPointer<vtkPolyData> sphereMesh(double radius) { return sphere(radius); }

vtkSmartPointer<vtkMatrix4x4> toVtkMatrix(const Pose& pose) {
  auto m = vtkSmartPointer<vtkMatrix4x4>::New();
  const Eigen::Matrix4d& h = pose.matrix();
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) m->SetElement(r, c, h(r, c));
  return m;
}

vtkSmartPointer<vtkPolyData> boxMesh(const Vec3& size) {
  auto source = vtkSmartPointer<vtkCubeSource>::New();
  source->SetXLength(size.x());
  source->SetYLength(size.y());
  source->SetZLength(size.z());
  source->Update();
  return source->GetOutput();
}

vtkSmartPointer<vtkPolyData> jointGlyph(JointType type, double size) {
  using Glyph = vtkSmartPointer<vtkPolyData> (*)(double size);
  // kinds without a glyph of their own (registered later) are drawn as a ball
  static const std::map<std::string, Glyph> kGlyphs{
      // a hinge drum with a thinner pin sticking out on both sides
      {"revolute",
       [](double s) { return merged({cylinderAlongZ(0.5 * s, 1.0 * s), cylinderAlongZ(0.175 * s, 1.8 * s)}); }},
      {"spherical", [](double s) { return sphere(0.65 * s); }},
      // a sleeve elongated along the sliding axis
      {"prismatic", [](double s) { return boxMesh(Vec3(0.7 * s, 0.7 * s, 2.6 * s)); }},
      // the cross: two pins, along z and along x, with a hub
      {"universal",
       [](double s) {
         const Pose alongX(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitY()));
         return merged({cylinderAlongZ(0.15 * s, 1.8 * s), cylinderAlongZ(0.15 * s, 1.8 * s, alongX), sphere(0.225 * s)});
       }},
      // a short drum on a long rod: it can both turn and slide
      {"cylindrical",
       [](double s) { return merged({cylinderAlongZ(0.4 * s, 0.9 * s), cylinderAlongZ(0.125 * s, 3.0 * s)}); }},
      {"planar", [](double s) { return boxMesh(Vec3(2.2 * s, 2.2 * s, 0.15 * s)); }},
      // a diamond: a cube standing on a corner, unlike the prismatic sleeve
      {"fixed",
       [](double s) {
         const Pose tilt(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitZ()) *
                         Eigen::AngleAxisd(std::atan(1.0 / std::sqrt(2.0)), Vec3::UnitX()));
         return transformed(boxMesh(Vec3::Constant(0.75 * s)), tilt);
       }},
  };
  const auto it = kGlyphs.find(type.key());
  return it == kGlyphs.end() ? sphere(0.5 * size) : it->second(size);
}

vtkSmartPointer<vtkPolyData> linkTubes(const std::vector<Vec3>& ends, double radius) {
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto lines = vtkSmartPointer<vtkCellArray>::New();
  points->InsertNextPoint(0.0, 0.0, 0.0);
  for (const Vec3& end : ends) {
    if (end.norm() <= radius) continue;
    const vtkIdType id = points->InsertNextPoint(end.x(), end.y(), end.z());
    const vtkIdType segmentIds[2] = {0, id};
    lines->InsertNextCell(2, segmentIds);
  }
  auto centreLines = vtkSmartPointer<vtkPolyData>::New();
  if (lines->GetNumberOfCells() == 0) return centreLines;
  centreLines->SetPoints(points);
  centreLines->SetLines(lines);

  auto tube = vtkSmartPointer<vtkTubeFilter>::New();
  tube->SetInputData(centreLines);
  tube->SetRadius(radius);
  tube->SetNumberOfSides(16);
  tube->CappingOn();
  tube->Update();
  return tube->GetOutput();
}

vtkSmartPointer<vtkPolyData> primitiveMesh(const VisualSpec& visual) {
  switch (visual.shape) {
    case VisualSpec::Shape::Box: return boxMesh(visual.size);
    case VisualSpec::Shape::Sphere: return sphereMesh(visual.radius);
    case VisualSpec::Shape::Cylinder: {
      auto cylinder = vtkSmartPointer<vtkCylinderSource>::New();  // along y: turned to z
      cylinder->SetRadius(visual.radius);
      cylinder->SetHeight(visual.length);
      cylinder->SetResolution(48);
      cylinder->CappingOn();
      auto turn = vtkSmartPointer<vtkTransform>::New();
      turn->RotateX(90.0);
      auto turned = vtkSmartPointer<vtkTransformPolyDataFilter>::New();
      turned->SetInputConnection(cylinder->GetOutputPort());
      turned->SetTransform(turn);
      turned->Update();
      return turned->GetOutput();
    }
    case VisualSpec::Shape::Mesh: break;
  }
  return nullptr;
}

void drawOnTop(vtkActor* actor) {
  // pulled towards the viewer by most of the depth range: a polygon offset, which VTK applies
  // once its (global) resolution of coincident topology is on; its global offsets stay as they
  // are (none for polygons, a few depth units for lines and points)
  vtkMapper::SetResolveCoincidentTopologyToPolygonOffset();
  if (vtkMapper* mapper = actor->GetMapper()) {
    mapper->SetRelativeCoincidentTopologyPolygonOffsetParameters(0, -66000);
    mapper->SetRelativeCoincidentTopologyLineOffsetParameters(0, -66000);
    mapper->SetRelativeCoincidentTopologyPointOffsetParameter(-66000);
  }
}

vtkSmartPointer<vtkPolyData> axisTriads(const std::vector<Pose>& frames, double length) {
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto lines = vtkSmartPointer<vtkCellArray>::New();
  auto colours = vtkSmartPointer<vtkUnsignedCharArray>::New();
  colours->SetNumberOfComponents(3);
  colours->SetName("axis colour");
  static constexpr unsigned char kAxisRgb[3][3] = {{230, 40, 40}, {40, 200, 40}, {50, 90, 255}};
  for (const Pose& frame : frames) {
    const Vec3 o = frame.translation();
    const vtkIdType origin = points->InsertNextPoint(o.x(), o.y(), o.z());
    for (int axis = 0; axis < 3; ++axis) {
      const Vec3 tip = o + length * frame.linear().col(axis);
      const vtkIdType ids[2] = {origin, points->InsertNextPoint(tip.x(), tip.y(), tip.z())};
      lines->InsertNextCell(2, ids);
      colours->InsertNextTypedTuple(kAxisRgb[axis]);
    }
  }
  auto triads = vtkSmartPointer<vtkPolyData>::New();
  triads->SetPoints(points);
  triads->SetLines(lines);
  triads->GetCellData()->SetScalars(colours);
  return triads;
}

vtkSmartPointer<vtkPolyData> floorGrid(const Vec3& centre, const Vec3& up, double halfExtent,
                                       double spacing) {
  const Vec3 u = anyPerpendicular(up);
  const Vec3 v = up.normalized().cross(u);
  const int half = std::max(1, static_cast<int>(std::ceil(halfExtent / spacing)));
  const double reach = half * spacing;
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto lines = vtkSmartPointer<vtkCellArray>::New();
  auto addLine = [&](const Vec3& a, const Vec3& b) {
    const vtkIdType ids[2] = {points->InsertNextPoint(a.x(), a.y(), a.z()),
                              points->InsertNextPoint(b.x(), b.y(), b.z())};
    lines->InsertNextCell(2, ids);
  };
  for (int i = -half; i <= half; ++i) {
    const double offset = i * spacing;
    addLine(centre + offset * u - reach * v, centre + offset * u + reach * v);
    addLine(centre + offset * v - reach * u, centre + offset * v + reach * u);
  }
  auto grid = vtkSmartPointer<vtkPolyData>::New();
  grid->SetPoints(points);
  grid->SetLines(lines);
  return grid;
}

namespace {
constexpr int kSpringZigs = 12;                   // zig-zag corners between the straight ends
constexpr int kSpringPointCount = kSpringZigs + 4;  // ends, start and end of the coil
}  // namespace

void placeSpring(vtkPolyData* spring, const Vec3& a, const Vec3& b, double amplitude) {
  vtkPoints* points = spring->GetPoints();
  const Vec3 along = b - a;
  const Vec3 side = along.norm() > 1e-12 ? anyPerpendicular(along) : Vec3(Vec3::UnitX());
  // straight 15 % at each end, the zig-zag in between
  auto set = [&](int i, const Vec3& p) { points->SetPoint(i, p.x(), p.y(), p.z()); };
  set(0, a);
  set(1, a + 0.15 * along);
  for (int k = 0; k < kSpringZigs; ++k) {
    const double s = 0.15 + 0.7 * (k + 0.5) / kSpringZigs;
    set(2 + k, a + s * along + ((k % 2) ? -amplitude : amplitude) * side);
  }
  set(kSpringPointCount - 2, a + 0.85 * along);
  set(kSpringPointCount - 1, b);
  points->Modified();
}

vtkSmartPointer<vtkPolyData> springLine(const Vec3& a, const Vec3& b, double amplitude) {
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetNumberOfPoints(kSpringPointCount);
  auto lines = vtkSmartPointer<vtkCellArray>::New();
  lines->InsertNextCell(kSpringPointCount);
  for (vtkIdType i = 0; i < kSpringPointCount; ++i) lines->InsertCellPoint(i);
  auto spring = vtkSmartPointer<vtkPolyData>::New();
  spring->SetPoints(points);
  spring->SetLines(lines);
  placeSpring(spring, a, b, amplitude);
  return spring;
}

vtkSmartPointer<vtkPolyData> groundCone(const Vec3& axis, double height, double radius) {
  auto source = vtkSmartPointer<vtkConeSource>::New();
  source->SetHeight(height);
  source->SetRadius(radius);
  source->SetResolution(24);
  // vtkConeSource's apex is at +height/2 along its direction: point the apex up to the origin
  const Vec3 up = axis.normalized();
  source->SetDirection(up.x(), up.y(), up.z());
  const Vec3 centre = -0.5 * height * up;
  source->SetCenter(centre.x(), centre.y(), centre.z());
  source->Update();
  return source->GetOutput();
}

vtkSmartPointer<vtkPolyData> loadArrow(double length, bool torque) {
  // along +z: a force's shaft ends in its tip at the origin (it pushes on the point); a
  // torque's double head starts at the origin (right-hand rule about the arrow)
  const double radius = 0.035 * length, head = 0.28 * length, headRadius = 0.1 * length;
  const auto cone = [&](double apex) {
    auto source = vtkSmartPointer<vtkConeSource>::New();
    source->SetHeight(head);
    source->SetRadius(headRadius);
    source->SetResolution(20);
    source->SetDirection(0, 0, 1);
    source->SetCenter(0, 0, apex - 0.5 * head);
    source->Update();
    return vtkSmartPointer<vtkPolyData>(source->GetOutput());
  };
  if (torque)
    return merged({cylinderAlongZ(radius, length - head, Pose(Eigen::Translation3d(0, 0, 0.5 * (length - head)))),
                   cone(length), cone(length - 0.6 * head)});
  return merged({cylinderAlongZ(radius, length - head, Pose(Eigen::Translation3d(0, 0, -length + 0.5 * (length - head)))),
                 cone(0.0)});
}

Vec3 anyPerpendicular(const Vec3& v) {
  const Vec3 n = v.normalized();
  const Vec3 helper = std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  return (helper - helper.dot(n) * n).normalized();
}

double niceStep(double x) {
  if (!(x > 0.0) || !std::isfinite(x)) return 1.0;
  const double decade = std::pow(10.0, std::floor(std::log10(x)));
  const double m = x / decade;
  if (m < 1.5) return decade;
  if (m < 3.5) return 2.0 * decade;
  if (m < 7.5) return 5.0 * decade;
  return 10.0 * decade;
}

}  // namespace flexim::render
