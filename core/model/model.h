// The editable model document: plain value types, referenced by name, serialisable to JSON
// losslessly (io/model_json). The UI edits only this; the solver compiles it into a System.
// SI units throughout. Quaternions are unit quaternions (w, x, y, z), body/marker -> parent.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace flexim {

namespace fe {
struct ReducedBody;
}

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;

/// Name reserved for the fixed ground body.
inline constexpr const char* kGroundName = "ground";

/// A frame fixed to a body, given in the body frame (rigid body: centre-of-mass frame).
/// Pose of a body (body frame -> global): at the start, or at an output time of a run.
struct BodyPose {
  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();
};

struct MarkerSpec {
  std::string name;
  Vec3 position = Vec3::Zero();          ///< [m] in body axes
  Quat orientation = Quat::Identity();   ///< marker axes -> body axes
};

/// What draws a rigid body: a mesh (Assimp reads it: STL, OBJ, PLY, glTF, ...) or a box,
/// cylinder or sphere. It does not change the body's mass properties.
struct VisualSpec {
  enum class Shape { Mesh, Box, Cylinder, Sphere };  ///< "mesh", "box", "cylinder", "sphere"
  Shape shape = Shape::Mesh;
  std::string file;                     ///< Mesh: relative to the model file ("" = the inertia box)
  double scale = 1.0;                   ///< Mesh: mesh units -> m (0.001 for a mesh in mm)
  Vec3 size = Vec3::Constant(0.1);      ///< Box: [m] edge lengths along the shape's x, y, z
  double radius = 0.05;                 ///< Cylinder, Sphere [m]
  double length = 0.1;                  ///< Cylinder: [m] along the shape's z
  Vec3 position = Vec3::Zero();         ///< [m] the mesh's origin in body axes
  Quat orientation = Quat::Identity();  ///< mesh axes -> body axes
};

/// Rigid body. Its reference frame is at the centre of mass.
struct RigidBodySpec {
  std::string name;
  double mass = 1.0;                      ///< [kg]
  Mat3 inertia = Mat3::Identity();        ///< [kg m^2] about the centre of mass, body axes
  Vec3 position = Vec3::Zero();           ///< [m] centre of mass, global
  Quat orientation = Quat::Identity();    ///< body axes -> global axes
  Vec3 velocity = Vec3::Zero();           ///< [m/s] initial centre-of-mass velocity, global
  Vec3 angular_velocity = Vec3::Zero();   ///< [rad/s] initial angular velocity, global axes
  std::vector<MarkerSpec> markers;
  VisualSpec visual;
};

/// A point mass: three translational coordinates and no rotation (a particle, a lumped mass on a
/// cable). Its axes stay the global axes, so it takes no torque; its markers are points at fixed
/// offsets from it, in global axes.
struct PointMassSpec {
  std::string name;
  double mass = 1.0;             ///< [kg]
  Vec3 position = Vec3::Zero();  ///< [m] global
  Vec3 velocity = Vec3::Zero();  ///< [m/s] initial, global
  std::vector<MarkerSpec> markers;
};

/// A node of beam elements: a position and the axes of the beam's cross-section there (x along
/// the beam, y and z the section's principal axes). Its mass is half of each element's joined to
/// it (lumped), plus its own; its markers are frames fixed to the section.
struct BeamNodeSpec {
  std::string name;
  Vec3 position = Vec3::Zero();           ///< [m] global
  Quat orientation = Quat::Identity();    ///< section axes -> global axes
  Vec3 velocity = Vec3::Zero();           ///< [m/s] initial, global
  Vec3 angular_velocity = Vec3::Zero();   ///< [rad/s] initial, global axes
  double mass = 0.0;                      ///< [kg] its own, besides the elements'
  Mat3 inertia = Mat3::Zero();            ///< [kg m^2] its own, section axes
  std::vector<MarkerSpec> markers;
};

