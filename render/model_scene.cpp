#include "render/model_scene.h"

#include "core/fe/reduced_body.h"
#include "core/model/description.h"
#include "render/flexible_surface.h"
#include "render/geometry.h"
#include "render/inertia_shape.h"
#include "render/palette.h"
#include "render/scene_actors.h"
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

vtkSmartPointer<vtkActor> makeActor(vtkPolyData* mesh, const Rgb& colour) {
  auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  mapper->SetInputData(mesh);
  mapper->ScalarVisibilityOff();
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  vtkProperty* property = actor->GetProperty();
  property->SetColor(colour[0], colour[1], colour[2]);
  property->SetAmbient(0.15);
  property->SetDiffuse(0.8);
  property->SetSpecular(0.25);
  property->SetSpecularPower(30.0);
  return actor;
}

vtkSmartPointer<vtkTextActor> makeLabel(const std::string& text, int fontSize) {
  auto label = vtkSmartPointer<vtkTextActor>::New();
  label->SetInput(text.c_str());
  vtkTextProperty* style = label->GetTextProperty();
  style->SetFontSize(fontSize);
  style->SetColor(kTextColour.data());
  style->SetFontFamilyToArial();
  return label;
}

namespace {

// thinnest box edge relative to the longest (slender links; see addBodies for the absolute floor)
constexpr double kMinBoxAspect = 0.02;
// surface nodes up to which flexible bodies get split normals (sharp edges drawn sharp)
constexpr std::size_t kSplitNormalsUpTo = 20000;

/// Point normals for smooth shading of curved faces, sharp edges kept.
vtkSmartPointer<vtkPolyData> smoothed(vtkPolyData* mesh) {
  auto normals = vtkSmartPointer<vtkPolyDataNormals>::New();
  normals->SetInputData(mesh);
  normals->SetFeatureAngle(40.0);
  normals->SplittingOn();
  normals->ComputeCellNormalsOff();
  normals->Update();
  return normals->GetOutput();
}

// Lines coloured by their own cell scalars, unlit so they keep their colour from any side.
vtkSmartPointer<vtkActor> makeLineActor(vtkPolyData* lines, double width) {
  auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  mapper->SetInputData(lines);
  mapper->SetScalarModeToUseCellData();
  mapper->SetColorModeToDirectScalars();
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  actor->GetProperty()->SetLineWidth(width);
  actor->GetProperty()->LightingOff();
  return actor;
}

Pose flexiblePose(const FlexibleBodySpec& body) { return makePose(body.position, body.orientation); }

Pose toPose(const BodyPose& p) { return makePose(p.position, p.orientation); }

bool drawnAsBall(const BodyEntry& entry) {
  return entry.kind->drawing == BodyDrawing::Ball || entry.kind->drawing == BodyDrawing::Dot;
}

// The initial modal coordinates of a flexible body, cut to the modes the display uses.
Eigen::VectorXd initialModal(const FlexibleBodySpec& body, int modeCount) {
  Eigen::VectorXd w = Eigen::VectorXd::Zero(modeCount);
  for (int j = 0; j < modeCount && j < int(body.modal_coordinates.size()); ++j)
    w(j) = body.modal_coordinates[std::size_t(j)];
  return w;
}

}  // namespace

ModelScene::ModelScene(SceneOptions options) : m_options(options) {
  m_renderer = vtkSmartPointer<vtkRenderer>::New();
  setupRenderer();
  if (m_options.showOrientationAxes) setupOrientationAxes();
}

void ModelScene::setupOrientationAxes() {
  m_axesRenderer = vtkSmartPointer<vtkRenderer>::New();
  m_axesRenderer->SetLayer(1);
  m_axesRenderer->InteractiveOff();
  m_axesRenderer->SetViewport(0.0, 0.07, 0.18, 0.33);  // above the time label
  auto axes = vtkSmartPointer<vtkAxesActor>::New();
  axes->SetShaftTypeToCylinder();
  axes->SetCylinderRadius(0.03);
  axes->SetConeRadius(0.35);
  axes->SetTotalLength(1.0, 1.0, 1.0);
  for (vtkCaptionActor2D* caption : {axes->GetXAxisCaptionActor2D(), axes->GetYAxisCaptionActor2D(), axes->GetZAxisCaptionActor2D()}) {
    vtkTextProperty* style = caption->GetCaptionTextProperty();
    style->SetColor(kTextColour.data());
    style->SetFontFamilyToArial();
    style->BoldOff();
    style->ItalicOff();
    style->ShadowOff();
    caption->GetTextActor()->SetTextScaleModeToNone();
    style->SetFontSize(13);
  }
  m_axesRenderer->AddActor(axes);
  // before each frame: look at the axes from the main camera's direction, with its "up"
  auto follow = vtkSmartPointer<vtkCallbackCommand>::New();
  follow->SetClientData(this);
  follow->SetCallback([](vtkObject*, unsigned long, void* self, void*) {
    auto* scene = static_cast<ModelScene*>(self);
    vtkCamera* main = scene->m_renderer->GetActiveCamera();
    vtkCamera* corner = scene->m_axesRenderer->GetActiveCamera();
    double direction[3], up[3];
    main->GetDirectionOfProjection(direction);
    main->GetViewUp(up);
    corner->SetFocalPoint(0.0, 0.0, 0.0);
    corner->SetPosition(-4.6 * direction[0], -4.6 * direction[1], -4.6 * direction[2]);
    corner->SetViewUp(up);
    corner->SetParallelProjection(false);
    corner->SetViewAngle(30.0);
    scene->m_axesRenderer->ResetCameraClippingRange();
  });
  m_axesObserver = m_renderer->AddObserver(vtkCommand::StartEvent, follow);
}

