// Joint tests. Every joint type (fixed, revolute, prismatic, cylindrical, spherical, universal,
// planar) is checked for
//  (a) its kinematic meaning and constraint residual during a short dynamic run (marker
//      sensors on both joint markers; closed-form motion where one exists; workless reactions;
//      energy conservation),
//  (b) its reaction force/torque against hand calculations: a body of mass m held by the
//      joint under gravity with the centre of mass offset by a lever arm (statics at t = 0),
//      the same joint loaded along/about its free directions (the joint must carry nothing
//      there and the body accelerates as a free body would), and a centripetal load,
//  (c) drivers: a revolute at constant speed (coordinate unwrapped over several turns, driver
//      torque against gravity) and a prismatic with a quintic smooth step (reaction = m a(t)).
// Models are built in code; every run uses both integrators (IDA and generalized-alpha).
//
// Reaction convention under test (core/run/sensors.cpp): the force/torque exerted on body2 by
// body1 through the joint (its driver included), the torque taken about marker2's origin,
// global axes unless the sensor frame is Body (then body2's axes).
#include "core/run/simulation.h"

#include "recording_sink.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace flexim;

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kG = 9.81;
constexpr double kMass = 2.0;
const Mat3 kInertia = Vec3(0.05, 0.08, 0.11).asDiagonal();
constexpr double kMg = kMass * kG;

/// Every sample, with the vector/axes helpers these tests need.
class Collector final : public test::RecordingSink {
 public:
  Vec3 vec(size_t i, const std::string& prefix) const {
    return {value(i, prefix + ".x"), value(i, prefix + ".y"), value(i, prefix + ".z")};
  }
  /// Global axes (columns x, y, z) of a marker from its "orientation" channels.
  Mat3 axes(size_t i, const std::string& sensor) const {
    const std::string p = sensor + ".orientation.";
    return Quat(value(i, p + "w"), value(i, p + "x"), value(i, p + "y"), value(i, p + "z")).normalized().toRotationMatrix();
  }
  Mat3 bodyA(size_t i) const { return samples[i].poses.at(0).orientation.toRotationMatrix(); }
  double t(size_t i) const { return samples[i].t; }
};

std::string fmt(const Vec3& v) {
  std::ostringstream s;
  s.precision(12);
  s << "(" << v.x() << ", " << v.y() << ", " << v.z() << ")";
  return s.str();
}
std::string at(double t) {
  std::ostringstream s;
  s << " at t=" << t;
  return s.str();
}

/// Largest error of a closed-form-in-time check over a run (verified once, after the loop, so a
/// known integrator defect can be marked with QEXPECT_FAIL on exactly that check).
struct MaxError {
  double value = 0, t = 0;
  void add(double e, double time) {
    if (!(e <= value)) {  // NaN sticks
      value = e;
      t = time;
    }
  }
  std::string str(const char* what) const {
    std::ostringstream s;
    s << what << ": max error " << value << " at t=" << t;
    return s.str();
  }
};
#define EXPECT_MAX(err, tol, what) QVERIFY2((err).value <= (tol), (err).str(what).c_str())

// Comparisons written as !(err <= tol) so NaN (missing channel) fails.
#define EXPECT_VEC(actual, expected, tol, what)                                                              \
  do {                                                                                                        \
    const Vec3 a_ = (actual), e_ = (expected);                                                                \
    const std::string m_ = std::string(what) + ": got " + fmt(a_) + ", expected " + fmt(e_) +                 \
                           ", |diff| " + std::to_string((a_ - e_).norm());                                   \
    QVERIFY2((a_ - e_).norm() <= (tol), m_.c_str());                                                          \
  } while (0)
#define EXPECT_NUM(actual, expected, tol, what)                                                               \
  do {                                                                                                        \
    const double a_ = (actual), e_ = (expected);                                                              \
    std::ostringstream m_;                                                                                    \
    m_.precision(12);                                                                                         \
    m_ << what << ": got " << a_ << ", expected " << e_ << ", |diff| " << std::abs(a_ - e_);                 \
    QVERIFY2(std::abs(a_ - e_) <= (tol), m_.str().c_str());                                                   \
  } while (0)
#define EXPECT_SMALL(actual, tol, what) EXPECT_NUM(actual, 0.0, tol, what)

MarkerSpec marker(const std::string& name, const Vec3& p, const Quat& q = Quat::Identity()) { return {name, p, q}; }
/// Rotation taking the marker z axis onto `axis`.
Quat zAlong(const Vec3& axis) { return Quat::FromTwoVectors(Vec3::UnitZ(), axis.normalized()); }
Quat rot(double angle, const Vec3& axis) { return Quat(Eigen::AngleAxisd(angle, axis.normalized())); }

bool hasCoordinate(JointType t) {
  return t == JointType::Revolute || t == JointType::Prismatic || t == JointType::Cylindrical;
}

/// One body "b" (mass kMass, inertia kInertia) joined to ground by joint "joint":
/// ground marker "g" at P with global axes R1; body marker "j" at the same point with global
/// axes R2 (default R1) at t = 0; centre of mass at P + d; body orientation A.
struct JointSetup {
  JointType type = JointType::Revolute;
  Vec3 P = Vec3::Zero();
  Quat R1 = Quat::Identity();
  std::optional<Quat> R2;
  Vec3 d = Vec3::Zero();
  Quat A = Quat::Identity();
  Vec3 v0 = Vec3::Zero(), w0 = Vec3::Zero();
};

/// Sensors: "m1"/"m2" (joint markers: position, orientation), "com" (centre of mass: position,
/// velocity, acceleration, angular velocity/acceleration), "r" (joint reactions [+ coordinate,
/// velocity]), "rb" (reactions in body axes), "e" (total energy).
ModelSpec jointModel(const JointSetup& j, IntegratorType integrator, double tEnd, double dtOut, const Vec3& gravity) {
  ModelSpec m;
  m.name = std::string("joint test: ") + toString(j.type);
  m.gravity = gravity;
  const Quat R2 = j.R2.value_or(j.R1);
  m.ground_markers = {marker("g", j.P, j.R1)};
  RigidBodySpec b;
  b.name = "b";
  b.mass = kMass;
  b.inertia = kInertia;
  b.position = j.P + j.d;
  b.orientation = j.A;
  b.velocity = j.v0;
  b.angular_velocity = j.w0;
  b.markers = {marker("j", j.A.conjugate() * (-j.d), j.A.conjugate() * R2), marker("c", Vec3::Zero())};
  m.bodies = {b};
  m.joints = {{"joint", j.type, "ground", "g", "b", "j"}};

  SensorSpec m1{"m1", SensorSpec::Type::Marker, "ground", "g", "", SensorSpec::Frame::Global, {"position", "orientation"}};
  SensorSpec m2{"m2", SensorSpec::Type::Marker, "b", "j", "", SensorSpec::Frame::Global, {"position", "orientation"}};
  SensorSpec com{"com", SensorSpec::Type::Marker, "b", "c", "", SensorSpec::Frame::Global,
                 {"position", "velocity", "acceleration", "angular_velocity", "angular_acceleration"}};
  SensorSpec r{"r", SensorSpec::Type::Joint, "", "", "joint", SensorSpec::Frame::Global,
               {"reaction_force", "reaction_torque"}};
  if (hasCoordinate(j.type)) r.quantities.insert(r.quantities.end(), {"coordinate", "velocity"});
  SensorSpec rb{"rb", SensorSpec::Type::Joint, "", "", "joint", SensorSpec::Frame::Body,
                {"reaction_force", "reaction_torque"}};
  SensorSpec e{"e", SensorSpec::Type::Energy, "", "", "", SensorSpec::Frame::Global, {"total"}};
  m.sensors = {m1, m2, com, r, rb, e};

  m.solver.t_end = tEnd;
  m.solver.output_interval = dtOut;
  m.solver.integrator = integrator;
  if (integrator == IntegratorType::Ida) {
    m.solver.rtol = 1e-8;
    m.solver.atol = 1e-10;
    m.solver.step = 0;  // free
  } else {
    m.solver.step = 1e-3;
  }
  return m;
}

