#include "io/json_reader.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>

namespace flexim::io {

namespace {

/// Builds the document through nlohmann's SAX interface rather than json::parse, because that
/// way every error (number overflow included) arrives with its byte position, and nesting depth
/// can be capped while parsing.
class DomBuilder final : public nlohmann::json_sax<Json> {
 public:
  explicit DomBuilder(Json& root) : m_root(root) {}

  bool null() override { return add(nullptr); }
  bool boolean(bool v) override { return add(v); }
  bool number_integer(number_integer_t v) override { return add(v); }
  bool number_unsigned(number_unsigned_t v) override { return add(v); }
  bool number_float(number_float_t v, const string_t&) override { return add(v); }
  bool string(string_t& v) override { return add(std::move(v)); }
  bool binary(binary_t& v) override { return add(Json::binary(std::move(v))); }
  bool start_object(std::size_t) override { return open(Json::object()); }
  bool start_array(std::size_t) override { return open(Json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    m_key = std::move(k);
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const Json::exception& ex) override {
    m_errorPosition = position;
    m_errorMessage = ex.what();
    return false;
  }

  bool tooDeep() const { return m_tooDeep; }
  std::size_t errorPosition() const { return m_errorPosition; }
  const std::string& errorMessage() const { return m_errorMessage; }

 private:
  // Pointers on the stack stay valid: a container only grows while it is the innermost open one
  // (and std::map nodes never move).
  Json* place(Json&& v) {
    if (m_stack.empty()) {
      m_root = std::move(v);
      return &m_root;
    }
    Json& parent = *m_stack.back();
    if (parent.is_array()) {
      parent.push_back(std::move(v));
      return &parent.back();
    }
    Json& slot = parent[m_key];  // a repeated key keeps the last value, like json::parse
    slot = std::move(v);
    return &slot;
  }
  bool add(Json&& v) {
    place(std::move(v));
    return true;
  }
  bool open(Json&& container) {
    if (m_stack.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
      m_tooDeep = true;
      return false;
    }
    m_stack.push_back(place(std::move(container)));
    return true;
  }
  bool close() {
    m_stack.pop_back();
    return true;
  }

  Json& m_root;
  std::vector<Json*> m_stack;
  std::string m_key;
  bool m_tooDeep = false;
  std::size_t m_errorPosition = 0;
  std::string m_errorMessage;
};

/// nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error
/// while parsing value - invalid literal" -> "while parsing value - invalid literal"; we print
/// our own LINE:COL in front.
std::string stripNlohmannPrefix(std::string msg) {
  if (const auto p = msg.find("] "); msg.rfind("[json.exception", 0) == 0 && p != std::string::npos)
    msg.erase(0, p + 2);
  if (msg.rfind("parse error", 0) == 0)
    if (const auto p = msg.find(": "); p != std::string::npos) msg.erase(0, p + 2);
  if (msg.rfind("syntax error ", 0) == 0) msg.erase(0, 13);
  return msg;
}

bool isBlank(const std::string& text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
}

bool isScalar(const OrderedJson& j) { return !j.is_array() && !j.is_object(); }
bool isScalarArray(const OrderedJson& j) { return j.is_array() && std::all_of(j.begin(), j.end(), isScalar); }

/// Containers of scalars, vectors and matrices (no nested objects) may go on one line.
bool isFlat(const OrderedJson& j) {
  if (isScalar(j) || isScalarArray(j)) return true;
  return std::all_of(j.begin(), j.end(), [](const OrderedJson& e) {
    return isScalar(e) || isScalarArray(e) || (e.is_array() && std::all_of(e.begin(), e.end(), isScalarArray));
  });
}

std::string dumpScalar(const OrderedJson& j) {
  // replace: invalid UTF-8 in a name must not make saving throw
  return j.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

std::string oneLine(const OrderedJson& j) {
  if (isScalar(j)) return dumpScalar(j);
  std::string out(1, j.is_object() ? '{' : '[');
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it != j.begin()) out += ", ";
    if (j.is_object()) out += dumpScalar(OrderedJson(it.key())) + ": ";
    out += oneLine(it.value());
  }
  return out + (j.is_object() ? '}' : ']');
}

constexpr std::size_t kLineWidth = 100;

/// Writes j whose first character lands at column; nested levels indent by 2. Vectors always
/// stay on one line (tables can be long); other flat containers only when they fit the width.
void format(const OrderedJson& j, std::size_t indent, std::size_t column, std::string& out) {
  if (isScalarArray(j) || isScalar(j) || j.empty()) {
    out += oneLine(j);
    return;
  }
  if (isFlat(j)) {
    const std::string line = oneLine(j);
    if (column + line.size() <= kLineWidth) {
      out += line;
      return;
    }
  }
  const bool object = j.is_object();
  const std::string inner(indent + 2, ' ');
  out += object ? "{\n" : "[\n";
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it != j.begin()) out += ",\n";
    out += inner;
    const std::string key = object ? dumpScalar(OrderedJson(it.key())) + ": " : std::string();
    out += key;
    format(it.value(), indent + 2, inner.size() + key.size(), out);
  }
  out += '\n' + std::string(indent, ' ') + (object ? '}' : ']');
}

}  // namespace

