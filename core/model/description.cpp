#include "core/model/description.h"

#include "core/fe/reduced_body.h"
#include "core/model/item_checks.h"
#include "core/model/sensor_quantities.h"
#include "core/model/validate.h"

#include <cmath>
#include <sstream>

namespace flexim {

// ---- FieldDescription -------------------------------------------------------------------

FieldDescription& FieldDescription::require(std::string why) {
  required = true;
  whyRequired = std::move(why);
  return *this;
}
FieldDescription& FieldDescription::notEmpty() {
  nonEmpty = true;
  return *this;
}
FieldDescription& FieldDescription::file(std::vector<std::string> patterns) {
  fileTypes = std::move(patterns);
  return *this;
}
FieldDescription& FieldDescription::byDefault(std::string jsonText) {
  defaultText = std::move(jsonText);
  return *this;
}
FieldDescription& FieldDescription::atLeast(double v) {
  minimum = {true, v, false};
  return *this;
}
FieldDescription& FieldDescription::above(double v) {
  minimum = {true, v, true};
  return *this;
}
FieldDescription& FieldDescription::atMost(double v) {
  maximum = {true, v, false};
  return *this;
}
FieldDescription& FieldDescription::when(std::string k, std::vector<std::string> values, bool misplacedIsError) {
  condition = Condition{std::move(k), std::move(values), misplacedIsError};
  return *this;
}
FieldDescription& FieldDescription::instead(std::string alternativeKey) {
  alternative = std::move(alternativeKey);
  return *this;
}
FieldDescription& FieldDescription::refers(std::string kind, std::string note) {
  refersTo = std::move(kind);
  referenceNote = std::move(note);
  return *this;
}
FieldDescription& FieldDescription::markerOf(std::string bodyField) {
  refersTo = "marker";
  bodyKey = std::move(bodyField);
  return *this;
}

namespace {
std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}
}  // namespace

std::string unitIn(const std::string& unit, const std::string& valueUnit) {
  const std::size_t at = unit.find("{value}");
  if (at == std::string::npos) return unit;
  std::string shown = valueUnit;
  if (shown.empty() && unit.size() > 7) shown = "1";  // "{value}/s" of a plain factor: 1/s
  return unit.substr(0, at) + shown + unit.substr(at + 7);
}

std::string FieldDescription::limitProblem(double v) const {
  const bool low = minimum.set && (minimum.exclusive ? !(v > minimum.value) : !(v >= minimum.value));
  const bool high = maximum.set && (maximum.exclusive ? !(v < maximum.value) : !(v <= maximum.value));
  if (!low && !high) return {};
  if (minimum.set && maximum.set)
    return "must be in " + std::string(minimum.exclusive ? "(" : "[") + number(minimum.value) + ", " +
           number(maximum.value) + (maximum.exclusive ? ")" : "]");
  if (high) return std::string(maximum.exclusive ? "must be less than " : "must be at most ") + number(maximum.value);
  if (minimum.value == 0) return minimum.exclusive ? "must be positive" : "must not be negative";
  return std::string(minimum.exclusive ? "must be greater than " : "must be at least ") + number(minimum.value);
}

std::string FieldDescription::typeName() const {
  switch (type) {
    case FieldType::Number: return "number";
    case FieldType::Integer: return "integer";
    case FieldType::Bool: return "boolean";
    case FieldType::String: return "string";
    case FieldType::Vec3: return "vector";
    case FieldType::Vec6: return "6 numbers";
    case FieldType::Quaternion:
    case FieldType::Orientation: return "quaternion";
    case FieldType::Inertia: return "3×3 or 3 numbers";
    case FieldType::Enum: {
      std::string s;
      for (const auto& c : choices) s += (s.empty() ? "" : " | ") + ("\"" + c + "\"");
      return s;
    }
    case FieldType::Reference: return "name of a " + (refersTo == "flexible_body" ? std::string("flexible body") : refersTo);
    case FieldType::NumberList: return "array of numbers";
    case FieldType::NumberOrList: return "number or array of numbers";
    case FieldType::IntList: return "array of integers";
    case FieldType::StringList: return "array of strings";
    case FieldType::Object: return "object";
    case FieldType::List: return "array";
  }
  return "?";
}

// ---- ItemDescription --------------------------------------------------------------------

const FieldDescription* ItemDescription::field(std::string_view key) const {
  for (const auto& f : fields)
    if (f.key == key) return &f;
  return nullptr;
}

bool ItemDescription::applies(const FieldDescription& f, const void* item) const {
  if (!f.condition) return true;
  const FieldDescription* on = field(f.condition->key);
  if (!on || !on->get) return true;
  const FieldValue v = on->get(item);
  const std::string* s = std::get_if<std::string>(&v);
  if (!s) return true;
  for (const auto& value : f.condition->values)
    if (*s == value) return true;
  return false;
}

bool ItemDescription::written(const FieldDescription& f, const void* item) const {
  return !f.inputOnly && (f.get || f.object || f.count) && applies(f, item) && (!f.inUse || f.inUse(item));
}

bool ItemDescription::isDiscriminator(std::string_view key) const {
  for (const auto& f : fields)
    if (f.condition && f.condition->key == key) return true;
  return false;
}

// ---- building the tables ----------------------------------------------------------------

namespace {

/// Names of a core enum (contiguous from 0; toString answers "?" past the end).
template <class E>
std::vector<std::string> enumNames() {
  std::vector<std::string> names;
  for (int i = 0; i < 64 && std::string(toString(static_cast<E>(i))) != "?"; ++i)
    names.emplace_back(toString(static_cast<E>(i)));
  return names;
}

/// Adds the fields of a description for struct T. Each adder returns the new field for chaining.
template <class T>
class Fields {
 public:
  explicit Fields(ItemDescription& d) : m_d(d) {
    d.type = typeid(T);
    d.reset = [](void* p) { *static_cast<T*>(p) = T{}; };
  }

  /// A member whose C++ type is one of FieldValue's.
  template <class M>
  FieldDescription& value(std::string key, FieldType type, M T::*member, std::string unit, std::string help) {
    FieldDescription& f = add(std::move(key), type, std::move(unit), std::move(help));
    f.get = [member](const void* p) { return FieldValue(static_cast<const T*>(p)->*member); };
    f.set = [member](void* p, const FieldValue& v) {
      if (const M* m = std::get_if<M>(&v)) static_cast<T*>(p)->*member = *m;
    };
    return f;
  }
  FieldDescription& number(std::string key, double T::*m, std::string unit, std::string help) {
    return value(std::move(key), FieldType::Number, m, std::move(unit), std::move(help));
  }
  FieldDescription& integer(std::string key, int T::*m, std::string help) {
    return value(std::move(key), FieldType::Integer, m, "", std::move(help));
  }
  FieldDescription& string(std::string key, std::string T::*m, std::string help) {
    return value(std::move(key), FieldType::String, m, "", std::move(help));
  }
  FieldDescription& name(std::string help) { return string("name", &T::name, std::move(help)).require().notEmpty(); }
  FieldDescription& reference(std::string key, std::string T::*m, std::string kind, std::string help) {
    return value(std::move(key), FieldType::Reference, m, "", std::move(help)).refers(std::move(kind));
  }
  FieldDescription& vec3(std::string key, Vec3 T::*m, std::string unit, std::string help) {
    return value(std::move(key), FieldType::Vec3, m, std::move(unit), std::move(help)).byDefault("[0, 0, 0]");
  }
  /// A quaternion, which may also be given as Cardan angles in degrees (key + kAnglesSuffix).
  void orientation(const std::string& key, Quat T::*m, bool axesForm, std::string help) {
    value(key, axesForm ? FieldType::Orientation : FieldType::Quaternion, m, "", std::move(help)).byDefault("[1, 0, 0, 0]");
    inputForm(key + kAnglesSuffix, FieldType::Vec3, "deg",
              "*instead of* `" + key + "`: Cardan angles, turning about x, then the new y, then the new z");
  }
  /// An orientation that may also be given by its z axis (and a direction for x), in frame.
  void orientationOrAxes(Quat T::*m, std::string help, const std::string& frame) {
    orientation("orientation", m, true, std::move(help));
    inputForm("z_axis", FieldType::Vec3, "", "*instead of* `orientation`: the z axis in " + frame);
    inputForm("x_axis", FieldType::Vec3, "", "with `z_axis`: a direction for the x axis");
  }

