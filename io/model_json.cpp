#include "io/model_json.h"

#include "core/base/cardan_angles.h"

#include "core/fe/reduced_body.h"
#include "core/model/description.h"
#include "core/model/validate.h"
#include "io/atomic_file.h"
#include "io/fe/reduced_body_file.h"
#include "io/json_reader.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string_view>

namespace flexim::io {

namespace {

// Model documents are small (FE data lives in files of its own). These bounds keep hostile
// input from exhausting memory or burying the user in messages.
constexpr std::size_t kMaxModelBytes = 16u << 20;
constexpr std::size_t kMaxListItems = 100000;
constexpr std::size_t kMaxDiagnostics = 200;

// ============================== loading ===================================================

/// The reduced-body files of one model, resolved against the model file's folder; each distinct
/// path is read once and its data shared by every flexible body naming it.
class BodyFiles {
 public:
  explicit BodyFiles(const std::string& baseDir) : m_base(baseDir) {}

  /// The loaded data, or null with error set to why not.
  std::shared_ptr<const fe::ReducedBody> load(const std::string& file, std::string& error) {
    const std::string path = (m_base / std::filesystem::path(file)).lexically_normal().string();
    const auto [it, inserted] = m_files.try_emplace(path);
    Loaded& f = it->second;
    if (inserted) {
      try {
        fe::ReducedBody body;
        if (loadReducedBody(path, body, &f.error))
          f.data = std::make_shared<const fe::ReducedBody>(std::move(body));
        else if (f.error.empty())
          f.error = inQuotes(path) + ": cannot be read";
      } catch (const std::exception& e) {
        f.error = inQuotes(path) + ": " + e.what();
      }
    }
    error = f.error;
    return f.data;
  }

 private:
  struct Loaded {
    std::shared_ptr<const fe::ReducedBody> data;
    std::string error;
  };
  std::filesystem::path m_base;
  std::map<std::string, Loaded> m_files;
};

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

/// Axes from z_axis and optional x_axis (the convenience form of an orientation). Without
/// x_axis, x is the parent's x axis projected onto the plane normal to z (its y axis when z is
/// close to x), so the result is predictable.
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

/// A quaternion under key, or Cardan angles under key_xyz_deg, or (allowAxes) the z_axis/x_axis
/// form instead. False on a bad value.
bool readOrientation(ObjectReader& o, const std::string& key, Quat& out, bool allowAxes) {
  const bool hasAxes = allowAxes && (o.has("z_axis") || o.has("x_axis"));
  const std::string anglesKey = key + kAnglesSuffix;
  const bool hasAngles = o.has(anglesKey);
  if (int(hasAxes) + int(hasAngles) + int(o.has(key)) > 1) {
    o.error(key, "give one of " + key + ", " + anglesKey + (allowAxes ? " or z_axis/x_axis" : "") + ", not several");
    return false;
  }
  if (hasAxes) return readAxes(o, out);
  if (hasAngles) {
    Vec3 degrees;
    if (!o.req(anglesKey, degrees)) return false;
    out = fromXyzAngles(degrees * (std::numbers::pi / 180.0));
    return true;
  }
  const Node n = o.get(key);
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

std::string joined(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& item : items) s += (s.empty() ? "" : ", ") + item;
  return s;
}

/// Reads a document into a ModelSpec by walking the item descriptions: each field is read by
/// its type, with the JSON path in every message. What the values mean together (limits,
/// names, references, the reduced-body files' contents) is left to validate().
class ModelReader {
 public:
  ModelReader(ModelSpec& model, Diagnostics& diag, const std::string& baseDir, MissingData missing)
      : m_model(model), m_diag(diag), m_files(baseDir), m_missing(missing) {}

