// The scene's contacts: each drawn as its geometry (a translucent plate for a plane, a bar for a
// line, a sphere, the guide's two walls and the slider's outline), riding with its bodies, and
// per contact point a dot that turns orange while the point is closed, with an arrow along the
// contact normal whose length is the normal force against the run's largest (setContactStates).
#include "render/model_scene.h"

#include "core/model/description.h"
#include "render/geometry.h"
#include "render/scene_actors.h"

#include <vtkActor.h>
#include <vtkMatrix4x4.h>
#include <vtkRenderer.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace flexim::render {

namespace {
constexpr Rgb kContactColour{0.55, 0.75, 0.95};    ///< contact geometry
constexpr Rgb kClosedColour{1.00, 0.55, 0.10};     ///< a closed contact point, its force arrow
constexpr double kContactOpacity = 0.35;
}  // namespace

void ModelScene::addContacts(const ModelSpec& model, Diagnostics* diag) {
  const double g = m_glyphSize;
  for (std::size_t k = 0; k < model.contacts.size(); ++k) {
    const ContactSpec& c = model.contacts[k];
    const std::string item = "contacts[" + std::to_string(k) + "]";
    int body1 = -1, body2 = -1;
    Pose marker1 = Pose::Identity(), marker2;
    const ContactKindDescription* kindOf = findContactKind(c.type.key());
    const bool onNodes = kindOf && kindOf->nodes;
    // the points of a node contact are FE nodes of body1, drawn where they are undeformed
    std::vector<Vec3> nodePoints;
    if (onNodes) {
      body1 = m_table.poseNamed(c.body1);
      if (body1 >= 0 && m_table[body1].kind->deformable)
        if (const auto& data = m_flexible[std::size_t(m_table[body1].deformable)].data)
          for (int id : c.nodes)
            for (std::size_t n = 0; n < data->node_ids.size(); ++n)
              if (data->node_ids[n] == id) nodePoints.push_back(data->coords[n]);
    }
    const bool found1 = onNodes ? nodePoints.size() == c.nodes.size() && !nodePoints.empty()
                                : findMarker(model, c.body1, c.marker1, body1, marker1);
    if (!found1 || !findMarker(model, c.body2, c.marker2, body2, marker2)) {
      if (diag) diag->warning(item + " '" + c.name + "'", "a marker of this contact was not found; contact not drawn");
      continue;
    }
    auto add = [&](vtkSmartPointer<vtkPolyData> shape, int body, const Pose& at, double opacity) {
      auto actor = makeActor(shape, kContactColour);
      actor->GetProperty()->SetOpacity(opacity);
      visualOf(body).attach(actor, at);
      addActor(actor, item);
    };
    ContactVisual visual;
    visual.body1 = body1;
    visual.body2 = body2;
    visual.marker1 = marker1;
    visual.marker2 = marker2;
    const std::string& kind = c.type.key();
    if (kind == "point_plane" || kind == "sphere_plane" || onNodes) {
      const double side = std::max(6 * g, 4 * m_length);  // a floor for the whole model and its travel
      add(boxMesh(Vec3(side, side, 0.04 * g)), body2, marker2, kContactOpacity);
      visual.normal = Vec3::UnitZ();
    } else if (kind == "point_line") {
      add(boxMesh(Vec3(10 * g, 0.06 * g, 0.06 * g)), body2, marker2, 1.0);
      visual.normal = Vec3::UnitY();
    } else if (kind == "sphere_sphere") {
      add(sphereMesh(contactParameterValue(c, "radius2")), body2, marker2, kContactOpacity);
      visual.sphereNormal = true;
    }
    if (kind == "sphere_plane" || kind == "sphere_sphere")
      add(sphereMesh(contactParameterValue(c, "radius")), body1, marker1, kContactOpacity);
    std::vector<Vec3> points{Vec3::Zero()};  // in marker1's axes
    if (onNodes) points = nodePoints;
    if (kind == "translational_clearance") {
      const double a = contactParameterValue(c, "half_length"), b = contactParameterValue(c, "half_height");
      const double wall = b + contactParameterValue(c, "clearance");
      // the walls along the whole model, the slider's outline
      for (double side : {1.0, -1.0})
        add(boxMesh(Vec3(2 * m_length, 0.06 * g, 0.6 * g)), body2,
            marker2 * Pose(Eigen::Translation3d(Vec3(0, side * (wall + 0.03 * g), 0))), 1.0);
      add(boxMesh(Vec3(2 * a, 2 * b, 0.5 * g)), body1, marker1, kContactOpacity);
      points = {Vec3(-a, b, 0), Vec3(a, b, 0), Vec3(-a, -b, 0), Vec3(a, -b, 0)};
      visual.normal = Vec3::UnitY();
      visual.clearance = true;
    }
    for (const Vec3& p : points) {
      ContactVisual::Point point;
      point.inMarker1 = p;
      point.dot = makeActor(sphereMesh(0.18 * g), kContactColour);
      visualOf(body1).attach(point.dot, marker1 * Pose(Eigen::Translation3d(p)));
      drawOnTop(point.dot);
      addActor(point.dot, item);
      point.arrow = makeActor(loadArrow(1.0, false), kClosedColour);
      point.arrow->VisibilityOff();
      addActor(point.arrow, item);
      visual.points.push_back(point);
    }
    m_contacts.push_back(std::move(visual));
  }
  if (!m_contacts.empty() && m_options.showLabels) {
    m_contactLabel = makeLabel("", 13);
    m_contactLabel->GetTextProperty()->SetJustificationToRight();
    m_contactLabel->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
    m_contactLabel->GetPositionCoordinate()->SetValue(0.985, 0.06);
    m_renderer->AddViewProp(m_contactLabel);
  }
}

