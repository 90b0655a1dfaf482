#include "io/model_json.h"

#include "core/run/sensors.h"

#include "core/fe/reduced_body.h"
#include "core/model/time_function.h"
#include "io/fe/reduced_body_file.h"
#include "io/json_reader.h"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

namespace flexim::io {

namespace {

using TF = TimeFunctionSpec::Type;
using Vec6 = Eigen::Matrix<double, 6, 1>;

// Model documents are small (FE data lives in files of its own). These bounds keep hostile
// input from exhausting memory or burying the user in messages.
constexpr std::size_t kMaxModelBytes = 16u << 20;
constexpr std::size_t kMaxListItems = 100000;
constexpr std::size_t kMaxDiagnostics = 200;

// Enums without a toString in core: their file names live here.
const Choices<DriverSpec::Coordinate> kDriverCoordinates{
    {DriverSpec::Coordinate::Rotation, "rotation"}, {DriverSpec::Coordinate::Translation, "translation"}};
const Choices<ForceSpec::Frame> kForceFrames{{ForceSpec::Frame::Global, "global"},
                                             {ForceSpec::Frame::Marker, "marker"}};
const Choices<SensorSpec::Frame> kSensorFrames{{SensorSpec::Frame::Global, "global"},
                                               {SensorSpec::Frame::Body, "body"}};

std::string joined(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& item : items) s += (s.empty() ? "" : ", ") + item;
  return s;
}

std::string inQuotes(const std::string& s) { return "'" + s + "'"; }

// ============================== loading ===================================================

/// A reduced-body file named by the model (flexible_bodies[].file), loaded once per path.
struct BodyFile {
  std::shared_ptr<const fe::ReducedBody> data;  ///< null when it could not be loaded
  std::string error;                            ///< then: why not
  std::vector<int> sortedIds;                   ///< data->node_ids, sorted for lookups

  bool hasNode(int id) const { return std::binary_search(sortedIds.begin(), sortedIds.end(), id); }
};

/// The reduced-body files of one model, resolved against the model file's folder; each distinct
/// path is read once and its data shared by every flexible body naming it.
class BodyFiles {
 public:
  explicit BodyFiles(const std::string& baseDir) : m_base(baseDir) {}

  const BodyFile& load(const std::string& file) {
    const std::string path = (m_base / std::filesystem::path(file)).lexically_normal().string();
    const auto [it, inserted] = m_files.try_emplace(path);
    BodyFile& f = it->second;
    if (!inserted) return f;
    try {
      fe::ReducedBody body;
      std::string error;
      if (loadReducedBody(path, body, &error)) {
        f.sortedIds = body.node_ids;
        std::sort(f.sortedIds.begin(), f.sortedIds.end());
        f.data = std::make_shared<const fe::ReducedBody>(std::move(body));
      } else {
        f.error = error.empty() ? inQuotes(path) + ": cannot be read" : error;
      }
    } catch (const std::exception& e) {
      f.error = inQuotes(path) + ": " + e.what();
    }
    return f;
  }