/// A beam element between two beam nodes with implicitly defined generalized strains.
struct BeamElementSpec {
  std::string name;
  std::string node1, node2;
  std::string formulation = "spatial";  ///< "spatial", "spatial_constant_torsion", "planar"
  double youngs_modulus = 0.0;          ///< [Pa]
  double shear_modulus = 0.0;           ///< [Pa]; 0: E / (2 (1 + nu))
  double poisson_ratio = 0.3;
  double area = 0.0;                    ///< [m^2]
  double iy = 0.0, iz = 0.0;            ///< [m^4] second moments of area about the section's y and z
  double torsion_constant = 0.0;        ///< [m^4]; 0: iy + iz
  double density = 7850.0;              ///< [kg/m^3]
  bool shear = false;                   ///< Timoshenko shear (off: rigid in shear)
  double shear_factor = 5.0 / 6.0;
  double length = 0.0;                  ///< [m] undeformed length; 0: the distance between the nodes at t = 0
  Vec3 curvature = Vec3::Zero();        ///< [1/m] initial curvature about the section's x, y, z (curved members)
  double damping = 0.0;                 ///< [s] stiffness-proportional material damping d (S_d = d S)
};

/// How the floating frame of a flexible body is defined (after the floating-frame solid-element paper,
/// Multibody Syst. Dyn. 2023, doi:10.1007/s11044-023-09875-y, Sec. 2.3).
enum class ReferenceFrame {
  MeanAxis,       ///< mean-axis conditions (needs the 6 rigid-body modes in the basis)
  PrincipalAxis,  ///< principal-axis conditions (distinct principal moments required)
  Interface       ///< frame attached to a Craig-Bampton interface (its 6 motions held at zero)
};

/// Modal damping of a flexible body: D = diag(2 zeta_j omega_j) + alpha Mbar + beta Kbar.
struct DampingSpec {
  std::vector<double> ratio;  ///< zeta per elastic mode; one value applies to all; empty = none
  double alpha = 0.0;         ///< [1/s] Rayleigh mass-proportional
  double beta = 0.0;          ///< [s] Rayleigh stiffness-proportional
};

/// Flexible body: a reduced FE body (reduced-body file, docs/reduced-body-format.md) in the floating frame of
/// reference (MSD 2023). Its frame is the FE coordinate system of the mesh; markers are not
/// allowed on it: connect it through virtual bodies.
struct FlexibleBodySpec {
  std::string name;
  std::string file;                       ///< reduced-body file (.frb), relative to the model file
  int mode_count = 0;                     ///< use the first N modes of the file (0 = all)
  ReferenceFrame reference = ReferenceFrame::MeanAxis;
  std::string reference_interface;        ///< ReferenceFrame::Interface: the interface name
  Vec3 position = Vec3::Zero();           ///< [m] FE origin, global
  Quat orientation = Quat::Identity();    ///< FE axes -> global axes
  Vec3 velocity = Vec3::Zero();           ///< [m/s] initial velocity of the FE origin, global
  Vec3 angular_velocity = Vec3::Zero();   ///< [rad/s] initial angular velocity, global axes
  std::vector<double> modal_coordinates;  ///< initial modal coordinates (empty = undeformed)
  DampingSpec damping;
  double stiffness_scale = 1.0;           ///< multiplies the modal stiffness (1e6: rigid limit)
  /// Geometric (stress) stiffening from the body's inertia loads, gravity and interface reaction:
  /// on when the file carries the load cases (fe::ReducedBody::geometric_stiffness).
  bool geometric_stiffening = true;
  /// The loaded file (set by the model loader, not serialised); System::compile needs it.
  std::shared_ptr<const fe::ReducedBody> data;
};

/// Massless rigid body attached to a flexible body by the rigid-flexible joint (MSD 2023
/// Sec. 2.4): its origin follows node k, its axes follow the triangle of nodes k, m, n.
/// Place it by a point (nodes chosen by the Fig. 4 rule), by explicit node ids, or at the
/// reference point of an interface of the reduced body.
struct VirtualBodySpec {
  std::string name;
  std::string flexible_body;
  Vec3 point = Vec3::Zero();              ///< [m] FE frame; nodes chosen around it
  std::vector<int> nodes;                 ///< optional explicit FE node ids k, m, n
  std::string interface;                  ///< optional: attach at this interface's reference point
  Quat orientation = Quat::Identity();    ///< virtual-body axes -> FE axes
  std::vector<MarkerSpec> markers;
};