vtkRenderer* ModelScene::axesRenderer() const { return m_axesRenderer; }

ModelScene::~ModelScene() {
  // the renderer may outlive the scene (a viewport still holds it): its callback must not
  if (m_axesRenderer) m_renderer->RemoveObserver(m_axesObserver);
}

vtkRenderer* ModelScene::renderer() const { return m_renderer; }

void ModelScene::setupRenderer() {
  if (m_options.gradientBackground) {
    m_renderer->GradientBackgroundOn();
    m_renderer->SetBackground(kBackgroundBottom.data());
    m_renderer->SetBackground2(kBackgroundTop.data());
  } else {
    m_renderer->SetBackground(kBackgroundBottom.data());
  }
  // a key/fill/back light kit reads shapes better than the single default headlight
  m_renderer->AutomaticLightCreationOff();
  auto lights = vtkSmartPointer<vtkLightKit>::New();
  lights->AddLightsToRenderer(m_renderer);
}

void ModelScene::clear() {
  m_renderer->RemoveAllViewProps();
  m_nodeMarks.clear();
  m_items.clear();
  m_savedLooks.clear();
  m_bodies.clear();
  m_table = BodyTable();
  m_flexible.clear();
  m_ground = BodyVisual();
  m_initialPoses.clear();
  m_markerActors.clear();
  m_springs.clear();
  m_beams.clear();
  m_globalLoads.clear();
  m_contacts.clear();
  m_contactLabel = nullptr;
  m_timeLabel = nullptr;
  m_scaleLabel = nullptr;
  m_lookupTable = nullptr;
  m_legendTable = nullptr;
  m_colourBar = nullptr;
  m_trace = nullptr;
  m_traceActor = nullptr;
  m_hovered.clear();
  m_runRange = ScalarRange();
  m_shownRange = ScalarRange();
  m_bounds = SceneBounds();
  m_length = 1.0;
  m_glyphSize = 0.05;
  m_planeNormal = Vec3::Zero();
  m_followed = -1;
}

void ModelScene::build(const ModelSpec& model, Diagnostics* diag, bool keepCamera) {
  std::vector<FlexibleVisual> previous = std::move(m_flexible);
  clear();
  m_up = upDirection(model.gravity);
  // every body's slot first: each kind's visuals go to their bodies' poses
  m_table = BodyTable(model);
  m_bodies.resize(std::size_t(m_table.size()));
  m_initialPoses.assign(std::size_t(m_table.size()), Pose::Identity());
  m_extents.assign(std::size_t(m_table.size()), {Vec3::Zero(), 0.0});
  m_flexible.resize(m_table.deformable().size());
  measure(model);
  addBodies(model, diag);
  addFlexibleBodies(model, diag, std::move(previous));
  addBalls(model);
  addGround(model);
  addJoints(model, diag);
  addSprings(model, diag);
  addBeams(model);
  addLoads(model, diag);
  addContacts(model, diag);
  if (m_options.showFloor && !m_bounds.empty()) addFloor();
  if (m_options.showLabels) addLabels(model);
  if (!m_flexible.empty()) addColourBar();
  addTrace();
  resetColourRange();
  setMarkersVisible(m_options.showMarkers);
  if (!keepCamera) resetCamera();
  applyHighlight(true);
}