/// Compiles and runs; on rejection returns false with the diagnostics in `error`.
bool simulate(const ModelSpec& m, Collector& c, std::string& error, ModelCheck* check = nullptr) {
  Diagnostics diag;
  auto sim = Simulation::create(m, diag);
  if (!sim) {
    error = "model rejected: " + diag.str();
    return false;
  }
  const ModelCheck mc = sim->check();
  if (check) *check = mc;
  // the test models are written assembled; a residual here means the test's geometry is wrong
  if (mc.initial_position_residual > 1e-12) {
    error = "test model not assembled as written: " + mc.str();
    return false;
  }
  c.summary = sim->run({&c});
  error = c.summary.str();
  return c.summary.ok;
}

#define RUN(model, collector)                                                 \
  do {                                                                        \
    std::string err_;                                                         \
    QVERIFY2(simulate((model), (collector), err_), err_.c_str());             \
  } while (0)

/// Constraint residual before the output projection, per integrator.
double residualTolerance(IntegratorType it) { return it == IntegratorType::Ida ? 1e-7 : 1e-9; }
/// Accuracy of integrated states against closed forms (relative to O(1) magnitudes). Observed:
/// IDA <= 2e-6, generalized-alpha (h = 1e-3, rho_inf 0.8) <= 5e-6 once the known bug is fixed.
double stateTolerance(IntegratorType it) { return it == IntegratorType::Ida ? 2e-6 : 2e-5; }

/// (a) The constraint residual over the run, before the per-sample projection.
#define EXPECT_RESIDUAL(collector, it)                                                                       \
  do {                                                                                                        \
    qInfo("max constraint residual before projection: %.2e", (collector).summary.max_constraint_residual);    \
    QVERIFY2((collector).summary.max_constraint_residual <= residualTolerance(it),                            \
             (collector).summary.str().c_str());                                                              \
  } while (0)

IntegratorType fetchIntegrator() {
  QFETCH(int, integrator);
  return static_cast<IntegratorType>(integrator);
}

void integratorRows() {
  QTest::addColumn<int>("integrator");
  QTest::newRow("ida") << static_cast<int>(IntegratorType::Ida);
  QTest::newRow("gen-alpha") << static_cast<int>(IntegratorType::GeneralizedAlpha);
}

/// Rotation about z by angle (the revolute/cylindrical relative orientation).
Mat3 rotZ(double a) { return Eigen::AngleAxisd(a, Vec3::UnitZ()).toRotationMatrix(); }

/// Quintic smooth step 10x^3 - 15x^4 + 6x^5 and its time derivatives, written out independently.
struct Step {
  double t0, t1, v0, v1;
  double f(double t) const {
    if (t <= t0) return v0;
    if (t >= t1) return v1;
    const double x = (t - t0) / (t1 - t0);
    return v0 + (v1 - v0) * (10 * std::pow(x, 3) - 15 * std::pow(x, 4) + 6 * std::pow(x, 5));
  }
  double df(double t) const {
    if (t <= t0 || t >= t1) return 0;
    const double T = t1 - t0, x = (t - t0) / T;
    return (v1 - v0) * (30 * x * x - 60 * std::pow(x, 3) + 30 * std::pow(x, 4)) / T;
  }
  double ddf(double t) const {
    if (t <= t0 || t >= t1) return 0;
    const double T = t1 - t0, x = (t - t0) / T;
    return (v1 - v0) * (60 * x - 180 * x * x + 120 * std::pow(x, 3)) / (T * T);
  }
};

/// A hand-calculated load case at t = 0 (velocities zero).
struct LoadCase {
  std::string name;
  JointSetup setup;
  Vec3 gravity;
  Vec3 force;   ///< reaction force on the body, global
  Vec3 torque;  ///< reaction torque on the body about the joint point, global
  Vec3 acc;     ///< centre-of-mass acceleration
  Vec3 alpha;   ///< angular acceleration
};

const Quat kTilted = rot(0.4, Vec3(1, -2, 0.5));  // a generic body orientation

/// Statics: gravity -z, centre of mass at P + d. Equilibrium: F = +m g z (holding the weight),
/// T = d x F (moment of the weight about the joint point, reversed). Each configuration is
/// chosen so the weight loads only directions the joint carries.
std::vector<LoadCase> staticCases() {
  const Vec3 g(0, 0, -kG), up(0, 0, kMg), zero = Vec3::Zero();
  const Vec3 dGeneric(0.3, -0.2, -0.1);  // T = d x (0,0,mg) = (d_y mg, -d_x mg, 0)
  const Vec3 tGeneric(-0.2 * kMg, -0.3 * kMg, 0);
  const Vec3 dInPlane(0.4, 0, -0.3);  // lever in the x-z plane: T = (0, -0.4 mg, 0) about y only
  const Vec3 tInPlane(0, -0.4 * kMg, 0);
  std::vector<LoadCase> c;
  auto setup = [](JointType t, const Quat& R1, const Vec3& d, std::optional<Quat> R2 = {}) {
    JointSetup s;
    s.type = t;
    s.P = Vec3(0.5, -0.25, 1.0);
    s.R1 = R1;
    s.R2 = R2;
    s.d = d;
    s.A = kTilted;
    return s;
  };
  // fixed: carries everything; generic joint axes and lever
  c.push_back({"fixed", setup(JointType::Fixed, rot(0.3, Vec3::UnitY()), dGeneric), g, up, tGeneric, zero, zero});
  // revolute about global x: the lever has no y component, so the weight's moment is about y
  c.push_back({"revolute", setup(JointType::Revolute, zAlong(Vec3::UnitX()), dInPlane), g, up, tInPlane, zero, zero});
  // prismatic along global x (horizontal): carries the vertical force and every moment
  c.push_back({"prismatic", setup(JointType::Prismatic, zAlong(Vec3::UnitX()), dGeneric), g, up, tGeneric, zero, zero});
  // cylindrical about/along global x: moment about y only
  c.push_back({"cylindrical", setup(JointType::Cylindrical, zAlong(Vec3::UnitX()), dInPlane), g, up, tInPlane, zero, zero});
  // spherical: centre of mass straight below, no moment at all
  c.push_back({"spherical", setup(JointType::Spherical, Quat::Identity(), Vec3(0, 0, -0.5)), g, up, zero, zero, zero});
  // universal: pins along global x (ground) and global z (body); carries torque about z1 x z2 = -y
  c.push_back({"universal", setup(JointType::Universal, zAlong(Vec3::UnitX()), dInPlane, Quat::Identity()), g, up,
               tInPlane, zero, zero});
  // planar in the horizontal plane: carries vertical force and horizontal moments
  c.push_back({"planar", setup(JointType::Planar, Quat::Identity(), dGeneric), g, up, tGeneric, zero, zero});
  return c;
}

