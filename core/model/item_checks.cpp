#include "core/model/item_checks.h"

#include "core/fe/reduced_body.h"
#include "core/model/description.h"
#include "core/model/sensor_quantities.h"
#include "core/model/time_function.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <set>
#include <sstream>

namespace flexim {

namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& item : items) s += (s.empty() ? "" : ", ") + item;
  return s;
}

const fe::ReducedBody* dataOf(const FlexibleBodySpec* body) { return body ? body->data.get() : nullptr; }

void checkNode(const ItemCheck& c, const std::string& field, int id, const std::string& body, const fe::ReducedBody* data) {
  if (data && !c.index().hasNode(*data, id))
    c.error(field, "flexible body " + inQuotes(body) + " has no node " + std::to_string(id));
}

/// Checks an interface name against the loaded file of a flexible body (no check without one).
void checkInterface(const ItemCheck& c, const std::string& field, const std::string& name, const std::string& body,
                    const fe::ReducedBody* data) {
  if (!data) return;
  const auto& interfaces = data->interfaces;
  if (std::any_of(interfaces.begin(), interfaces.end(), [&](const fe::Interface& f) { return f.name == name; }))
    return;
  constexpr std::size_t kListed = 10;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < std::min(interfaces.size(), kListed); ++i) names.push_back(inQuotes(interfaces[i].name));
  if (interfaces.size() > kListed) names.push_back("...");
  c.error(field, "flexible body " + inQuotes(body) + " has no interface " + inQuotes(name) +
                     (names.empty() ? " (its file defines none)" : " (it has " + joined(names) + ")"));
}

/// Sensor names head CSV column names, so they must not break the CSV or the "a.b.c" pattern.
bool validSensorName(const std::string& name) {
  return std::none_of(name.begin(), name.end(), [](char c) {
    return c == ',' || c == '"' || c == '.' || c == '[' || c == ']' || static_cast<unsigned char>(c) < 0x20;
  });
}

/// A sensor's `components`: each one a component of one of its vector quantities, no repeats,
/// and every vector quantity left with at least one column.
void checkSensorComponents(const ItemCheck& c, const SensorSpec& s) {
  if (s.components.empty()) return;
  const std::vector<std::string> allowed = choosableComponents(s);
  std::set<std::string> seen;
  bool known = true;
  for (std::size_t i = 0; i < s.components.size(); ++i) {
    const std::string& name = s.components[i];
    const std::string field = "components[" + std::to_string(i) + "]";
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      known = false;
      c.error(field, "no quantity of this sensor has component " + inQuotes(name) +
                         (allowed.empty() ? " (its quantities are scalars: there are no components to choose)"
                                          : " (expected one of " + joined(allowed) + ")"));
    } else if (!seen.insert(name).second) {
      c.error(field, "duplicate component " + inQuotes(name));
    }
  }
  if (!known) return;
  for (const auto& qname : s.quantities) {
    const SensorQuantityInfo* q = findSensorQuantity(s.type, qname);
    if (!q || !hasChoosableComponents(*q)) continue;
    std::vector<std::string> own(q->components.begin(), q->components.end());
    if (std::none_of(own.begin(), own.end(), [&](const std::string& x) { return recordsComponent(s, *q, x); }))
      c.error("components", "leaves quantity " + inQuotes(qname) + " without a column (it has " + joined(own) + ")");
  }
}

}  // namespace

void checkFlexibleBody(ItemCheck& c) {
  const auto& b = c.item<FlexibleBodySpec>();
  const fe::ReducedBody* data = b.data.get();
  if (const std::string why = fileNameProblem(b.file); !why.empty())
    c.error("file", why);
  else if (!data && !b.file.empty())
    c.error("file", "reduced-body file " + inQuotes(b.file) + " is not loaded");
  // the modes in use (-1: unknown, so no check depends on it)
  const int available = data ? static_cast<int>(data->modes.cols()) : -1;
  int used = available;
  if (b.mode_count < 0) {
    used = -1;  // reported by the field's limit
  } else if (data && b.mode_count > available) {
    c.error("modes", "the file has only " + std::to_string(available) + (available == 1 ? " mode" : " modes"));
    used = -1;
  } else if (b.mode_count > 0) {
    used = b.mode_count;
  }
  const std::size_t coordinates = b.modal_coordinates.size();
  if (used >= 0 && coordinates > 0 && coordinates != static_cast<std::size_t>(used))
    c.error("modal_coordinates",
            "expected " + std::to_string(used) + " values (one per mode used), got " + std::to_string(coordinates));
  if (!data) return;  // what depends on the file's contents is not known
  if (used >= 0) {
    const auto& kinds = data->kinds;
    const auto elastic = static_cast<std::size_t>(std::count(kinds.begin(), kinds.begin() + used, fe::ModeKind::Elastic));
    const std::size_t ratios = b.damping.ratio.size();
    if (ratios > 1 && ratios != elastic)
      c.error("damping.ratio", "expected one value for all elastic modes or " + std::to_string(elastic) +
                                   " (one per elastic mode used), got " + std::to_string(ratios));
  }
  if (b.reference == ReferenceFrame::Interface && !b.reference_interface.empty())
    checkInterface(c, "reference_interface", b.reference_interface, b.name, data);
  if (b.geometric_stiffening && data->geometric_stiffness.empty())
    c.warning("geometric_stiffening", "the file " + inQuotes(b.file) +
                                          " has no stiffening load cases (reduced before format version 2, or "
                                          "without them): the body runs without geometric stiffening; reduce the "
                                          "mesh again with this Flexim to have it, or set it false");
}