void lineColumn(const std::string& text, std::size_t offset, std::size_t& line, std::size_t& column) {
  offset = std::min(offset, text.size());
  const auto begin = text.begin(), at = text.begin() + static_cast<std::ptrdiff_t>(offset);
  line = 1 + static_cast<std::size_t>(std::count(begin, at, '\n'));
  const auto lastNewline = offset == 0 ? std::string::npos : text.rfind('\n', offset - 1);
  column = lastNewline == std::string::npos ? offset + 1 : offset - lastNewline;
}

bool parseJson(const std::string& text, const std::string& source, Json& out, Diagnostics& diag) {
  if (isBlank(text)) {
    diag.error(source, "the file is empty");
    return false;
  }
  try {
    Json root;
    DomBuilder builder(root);
    if (Json::sax_parse(text, &builder)) {
      out = std::move(root);
      return true;
    }
    if (builder.tooDeep()) {
      diag.error(source, "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels");
      return false;
    }
    // nlohmann's position counts the offending character as read
    std::size_t line = 0, column = 0;
    lineColumn(text, builder.errorPosition() == 0 ? 0 : builder.errorPosition() - 1, line, column);
    Diagnostic d;
    d.where = source + ":" + std::to_string(line) + ":" + std::to_string(column);
    d.message = "syntax error: " + stripNlohmannPrefix(builder.errorMessage());
    d.location.file = source;
    d.location.line = static_cast<int>(line);
    diag.add(std::move(d));
  } catch (const std::exception& e) {
    diag.error(source, std::string("cannot parse: ") + e.what());
  }
  return false;
}

std::map<std::string, int> jsonPathLines(const std::string& text, const std::set<std::string>& wanted) {
  struct Open {
    bool array = false;
    std::size_t index = 0;
    std::string key;
    bool expectKey = false;
  };
  std::map<std::string, int> lines;
  const auto record = [&](const std::string& path, int at) {
    if (wanted.count(path)) lines.emplace(path, at);
  };
  std::vector<Open> stack;
  std::vector<std::string> paths{""};  // the path of each open container
  int line = 1;
  const auto valuePath = [&]() -> std::string {
    if (stack.empty()) return "";
    const Open& o = stack.back();
    const std::string& parent = paths.back();
    if (o.array) return parent + "[" + std::to_string(o.index) + "]";
    return parent.empty() ? o.key : parent + "." + o.key;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
    } else if (c == '{' || c == '[') {
      const std::string path = valuePath();
      record(path, line);
      stack.push_back({c == '[', 0, {}, c == '{'});
      paths.push_back(path);
    } else if (c == '}' || c == ']') {
      if (!stack.empty()) stack.pop_back();
      if (paths.size() > 1) paths.pop_back();
    } else if (c == ',') {
      if (!stack.empty() && stack.back().array) ++stack.back().index;
      if (!stack.empty() && !stack.back().array) stack.back().expectKey = true;
    } else if (c == '"') {
      std::string s;
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) ++i;  // an escaped key is kept approximately
        s += text[i];
      }
      if (!stack.empty() && !stack.back().array && stack.back().expectKey) {
        stack.back().key = std::move(s);
        stack.back().expectKey = false;
      } else {
        record(valuePath(), line);
      }
    } else if (c != ' ' && c != '\t' && c != '\r' && c != ':') {
      record(valuePath(), line);  // a number or a literal
      while (i + 1 < text.size() && std::string_view(",]} \t\r\n").find(text[i + 1]) == std::string_view::npos) ++i;
    }
  }
  return lines;
}

namespace {
/// "a.b[2]" -> "a.b" -> "a" -> ""
std::string parentPath(const std::string& path) {
  const auto cut = path.find_last_of(".[");
  return cut == std::string::npos ? std::string() : path.substr(0, cut);
}
}  // namespace

void withParents(std::string path, std::set<std::string>& out) {
  while (out.insert(path).second && !path.empty()) path = parentPath(path);
}