  /// A field read only as an input form of another one (z_axis, x_axis of an orientation).
  FieldDescription& inputForm(std::string key, FieldType type, std::string unit, std::string help) {
    FieldDescription& f = custom(std::move(key), type, std::move(unit), std::move(help));
    f.inputOnly = true;
    return f;
  }

  template <class E>
  FieldDescription& choice(std::string key, E T::*member, std::string help) {
    FieldDescription& f = add(std::move(key), FieldType::Enum, "", std::move(help));
    f.choices = enumNames<E>();
    f.get = [member](const void* p) { return FieldValue(std::string(toString(static_cast<const T*>(p)->*member))); };
    f.set = [member](void* p, const FieldValue& v) {
      if (const std::string* s = std::get_if<std::string>(&v)) fromString(*s, static_cast<T*>(p)->*member);
    };
    return f;
  }

  /// The `type` of an item whose kinds are registered (JointType, ForceType, SensorType): one of
  /// the registered kinds' keys.
  template <class K, class Kinds>
  FieldDescription& kind(K T::*member, std::string help, const Kinds& kinds) {
    FieldDescription& f = add("type", FieldType::Enum, "", std::move(help));
    for (const auto& k : kinds) f.choices.push_back(k.key);
    f.get = [member](const void* p) { return FieldValue((static_cast<const T*>(p)->*member).key()); };
    f.set = [member](void* p, const FieldValue& v) {
      if (const std::string* s = std::get_if<std::string>(&v)) static_cast<T*>(p)->*member = K(*s);
    };
    return f;
  }

  template <class S>
  FieldDescription& object(std::string key, S T::*member, const ItemDescription& d, std::string help) {
    FieldDescription& f = add(std::move(key), FieldType::Object, "", std::move(help));
    f.item = &d;
    f.object = [member](void* p) -> void* { return &(static_cast<T*>(p)->*member); };
    return f;
  }

  template <class S>
  FieldDescription& list(std::string key, std::vector<S> T::*member, const ItemDescription& d, std::string help) {
    FieldDescription& f = add(std::move(key), FieldType::List, "", std::move(help));
    f.item = &d;
    f.byDefault("[]");
    f.count = [member](const void* p) { return (static_cast<const T*>(p)->*member).size(); };
    f.resize = [member](void* p, std::size_t n) { (static_cast<T*>(p)->*member).resize(n); };
    f.element = [member](void* p, std::size_t i) -> void* { return &(static_cast<T*>(p)->*member)[i]; };
    f.insert = [member](void* p, std::size_t i, const void* e) {
      auto& list = static_cast<T*>(p)->*member;
      list.insert(list.begin() + std::ptrdiff_t(i), e ? *static_cast<const S*>(e) : S{});
    };
    f.erase = [member](void* p, std::size_t i) {
      auto& list = static_cast<T*>(p)->*member;
      list.erase(list.begin() + std::ptrdiff_t(i));
    };
    return f;
  }

  /// A body and a marker on it, both required (for the given types only, when some are given).
  void bodyAndMarker(std::string bodyKey, std::string T::*body, std::string markerKey, std::string T::*marker,
                     std::string bodyHelp, const std::vector<std::string>& types = {}) {
    FieldDescription& b = reference(bodyKey, body, "body", std::move(bodyHelp)).require();
    if (!types.empty()) b.when("type", types);
    FieldDescription& m = reference(markerKey, marker, "marker", "marker on " + bodyKey).require().markerOf(bodyKey);
    if (!types.empty()) m.when("type", types);
  }

  /// A field whose accessors the caller sets.
  FieldDescription& custom(std::string key, FieldType type, std::string unit, std::string help) {
    return add(std::move(key), type, std::move(unit), std::move(help));
  }

  /// Check beyond the fields' own, on the typed item.
  void check(std::function<void(ItemCheck&)> c) { m_d.check = std::move(c); }

  /// Written only when pred(item) holds.
  static std::function<bool(const void*)> when(std::function<bool(const T&)> pred) {
    return [pred](const void* p) { return pred(*static_cast<const T*>(p)); };
  }

 private:
  FieldDescription& add(std::string key, FieldType type, std::string unit, std::string help) {
    FieldDescription f;
    f.key = std::move(key);
    f.type = type;
    f.unit = std::move(unit);
    f.help = std::move(help);
    m_d.fields.push_back(std::move(f));
    return m_d.fields.back();
  }

  ItemDescription& m_d;
};

void describe(ItemDescription& d, std::string kind, std::string listKey, std::string label, std::string nameScope,
              std::string help) {
  d.kind = std::move(kind);
  d.listKey = std::move(listKey);
  d.label = std::move(label);
  d.nameScope = std::move(nameScope);
  d.help = std::move(help);
}

/// Makes d's items bodies of the kind `kind` (its list key is d's).
void describeBodyKind(ItemDescription& d, BodyKindDescription kind) {
  kind.listKey = d.listKey;
  d.body = std::move(kind);
}

/// Where a virtual body starts: at its interface's reference point, on its first explicit node,
/// or at its point (the solver attaches it to the nearest node triangle, close to it), in its
/// flexible body's FE frame.
BodyPose virtualBodyStart(const ModelSpec& model, const void* item) {
  const auto& body = *static_cast<const VirtualBodySpec*>(item);
  Vec3 origin = body.point;
  BodyPose owner;
  for (const FlexibleBodySpec& f : model.flexible_bodies) {
    if (f.name != body.flexible_body) continue;
    owner = {f.position, f.orientation.normalized()};
    if (!f.data) break;
    if (!body.interface.empty()) {
      for (const fe::Interface& face : f.data->interfaces)
        if (face.name == body.interface) origin = face.reference;
    } else if (!body.nodes.empty()) {
      for (std::size_t n = 0; n < f.data->node_ids.size() && n < f.data->coords.size(); ++n)
        if (f.data->node_ids[n] == body.nodes.front()) origin = f.data->coords[n];
    }
    break;
  }
  return {owner.position + owner.orientation * origin, owner.orientation * body.orientation.normalized()};
}

/// Every description, built once; members so that the pointers between them stay valid.
struct Registry {
  ItemDescription model, ground, marker, visual, body, damping, flexible, virtualBody, pointMass, beamNode, beamElement,
      joint, function, driver, coupling, limit, contact, force, sensor, simulation;
  std::vector<const ItemDescription*> all;