void ModelScene::measure(const ModelSpec& model) {
  // also each body's extent in its own frame (a sphere), for the bounds of its later poses
  const auto reach = [](const std::vector<MarkerSpec>& markers, double r) {
    for (const MarkerSpec& marker : markers) r = std::max(r, marker.position.norm());
    return r;
  };
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const RigidBodySpec& body = model.bodies[b];
    const Pose bodyToWorld = makePose(body.position, body.orientation);
    const InertiaBox box = equivalentInertiaBox(body.mass, body.inertia, kMinBoxAspect);
    m_bounds.add(body.position, box.valid ? 0.5 * box.size.norm() : 0.0);
    for (const MarkerSpec& marker : body.markers) m_bounds.add(bodyToWorld * marker.position);
    m_extents[std::size_t(m_table.poseOf("bodies", b))] = {Vec3::Zero(), reach(body.markers, box.valid ? 0.5 * box.size.norm() : 0.0)};
  }
  for (std::size_t f = 0; f < model.flexible_bodies.size(); ++f) {
    const FlexibleBodySpec& body = model.flexible_bodies[f];
    const Pose feToWorld = flexiblePose(body);
    if (!body.data || body.data->coords.empty()) {
      m_bounds.add(body.position);
      continue;
    }
    Vec3 centre = Vec3::Zero();
    for (const Vec3& x : body.data->coords) {
      m_bounds.add(feToWorld * x);
      centre += x;
    }
    centre /= double(body.data->coords.size());
    double radius = 0.0;
    for (const Vec3& x : body.data->coords) radius = std::max(radius, (x - centre).norm());
    m_extents[std::size_t(m_table.poseOf("flexible_bodies", f))] = {centre, radius};
  }
  for (const BodyEntry& entry : m_table.entries()) {
    if (!drawnAsBall(entry)) continue;
    const Pose bodyToWorld = toPose(m_table.startPose(model, entry.pose));
    m_bounds.add(bodyToWorld.translation());
    double radius = 0.0;
    for (const MarkerSpec* marker : m_table.markers(model, entry.pose)) {
      m_bounds.add(bodyToWorld * marker->position);
      radius = std::max(radius, marker->position.norm());
    }
    m_extents[std::size_t(entry.pose)] = {Vec3::Zero(), radius};
  }
  for (const MarkerSpec& marker : model.ground_markers) m_bounds.add(marker.position);
  m_length = m_bounds.diagonal() > 1e-9 ? m_bounds.diagonal() : 1.0;
  m_glyphSize = 0.045 * m_length;
}

void ModelScene::addBodies(const ModelSpec& model, Diagnostics* diag) {
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const RigidBodySpec& body = model.bodies[b];
    const std::size_t pose = std::size_t(m_table.poseOf("bodies", b));
    BodyVisual& visual = m_bodies[pose];
    visual.setPose(makePose(body.position, body.orientation));
    m_initialPoses[pose] = visual.pose();
    const Rgb colour = bodyColour(pose);

    const std::string item = "bodies[" + std::to_string(b) + "]";
    // the shape: the body's own mesh when it names one that can be read
    vtkSmartPointer<vtkPolyData> mesh;
    if (body.visual.shape != VisualSpec::Shape::Mesh) {
      mesh = primitiveMesh(body.visual);
    } else if (!body.visual.file.empty()) {
      std::string error;
      mesh = loadVisualMesh(resolvePath(body.visual.file), body.visual.scale, error);
      if (!mesh && diag) diag->warning(item + ".visual.file", error + "; the body is drawn as its inertia box");
    }
    if (mesh) {
      auto shape = makeActor(smoothed(mesh), colour);
      visual.attach(shape, makePose(body.visual.position, body.visual.orientation));
      addActor(shape, item);
    } else {
      // equivalent-inertia box, or a small cube when mass data are unusable; slender links all
      // get about the same visible thickness, whatever their length
      const InertiaBox box = equivalentInertiaBox(body.mass, body.inertia, kMinBoxAspect);
      const Vec3 size = box.valid ? Vec3(box.size.cwiseMax(0.55 * m_glyphSize))
                                  : Vec3::Constant(1.5 * m_glyphSize);
      auto shape = makeActor(boxMesh(size), colour);
      visual.attach(shape, Pose(box.orientation));
      addActor(shape, item);
    }

    // the links from the centre of mass to the markers make a linkage read as one (a mesh
    // shows the body as it is: no links)
    std::vector<Vec3> ends;
    if (!mesh)
      for (const MarkerSpec& marker : body.markers) ends.push_back(marker.position);
    auto tubes = linkTubes(ends, 0.14 * m_glyphSize);
    if (tubes->GetNumberOfPoints() > 0) {
      auto links = makeActor(tubes, darker(colour, 0.8));
      visual.attach(links);
      addActor(links, item);
    }
    addMarkerTriads(visual, body.markers, item);
  }
}

