// Test helper: the flexible slider-crank (topology of Fig. 6 of the floating-frame solid-element paper,
// Multibody Syst. Dyn. 2023, doi:10.1007/s11044-023-09875-y) built in code,
// with the rod fixtures of tests/data/fe/rod (steel 6 mm x 0.3 m, C3D10, 6 rigid + 16 elastic).
#pragma once

#include "core/fe/reduced_body.h"
#include "core/model/model.h"
#include "io/fe/reduced_body_file.h"

#include <map>
#include <memory>
#include <stdexcept>
#include <string>

namespace flexim::test {

/// FE node ids of the rod fixtures (tests/data/fe/rod/README.md).
inline constexpr int kRodEndA = 1, kRodMid = 838, kRodEndB = 1315;

inline std::shared_ptr<const fe::ReducedBody> loadRod(const std::string& file) {
  static std::map<std::string, std::shared_ptr<const fe::ReducedBody>> cache;
  auto& p = cache[file];
  if (!p) {
    auto body = std::make_shared<fe::ReducedBody>();
    std::string error;
    if (!io::loadReducedBody(std::string(FLEXIM_SOURCE_DIR) + "/tests/data/fe/rod/" + file, *body, &error))
      throw std::runtime_error(error);
    p = body;
  }
  return p;
}

struct FlexibleCrankOptions {
  std::string file = "rod_round_c3d10.frb";
  int elastic_modes = 8;
  ReferenceFrame reference = ReferenceFrame::MeanAxis;
  double stiffness_scale = 1.0;
  double omega = 150.0;  ///< crank speed [rad/s]
  IntegratorType integrator = IntegratorType::GeneralizedAlpha;
  double t_end = 0.05, step = 1e-5, output = 1e-4;
  std::vector<double> damping_ratio;
};

/// Crank r = 0.15 m about ground z (O = origin), rod from A = (0.15, 0, 0) to B = (0.45, 0, 0)
/// (FE x along global x), slider on the global x axis. Spherical joint crank-rod_A, cylindrical
/// joint rod_B-slider about global z, prismatic rail, crank driven at omega.
inline ModelSpec sliderCrankFlexible(const FlexibleCrankOptions& o = {}) {
  const double r = 0.15;
  ModelSpec m;
  m.name = "slider_crank_flexible";
  auto marker = [](const std::string& n, const Vec3& p, const Quat& q = Quat::Identity()) { return MarkerSpec{n, p, q}; };
  const Quat zAlongX = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitX());
  RigidBodySpec crank{"crank", 0.1, Vec3(1e-7, 1.875e-4, 1.875e-4).asDiagonal(), Vec3(r / 2, 0, 0)};
  crank.markers = {marker("O", Vec3(-r / 2, 0, 0)), marker("A", Vec3(r / 2, 0, 0))};
  RigidBodySpec slider{"slider", 0.033378, Mat3::Identity() * 1e-6, Vec3(r + 0.3, 0, 0)};
  slider.markers = {marker("center", Vec3::Zero()), marker("rail", Vec3::Zero(), zAlongX)};
  m.ground_markers = {marker("O", Vec3::Zero()), marker("rail", Vec3::Zero(), zAlongX)};
  m.bodies = {crank, slider};
  FlexibleBodySpec rod;
  rod.name = "rod";
  rod.file = o.file;
  rod.data = loadRod(o.file);
  rod.mode_count = 6 + o.elastic_modes;
  rod.reference = o.reference;
  rod.position = Vec3(r, 0, 0);
  rod.velocity = Vec3(0, o.omega * r, 0);                 // rigid slider-crank at crank angle 0:
  rod.angular_velocity = Vec3(0, 0, -o.omega * r / 0.3);  // rod turns at -omega r / l, B at rest
  rod.stiffness_scale = o.stiffness_scale;
  rod.damping.ratio = o.damping_ratio;
  m.flexible_bodies = {rod};
  VirtualBodySpec a, b;
  a.name = "rod_A";
  a.flexible_body = "rod";
  a.point = Vec3(0, 0, 0);
  a.markers = {marker("pin", Vec3::Zero())};
  b.name = "rod_B";
  b.flexible_body = "rod";
  b.point = Vec3(0.3, 0, 0);
  b.markers = {marker("pin", Vec3::Zero())};
  m.virtual_bodies = {a, b};
  m.joints = {{"crank_bearing", JointType::Revolute, "ground", "O", "crank", "O"},
              {"crank_pin", JointType::Spherical, "crank", "A", "rod_A", "pin"},
              {"wrist_pin", JointType::Cylindrical, "rod_B", "pin", "slider", "center"},
              {"rail", JointType::Prismatic, "ground", "rail", "slider", "rail"}};
  DriverSpec motor;
  motor.name = "motor";
  motor.joint = "crank_bearing";
  motor.function.type = TimeFunctionSpec::Type::ConstantSpeed;
  motor.function.speed = o.omega;
  m.drivers = {motor};
  SensorSpec s;
  s.name = "slider";
  s.body = "slider";
  s.marker = "center";
  s.quantities = {"position", "velocity", "acceleration"};
  SensorSpec d;
  d.name = "rod_mid";
  d.type = SensorSpec::Type::Deflection;
  d.body = "rod";
  d.node = kRodMid;
  d.chord = {kRodEndA, kRodEndB};
  d.quantities = {"deflection", "normalized"};
  SensorSpec e;
  e.name = "energy";
  e.type = SensorSpec::Type::Energy;
  e.quantities = {"kinetic", "strain", "total"};
  m.sensors = {s, d, e};
  m.solver.t_end = o.t_end;
  m.solver.step = o.step;
  m.solver.output_interval = o.output;
  m.solver.integrator = o.integrator;
  m.solver.rtol = 1e-8;
  m.solver.atol = 1e-10;
  m.solver.rho_inf = 0.8;
  return m;
}

}  // namespace flexim::test