 private:
  std::filesystem::path m_base;
  std::map<std::string, BodyFile> m_files;
};

/// What has been defined so far, for reference checks (bodies are read before flexible bodies,
/// those before virtual bodies, joints, drivers and sensors, whatever the key order in the file).
struct Scope {
  /// bodies that carry markers (ground, rigid and virtual bodies) -> their markers
  std::map<std::string, std::set<std::string>> markers;
  /// flexible bodies -> their loaded file (null when it is not known: then no data checks)
  std::map<std::string, const BodyFile*> flexible;
  std::map<std::string, JointType> joints;
};

/// Reads the list under node with readItem(elementNode, item) for each element.
template <class T, class F>
std::vector<T> readList(const Node& node, F&& readItem) {
  std::vector<T> items;
  if (!node.present() || !node.expectArray()) return items;
  if (node.size() > kMaxListItems) {
    node.error("more than " + std::to_string(kMaxListItems) + " items");
    return items;
  }
  items.resize(node.size());
  for (std::size_t i = 0; i < items.size(); ++i) readItem(node.element(i), items[i]);
  return items;
}

/// Reads the required, non-empty "name" and checks it is not already in taken.
bool readName(ObjectReader& o, std::set<std::string>& taken, std::string& name) {
  const Node n = o.required("name");
  if (!n.present() || !read(n, name)) return false;
  if (name.empty()) {
    n.error("must not be empty");
    return false;
  }
  if (!taken.insert(name).second) {
    n.error("duplicate name " + inQuotes(name));
    return false;
  }
  return true;
}

/// Unit quaternion [w, x, y, z]. Normalised unless already unit to rounding, so that a saved
/// value reads back bit for bit.
bool readQuaternion(const Node& n, Quat& out) {
  Eigen::Vector4d wxyz;
  const bool numbers = numbersInto(n.json(), wxyz.data(), 4);
  const double norm = numbers ? wxyz.stableNorm() : 0.0;
  if (!(norm > 0) || !std::isfinite(norm)) {
    n.error("expected [w, x, y, z] with a non-zero length");
    return false;
  }
  if (std::abs(norm - 1) > 1e-12) wxyz /= norm;
  out = Quat(wxyz[0], wxyz[1], wxyz[2], wxyz[3]);
  return true;
}

/// Marker axes from z_axis and optional x_axis (the convenience form of an orientation).
/// Without x_axis, x is the body x axis projected onto the plane normal to z (body y when z is
/// close to body x), so the result is predictable.
bool readAxes(ObjectReader& o, Quat& out) {
  Vec3 z, x;
  const bool hasX = o.has("x_axis");
  if (!o.req("z_axis", z) || (hasX && !o.req("x_axis", x))) return false;
  // stableNorm: components near 1e300 must not overflow to a zero-length axis
  const double zLength = z.stableNorm();
  if (!(zLength > 0)) {
    o.error("z_axis", "must not be zero");
    return false;
  }
  z /= zLength;
  if (!hasX) x = std::abs(z.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  if (const double xLength = x.stableNorm(); xLength > 0) x /= xLength;
  x -= x.dot(z) * z;
  if (!(x.norm() > 1e-9)) {
    o.error("x_axis", "must not be zero or parallel to z_axis");
    return false;
  }
  Mat3 axes;
  x.normalize();
  axes << x, z.cross(x), z;
  out = Quat(axes).normalized();
  return true;
}

bool readOrientation(ObjectReader& o, Quat& out, bool allowAxes) {
  const bool hasAxes = allowAxes && (o.has("z_axis") || o.has("x_axis"));
  if (hasAxes && o.has("orientation")) {
    o.error("orientation", "give either orientation or z_axis/x_axis, not both");
    return false;
  }
  if (hasAxes) return readAxes(o, out);
  const Node n = o.get("orientation");
  return !n.present() || readQuaternion(n, out);
}

/// The two accepted inertia shapes: [[Ixx, Ixy, Ixz], [..], [..]] or the diagonal [Ixx, Iyy, Izz].
bool readInertiaShape(const Json& j, Mat3& I) {
  if (Vec3 d; numbersInto(j, d.data(), 3)) {
    I = d.asDiagonal();
    return true;
  }
  if (!j.is_array() || j.size() != 3) return false;
  for (int r = 0; r < 3; ++r) {
    Vec3 row;
    if (!numbersInto(j[static_cast<std::size_t>(r)], row.data(), 3)) return false;
    I.row(r) = row.transpose();
  }
  return true;
}

/// Inertia about the centre of mass: symmetric positive definite (symmetrised exactly on load).
bool readInertia(const Node& n, Mat3& out) {
  Mat3 I;
  if (!readInertiaShape(n.json(), I)) {
    n.error("expected a 3x3 array or a diagonal [Ixx, Iyy, Izz]");
    return false;
  }
  const double scale = I.cwiseAbs().maxCoeff();
  const bool symmetric = (I - I.transpose()).cwiseAbs().maxCoeff() <= 1e-9 * scale;
  if (!symmetric || !(scale > 0) || Eigen::LLT<Mat3>(I).info() != Eigen::Success) {
    n.error("expected 3x3 symmetric positive-definite matrix");
    return false;
  }
  out = 0.5 * (I + I.transpose());
  const Vec3 m = Eigen::SelfAdjointEigenSolver<Mat3>(out, Eigen::EigenvaluesOnly).eigenvalues();  // ascending
  if (m[0] + m[1] < m[2] * (1 - 1e-9))
    n.warning("principal moments violate the triangle inequality (no rigid body has this inertia)");
  return true;
}

void readMarker(const Node& n, MarkerSpec& m, std::set<std::string>& names) {
  ObjectReader o(n);
  readName(o, names, m.name);
  o.opt("position", m.position);
  readOrientation(o, m.orientation, true);
  o.finish();
}

std::vector<MarkerSpec> readMarkers(const Node& n, std::set<std::string>& names) {
  return readList<MarkerSpec>(n, [&](const Node& e, MarkerSpec& m) { readMarker(e, m, names); });
}

/// Reads the name of a body of any kind: rigid, flexible and virtual bodies share one name
/// space, and "ground" is taken.
bool readBodyName(ObjectReader& o, std::set<std::string>& names, std::string& name) {
  if (!readName(o, names, name)) return false;
  if (name != kGroundName) return true;
  o.error("name", inQuotes(name) + " is reserved for the fixed ground body");
  return false;
}

void readBody(const Node& n, RigidBodySpec& b, std::set<std::string>& names, Scope& scope) {
  ObjectReader o(n);
  readBodyName(o, names, b.name);
  if (o.req("mass", b.mass) && !(b.mass > 0)) o.error("mass", "must be positive");
  if (const Node inertia = o.required("inertia"); inertia.present()) readInertia(inertia, b.inertia);
  o.opt("position", b.position);
  readOrientation(o, b.orientation, false);
  o.opt("velocity", b.velocity);
  o.opt("angular_velocity", b.angular_velocity);
  std::set<std::string> markerNames;
  b.markers = readMarkers(o.get("markers"), markerNames);
  if (!b.name.empty() && b.name != kGroundName) scope.markers.emplace(b.name, markerNames);
  o.finish();
}

/// Reads key and checks it is >= 0 (stiffness, damping, lengths).
template <class T>
void readNonNegative(ObjectReader& o, const std::string& key, T& out, bool required) {
  if (!(required ? o.req(key, out) : o.opt(key, out))) return;
  if constexpr (std::is_same_v<T, double>) {
    if (out < 0) o.error(key, "must not be negative");
  } else {
    if ((out.array() < 0).any()) o.error(key, "must not be negative");
  }
}

// ---- flexible and virtual bodies ----

/// Checks an FE node id against the loaded file of a flexible body (no check without one).
void checkNode(const Node& n, int id, const std::string& body, const BodyFile* file) {
  if (file && !file->hasNode(id)) n.error("flexible body " + inQuotes(body) + " has no node " + std::to_string(id));
}

/// Checks an interface name against the loaded file of a flexible body (no check without one).
void checkInterface(const Node& n, const std::string& name, const std::string& body, const BodyFile* file) {
  if (!file) return;
  const auto& interfaces = file->data->interfaces;
  if (std::any_of(interfaces.begin(), interfaces.end(), [&](const fe::Interface& f) { return f.name == name; }))
    return;
  constexpr std::size_t kListed = 10;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < std::min(interfaces.size(), kListed); ++i) names.push_back(inQuotes(interfaces[i].name));
  if (interfaces.size() > kListed) names.push_back("...");
  n.error("flexible body " + inQuotes(body) + " has no interface " + inQuotes(name) +
          (names.empty() ? " (its file defines none)" : " (it has " + joined(names) + ")"));
}

/// Modal damping; elastic is the number of elastic modes in use (-1: unknown, no size check).
void readDamping(const Node& n, DampingSpec& d, int elastic) {
  ObjectReader o(n);
  if (const Node r = o.get("ratio"); r.present()) {
    const bool list = r.json().is_array();
    std::vector<double> ratio(1);
    bool ok = false;
    if (list)
      ok = read(r, ratio);
    else if (r.json().is_number())
      ok = read(r, ratio[0]);
    else
      r.error("expected a number or an array of numbers");
    for (std::size_t i = 0; ok && i < ratio.size(); ++i)
      if (ratio[i] < 0) {
        (list ? r.element(i) : r).error("must not be negative");
        ok = false;
      }
    if (ok && elastic >= 0 && ratio.size() > 1 && ratio.size() != static_cast<std::size_t>(elastic)) {
      r.error("expected one value for all elastic modes or " + std::to_string(elastic) +
              " (one per elastic mode used), got " + std::to_string(ratio.size()));
      ok = false;
    }
    if (ok) d.ratio = std::move(ratio);
  }
  readNonNegative(o, "alpha", d.alpha, false);
  readNonNegative(o, "beta", d.beta, false);
  o.finish();
}

void readFlexibleBody(const Node& n, FlexibleBodySpec& b, std::set<std::string>& names, Scope& scope,
                      BodyFiles& files) {
  ObjectReader o(n);
  const bool named = readBodyName(o, names, b.name);
  const BodyFile* file = nullptr;  // set when the data is loaded
  if (const Node f = o.required("file"); f.present() && read(f, b.file)) {
    if (b.file.empty())
      f.error("must not be empty");
    else if (std::any_of(b.file.begin(), b.file.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; }))
      f.error("must not contain control characters");
    else if (const BodyFile& loaded = files.load(b.file); loaded.data)
      file = &loaded;
    else
      f.error(loaded.error);
  }
  if (file) b.data = file->data;