int lineOf(const std::map<std::string, int>& lines, std::string path) {
  while (true) {
    if (const auto it = lines.find(path); it != lines.end()) return it->second;
    if (path.empty()) return 0;
    path = parentPath(path);
  }
}

std::string formatJson(const OrderedJson& j) {
  std::string out;
  format(j, 0, 0, out);
  out += '\n';
  return out;
}

// ---- Node -------------------------------------------------------------------------------

Node Node::element(std::size_t index) const {
  return Node(&(*m_value)[index], m_path + "[" + std::to_string(index) + "]", *m_diag);
}

bool Node::expectArray() const {
  if (present() && m_value->is_array()) return true;
  error("expected an array");
  return false;
}

bool read(const Node& n, double& out) {
  const Json& j = n.json();
  if (!j.is_number()) {
    n.error("expected a number");
    return false;
  }
  const double v = j.get<double>();
  if (!std::isfinite(v)) {
    n.error("expected a finite number");
    return false;
  }
  out = v;
  return true;
}

bool read(const Node& n, int& out) {
  const Json& j = n.json();
  const double v = j.is_number() ? j.get<double>() : 0.5;
  if (!j.is_number() || v != std::floor(v) || std::abs(v) > std::numeric_limits<int>::max()) {
    n.error("expected an integer");
    return false;
  }
  out = static_cast<int>(v);
  return true;
}

bool read(const Node& n, std::string& out) {
  if (!n.json().is_string()) {
    n.error("expected a string");
    return false;
  }
  out = n.json().get<std::string>();
  return true;
}

bool isFiniteNumber(const Json& j) { return j.is_number() && std::isfinite(j.get<double>()); }

bool numbersInto(const Json& j, double* out, std::size_t size) {
  if (!j.is_array() || j.size() != size || !std::all_of(j.begin(), j.end(), isFiniteNumber)) return false;
  for (std::size_t i = 0; i < size; ++i) out[i] = j[i].get<double>();
  return true;
}

namespace {
bool readFixed(const Node& n, double* out, std::size_t size) {
  if (numbersInto(n.json(), out, size)) return true;
  n.error("expected an array of " + std::to_string(size) + " numbers");
  return false;
}

template <class T>
bool readArray(const Node& n, std::vector<T>& out) {
  if (!n.expectArray()) return false;
  std::vector<T> items(n.size());
  bool ok = true;
  for (std::size_t i = 0; i < items.size(); ++i) ok = read(n.element(i), items[i]) && ok;
  if (ok) out = std::move(items);
  return ok;
}
}  // namespace

bool read(const Node& n, Vec3& out) { return readFixed(n, out.data(), 3); }
bool read(const Node& n, Eigen::Matrix<double, 6, 1>& out) { return readFixed(n, out.data(), 6); }
bool read(const Node& n, std::vector<double>& out) { return readArray(n, out); }
bool read(const Node& n, std::vector<int>& out) { return readArray(n, out); }
bool read(const Node& n, std::vector<std::string>& out) { return readArray(n, out); }

// ---- ObjectReader -----------------------------------------------------------------------

ObjectReader::ObjectReader(const Node& node) : m_node(node) {
  m_valid = node.present() && node.json().is_object();
  if (node.present() && !m_valid) node.error("expected an object");
}

std::string ObjectReader::path(const std::string& key) const {
  return m_node.path().empty() ? key : m_node.path() + "." + key;
}

void ObjectReader::error(const std::string& key, const std::string& message) const {
  m_node.diag().error(path(key), message);
}

bool ObjectReader::has(const std::string& key) const { return m_valid && m_node.json().contains(key); }

Node ObjectReader::get(const std::string& key) {
  m_known.push_back(key);
  const Json* value = nullptr;
  if (m_valid)
    if (auto it = m_node.json().find(key); it != m_node.json().end()) value = &*it;
  return Node(value, path(key), m_node.diag());
}

Node ObjectReader::required(const std::string& key) {
  Node n = get(key);
  if (!n.present() && m_valid) n.error("required");
  return n;
}

void ObjectReader::finish() {
  if (!m_valid) return;
  constexpr int kNamed = 20;  // a flood of junk keys gets one summary line, not a million
  int unknown = 0;
  for (auto it = m_node.json().begin(); it != m_node.json().end(); ++it)
    if (std::find(m_known.begin(), m_known.end(), it.key()) == m_known.end() && ++unknown <= kNamed)
      m_node.diag().warning(path(it.key()), "unknown key (ignored)");
  if (unknown > kNamed)
    m_node.warning(std::to_string(unknown - kNamed) + " more unknown keys (ignored)");
}

}  // namespace flexim::io
