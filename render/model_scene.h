// The 3-D picture of a ModelSpec: one BodyVisual per rigid body (inertia box, links to its
// markers, marker triads, glyphs of the joints it carries), per flexible body (the display
// surface of its reduced body, deformed by the modal coordinates and coloured by the
// displacement magnitude) and per virtual body (a small sphere with its marker triads), the
// ground (its markers and joint glyphs), spring-damper lines, a floor grid and world axes, plus
// the model name and time. Build once per model; setPoses()/setModal() (or setSample()) then
// move and deform everything without rebuilding. Its methods live in model_scene.cpp (building,
// poses, camera), model_scene_colours.cpp (contours, colour scale, labels) and
// model_scene_selection.cpp (picking, highlight, hover, marked nodes, the trace).
#pragma once

#include "core/base/diagnostics.h"
#include "core/model/body_table.h"
#include "core/model/model.h"
#include "core/run/simulation.h"
#include "core/system/beam_elements.h"
#include "render/body_visual.h"
#include "render/flexible_surface.h"
#include "render/palette.h"
#include "render/scene_framing.h"

#include <vtkSmartPointer.h>

#include <map>
#include <memory>
#include <optional>
#include <vector>

class vtkActor;
class vtkLookupTable;
class vtkPolyData;
class vtkRenderer;
class vtkScalarBarActor;
class vtkTextActor;
class vtkTubeFilter;

namespace flexim::render {

/// Which displacements set the ends of the colour scale.
enum class ColourRangeMode {
  WholeRun,  ///< every sample fed to includeInColourRange (a colour means the same in every frame)
  EachFrame, ///< the frame shown (details of small deformations stay visible)
  Fixed      ///< limits the user set (SceneOptions::fixedRange): frames and runs compare alike
};

struct SceneOptions {
  bool gradientBackground = true;  ///< false: plain kBackgroundBottom (easy pixel tests)
  bool showFloor = true;           ///< grid under the model and world axes at the origin
  bool showMarkers = true;         ///< marker axis triads
  bool showLabels = true;          ///< model name and time (and the deformation scale)
  /// Flexible bodies coloured by their displacement once something has deformed (until
  /// then, and with this off, in their body colour).
  bool colourByDisplacement = true;
  ContourQuantity contour = ContourQuantity::Magnitude;
  ColourRangeMode colourRange = ColourRangeMode::WholeRun;
  ScalarRange fixedRange{0.0, 1.0};  ///< Fixed: the colour scale's ends, SI (m, Pa)
  /// The unit stresses are shown in on the colour bar and its factor from Pa.
  std::string stressUnit = "MPa";
  double stressScale = 1e-6;
  bool showUndeformed = false;     ///< a translucent ghost of each flexible body's undeformed shape
  bool showColourBar = true;       ///< the displacement legend (with flexible bodies only)
  bool showOrientationAxes = true; ///< x/y/z axes in the lower left corner that turn with the view
};

/// What a click in the view hit.
struct PickResult {
  std::string item;   ///< JSON path of the item ("bodies[0]", "joints[2]"); empty: nothing pickable
  Vec3 point = Vec3::Zero();  ///< the picked surface point, global [m]
  /// On a flexible body: the FE node nearest to the point (-1 otherwise), its position as drawn
  /// (global) and its elastic displacement u = Phi w (body frame, true size) [m].
  int node_id = -1;
  Vec3 node_position = Vec3::Zero();
  Vec3 node_displacement = Vec3::Zero();
  /// The picked body (Sample::poses index, -1 for none), and where the point sits on it: a
  /// surface point of a flexible body (FlexibleSurface index) or a point in the body frame.
  int body = -1;
  int surface_point = -1;
  Vec3 point_in_body = Vec3::Zero();
};

/// A point that moves with a body, whose path can be drawn (setTracePath).
struct TracePoint {
  int body = -1;          ///< Sample::poses index; -1: none
  int surface_point = -1; ///< >= 0: this surface point of the flexible body, as it deforms
  Vec3 in_body = Vec3::Zero();  ///< otherwise: fixed in the body frame
  std::string label;      ///< for messages ("node 1234 of 'rod'")
  bool valid() const { return body >= 0; }
};

/// A contact point's state in a frame (from the run's contact channels).
struct ContactPointState {
  bool closed = false;
  double normalForce = 0.0;  ///< [N]
};

class ModelScene {
 public:
  explicit ModelScene(SceneOptions options = {});
  ~ModelScene();
  ModelScene(const ModelScene&) = delete;
  ModelScene& operator=(const ModelScene&) = delete;