  Registry() {
    describeMarker();
    describeBody();
    describeFlexible();
    describeVirtual();
    describePointMass();
    describeBeam();
    describeJoint();
    describeFunction();
    describeDriver();
    describeCoupling();
    describeLimit();
    describeContact();
    describeForce();
    describeSensor();
    describeSimulation();
    describeModel();
    all = {&model,     &ground,      &marker, &visual, &body,     &flexible, &damping, &virtualBody, &pointMass,
           &beamNode,  &beamElement, &joint,  &driver, &function, &coupling, &limit,   &contact,     &force,
           &sensor,    &simulation};
  }

  void describeMarker() {
    describe(marker, "marker", "markers", "Marker", "marker",
             "A named frame fixed to a body (or to the ground); joints, forces and sensors attach to markers.");
    Fields<MarkerSpec> f(marker);
    f.name("unique within the body");
    f.vec3("position", &MarkerSpec::position, "m", "origin, in body axes (ground: global)");
    f.orientationOrAxes(&MarkerSpec::orientation, "marker axes → body axes", "body axes");
  }

  void describeBody() {
    describe(visual, "visual", "", "Visual", "",
             "What draws the body: a mesh file (STL, OBJ, PLY, glTF and the other formats Assimp reads) or a box, "
             "cylinder or sphere; the body's mass properties stay those given.");
    {
      Fields<VisualSpec> f(visual);
      f.choice("shape", &VisualSpec::shape, "a mesh file or a primitive shape").byDefault("\"mesh\"")
          .inUse = Fields<VisualSpec>::when([](const VisualSpec& v) { return v.shape != VisualSpec::Shape::Mesh; });
      f.string("file", &VisualSpec::file, "mesh file, relative to the model file")
          .when("shape", {"mesh"})
          .require()
          .notEmpty()
          .file({"*.stl", "*.obj", "*.ply", "*.gltf", "*.glb", "*.off", "*.3ds"});
      f.number("scale", &VisualSpec::scale, "", "mesh units → m (0.001 for a mesh in mm)")
          .when("shape", {"mesh"}).above(0).byDefault("1");
      f.vec3("size", &VisualSpec::size, "m", "edge lengths along the shape's x, y, z").when("shape", {"box"}).require();
      f.number("radius", &VisualSpec::radius, "m", "radius").when("shape", {"cylinder", "sphere"}).above(0).require();
      f.number("length", &VisualSpec::length, "m", "length along the shape's z").when("shape", {"cylinder"}).above(0).require();
      f.vec3("position", &VisualSpec::position, "m", "the shape's origin (a primitive's centre) in body axes");
      f.orientation("orientation", &VisualSpec::orientation, false, "shape axes → body axes");
      f.check([](ItemCheck& c) {
        const auto& v = c.item<VisualSpec>();
        if (v.shape == VisualSpec::Shape::Box && !(v.size.minCoeff() > 0)) c.error("size", "edge lengths must be positive");
      });
    }
    describe(body, "body", "bodies", "Rigid body", "body", "A rigid body; its frame is at the centre of mass.");
    describeBodyKind(body, {.key = "rigid", .noun = "body", .drawing = BodyDrawing::Shape});
    Fields<RigidBodySpec> f(body);
    f.name("unique among all bodies; `ground` is reserved");
    f.number("mass", &RigidBodySpec::mass, "kg", "mass").require().above(0);
    f.value("inertia", FieldType::Inertia, &RigidBodySpec::inertia, "kg m^2",
            "about the centre of mass, body axes: the full tensor or its diagonal [Ixx, Iyy, Izz]")
        .require();
    f.vec3("position", &RigidBodySpec::position, "m", "centre of mass at t = 0, global");
    f.orientation("orientation", &RigidBodySpec::orientation, false, "body axes → global axes at t = 0");
    f.vec3("velocity", &RigidBodySpec::velocity, "m/s", "initial centre-of-mass velocity, global");
    f.vec3("angular_velocity", &RigidBodySpec::angular_velocity, "rad/s", "initial angular velocity, global axes");
    f.list("markers", &RigidBodySpec::markers, marker, "the body's markers");
    f.object("visual", &RigidBodySpec::visual, visual, "what draws the body: a mesh or a primitive (default: a box of its inertia)")
        .inUse = Fields<RigidBodySpec>::when(
            [](const RigidBodySpec& b) { return !b.visual.file.empty() || b.visual.shape != VisualSpec::Shape::Mesh; });
  }

  void describeFlexible() {
    describe(damping, "damping", "", "Modal damping", "",
             "Modal damping: D = diag(2 ζⱼ ωⱼ) + α M̄ + β K̄ over the modes used.");
    {
      Fields<DampingSpec> f(damping);
      f.value("ratio", FieldType::NumberOrList, &DampingSpec::ratio, "",
              "ζ: one value for every elastic mode, or one per elastic mode used (in mode order)")
          .atLeast(0)
          .byDefault("[]");
      f.number("alpha", &DampingSpec::alpha, "1/s", "Rayleigh mass-proportional factor").atLeast(0).byDefault("0");
      f.number("beta", &DampingSpec::beta, "s", "Rayleigh stiffness-proportional factor").atLeast(0).byDefault("0");
    }
    describe(flexible, "flexible_body", "flexible_bodies", "Flexible body", "body",
             "A reduced finite-element body in the floating frame of reference; its frame is the FE frame of the "
             "mesh. Markers cannot be placed on it: connect it through virtual bodies.");
    describeBodyKind(flexible, {.key = "flexible",
                                .noun = "flexible body",
                                .carriesMarkers = false,
                                .deformable = true,
                                .drawing = BodyDrawing::Surface});
    Fields<FlexibleBodySpec> f(flexible);
    f.name("unique among all bodies; `ground` is reserved");
    f.string("file", &FlexibleBodySpec::file, "the reduced-body file (`.frb`), relative to the model file's folder")
        .require()
        .notEmpty()
        .file({"*.frb"});
    f.integer("modes", &FlexibleBodySpec::mode_count,
              "use the first N modes of the file; 0 = all of them; at most the number in the file")
        .atLeast(0)
        .byDefault("0");
    f.choice("reference", &FlexibleBodySpec::reference, "how the floating frame is defined").byDefault("\"mean_axis\"");
    f.string("reference_interface", &FlexibleBodySpec::reference_interface,
             "the interface of the file the frame is attached to")
        .when("reference", {"interface"}, true)
        .require()
        .notEmpty();
    f.vec3("position", &FlexibleBodySpec::position, "m", "FE origin at t = 0, global");
    f.orientation("orientation", &FlexibleBodySpec::orientation, false, "FE axes → global axes at t = 0");
    f.vec3("velocity", &FlexibleBodySpec::velocity, "m/s", "initial velocity of the FE origin, global");
    f.vec3("angular_velocity", &FlexibleBodySpec::angular_velocity, "rad/s", "initial angular velocity, global axes");
    f.value("modal_coordinates", FieldType::NumberList, &FlexibleBodySpec::modal_coordinates, "",
            "initial modal coordinates, one per mode used; `[]` = undeformed")
        .byDefault("[]");
    f.object("damping", &FlexibleBodySpec::damping, damping, "modal damping (no damping by default)");
    f.number("stiffness_scale", &FlexibleBodySpec::stiffness_scale, "",
             "multiplies the modal stiffness (large values approach the rigid body)")
        .above(0)
        .byDefault("1");
    f.value("geometric_stiffening", FieldType::Bool, &FlexibleBodySpec::geometric_stiffening, "",
            "geometric (stress) stiffening from the body's inertia loads and gravity, balanced at its frame's "
            "interface (or its one connected interface); needs a file reduced with the load cases")
        .byDefault("true");
    f.check(checkFlexibleBody);
  }

