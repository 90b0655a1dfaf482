// Beam elements drawn as their centre line integrated with the element's current strains (the
// strains solved from the two nodes' poses, as the solver does): a tube of the section's
// equivalent radius that bends as the element does between its nodes, not a chord; and a
// translucent ghost of the unstressed member, shown with the undeformed option.
#include "render/model_scene.h"
#include "render/palette.h"
#include "render/scene_actors.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkTubeFilter.h>

#include <cmath>
#include <numbers>

namespace flexim::render {

namespace {

constexpr int kSegments = 8;  // per element: enough for the cubic-like bending of one element

vtkSmartPointer<vtkPolyData> polyline(int points) {
  auto data = vtkSmartPointer<vtkPolyData>::New();
  auto pts = vtkSmartPointer<vtkPoints>::New();
  pts->SetNumberOfPoints(points);
  for (int i = 0; i < points; ++i) pts->SetPoint(i, 0.0, 0.0, 0.0);
  auto lines = vtkSmartPointer<vtkCellArray>::New();
  lines->InsertNextCell(points);
  for (int i = 0; i < points; ++i) lines->InsertCellPoint(i);
  data->SetPoints(pts);
  data->SetLines(lines);
  return data;
}

void setPoints(vtkPolyData* line, const std::vector<Vec3>& points) {
  vtkPoints* pts = line->GetPoints();
  for (std::size_t i = 0; i < points.size() && vtkIdType(i) < pts->GetNumberOfPoints(); ++i)
    pts->SetPoint(vtkIdType(i), points[i].x(), points[i].y(), points[i].z());
  pts->Modified();
  line->Modified();
}

BeamNodePose nodePose(const Pose& p) { return {p.translation(), Quat(p.linear())}; }

}  // namespace

void ModelScene::addBeams(const ModelSpec& model) {
  for (std::size_t k = 0; k < model.beam_elements.size(); ++k) {
    const BeamElementSpec& e = model.beam_elements[k];
    std::optional<BeamElementKernel> kernel = beamKernel(model, e);
    const int p = m_table.poseNamed(e.node1), q = m_table.poseNamed(e.node2);
    if (!kernel || p < 0 || q < 0) continue;
    BeamVisual beam{std::move(*kernel), p, q};
    beam.line = polyline(kSegments + 1);
    beam.tube = vtkSmartPointer<vtkTubeFilter>::New();
    beam.tube->SetInputData(beam.line);
    beam.tube->SetRadius(std::sqrt(e.area / std::numbers::pi));
    beam.tube->SetNumberOfSides(12);
    beam.tube->CappingOn();
    beam.strains = beam.kernel->initialStrains();
    setPoints(beam.line, beam.kernel->centreLine(nodePose(m_initialPoses[std::size_t(p)]), beam.strains, kSegments));
    beam.tube->Update();
    auto actor = makeActor(beam.tube->GetOutput(), kBeamColour);
    addActor(actor, "beam_elements[" + std::to_string(k) + "]");
    auto ghostLine = polyline(kSegments + 1);
    setPoints(ghostLine, beam.kernel->centreLine(nodePose(m_initialPoses[std::size_t(p)]), beam.strains, kSegments));
    auto ghostTube = vtkSmartPointer<vtkTubeFilter>::New();
    ghostTube->SetInputData(ghostLine);
    ghostTube->SetRadius(beam.tube->GetRadius());
    ghostTube->SetNumberOfSides(12);
    ghostTube->Update();
    beam.ghost = makeActor(ghostTube->GetOutput(), kGhostColour);
    beam.ghost->GetProperty()->SetOpacity(0.22);
    beam.ghost->PickableOff();
    beam.ghost->SetVisibility(m_options.showUndeformed);
    addActor(beam.ghost);
    m_beams.push_back(std::move(beam));
  }
}

void ModelScene::updateBeams() {
  for (BeamVisual& beam : m_beams) {
    const BeamNodePose p = nodePose(m_bodies[std::size_t(beam.node1)].pose());
    const BeamNodePose q = nodePose(m_bodies[std::size_t(beam.node2)].pose());
    BeamSolution s;
    // from the last strains (frames of a run are close), else from the nodes alone
    if (!beam.kernel->solve(p, q, &beam.strains, s) && !beam.kernel->solve(p, q, nullptr, s)) continue;
    beam.strains = s.strains;
    setPoints(beam.line, beam.kernel->centreLine(p, beam.strains, kSegments));
    beam.tube->Update();
  }
}

}  // namespace flexim::render