  /// Replaces the scene with the model's initial configuration and frames the camera (unless
  /// keepCamera: an edit of the model redraws it as the user was looking at it).
  /// Unknown markers named by joints or forces are reported as warnings (if diag is given).
  void build(const ModelSpec& model, Diagnostics* diag = nullptr, bool keepCamera = false);
  void clear();

  /// Poses in Sample::poses order: the rigid bodies, then the flexible bodies (their FE frame),
  /// then the virtual bodies. Returns false (and changes nothing) when the count does not match
  /// bodyCount().
  bool setPoses(const std::vector<BodyPose>& poses);
  /// modal[i]: modal coordinates of flexible_bodies[i] (Sample::modal). Shorter vectors zero
  /// the remaining modes; an empty list shows every flexible body undeformed. Returns false (and
  /// changes nothing) when the count does not match or a vector has more modes than the body
  /// uses. The colour range grows to include the shown displacements.
  bool setModal(const std::vector<Eigen::VectorXd>& modal);
  /// setPoses + setModal + setTime of one output sample; false if poses or modal do not fit.
  bool setSample(const Sample& sample);
  /// Widens the box that camera presets and Home frame to include the bodies at these poses
  /// (Sample::poses order): feed a run's samples and the whole motion is framed. False when
  /// the count does not fit.
  bool includeInBounds(const std::vector<BodyPose>& poses);
  /// Back to the model's initial configuration (initial modal coordinates of flexible bodies).
  void resetPoses();
  void setTime(double t);
  /// What the times set are, for the label: empty for the time [s] of a run, else a name
  /// ("load factor" of a static equilibrium's levels).
  void setAbscissaName(std::string name);

  /// Displayed deformation = scale * elastic displacement (1 = true size; colours and the
  /// legend always show the true displacement). Non-finite or negative values are ignored.
  void setDeformationScale(double scale);
  double deformationScale() const { return m_deformationScale; }
  void setDisplacementColouring(bool on);
  bool displacementColouring() const { return m_options.colourByDisplacement; }
  /// The quantity the colours and the legend show. The run range restarts from the displayed
  /// configuration (feed the samples again with includeInColourRange).
  void setContour(ContourQuantity quantity);
  ContourQuantity contour() const { return m_options.contour; }
  void setColourRangeMode(ColourRangeMode mode);
  /// The ends of the colour scale in ColourRangeMode::Fixed, SI (m, Pa); ignored unless lo < hi.
  void setFixedColourRange(const ScalarRange& range);
  ScalarRange fixedColourRange() const { return m_options.fixedRange; }
  /// The unit the colour bar shows stresses in ("MPa") and its factor from Pa (1e-6).
  void setStressUnit(const std::string& unit, double scale);
  /// The contour quantity's unit on the colour bar and its factor from SI ("relative" in a mode view).
  ContourUnit shownContourUnit() const;
  /// A mode shape is shown (non-empty text, e.g. "mode 7: 123.4 Hz"): the label names it instead
  /// of a time, and the colour bar reads relative values (largest = 1): a mode's amplitude is
  /// arbitrary, so its displacements and (mass-normalised) stresses have no absolute size.
  /// Empty: back to times and units.
  void setModeLabel(const std::string& text);
  bool showingMode() const { return !m_modeLabel.empty(); }
  /// What the time label in the view's corner says ("t = 0.1000 s", or the mode shown).
  std::string timeLabelText() const;
  ColourRangeMode colourRangeMode() const { return m_options.colourRange; }
  /// Widens the run's colour range to include these modal coordinates (one sample).
  /// Feed every sample of a run so that a colour means the same displacement in every frame.
  void includeInColourRange(const std::vector<Eigen::VectorXd>& modal);
  /// The same for the modal coordinates of several samples at once (one matrix product per body).
  void includeInColourRange(const std::vector<Sample>& samples);
  /// Run range back to that of the displayed configuration.
  void resetColourRange();
  /// The colour scale now [m] (of the contour quantity; empty while nothing has deformed).
  ScalarRange colourRange() const { return m_shownRange; }
  /// Upper end of the colour scale [m] (0 while nothing has deformed).
  double colourRangeMax() const { return m_shownRange.empty() ? 0.0 : m_shownRange.hi; }

  /// A translucent copy of each flexible body's undeformed surface, riding with its frame.
  void setUndeformedVisible(bool visible);
  bool undeformedVisible() const { return m_options.showUndeformed; }