  void readObject(const Node& n, const ItemDescription& d, void* item) {
    ObjectReader o(n);
    if (!o.valid()) {
      m_unread.push_back(n.path());
      return;
    }
    std::vector<std::string> badDiscriminators;
    for (const FieldDescription& f : d.fields) {
      if (f.inputOnly) continue;
      if (f.condition) {
        const std::string& on = f.condition->key;
        if (std::find(badDiscriminators.begin(), badDiscriminators.end(), on) != badDiscriminators.end()) {
          o.get(f.key);  // no telling whether it belongs: not reported as unknown either
          continue;
        }
        if (!d.applies(f, item)) {
          if (f.condition->misplacedIsError && o.has(f.key)) {
            o.get(f.key);
            std::vector<std::string> values;
            for (const auto& v : f.condition->values) values.push_back("\"" + on + "\": \"" + v + "\"");
            o.error(f.key, "only with " + joined(values));
          }
          continue;
        }
      }
      if (!f.alternative.empty() && o.has(f.alternative) && alternativeApplies(d, f.alternative, item)) {
        if (o.has(f.key)) {
          o.get(f.key);
          o.error(f.alternative, "give either " + f.key + " or " + f.alternative + ", not both");
        }
        continue;
      }
      if (f.type == FieldType::Quaternion || f.type == FieldType::Orientation) {
        Quat q = std::get<Quat>(f.get(item));
        if (readOrientation(o, f.key, q, f.type == FieldType::Orientation)) f.set(item, q);
        continue;
      }
      const Node v = o.get(f.key);
      if (!v.present()) {
        if (f.required)
          o.error(f.key, f.alternative.empty() ? "required"
                                               : "required (or " + f.alternative + ")" +
                                                     (f.whyRequired.empty() ? "" : ": " + f.whyRequired));
        else if (f.defaultFrom)
          f.defaultFrom(m_model, item);
        continue;
      }
      const bool ok = readValue(v, f, item);
      if (!ok && d.isDiscriminator(f.key)) {
        badDiscriminators.push_back(f.key);
        m_unread.push_back(n.path());  // what depends on it is not known
      }
      if (ok && d.kind == "flexible_body" && f.key == "file") loadFile(v, *static_cast<FlexibleBodySpec*>(item));
    }
    o.finish();
  }

  /// Paths whose value could not be read (besides those with an error): validate() says nothing
  /// about them, since the spec holds defaults there.
  const std::vector<std::string>& unread() const { return m_unread; }

 private:
  static bool alternativeApplies(const ItemDescription& d, const std::string& key, const void* item) {
    for (const auto& f : d.fields)
      if (f.key == key && d.applies(f, item)) return true;
    return false;
  }

  template <class T>
  bool readInto(const Node& n, const FieldDescription& f, void* item) {
    T value{};
    if (!read(n, value)) return false;
    f.set(item, value);
    return true;
  }