  void describeVirtual() {
    describe(virtualBody, "virtual_body", "virtual_bodies", "Virtual body", "body",
             "A massless rigid body attached to a flexible body by the rigid–flexible joint: its origin follows an "
             "FE node k, its axes the triangle of nodes k, m, n. It carries markers like a rigid body.");
    describeBodyKind(virtualBody, {.key = "virtual",
                                   .noun = "virtual body",
                                   .massless = true,
                                   .drawing = BodyDrawing::Dot,
                                   .startPose = virtualBodyStart});
    Fields<VirtualBodySpec> f(virtualBody);
    f.name("unique among all bodies; `ground` is reserved");
    f.reference("flexible_body", &VirtualBodySpec::flexible_body, "flexible_body", "the flexible body it is attached to")
        .require()
        .referenceNote = "a virtual body is attached to a flexible body";
    f.vec3("point", &VirtualBodySpec::point, "m", "where it sits, in the FE frame; the nodes k, m, n are chosen around it")
        .byDefault("")
        .require("where the virtual body sits on its flexible body")
        .instead("interface")
        .inUse = Fields<VirtualBodySpec>::when([](const VirtualBodySpec& v) { return v.interface.empty(); });
    f.value("nodes", FieldType::IntList, &VirtualBodySpec::nodes, "",
            "with `point`: the FE node ids k, m, n to use instead (three different nodes of the file)")
        .inUse = Fields<VirtualBodySpec>::when([](const VirtualBodySpec& v) { return v.interface.empty() && !v.nodes.empty(); });
    f.string("interface", &VirtualBodySpec::interface,
             "*instead of* `point`: sit at the reference point of this interface of the file")
        .notEmpty()
        .inUse = Fields<VirtualBodySpec>::when([](const VirtualBodySpec& v) { return !v.interface.empty(); });
    f.orientationOrAxes(&VirtualBodySpec::orientation, "virtual-body axes → FE axes", "FE axes");
    f.list("markers", &VirtualBodySpec::markers, marker, "positions in the virtual body's axes, from its origin");
    f.check(checkVirtualBody);
  }

  void describePointMass() {
    describe(pointMass, "point_mass", "point_masses", "Point mass", "body",
             "A mass without rotation (a particle, a lumped mass on a cable): three translational coordinates; its "
             "axes stay the global axes, so it takes no torque and only spherical joints.");
    describeBodyKind(pointMass, {.key = "point_mass", .noun = "point mass", .rotates = false, .drawing = BodyDrawing::Ball});
    Fields<PointMassSpec> f(pointMass);
    f.name("unique among all bodies; `ground` is reserved");
    f.number("mass", &PointMassSpec::mass, "kg", "mass").require().above(0);
    f.vec3("position", &PointMassSpec::position, "m", "position at t = 0, global");
    f.vec3("velocity", &PointMassSpec::velocity, "m/s", "initial velocity, global");
    f.list("markers", &PointMassSpec::markers, marker, "points at fixed offsets from it, in global axes");
  }

  void describeBeam() {
    describe(beamNode, "beam_node", "beam_nodes", "Beam node", "body",
             "A node of beam elements: a position and the axes of the beam's cross-section there (x along the beam, "
             "y and z the section's principal axes). It carries half of the mass of each element joined to it, plus "
             "its own, and markers like a rigid body.");
    describeBodyKind(beamNode, {.key = "beam_node", .noun = "beam node", .drawing = BodyDrawing::Dot});
    {
      Fields<BeamNodeSpec> f(beamNode);
      f.name("unique among all bodies; `ground` is reserved");
      f.vec3("position", &BeamNodeSpec::position, "m", "position at t = 0, global");
      f.orientation("orientation", &BeamNodeSpec::orientation, false,
                    "section axes → global axes at t = 0 (x along the beam)");
      f.vec3("velocity", &BeamNodeSpec::velocity, "m/s", "initial velocity, global");
      f.vec3("angular_velocity", &BeamNodeSpec::angular_velocity, "rad/s", "initial angular velocity, global axes");
      f.number("mass", &BeamNodeSpec::mass, "kg", "a mass of its own at the node, besides its elements'")
          .atLeast(0)
          .byDefault("0");
      f.value("inertia", FieldType::Inertia, &BeamNodeSpec::inertia, "kg m^2",
              "its own moments of inertia, section axes: the full tensor or its diagonal; 0: none")
          .atLeast(0)
          .byDefault("[0, 0, 0]");
      f.list("markers", &BeamNodeSpec::markers, marker, "frames fixed to the section, in its axes");
    }
    describe(beamElement, "beam_element", "beam_elements", "Beam element", "beam_element",
             "A geometrically exact beam between two beam nodes whose strains (axial, torsion, curvatures, shear) are "
             "defined implicitly by integrating the centre line over the element; large rotations, few elements.");
    Fields<BeamElementSpec> f(beamElement);
    f.name("unique among beam elements");
    f.reference("node1", &BeamElementSpec::node1, "beam_node", "the node at its start").require();
    f.reference("node2", &BeamElementSpec::node2, "beam_node", "the node at its end").require();
    f.value("formulation", FieldType::Enum, &BeamElementSpec::formulation, "",
            "spatial (7 strains, linear torsion), spatial_constant_torsion (6) or planar (3 strains, bending in "
            "the plane of node1's x and y axes at t = 0; hold the nodes in that plane with planar joints)")
        .byDefault("\"spatial\"")
        .choices = {"spatial", "spatial_constant_torsion", "planar"};
    f.number("youngs_modulus", &BeamElementSpec::youngs_modulus, "Pa", "Young's modulus E").require().above(0);
    f.number("shear_modulus", &BeamElementSpec::shear_modulus, "Pa", "shear modulus G; 0: E / (2 (1 + ν))")
        .atLeast(0)
        .byDefault("0");
    f.number("poisson_ratio", &BeamElementSpec::poisson_ratio, "", "Poisson's ratio ν (for G when it is 0)")
        .above(-1)
        .atMost(0.5)
        .byDefault("0.3");
    f.number("area", &BeamElementSpec::area, "m^2", "cross-section area A").require().above(0);
    f.number("iy", &BeamElementSpec::iy, "m^4", "second moment of area about the section's y axis").require().above(0);
    f.number("iz", &BeamElementSpec::iz, "m^4", "second moment of area about the section's z axis (the planar bending)")
        .require()
        .above(0);
    f.number("torsion_constant", &BeamElementSpec::torsion_constant, "m^4",
             "Saint-Venant torsion constant J (torsional rigidity G J); 0: iy + iz")
        .atLeast(0)
        .byDefault("0");
    f.number("density", &BeamElementSpec::density, "kg/m^3", "density ρ").above(0).byDefault("7850");
    f.value("shear", FieldType::Bool, &BeamElementSpec::shear, "",
            "Timoshenko shear deformation (off: rigid in shear, Euler–Bernoulli)")
        .byDefault("false");
    f.number("shear_factor", &BeamElementSpec::shear_factor, "", "shear correction factor k (5/6: rectangle)")
        .above(0)
        .byDefault("0.8333333333333334");
    f.number("length", &BeamElementSpec::length, "m",
             "undeformed length along the centre line; 0: the distance between the nodes at t = 0")
        .atLeast(0)
        .byDefault("0");
    f.vec3("curvature", &BeamElementSpec::curvature, "1/m",
           "initial curvature about node1's section x (twist), y and z axes: a curved member is unstressed bent");
    f.number("damping", &BeamElementSpec::damping, "s", "material damping d: stresses d S ε̇ besides S (ε − ε0)")
        .atLeast(0)
        .byDefault("0");
    f.check([](ItemCheck& c) {
      const auto& e = c.item<BeamElementSpec>();
      if (!e.node1.empty() && e.node1 == e.node2) c.error("node2", "an element joins two different nodes");
      if (e.length > 0) return;
      const BeamNodeSpec *a = nullptr, *b = nullptr;
      for (const BeamNodeSpec& n : c.model().beam_nodes) {
        if (n.name == e.node1) a = &n;
        if (n.name == e.node2) b = &n;
      }
      if (a && b && a != b && (a->position - b->position).norm() <= 0)
        c.error("length", "its nodes start at one point: give the element's length");
    });
  }