/// Scalar function of time f(t), with analytic first and second derivatives.
struct TimeFunctionSpec {
  enum class Type {
    Constant,       ///< f = value
    ConstantSpeed,  ///< f = initial + speed * t
    Ramp,           ///< f = initial for t < start, then initial + slope * (t - start)
    SmoothStep,     ///< quintic step from (t0, value0) to (t1, value1), C2-continuous
    Harmonic,       ///< f = offset + amplitude * sin(2 pi frequency t + phase)
    Table           ///< natural cubic spline through (times[i], values[i]); constant outside
  };
  Type type = Type::Constant;
  double value = 0.0;      ///< Constant
  double initial = 0.0;    ///< ConstantSpeed, Ramp
  double speed = 0.0;      ///< ConstantSpeed
  double slope = 0.0;      ///< Ramp
  double start = 0.0;      ///< Ramp [s]
  double t0 = 0.0, t1 = 1.0, value0 = 0.0, value1 = 1.0;  ///< SmoothStep
  double amplitude = 0.0, frequency = 0.0, phase = 0.0, offset = 0.0;  ///< Harmonic ([Hz], [rad])
  std::vector<double> times, values;  ///< Table
};

/// A registered kind named by its key ("revolute", "bushing", "marker"): kinds are registered with
/// their descriptions, so a new kind needs no change here. The built-in kinds have named
/// constants (JointType::Revolute) that also serve as switch labels; a kind without one converts
/// to a value outside them, so such switches fall through to a default. `keys` lists the built-in
/// constants' keys in their order.
template <class BuiltinKind, const auto& keys>
class KindKey {
 public:
  using Builtin = BuiltinKind;

  KindKey(Builtin kind) : m_key(keys.at(static_cast<std::size_t>(kind))) {}  // NOLINT: implicit, so {"pin", JointType::Revolute, ...} reads naturally
  explicit KindKey(std::string key) : m_key(std::move(key)) {}

  const std::string& key() const { return m_key; }
  operator Builtin() const {  // NOLINT: implicit, for switch statements over the built-in kinds
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (m_key == keys[i]) return static_cast<Builtin>(i);
    return static_cast<Builtin>(-1);  // a registered kind without a named constant
  }

  bool operator==(const KindKey& other) const { return m_key == other.m_key; }
  bool operator==(Builtin kind) const { return *this == KindKey(kind); }

 private:
  std::string m_key;
};

enum class BuiltinJoint { Fixed, Revolute, Prismatic, Cylindrical, Spherical, Universal, Planar };
inline constexpr std::array<const char*, 7> kBuiltinJointKeys{"fixed",     "revolute",  "prismatic", "cylindrical",
                                                              "spherical", "universal", "planar"};
/// A joint kind (its description: core/model/description.h, jointKinds()).
class JointType : public KindKey<BuiltinJoint, kBuiltinJointKeys> {
 public:
  using enum BuiltinJoint;
  using KindKey::KindKey;
  JointType() : KindKey(Revolute) {}
};

struct JointSpec {
  std::string name;
  JointType type = JointType::Revolute;
  std::string body1, marker1;
  std::string body2, marker2;
  /// Parameters of the kind beyond the two markers (e.g. a screw's pitch), by the keys its
  /// description gives; a missing key has the description's default.
  std::map<std::string, double> parameters;
};

/// Prescribes a joint coordinate as a function of time (a rheonomic constraint).
struct DriverSpec {
  enum class Coordinate { Rotation, Translation };
  std::string name;
  std::string joint;
  Coordinate coordinate = Coordinate::Rotation;  ///< [rad] or [m]
  TimeFunctionSpec function;
};

/// Couples the coordinates of two joints: coordinate2 - coordinate2(0) = ratio (coordinate1 -
/// coordinate1(0)). A joint's coordinate is its own (a screw's angle) or its only one (a
/// revolute's angle [rad], a prismatic's translation [m]). Gear: ratio [rad/rad], negative for an
/// external pair; rack and pinion: the pinion radius [m/rad].
struct CouplingSpec {
  std::string name;
  std::string joint1, joint2;
  double ratio = 1.0;
};

/// Keeps a joint's coordinate (the one a coupling acts on: a revolute's or a screw's angle [rad], a
/// prismatic's translation [m]) within [lower, upper]: a stop at each end, closed on contact,
/// open when the joint pulls away (unilateral rows; the generalized-alpha integrator).
struct JointLimitSpec {
  std::string name;
  std::string joint;
  double lower = 0.0;
  double upper = 0.0;
  double restitution = 0.0;  ///< Newton's coefficient of the stops' impacts (mixed timestepping schemes)
};

