// Reading JSON documents with precise diagnostics: every value carries its path
// ("bodies[2].inertia") so a message can say exactly where the problem is. Internal to io/.
#pragma once

#include "core/base/diagnostics.h"
#include "core/model/model.h"

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace flexim::io {

/// Documents being read: std::map objects keep lookups logarithmic even for hostile input.
using Json = nlohmann::json;
/// Documents being written: keys stay in insertion order so files read top-down sensibly.
using OrderedJson = nlohmann::ordered_json;

/// Deepest array/object nesting accepted; real documents need far less, and the limit keeps
/// hostile input from exhausting memory or stack anywhere downstream.
inline constexpr int kMaxJsonDepth = 100;

/// Parses text into out. Syntax errors become "<source>:LINE:COL: syntax error: ...".
/// Never throws.
bool parseJson(const std::string& text, const std::string& source, Json& out, Diagnostics& diag);

/// Line and column (1-based) of a byte offset, counting columns in bytes.
void lineColumn(const std::string& text, std::size_t offset, std::size_t& line, std::size_t& column);

/// The line (1-based) each value of a document starts on, by JSON path ("bodies[2].inertia"),
/// from a light scan of text that has parsed (nlohmann keeps no positions); only the paths in
/// wanted are kept. The first value of a repeated key counts.
std::map<std::string, int> jsonPathLines(const std::string& text, const std::set<std::string>& wanted);

/// The paths a line is wanted for to place path: itself and every enclosing value.
void withParents(std::string path, std::set<std::string>& out);

/// The line of path, or of its nearest enclosing value listed in lines (0 when none is).
int lineOf(const std::map<std::string, int>& lines, std::string path);

/// Writes a document with 2-space indentation, numbers in shortest round-trip form and a final
/// newline. Arrays of numbers stay on one line ("[1.0, 0.0, 0.0]"); so do small objects and
/// matrices without nested objects when they fit in 100 columns.
std::string formatJson(const OrderedJson& j);

/// A JSON value (possibly absent) together with its path; reports problems into Diagnostics.
class Node {
 public:
  Node(const Json* value, std::string path, Diagnostics& diag)
      : m_value(value), m_path(std::move(path)), m_diag(&diag) {}

  bool present() const { return m_value != nullptr; }
  const Json& json() const { return *m_value; }
  const std::string& path() const { return m_path; }
  Diagnostics& diag() const { return *m_diag; }

  Node element(std::size_t index) const;  ///< requires an array
  std::size_t size() const { return present() ? m_value->size() : 0; }

  void error(const std::string& message) const { m_diag->error(m_path, message); }
  void warning(const std::string& message) const { m_diag->warning(m_path, message); }

  /// Reports "expected an array" and returns false unless this is an array.
  bool expectArray() const;

 private:
  const Json* m_value;
  std::string m_path;
  Diagnostics* m_diag;
};

bool isFiniteNumber(const Json& j);
/// Copies an array of exactly size finite numbers into out; false (reporting nothing) otherwise.
bool numbersInto(const Json& j, double* out, std::size_t size);

// Typed reads: on a type mismatch they report "<path>: expected ..." and return false, leaving
// out unchanged.
bool read(const Node& n, double& out);  ///< finite number
bool read(const Node& n, int& out);     ///< integral number within int range
bool read(const Node& n, std::string& out);
bool read(const Node& n, Vec3& out);    ///< [x, y, z]
bool read(const Node& n, Eigen::Matrix<double, 6, 1>& out);
bool read(const Node& n, std::vector<double>& out);
bool read(const Node& n, std::vector<int>& out);  ///< integers within int range
bool read(const Node& n, std::vector<std::string>& out);

/// An object whose keys are taken one at a time; finish() warns about keys nobody took
/// ("bodies[0].mas: unknown key (ignored)"), which catches misspellings.
class ObjectReader {
 public:
  /// Reports "expected an object" when node is not one (then every get() is absent).
  explicit ObjectReader(const Node& node);

  bool valid() const { return m_valid; }
  const Node& node() const { return m_node; }
  std::string path(const std::string& key) const;
  void error(const std::string& key, const std::string& message) const;

  bool has(const std::string& key) const;
  /// The value under key (absent when missing); marks the key as known.
  Node get(const std::string& key);
  /// Like get(), but reports "<path>.<key>: required" when missing.
  Node required(const std::string& key);

  /// Reads a required value with read(node, out, extra...); false when missing or bad.
  template <class T, class... Extra>
  bool req(const std::string& key, T& out, const Extra&... extra) {
    const Node n = required(key);
    return n.present() && read(n, out, extra...);
  }
  /// Leaves out unchanged when the key is missing; false only on a bad value.
  template <class T, class... Extra>
  bool opt(const std::string& key, T& out, const Extra&... extra) {
    const Node n = get(key);
    return !n.present() || read(n, out, extra...);
  }

  /// Warns about keys never asked for (the first few by name, then a count).
  void finish();

 private:
  Node m_node;
  bool m_valid = false;
  std::vector<std::string> m_known;
};

}  // namespace flexim::io