void ModelScene::addFlexibleBodies(const ModelSpec& model, Diagnostics* diag, std::vector<FlexibleVisual> previous) {
  for (std::size_t f = 0; f < model.flexible_bodies.size(); ++f) {
    const FlexibleBodySpec& body = model.flexible_bodies[f];
    const BodyEntry& entry = m_table[m_table.poseOf("flexible_bodies", f)];
    BodyVisual& visual = m_bodies[std::size_t(entry.pose)];
    visual.setPose(flexiblePose(body));
    m_initialPoses[std::size_t(entry.pose)] = visual.pose();
    FlexibleVisual& flexible = m_flexible[std::size_t(entry.deformable)];
    flexible.colour = bodyColour(std::size_t(entry.pose));
    if (!body.data) {
      if (diag)
        diag->warning("flexible_bodies[" + std::to_string(f) + "] '" + body.name + "'",
                      "no reduced-body data loaded; body not drawn");
      continue;
    }
    const auto same = std::find_if(previous.begin(), previous.end(), [&](const FlexibleVisual& v) {
      return v.surface && v.data == body.data && v.modeCount == body.mode_count && v.stiffnessScale == body.stiffness_scale;
    });
    if (same != previous.end()) {
      flexible.surface = std::move(same->surface);
      flexible.actor = same->actor;
      flexible.ghost = same->ghost;
    } else {
      flexible.surface = std::make_unique<FlexibleSurface>(*body.data, body.mode_count, body.stiffness_scale);
    }
    flexible.data = body.data;
    flexible.modeCount = body.mode_count;
    flexible.stiffnessScale = body.stiffness_scale;
    flexible.initialModal = initialModal(body, flexible.surface->modeCount());
    flexible.surface->setQuantity(m_options.contour);
    flexible.surface->setModal(flexible.initialModal);
    flexible.surface->setScale(m_deformationScale);

    if (!flexible.actor) {
      auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
      if (flexible.surface->hasTriangles() && flexible.surface->nodes().size() > kSplitNormalsUpTo) {
        // large surfaces: plain averaged normals, ten times cheaper per frame than split ones
        // (docs/benchmarks.md, GUI section); their sharp edges are a small share of the picture
        auto normals = vtkSmartPointer<vtkTriangleMeshPointNormals>::New();
        normals->SetInputData(flexible.surface->mesh());
        mapper->SetInputConnection(normals->GetOutputPort());
      } else if (flexible.surface->hasTriangles()) {
        // smooth shading on curved faces, sharp edges kept (recomputed as the surface deforms)
        auto normals = vtkSmartPointer<vtkPolyDataNormals>::New();
        normals->SetInputData(flexible.surface->mesh());
        normals->SetFeatureAngle(50.0);
        normals->SplittingOn();
        normals->ConsistencyOff();
        normals->ComputeCellNormalsOff();
        mapper->SetInputConnection(normals->GetOutputPort());
      } else {
        mapper->SetInputData(flexible.surface->mesh());
      }
      mapper->SetScalarModeToUsePointData();
      mapper->InterpolateScalarsBeforeMappingOn();
      flexible.actor = vtkSmartPointer<vtkActor>::New();
      flexible.actor->SetMapper(mapper);
      // the undeformed shape, translucent and unpickable, for comparing with the deformed one
      flexible.ghost = makeActor(flexible.surface->undeformedMesh(), kGhostColour);
    }
    vtkProperty* property = flexible.actor->GetProperty();
    property->SetColor(flexible.colour[0], flexible.colour[1], flexible.colour[2]);
    property->SetAmbient(0.2);
    property->SetDiffuse(0.8);
    property->SetSpecular(0.2);
    property->SetSpecularPower(30.0);
    if (!flexible.surface->hasTriangles()) {
      property->SetPointSize(3.0);
      property->LightingOff();
    }
    visual.attach(flexible.actor);
    addActor(flexible.actor, "flexible_bodies[" + std::to_string(f) + "]");

    vtkProperty* ghost = flexible.ghost->GetProperty();
    ghost->SetColor(kGhostColour[0], kGhostColour[1], kGhostColour[2]);
    ghost->SetOpacity(0.22);
    ghost->SetSpecular(0.0);
    flexible.ghost->SetVisibility(m_options.showUndeformed);
    visual.attach(flexible.ghost);
    addActor(flexible.ghost);
  }
}

void ModelScene::addTrace() {
  m_trace = vtkSmartPointer<vtkPolyData>::New();
  m_trace->SetPoints(vtkSmartPointer<vtkPoints>::New());
  m_trace->SetLines(vtkSmartPointer<vtkCellArray>::New());
  m_traceActor = makeActor(m_trace, kTraceColour);
  m_traceActor->GetProperty()->SetLineWidth(2.5);
  m_traceActor->GetProperty()->LightingOff();
  m_traceActor->SetVisibility(false);
  addActor(m_traceActor);
}

void ModelScene::addBalls(const ModelSpec& model) {
  // a virtual body is a small grey dot: massless, no inertia shape; a mass without a shape (a
  // point mass) a larger ball in its body's colour
  for (const BodyEntry& entry : m_table.entries()) {
    if (!drawnAsBall(entry)) continue;
    std::vector<MarkerSpec> markers;
    for (const MarkerSpec* marker : m_table.markers(model, entry.pose)) markers.push_back(*marker);
    const std::size_t pose = std::size_t(entry.pose);
    if (entry.kind->drawing == BodyDrawing::Dot)
      addBall(pose, toPose(m_table.startPose(model, entry.pose)), 0.28, 0.08, kVirtualBodyColour, markers, entry.path);
    else
      addBall(pose, toPose(m_table.startPose(model, entry.pose)), 0.45, 0.1, bodyColour(pose), markers, entry.path);
  }
}

