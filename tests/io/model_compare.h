// Test helper: field-by-field comparison of two ModelSpecs, naming every difference by its
// JSON-like path so a failing round trip says exactly which field was lost. (The loaded
// reduced-body data of flexible bodies is not part of the document and is not compared.)
#pragma once

#include "core/model/model.h"

#include <string>
#include <vector>

namespace flexim::test {

class ModelDiff {
 public:
  std::vector<std::string> differences;

  template <class T>
  void same(const std::string& path, const T& a, const T& b) {
    if (!(a == b)) differences.push_back(path);
  }
  void same(const std::string& path, const Quat& a, const Quat& b) { same(path, a.coeffs(), b.coeffs()); }
  template <class T, class F>
  void sameList(const std::string& path, const std::vector<T>& a, const std::vector<T>& b, F&& compare) {
    if (a.size() != b.size()) {
      differences.push_back(path + " (size)");
      return;
    }
    for (std::size_t i = 0; i < a.size(); ++i) compare(path + "[" + std::to_string(i) + "]", a[i], b[i]);
  }

  void marker(const std::string& p, const MarkerSpec& a, const MarkerSpec& b) {
    same(p + ".name", a.name, b.name);
    same(p + ".position", a.position, b.position);
    same(p + ".orientation", a.orientation, b.orientation);
  }
  void function(const std::string& p, const TimeFunctionSpec& a, const TimeFunctionSpec& b) {
    same(p + ".type", a.type, b.type);
    same(p + ".value", a.value, b.value);
    same(p + ".initial", a.initial, b.initial);
    same(p + ".speed", a.speed, b.speed);
    same(p + ".slope", a.slope, b.slope);
    same(p + ".start", a.start, b.start);
    same(p + ".t0", a.t0, b.t0);
    same(p + ".t1", a.t1, b.t1);
    same(p + ".value0", a.value0, b.value0);
    same(p + ".value1", a.value1, b.value1);
    same(p + ".amplitude", a.amplitude, b.amplitude);
    same(p + ".frequency", a.frequency, b.frequency);
    same(p + ".phase", a.phase, b.phase);
    same(p + ".offset", a.offset, b.offset);
    same(p + ".times", a.times, b.times);
    same(p + ".values", a.values, b.values);
  }
  void model(const ModelSpec& a, const ModelSpec& b) {
    same("schema_version", a.schema_version, b.schema_version);
    same("name", a.name, b.name);
    same("description", a.description, b.description);
    same("gravity", a.gravity, b.gravity);
    const auto markers = [this](const std::string& p, const MarkerSpec& x, const MarkerSpec& y) { marker(p, x, y); };
    sameList("ground.markers", a.ground_markers, b.ground_markers, markers);
    sameList("bodies", a.bodies, b.bodies, [&](const std::string& p, const RigidBodySpec& x, const RigidBodySpec& y) {
      same(p + ".name", x.name, y.name);
      same(p + ".mass", x.mass, y.mass);
      same(p + ".inertia", x.inertia, y.inertia);
      same(p + ".position", x.position, y.position);
      same(p + ".orientation", x.orientation, y.orientation);
      same(p + ".velocity", x.velocity, y.velocity);
      same(p + ".angular_velocity", x.angular_velocity, y.angular_velocity);
      sameList(p + ".markers", x.markers, y.markers, markers);
    });
    sameList("flexible_bodies", a.flexible_bodies, b.flexible_bodies,
             [&](const std::string& p, const FlexibleBodySpec& x, const FlexibleBodySpec& y) {
               same(p + ".name", x.name, y.name);
               same(p + ".file", x.file, y.file);
               same(p + ".modes", x.mode_count, y.mode_count);
               same(p + ".reference", x.reference, y.reference);
               same(p + ".reference_interface", x.reference_interface, y.reference_interface);
               same(p + ".position", x.position, y.position);
               same(p + ".orientation", x.orientation, y.orientation);
               same(p + ".velocity", x.velocity, y.velocity);
               same(p + ".angular_velocity", x.angular_velocity, y.angular_velocity);
               same(p + ".modal_coordinates", x.modal_coordinates, y.modal_coordinates);
               same(p + ".damping.ratio", x.damping.ratio, y.damping.ratio);
               same(p + ".damping.alpha", x.damping.alpha, y.damping.alpha);
               same(p + ".damping.beta", x.damping.beta, y.damping.beta);
               same(p + ".stiffness_scale", x.stiffness_scale, y.stiffness_scale);
             });
    sameList("virtual_bodies", a.virtual_bodies, b.virtual_bodies,
             [&](const std::string& p, const VirtualBodySpec& x, const VirtualBodySpec& y) {
               same(p + ".name", x.name, y.name);
               same(p + ".flexible_body", x.flexible_body, y.flexible_body);
               same(p + ".point", x.point, y.point);
               same(p + ".nodes", x.nodes, y.nodes);
               same(p + ".interface", x.interface, y.interface);
               same(p + ".orientation", x.orientation, y.orientation);
               sameList(p + ".markers", x.markers, y.markers, markers);
             });
    sameList("joints", a.joints, b.joints, [&](const std::string& p, const JointSpec& x, const JointSpec& y) {
      same(p + ".name", x.name, y.name);
      same(p + ".type", x.type, y.type);
      same(p + ".body1", x.body1, y.body1);
      same(p + ".marker1", x.marker1, y.marker1);
      same(p + ".body2", x.body2, y.body2);
      same(p + ".marker2", x.marker2, y.marker2);
    });
    sameList("drivers", a.drivers, b.drivers, [&](const std::string& p, const DriverSpec& x, const DriverSpec& y) {
      same(p + ".name", x.name, y.name);
      same(p + ".joint", x.joint, y.joint);
      same(p + ".coordinate", x.coordinate, y.coordinate);
      function(p + ".function", x.function, y.function);
    });
    sameList("forces", a.forces, b.forces, [&](const std::string& p, const ForceSpec& x, const ForceSpec& y) {
      same(p + ".name", x.name, y.name);
      same(p + ".type", x.type, y.type);
      same(p + ".body1", x.body1, y.body1);
      same(p + ".marker1", x.marker1, y.marker1);
      same(p + ".body2", x.body2, y.body2);
      same(p + ".marker2", x.marker2, y.marker2);
      same(p + ".vector", x.vector, y.vector);
      same(p + ".frame", x.frame, y.frame);
      function(p + ".function", x.function, y.function);
      same(p + ".stiffness", x.stiffness, y.stiffness);
      same(p + ".damping", x.damping, y.damping);
      same(p + ".free_length", x.free_length, y.free_length);
      same(p + ".preload", x.preload, y.preload);
      same(p + ".bushing_stiffness", x.bushing_stiffness, y.bushing_stiffness);
      same(p + ".bushing_damping", x.bushing_damping, y.bushing_damping);
    });
    sameList("sensors", a.sensors, b.sensors, [&](const std::string& p, const SensorSpec& x, const SensorSpec& y) {
      same(p + ".name", x.name, y.name);
      same(p + ".type", x.type, y.type);
      same(p + ".body", x.body, y.body);
      same(p + ".marker", x.marker, y.marker);
      same(p + ".joint", x.joint, y.joint);
      same(p + ".frame", x.frame, y.frame);
      same(p + ".quantities", x.quantities, y.quantities);
      same(p + ".node", x.node, y.node);
      same(p + ".chord", x.chord, y.chord);
    });
    const SolverSpec &s = a.solver, &t = b.solver;
    same("simulation.t_end", s.t_end, t.t_end);
    same("simulation.step", s.step, t.step);
    same("simulation.output_interval", s.output_interval, t.output_interval);
    same("simulation.integrator", s.integrator, t.integrator);
    same("simulation.rtol", s.rtol, t.rtol);
    same("simulation.atol", s.atol, t.atol);
    same("simulation.rho_inf", s.rho_inf, t.rho_inf);
    same("simulation.newton_tol", s.newton_tol, t.newton_tol);
    same("simulation.max_newton", s.max_newton, t.max_newton);
  }

  std::string str() const {
    std::string s;
    for (const auto& d : differences) s += d + "\n";
    return s;
  }
};

/// Empty when a and b are equal field by field, else one differing path per line.
inline std::string modelDifferences(const ModelSpec& a, const ModelSpec& b) {
  ModelDiff d;
  d.model(a, b);
  return d.str();
}

}  // namespace flexim::test