void checkVirtualBody(ItemCheck& c) {
  const auto& v = c.item<VirtualBodySpec>();
  const fe::ReducedBody* data = dataOf(c.flexibleBody(v.flexible_body));
  if (!v.nodes.empty()) {
    const auto& n = v.nodes;
    if (!v.interface.empty())
      c.error("nodes", "only with point (an interface brings its own nodes)");
    else if (n.size() != 3)
      c.error("nodes", "expected 3 node ids [k, m, n]");
    else if (n[0] == n[1] || n[0] == n[2] || n[1] == n[2])
      c.error("nodes", "expected 3 different nodes");
    else
      for (std::size_t i = 0; i < 3; ++i) checkNode(c, "nodes[" + std::to_string(i) + "]", n[i], v.flexible_body, data);
  }
  if (!v.interface.empty()) checkInterface(c, "interface", v.interface, v.flexible_body, data);
}

void checkJoint(ItemCheck& c) {
  const auto& j = c.item<JointSpec>();
  if (!j.body1.empty() && j.body1 == j.body2)
    c.error("body2", "a joint cannot connect body " + inQuotes(j.body1) + " to itself");
  // a body whose axes do not turn has no rotation for a joint to hold
  if (j.type == JointType::Spherical) return;
  for (const auto& [field, body] : {std::pair{"body1", &j.body1}, std::pair{"body2", &j.body2}})
    if (c.index().fixedAxes.count(*body))
      c.error(field, inQuotes(*body) + " is a point mass: it does not turn, so only a spherical joint can hold it (a " +
                         j.type.key() + " joint also holds rotations)");
}

void checkTimeFunction(ItemCheck& c) {
  if (const std::string why = TimeFunction::check(c.item<TimeFunctionSpec>()); !why.empty()) c.error("", why);
}

/// "a, b or c"
std::string alternatives(const std::vector<std::string>& items) {
  std::string list;
  for (std::size_t i = 0; i < items.size(); ++i) list += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i];
  return list;
}

void checkDriver(ItemCheck& c) {
  const auto& d = c.item<DriverSpec>();
  const auto it = c.index().joints.find(d.joint);
  if (it == c.index().joints.end()) return;  // reported by the reference
  const JointKindDescription* kind = findJointKind(it->second->type.key());
  if (!kind) return;  // reported by the joint
  const bool rotation = d.coordinate == DriverSpec::Coordinate::Rotation;
  if (rotation ? kind->rotation : kind->translation) return;
  std::vector<std::string> drivable;
  for (const auto& k : jointKinds())
    if (k.rotation || k.translation) drivable.push_back(k.key);
  c.error("coordinate", "a " + kind->key + " joint cannot be driven in " + toString(d.coordinate) + " (drivers need a " +
                            alternatives(drivable) + " joint)");
}

void checkCoupling(ItemCheck& c) {
  const auto& k = c.item<CouplingSpec>();
  // a coupling needs a joint with a single coordinate
  std::vector<std::string> single;
  for (const auto& kind : jointKinds())
    if (!kind.coupled.empty()) single.push_back(kind.key);
  const std::string* names[2] = {&k.joint1, &k.joint2};
  for (int side = 0; side < 2; ++side) {
    const auto it = c.index().joints.find(*names[side]);
    if (it == c.index().joints.end()) continue;  // reported by the reference
    const JointKindDescription* kind = findJointKind(it->second->type.key());
    if (kind && kind->coupled.empty())
      c.error(side ? "joint2" : "joint1", "a " + kind->key + " joint has no single coordinate to couple (couple a " +
                                              alternatives(single) + " joint)");
  }
  if (!k.joint1.empty() && k.joint1 == k.joint2) c.error("joint2", "couples joint " + inQuotes(k.joint1) + " to itself");
  if (!std::isfinite(k.ratio) || k.ratio == 0) c.error("ratio", "must be finite and non-zero");
}