void ModelScene::addBall(std::size_t pose, const Pose& at, double radius, double linkRadius, const Rgb& colour,
                         const std::vector<MarkerSpec>& markers, const std::string& item) {
  BodyVisual& visual = m_bodies[pose];
  visual.setPose(at);
  m_initialPoses[pose] = visual.pose();
  auto ball = makeActor(sphereMesh(radius * m_glyphSize), colour);
  visual.attach(ball);
  addActor(ball, item);
  std::vector<Vec3> ends;
  for (const MarkerSpec& marker : markers) ends.push_back(marker.position);
  auto tubes = linkTubes(ends, linkRadius * m_glyphSize);
  if (tubes->GetNumberOfPoints() > 0) {
    auto links = makeActor(tubes, darker(colour, 0.8));
    visual.attach(links);
    addActor(links, item);
  }
  addMarkerTriads(visual, markers, item);
}

void ModelScene::addColourBar() {
  // blue (smallest) to red (largest); the legend's copy is labelled in mm, the unit in which
  // elastic displacements read best, while the surface scalars stay in SI
  const auto colours = [] {
    auto table = vtkSmartPointer<vtkLookupTable>::New();
    table->SetHueRange(0.667, 0.0);
    table->SetSaturationRange(0.85, 0.85);
    table->SetValueRange(0.95, 0.95);
    table->SetNumberOfTableValues(256);
    table->Build();
    return table;
  };
  m_lookupTable = colours();
  m_legendTable = colours();
  for (FlexibleVisual& flexible : m_flexible) {
    if (!flexible.actor) continue;
    flexible.actor->GetMapper()->SetLookupTable(m_lookupTable);
    flexible.actor->GetMapper()->UseLookupTableScalarRangeOn();
  }
  if (m_options.showColourBar) {
    m_colourBar = vtkSmartPointer<vtkScalarBarActor>::New();
    m_colourBar->SetLookupTable(m_legendTable);
    m_colourBar->SetLabelFormat("%-.4g");
    m_colourBar->UseCustomLabelsOn();  // round numbers (updateColours)
    m_colourBar->UnconstrainedFontSizeOn();
    m_colourBar->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
    m_colourBar->GetPositionCoordinate()->SetValue(0.87, 0.2);
    m_colourBar->SetWidth(0.09);
    m_colourBar->SetHeight(0.6);
    m_colourBar->SetBarRatio(0.3);
    for (vtkTextProperty* style : {m_colourBar->GetTitleTextProperty(), m_colourBar->GetLabelTextProperty()}) {
      style->SetColor(kTextColour.data());
      style->SetFontFamilyToArial();
      style->SetFontSize(13);
      style->BoldOff();
      style->ItalicOff();
      style->ShadowOff();
    }
    m_renderer->AddViewProp(m_colourBar);
  }
  if (m_options.showLabels) {
    m_scaleLabel = makeLabel("", 14);
    m_scaleLabel->GetTextProperty()->SetJustificationToRight();
    m_scaleLabel->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
    m_scaleLabel->GetPositionCoordinate()->SetValue(0.985, 0.02);
    m_renderer->AddViewProp(m_scaleLabel);
    updateScaleLabel();
  }
}

void ModelScene::addGround(const ModelSpec& model) {
  for (std::size_t m = 0; m < model.ground_markers.size(); ++m) {
    // apex at the marker, base towards the floor; drawn in world axes so it always points down
    auto anchor = makeActor(groundCone(m_up, 1.3 * m_glyphSize, 0.55 * m_glyphSize), kGroundColour);
    m_ground.attach(anchor, makePose(model.ground_markers[m].position, Quat::Identity()));
    addActor(anchor, "ground.markers[" + std::to_string(m) + "]");
  }
  addMarkerTriads(m_ground, model.ground_markers, "ground");
}

void ModelScene::addMarkerTriads(BodyVisual& owner, const std::vector<MarkerSpec>& markers, const std::string& item) {
  // one actor per marker, so that each is picked, hovered and highlighted as an item of its own
  for (std::size_t m = 0; m < markers.size(); ++m) {
    auto triad = makeLineActor(axisTriads({makePose(markers[m].position, markers[m].orientation)}, 1.8 * m_glyphSize), 2.0);
    owner.attach(triad);
    addActor(triad, item + ".markers[" + std::to_string(m) + "]");
    m_markerActors.push_back(triad);
  }
}

void ModelScene::addJoints(const ModelSpec& model, Diagnostics* diag) {
  std::vector<Vec3> hingeAxes;  // world axes of revolute and cylindrical joints
  for (std::size_t j = 0; j < model.joints.size(); ++j) {
    const JointSpec& joint = model.joints[j];
    // the glyph rides on body2 (on body1 when body2 is the ground)
    const bool onBody2 = joint.body2 != kGroundName;
    const std::string& body = onBody2 ? joint.body2 : joint.body1;
    const std::string& marker = onBody2 ? joint.marker2 : joint.marker1;
    int owner = -1;
    Pose markerInBody;
    if (!findMarker(model, body, marker, owner, markerInBody)) {
      if (diag)
        diag->warning("joints[" + std::to_string(j) + "] '" + joint.name + "'",
                      "marker '" + marker + "' on body '" + body + "' not found; joint not drawn");
      continue;
    }
    auto glyph = makeActor(jointGlyph(joint.type, m_glyphSize), jointColour(joint.type));
    visualOf(owner).attach(glyph, markerInBody);
    addActor(glyph, "joints[" + std::to_string(j) + "]");
    if (joint.type == JointType::Revolute || joint.type == JointType::Cylindrical)
      hingeAxes.push_back((visualOf(owner).pose() * markerInBody).linear().col(2));
  }
  m_planeNormal = motionPlaneNormal(hingeAxes);
}