  // the modes in use (-1: unknown, so no check depends on it)
  const int available = file ? static_cast<int>(file->data->modes.cols()) : -1;
  int used = available;
  if (!o.opt("modes", b.mode_count)) {
    used = -1;
  } else if (b.mode_count < 0) {
    o.error("modes", "must not be negative");
    used = -1;
  } else if (file && b.mode_count > available) {
    o.error("modes", "the file has only " + std::to_string(available) + (available == 1 ? " mode" : " modes"));
    used = -1;
  } else if (b.mode_count > 0) {
    used = b.mode_count;
  }

  const bool referenceOk = o.opt("reference", b.reference, coreChoices<ReferenceFrame>());
  if (const Node ri = o.get("reference_interface"); referenceOk && b.reference == ReferenceFrame::Interface) {
    if (!ri.present())
      o.required("reference_interface");
    else if (read(ri, b.reference_interface) && b.reference_interface.empty())
      ri.error("must not be empty");
    else if (!b.reference_interface.empty())
      checkInterface(ri, b.reference_interface, b.name, file);
  } else if (ri.present() && referenceOk) {
    ri.error("only with \"reference\": \"interface\"");
  }

  o.opt("position", b.position);
  readOrientation(o, b.orientation, false);
  o.opt("velocity", b.velocity);
  o.opt("angular_velocity", b.angular_velocity);
  if (const Node q = o.get("modal_coordinates"); q.present() && read(q, b.modal_coordinates)) {
    const std::size_t size = b.modal_coordinates.size();
    if (used >= 0 && size > 0 && size != static_cast<std::size_t>(used))
      q.error("expected " + std::to_string(used) + " values (one per mode used), got " + std::to_string(size));
  }
  int elastic = -1;
  if (file && used >= 0) {
    const auto& kinds = file->data->kinds;
    elastic = static_cast<int>(std::count(kinds.begin(), kinds.begin() + used, fe::ModeKind::Elastic));
  }
  if (const Node d = o.get("damping"); d.present()) readDamping(d, b.damping, elastic);
  if (o.opt("stiffness_scale", b.stiffness_scale) && !(b.stiffness_scale > 0))
    o.error("stiffness_scale", "must be positive");
  if (named) scope.flexible.emplace(b.name, file);
  o.finish();
}

/// Reads the name of a flexible body under key and checks it is one; file is its loaded data
/// (null when unknown).
void readFlexibleRef(ObjectReader& o, const std::string& key, std::string& name, const Scope& scope,
                     const BodyFile*& file, const std::string& why) {
  file = nullptr;
  if (!o.req(key, name)) return;
  if (const auto it = scope.flexible.find(name); it != scope.flexible.end())
    file = it->second;
  else if (scope.markers.count(name))
    o.error(key, inQuotes(name) + " is not a flexible body (" + why + ")");
  else
    o.error(key, "no flexible body named " + inQuotes(name));
}