/// Loads along/about the free directions, body released from rest (A = identity so the inertia
/// is diagonal in global axes). Lever L = 0.5.
std::vector<LoadCase> freeCases() {
  const double L = 0.5, Jxx = kInertia(0, 0), Jyy = kInertia(1, 1), Jzz = kInertia(2, 2), m = kMass;
  const Vec3 gz(0, 0, -kG), zero = Vec3::Zero();
  auto setup = [](JointType t, const Quat& R1, const Vec3& d, std::optional<Quat> R2 = {}) {
    JointSetup s;
    s.type = t;
    s.P = Vec3(-0.2, 0.1, 0.7);
    s.R1 = R1;
    s.R2 = R2;
    s.d = d;
    return s;
  };
  std::vector<LoadCase> c;
  {  // revolute about z, gravity -y, arm along +x: alpha_z = -m g L / (Jzz + m L^2); the joint
     // carries F = m g Jzz / (Jzz + m L^2) up (y), no torque (none about z, and none needed about x, y)
    const double I = Jzz + m * L * L, a = -m * kG * L / I;
    c.push_back({"revolute pendulum", setup(JointType::Revolute, Quat::Identity(), Vec3(L, 0, 0)), Vec3(0, -kG, 0),
                 Vec3(0, m * kG * Jzz / I, 0), zero, Vec3(0, a * L, 0), Vec3(0, 0, a)});
  }
  // prismatic along z with gravity along z: free fall, no reaction
  c.push_back({"prismatic along gravity", setup(JointType::Prismatic, Quat::Identity(), Vec3(0.3, -0.2, -0.1)), gz,
               zero, zero, gz, zero});
  c.push_back({"cylindrical along gravity", setup(JointType::Cylindrical, Quat::Identity(), Vec3(0.3, -0.2, -0.1)),
               gz, zero, zero, gz, zero});
  {  // spherical, arm along +x, gravity -z: alpha_y = m g L / (Jyy + m L^2), a = (0, 0, -alpha_y L)
    const double I = Jyy + m * L * L, a = m * kG * L / I;
    c.push_back({"spherical pendulum", setup(JointType::Spherical, Quat::Identity(), Vec3(L, 0, 0)), gz,
                 Vec3(0, 0, m * kG * Jyy / I), zero, Vec3(0, 0, -a * L), Vec3(0, a, 0)});
  }
  {  // universal, pins x (ground) and z (body), arm along +y: the weight's moment is about x (free)
    const double I = Jxx + m * L * L, a = -m * kG * L / I;
    c.push_back({"universal pendulum", setup(JointType::Universal, zAlong(Vec3::UnitX()), Vec3(0, L, 0), Quat::Identity()),
                 gz, Vec3(0, 0, m * kG * Jxx / I), zero, Vec3(0, 0, a * L), Vec3(a, 0, 0)});
  }
  // planar y-z plane (normal x), gravity -z in the plane: free fall, no reaction
  c.push_back({"planar in-plane gravity", setup(JointType::Planar, zAlong(Vec3::UnitX()), Vec3(0.3, -0.2, -0.1)), gz,
               zero, zero, gz, zero});
  return c;
}

void loadCaseRows(const std::vector<LoadCase>& cases) {
  QTest::addColumn<int>("integrator");
  QTest::addColumn<int>("index");
  for (size_t i = 0; i < cases.size(); ++i) {
    QTest::newRow((cases[i].name + "/ida").c_str()) << static_cast<int>(IntegratorType::Ida) << static_cast<int>(i);
    QTest::newRow((cases[i].name + "/gen-alpha").c_str())
        << static_cast<int>(IntegratorType::GeneralizedAlpha) << static_cast<int>(i);
  }
}

}  // namespace

class JointsTest : public QObject {
  Q_OBJECT

 private slots:
  // ---- model check: rank and degrees of freedom of each joint -------------------------------
  void degreesOfFreedom_data() {
    QTest::addColumn<int>("type");
    QTest::addColumn<int>("dof");
    QTest::newRow("fixed") << static_cast<int>(JointType::Fixed) << 0;
    QTest::newRow("revolute") << static_cast<int>(JointType::Revolute) << 1;
    QTest::newRow("prismatic") << static_cast<int>(JointType::Prismatic) << 1;
    QTest::newRow("cylindrical") << static_cast<int>(JointType::Cylindrical) << 2;
    QTest::newRow("spherical") << static_cast<int>(JointType::Spherical) << 3;
    QTest::newRow("universal") << static_cast<int>(JointType::Universal) << 2;
    QTest::newRow("planar") << static_cast<int>(JointType::Planar) << 3;
  }
  void degreesOfFreedom() {
    QFETCH(int, type);
    QFETCH(int, dof);
    JointSetup s;
    s.type = static_cast<JointType::Builtin>(type);
    s.P = Vec3(0.1, 0.2, 0.3);
    s.R1 = rot(0.7, Vec3(1, 2, 3));
    if (s.type == JointType::Universal) s.R2 = s.R1 * zAlong(Vec3::UnitX());  // z2 = marker1 x, perpendicular to z1
    s.d = Vec3(0.2, -0.3, 0.4);
    s.A = kTilted;
    Diagnostics diag;
    auto sim = Simulation::create(jointModel(s, IntegratorType::Ida, 0.01, 0.01, Vec3::Zero()), diag);
    QVERIFY2(sim, diag.str().c_str());
    const ModelCheck mc = sim->check();
    QCOMPARE(mc.constraint_rows, constraintCount(s.type));
    QCOMPARE(mc.rank, 6 - dof);
    QCOMPARE(mc.dof, dof);
    QVERIFY2(mc.redundant.empty(), mc.str().c_str());
    QVERIFY2(mc.unconstrained.empty(), mc.str().c_str());
    QVERIFY2(mc.initial_position_residual <= 1e-12, mc.str().c_str());
  }