  bool readValue(const Node& n, const FieldDescription& f, void* item) {
    switch (f.type) {
      case FieldType::Number: return readInto<double>(n, f, item);
      case FieldType::Integer: return readInto<int>(n, f, item);
      case FieldType::Bool:
        if (!n.json().is_boolean()) {
          n.error("expected true or false");
          return false;
        }
        f.set(item, n.json().get<bool>());
        return true;
      case FieldType::String:
      case FieldType::Reference: {
        std::string s;
        if (!read(n, s)) return false;
        if (f.nonEmpty && s.empty()) {
          n.error("must not be empty");
          return false;
        }
        f.set(item, s);
        return true;
      }
      case FieldType::Enum: {
        const bool isString = n.json().is_string();
        const std::string s = isString ? n.json().get<std::string>() : std::string();
        if (isString) f.set(item, s);  // kept even when unknown, so later checks know the item
        if (isString && std::find(f.choices.begin(), f.choices.end(), s) != f.choices.end()) return true;
        n.error("expected one of " + joined(f.choices) + (isString ? ", got " + inQuotes(s) : ""));
        return false;
      }
      case FieldType::Vec3: return readInto<Vec3>(n, f, item);
      case FieldType::Vec6: return readInto<Vec6>(n, f, item);
      case FieldType::Quaternion:
      case FieldType::Orientation: {
        Quat q;
        if (!readQuaternion(n, q)) return false;
        f.set(item, q);
        return true;
      }
      case FieldType::Inertia: {
        Mat3 I;
        if (!readInertiaShape(n.json(), I)) {
          n.error("expected a 3x3 array or a diagonal [Ixx, Iyy, Izz]");
          return false;
        }
        // exactly symmetric from here on; evaluated into a new matrix first: assigned in place,
        // I(0,1) would be averaged with the already averaged I(1,0) (Eigen aliasing)
        if (nearlySymmetric(I)) I = Mat3(0.5 * (I + I.transpose()));
        f.set(item, I);
        return true;
      }
      case FieldType::NumberList: return readInto<std::vector<double>>(n, f, item);
      case FieldType::IntList: return readInto<std::vector<int>>(n, f, item);
      case FieldType::StringList: return readInto<std::vector<std::string>>(n, f, item);
      case FieldType::NumberOrList: {
        if (n.json().is_array()) return readInto<std::vector<double>>(n, f, item);
        double x = 0;
        if (!n.json().is_number()) {
          n.error("expected a number or an array of numbers");
          return false;
        }
        if (!read(n, x)) return false;
        f.set(item, std::vector<double>{x});
        return true;
      }
      case FieldType::Object: {
        void* object = f.object(item);
        f.item->reset(object);  // start from defaults so stale values of another type never leak in
        readObject(n, *f.item, object);
        return true;
      }
      case FieldType::List: return readList(n, f, item);
    }
    return false;
  }

  bool readList(const Node& n, const FieldDescription& f, void* item) {
    if (!n.expectArray()) return false;
    if (n.size() > kMaxListItems) {
      n.error("more than " + std::to_string(kMaxListItems) + " items");
      return false;
    }
    f.resize(item, n.size());
    for (std::size_t i = 0; i < n.size(); ++i) readObject(n.element(i), *f.item, f.element(item, i));
    return true;
  }

  /// Loads the reduced-body file of a flexible body into its spec (each distinct file once).
  void loadFile(const Node& n, FlexibleBodySpec& body) {
    if (body.file.empty() || !fileNameProblem(body.file).empty()) return;  // validate() says why
    std::string error;
    body.data = m_files.load(body.file, error);
    if (body.data) return;
    if (m_missing == MissingData::Refuse) return n.error(error);
    // kept without its data: validate()'s "not loaded" would repeat this warning as an error
    n.warning(error + "; the body is kept without its data until its file is found");
    m_unread.push_back(n.path());
  }

  ModelSpec& m_model;
  Diagnostics& m_diag;
  BodyFiles m_files;
  MissingData m_missing;
  std::vector<std::string> m_unread;
};

/// The JSON paths that could not be read. A problem concerns one of them if it is at the same
/// place, inside it, or at one of its parents. Looked up in a sorted set: a flood of bad items
/// makes as many problems as unread paths, and a scan of all paths per problem is quadratic.
class UnreadPaths {
 public:
  explicit UnreadPaths(const std::vector<std::string>& paths) {
    for (const auto& p : paths)
      if (!p.empty()) m_paths.insert(p);
  }

  bool concern(const std::string& where) const {
    if (where.empty()) return false;
    const std::string_view w(where);
    // where itself, or a parent: a prefix that ends before a '.' or a '['
    if (m_paths.count(w)) return true;
    for (std::size_t i = 1; i < w.size(); ++i)
      if ((w[i] == '.' || w[i] == '[') && m_paths.count(w.substr(0, i))) return true;
    // inside where: the first path at or after where + separator starts with it
    for (const char separator : {'.', '['}) {
      const std::string prefix = where + separator;
      const auto it = m_paths.lower_bound(prefix);
      if (it != m_paths.end() && it->compare(0, prefix.size(), prefix) == 0) return true;
    }
    return false;
  }