void readVirtualBody(const Node& n, VirtualBodySpec& v, std::set<std::string>& names, Scope& scope) {
  ObjectReader o(n);
  const bool named = readBodyName(o, names, v.name);
  const BodyFile* file = nullptr;
  readFlexibleRef(o, "flexible_body", v.flexible_body, scope, file, "a virtual body is attached to a flexible body");
  // where it sits: a point (nodes chosen around it, or given) or an interface's reference point
  const bool hasPoint = o.has("point"), hasInterface = o.has("interface");
  o.opt("point", v.point);
  if (const Node nodes = o.get("nodes"); nodes.present() && read(nodes, v.nodes)) {
    if (v.nodes.size() != 3)
      nodes.error("expected 3 node ids [k, m, n]");
    else if (v.nodes[0] == v.nodes[1] || v.nodes[0] == v.nodes[2] || v.nodes[1] == v.nodes[2])
      nodes.error("expected 3 different nodes");
    else
      for (std::size_t i = 0; i < 3; ++i) checkNode(nodes.element(i), v.nodes[i], v.flexible_body, file);
    if (hasInterface && !hasPoint) nodes.error("only with point (an interface brings its own nodes)");
  }
  if (const Node f = o.get("interface"); f.present() && read(f, v.interface)) {
    if (v.interface.empty())
      f.error("must not be empty");
    else
      checkInterface(f, v.interface, v.flexible_body, file);
  }
  if (hasPoint && hasInterface)
    o.error("interface", "give either point or interface, not both");
  else if (!hasPoint && !hasInterface)
    o.error("point", "required (or interface): where the virtual body sits on its flexible body");
  readOrientation(o, v.orientation, true);
  std::set<std::string> markerNames;
  v.markers = readMarkers(o.get("markers"), markerNames);
  if (named) scope.markers.emplace(v.name, markerNames);
  o.finish();
}

// ---- references ----

/// Reads a (body, marker) reference pair and checks both exist.
void readMarkerRef(ObjectReader& o, const std::string& bodyKey, const std::string& markerKey, std::string& body,
                   std::string& marker, const Scope& scope) {
  const bool hasBody = o.req(bodyKey, body);
  const bool hasMarker = o.req(markerKey, marker);
  if (!hasBody) return;
  const auto it = scope.markers.find(body);
  if (it == scope.markers.end() && scope.flexible.count(body))
    o.error(bodyKey, inQuotes(body) + " is a flexible body; connect it through a virtual body");
  else if (it == scope.markers.end())
    o.error(bodyKey, "no body named " + inQuotes(body));
  else if (hasMarker && !it->second.count(marker))
    o.error(markerKey, "body " + inQuotes(body) + " has no marker " + inQuotes(marker));
}

void readJoint(const Node& n, JointSpec& j, std::set<std::string>& names, Scope& scope) {
  ObjectReader o(n);
  const bool named = readName(o, names, j.name);
  const bool typed = o.req("type", j.type, coreChoices<JointType>());
  readMarkerRef(o, "body1", "marker1", j.body1, j.marker1, scope);
  readMarkerRef(o, "body2", "marker2", j.body2, j.marker2, scope);
  if (!j.body1.empty() && j.body1 == j.body2) o.error("body2", "a joint cannot connect body " + inQuotes(j.body1) + " to itself");
  if (named && typed) scope.joints.emplace(j.name, j.type);
  o.finish();
}

/// Time function: only the keys of its type are read (others are reported as unknown).
bool readFunction(const Node& n, TimeFunctionSpec& f) {
  ObjectReader o(n);
  if (!o.valid()) return false;
  TimeFunctionSpec g;  // start from defaults so stale parameters of another type never leak in
  if (!o.req("type", g.type, coreChoices<TF>())) return false;
  // read every key of the type (no short-circuit) so that all problems are reported
  bool ok = true;
  const auto need = [&](const char* key, auto& v) { ok = o.req(key, v) && ok; };
  const auto maybe = [&](const char* key, auto& v) { ok = o.opt(key, v) && ok; };
  switch (g.type) {
    case TF::Constant: need("value", g.value); break;
    case TF::ConstantSpeed:
      maybe("initial", g.initial);
      need("speed", g.speed);
      break;
    case TF::Ramp:
      maybe("initial", g.initial);
      maybe("start", g.start);
      need("slope", g.slope);
      break;
    case TF::SmoothStep:
      need("t0", g.t0);
      need("value0", g.value0);
      need("t1", g.t1);
      need("value1", g.value1);
      break;
    case TF::Harmonic:
      need("amplitude", g.amplitude);
      need("frequency", g.frequency);
      maybe("phase", g.phase);
      maybe("offset", g.offset);
      break;
    case TF::Table:
      need("times", g.times);
      need("values", g.values);
      break;
  }
  if (ok) {
    const std::string why = TimeFunction::check(g);
    if (!why.empty()) n.error(why);
    ok = why.empty();
  }
  o.finish();
  if (ok) f = std::move(g);
  return ok;
}

/// Which coordinates a joint type can be driven in.
bool drivable(JointType t, DriverSpec::Coordinate c) {
  using C = DriverSpec::Coordinate;
  switch (t) {
    case JointType::Revolute: return c == C::Rotation;
    case JointType::Prismatic: return c == C::Translation;
    case JointType::Cylindrical: return true;
    default: return false;
  }
}