  /// The point of a pick that can be traced (invalid when nothing was hit).
  TracePoint tracePointOf(const PickResult& pick) const;
  /// Global position of a traced point in a sample, as drawn (deformation scale included);
  /// false when the sample does not fit the scene.
  bool tracePosition(const TracePoint& point, const Sample& sample, Vec3& position) const;
  /// Draws a polyline through these global points (fewer than 2: nothing).
  void setTracePath(const std::vector<Vec3>& points);
  std::size_t tracePathSize() const;

  /// The contact points' states (the model's contacts in order, each with its points), drawn as
  /// closed (orange) or open, with an arrow of the normal force, `largestForce` [N] the longest;
  /// false when the count does not fit contactPointCount().
  bool setContactStates(const std::vector<ContactPointState>& states, double largestForce);
  std::size_t contactPointCount() const;
  /// Whether contact point i is drawn closed (for tests).
  bool contactPointClosed(std::size_t i) const;

  void setMarkersVisible(bool visible);
  bool markersVisible() const { return m_options.showMarkers; }
  /// Default camera for the built model.
  void resetCamera();
  /// Whether the whole model (and the motion of a run shown so far) is inside the view.
  bool boundsInView() const;
  /// The camera keeps its offset from this body (Sample::poses index; -1: none) as the body
  /// moves from frame to frame.
  void setFollowedBody(int body);
  int followedBody() const { return m_followed; }

  vtkRenderer* renderer() const;
  /// The corner renderer with the orientation axes (layer 1 over renderer(), not interactive;
  /// its camera follows the main one), or nullptr when the option is off. Show both.
  vtkRenderer* axesRenderer() const;
  /// The bodies drawn, in Sample::poses order.
  const BodyTable& bodyTable() const { return m_table; }
  /// All bodies (the length of Sample::poses).
  std::size_t bodyCount() const { return m_bodies.size(); }
  /// The bodies of one list ("virtual_bodies").
  std::size_t bodyCount(std::string_view listKey) const;
  /// The deformable bodies (the length of Sample::modal).
  std::size_t flexibleBodyCount() const { return m_flexible.size(); }
  /// Current pose of body i (Sample::poses order).
  const Pose& bodyPose(std::size_t i) const { return m_bodies[i].pose(); }
  /// The deformable surface of deformable body i, BodyTable::deformable()[i] (nullptr when it has
  /// no reduced-body data).
  const FlexibleSurface* flexibleSurface(std::size_t i) const;
  /// Its actor (placed by the FE-frame pose), or nullptr.
  vtkActor* flexibleActor(std::size_t i) const;
  /// Colours of the contour quantity [m] (nullptr when the model has no flexible body).
  vtkLookupTable* displacementColours() const;
  /// The translucent undeformed copy of flexible body i, or nullptr.
  vtkActor* undeformedActor(std::size_t i) const;
  /// The legend, or nullptr when the model has no flexible body or the option is off.
  vtkScalarBarActor* colourBar() const;
  /// Model size [m] used for glyph sizes (diagonal of the initial layout).
  double characteristicLength() const { return m_length; }
  /// The Sample::poses index of a body item ("bodies[1]", "flexible_bodies[0]",
  /// "virtual_bodies[2]"); -1 for anything else or an index out of range.
  int bodyIndexOf(const std::string& item) const;
  const SceneBounds& bounds() const { return m_bounds; }
  const SceneOptions& options() const { return m_options; }

  /// The item under a display position (pixels, origin at the bottom left of the renderer's
  /// viewport), and the FE node nearest to it on a flexible body.
  PickResult pick(double x, double y) const;
  /// The item whose actors a prop belongs to ("" for none: floor, ground anchors, labels).
  std::string itemOf(vtkProp* prop) const;
  /// The folder of the model file: files named in the model (visual meshes) are relative to it.
  void setBaseDirectory(const std::string& directory);
  /// Looks at the whole model from a standard direction.
  void viewFrom(ViewPreset preset);
  /// Frames an item's actors (the current view direction kept); false if it has none.
  bool fitItem(const std::string& item);
  /// Parallel (orthographic) instead of perspective projection; kept when the scene is rebuilt.
  void setParallelProjection(bool on);
  /// Marks nodes of flexible body `flexible` (its index among the flexible bodies) with small
  /// spheres that move with the body — the rigid–flexible joint's nodes k, m, n of a selected
  /// virtual body in red, green and blue (points in the body's FE frame, undeformed). An empty
  /// list removes the marks; a rebuild removes them too.
  void markNodes(std::size_t flexible, const std::vector<Vec3>& points);
  std::size_t markedNodeCount() const { return m_nodeMarks.size(); }
  /// Draws the item's actors highlighted ("" for none); kept when the scene is rebuilt.
  void setHighlighted(const std::string& item);
  /// Outlines the item under the mouse with a thin box ("" for none); returns false when the
  /// item was already the hovered one (nothing to redraw).
  bool setHovered(const std::string& item);
  const std::string& hovered() const { return m_hovered; }
  /// Whether an actor is drawn highlighted now (for tests).
  bool isHighlighted(vtkActor* actor) const;
  /// The actors drawn for an item.
  std::vector<vtkActor*> actorsOf(const std::string& item) const;