void checkJointLimit(ItemCheck& c) {
  const auto& l = c.item<JointLimitSpec>();
  const auto it = c.index().joints.find(l.joint);
  if (it != c.index().joints.end()) {
    const JointKindDescription* kind = findJointKind(it->second->type.key());
    if (kind && kind->coupled.empty()) {
      std::vector<std::string> single;
      for (const auto& k : jointKinds())
        if (!k.coupled.empty()) single.push_back(k.key);
      c.error("joint", "a " + kind->key + " joint has no single coordinate to limit (limit a " + alternatives(single) +
                           " joint)");
    }
  }
  if (std::isfinite(l.lower) && std::isfinite(l.upper) && !(l.lower < l.upper))
    c.error("upper", "must be greater than lower");
}

void defaultDriverCoordinate(const ModelSpec& m, void* driver) {
  auto& d = *static_cast<DriverSpec*>(driver);
  for (const auto& j : m.joints)
    if (j.name == d.joint) {
      const JointKindDescription* kind = findJointKind(j.type.key());
      if (kind && !kind->rotation && kind->translation) d.coordinate = DriverSpec::Coordinate::Translation;
      return;
    }
}

void checkForce(ItemCheck& c) {
  const auto& f = c.item<ForceSpec>();
  // a point mass takes no torque: a point torque or a bushing's rotational terms have nothing to act on
  const auto& fixedAxes = c.index().fixedAxes;
  if (f.type == ForceSpec::Type::PointTorque && fixedAxes.count(f.body1))
    c.error("body", inQuotes(f.body1) + " is a point mass: it takes no torque");
  const bool rotational = f.bushing_stiffness.tail<3>().any() || f.bushing_damping.tail<3>().any() ||
                          f.bushing_preload.tail<3>().any();
  if (f.type == ForceSpec::Type::Bushing && rotational)
    for (const auto& [field, body] : {std::pair{"body1", &f.body1}, std::pair{"body2", &f.body2}})
      if (fixedAxes.count(*body))
        c.error(field, inQuotes(*body) + " is a point mass: it takes no torque, so the bushing's rotational stiffness, "
                       "damping and preload torque must be 0");
  // body1's axes measure the deflection and take the reaction's moment (p2 - p1) x F
  if (f.type == ForceSpec::Type::Bushing && fixedAxes.count(f.body1))
    c.error("body1", inQuotes(f.body1) + " is a point mass: it cannot take the reaction torque of a bushing's first "
                     "end; make it body2");
  if (f.type != ForceSpec::Type::PointForce || !f.marker1.empty()) return;
  // a force on an FE node of a flexible body (no marker there)
  const FlexibleBodySpec* body = c.flexibleBody(f.body1);
  if (!body)
    c.error("body", inQuotes(f.body1) + " is not a flexible body (\"node\" loads need one)");
  else
    checkNode(c, "node", f.node, f.body1, body->data.get());
}

void checkContact(ItemCheck& c) {
  const auto& k = c.item<ContactSpec>();
  if (!validSensorName(k.name))
    c.error("name", "must not contain , \" . [ ] or control characters (it starts CSV column names)");
  if (!k.body1.empty() && k.body1 == k.body2)
    c.error("body2", "is the same body as body1: a body cannot touch itself");
  else if (k.body1 == kGroundName && k.body2 == kGroundName)
    c.error("body2", "both ends are the ground: nothing can move");
  if (const ContactKindDescription* kind = findContactKind(k.type.key()); kind && kind->nodes) {
    const FlexibleBodySpec* body = c.flexibleBody(k.body1);
    if (!body) c.error("body1", inQuotes(k.body1) + " is not a flexible body (\"nodes\" are its FE nodes)");
    if (k.nodes.empty()) c.error("nodes", "expected at least one FE node id");
    std::set<int> seen;
    for (std::size_t i = 0; i < k.nodes.size(); ++i) {
      const std::string field = "nodes[" + std::to_string(i) + "]";
      if (!seen.insert(k.nodes[i]).second) c.error(field, "duplicate node " + std::to_string(k.nodes[i]));
      else if (body) checkNode(c, field, k.nodes[i], k.body1, body->data.get());
    }
  }
  const bool sliderTurns = k.type == ContactSpec::Type::TranslationalClearance;
  if (sliderTurns && c.index().fixedAxes.count(k.body1))
    c.error("body1", inQuotes(k.body1) + " is a point mass: a slider's corners need a body that turns");
}

