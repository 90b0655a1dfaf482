// ModelScene, what the user points at: picking, the highlighted and hovered items, marked nodes
// and the traced point's path.
#include "render/model_scene.h"

#include "core/fe/reduced_body.h"
#include "render/flexible_surface.h"
#include "render/geometry.h"
#include "render/inertia_shape.h"
#include "render/palette.h"
#include "render/visual_mesh.h"

#include <vtkActor.h>
#include <vtkAxesActor.h>
#include <vtkCallbackCommand.h>
#include <vtkCaptionActor2D.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCellPicker.h>
#include <vtkDoubleArray.h>
#include <vtkLightKit.h>
#include <vtkLookupTable.h>
#include <vtkMatrix4x4.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkPolyDataNormals.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTriangleMeshPointNormals.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

namespace flexim::render {

std::string ModelScene::itemOf(vtkProp* prop) const {
  const auto it = m_items.find(prop);
  return it == m_items.end() ? std::string() : it->second;
}

std::vector<vtkActor*> ModelScene::actorsOf(const std::string& item) const {
  // an item's actors and those of the items it holds (a body's marker triads)
  std::vector<vtkActor*> out;
  if (item.empty()) return out;
  for (const auto& [prop, path] : m_items)
    if (path.compare(0, item.size(), item) == 0 && (path.size() == item.size() || path[item.size()] == '.'))
      out.push_back(static_cast<vtkActor*>(prop));
  return out;
}

PickResult ModelScene::pick(double x, double y) const {
  PickResult result;
  auto picker = vtkSmartPointer<vtkCellPicker>::New();
  picker->SetTolerance(0.003);
  if (!picker->Pick(x, y, 0.0, m_renderer)) return result;
  result.item = itemOf(picker->GetActor());
  if (result.item.empty()) return result;
  const double* p = picker->GetPickPosition();
  result.point = Vec3(p[0], p[1], p[2]);
  for (std::size_t b = 0; b < m_bodies.size(); ++b)
    if (m_bodies[b].owns(picker->GetActor())) {
      result.body = int(b);
      result.point_in_body = m_bodies[b].pose().inverse() * result.point;
    }
  // on a flexible body: the surface node nearest to the point, as drawn
  for (std::size_t f = 0; f < m_flexible.size(); ++f) {
    const FlexibleVisual& flexible = m_flexible[f];
    if (flexible.actor.GetPointer() != picker->GetActor() || !flexible.surface) continue;
    const Pose& bodyToWorld = m_bodies[std::size_t(m_table.deformable()[f])].pose();
    const std::size_t k = flexible.surface->nearestPoint(bodyToWorld.inverse() * result.point);
    const Vec3 u = flexible.surface->displacement(k);
    const int node = flexible.surface->nodes()[k];
    result.node_id = std::size_t(node) < flexible.data->node_ids.size() ? flexible.data->node_ids[std::size_t(node)] : node;
    result.node_position = bodyToWorld * (flexible.surface->undeformed()[k] + flexible.surface->scale() * u);
    result.node_displacement = u;
    result.surface_point = int(k);
  }
  return result;
}

TracePoint ModelScene::tracePointOf(const PickResult& pick) const {
  TracePoint point;
  if (pick.body < 0 || std::size_t(pick.body) >= m_bodies.size()) return point;
  point.body = pick.body;
  point.surface_point = pick.surface_point;
  point.in_body = pick.point_in_body;
  char text[96];
  if (pick.surface_point >= 0 && pick.node_id >= 0)
    std::snprintf(text, sizeof text, "node %d of %s", pick.node_id, pick.item.c_str());
  else
    std::snprintf(text, sizeof text, "a point of %s", pick.item.c_str());
  point.label = text;
  return point;
}

bool ModelScene::tracePosition(const TracePoint& point, const Sample& sample, Vec3& position) const {
  if (!point.valid() || std::size_t(point.body) >= sample.poses.size() || sample.poses.size() != m_bodies.size())
    return false;
  const BodyPose& pose = sample.poses[std::size_t(point.body)];
  const Pose bodyToWorld = makePose(pose.position, pose.orientation);
  Vec3 local = point.in_body;
  const int deformable = m_table[point.body].deformable;
  const std::size_t f = std::size_t(deformable);
  if (point.surface_point >= 0 && deformable >= 0 && m_flexible[f].surface) {
    const FlexibleSurface& surface = *m_flexible[f].surface;
    if (std::size_t(point.surface_point) >= surface.undeformed().size()) return false;
    const Eigen::VectorXd none;
    const Eigen::VectorXd& modal = f < sample.modal.size() ? sample.modal[f] : none;
    if (modal.size() > surface.modeCount()) return false;
    local = surface.undeformed()[std::size_t(point.surface_point)] +
            surface.scale() * surface.displacement(std::size_t(point.surface_point), modal);
  }
  position = bodyToWorld * local;
  return true;
}

void ModelScene::setTracePath(const std::vector<Vec3>& points) {
  if (!m_trace) return;
  auto xyz = vtkSmartPointer<vtkPoints>::New();
  xyz->SetDataTypeToDouble();
  auto lines = vtkSmartPointer<vtkCellArray>::New();
  if (points.size() >= 2) {
    xyz->SetNumberOfPoints(vtkIdType(points.size()));
    lines->InsertNextCell(vtkIdType(points.size()));
    for (std::size_t i = 0; i < points.size(); ++i) {
      xyz->SetPoint(vtkIdType(i), points[i].data());
      lines->InsertCellPoint(vtkIdType(i));
    }
  }
  m_trace->SetPoints(xyz);
  m_trace->SetLines(lines);
  m_trace->Modified();
  m_traceActor->SetVisibility(points.size() >= 2);
}

std::size_t ModelScene::tracePathSize() const {
  return m_trace && m_trace->GetLines()->GetNumberOfCells() > 0 ? std::size_t(m_trace->GetNumberOfPoints()) : 0;
}

void ModelScene::markNodes(std::size_t flexible, const std::vector<Vec3>& points) {
  for (const auto& mark : m_nodeMarks) {
    m_renderer->RemoveActor(mark);
    if (m_nodeMarksOn < m_bodies.size()) m_bodies[m_nodeMarksOn].detach(mark);
  }
  m_nodeMarks.clear();
  if (flexible >= m_flexible.size()) return;
  m_nodeMarksOn = std::size_t(m_table.deformable()[flexible]);
  static constexpr Rgb kColours[3] = {{0.95, 0.25, 0.22}, {0.25, 0.80, 0.30}, {0.30, 0.50, 1.00}};  // k, m, n
  for (std::size_t i = 0; i < points.size(); ++i) {
    // a dot of a fixed size on the screen, drawn over the virtual body's sphere (the nodes lie
    // around its point, inside it): seen at any zoom
    auto dot = vtkSmartPointer<vtkPolyData>::New();
    auto point = vtkSmartPointer<vtkPoints>::New();
    point->InsertNextPoint(0.0, 0.0, 0.0);
    auto vertex = vtkSmartPointer<vtkCellArray>::New();
    const vtkIdType id = 0;
    vertex->InsertNextCell(1, &id);
    dot->SetPoints(point);
    dot->SetVerts(vertex);
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(dot);
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    const Rgb& c = kColours[i % 3];
    actor->GetProperty()->SetColor(c[0], c[1], c[2]);
    actor->GetProperty()->SetPointSize(11.0f);
    actor->GetProperty()->RenderPointsAsSpheresOn();
    actor->PickableOff();
    drawOnTop(actor);
    m_bodies[m_nodeMarksOn].attach(actor, Pose(Eigen::Translation3d(points[i])));
    m_renderer->AddActor(actor);
    m_nodeMarks.push_back(actor);
  }
}

void ModelScene::setHighlighted(const std::string& item) {
  applyHighlight(false);
  m_highlighted = item;
  applyHighlight(true);
}

bool ModelScene::setHovered(const std::string& item) {
  if (item == m_hovered) return false;
  m_hovered = item;
  if (!m_hoverBox) {
    m_hoverBox = vtkSmartPointer<vtkActor>::New();
    m_hoverBox->SetMapper(vtkSmartPointer<vtkPolyDataMapper>::New());
    m_hoverBox->GetProperty()->SetColor(1.0, 0.85, 0.3);
    m_hoverBox->GetProperty()->SetLineWidth(1.5);
    m_hoverBox->GetProperty()->LightingOff();
    m_hoverBox->PickableOff();
  }
  // the box around the item's actors as drawn now (not kept up to date while it moves: the
  // mouse moving on refreshes it)
  const SceneBounds box = boundsOf(item);
  if (box.empty()) {
    m_renderer->RemoveActor(m_hoverBox);
    return true;
  }
  const Vec3 pad = Vec3::Constant(0.15 * m_glyphSize);
  const Vec3 lo = box.min() - pad, hi = box.max() + pad;
  auto points = vtkSmartPointer<vtkPoints>::New();
  for (int corner = 0; corner < 8; ++corner)
    points->InsertNextPoint((corner & 1) ? hi.x() : lo.x(), (corner & 2) ? hi.y() : lo.y(), (corner & 4) ? hi.z() : lo.z());
  auto lines = vtkSmartPointer<vtkCellArray>::New();
  for (int a = 0; a < 8; ++a)
    for (int bit : {1, 2, 4})
      if (!(a & bit)) {
        const vtkIdType edge[2] = {a, a | bit};
        lines->InsertNextCell(2, edge);
      }
  auto outline = vtkSmartPointer<vtkPolyData>::New();
  outline->SetPoints(points);
  outline->SetLines(lines);
  static_cast<vtkPolyDataMapper*>(m_hoverBox->GetMapper())->SetInputData(outline);
  if (!m_renderer->HasViewProp(m_hoverBox)) m_renderer->AddActor(m_hoverBox);
  return true;
}

bool ModelScene::isHighlighted(vtkActor* actor) const { return m_savedLooks.count(actor) > 0; }

void ModelScene::applyHighlight(bool on) {
  // a warm ambient glow and thicker lines; the actor's own look is put back when it ends
  constexpr double kGlow[3] = {1.0, 0.78, 0.15};
  if (!on) {
    for (auto& [actor, look] : m_savedLooks) {
      vtkProperty* property = actor->GetProperty();
      property->SetAmbient(look.ambient);
      property->SetAmbientColor(look.ambientColour);
      property->SetLineWidth(look.lineWidth);
    }
    m_savedLooks.clear();
    return;
  }
  if (m_highlighted.empty()) return;
  for (vtkActor* actor : actorsOf(m_highlighted)) {
    vtkProperty* property = actor->GetProperty();
    SavedLook look;
    look.ambient = property->GetAmbient();
    property->GetAmbientColor(look.ambientColour);
    look.lineWidth = property->GetLineWidth();
    m_savedLooks[actor] = look;
    property->SetAmbient(0.65);
    property->SetAmbientColor(kGlow[0], kGlow[1], kGlow[2]);
    property->SetLineWidth(look.lineWidth * 2.0);
  }
}

}  // namespace flexim::render