  // ---- (b) reactions: statics -----------------------------------------------------------------
  void staticReactions_data() { loadCaseRows(staticCases()); }
  void staticReactions() {
    QFETCH(int, integrator);
    QFETCH(int, index);
    const LoadCase lc = staticCases().at(index);
    Collector c;
    RUN(jointModel(lc.setup, static_cast<IntegratorType>(integrator), 0.2, 0.05, lc.gravity), c);
    QCOMPARE(c.samples.size(), size_t(5));
    const double tolF = 1e-9 * kMg, tolA = 1e-9 * kG;
    // t = 0 (exact statics) and t = 0.2 (the equilibrium is kept)
    for (size_t i : {size_t(0), c.samples.size() - 1}) {
      const std::string when = at(c.t(i));
      EXPECT_VEC(c.vec(i, "r.reaction_force"), lc.force, tolF, "reaction force" + when);
      EXPECT_VEC(c.vec(i, "r.reaction_torque"), lc.torque, tolF, "reaction torque about marker2" + when);
      // body-frame sensor: the same vectors in body axes
      const Mat3 A = c.bodyA(i);
      EXPECT_VEC(c.vec(i, "rb.reaction_force"), A.transpose() * lc.force, tolF, "reaction force, body axes" + when);
      EXPECT_VEC(c.vec(i, "rb.reaction_torque"), A.transpose() * lc.torque, tolF, "reaction torque, body axes" + when);
      EXPECT_VEC(c.vec(i, "com.acceleration"), lc.acc, tolA, "acceleration" + when);
      EXPECT_VEC(c.vec(i, "com.angular_acceleration"), lc.alpha, tolA, "angular acceleration" + when);
      EXPECT_VEC(c.vec(i, "com.position"), lc.setup.P + lc.setup.d, 1e-9, "centre of mass" + when);
    }
  }

  // ---- (b) reactions: nothing carried in free directions ------------------------------------
  void freeDirections_data() { loadCaseRows(freeCases()); }
  void freeDirections() {
    QFETCH(int, integrator);
    QFETCH(int, index);
    const LoadCase lc = freeCases().at(index);
    Collector c;
    RUN(jointModel(lc.setup, static_cast<IntegratorType>(integrator), 0.01, 0.01, lc.gravity), c);
    QVERIFY(!c.samples.empty());
    const double tolF = 1e-9 * kMg, tolA = 1e-9 * kG;
    EXPECT_VEC(c.vec(0, "com.acceleration"), lc.acc, tolA, "centre-of-mass acceleration at t=0");
    EXPECT_VEC(c.vec(0, "com.angular_acceleration"), lc.alpha, tolA, "angular acceleration at t=0");
    EXPECT_VEC(c.vec(0, "r.reaction_force"), lc.force, tolF, "reaction force at t=0");
    EXPECT_VEC(c.vec(0, "r.reaction_torque"), lc.torque, tolF, "reaction torque at t=0");
    // Newton: the reaction is exactly what the weight does not provide of m a
    EXPECT_VEC(c.vec(0, "r.reaction_force"), kMass * (c.vec(0, "com.acceleration") - lc.gravity), tolF,
               "F = m (a - g) at t=0");
  }

  // ---- (b) Newton's third law: ground as body2 ------------------------------------------------
  void reversedJointReaction_data() { integratorRows(); }
  void reversedJointReaction() {
    // fixed joint written body -> ground: the sensor reports the load on the ground (body2),
    // about the ground marker: minus the support of staticReactions' fixed case
    const LoadCase lc = staticCases().at(0);
    ModelSpec m = jointModel(lc.setup, fetchIntegrator(), 0.1, 0.05, lc.gravity);
    m.joints[0] = {"joint", JointType::Fixed, "b", "j", "ground", "g"};
    std::erase_if(m.sensors, [](const SensorSpec& s) { return s.name == "rb"; });  // ground has no body axes to test
    Collector c;
    RUN(m, c);
    for (size_t i = 0; i < c.samples.size(); ++i) {
      EXPECT_VEC(c.vec(i, "r.reaction_force"), -lc.force, 1e-9 * kMg, "load on ground" + at(c.t(i)));
      EXPECT_VEC(c.vec(i, "r.reaction_torque"), -lc.torque, 1e-9 * kMg, "torque on ground" + at(c.t(i)));
    }
  }

  // ---- (b) reactions through a chain: joint between two moving bodies -------------------------
  void chainReactions_data() { integratorRows(); }
  void chainReactions() {
    // upper body welded to ground at W; lower body hangs from the upper one on a revolute about
    // global x at K. Statics: the revolute carries the lower weight and its moment; the weld
    // carries both weights and both moments about W.
    const double m1 = 1.5, m2 = kMass;
    const Vec3 W(0, 0, 2), c1(0.2, 0.1, 1.8), K(0.5, 0, 1.5), c2(0.5 + 0.3, 0, 1.5 - 0.4);
    ModelSpec m;
    m.gravity = Vec3(0, 0, -kG);
    m.ground_markers = {marker("W", W)};
    RigidBodySpec upper;
    upper.name = "upper";
    upper.mass = m1;
    upper.inertia = kInertia;
    upper.position = c1;
    upper.orientation = rot(0.3, Vec3(0, 1, 1));
    const Mat3 A1 = upper.orientation.toRotationMatrix();
    upper.markers = {marker("W", A1.transpose() * (W - c1), upper.orientation.conjugate()),  // axes = ground axes
                     marker("K", A1.transpose() * (K - c1), upper.orientation.conjugate() * zAlong(Vec3::UnitX()))};
    RigidBodySpec lower;
    lower.name = "lower";
    lower.mass = m2;
    lower.inertia = kInertia;
    lower.position = c2;
    lower.orientation = kTilted;
    lower.markers = {marker("K", kTilted.conjugate() * (K - c2), kTilted.conjugate() * zAlong(Vec3::UnitX()))};
    m.bodies = {upper, lower};
    m.joints = {{"weld", JointType::Fixed, "ground", "W", "upper", "W"},
                {"hinge", JointType::Revolute, "upper", "K", "lower", "K"}};
    m.sensors = {{"weld", SensorSpec::Type::Joint, "", "", "weld", SensorSpec::Frame::Global, {"reaction_force", "reaction_torque"}},
                 {"hinge", SensorSpec::Type::Joint, "", "", "hinge", SensorSpec::Frame::Global, {"reaction_force", "reaction_torque"}}};
    m.solver.t_end = 0.1;
    m.solver.output_interval = 0.05;
    m.solver.integrator = fetchIntegrator();
    m.solver.rtol = 1e-8;
    m.solver.atol = 1e-10;
    m.solver.step = m.solver.integrator == IntegratorType::Ida ? 0 : 1e-3;
    Collector c;
    RUN(m, c);
    const Vec3 W1(0, 0, m1 * kG), W2(0, 0, m2 * kG);  // support forces
    // hinge: lever c2 - K = (0.3, 0, -0.4): T = (c2 - K) x W2 = (0, -0.3 m2 g, 0)
    const Vec3 tHinge(0, -0.3 * m2 * kG, 0);
    // weld: T = (c1 - W) x W1 + (c2 - W) x W2, written out: (d_y w, -d_x w, 0) per body
    const Vec3 tWeld(0.1 * m1 * kG + 0 * m2 * kG, -0.2 * m1 * kG - 0.8 * m2 * kG, 0);
    for (size_t i = 0; i < c.samples.size(); ++i) {
      const std::string when = at(c.t(i));
      EXPECT_VEC(c.vec(i, "hinge.reaction_force"), W2, 1e-9 * kMg, "hinge force" + when);
      EXPECT_VEC(c.vec(i, "hinge.reaction_torque"), tHinge, 1e-9 * kMg, "hinge torque" + when);
      EXPECT_VEC(c.vec(i, "weld.reaction_force"), W1 + W2, 1e-9 * kMg, "weld force" + when);
      EXPECT_VEC(c.vec(i, "weld.reaction_torque"), tWeld, 1e-9 * kMg, "weld torque" + when);
    }
  }