void readDriver(const Node& n, DriverSpec& d, std::set<std::string>& names, const Scope& scope) {
  ObjectReader o(n);
  readName(o, names, d.name);
  const JointType* jointType = nullptr;
  if (o.req("joint", d.joint)) {
    if (const auto it = scope.joints.find(d.joint); it != scope.joints.end())
      jointType = &it->second;
    else
      o.error("joint", "no joint named " + inQuotes(d.joint));
  }
  // the natural coordinate of the joint is the default
  if (jointType && *jointType == JointType::Prismatic) d.coordinate = DriverSpec::Coordinate::Translation;
  const bool coordinateOk = o.opt("coordinate", d.coordinate, kDriverCoordinates);
  if (jointType && coordinateOk && !drivable(*jointType, d.coordinate))
    o.error("coordinate", std::string("a ") + toString(*jointType) + " joint cannot be driven in " +
                              nameOf(d.coordinate, kDriverCoordinates) +
                              " (drivers need a revolute, prismatic or cylindrical joint)");
  if (const Node f = o.required("function"); f.present()) readFunction(f, d.function);
  o.finish();
}

void readForce(const Node& n, ForceSpec& f, std::set<std::string>& names, const Scope& scope) {
  ObjectReader o(n);
  readName(o, names, f.name);
  if (o.req("type", f.type, coreChoices<ForceSpec::Type>())) {
    switch (f.type) {
      case ForceSpec::Type::PointForce:
      case ForceSpec::Type::PointTorque:
        if (f.type == ForceSpec::Type::PointForce && o.get("node").present()) {
          // a force on an FE node of a flexible body (no marker there)
          if (o.req("body", f.body1)) {
            const auto it = scope.flexible.find(f.body1);
            if (it == scope.flexible.end())
              o.error("body", inQuotes(f.body1) + " is not a flexible body (\"node\" loads need one)");
            else if (o.req("node", f.node) && it->second && !it->second->hasNode(f.node))
              o.error("node", "flexible body " + inQuotes(f.body1) + " has no node " + std::to_string(f.node));
          }
        } else {
          readMarkerRef(o, "body", "marker", f.body1, f.marker1, scope);
        }
        o.req("vector", f.vector);
        o.opt("frame", f.frame, kForceFrames);
        if (const Node fn = o.get("function"); fn.present()) readFunction(fn, f.function);
        break;
      case ForceSpec::Type::SpringDamper:
        readMarkerRef(o, "body1", "marker1", f.body1, f.marker1, scope);
        readMarkerRef(o, "body2", "marker2", f.body2, f.marker2, scope);
        readNonNegative(o, "stiffness", f.stiffness, true);
        readNonNegative(o, "damping", f.damping, false);
        readNonNegative(o, "free_length", f.free_length, true);
        o.opt("preload", f.preload);
        break;
      case ForceSpec::Type::Bushing:
        readMarkerRef(o, "body1", "marker1", f.body1, f.marker1, scope);
        readMarkerRef(o, "body2", "marker2", f.body2, f.marker2, scope);
        readNonNegative(o, "bushing_stiffness", f.bushing_stiffness, true);
        readNonNegative(o, "bushing_damping", f.bushing_damping, false);
        break;
    }
  }
  o.finish();
}

/// Sensor names head CSV column names, so they must not break the CSV or the "a.b.c" pattern.
bool validSensorName(const std::string& name) {
  return std::none_of(name.begin(), name.end(), [](char c) {
    return c == ',' || c == '"' || c == '.' || c == '[' || c == ']' || static_cast<unsigned char>(c) < 0x20;
  });
}

void readQuantities(const Node& n, SensorSpec& s) {
  if (!read(n, s.quantities)) return;
  if (s.quantities.empty()) n.error("expected at least one quantity");
  const std::vector<std::string> known = sensorQuantities(s.type);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < s.quantities.size(); ++i) {
    const std::string& q = s.quantities[i];
    if (std::find(known.begin(), known.end(), q) == known.end())
      n.element(i).error("unknown quantity " + inQuotes(q) + " for a " + toString(s.type) +
                         " sensor (expected one of " + joined(known) + ")");
    else if (!seen.insert(q).second)
      n.element(i).error("duplicate quantity " + inQuotes(q));
  }
}

void readSensor(const Node& n, SensorSpec& s, std::set<std::string>& names, const Scope& scope) {
  ObjectReader o(n);
  if (readName(o, names, s.name) && !validSensorName(s.name))
    o.error("name", "must not contain , \" . [ ] or control characters (it starts CSV column names)");
  if (o.req("type", s.type, coreChoices<SensorSpec::Type>())) {
    switch (s.type) {
      case SensorSpec::Type::Marker:
        readMarkerRef(o, "body", "marker", s.body, s.marker, scope);
        o.opt("frame", s.frame, kSensorFrames);
        break;
      case SensorSpec::Type::Joint:
        if (o.req("joint", s.joint) && !scope.joints.count(s.joint)) o.error("joint", "no joint named " + inQuotes(s.joint));
        o.opt("frame", s.frame, kSensorFrames);
        break;
      case SensorSpec::Type::Energy: break;
      case SensorSpec::Type::Node:
      case SensorSpec::Type::Deflection:
      case SensorSpec::Type::Modal: {
        const BodyFile* file = nullptr;
        readFlexibleRef(o, "body", s.body, scope, file, "node, deflection and modal sensors observe flexible bodies");
        if (s.type != SensorSpec::Type::Modal)
          if (const Node id = o.required("node"); id.present() && read(id, s.node)) checkNode(id, s.node, s.body, file);
        if (s.type == SensorSpec::Type::Node) o.opt("frame", s.frame, kSensorFrames);
        if (s.type == SensorSpec::Type::Deflection)
          if (const Node c = o.required("chord"); c.present() && read(c, s.chord)) {
            if (s.chord.size() != 2)
              c.error("expected 2 node ids [a, b]");
            else if (s.chord[0] == s.chord[1])
              c.error("expected 2 different nodes");
            else
              for (std::size_t i = 0; i < 2; ++i) checkNode(c.element(i), s.chord[i], s.body, file);
          }
        break;
      }
    }
    if (const Node q = o.required("quantities"); q.present()) readQuantities(q, s);
  }
  o.finish();
}