 private:
  std::set<std::string, std::less<>> m_paths;
};

/// The item and field of a JSON path: "bodies[2].markers[0].name" -> "bodies[2] 'link'", "markers[0].name".
Location locationOf(const ModelSpec& m, const std::string& where, const std::string& source) {
  Location l;
  l.file = source;
  l.item = itemLabel(m, where);
  const auto close = where.find(']');
  const std::size_t end = l.item.empty() ? 0 : close != std::string::npos && close < where.find('.') ? close + 1
                                                                                                    : where.find('.');
  l.field = end == 0 ? where : end >= where.size() ? "" : where.substr(end + 1);
  return l;
}

/// Fills m from a parsed document; problems go to diag. Reduced-body files are resolved
/// against baseDir.
void readModel(const Json& root, ModelSpec& m, Diagnostics& diag, const std::string& source,
               const std::string& baseDir, MissingData missing) {
  if (!root.is_object()) {
    diag.error(source, "expected a JSON object at the top level");
    return;
  }
  if (const auto v = root.find("schema_version"); v != root.end() && v->is_number() &&
                                                   v->get<double>() > kModelSchemaVersion) {
    // a newer file may mean anything: stop rather than report a cascade of misreadings
    diag.error(source, "schema_version " + v->dump() + " is newer than this Flexim supports (" +
                           std::to_string(kModelSchemaVersion) + ")");
    return;
  }
  Diagnostics read;
  ModelReader reader(m, read, baseDir, missing);
  reader.readObject(Node(&root, "", read), modelDescription(), &m);
  if (root.contains("schema_version") && m.schema_version < 1)
    read.error("schema_version", "must be " + std::to_string(kModelSchemaVersion));

  // what the values mean together; nothing about values that could not be read
  std::vector<std::string> unreadPaths = reader.unread();
  for (const auto& d : read.items())
    if (d.severity == Severity::Error) unreadPaths.push_back(d.where);
  const UnreadPaths unread(unreadPaths);
  Diagnostics checked = validate(m);
  for (auto& d : read.items()) {
    d.location = locationOf(m, d.where, source);
    diag.add(d);
  }
  for (auto& d : checked.items()) {
    if (unread.concern(d.where)) continue;
    d.location.file = source;
    diag.add(d);
  }
}

/// Why text is not a text file ("" when it is): a NUL byte or bytes that are not UTF-8, as in a
/// binary file opened by mistake. Said before parsing, which would quote the bytes.
std::string binaryText(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    // the length of a UTF-8 sequence from its first byte (0: not a first byte)
    const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool valid = c != 0 && n > 0 && i + n <= text.size();
    for (std::size_t k = 1; valid && k < n; ++k) valid = (static_cast<unsigned char>(text[i + k]) >> 6) == 0x2;
    if (!valid)
      return "not a text file (binary data at byte " + std::to_string(i) +
             "); a Flexim model is a JSON text file (.json)";
    i += n;
  }
  return {};
}

std::string tooLarge(std::uintmax_t bytes) {
  return "too large for a model (" + std::to_string(bytes) + " bytes; the limit is " +
         std::to_string(kMaxModelBytes >> 20) + " MiB)";
}

/// The first kMaxDiagnostics items of all, then a count of the rest.
Diagnostics firstItems(const Diagnostics& all) {
  if (all.items().size() <= kMaxDiagnostics) return all;
  Diagnostics some;
  for (std::size_t i = 0; i < kMaxDiagnostics; ++i) some.add(all.items()[i]);
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
// Every field an item's description says is in use is written, always, in the description's
// order: that is what makes save -> load -> save byte-identical.

OrderedJson toJson(const ItemDescription& d, const void* item);

OrderedJson fieldJson(const FieldDescription& f, const void* item) {
  if (f.type == FieldType::Object) return toJson(*f.item, f.object(const_cast<void*>(item)));
  if (f.type == FieldType::List) {
    OrderedJson a = OrderedJson::array();
    for (std::size_t i = 0; i < f.count(item); ++i) a.push_back(toJson(*f.item, f.element(const_cast<void*>(item), i)));
    return a;
  }
  return std::visit(
      [](const auto& v) -> OrderedJson {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, std::monostate>) {
          return nullptr;
        } else if constexpr (std::is_same_v<V, Vec3>) {
          return OrderedJson::array({v.x(), v.y(), v.z()});
        } else if constexpr (std::is_same_v<V, Vec6>) {
          return OrderedJson(std::vector<double>(v.data(), v.data() + 6));
        } else if constexpr (std::is_same_v<V, Quat>) {
          return OrderedJson::array({v.w(), v.x(), v.y(), v.z()});
        } else if constexpr (std::is_same_v<V, Mat3>) {
          OrderedJson rows = OrderedJson::array();
          for (int r = 0; r < 3; ++r) rows.push_back(OrderedJson::array({v(r, 0), v(r, 1), v(r, 2)}));
          return rows;
        } else {
          return OrderedJson(v);
        }
      },
      f.get(item));
}

OrderedJson toJson(const ItemDescription& d, const void* item) {
  OrderedJson j = OrderedJson::object();
  for (const FieldDescription& f : d.fields)
    if (d.written(f, item)) j[f.key] = fieldJson(f, item);
  return j;
}

OrderedJson toJson(const ModelSpec& m) {
  OrderedJson j = toJson(modelDescription(), &m);
  j["schema_version"] = kModelSchemaVersion;  // always saved in this build's version
  return j;
}

}  // namespace