void checkSensor(ItemCheck& c) {
  const auto& s = c.item<SensorSpec>();
  using T = SensorSpec::Type;
  if (!validSensorName(s.name))
    c.error("name", "must not contain , \" . [ ] or control characters (it starts CSV column names)");
  if (s.quantities.empty()) c.error("quantities", "expected at least one quantity");
  const std::vector<std::string> known = sensorQuantities(s.type);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < s.quantities.size(); ++i) {
    const std::string& q = s.quantities[i];
    const std::string field = "quantities[" + std::to_string(i) + "]";
    if (std::find(known.begin(), known.end(), q) == known.end()) {
      const std::string type = toString(s.type);
      const std::string article = std::string("aeiou").find(type.front()) != std::string::npos ? "an " : "a ";
      c.error(field, "unknown quantity " + inQuotes(q) + " for " + article + type + " sensor (expected one of " +
                         joined(known) + ")");
    } else if (!seen.insert(q).second)
      c.error(field, "duplicate quantity " + inQuotes(q));
  }
  if (const SensorKindDescription* kind = findSensorKind(s.type.key()); kind && kind->components)
    checkSensorComponents(c, s);
  if (s.type != T::Node && s.type != T::Deflection && s.type != T::Stress) return;
  const fe::ReducedBody* data = dataOf(c.flexibleBody(s.body));
  checkNode(c, "node", s.node, s.body, data);
  if (s.type == T::Stress && data && data->stress_modes.size() == 0)
    c.error("type", "the file of flexible body " + inQuotes(s.body) +
                        " has no stress modes: reduce the mesh again with this Flexim (flexim-cli reduce, or File > "
                        "Import FE mesh) to record stresses");
  if (s.type != T::Deflection) return;
  if (s.chord.size() != 2)
    c.error("chord", "expected 2 node ids [a, b]");
  else if (s.chord[0] == s.chord[1])
    c.error("chord", "expected 2 different nodes");
  else
    for (std::size_t i = 0; i < 2; ++i) checkNode(c, "chord[" + std::to_string(i) + "]", s.chord[i], s.body, data);
}

namespace {

std::string seconds(double v) {
  std::ostringstream s;
  s << v << " s";
  return s.str();
}

std::string count(double v) {
  std::ostringstream s;
  s << std::setprecision(3) << v;
  return s.str();
}

}  // namespace

void checkSimulation(ItemCheck& c) {
  const auto& s = c.item<SolverSpec>();
  const bool fixedStep = s.integrator != IntegratorType::Ida && s.step_control == StepControl::Fixed;
  if (s.step == 0 && fixedStep)
    c.error("step", std::string("must be positive for ") + toString(s.integrator) +
                        " with a fixed step (0 means no limit only for ida or an adaptive step)");
  // the times together (each one's own limits are checked by its field; NaN compares false)
  if (s.t_end > 0 && s.output_interval > 0) {
    if (s.t_end < s.output_interval)
      c.error("t_end", "must be at least output_interval (" + seconds(s.output_interval) + ")");
    else if (s.t_end / s.output_interval > kMaxOutputSamples)
      c.error("output_interval", seconds(s.output_interval) + " up to t_end = " + seconds(s.t_end) + " gives " +
                                     count(s.t_end / s.output_interval) + " output samples (at most " +
                                     count(kMaxOutputSamples) + ")");
  }
  if (s.t_end > 0 && s.step > 0) {
    if (fixedStep && s.step > s.t_end)
      c.error("step", "must not exceed t_end (" + seconds(s.t_end) + "): " + toString(s.integrator) +
                          " takes steps of exactly this size");
    else if (s.t_end / s.step > kMaxSteps)
      c.error("step", seconds(s.step) + " up to t_end = " + seconds(s.t_end) + " means " + count(s.t_end / s.step) +
                          (fixedStep ? " steps" : " steps at the largest step allowed") + " (at most " +
                          count(kMaxSteps) + ")");
  }
  if (!c.model().limits.empty() && s.integrator == IntegratorType::Ida)
    c.error("integrator", "joint limits (unilateral stops) need \"gen-alpha\" or a mixed timestepping scheme; ida "
                          "cannot switch contacts");
  for (const JointLimitSpec& l : c.model().limits)
    if (l.restitution > 0 && s.integrator == IntegratorType::GeneralizedAlpha) {
      c.error("integrator", "limit " + inQuotes(l.name) + " has a restitution of " + std::to_string(l.restitution).substr(0, 4) +
                                ": its stops' impacts need a mixed timestepping scheme (gen-alpha's are plastic)");
      break;
    }
  if (!c.model().contacts.empty() && !isMixedTimestepping(s.integrator))
    c.error("integrator", "contact " + inQuotes(c.model().contacts.front().name) + " needs a mixed timestepping "
                          "scheme (" + integratorNames(true) + "): " + toString(s.integrator) +
                          " cannot integrate impacts and friction");
  if (isMixedTimestepping(s.integrator) && s.step_control == StepControl::Adaptive)
    c.error("step_control", std::string(toString(s.integrator)) + " takes fixed steps: use \"fixed\"");
}

}  // namespace flexim
