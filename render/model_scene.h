// The 3-D picture of a ModelSpec: one BodyVisual per rigid body (inertia box, links to its
// markers, marker triads, glyphs of the joints it carries), the ground (its markers and joint
// glyphs), spring-damper lines, a floor grid and world axes, plus the model name and time.
// Build once per model; setPoses() then moves everything without rebuilding.
#pragma once

#include "core/base/diagnostics.h"
#include "core/model/model.h"
#include "core/run/simulation.h"
#include "render/body_visual.h"
#include "render/scene_framing.h"

#include <vtkSmartPointer.h>

#include <vector>

class vtkActor;
class vtkPolyData;
class vtkRenderer;
class vtkTextActor;

namespace flexim::render {

struct SceneOptions {
  bool gradientBackground = true;  ///< false: plain kBackgroundBottom (easy pixel tests)
  bool showFloor = true;           ///< grid under the model and world axes at the origin
  bool showMarkers = true;         ///< marker axis triads
  bool showLabels = true;          ///< model name and time
};

class ModelScene {
 public:
  explicit ModelScene(SceneOptions options = {});
  ~ModelScene();
  ModelScene(const ModelScene&) = delete;
  ModelScene& operator=(const ModelScene&) = delete;

  /// Replaces the scene with the model's initial configuration and frames the camera.
  /// Unknown markers named by joints or forces are reported as warnings (if diag is given).
  void build(const ModelSpec& model, Diagnostics* diag = nullptr);
  void clear();

  /// poses[b] belongs to the b-th body of the built model. Returns false (and changes nothing)
  /// when the count does not match.
  bool setPoses(const std::vector<BodyPose>& poses);
  /// Back to the model's initial configuration.
  void resetPoses();
  void setTime(double t);

  void setMarkersVisible(bool visible);
  bool markersVisible() const { return m_options.showMarkers; }
  /// Default camera for the built model.
  void resetCamera();

  vtkRenderer* renderer() const;
  std::size_t bodyCount() const { return m_bodies.size(); }
  /// Model size [m] used for glyph sizes (diagonal of the initial layout).
  double characteristicLength() const { return m_length; }
  const SceneBounds& bounds() const { return m_bounds; }
  const SceneOptions& options() const { return m_options; }

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

  void setupRenderer();
  void measure(const ModelSpec& model);
  void addBodies(const ModelSpec& model);
  void addGround(const ModelSpec& model);
  void addJoints(const ModelSpec& model, Diagnostics* diag);
  void addSprings(const ModelSpec& model, Diagnostics* diag);
  void addFloor();
  void addLabels(const ModelSpec& model);
  void addActor(vtkActor* actor);
  void addMarkerTriads(BodyVisual& owner, const std::vector<MarkerSpec>& markers);
  /// Body index (-1 = ground) and marker pose in that body's frame; false if not found.
  bool findMarker(const ModelSpec& model, const std::string& body, const std::string& marker,
                  int& bodyIndex, Pose& markerInBody) const;
  BodyVisual& visualOf(int bodyIndex);
  Vec3 worldPoint(const AnchoredPoint& p) const;
  void updateSprings();
  double springAmplitude() const { return 0.3 * m_glyphSize; }

  SceneOptions m_options;
  vtkSmartPointer<vtkRenderer> m_renderer;
  std::vector<BodyVisual> m_bodies;
  BodyVisual m_ground;
  std::vector<Pose> m_initialPoses;
  std::vector<vtkSmartPointer<vtkActor>> m_markerActors;
  std::vector<SpringVisual> m_springs;
  vtkSmartPointer<vtkTextActor> m_timeLabel;
  SceneBounds m_bounds;
  Vec3 m_up = Vec3::UnitZ();
  Vec3 m_planeNormal = Vec3::Zero();  ///< motion plane of a planar linkage, or zero
  double m_length = 1.0;
  double m_glyphSize = 0.05;
};

}  // namespace flexim::render