bool loadModelString(const std::string& text, ModelSpec& out, Diagnostics& diag, const std::string& source,
                     const std::string& baseDir, MissingData missing) {
  Diagnostics local;  // so the result reflects this load only, whatever diag held before
  try {
    Json root;
    ModelSpec model;
    if (text.size() > kMaxModelBytes)
      local.error(source, tooLarge(text.size()));
    else if (const std::string why = binaryText(text); !why.empty())
      local.error(source, why);
    else if (parseJson(text, source, root, local))
      readModel(root, model, local, source, baseDir, missing);
    if (!local.hasErrors()) out = std::move(model);
    // lines are found only when there is something to say
    if (!local.items().empty() && root.is_object()) {
      std::set<std::string> wanted;
      for (const Diagnostic& d : local.items()) withParents(d.where, wanted);
      const std::map<std::string, int> lines = jsonPathLines(text, wanted);
      for (Diagnostic& d : local.items())
        if (d.location.file == source && d.location.line == 0) d.location.line = lineOf(lines, d.where);
      // in document order, whether the reader or validate() found them
      const auto key = [](const Diagnostic& d) { return d.location.line > 0 ? d.location.line : INT_MAX; };
      std::stable_sort(local.items().begin(), local.items().end(),
                       [&](const Diagnostic& a, const Diagnostic& b) { return key(a) < key(b); });
    }
  } catch (const std::exception& e) {
    local.error(source, std::string("cannot read the model: ") + e.what());
  } catch (...) {
    local.error(source, "cannot read the model: unknown failure");
  }
  diag.append(firstItems(local));
  return !local.hasErrors();
}

bool loadModelFile(const std::string& path, ModelSpec& out, Diagnostics& diag, MissingData missing) {
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
  return loadModelString(text, out, diag, path, std::filesystem::path(path).parent_path().string(), missing);
}

std::string saveModelString(const ModelSpec& m) { return formatJson(toJson(m)); }

bool saveModelFile(const ModelSpec& m, const std::string& path, std::string* error) {
  try {
    return writeFileAtomically(path, saveModelString(m), error);
  } catch (const std::exception& e) {
    if (error) *error = "cannot write " + inQuotes(path) + ": " + e.what();
    return false;
  }
}

}  // namespace flexim::io