 private:
  // A point fixed to a body (body index, or -1 for the ground), for lines that stretch.
  struct AnchoredPoint {
    int body = -1;
    Vec3 inBody = Vec3::Zero();
  };
  struct SpringVisual {
    vtkSmartPointer<vtkPolyData> line;
    AnchoredPoint end1, end2;
  };

  struct FlexibleVisual;
  void setupRenderer();
  void setupOrientationAxes();
  /// How much of the view a framed model fills (less with a colour bar, which it must not hide).
  double framingFill() const;
  /// The world box of an item's actors as drawn now (empty when it has none).
  SceneBounds boundsOf(const std::string& item) const;
  void measure(const ModelSpec& model);
  void addBodies(const ModelSpec& model, Diagnostics* diag);
  /// A file named in the model, relative to the model file's folder.
  std::string resolvePath(const std::string& file) const;
  /// `previous`: the visuals of the last build; one of the same data, mode count and stiffness
  /// scale is kept (surface, actors) instead of made again (a 100 000-node surface takes ~15 ms).
  void addFlexibleBodies(const ModelSpec& model, Diagnostics* diag, std::vector<FlexibleVisual> previous);
  /// The bodies of kinds drawn as a ball or a dot (BodyKindDescription::drawing).
  void addBalls(const ModelSpec& model);
  /// A body drawn as a ball at `at` (radius and link thickness in glyph sizes), with links to its
  /// markers and their triads: a virtual body, a point mass.
  void addBall(std::size_t pose, const Pose& at, double radius, double linkRadius, const Rgb& colour,
               const std::vector<MarkerSpec>& markers, const std::string& item);
  void addColourBar();
  void addTrace();
  void addGround(const ModelSpec& model);
  void addJoints(const ModelSpec& model, Diagnostics* diag);
  void addSprings(const ModelSpec& model, Diagnostics* diag);
  /// Beam elements as their integrated centre line (model_scene_beams.cpp).
  void addBeams(const ModelSpec& model);
  void updateBeams();
  /// Point forces and torques as arrows at their marker (or FE node), pointing along their
  /// vector (not to scale: the magnitude varies in time).
  void addLoads(const ModelSpec& model, Diagnostics* diag);
  void updateLoads();
  /// Contacts as their geometry, with a dot and a force arrow per contact point
  /// (model_scene_contacts.cpp).
  void addContacts(const ModelSpec& model, Diagnostics* diag);
  void addFloor();
  void addLabels(const ModelSpec& model);
  /// Adds an actor to the scene, drawn for the item at that JSON path ("" for none).
  void addActor(vtkActor* actor, const std::string& item = {});
  void addMarkerTriads(BodyVisual& owner, const std::vector<MarkerSpec>& markers, const std::string& item);
  void applyHighlight(bool on);
  /// Body index (-1 = ground) and marker pose in that body's frame; false if not found.
  bool findMarker(const ModelSpec& model, const std::string& body, const std::string& marker,
                  int& bodyIndex, Pose& markerInBody) const;
  BodyVisual& visualOf(int bodyIndex);
  Vec3 worldPoint(const AnchoredPoint& p) const;
  void updateSprings();
  void updateColours();
  void updateScaleLabel();
  /// The current configuration's range of the contour quantity over all flexible bodies.
  ScalarRange currentRange() const;
  double springAmplitude() const { return 0.3 * m_glyphSize; }

  struct FlexibleVisual {
    std::unique_ptr<FlexibleSurface> surface;  ///< null: no reduced-body data
    std::shared_ptr<const fe::ReducedBody> data;
    vtkSmartPointer<vtkActor> actor;
    vtkSmartPointer<vtkActor> ghost;  ///< undeformed shape
    Eigen::VectorXd initialModal;
    Rgb colour{};
    int modeCount = 0;            ///< the spec's mode_count and stiffness_scale the surface was made with:
    double stiffnessScale = 1.0;  ///< a rebuild keeps a surface made from the same data alike
  };