  // ---- (b) centripetal load on a revolute -------------------------------------------------
  void revoluteCentripetal_data() { integratorRows(); }
  void revoluteCentripetal() {
    // no gravity; spinning at w about global z through P; centre of mass at P + (r, 0, h).
    // F = -m w^2 (c - P)_perp (m w^2 r toward the axis); about marker2 (on the axis)
    // T = (c - P) x F = -m w^2 h z x (c - P)_perp (at t = 0: (0, -m r h w^2, 0)).
    const IntegratorType it = fetchIntegrator();
    const double w = 4.0, r = 0.5, h = 0.2;
    JointSetup s;
    s.type = JointType::Revolute;
    s.P = Vec3(0.1, 0.2, 0.3);
    s.d = Vec3(r, 0, h);
    s.w0 = Vec3(0, 0, w);
    s.v0 = s.w0.cross(s.d);
    Collector c;
    RUN(jointModel(s, it, 1.0, 0.01, Vec3::Zero()), c);
    QCOMPARE(c.samples.size(), size_t(101));
    EXPECT_RESIDUAL(c, it);
    const double Fmag = kMass * w * w * r;
    EXPECT_VEC(c.vec(0, "r.reaction_force"), Vec3(-Fmag, 0, 0), 1e-9 * Fmag, "centripetal force at t=0");
    EXPECT_VEC(c.vec(0, "r.reaction_torque"), Vec3(0, -kMass * r * h * w * w, 0), 1e-9 * Fmag, "torque at t=0");
    // every sample: the reaction of the sampled state (spin w_s about z, centre of mass at c)
    MaxError pos, rate, angle;
    for (size_t i = 0; i < c.samples.size(); ++i) {
      const double t = c.t(i);
      const std::string when = at(t);
      const double ws = c.value(i, "r.velocity.rotation");
      const Vec3 rel = c.vec(i, "com.position") - s.P, perp(rel.x(), rel.y(), 0);
      EXPECT_NUM(rel.z(), h, 1e-9, "centre of mass height" + when);
      EXPECT_NUM(perp.norm(), r, 1e-9, "centre of mass radius" + when);
      EXPECT_VEC(c.vec(i, "com.angular_velocity"), Vec3(0, 0, ws), 1e-9, "spin about the axis only" + when);
      EXPECT_VEC(c.vec(i, "r.reaction_force"), -kMass * ws * ws * perp, 1e-9 * Fmag, "centripetal force" + when);
      EXPECT_VEC(c.vec(i, "r.reaction_torque"), -kMass * ws * ws * h * Vec3::UnitZ().cross(perp), 1e-9 * Fmag,
                 "reaction torque" + when);
      // trajectory against the closed form: uniform rotation
      pos.add((rel - Vec3(r * std::cos(w * t), r * std::sin(w * t), h)).norm(), t);
      rate.add(std::abs(ws - w), t);
      angle.add(std::abs(c.value(i, "r.coordinate.rotation") - w * t), t);
    }
    const double tol = stateTolerance(it);
    qInfo("uniform rotation: max error position %.2e m, rate %.2e rad/s, angle %.2e rad", pos.value, rate.value,
          angle.value);
    MaxError all;
    all.add(std::max({pos.value, rate.value / w, angle.value}), 0);
    EXPECT_MAX(all, tol, "uniform rotation (max of position [m], rate / w, angle [rad])");
  }

  // ---- (a) kinematics + residuals per joint type ----------------------------------------------
  void fixedDynamics_data() { integratorRows(); }
  void fixedDynamics() {
    const IntegratorType it = fetchIntegrator();
    JointSetup s;
    s.type = JointType::Fixed;
    s.P = Vec3(0.5, -0.25, 1.0);
    s.R1 = rot(0.3, Vec3::UnitY());
    s.d = Vec3(0.3, -0.2, -0.1);
    s.A = kTilted;
    s.v0 = Vec3(1, 2, 3);    // inconsistent on purpose: projected to zero
    s.w0 = Vec3(-1, 0, 2);
    const Vec3 g(0.5, 3.0, -kG);
    Collector c;
    RUN(jointModel(s, it, 0.5, 0.01, g), c);
    EXPECT_RESIDUAL(c, it);
    const Vec3 F = -kMass * g, T = s.d.cross(F);  // holds the weight and its moment about the joint point
    for (size_t i = 0; i < c.samples.size(); ++i) {
      const std::string when = at(c.t(i));
      EXPECT_VEC(c.vec(i, "m2.position"), c.vec(i, "m1.position"), 1e-9, "origins coincide" + when);
      QVERIFY2((c.axes(i, "m1") - c.axes(i, "m2")).norm() <= 1e-9, ("axes aligned" + when).c_str());
      EXPECT_VEC(c.vec(i, "com.position"), s.P + s.d, 1e-9, "body at rest" + when);
      EXPECT_VEC(c.vec(i, "com.velocity"), Vec3::Zero(), 1e-9, "velocity" + when);
      EXPECT_VEC(c.vec(i, "com.angular_velocity"), Vec3::Zero(), 1e-9, "angular velocity" + when);
      EXPECT_VEC(c.vec(i, "r.reaction_force"), F, 1e-9 * kMg, "reaction force" + when);
      EXPECT_VEC(c.vec(i, "r.reaction_torque"), T, 1e-9 * kMg, "reaction torque" + when);
    }
  }