void ModelScene::addSprings(const ModelSpec& model, Diagnostics* diag) {
  for (std::size_t f = 0; f < model.forces.size(); ++f) {
    const ForceSpec& force = model.forces[f];
    const ForceKindDescription* kind = findForceKind(force.type.key());
    if (!kind || !kind->twoEnds) continue;
    SpringVisual spring;
    Pose marker1, marker2;
    if (!findMarker(model, force.body1, force.marker1, spring.end1.body, marker1) ||
        !findMarker(model, force.body2, force.marker2, spring.end2.body, marker2)) {
      if (diag)
        diag->warning("forces[" + std::to_string(f) + "] '" + force.name + "'",
                      "a marker of this element was not found; element not drawn");
      continue;
    }
    spring.end1.inBody = marker1.translation();
    spring.end2.inBody = marker2.translation();
    spring.line = springLine(worldPoint(spring.end1), worldPoint(spring.end2), springAmplitude());
    auto actor = makeActor(spring.line, kSpringColour);
    actor->GetProperty()->SetLineWidth(2.5);
    actor->GetProperty()->LightingOff();
    addActor(actor, "forces[" + std::to_string(f) + "]");
    m_springs.push_back(spring);
  }
}

void ModelScene::addLoads(const ModelSpec& model, Diagnostics* diag) {
  for (std::size_t i = 0; i < model.forces.size(); ++i) {
    const ForceSpec& load = model.forces[i];
    const bool torque = load.type == ForceSpec::Type::PointTorque;
    if ((load.type != ForceSpec::Type::PointForce && !torque) || load.vector.norm() == 0.0) continue;
    const std::string item = "forces[" + std::to_string(i) + "]";
    // where it acts: a marker, or an FE node of a flexible body (drawn at its undeformed place)
    int owner = -1;
    Pose at = Pose::Identity();
    bool found = false;
    const int loaded = m_table.poseNamed(load.body1);
    if (loaded >= 0 && m_table[loaded].kind->deformable) {
      const auto& data = m_flexible[std::size_t(m_table[loaded].deformable)].data;
      for (std::size_t n = 0; data && n < data->node_ids.size() && !found; ++n)
        if (data->node_ids[n] == load.node) {
          owner = loaded;
          at = Pose(Eigen::Translation3d(data->coords[n]));
          found = true;
        }
    }
    if (!found) found = findMarker(model, load.body1, load.marker1, owner, at);
    if (!found) {
      if (diag) diag->warning(item + " '" + load.name + "'", "its marker or node was not found; load not drawn");
      continue;
    }
    auto arrow = makeActor(loadArrow(2.2 * m_glyphSize, torque), torque ? kTorqueColour : kForceColour);
    addActor(arrow, item);
    const Vec3 direction = load.vector.normalized();
    if (load.frame == ForceSpec::Frame::Marker) {  // fixed in the marker's (or FE) axes
      const Quat turn = Quat::FromTwoVectors(Vec3::UnitZ(), at.linear() * direction);
      visualOf(owner).attach(arrow, Pose(Eigen::Translation3d(at.translation())) * Pose(turn));
    } else {
      m_globalLoads.push_back({arrow, {owner, at.translation()}, Quat::FromTwoVectors(Vec3::UnitZ(), direction)});
    }
  }
  updateLoads();
}

void ModelScene::updateLoads() {
  for (LoadVisual& load : m_globalLoads)
    load.actor->SetUserMatrix(toVtkMatrix(Pose(Eigen::Translation3d(worldPoint(load.at))) * Pose(load.direction)));
}

void ModelScene::addFloor() {
  // grid a little below the lowest point of the model, in the plane normal to "up"
  const Vec3 centre = m_bounds.centre();
  double lowest = centre.dot(m_up);
  for (int corner = 0; corner < 8; ++corner) {
    const Vec3 p((corner & 1) ? m_bounds.max().x() : m_bounds.min().x(),
                 (corner & 2) ? m_bounds.max().y() : m_bounds.min().y(),
                 (corner & 4) ? m_bounds.max().z() : m_bounds.min().z());
    lowest = std::min(lowest, p.dot(m_up));
  }
  // at least half the model size below its centre: links that swing down from a flat initial
  // layout should mostly stay above the grid
  const double below = std::min(lowest - centre.dot(m_up), -0.5 * m_length) - 0.08 * m_length;
  const Vec3 floorCentre = centre + below * m_up;
  const double spacing = niceStep(m_length / 8.0);
  auto grid = makeActor(floorGrid(floorCentre, m_up, 0.75 * m_length, spacing), kGridColour);
  grid->GetProperty()->LightingOff();
  grid->GetProperty()->SetOpacity(0.55);
  addActor(grid);

  std::vector<Pose> origin{Pose::Identity()};
  auto worldAxes = makeLineActor(axisTriads(origin, 0.12 * m_length), 3.0);
  addActor(worldAxes);
}