inline TimeFunctionSpec unitFunction() {
  TimeFunctionSpec f;
  f.value = 1.0;
  return f;
}

enum class BuiltinForce { PointForce, PointTorque, SpringDamper, Bushing };
inline constexpr std::array<const char*, 4> kBuiltinForceKeys{"point_force", "point_torque", "spring_damper",
                                                              "bushing"};
/// A force kind (its description: core/model/description.h, forceKinds()).
class ForceType : public KindKey<BuiltinForce, kBuiltinForceKeys> {
 public:
  using enum BuiltinForce;
  using KindKey::KindKey;
  ForceType() : KindKey(PointForce) {}
};

/// Applied forces. Gravity is a model-level vector (ModelSpec::gravity).
struct ForceSpec {
  using Type = ForceType;
  enum class Frame { Global, Marker };  ///< components of vector for point force/torque
  std::string name;
  Type type = Type::PointForce;
  std::string body1, marker1;   ///< point force/torque: the loaded body and marker
  int node = 0;                 ///< point force on a flexible body1: the loaded FE node (no marker)
  std::string body2, marker2;   ///< kinds with two ends (spring-damper, bushing): the second end
  Vec3 vector = Vec3::Zero();   ///< point force [N] / torque [N m]
  Frame frame = Frame::Global;  ///< Marker: marker axes; on a flexible-body node: FE axes
  TimeFunctionSpec function = unitFunction();  ///< scales vector
  // spring-damper
  double stiffness = 0.0;       ///< [N/m]
  double damping = 0.0;         ///< [N s/m]
  double free_length = 0.0;     ///< [m]
  double preload = 0.0;         ///< [N] (tension positive)
  // bushing: diagonal stiffness / damping, translations then rotations (marker1 axes)
  Eigen::Matrix<double, 6, 1> bushing_stiffness = Eigen::Matrix<double, 6, 1>::Zero();  ///< [N/m]x3, [N m/rad]x3
  Eigen::Matrix<double, 6, 1> bushing_damping = Eigen::Matrix<double, 6, 1>::Zero();    ///< [N s/m]x3, [N m s/rad]x3
  /// Force and torque on marker2 at zero deflection, marker1 axes [N]x3, [N m]x3.
  Eigen::Matrix<double, 6, 1> bushing_preload = Eigen::Matrix<double, 6, 1>::Zero();
  /// Parameters of a kind beyond the fields above, by the keys its description gives; a missing
  /// key has the description's default.
  std::map<std::string, double> parameters;
};

enum class BuiltinContact { PointPlane, SpherePlane, SphereSphere, PointLine, TranslationalClearance, NodesPlane };
inline constexpr std::array<const char*, 6> kBuiltinContactKeys{"point_plane", "sphere_plane", "sphere_sphere",
                                                                "point_line", "translational_clearance", "nodes_plane"};
/// A contact kind (its description: core/model/description.h, contactKinds()).
class ContactType : public KindKey<BuiltinContact, kBuiltinContactKeys> {
 public:
  using enum BuiltinContact;
  using KindKey::KindKey;
  ContactType() : KindKey(PointPlane) {}
};

/// A unilateral contact between two bodies (either may be the ground): a gap that may close and
/// open, Newton's impact law and Coulomb friction. Integrated by the mixed timestepping schemes.
struct ContactSpec {
  using Type = ContactType;
  std::string name;
  Type type = Type::PointPlane;
  std::string body1, marker1;  ///< the point, the sphere's centre, the slider's centre
  std::string body2, marker2;  ///< the plane, the other sphere's centre, the line, the guide
  double friction = 0.0;                ///< Coulomb coefficient mu
  double restitution = 0.0;             ///< Newton's normal coefficient eps_N, [0, 1]
  double tangential_restitution = 0.0;  ///< eps_T, [0, 1]
  /// Numbers of the kind (radius, half sizes, clearance) by the keys its description gives.
  std::map<std::string, double> parameters;
  /// Kinds whose points are FE nodes of a flexible body1 (ContactKindDescription::nodes): their ids.
  std::vector<int> nodes;
};