  void revoluteDynamics_data() { integratorRows(); }
  void revoluteDynamics() {
    // pendulum about a tilted axis, started with a spin about it
    const IntegratorType it = fetchIntegrator();
    JointSetup s;
    s.type = JointType::Revolute;
    s.P = Vec3(0.5, 0.2, 1.0);
    s.R1 = rot(1.2, Vec3::UnitX());
    s.d = Vec3(0.4, 0.1, -0.2);
    const Vec3 z1 = s.R1 * Vec3::UnitZ();
    s.w0 = 1.5 * z1;
    s.v0 = s.w0.cross(s.d);
    Collector c;
    RUN(jointModel(s, it, 1.0, 0.01, Vec3(0, 0, -kG)), c);
    EXPECT_RESIDUAL(c, it);
    const double E0 = c.value(0, "e.total.value"), Escale = kMg * s.d.norm();
    MaxError energy;
    double thMin = 1e9, thMax = -1e9;
    for (size_t i = 0; i < c.samples.size(); ++i) {
      const std::string when = at(c.t(i));
      const Mat3 R1 = c.axes(i, "m1"), R2 = c.axes(i, "m2");
      EXPECT_VEC(c.vec(i, "m2.position"), c.vec(i, "m1.position"), 1e-9, "origins coincide" + when);
      EXPECT_VEC(R1.col(2), z1, 1e-12, "ground marker fixed" + when);
      EXPECT_SMALL(R1.col(2).cross(R2.col(2)).norm(), 1e-9, "z axes parallel" + when);
      // relative orientation is a rotation about z by the joint coordinate (marker2 x about marker1 z)
      const double th = c.value(i, "r.coordinate.rotation");
      QVERIFY2((R1.transpose() * R2 - rotZ(th)).norm() <= 1e-9, ("R1^T R2 = Rz(coordinate)" + when).c_str());
      EXPECT_NUM(c.value(i, "r.velocity.rotation"), c.vec(i, "com.angular_velocity").dot(z1), 1e-9,
                 "coordinate rate = omega . z" + when);
      EXPECT_SMALL(c.vec(i, "r.reaction_torque").dot(z1), 1e-9 * kMg, "no torque about the axis" + when);
      energy.add(std::abs(c.value(i, "e.total.value") - E0) / Escale, c.t(i));
      thMin = std::min(thMin, th);
      thMax = std::max(thMax, th);
    }
    QVERIFY2(thMax - thMin > 0.5, "the pendulum really moved");
    qInfo("energy drift / (m g |d|) = %.2e", energy.value);
    EXPECT_MAX(energy, stateTolerance(it), "energy conserved (relative to m g |d|)");
  }

  void prismaticDynamics_data() { integratorRows(); }
  void prismaticDynamics() {
    // slider on an axis tilted 0.6 rad from vertical, started at 0.8 m/s along it
    const IntegratorType it = fetchIntegrator();
    JointSetup s;
    s.type = JointType::Prismatic;
    s.P = Vec3(0.1, 0.2, 0.3);
    s.R1 = rot(0.6, Vec3::UnitY());
    s.d = Vec3(0.1, 0.2, -0.3);
    s.A = rot(0.5, Vec3(1, 1, 0));
    const Vec3 z1 = s.R1 * Vec3::UnitZ(), g(0, 0, -kG);
    const double v0 = 0.8, gz = g.dot(z1);  // gz = -g cos(0.6)
    s.v0 = v0 * z1;
    Collector c;
    RUN(jointModel(s, it, 1.0, 0.01, g), c);
    EXPECT_RESIDUAL(c, it);
    const Mat3 Rrel0 = c.axes(0, "m1").transpose() * c.axes(0, "m2");
    QVERIFY((Rrel0 - Mat3::Identity()).norm() <= 1e-9);
    const Vec3 F = -kMass * (g - gz * z1);  // carries the weight component across the axis
    MaxError travel, speed;
    for (size_t i = 0; i < c.samples.size(); ++i) {
      const double t = c.t(i);
      const std::string when = at(t);
      const Vec3 rel = c.vec(i, "m2.position") - c.vec(i, "m1.position");
      EXPECT_SMALL(rel.cross(z1).norm(), 1e-9, "relative motion only along marker1 z" + when);
      QVERIFY2((c.axes(i, "m1").transpose() * c.axes(i, "m2") - Rrel0).norm() <= 1e-9,
               ("orientation locked" + when).c_str());
      EXPECT_NUM(c.value(i, "r.coordinate.translation"), rel.dot(z1), 1e-12, "translation coordinate" + when);
      travel.add(std::abs(rel.dot(z1) - (v0 * t + 0.5 * gz * t * t)), t);
      speed.add(std::abs(c.value(i, "r.velocity.translation") - (v0 + gz * t)), t);
      EXPECT_VEC(c.vec(i, "r.reaction_force"), F, 1e-9 * kMg, "reaction force" + when);
      EXPECT_VEC(c.vec(i, "r.reaction_torque"), s.d.cross(F), 1e-9 * kMg, "reaction torque" + when);
    }
    EXPECT_MAX(travel, stateTolerance(it), "travel = v0 t + g_z t^2 / 2");
    EXPECT_MAX(speed, stateTolerance(it), "translation rate = v0 + g_z t");
  }

  void cylindricalDynamics_data() { integratorRows(); }
  void cylindricalDynamics() {
    // centre of mass on a tilted axis; slides under gravity and spins at constant rate. The axis is
    // not a principal axis, so the joint carries the gyroscopic moment w^2 z x (J_global z).
    const IntegratorType it = fetchIntegrator();
    JointSetup s;
    s.type = JointType::Cylindrical;
    s.P = Vec3(0.1, 0.2, 0.3);
    s.R1 = rot(0.6, Vec3::UnitY());
    s.d = Vec3::Zero();
    s.A = rot(0.5, Vec3(1, 1, 0));
    const Vec3 z1 = s.R1 * Vec3::UnitZ(), g(0, 0, -kG);
    const double v0 = 0.8, w = 3.0, gz = g.dot(z1);
    s.v0 = v0 * z1;
    s.w0 = w * z1;
    Collector c;
    RUN(jointModel(s, it, 1.0, 0.01, g), c);
    EXPECT_RESIDUAL(c, it);
    const Vec3 F = -kMass * (g - gz * z1);
    MaxError traj;
    for (size_t i = 0; i < c.samples.size(); ++i) {
      const double t = c.t(i);
      const std::string when = at(t);
      const Mat3 R1 = c.axes(i, "m1"), R2 = c.axes(i, "m2");
      const Vec3 rel = c.vec(i, "m2.position") - c.vec(i, "m1.position");
      EXPECT_SMALL(rel.cross(z1).norm(), 1e-9, "relative motion only along marker1 z" + when);
      EXPECT_SMALL(R1.col(2).cross(R2.col(2)).norm(), 1e-9, "z axes parallel" + when);
      const double th = c.value(i, "r.coordinate.rotation");
      QVERIFY2((R1.transpose() * R2 - rotZ(th)).norm() <= 1e-9, ("R1^T R2 = Rz(coordinate)" + when).c_str());
      // closed form: rotation w t, translation v0 t + g_z t^2 / 2
      traj.add(std::max({std::abs(th - w * t), std::abs(c.value(i, "r.velocity.rotation") - w) / w,
                         std::abs(c.value(i, "r.coordinate.translation") - (v0 * t + 0.5 * gz * t * t)),
                         std::abs(c.value(i, "r.velocity.translation") - (v0 + gz * t))}),
               t);
      // reactions of the sampled state: cross-axis weight, gyroscopic moment w_s^2 z x (J_global z)
      const double ws = c.value(i, "r.velocity.rotation");
      EXPECT_VEC(c.vec(i, "r.reaction_force"), F, 1e-9 * kMg, "reaction force" + when);
      const Mat3 A = c.bodyA(i), Jg = A * kInertia * A.transpose();
      EXPECT_VEC(c.vec(i, "r.reaction_torque"), ws * ws * z1.cross(Jg * z1), 1e-9 * kMg, "gyroscopic torque" + when);
      EXPECT_SMALL(c.vec(i, "r.reaction_torque").dot(z1), 1e-9 * kMg, "no torque about the axis" + when);
      EXPECT_SMALL(c.vec(i, "r.reaction_force").dot(z1), 1e-9 * kMg, "no force along the axis" + when);
    }
    EXPECT_MAX(traj, stateTolerance(it), "rotation w t and translation v0 t + g_z t^2 / 2 (and rates)");
  }