  void describeJoint() {
    describe(joint, "joint", "joints", "Joint", "joint",
             "Connects marker1 on body1 to marker2 on body2 (either body may be `ground`; a body cannot be joined "
             "to itself). Its behaviour is defined by the two marker frames.");
    Fields<JointSpec> f(joint);
    f.name("unique among joints");
    f.kind(&JointSpec::type, "the joint kind", jointKinds()).require();
    f.bodyAndMarker("body1", &JointSpec::body1, "marker1", &JointSpec::marker1, "first body");
    f.bodyAndMarker("body2", &JointSpec::body2, "marker2", &JointSpec::marker2, "second body");
    for (const auto& kind : jointKinds())
      for (FieldDescription p : kind.parameters) joint.fields.push_back(std::move(p.when("type", {kind.key})));
    f.check(checkJoint);
  }

  void describeFunction() {
    describe(function, "time_function", "", "Time function", "",
             "A scalar function of time with analytic first and second derivatives: `type` and only the "
             "parameters of that type.");
    Fields<TimeFunctionSpec> f(function);
    using TF = TimeFunctionSpec;
    f.choice("type", &TF::type, "the kind of function").require();
    f.number("value", &TF::value, "{value}", "f = value").when("type", {"constant"}).require();
    f.number("initial", &TF::initial, "{value}", "value at t = 0 (ramp: before start)")
        .when("type", {"constant_speed", "ramp"})
        .byDefault("0");
    f.number("speed", &TF::speed, "{value}/s", "f = initial + speed · t").when("type", {"constant_speed"}).require();
    f.number("start", &TF::start, "s", "time the ramp starts").when("type", {"ramp"}).byDefault("0");
    f.number("slope", &TF::slope, "{value}/s", "f = initial + slope · (t − start) after start").when("type", {"ramp"}).require();
    f.number("t0", &TF::t0, "s", "start of the step").when("type", {"smooth_step"}).require();
    f.number("value0", &TF::value0, "{value}", "value up to t0").when("type", {"smooth_step"}).require();
    f.number("t1", &TF::t1, "s", "end of the step (t1 > t0)").when("type", {"smooth_step"}).require();
    f.number("value1", &TF::value1, "{value}", "value from t1").when("type", {"smooth_step"}).require();
    f.number("amplitude", &TF::amplitude, "{value}", "f = offset + amplitude · sin(2π · frequency · t + phase)")
        .when("type", {"harmonic"})
        .require();
    f.number("frequency", &TF::frequency, "Hz", "frequency, ≥ 0").when("type", {"harmonic"}).require();
    f.number("phase", &TF::phase, "rad", "phase").when("type", {"harmonic"}).byDefault("0");
    f.number("offset", &TF::offset, "{value}", "offset").when("type", {"harmonic"}).byDefault("0");
    f.value("times", FieldType::NumberList, &TF::times, "s", "knot times, strictly increasing, ≥ 2 points")
        .when("type", {"table"})
        .require();
    f.value("values", FieldType::NumberList, &TF::values, "{value}", "knot values (same length as times)")
        .when("type", {"table"})
        .require();
    f.check(checkTimeFunction);
  }

  void describeDriver() {
    describe(driver, "driver", "drivers", "Driver", "driver",
             "Prescribes a joint coordinate as a function of time (a rheonomic constraint, 1 row).");
    Fields<DriverSpec> f(driver);
    f.name("unique among drivers");
    f.reference("joint", &DriverSpec::joint, "joint", "the driven joint (a kind with a coordinate to drive)").require();
    f.choice("coordinate", &DriverSpec::coordinate,
             "which coordinate; default: the joint's own (`translation` for prismatic, else `rotation`)")
        .defaultFrom = defaultDriverCoordinate;
    f.object("function", &DriverSpec::function, function, "coordinate value [rad] or [m] over time")
        .require()
        .valueUnit = [](const void* d) {
      return static_cast<const DriverSpec*>(d)->coordinate == DriverSpec::Coordinate::Translation ? "m" : "rad";
    };
    f.check(checkDriver);
  }

  void describeCoupling() {
    describe(coupling, "coupling", "couplings", "Coupling", "coupling",
             "Couples the coordinates of two joints (a gear pair, a rack and pinion): coordinate2 − coordinate2(0) = "
             "ratio · (coordinate1 − coordinate1(0)).");
    Fields<CouplingSpec> f(coupling);
    f.name("unique among couplings");
    f.reference("joint1", &CouplingSpec::joint1, "joint", "the first joint (a kind with a single coordinate)").require();
    f.reference("joint2", &CouplingSpec::joint2, "joint", "the second joint (a kind with a single coordinate)").require();
    f.number("ratio", &CouplingSpec::ratio, "",
             "gear: rad/rad, negative for an external pair; rack and pinion: the pinion radius [m/rad]; not 0")
        .byDefault("1");
    f.check(checkCoupling);
  }

  void describeLimit() {
    describe(limit, "limit", "limits", "Joint limit", "limit",
             "Keeps a joint's coordinate within [lower, upper]: a stop at each end that closes on contact "
             "(an impact: plastic, or with `restitution` in a mixed timestepping scheme) and opens when the joint "
             "pulls away. Needs the generalized-alpha integrator or a mixed timestepping scheme.");
    Fields<JointLimitSpec> f(limit);
    f.name("unique among limits");
    f.reference("joint", &JointLimitSpec::joint, "joint",
                "the limited joint (a kind with a single coordinate: its angle [rad] or translation [m])")
        .require();
    f.number("lower", &JointLimitSpec::lower, "rad or m", "lower end of the coordinate's range").require();
    f.number("upper", &JointLimitSpec::upper, "rad or m", "upper end of the coordinate's range").require();
    f.number("restitution", &JointLimitSpec::restitution, "",
             "Newton's coefficient of the stops' impacts: the coordinate's rate after an impact is minus this times "
             "the one before (a mixed timestepping integrator; gen-alpha's stops are plastic)")
        .atLeast(0)
        .atMost(1)
        .byDefault("0");
    f.check(checkJointLimit);
  }