std::size_t ModelScene::contactPointCount() const {
  std::size_t n = 0;
  for (const ContactVisual& c : m_contacts) n += c.points.size();
  return n;
}

bool ModelScene::setContactStates(const std::vector<ContactPointState>& states, double largestForce) {
  if (states.size() != contactPointCount()) return false;
  const double length = 4 * m_glyphSize;
  std::size_t i = 0;
  for (ContactVisual& c : m_contacts) {
    const Pose p1 = visualOf(c.body1).pose() * c.marker1, p2 = visualOf(c.body2).pose() * c.marker2;
    for (ContactVisual::Point& point : c.points) {
      const ContactPointState& s = states[i++];
      point.closed = s.closed;
      const Rgb& colour = s.closed ? kClosedColour : kContactColour;
      point.dot->GetProperty()->SetColor(colour[0], colour[1], colour[2]);
      const bool show = s.closed && s.normalForce > 0 && largestForce > 0 && std::isfinite(s.normalForce);
      point.arrow->SetVisibility(show);
      if (!show) continue;
      const Vec3 at = p1 * point.inMarker1;
      // the force on body1 acts along the contact normal, away from body2
      Vec3 n = c.sphereNormal ? Vec3((p1.translation() - p2.translation()).normalized()) : Vec3(p2.linear() * c.normal);
      if (c.clearance && (p2.inverse() * at).y() > 0) n = -n;  // the upper wall pushes down
      const double scale = std::max(1e-3, std::min(1.0, s.normalForce / largestForce)) * length;
      // the arrow's tip at the contact point, pointing into body1
      const Eigen::Affine3d pose =
          Eigen::Translation3d(at) * Eigen::Affine3d(Quat::FromTwoVectors(Vec3::UnitZ(), n)) * Eigen::Scaling(scale);
      auto matrix = vtkSmartPointer<vtkMatrix4x4>::New();
      for (int r = 0; r < 4; ++r)
        for (int col = 0; col < 4; ++col) matrix->SetElement(r, col, pose.matrix()(r, col));
      point.arrow->SetUserMatrix(matrix);
    }
  }
  if (m_contactLabel) {
    std::ostringstream text;
    text.precision(3);
    if (largestForce > 0) text << "contact force: longest arrow " << largestForce << " N";
    m_contactLabel->SetInput(text.str().c_str());
  }
  return true;
}

bool ModelScene::contactPointClosed(std::size_t point) const {
  for (const ContactVisual& c : m_contacts) {
    if (point < c.points.size()) return c.points[point].closed;
    point -= c.points.size();
  }
  return false;
}

}  // namespace flexim::render