void ModelScene::addLabels(const ModelSpec& model) {
  const std::string title = model.name.empty() ? std::string("(unnamed model)") : model.name;
  auto titleLabel = makeLabel(title, 18);
  titleLabel->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  titleLabel->GetPositionCoordinate()->SetValue(0.015, 0.94);
  m_renderer->AddViewProp(titleLabel);

  m_timeLabel = makeLabel("", 18);
  m_timeLabel->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  m_timeLabel->GetPositionCoordinate()->SetValue(0.015, 0.02);
  m_renderer->AddViewProp(m_timeLabel);
  setTime(0.0);
}

void ModelScene::addActor(vtkActor* actor, const std::string& item) {
  m_renderer->AddActor(actor);
  if (!item.empty()) m_items[actor] = item;
  else actor->PickableOff();  // the floor, axes and ground anchors are not items
}

bool ModelScene::findMarker(const ModelSpec& model, const std::string& body,
                            const std::string& marker, int& bodyIndex, Pose& markerInBody) const {
  const MarkerSpec* m = m_table.marker(model, body, marker);
  if (!m) return false;
  bodyIndex = m_table.poseNamed(body);
  markerInBody = makePose(m->position, m->orientation);
  return true;
}

BodyVisual& ModelScene::visualOf(int bodyIndex) {
  return bodyIndex < 0 ? m_ground : m_bodies[static_cast<std::size_t>(bodyIndex)];
}

Vec3 ModelScene::worldPoint(const AnchoredPoint& p) const {
  const Pose& bodyToWorld =
      p.body < 0 ? m_ground.pose() : m_bodies[static_cast<std::size_t>(p.body)].pose();
  return bodyToWorld * p.inBody;
}

bool ModelScene::setPoses(const std::vector<BodyPose>& poses) {
  if (poses.size() != m_bodies.size()) return false;
  const bool following = m_followed >= 0 && std::size_t(m_followed) < m_bodies.size();
  const Vec3 before = following ? Vec3(m_bodies[std::size_t(m_followed)].pose().translation()) : Vec3::Zero();
  for (std::size_t b = 0; b < poses.size(); ++b)
    m_bodies[b].setPose(makePose(poses[b].position, poses[b].orientation));
  if (following) {
    // the camera moves with the body: it stays where it was relative to it
    const Vec3 shift = m_bodies[std::size_t(m_followed)].pose().translation() - before;
    vtkCamera* camera = m_renderer->GetActiveCamera();
    double position[3], focal[3];
    camera->GetPosition(position);
    camera->GetFocalPoint(focal);
    camera->SetPosition(position[0] + shift.x(), position[1] + shift.y(), position[2] + shift.z());
    camera->SetFocalPoint(focal[0] + shift.x(), focal[1] + shift.y(), focal[2] + shift.z());
    m_renderer->ResetCameraClippingRange();
  }
  updateSprings();
  updateBeams();
  updateLoads();
  return true;
}

bool ModelScene::setModal(const std::vector<Eigen::VectorXd>& modal) {
  if (!modal.empty() && modal.size() != m_flexible.size()) return false;
  for (std::size_t f = 0; f < modal.size(); ++f) {
    const FlexibleSurface* surface = m_flexible[f].surface.get();
    if (surface && (modal[f].size() > surface->modeCount() || !modal[f].allFinite())) return false;
  }
  for (std::size_t f = 0; f < m_flexible.size(); ++f) {
    FlexibleSurface* surface = m_flexible[f].surface.get();
    if (!surface) continue;
    surface->setModal(modal.empty() ? Eigen::VectorXd() : modal[f]);
  }
  m_runRange.add(currentRange());
  updateColours();
  return true;
}

bool ModelScene::setSample(const Sample& sample) {
  if (sample.poses.size() != m_bodies.size()) return false;
  if (!sample.modal.empty() && sample.modal.size() != m_flexible.size()) return false;
  if (!setModal(sample.modal)) return false;
  setPoses(sample.poses);
  setTime(sample.t);
  return true;
}

bool ModelScene::includeInBounds(const std::vector<BodyPose>& poses) {
  if (poses.size() != m_extents.size()) return false;
  for (std::size_t b = 0; b < poses.size(); ++b)
    m_bounds.add(makePose(poses[b].position, poses[b].orientation) * m_extents[b].first, m_extents[b].second);
  return true;
}

void ModelScene::resetPoses() {
  for (std::size_t b = 0; b < m_bodies.size(); ++b) m_bodies[b].setPose(m_initialPoses[b]);
  for (FlexibleVisual& flexible : m_flexible)
    if (flexible.surface) flexible.surface->setModal(flexible.initialModal);
  updateSprings();
  updateBeams();
  updateLoads();
  m_runRange.add(currentRange());
  updateColours();
}