enum class BuiltinSensor { Marker, Joint, Energy, Node, Deflection, Modal, Stress };
inline constexpr std::array<const char*, 7> kBuiltinSensorKeys{"marker",     "joint", "energy", "node",
                                                               "deflection", "modal", "stress"};
/// A sensor kind (its quantities: core/model/sensor_quantities.h, sensorKinds()).
class SensorType : public KindKey<BuiltinSensor, kBuiltinSensorKeys> {
 public:
  using enum BuiltinSensor;
  using KindKey::KindKey;
  SensorType() : KindKey(Marker) {}
};

/// What to record. Channel names: <sensor>.<quantity>.<component> [unit].
struct SensorSpec {
  using Type = SensorType;
  enum class Frame { Global, Body };
  /// Display units of the sensor's columns (values and headers); the model itself stays SI.
  enum class LengthUnit { Metre, Millimetre };  ///< "m", "mm"
  enum class AngleUnit { Radian, Degree };      ///< "rad", "deg"
  std::string name;
  Type type = Type::Marker;
  std::string body, marker;  ///< Marker sensors; Node, Deflection, Modal: body = flexible body
  std::string joint;         ///< Joint sensors
  Frame frame = Frame::Global;
  /// Marker: position, orientation, velocity, angular_velocity, acceleration, angular_acceleration.
  /// Joint: coordinate, velocity, reaction_force, reaction_torque.
  /// Energy: kinetic, potential, total, strain.
  /// Node: position, velocity, acceleration, displacement (elastic, body axes).
  /// Deflection: deflection [m], normalized (by the chord length) — relative to the chord, body axes.
  /// Modal: coordinate, velocity.
  /// Stress: stress (xx, yy, zz, xy, yz, zx in the FE axes), von_mises, max_principal,
  /// min_principal [Pa] at an FE node.
  std::vector<std::string> quantities;
  int node = 0;              ///< Node, Deflection, Stress: FE node id
  std::vector<int> chord;    ///< Deflection: the two FE node ids of the chord
  /// Components of the vector quantities to record (x, y, z; w of orientation); empty: all.
  /// Scalar quantities (joint coordinates, energies, modal coordinates) are not affected.
  std::vector<std::string> components;
  /// Lengths and their rates (m, m/s, m/s^2) in these units: positions, displacements,
  /// deflections, velocities, accelerations, joint translations.
  LengthUnit length_unit = LengthUnit::Metre;
  /// Angles and their rates (rad, rad/s, rad/s^2): joint rotations, angular velocities and
  /// accelerations. Quaternions (unitless), forces, torques and energies stay as they are.
  AngleUnit angle_unit = AngleUnit::Radian;
  std::string body2, marker2;  ///< kinds that observe two markers (relative): the second one
  std::string element;         ///< kinds that observe a beam element (beam)
};

/// Ida and GeneralizedAlpha integrate smooth systems (joint limits: gen-alpha's active set); the
/// mixed timestepping schemes (core/integrators/mixed_timestepping.h) integrate contacts with
/// impacts and friction: a smooth base scheme within the step, an impulsive correction after it.
enum class IntegratorType { Ida, GeneralizedAlpha, MixedGenAlpha, MixedBathe, MixedEdAlpha, Moreau, Hets };
/// True for the mixed timestepping schemes (and the first-order Moreau and HETS), which integrate
/// contacts.
inline bool isMixedTimestepping(IntegratorType t) { return t != IntegratorType::Ida && t != IntegratorType::GeneralizedAlpha; }
/// The integrators' names for messages, "ida, gen-alpha, ... or hets"; with `contacts`, only
/// those that integrate contacts.
std::string integratorNames(bool contacts = false);
/// How the prox parameter r of the contact equations is chosen: the constant `prox_r` for forces
/// (prox_r * step for impulses), or per contact, prox_r / (kappa G_kk) (the contact's own scale).
enum class ProxScaling { Constant, PerContact };
/// Generalized-alpha step: fixed (`step`), or chosen by a local error estimate against rtol/atol.
enum class StepControl { Fixed, Adaptive };
/// Where a run starts: the model's initial conditions (assembled), or its static equilibrium.
enum class RunStart { InitialConditions, StaticEquilibrium };