  void describeContact() {
    describe(contact, "contact", "contacts", "Contact", "contact",
             "A unilateral contact between two bodies (either may be the ground): a gap that closes and opens, "
             "Newton's impact law (restitution) and Coulomb friction. Needs a mixed timestepping integrator "
             "(`mixed-gen-alpha`, `mixed-bathe`, `mixed-ed-alpha`, `moreau` or `hets`).");
    Fields<ContactSpec> f(contact);
    using C = ContactSpec;
    f.name("unique among contacts; no `,` `\"` `.` `[` `]` or control characters (it starts column names)");
    f.kind(&C::type, "the geometry of the contact", contactKinds()).require();
    std::vector<std::string> onMarkers, onNodes;
    for (const auto& kind : contactKinds()) (kind.nodes ? onNodes : onMarkers).push_back(kind.key);
    f.reference("body1", &C::body1, "body", "the body of the point, the first sphere or the slider; the flexible body "
                "of `nodes`")
        .require();
    f.reference("marker1", &C::marker1, "marker", "marker on body1").require().markerOf("body1").when("type", onMarkers);
    f.value("nodes", FieldType::IntList, &C::nodes, "", "FE node ids of the flexible body1 that touch (at least one)")
        .when("type", onNodes)
        .require();
    f.bodyAndMarker("body2", &C::body2, "marker2", &C::marker2,
                    "the body of the plane, the second sphere, the line or the guide");
    f.number("friction", &C::friction, "", "Coulomb's coefficient μ (0: frictionless)").atLeast(0).byDefault("0");
    f.number("restitution", &C::restitution, "",
             "Newton's normal coefficient ε_N: the separating normal velocity after an impact is ε_N times the "
             "approaching one (0: plastic, 1: elastic)")
        .atLeast(0)
        .atMost(1)
        .byDefault("0");
    f.number("tangential_restitution", &C::tangential_restitution, "",
             "Newton's tangential coefficient ε_T of an impact that sticks")
        .atLeast(0)
        .atMost(1)
        .byDefault("0");
    for (const auto& kind : contactKinds())
      for (FieldDescription p : kind.parameters) {
        // a parameter several kinds share (radius) is one field, in use for all of them
        auto same = std::find_if(contact.fields.begin(), contact.fields.end(),
                                 [&](const FieldDescription& x) { return x.key == p.key; });
        if (same != contact.fields.end()) {
          if (same->condition) same->condition->values.push_back(kind.key);
          continue;
        }
        contact.fields.push_back(std::move(p.when("type", {kind.key})));
      }
    f.check(checkContact);
  }

  void describeForce() {
    describe(force, "force", "forces", "Force", "force",
             "A force element; gravity is the model's `gravity`.");
    Fields<ForceSpec> f(force);
    using F = ForceSpec;
    std::vector<std::string> point, twoEnds;
    for (const auto& kind : forceKinds()) (kind.twoEnds ? twoEnds : point).push_back(kind.key);
    f.name("unique among forces");
    f.kind(&F::type, "the kind of force", forceKinds()).require();
    f.reference("body", &F::body1, "body", "the loaded body (a flexible body with `node`)").when("type", point).require();
    f.integer("node", &F::node, "*instead of* `marker`, point forces on a flexible body: the loaded FE node id")
        .when("type", {"point_force"})
        .inUse = Fields<F>::when([](const F& x) { return x.marker1.empty(); });
    f.reference("marker", &F::marker1, "marker", "where it acts")
        .when("type", point)
        .require()
        .markerOf("body")
        .instead("node")
        .inUse = Fields<F>::when([](const F& x) { return !(x.type == F::Type::PointForce && x.marker1.empty()); });
    f.vec3("vector", &F::vector, "N or N m", "force or torque").when("type", {"point_force", "point_torque"}).require().byDefault("");
    f.choice("frame", &F::frame, "axes of `vector`; `marker` turns with the marker (FE axes on a node)")
        .when("type", {"point_force", "point_torque"})
        .byDefault("\"global\"");
    f.object("function", &F::function, function, "scales `vector`: applied load = vector · f(t) (default: constant 1)")
        .when("type", {"point_force", "point_torque"});
    f.bodyAndMarker("body1", &F::body1, "marker1", &F::marker1, "first end", twoEnds);
    f.bodyAndMarker("body2", &F::body2, "marker2", &F::marker2, "second end", twoEnds);
    f.number("stiffness", &F::stiffness, "N/m", "spring stiffness").when("type", {"spring_damper"}).require().atLeast(0);
    f.number("damping", &F::damping, "N s/m", "damping coefficient")
        .when("type", {"spring_damper"})
        .atLeast(0)
        .byDefault("0");
    f.number("free_length", &F::free_length, "m", "unloaded length")
        .when("type", {"spring_damper"})
        .require()
        .atLeast(0);
    f.number("preload", &F::preload, "N", "tension added at every length (tension positive)")
        .when("type", {"spring_damper"})
        .byDefault("0");
    f.value("bushing_stiffness", FieldType::Vec6, &F::bushing_stiffness, "N/m, N m/rad",
            "[kx, ky, kz] then [kθx, kθy, kθz], marker1 axes")
        .when("type", {"bushing"})
        .require()
        .atLeast(0);
    f.value("bushing_damping", FieldType::Vec6, &F::bushing_damping, "N s/m, N m s/rad",
            "[cx, cy, cz] then [cθx, cθy, cθz], marker1 axes")
        .when("type", {"bushing"})
        .atLeast(0)
        .byDefault("[0, 0, 0, 0, 0, 0]");
    f.value("bushing_preload", FieldType::Vec6, &F::bushing_preload, "N, N m",
            "[Fx, Fy, Fz] then [Tx, Ty, Tz]: the force and torque on marker2 at zero deflection, marker1 axes "
            "(the bushing's rest position moves by −F/k)")
        .when("type", {"bushing"})
        .byDefault("[0, 0, 0, 0, 0, 0]");
    for (const auto& kind : forceKinds())
      for (FieldDescription p : kind.parameters) force.fields.push_back(std::move(p.when("type", {kind.key})));
    f.check(checkForce);
  }