  void sphericalDynamics_data() { integratorRows(); }
  void sphericalDynamics() {
    // spinning top / spherical pendulum: origins coincide, no torque, energy and the vertical
    // angular momentum about the pivot are conserved
    const IntegratorType it = fetchIntegrator();
    JointSetup s;
    s.type = JointType::Spherical;
    s.P = Vec3(0, 0, 1);
    s.d = Vec3(0.3, 0.1, -0.4);
    s.w0 = Vec3(0.5, -1.0, 2.0);
    s.v0 = s.w0.cross(s.d);
    Collector c;
    RUN(jointModel(s, it, 1.0, 0.01, Vec3(0, 0, -kG)), c);
    EXPECT_RESIDUAL(c, it);
    auto Hz = [&](size_t i) {
      const Mat3 A = c.bodyA(i);
      const Vec3 r = c.vec(i, "com.position") - s.P;
      return (A * kInertia * A.transpose() * c.vec(i, "com.angular_velocity") + kMass * r.cross(c.vec(i, "com.velocity"))).z();
    };
    const double E0 = c.value(0, "e.total.value"), H0 = Hz(0);
    QVERIFY(std::abs(H0) > 0.1);
    MaxError energy, momentum;
    double maxAngle = 0;
    for (size_t i = 0; i < c.samples.size(); ++i) {
      const std::string when = at(c.t(i));
      EXPECT_VEC(c.vec(i, "m2.position"), c.vec(i, "m1.position"), 1e-9, "origins coincide" + when);
      EXPECT_VEC(c.vec(i, "r.reaction_torque"), Vec3::Zero(), 1e-9 * kMg, "no torque" + when);
      energy.add(std::abs(c.value(i, "e.total.value") - E0) / (kMg * s.d.norm()), c.t(i));
      momentum.add(std::abs(Hz(i) - H0) / std::abs(H0), c.t(i));
      maxAngle = std::max(maxAngle, Eigen::AngleAxisd(c.bodyA(i)).angle());
    }
    QVERIFY2(maxAngle > 0.5, "the body really rotated");
    qInfo("energy drift / (m g |d|) = %.2e, vertical angular momentum drift %.2e", energy.value, momentum.value);
    EXPECT_MAX(energy, stateTolerance(it), "energy conserved (relative to m g |d|)");
    EXPECT_MAX(momentum, stateTolerance(it), "vertical angular momentum about the pivot conserved (relative)");
  }

  void universalDynamics_data() { integratorRows(); }
  void universalDynamics() {
    // pins along global x (ground) and global y (body, at t=0); swings about both
    const IntegratorType it = fetchIntegrator();
    JointSetup s;
    s.type = JointType::Universal;
    s.P = Vec3(0, 0, 1);
    s.R1 = zAlong(Vec3::UnitX());
    s.R2 = zAlong(Vec3::UnitY());
    s.d = Vec3(0.1, 0.2, -0.5);
    s.w0 = Vec3(1.0, 0.7, 0);  // in span(z1, z2): consistent
    s.v0 = s.w0.cross(s.d);
    Collector c;
    RUN(jointModel(s, it, 1.0, 0.01, Vec3(0, 0, -kG)), c);
    EXPECT_RESIDUAL(c, it);
    const double E0 = c.value(0, "e.total.value");
    MaxError energy;
    double minZ2y = 1;
    for (size_t i = 0; i < c.samples.size(); ++i) {
      const std::string when = at(c.t(i));
      const Vec3 z1 = c.axes(i, "m1").col(2), z2 = c.axes(i, "m2").col(2);
      EXPECT_VEC(c.vec(i, "m2.position"), c.vec(i, "m1.position"), 1e-9, "origins coincide" + when);
      EXPECT_SMALL(z1.dot(z2), 1e-9, "z axes perpendicular" + when);
      const Vec3 T = c.vec(i, "r.reaction_torque");
      EXPECT_SMALL(T.dot(z1), 1e-9 * kMg, "no torque about pin 1" + when);
      EXPECT_SMALL(T.dot(z2), 1e-9 * kMg, "no torque about pin 2" + when);
      energy.add(std::abs(c.value(i, "e.total.value") - E0) / (kMg * s.d.norm()), c.t(i));
      minZ2y = std::min(minZ2y, z2.y());
    }
    QVERIFY2(minZ2y < 0.95, "the cross really turned");
    qInfo("energy drift / (m g |d|) = %.2e", energy.value);
    EXPECT_MAX(energy, stateTolerance(it), "energy conserved (relative to m g |d|)");
  }

  void planarDynamics_data() { integratorRows(); }
  void planarDynamics() {
    // plane tilted 0.5 rad about x; centre of mass in the plane, thrown in-plane and spinning about
    // the normal: parabola with the in-plane gravity, constant spin, gyroscopic moment carried
    const IntegratorType it = fetchIntegrator();
    JointSetup s;
    s.type = JointType::Planar;
    s.P = Vec3(0.2, -0.1, 0.5);
    s.R1 = rot(0.5, Vec3::UnitX());
    s.d = Vec3::Zero();
    s.A = rot(0.7, Vec3(0, 1, 1));
    const Mat3 R1 = s.R1.toRotationMatrix();
    const Vec3 z1 = R1.col(2), g(0, 0, -kG), gPlane = g - g.dot(z1) * z1;
    const double w = 2.0;
    s.v0 = 1.0 * R1.col(0) + 0.5 * R1.col(1);
    s.w0 = w * z1;
    Collector c;
    RUN(jointModel(s, it, 1.0, 0.01, g), c);
    EXPECT_RESIDUAL(c, it);
    const Vec3 F = -kMass * g.dot(z1) * z1;
    MaxError traj;
    for (size_t i = 0; i < c.samples.size(); ++i) {
      const double t = c.t(i);
      const std::string when = at(t);
      const Vec3 rel = c.vec(i, "m2.position") - c.vec(i, "m1.position");
      EXPECT_SMALL(rel.dot(z1), 1e-9, "marker2 origin in marker1 xy plane" + when);
      EXPECT_SMALL(c.axes(i, "m2").col(2).cross(z1).norm(), 1e-9, "z axes parallel" + when);
      const Vec3 ws = c.vec(i, "com.angular_velocity");
      EXPECT_SMALL(ws.cross(z1).norm(), 1e-9, "spin about the plane normal only" + when);
      traj.add(std::max((c.vec(i, "com.position") - (s.P + s.v0 * t + 0.5 * gPlane * t * t)).norm(),
                        (ws - w * z1).norm() / w),
               t);
      // reactions of the sampled state: normal weight component, gyroscopic moment
      EXPECT_VEC(c.vec(i, "r.reaction_force"), F, 1e-9 * kMg, "reaction force normal to the plane" + when);
      const Mat3 A = c.bodyA(i), Jg = A * kInertia * A.transpose();
      EXPECT_VEC(c.vec(i, "r.reaction_torque"), ws.cross(Jg * ws), 1e-9 * kMg, "gyroscopic torque" + when);
      EXPECT_SMALL(c.vec(i, "r.reaction_torque").dot(z1), 1e-9 * kMg, "no torque about the normal" + when);
    }
    EXPECT_MAX(traj, 2 * stateTolerance(it), "in-plane parabola and constant spin");
  }