void readSolver(const Node& n, SolverSpec& s) {
  ObjectReader o(n);
  const auto positive = [&](const char* key, double& v) {
    if (o.opt(key, v) && !(v > 0)) o.error(key, "must be positive");
  };
  positive("t_end", s.t_end);
  const bool integratorOk = o.opt("integrator", s.integrator, coreChoices<IntegratorType>());
  if (o.opt("step", s.step)) {
    if (s.step < 0) o.error("step", "must not be negative");
    else if (s.step == 0 && integratorOk && s.integrator != IntegratorType::Ida)
      o.error("step", std::string("must be positive for ") + toString(s.integrator) + " (0 means no limit only for ida)");
  }
  positive("output_interval", s.output_interval);
  positive("rtol", s.rtol);
  positive("atol", s.atol);
  if (o.opt("rho_inf", s.rho_inf) && !(s.rho_inf >= 0 && s.rho_inf <= 1)) o.error("rho_inf", "must be in [0, 1]");
  positive("newton_tol", s.newton_tol);
  if (o.opt("max_newton", s.max_newton) && s.max_newton < 1) o.error("max_newton", "must be at least 1");
  o.finish();
}

/// Fills m from a parsed document; problems go to diag. Reduced-body files are resolved
/// against baseDir.
void readModel(const Json& root, ModelSpec& m, Diagnostics& diag, const std::string& source,
               const std::string& baseDir) {
  if (!root.is_object()) {
    diag.error(source, "expected a JSON object at the top level");
    return;
  }
  ObjectReader o(Node(&root, "", diag));
  if (const Node v = o.required("schema_version"); v.present() && read(v, m.schema_version)) {
    if (m.schema_version > kModelSchemaVersion) {
      // a newer file may mean anything: stop rather than report a cascade of misreadings
      diag.error(source, "schema_version " + std::to_string(m.schema_version) +
                             " is newer than this Flexim supports (" + std::to_string(kModelSchemaVersion) + ")");
      return;
    }
    if (m.schema_version < 1) v.error("must be " + std::to_string(kModelSchemaVersion));
  }
  o.opt("name", m.name);
  o.opt("description", m.description);
  o.opt("gravity", m.gravity);

  Scope scope;
  ObjectReader ground(o.get("ground"));
  std::set<std::string> groundMarkers;
  m.ground_markers = readMarkers(ground.get("markers"), groundMarkers);
  scope.markers.emplace(kGroundName, groundMarkers);
  ground.finish();

  std::set<std::string> bodies, joints, drivers, forces, sensors;
  m.bodies = readList<RigidBodySpec>(o.get("bodies"), [&](const Node& n, auto& b) { readBody(n, b, bodies, scope); });
  BodyFiles files(baseDir);
  m.flexible_bodies = readList<FlexibleBodySpec>(
      o.get("flexible_bodies"), [&](const Node& n, auto& b) { readFlexibleBody(n, b, bodies, scope, files); });
  m.virtual_bodies = readList<VirtualBodySpec>(
      o.get("virtual_bodies"), [&](const Node& n, auto& v) { readVirtualBody(n, v, bodies, scope); });
  m.joints = readList<JointSpec>(o.get("joints"), [&](const Node& n, auto& j) { readJoint(n, j, joints, scope); });
  m.drivers = readList<DriverSpec>(o.get("drivers"), [&](const Node& n, auto& d) { readDriver(n, d, drivers, scope); });
  m.forces = readList<ForceSpec>(o.get("forces"), [&](const Node& n, auto& f) { readForce(n, f, forces, scope); });
  m.sensors = readList<SensorSpec>(o.get("sensors"), [&](const Node& n, auto& s) { readSensor(n, s, sensors, scope); });
  readSolver(o.get("simulation"), m.solver);
  o.finish();
}

std::string tooLarge(std::uintmax_t bytes) {
  return "too large for a model (" + std::to_string(bytes) + " bytes; the limit is " +
         std::to_string(kMaxModelBytes >> 20) + " MiB)";
}

/// The first kMaxDiagnostics items of all, then a count of the rest.
Diagnostics firstItems(const Diagnostics& all) {
  if (all.items().size() <= kMaxDiagnostics) return all;
  Diagnostics some;
  for (std::size_t i = 0; i < kMaxDiagnostics; ++i) {
    const Diagnostic& d = all.items()[i];
    switch (d.severity) {
      case Severity::Error: some.error(d.where, d.message); break;
      case Severity::Warning: some.warning(d.where, d.message); break;
      case Severity::Info: some.info(d.where, d.message); break;
    }
  }
  some.error("", std::to_string(all.items().size() - kMaxDiagnostics) + " more problems not listed");
  return some;
}

/// Whole file into text; model files are small, so anything huge is refused rather than read.
bool readTextFile(const std::string& path, std::string& text, std::string& error) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    error = "file not found";
    return false;
  }
  if (!std::filesystem::is_regular_file(path, ec)) {
    error = "not a regular file";
    return false;
  }
  if (const auto size = std::filesystem::file_size(path, ec); !ec && size > kMaxModelBytes) {
    error = tooLarge(size);
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = std::string("cannot open: ") + std::strerror(errno);
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) {
    error = "read error";
    return false;
  }
  text = buffer.str();
  return true;
}