  SceneOptions m_options;
  vtkSmartPointer<vtkRenderer> m_renderer;
  vtkSmartPointer<vtkRenderer> m_axesRenderer;
  unsigned long m_axesObserver = 0;  ///< the main renderer's callback that turns the axes
  std::vector<BodyVisual> m_bodies;  ///< by pose (Sample::poses order)
  std::vector<vtkSmartPointer<vtkActor>> m_nodeMarks;  ///< markNodes
  std::size_t m_nodeMarksOn = 0;                        ///< the body they move with (m_bodies index)
  BodyTable m_table;  ///< which body each of m_bodies is
  std::vector<FlexibleVisual> m_flexible;  ///< by BodyTable::deformable() index (Sample::modal order)
  BodyVisual m_ground;
  std::vector<Pose> m_initialPoses;
  std::vector<vtkSmartPointer<vtkActor>> m_markerActors;
  std::vector<SpringVisual> m_springs;
  struct BeamVisual {
    std::optional<BeamElementKernel> kernel;
    int node1 = -1, node2 = -1;  ///< poses of its nodes
    VecX strains;                ///< the last solved strains: the next solve's start
    vtkSmartPointer<vtkPolyData> line;
    vtkSmartPointer<vtkTubeFilter> tube;
    vtkSmartPointer<vtkActor> ghost;  ///< the unstressed member, shown with the undeformed option
  };
  std::vector<BeamVisual> m_beams;
  struct LoadVisual {  // a load whose direction is global: turned back after each pose change
    vtkSmartPointer<vtkActor> actor;
    AnchoredPoint at;
    Quat direction;  ///< +z of the glyph to the load's global direction
  };
  std::vector<LoadVisual> m_globalLoads;
  struct ContactVisual {
    int body1 = -1, body2 = -1;  ///< body indices (-1: ground)
    Pose marker1, marker2;       ///< the markers in their bodies
    Vec3 normal = Vec3::UnitZ(); ///< the contact normal in marker2's axes (planes, lines, the guide)
    bool sphereNormal = false;   ///< along the line of centres instead
    bool clearance = false;      ///< a guide: the normal turns over on the upper wall
    struct Point {
      Vec3 inMarker1 = Vec3::Zero();
      vtkSmartPointer<vtkActor> dot, arrow;
      bool closed = false;
    };
    std::vector<Point> points;
  };
  std::vector<ContactVisual> m_contacts;
  vtkSmartPointer<vtkTextActor> m_contactLabel;
  vtkSmartPointer<vtkTextActor> m_timeLabel;
  vtkSmartPointer<vtkTextActor> m_scaleLabel;
  vtkSmartPointer<vtkLookupTable> m_lookupTable;  ///< values in m
  vtkSmartPointer<vtkLookupTable> m_legendTable;  ///< the same colours, labelled in mm
  vtkSmartPointer<vtkScalarBarActor> m_colourBar;
  vtkSmartPointer<vtkPolyData> m_trace;
  vtkSmartPointer<vtkActor> m_traceActor;
  double m_deformationScale = 1.0;
  ScalarRange m_runRange;    ///< of every sample fed in
  ScalarRange m_shownRange;  ///< the colour scale drawn
  std::string m_modeLabel;   ///< see setModeLabel
  int m_followed = -1;       ///< see setFollowedBody
  double m_time = 0.0;       ///< the time the label shows
  std::string m_abscissaName;  ///< empty: time [s]
  SceneBounds m_bounds;
  std::vector<std::pair<Vec3, double>> m_extents;  ///< per body: sphere (centre in its frame, radius)
  Vec3 m_up = Vec3::UnitZ();
  Vec3 m_planeNormal = Vec3::Zero();  ///< motion plane of a planar linkage, or zero
  double m_length = 1.0;
  double m_glyphSize = 0.05;
  std::map<vtkProp*, std::string> m_items;  ///< actor -> item path
  std::string m_highlighted;
  std::string m_hovered;
  vtkSmartPointer<vtkActor> m_hoverBox;
  bool m_parallel = false;
  std::string m_baseDirectory;
  struct SavedLook {
    double ambient = 0, ambientColour[3] = {0, 0, 0}, lineWidth = 1;
  };
  std::map<vtkActor*, SavedLook> m_savedLooks;  ///< highlighted actors' own look
};

}  // namespace flexim::render