struct SolverSpec {
  double t_end = 1.0;             ///< [s]
  double step = 1e-3;             ///< [s] fixed step (gen-alpha fixed), maximum step (IDA, adaptive gen-alpha; 0 = free)
  double output_interval = 1e-3;  ///< [s]
  IntegratorType integrator = IntegratorType::Ida;
  StepControl step_control = StepControl::Fixed;  ///< generalized-alpha step control
  RunStart start = RunStart::InitialConditions;
  double rtol = 1e-6;             ///< relative tolerance (IDA, adaptive gen-alpha)
  double atol = 1e-8;             ///< absolute tolerance (IDA, adaptive gen-alpha)
  double rho_inf = 0.8;           ///< generalized-alpha spectral radius at infinity, [0, 1]
  double newton_tol = 1e-10;      ///< generalized-alpha Newton tolerance (scaled increment)
  int max_newton = 20;            ///< Newton iterations per step before the step is halved
  // contacts (mixed timestepping)
  double prox_r = 0.1;                           ///< prox parameter r of the contact equations
  ProxScaling prox_scaling = ProxScaling::Constant;
  double contact_tol = 1e-10;                    ///< contact equations' residual [N or N s, scaled]
  int contact_iterations = 50;                   ///< Gauss-Newton iterations before the fixed-point fallback
};

/// The whole document.
struct ModelSpec {
  int schema_version = 1;
  std::string name;
  std::string description;
  Vec3 gravity = Vec3::Zero();              ///< [m/s^2]
  std::vector<MarkerSpec> ground_markers;   ///< markers on the ground, global frame
  std::vector<RigidBodySpec> bodies;
  std::vector<FlexibleBodySpec> flexible_bodies;
  std::vector<VirtualBodySpec> virtual_bodies;
  std::vector<PointMassSpec> point_masses;
  std::vector<BeamNodeSpec> beam_nodes;
  std::vector<BeamElementSpec> beam_elements;
  std::vector<JointSpec> joints;
  std::vector<DriverSpec> drivers;
  std::vector<CouplingSpec> couplings;
  std::vector<JointLimitSpec> limits;
  std::vector<ContactSpec> contacts;
  std::vector<ForceSpec> forces;
  std::vector<SensorSpec> sensors;
  SolverSpec solver;
};

/// The kind's key; the pointer lives as long as t.
const char* toString(const JointType& t);
const char* toString(TimeFunctionSpec::Type t);
const char* toString(const ForceType& t);
const char* toString(const SensorType& t);
const char* toString(IntegratorType t);
const char* toString(StepControl t);
const char* toString(ProxScaling t);
const char* toString(RunStart t);
const char* toString(const ContactType& t);
const char* toString(ReferenceFrame t);
const char* toString(DriverSpec::Coordinate c);
const char* toString(ForceSpec::Frame f);
const char* toString(SensorSpec::Frame f);
const char* toString(SensorSpec::LengthUnit u);
const char* toString(SensorSpec::AngleUnit u);
const char* toString(VisualSpec::Shape s);
/// Inverse of toString; returns false when the name is unknown.
/// Only registered joint kinds are accepted.
bool fromString(const std::string& s, JointType& out);
bool fromString(const std::string& s, TimeFunctionSpec::Type& out);
bool fromString(const std::string& s, ForceType& out);
bool fromString(const std::string& s, SensorType& out);
bool fromString(const std::string& s, IntegratorType& out);
bool fromString(const std::string& s, StepControl& out);
bool fromString(const std::string& s, ProxScaling& out);
bool fromString(const std::string& s, RunStart& out);
bool fromString(const std::string& s, ContactType& out);
bool fromString(const std::string& s, ReferenceFrame& out);
bool fromString(const std::string& s, DriverSpec::Coordinate& out);
bool fromString(const std::string& s, ForceSpec::Frame& out);
bool fromString(const std::string& s, SensorSpec::Frame& out);
bool fromString(const std::string& s, SensorSpec::LengthUnit& out);
bool fromString(const std::string& s, SensorSpec::AngleUnit& out);
bool fromString(const std::string& s, VisualSpec::Shape& out);

/// Number of constraint equations a joint type imposes (0 for a kind not registered).
int constraintCount(const JointType& t);

}  // namespace flexim