  void describeSensor() {
    describe(sensor, "sensor", "sensors", "Sensor", "sensor",
             "Chooses what a run records; each quantity becomes CSV columns `<sensor>.<quantity>.<component> [unit]`.");
    Fields<SensorSpec> f(sensor);
    using S = SensorSpec;
    f.name("unique among sensors; no `,` `\"` `.` `[` `]` or control characters (it starts column names)");
    f.kind(&S::type, "what is observed", sensorKinds()).require();
    using K = SensorKindDescription;
    const std::vector<std::string> markers = sensorKindsWith(&K::marker);
    f.reference("body", &S::body, "body", "the body of the marker observed (of two: the reference marker's)")
        .when("type", markers)
        .require();
    f.reference("body", &S::body, "flexible_body", "the flexible body observed")
        .when("type", {"node", "deflection", "modal", "stress"})
        .require()
        .referenceNote = "node, deflection, modal and stress sensors observe flexible bodies";
    f.reference("marker", &S::marker, "marker", "the marker observed (of two: the reference marker)")
        .when("type", markers)
        .require()
        .markerOf("body");
    f.reference("body2", &S::body2, "body", "the body of the second marker").when("type", sensorKindsWith(&K::secondMarker)).require();
    f.reference("marker2", &S::marker2, "marker", "the second marker, observed relative to the reference marker")
        .when("type", sensorKindsWith(&K::secondMarker))
        .require()
        .markerOf("body2");
    f.reference("joint", &S::joint, "joint", "the joint observed").when("type", {"joint"}).require();
    f.reference("element", &S::element, "beam_element", "the beam element observed")
        .when("type", sensorKindsWith(&K::element))
        .require();
    f.integer("node", &S::node, "FE node id").when("type", {"node", "deflection", "stress"}).require();
    f.value("chord", FieldType::IntList, &S::chord, "", "FE node ids [a, b] of the chord (two different nodes)")
        .when("type", {"deflection"})
        .require();
    f.choice("frame", &S::frame,
             "axes of vector components: global, or the body's (a joint's: its second body's; of two markers: the "
             "reference marker's axes)")
        .when("type", sensorKindsWith(&K::frame))
        .byDefault("\"global\"");
    f.value("quantities", FieldType::StringList, &S::quantities, "", "at least one, no repeats")
        .require()
        .options = [](const void* p) { return sensorQuantities(static_cast<const S*>(p)->type); };
    FieldDescription& components = f.value("components", FieldType::StringList, &S::components, "",
            "the components of vector quantities to record, of `x`, `y`, `z` (and `w` of `orientation`; `xx`, `yy`, "
            "`zz`, `xy`, `yz`, `zx` of `stress`); `[]`: all. Joint coordinates, energies and the scalar stresses "
            "always record theirs")
        .when("type", sensorKindsWith(&K::components))
        .byDefault("[]");
    components.inUse = Fields<S>::when([](const S& x) { return !x.components.empty(); });
    components.options = [](const void* p) { return choosableComponents(*static_cast<const S*>(p)); };
    f.choice("length_unit", &S::length_unit,
             "unit of lengths in the columns: positions, displacements, deflections and joint translations in m or "
             "mm, their velocities in m/s or mm/s, accelerations in m/s^2 or mm/s^2")
        .when("type", sensorKindsWith(&K::lengths))
        .byDefault("\"m\"")
        .inUse = Fields<S>::when([](const S& x) { return x.length_unit != S::LengthUnit::Metre; });
    f.choice("angle_unit", &S::angle_unit,
             "unit of angles in the columns: joint rotations in rad or deg, angular velocities in rad/s or deg/s, "
             "angular accelerations in rad/s^2 or deg/s^2 (quaternions, forces, torques and energies stay as they are)")
        .when("type", sensorKindsWith(&K::angles))
        .byDefault("\"rad\"")
        .inUse = Fields<S>::when([](const S& x) { return x.angle_unit != S::AngleUnit::Radian; });
    f.check(checkSensor);
  }

  void describeSimulation() {
    describe(simulation, "simulation", "", "Simulation", "", "Solver settings; all are kept whichever integrator is chosen.");
    Fields<SolverSpec> f(simulation);
    f.number("t_end", &SolverSpec::t_end, "s", "end time (the run starts at 0)").above(0).byDefault("1");
    f.number("step", &SolverSpec::step, "s",
             "`gen-alpha` with `step_control` `fixed`: the step, > 0; `ida` and `gen-alpha` with `adaptive`: the "
             "largest step allowed (0 = no limit)")
        .atLeast(0)
        .byDefault("0.001");
    f.number("output_interval", &SolverSpec::output_interval, "s", "time between output samples")
        .above(0)
        .byDefault("0.001");
    f.choice("integrator", &SolverSpec::integrator,
             "SUNDIALS IDA (adaptive BDF), generalized-α (Arnold–Brüls, fixed or adaptive step), or a mixed "
             "timestepping scheme for contacts with impacts and friction (fixed step): a smooth base scheme — "
             "generalized-α (`rho_inf`), Bathe's composite scheme or the energy-decaying ED-α (`rho_inf`) — with an "
             "impulsive correction after each step; `moreau`: Moreau's midpoint scheme, `hets`: the half-explicit "
             "timestepping scheme (both first order; `hets` is explicit in the forces)")
        .byDefault("\"ida\"");
    f.choice("step_control", &SolverSpec::step_control,
             "generalized-α: `fixed` step `step`, or `adaptive`: the step follows a local error estimate of "
             "the positions against `rtol`/`atol` (docs/theory/generalized_alpha_step_control.md), at most `step`")
        .byDefault("\"fixed\"");
    f.choice("start", &SolverSpec::start,
             "where the run starts: the model's `initial_conditions` (positions assembled onto the joints, "
             "velocities as given), or its `static_equilibrium` under the loads at t = 0 (at rest; found as "
             "`flexim-cli static` finds it, in 10 load levels)")
        .byDefault("\"initial_conditions\"");
    f.number("rtol", &SolverSpec::rtol, "", "relative tolerance (IDA; generalized-α with `adaptive` step)")
        .above(0)
        .byDefault("1e-6");
    f.number("atol", &SolverSpec::atol, "", "absolute tolerance [m, rad, m/s, rad/s] (IDA; generalized-α with `adaptive` step)")
        .above(0)
        .byDefault("1e-8");
    f.number("rho_inf", &SolverSpec::rho_inf, "", "generalized-α spectral radius at infinity (1: no numerical damping)")
        .atLeast(0)
        .atMost(1)
        .byDefault("0.8");
    f.number("newton_tol", &SolverSpec::newton_tol, "", "generalized-α Newton tolerance on the scaled increment")
        .above(0)
        .byDefault("1e-10");
    f.integer("max_newton", &SolverSpec::max_newton, "generalized-α Newton iterations per step before the step is halved")
        .atLeast(1)
        .byDefault("20");
    f.number("prox_r", &SolverSpec::prox_r, "",
             "contacts: the prox parameter r of the contact equations λ = proj(λ − r ġ): r for the forces within a "
             "step and r · step for the impulses (`constant`), or the share of each contact's own scale "
             "(`per_contact`: r / (κ G_kk)); the solution does not depend on it, the iterations do")
        .above(0)
        .byDefault("0.1");
    f.choice("prox_scaling", &SolverSpec::prox_scaling, "contacts: how r is chosen (see `prox_r`)")
        .byDefault("\"constant\"");
    f.number("contact_tol", &SolverSpec::contact_tol, "",
             "contacts: tolerance on the contact equations' residual, relative to the largest force or impulse")
        .above(0)
        .byDefault("1e-10");
    f.integer("contact_iterations", &SolverSpec::contact_iterations,
              "contacts: Gauss–Newton iterations before the fixed-point fallback")
        .atLeast(1)
        .byDefault("50");
    f.check(checkSimulation);
  }