  // ---- (c) drivers -----------------------------------------------------------------------------
  void revoluteDriverConstantSpeed_data() {
    QTest::addColumn<int>("integrator");
    QTest::addColumn<double>("w");
    for (double w : {10.0, -10.0}) {  // both senses: the unwrapping must count turns either way
      const std::string sense = w > 0 ? "/positive" : "/negative";
      QTest::newRow(("ida" + sense).c_str()) << static_cast<int>(IntegratorType::Ida) << w;
      QTest::newRow(("gen-alpha" + sense).c_str()) << static_cast<int>(IntegratorType::GeneralizedAlpha) << w;
    }
  }
  void revoluteDriverConstantSpeed() {
    // arm L along body x, driven at w about global z, gravity -y. Closed form, theta = w t:
    // driver torque T_z = m g L cos(theta) (either sense); F = -m w^2 d(t) + (0, m g, 0),
    // d = L (cos theta, sin theta, 0).
    const IntegratorType it = fetchIntegrator();
    QFETCH(double, w);
    const double L = 0.5;
    JointSetup s;
    s.type = JointType::Revolute;
    s.d = Vec3(L, 0, 0);
    s.w0 = Vec3(0, 0, w);
    s.v0 = s.w0.cross(s.d);
    ModelSpec m = jointModel(s, it, 2.0, 0.01, Vec3(0, -kG, 0));
    DriverSpec motor;
    motor.name = "motor";
    motor.joint = "joint";
    motor.coordinate = DriverSpec::Coordinate::Rotation;
    motor.function.type = TimeFunctionSpec::Type::ConstantSpeed;
    motor.function.speed = w;
    m.drivers = {motor};
    Collector c;
    ModelCheck mc;
    std::string err;
    QVERIFY2(simulate(m, c, err, &mc), err.c_str());
    QCOMPARE(mc.dof, 0);
    EXPECT_RESIDUAL(c, it);
    QCOMPARE(c.samples.size(), size_t(201));
    // unwrapped over more than 3 turns
    QVERIFY(std::abs(c.value(c.samples.size() - 1, "r.coordinate.rotation")) > 3 * 2 * kPi);
    for (size_t i = 0; i < c.samples.size(); ++i) {
      const double t = c.t(i), th = w * t;
      const std::string when = at(t);
      EXPECT_NUM(c.value(i, "r.coordinate.rotation"), th, 1e-8, "coordinate = w t (unwrapped)" + when);
      EXPECT_NUM(c.value(i, "r.velocity.rotation"), w, 1e-8, "rate = w" + when);
      const Vec3 d = L * Vec3(std::cos(th), std::sin(th), 0);
      EXPECT_VEC(c.vec(i, "com.position") - s.P, d, 1e-8, "arm position" + when);
      EXPECT_VEC(c.vec(i, "r.reaction_torque"), Vec3(0, 0, kMg * L * std::cos(th)), 1e-7 * kMg, "driver torque" + when);
      EXPECT_VEC(c.vec(i, "r.reaction_force"), -kMass * w * w * d + Vec3(0, kMg, 0), 1e-7 * kMg, "joint force" + when);
    }
  }

  void prismaticDriverSmoothStep_data() { integratorRows(); }
  void prismaticDriverSmoothStep() {
    // horizontal slide along global x driven 0 -> 0.5 m over t in [0.2, 1.2]; gravity -z.
    // F = (m a(t), 0, m g), T = d x F (no rotation: moments about the centre of mass vanish).
    const IntegratorType it = fetchIntegrator();
    const Step step{0.2, 1.2, 0.0, 0.5};
    JointSetup s;
    s.type = JointType::Prismatic;
    s.P = Vec3(0, 0, 0.5);
    s.R1 = zAlong(Vec3::UnitX());
    s.d = Vec3(0.1, 0, -0.2);
    ModelSpec m = jointModel(s, it, 1.5, 0.01, Vec3(0, 0, -kG));
    DriverSpec drive;
    drive.name = "drive";
    drive.joint = "joint";
    drive.coordinate = DriverSpec::Coordinate::Translation;
    drive.function.type = TimeFunctionSpec::Type::SmoothStep;
    drive.function.t0 = step.t0;
    drive.function.t1 = step.t1;
    drive.function.value0 = step.v0;
    drive.function.value1 = step.v1;
    m.drivers = {drive};
    Collector c;
    RUN(m, c);
    EXPECT_RESIDUAL(c, it);
    double peak = 0;
    for (size_t i = 0; i < c.samples.size(); ++i) {
      const double t = c.t(i);
      const std::string when = at(t);
      EXPECT_NUM(c.value(i, "r.coordinate.translation"), step.f(t), 1e-9, "translation = f(t)" + when);
      EXPECT_NUM(c.value(i, "r.velocity.translation"), step.df(t), 1e-9, "rate = f'(t)" + when);
      EXPECT_VEC(c.vec(i, "com.position"), s.P + s.d + Vec3(step.f(t), 0, 0), 1e-9, "slider position" + when);
      const Vec3 F(kMass * step.ddf(t), 0, kMg);
      EXPECT_VEC(c.vec(i, "r.reaction_force"), F, 1e-8 * kMg, "reaction force (x: m a(t))" + when);
      EXPECT_VEC(c.vec(i, "r.reaction_torque"), s.d.cross(F), 1e-8 * kMg, "reaction torque" + when);
      peak = std::max(peak, std::abs(c.value(i, "r.reaction_force.x")));
    }
    // the step really happened: end value reached, peak drive force ~ m * 5.77 dv / T^2
    EXPECT_NUM(c.value(c.samples.size() - 1, "r.coordinate.translation"), 0.5, 1e-9, "end value");
    QVERIFY(peak > kMass * 2.8);
  }
};

QTEST_APPLESS_MAIN(JointsTest)
#include "joints_test.moc"