const FlexibleSurface* ModelScene::flexibleSurface(std::size_t i) const {
  return i < m_flexible.size() ? m_flexible[i].surface.get() : nullptr;
}

vtkLookupTable* ModelScene::displacementColours() const { return m_lookupTable; }

vtkScalarBarActor* ModelScene::colourBar() const { return m_colourBar; }

vtkActor* ModelScene::flexibleActor(std::size_t i) const {
  return i < m_flexible.size() ? m_flexible[i].actor.Get() : nullptr;
}

vtkActor* ModelScene::undeformedActor(std::size_t i) const {
  return i < m_flexible.size() ? m_flexible[i].ghost.Get() : nullptr;
}

void ModelScene::updateSprings() {
  for (SpringVisual& spring : m_springs) {
    placeSpring(spring.line, worldPoint(spring.end1), worldPoint(spring.end2), springAmplitude());
  }
}

void ModelScene::setMarkersVisible(bool visible) {
  m_options.showMarkers = visible;
  for (auto& actor : m_markerActors) actor->SetVisibility(visible);
}

void ModelScene::resetCamera() { viewFrom(ViewPreset::Default); }

bool ModelScene::boundsInView() const {
  if (m_bounds.empty()) return true;
  vtkCamera* camera = m_renderer->GetActiveCamera();
  double position[3], direction[3];
  camera->GetPosition(position);
  camera->GetDirectionOfProjection(direction);
  for (int corner = 0; corner < 8; ++corner) {
    const Vec3 p((corner & 1) ? m_bounds.max().x() : m_bounds.min().x(), (corner & 2) ? m_bounds.max().y() : m_bounds.min().y(),
                 (corner & 4) ? m_bounds.max().z() : m_bounds.min().z());
    m_renderer->SetWorldPoint(p.x(), p.y(), p.z(), 1.0);
    m_renderer->WorldToView();
    double view[3];
    m_renderer->GetViewPoint(view);
    // behind the camera, or beyond the view's edges
    const Vec3 fromCamera = p - Vec3(position[0], position[1], position[2]);
    if (fromCamera.dot(Vec3(direction[0], direction[1], direction[2])) <= 0.0) return false;
    if (!(std::abs(view[0]) <= 1.0 && std::abs(view[1]) <= 1.0)) return false;
  }
  return true;
}

void ModelScene::setFollowedBody(int body) { m_followed = body >= 0 && std::size_t(body) < m_bodies.size() ? body : -1; }

void ModelScene::setBaseDirectory(const std::string& directory) { m_baseDirectory = directory; }

std::string ModelScene::resolvePath(const std::string& file) const {
  const std::filesystem::path path(file);
  if (path.is_absolute() || m_baseDirectory.empty()) return file;
  return (std::filesystem::path(m_baseDirectory) / path).lexically_normal().string();
}

void ModelScene::viewFrom(ViewPreset preset) {
  m_renderer->GetActiveCamera()->SetParallelProjection(m_parallel);
  frameCameraAlong(*m_renderer, m_bounds, m_up, presetViewDirection(preset, m_bounds, m_up, m_planeNormal), framingFill());
}

std::size_t ModelScene::bodyCount(std::string_view listKey) const {
  return std::size_t(std::count_if(m_table.entries().begin(), m_table.entries().end(),
                                   [&](const BodyEntry& e) { return e.kind->listKey == listKey; }));
}

int ModelScene::bodyIndexOf(const std::string& item) const {
  const int pose = m_table.poseOf(item);
  return pose >= 0 && m_table[pose].path == item ? pose : -1;  // the body itself, not a part of it
}

SceneBounds ModelScene::boundsOf(const std::string& item) const {
  SceneBounds box;
  for (vtkActor* actor : actorsOf(item)) {
    const double* b = actor->GetBounds();
    if (!b || b[0] > b[1]) continue;
    box.add(Vec3(b[0], b[2], b[4]));
    box.add(Vec3(b[1], b[3], b[5]));
  }
  return box;
}

bool ModelScene::fitItem(const std::string& item) {
  const SceneBounds box = boundsOf(item);
  if (box.empty()) return false;
  vtkCamera* camera = m_renderer->GetActiveCamera();
  double position[3], focal[3];
  camera->GetPosition(position);
  camera->GetFocalPoint(focal);
  const Vec3 direction = (Vec3(position[0], position[1], position[2]) - Vec3(focal[0], focal[1], focal[2])).normalized();
  frameCameraAlong(*m_renderer, box, m_up, direction, framingFill());
  return true;
}

double ModelScene::framingFill() const {
  // the colour bar starts at 87 % of the width (74 % of the half-width right of the centre)
  return m_colourBar ? 0.7 : 0.85;
}

void ModelScene::setParallelProjection(bool on) {
  m_parallel = on;
  m_renderer->GetActiveCamera()->SetParallelProjection(on);
  m_renderer->ResetCameraClippingRange();
}

}  // namespace flexim::render