  void describeModel() {
    describe(ground, "ground", "", "Ground", "", "The fixed ground body; its frame is the global frame.");
    {
      ItemDescription& d = ground;
      d.type = typeid(std::vector<MarkerSpec>);
      d.reset = [](void* p) { static_cast<std::vector<MarkerSpec>*>(p)->clear(); };
      FieldDescription m;
      m.key = "markers";
      m.type = FieldType::List;
      m.help = "markers on the ground, global frame";
      m.item = &marker;
      m.defaultText = "[]";
      m.count = [](const void* p) { return static_cast<const std::vector<MarkerSpec>*>(p)->size(); };
      m.resize = [](void* p, std::size_t n) { static_cast<std::vector<MarkerSpec>*>(p)->resize(n); };
      m.element = [](void* p, std::size_t i) -> void* { return &(*static_cast<std::vector<MarkerSpec>*>(p))[i]; };
      m.insert = [](void* p, std::size_t i, const void* e) {
        auto& list = *static_cast<std::vector<MarkerSpec>*>(p);
        list.insert(list.begin() + std::ptrdiff_t(i), e ? *static_cast<const MarkerSpec*>(e) : MarkerSpec{});
      };
      m.erase = [](void* p, std::size_t i) {
        auto& list = *static_cast<std::vector<MarkerSpec>*>(p);
        list.erase(list.begin() + std::ptrdiff_t(i));
      };
      d.fields.push_back(std::move(m));
    }
    describe(model, "model", "", "Model", "", "A Flexim model: one JSON document.");
    Fields<ModelSpec> f(model);
    f.integer("schema_version", &ModelSpec::schema_version, "format version; this page describes `1`").require();
    f.string("name", &ModelSpec::name, "model name, shown in titles").byDefault("\"\"");
    f.string("description", &ModelSpec::description, "free text").byDefault("\"\"");
    f.vec3("gravity", &ModelSpec::gravity, "m/s^2", "gravitational acceleration, global axes");
    f.object("ground", &ModelSpec::ground_markers, ground, "`{\"markers\": [marker, ...]}`: markers on the ground");
    f.list("bodies", &ModelSpec::bodies, body, "rigid bodies");
    f.list("flexible_bodies", &ModelSpec::flexible_bodies, flexible, "flexible bodies")
        .inUse = Fields<ModelSpec>::when([](const ModelSpec& m) { return !m.flexible_bodies.empty(); });
    f.list("virtual_bodies", &ModelSpec::virtual_bodies, virtualBody, "virtual bodies")
        .inUse = Fields<ModelSpec>::when([](const ModelSpec& m) { return !m.virtual_bodies.empty(); });
    f.list("point_masses", &ModelSpec::point_masses, pointMass, "point masses")
        .inUse = Fields<ModelSpec>::when([](const ModelSpec& m) { return !m.point_masses.empty(); });
    f.list("beam_nodes", &ModelSpec::beam_nodes, beamNode, "nodes of beam elements")
        .inUse = Fields<ModelSpec>::when([](const ModelSpec& m) { return !m.beam_nodes.empty(); });
    f.list("beam_elements", &ModelSpec::beam_elements, beamElement, "beam elements")
        .inUse = Fields<ModelSpec>::when([](const ModelSpec& m) { return !m.beam_elements.empty(); });
    f.list("joints", &ModelSpec::joints, joint, "joints");
    f.list("drivers", &ModelSpec::drivers, driver, "drivers");
    f.list("couplings", &ModelSpec::couplings, coupling, "couplings between joint coordinates")
        .inUse = Fields<ModelSpec>::when([](const ModelSpec& m) { return !m.couplings.empty(); });
    f.list("limits", &ModelSpec::limits, limit, "limits of joint coordinates (stops)")
        .inUse = Fields<ModelSpec>::when([](const ModelSpec& m) { return !m.limits.empty(); });
    f.list("contacts", &ModelSpec::contacts, contact, "unilateral contacts with impacts and friction")
        .inUse = Fields<ModelSpec>::when([](const ModelSpec& m) { return !m.contacts.empty(); });
    f.list("forces", &ModelSpec::forces, force, "forces");
    f.list("sensors", &ModelSpec::sensors, sensor, "sensors");
    f.object("simulation", &ModelSpec::solver, simulation, "solver settings (all defaults when left out)");
  }
};

const Registry& registry() {
  static const Registry r;
  return r;
}

}  // namespace

namespace {
const JointKindDescription* findJointKindIn(const std::vector<JointKindDescription>& kinds, std::string_view key) {
  for (const auto& kind : kinds)
    if (kind.key == key) return &kind;
  return nullptr;
}
}  // namespace

namespace {
/// A number kept in Spec::parameters under key.
template <class Spec>
FieldDescription kindParameter(std::string key, std::string unit, std::string help, double defaultValue) {
  FieldDescription f;
  f.key = key;
  f.type = FieldType::Number;
  f.unit = std::move(unit);
  f.help = std::move(help);
  std::ostringstream text;
  text << defaultValue;
  f.defaultText = text.str();
  f.get = [key, defaultValue](const void* p) {
    const auto& params = static_cast<const Spec*>(p)->parameters;
    const auto it = params.find(key);
    return FieldValue(it == params.end() ? defaultValue : it->second);
  };
  f.set = [key](void* p, const FieldValue& v) {
    if (const double* x = std::get_if<double>(&v)) static_cast<Spec*>(p)->parameters[key] = *x;
  };
  return f;
}
}  // namespace

FieldDescription jointParameter(std::string key, std::string unit, std::string help, double defaultValue) {
  return kindParameter<JointSpec>(std::move(key), std::move(unit), std::move(help), defaultValue);
}

FieldDescription contactParameter(std::string key, std::string unit, std::string help, double defaultValue) {
  return kindParameter<ContactSpec>(std::move(key), std::move(unit), std::move(help), defaultValue);
}

double contactParameterValue(const ContactSpec& contact, const std::string& key) {
  if (const auto it = contact.parameters.find(key); it != contact.parameters.end()) return it->second;
  if (const ContactKindDescription* kind = findContactKind(contact.type.key()))
    for (const FieldDescription& p : kind->parameters)
      if (p.key == key && p.get) return std::get<double>(p.get(&contact));
  return 0.0;
}

std::vector<std::string> contactPointNames(const ContactSpec& contact) {
  const ContactKindDescription* kind = findContactKind(contact.type.key());
  if (kind && kind->nodes) {
    std::vector<std::string> names;
    for (int id : contact.nodes) names.push_back(contact.name + "_" + std::to_string(id));
    return names;
  }
  const int n = kind ? kind->points : 1;
  if (n == 1) return {contact.name};
  std::vector<std::string> names;
  for (int i = 1; i <= n; ++i) names.push_back(contact.name + "_" + std::to_string(i));
  return names;
}

FieldDescription forceParameter(std::string key, std::string unit, std::string help, double defaultValue) {
  return kindParameter<ForceSpec>(std::move(key), std::move(unit), std::move(help), defaultValue);
}

const ItemDescription& modelDescription() { return registry().model; }
const std::vector<const ItemDescription*>& itemDescriptions() { return registry().all; }

const ItemDescription* findItemDescription(std::string_view kind) {
  for (const ItemDescription* d : itemDescriptions())
    if (d->kind == kind) return d;
  return nullptr;
}

namespace {
struct JointKindRegistry {
  std::vector<JointKindDescription> kinds = registeredJointKinds();
  bool used = false;  // after the first use the list no longer changes
};
JointKindRegistry& jointKindRegistry() {
  static JointKindRegistry r;
  return r;
}
}  // namespace

const std::vector<JointKindDescription>& jointKinds() {
  JointKindRegistry& r = jointKindRegistry();
  r.used = true;
  return r.kinds;
}

bool registerJointKind(JointKindDescription kind) {
  JointKindRegistry& r = jointKindRegistry();
  if (r.used || findJointKindIn(r.kinds, kind.key)) return false;
  r.kinds.push_back(std::move(kind));
  return true;
}

const JointKindDescription* findJointKind(std::string_view key) { return findJointKindIn(jointKinds(), key); }

const std::vector<ForceKindDescription>& forceKinds() {
  static const std::vector<ForceKindDescription> kinds = registeredForceKinds();
  return kinds;
}

const std::vector<ContactKindDescription>& contactKinds() {
  static const std::vector<ContactKindDescription> kinds = registeredContactKinds();
  return kinds;
}

const ContactKindDescription* findContactKind(std::string_view key) {
  for (const auto& kind : contactKinds())
    if (kind.key == key) return &kind;
  return nullptr;
}

const ForceKindDescription* findForceKind(std::string_view key) {
  for (const auto& kind : forceKinds())
    if (kind.key == key) return &kind;
  return nullptr;
}

}  // namespace flexim