// ============================== saving ====================================================
// Every field relevant to an item's type is written, always, in one fixed order: that is what
// makes save -> load -> save byte-identical.

OrderedJson toJson(const Vec3& v) { return OrderedJson::array({v.x(), v.y(), v.z()}); }
OrderedJson toJson(const Vec6& v) { return OrderedJson(std::vector<double>(v.data(), v.data() + 6)); }
OrderedJson toJson(const Quat& q) { return OrderedJson::array({q.w(), q.x(), q.y(), q.z()}); }
OrderedJson toJson(const Mat3& m) {
  OrderedJson rows = OrderedJson::array();
  for (int r = 0; r < 3; ++r) rows.push_back(OrderedJson::array({m(r, 0), m(r, 1), m(r, 2)}));
  return rows;
}

OrderedJson toJson(const MarkerSpec& m) {
  OrderedJson j;
  j["name"] = m.name;
  j["position"] = toJson(m.position);
  j["orientation"] = toJson(m.orientation);
  return j;
}

// declared up front so that listJson sees every overload
OrderedJson toJson(const RigidBodySpec& b);
OrderedJson toJson(const FlexibleBodySpec& b);
OrderedJson toJson(const VirtualBodySpec& v);
OrderedJson toJson(const JointSpec& s);
OrderedJson toJson(const DriverSpec& d);
OrderedJson toJson(const ForceSpec& f);
OrderedJson toJson(const SensorSpec& s);

template <class T>
OrderedJson listJson(const std::vector<T>& items) {
  OrderedJson a = OrderedJson::array();
  for (const auto& item : items) a.push_back(toJson(item));
  return a;
}

OrderedJson toJson(const RigidBodySpec& b) {
  OrderedJson j;
  j["name"] = b.name;
  j["mass"] = b.mass;
  j["inertia"] = toJson(b.inertia);
  j["position"] = toJson(b.position);
  j["orientation"] = toJson(b.orientation);
  j["velocity"] = toJson(b.velocity);
  j["angular_velocity"] = toJson(b.angular_velocity);
  j["markers"] = listJson(b.markers);
  return j;
}

OrderedJson toJson(const FlexibleBodySpec& b) {
  OrderedJson j;
  j["name"] = b.name;
  j["file"] = b.file;
  j["modes"] = b.mode_count;
  j["reference"] = toString(b.reference);
  if (b.reference == ReferenceFrame::Interface) j["reference_interface"] = b.reference_interface;
  j["position"] = toJson(b.position);
  j["orientation"] = toJson(b.orientation);
  j["velocity"] = toJson(b.velocity);
  j["angular_velocity"] = toJson(b.angular_velocity);
  j["modal_coordinates"] = b.modal_coordinates;
  OrderedJson damping;
  damping["ratio"] = b.damping.ratio;
  damping["alpha"] = b.damping.alpha;
  damping["beta"] = b.damping.beta;
  j["damping"] = std::move(damping);
  j["stiffness_scale"] = b.stiffness_scale;
  return j;
}

OrderedJson toJson(const VirtualBodySpec& v) {
  OrderedJson j;
  j["name"] = v.name;
  j["flexible_body"] = v.flexible_body;
  if (!v.interface.empty()) {
    j["interface"] = v.interface;
  } else {
    j["point"] = toJson(v.point);
    if (!v.nodes.empty()) j["nodes"] = v.nodes;
  }
  j["orientation"] = toJson(v.orientation);
  j["markers"] = listJson(v.markers);
  return j;
}

OrderedJson toJson(const JointSpec& s) {
  OrderedJson j;
  j["name"] = s.name;
  j["type"] = toString(s.type);
  j["body1"] = s.body1;
  j["marker1"] = s.marker1;
  j["body2"] = s.body2;
  j["marker2"] = s.marker2;
  return j;
}

OrderedJson toJson(const TimeFunctionSpec& f) {
  OrderedJson j;
  j["type"] = toString(f.type);
  switch (f.type) {
    case TF::Constant: j["value"] = f.value; break;
    case TF::ConstantSpeed:
      j["initial"] = f.initial;
      j["speed"] = f.speed;
      break;
    case TF::Ramp:
      j["initial"] = f.initial;
      j["start"] = f.start;
      j["slope"] = f.slope;
      break;
    case TF::SmoothStep:
      j["t0"] = f.t0;
      j["value0"] = f.value0;
      j["t1"] = f.t1;
      j["value1"] = f.value1;
      break;
    case TF::Harmonic:
      j["amplitude"] = f.amplitude;
      j["frequency"] = f.frequency;
      j["phase"] = f.phase;
      j["offset"] = f.offset;
      break;
    case TF::Table:
      j["times"] = f.times;
      j["values"] = f.values;
      break;
  }
  return j;
}

OrderedJson toJson(const DriverSpec& d) {
  OrderedJson j;
  j["name"] = d.name;
  j["joint"] = d.joint;
  j["coordinate"] = nameOf(d.coordinate, kDriverCoordinates);
  j["function"] = toJson(d.function);
  return j;
}

OrderedJson toJson(const ForceSpec& f) {
  OrderedJson j;
  j["name"] = f.name;
  j["type"] = toString(f.type);
  switch (f.type) {
    case ForceSpec::Type::PointForce:
    case ForceSpec::Type::PointTorque:
      j["body"] = f.body1;
      if (f.marker1.empty() && f.type == ForceSpec::Type::PointForce) j["node"] = f.node;
      else j["marker"] = f.marker1;
      j["vector"] = toJson(f.vector);
      j["frame"] = nameOf(f.frame, kForceFrames);
      j["function"] = toJson(f.function);
      break;
    case ForceSpec::Type::SpringDamper:
    case ForceSpec::Type::Bushing:
      j["body1"] = f.body1;
      j["marker1"] = f.marker1;
      j["body2"] = f.body2;
      j["marker2"] = f.marker2;
      if (f.type == ForceSpec::Type::SpringDamper) {
        j["stiffness"] = f.stiffness;
        j["damping"] = f.damping;
        j["free_length"] = f.free_length;
        j["preload"] = f.preload;
      } else {
        j["bushing_stiffness"] = toJson(f.bushing_stiffness);
        j["bushing_damping"] = toJson(f.bushing_damping);
      }
      break;
  }
  return j;
}

OrderedJson toJson(const SensorSpec& s) {
  OrderedJson j;
  j["name"] = s.name;
  j["type"] = toString(s.type);
  switch (s.type) {
    case SensorSpec::Type::Marker:
      j["body"] = s.body;
      j["marker"] = s.marker;
      j["frame"] = nameOf(s.frame, kSensorFrames);
      break;
    case SensorSpec::Type::Joint:
      j["joint"] = s.joint;
      j["frame"] = nameOf(s.frame, kSensorFrames);
      break;
    case SensorSpec::Type::Energy: break;
    case SensorSpec::Type::Node:
      j["body"] = s.body;
      j["node"] = s.node;
      j["frame"] = nameOf(s.frame, kSensorFrames);
      break;
    case SensorSpec::Type::Deflection:
      j["body"] = s.body;
      j["node"] = s.node;
      j["chord"] = s.chord;
      break;
    case SensorSpec::Type::Modal: j["body"] = s.body; break;
  }
  j["quantities"] = s.quantities;
  return j;
}

OrderedJson toJson(const SolverSpec& s) {
  OrderedJson j;
  j["t_end"] = s.t_end;
  j["step"] = s.step;
  j["output_interval"] = s.output_interval;
  j["integrator"] = toString(s.integrator);
  j["rtol"] = s.rtol;
  j["atol"] = s.atol;
  j["rho_inf"] = s.rho_inf;
  j["newton_tol"] = s.newton_tol;
  j["max_newton"] = s.max_newton;
  return j;
}

OrderedJson toJson(const ModelSpec& m) {
  OrderedJson j;
  j["schema_version"] = kModelSchemaVersion;
  j["name"] = m.name;
  j["description"] = m.description;
  j["gravity"] = toJson(m.gravity);
  j["ground"] = OrderedJson{{"markers", listJson(m.ground_markers)}};
  j["bodies"] = listJson(m.bodies);
  // written only when used, so that rigid models read the same as before they existed
  if (!m.flexible_bodies.empty()) j["flexible_bodies"] = listJson(m.flexible_bodies);
  if (!m.virtual_bodies.empty()) j["virtual_bodies"] = listJson(m.virtual_bodies);
  j["joints"] = listJson(m.joints);
  j["drivers"] = listJson(m.drivers);
  j["forces"] = listJson(m.forces);
  j["sensors"] = listJson(m.sensors);
  j["simulation"] = toJson(m.solver);
  return j;
}

}  // namespace

bool loadModelString(const std::string& text, ModelSpec& out, Diagnostics& diag, const std::string& source,
                     const std::string& baseDir) {
  Diagnostics local;  // so the result reflects this load only, whatever diag held before
  try {
    Json root;
    ModelSpec model;
    if (text.size() > kMaxModelBytes)
      local.error(source, tooLarge(text.size()));
    else if (parseJson(text, source, root, local))
      readModel(root, model, local, source, baseDir);
    if (!local.hasErrors()) out = std::move(model);
  } catch (const std::exception& e) {
    local.error(source, std::string("cannot read the model: ") + e.what());
  } catch (...) {
    local.error(source, "cannot read the model: unknown failure");
  }
  diag.append(firstItems(local));
  return !local.hasErrors();
}

bool loadModelFile(const std::string& path, ModelSpec& out, Diagnostics& diag) {
  std::string text, error;
  try {
    if (!readTextFile(path, text, error)) {
      diag.error(path, error);
      return false;
    }
  } catch (const std::exception& e) {
    diag.error(path, std::string("cannot read: ") + e.what());
    return false;
  }
  // reduced-body files are named relative to the model file's folder
  return loadModelString(text, out, diag, path, std::filesystem::path(path).parent_path().string());
}

std::string saveModelString(const ModelSpec& m) { return formatJson(toJson(m)); }

bool saveModelFile(const ModelSpec& m, const std::string& path, std::string* error) {
  const auto fail = [&](const std::string& why) {
    if (error) *error = "cannot write " + inQuotes(path) + ": " + why;
    return false;
  };
  try {
    const std::string text = saveModelString(m);
    // write beside the target, then rename: a failure never leaves a half-written model
    const std::string tmp = path + ".tmp";
    {
      std::ofstream outFile(tmp, std::ios::binary | std::ios::trunc);
      if (!outFile) return fail(std::strerror(errno));
      outFile << text;
      outFile.flush();
      if (!outFile) {
        std::remove(tmp.c_str());
        return fail("write error");
      }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
      std::remove(tmp.c_str());
      return fail(ec.message());
    }
    return true;
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}

}  // namespace flexim::io
