#include "io/fe/calculix_frd.h"

#include "io/fe/line_reader.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>

namespace flexim::io {

namespace {

constexpr int kMaxErrors = 50;
constexpr int kMaxReported = 10;  ///< per kind of mismatch between frd and model

struct FrdElement {
  int id = 0;
  int type = 0;
  int material = 0;
  std::vector<int> nodes;  ///< node ids, frd order
  int line = 0;
};

struct FrdMode {
  double frequency_hz = 0.0;
  int line = 0;
  std::vector<double> disp;  ///< 3 per node of the node universe
};

/// Nodes per frd element type (CalculiX GraphiX manual, 'Result Format'), 0 if unknown.
int frdNodeCount(int type) {
  static constexpr int kCounts[] = {0, 8, 6, 4, 20, 15, 10, 3, 6, 4, 8, 2, 3};
  return type >= 1 && type <= 12 ? kCounts[type] : 0;
}

const char* frdTypeName(int type) {
  static const char* kNames[] = {"?", "8-node hex", "6-node wedge", "4-node tet", "20-node hex", "15-node wedge",
                                 "10-node tet", "3-node triangle", "6-node triangle", "4-node quad", "8-node quad",
                                 "2-node beam", "3-node beam"};
  return type >= 1 && type <= 12 ? kNames[type] : "?";
}

/// Element type of the FE model for an frd type; false for types the model cannot hold.
bool modelType(int frdType, fe::ElementType& t) {
  switch (frdType) {
    case 1: t = fe::ElementType::Hex8; return true;
    case 2: t = fe::ElementType::Wedge6; return true;
    case 3: t = fe::ElementType::Tet4; return true;
    case 4: t = fe::ElementType::Hex20; return true;
    case 5: t = fe::ElementType::Wedge15; return true;
    case 6: t = fe::ElementType::Tet10; return true;
    default: return false;
  }
}

/// Same family: the frd does not tell reduced, full or incompatible-mode integration apart
/// (frd type; 0 for pyramids, which ccx does not write).
int frdFamily(fe::ElementType t) {
  switch (t) {
    case fe::ElementType::Hex8:
    case fe::ElementType::Hex8R:
    case fe::ElementType::Hex8I: return 1;
    case fe::ElementType::Wedge6: return 2;
    case fe::ElementType::Tet4: return 3;
    case fe::ElementType::Hex20:
    case fe::ElementType::Hex20R: return 4;
    case fe::ElementType::Wedge15: return 5;
    case fe::ElementType::Tet10: return 6;
    case fe::ElementType::Pyramid5:
    case fe::ElementType::Pyramid13: return 0;
  }
  return 0;
}

/// Abaqus position of frd position i: frd.c writes the input positions 1..12, 17..20, 13..16 of
/// 20-node hexes and 1..9, 13..15, 10..12 of 15-node wedges (frd.c; docs/fe-support.md, Elements), i.e. the
/// top and vertical edges swapped; frd[i] = abaqus[q[i]].
std::size_t frdToAbaqus(int frdType, std::size_t i) {
  static constexpr std::array<int, 20> kHex20{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 12, 13, 14, 15};
  static constexpr std::array<int, 15> kWedge15{0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 9, 10, 11};
  if (frdType == 4) return static_cast<std::size_t>(kHex20[i]);
  if (frdType == 5) return static_cast<std::size_t>(kWedge15[i]);
  return i;
}

class FrdParser {
 public:
  FrdParser(std::string_view text, const std::string& source, Diagnostics& diag)
      : m_reader(text, source), m_diag(diag) {}

  /// The model whose nodes results refer to when the frd has no node block.
  void setModel(const fe::FeModel* m) { m_model = m->nodeCount() > 0 ? m : nullptr; }
  bool parse();
  bool apply(fe::FeModel& out);

 private:
  void error(int line, std::string msg) {
    if (m_errors >= kMaxErrors) return;
    m_diag.error(m_reader.where(line), std::move(msg));
    if (++m_errors >= kMaxErrors) m_diag.error(m_reader.where(line), "too many errors; reading stopped");
  }
  void warning(int line, std::string msg) { m_diag.warning(m_reader.where(line), std::move(msg)); }
  bool stopped() const { return m_errors >= kMaxErrors || m_fatal; }

  /// Reads up to and including the " -3" line; calls record(line) for every other line
  /// (" -1", " -2", ...). Reports a missing " -3". Returns false if the block was not closed.
  template <class F>
  bool readBlock(const char* what, int headerLine, F&& record);

  bool parseInt(std::string_view field, int& v, int line, const char* what) {
    std::string problem;
    if (io::parseInt(field, v, &problem)) return true;
    error(line, std::string(what) + ": " + problem);
    return false;
  }
  bool parseDouble(std::string_view field, double& v, int line, const char* what) {
    std::string problem;
    if (io::parseDouble(field, v, &problem)) return true;
    error(line, std::string(what) + ": " + problem);
    return false;
  }
  int formatFlag(std::string_view field, int line);
  void nodeBlock(std::string_view header, int headerLine);
  void elementBlock(std::string_view header, int headerLine);
  void resultBlock(std::string_view header, int headerLine);

  LineReader m_reader;
  Diagnostics& m_diag;
  int m_errors = 0;
  bool m_fatal = false;

  bool m_haveNodeBlock = false, m_haveElementBlock = false;
  std::vector<int> m_nodeIds;
  std::vector<Eigen::Vector3d> m_coords;
  std::unordered_map<int, int> m_nodeIndex;  ///< frd node id -> index into m_nodeIds
  std::vector<FrdElement> m_elements;
  std::vector<std::pair<int, std::string>> m_materials;  ///< 1UMAT number, name
  std::vector<FrdMode> m_modes;
  // result node universe when the frd has no node block: the model's nodes (set by apply)
  const fe::FeModel* m_model = nullptr;
  bool m_reportedOtherResults = false;
};

template <class F>
bool FrdParser::readBlock(const char* what, int headerLine, F&& record) {
  std::string_view line;
  while (!stopped() && m_reader.next(line)) {
    const std::string_view key = columns(line, 1, 3);
    if (key == " -3") return true;
    if (key == " -1" || key == " -2" || key == " -4" || key == " -5") {
      record(line);
      continue;
    }
    error(m_reader.line(), std::string(what) + " block (line " + std::to_string(headerLine) +
                               ") is not closed by ' -3' before this line");
    m_reader.unread();
    return false;
  }
  if (!stopped())
    error(m_reader.line(), std::string("file ends inside the ") + what + " block of line " + std::to_string(headerLine) +
                               " (truncated file?)");
  return false;
}

int FrdParser::formatFlag(std::string_view field, int line) {
  const std::string_view f = trim(field);
  if (f.empty()) return 1;
  int v = 0;
  if (!parseInt(f, v, line, "format flag")) return -1;
  if (v == 0 || v == 1) return v;
  error(line, "binary or unknown frd format " + std::to_string(v) +
                  " (only ASCII frd files are read: request results with *NODE FILE / *EL FILE)");
  m_fatal = true;
  return -1;
}

bool FrdParser::parse() {
  std::string_view line;
  if (!m_reader.next(line) || columns(line, 1, 6) != "    1C") {
    error(std::max(1, m_reader.line()), "not a CalculiX ASCII .frd file: the first line must be '    1C'");
    return false;
  }
  bool ended = false;
  while (!stopped() && m_reader.next(line)) {
    const int n = m_reader.line();
    const std::string_view key = columns(line, 1, 6);
    if (key == "    1U") {
      if (columns(line, 7, 9) == "MAT") {
        int number = 0;
        if (io::parseInt(columns(line, 10, 14), number))
          m_materials.emplace_back(number, std::string(trim(line.substr(std::min<std::size_t>(14, line.size())))));
      }
      continue;
    }
    if (key == "    1C" || columns(line, 1, 6) == "    1P") continue;
    if (key == "    2C") {
      nodeBlock(line, n);
    } else if (key == "    3C") {
      elementBlock(line, n);
    } else if (key == "  100C") {
      resultBlock(line, n);
    } else if (trim(line) == "9999") {
      ended = true;
      break;
    } else if (trim(line).empty()) {
      continue;
    } else {
      error(n, "unexpected record " + quoteField(line));
      // skip to the next block header or the end
    }
  }
  if (!ended && !stopped())
    error(m_reader.line() + (m_reader.line() == 0), "file ends without the ' 9999' end record (truncated file?)");
  return m_errors == 0;
}

void FrdParser::nodeBlock(std::string_view header, int headerLine) {
  if (m_haveNodeBlock) {
    error(headerLine, "second node block (only one is supported)");
    m_fatal = true;
    return;
  }
  m_haveNodeBlock = true;
  if (!m_modes.empty()) {
    error(headerLine, "node block after result blocks (results must follow the node block)");
    m_fatal = true;
    return;
  }
  int count = 0;
  if (!parseInt(columns(header, 25, 36), count, headerLine, "node block: node count")) {
    m_fatal = true;
    return;
  }
  const int format = formatFlag(columns(header, 37, 74), headerLine);
  if (format < 0) return;
  const std::size_t w = format == 0 ? 5 : 10;
  int records = 0;
  const bool closed = readBlock("node", headerLine, [&](std::string_view line) {
    const int n = m_reader.line();
    if (columns(line, 1, 3) != " -1") {
      error(n, "node block: expected a ' -1' node record");
      return;
    }
    ++records;
    int id = 0;
    Eigen::Vector3d x;
    if (!parseInt(columns(line, 4, 3 + w), id, n, "node id")) return;
    for (std::size_t c = 0; c < 3; ++c) {
      const std::size_t first = 4 + w + 12 * c;
      const std::string_view f = columns(line, first, first + 11);
      if (f.empty()) {
        error(n, "node " + std::to_string(id) + ": expected 3 coordinates");
        return;
      }
      if (!parseDouble(f, x[static_cast<Eigen::Index>(c)], n, ("node " + std::to_string(id)).c_str())) return;
    }
    if (!m_nodeIndex.emplace(id, static_cast<int>(m_nodeIds.size())).second) {
      error(n, "node " + std::to_string(id) + " is listed twice");
      return;
    }
    m_nodeIds.push_back(id);
    m_coords.push_back(x);
  });
  if (closed && records != count)
    error(headerLine, "node block declares " + std::to_string(count) + " nodes but has " + std::to_string(records));
}

void FrdParser::elementBlock(std::string_view header, int headerLine) {
  if (m_haveElementBlock) {
    error(headerLine, "second element block (only one is supported)");
    m_fatal = true;
    return;
  }
  m_haveElementBlock = true;
  int count = 0;
  if (!parseInt(columns(header, 25, 36), count, headerLine, "element block: element count")) {
    m_fatal = true;
    return;
  }
  const int format = formatFlag(columns(header, 37, 74), headerLine);
  if (format < 0) return;
  const std::size_t w = format == 0 ? 5 : 10;
  int records = 0;
  FrdElement* open = nullptr;
  auto closeOpen = [&] {
    if (open && static_cast<int>(open->nodes.size()) != frdNodeCount(open->type)) {
      error(open->line, "element " + std::to_string(open->id) + " (" + frdTypeName(open->type) + ") needs " +
                            std::to_string(frdNodeCount(open->type)) + " nodes, got " + std::to_string(open->nodes.size()));
      m_elements.pop_back();
    }
    open = nullptr;
  };
  const bool closed = readBlock("element", headerLine, [&](std::string_view line) {
    const int n = m_reader.line();
    const std::string_view key = columns(line, 1, 3);
    if (key == " -1") {
      closeOpen();
      ++records;
      FrdElement e;
      e.line = n;
      if (!parseInt(columns(line, 4, 3 + w), e.id, n, "element id")) return;
      if (!parseInt(columns(line, 4 + w, 8 + w), e.type, n, "element type")) return;
      if (frdNodeCount(e.type) == 0) {
        error(n, "element " + std::to_string(e.id) + ": unknown frd element type " + std::to_string(e.type));
        return;
      }
      const std::string_view mat = trim(columns(line, 14 + w, 18 + w));
      if (!mat.empty() && !parseInt(mat, e.material, n, "element material")) return;
      m_elements.push_back(std::move(e));
      open = &m_elements.back();
    } else if (key == " -2") {
      if (!open) {
        error(n, "element block: ' -2' node line without its ' -1' element record");
        return;
      }
      for (std::size_t first = 4; first <= line.size(); first += w) {
        const std::string_view f = columns(line, first, first + w - 1);
        if (trim(f).empty()) break;  // trailing blanks
        int id = 0;
        if (!parseInt(f, id, n, ("element " + std::to_string(open->id) + ": node id").c_str())) {
          m_elements.pop_back();
          open = nullptr;
          return;
        }
        if (static_cast<int>(open->nodes.size()) >= frdNodeCount(open->type)) {
          error(n, "element " + std::to_string(open->id) + " (" + frdTypeName(open->type) + ") has more than " +
                       std::to_string(frdNodeCount(open->type)) + " nodes");
          m_elements.pop_back();
          open = nullptr;
          return;
        }
        open->nodes.push_back(id);
      }
    } else {
      error(n, "element block: unexpected record " + quoteField(line));
    }
  });
  if (closed) closeOpen();
  else open = nullptr;
  if (closed && records != count)
    error(headerLine, "element block declares " + std::to_string(count) + " elements but has " + std::to_string(records));
}

void FrdParser::resultBlock(std::string_view header, int headerLine) {
  double value = 0.0;
  int count = 0;
  if (!parseDouble(columns(header, 13, 24), value, headerLine, "result block: value") ||
      !parseInt(columns(header, 25, 36), count, headerLine, "result block: node count")) {
    m_fatal = true;
    return;
  }
  int analysis = -1;
  if (const std::string_view f = trim(columns(header, 57, 58)); !f.empty() && !parseInt(f, analysis, headerLine, "analysis type")) {
    m_fatal = true;
    return;
  }
  const int format = formatFlag(columns(header, 74, 75), headerLine);
  if (format < 0) {
    m_fatal = true;
    return;
  }
  const std::size_t w = format == 0 ? 5 : 10;

  // " -4" names the quantity
  std::string_view line;
  if (!m_reader.next(line) || columns(line, 1, 3) != " -4") {
    error(m_reader.line(), "result block of line " + std::to_string(headerLine) + ": expected the ' -4' header line");
    m_fatal = true;
    return;
  }
  const std::string name(trim(columns(line, 6, 13)));
  const bool isMode = name == "DISP" && analysis == 2;
  if (!isMode && !m_reportedOtherResults && name == "DISP") {
    m_reportedOtherResults = true;
    m_diag.info(m_reader.where(headerLine), "DISP blocks of non-frequency steps are not mode shapes; skipped");
  }
  FrdMode mode;
  mode.frequency_hz = value;
  mode.line = headerLine;
  std::unordered_map<int, int> modelIndex;
  const std::size_t universe = m_haveNodeBlock ? m_nodeIds.size() : (m_model ? static_cast<std::size_t>(m_model->nodeCount()) : 0);
  if (isMode) {
    if (!m_haveNodeBlock && universe == 0) {
      error(headerLine, "mode shape before any node block");
      m_fatal = true;
      return;
    }
    mode.disp.assign(3 * universe, 0.0);
  }
  std::vector<char> seen(isMode ? universe : 0, 0);
  int records = 0, unknown = 0, firstUnknown = 0;
  const bool closed = readBlock(name.empty() ? "result" : name.c_str(), headerLine, [&](std::string_view rec) {
    const int n = m_reader.line();
    const std::string_view key = columns(rec, 1, 3);
    if (key == " -5" || key == " -2") return;  // component descriptions; continuation values
    if (key == " -4") {
      error(n, "result block of line " + std::to_string(headerLine) + ": second ' -4' header");
      return;
    }
    ++records;
    int id = 0;
    if (!parseInt(columns(rec, 4, 3 + w), id, n, "result node id")) return;
    if (!isMode) return;
    int index = -1;
    if (m_haveNodeBlock) {
      auto it = m_nodeIndex.find(id);
      index = it == m_nodeIndex.end() ? -1 : it->second;
    } else {
      index = m_model->indexOf(id);
    }
    if (index < 0) {
      if (unknown++ == 0) firstUnknown = id;
      return;
    }
    double u[3];
    for (std::size_t c = 0; c < 3; ++c) {
      const std::size_t first = 4 + w + 12 * c;
      const std::string_view f = columns(rec, first, first + 11);
      if (f.empty()) {
        error(n, "DISP of node " + std::to_string(id) + ": expected 3 values");
        return;
      }
      if (!parseDouble(f, u[c], n, ("DISP of node " + std::to_string(id)).c_str())) return;
    }
    if (seen[static_cast<std::size_t>(index)]++) {
      error(n, "DISP: node " + std::to_string(id) + " is listed twice");
      return;
    }
    for (std::size_t c = 0; c < 3; ++c) mode.disp[3 * static_cast<std::size_t>(index) + c] = u[c];
  });
  if (!closed) return;
  if (unknown > 0)
    error(headerLine, "DISP block: " + std::to_string(unknown) + " nodes are not in the node block (first: " +
                          std::to_string(firstUnknown) + ")");
  if (records != count)
    error(headerLine, (name.empty() ? std::string("result") : name) + " block declares " + std::to_string(count) +
                          " nodes but has " + std::to_string(records));
  if (isMode) m_modes.push_back(std::move(mode));
}

bool FrdParser::apply(fe::FeModel& out) {
  const std::string source = m_reader.source();
  const bool fill = out.nodeCount() == 0;
  fe::FeModel filled;  // the frd's mesh when out has none; out stays unchanged on failure
  if (fill) filled = out;
  fe::FeModel& result = fill ? filled : out;

  if (fill) {
    if (!m_haveNodeBlock) {
      m_diag.error(source, "the frd has no node block and the model has no nodes");
      return false;
    }
    for (std::size_t i = 0; i < m_nodeIds.size(); ++i) result.addNode(m_nodeIds[i], m_coords[i]);
    std::unordered_map<int, int> materialIndex;
    for (const auto& [number, name] : m_materials) {
      fe::Material mat;
      mat.name = name;
      materialIndex.emplace(number, static_cast<int>(result.materials.size()));
      result.materials.push_back(mat);
    }
    int skipped = 0, skippedType = 0, skippedLine = 0;
    for (const auto& e : m_elements) {
      fe::Element el;
      if (!modelType(e.type, el.type)) {
        if (skipped++ == 0) {
          skippedType = e.type;
          skippedLine = e.line;
        }
        continue;
      }
      el.id = e.id;
      const auto it = materialIndex.find(e.material);
      el.material = it == materialIndex.end() ? -1 : it->second;
      bool ok = true;
      for (std::size_t i = 0; i < e.nodes.size(); ++i) {
        const std::size_t pos = frdToAbaqus(e.type, i);
        const int index = result.indexOf(e.nodes[i]);
        if (index < 0) {
          error(e.line, "element " + std::to_string(e.id) + " refers to node " + std::to_string(e.nodes[i]) +
                            ", which is not in the node block");
          ok = false;
          break;
        }
        el.nodes[pos] = index;
      }
      if (ok) result.elements.push_back(el);
    }
    if (skipped > 0)
      m_diag.warning(m_reader.where(skippedLine), std::to_string(skipped) + " elements of types the FE model cannot hold (first: " +
                                                      frdTypeName(skippedType) + ") are skipped");
  } else {
    // the frd must describe the same mesh as the model
    Eigen::Vector3d lo = out.coords.front(), hi = out.coords.front();
    for (const auto& x : out.coords) {
      lo = lo.cwiseMin(x);
      hi = hi.cwiseMax(x);
    }
    const double size = std::max((hi - lo).maxCoeff(), 1e-300);
    int missing = 0, moved = 0;
    for (std::size_t i = 0; i < m_nodeIds.size(); ++i) {
      const int index = out.indexOf(m_nodeIds[i]);
      if (index < 0) {
        if (missing++ < kMaxReported)
          m_diag.error(source, "node " + std::to_string(m_nodeIds[i]) + " of the frd is not in the model");
        continue;
      }
      const Eigen::Vector3d& x = out.coords[static_cast<std::size_t>(index)];
      const Eigen::Vector3d d = (m_coords[i] - x).cwiseAbs();
      const Eigen::Vector3d tol = 1e-5 * x.cwiseAbs() + Eigen::Vector3d::Constant(1e-9 * size);
      if ((d.array() > tol.array()).any() && moved++ < kMaxReported) {
        char buf[256];
        std::snprintf(buf, sizeof buf, "node %d: frd coordinates (%.6g, %.6g, %.6g) differ from the model's (%.9g, %.9g, %.9g)",
                      m_nodeIds[i], m_coords[i].x(), m_coords[i].y(), m_coords[i].z(), x.x(), x.y(), x.z());
        m_diag.error(source, buf);
      }
    }
    std::unordered_map<int, int> elementIndex;
    for (std::size_t i = 0; i < out.elements.size(); ++i) elementIndex.emplace(out.elements[i].id, static_cast<int>(i));
    int badElements = 0, unsupported = 0;
    for (const auto& e : m_elements) {
      fe::ElementType t;
      const auto it = elementIndex.find(e.id);
      if (!modelType(e.type, t)) {
        if (it == elementIndex.end()) {
          ++unsupported;
          continue;
        }
      }
      std::string problem;
      if (it == elementIndex.end()) {
        problem = "element " + std::to_string(e.id) + " of the frd is not in the model";
      } else {
        const fe::Element& el = out.elements[static_cast<std::size_t>(it->second)];
        if (!modelType(e.type, t) || frdFamily(t) != frdFamily(el.type)) {
          problem = "element " + std::to_string(e.id) + ": frd type " + frdTypeName(e.type) + " differs from the model's " +
                    fe::abaqusName(el.type);
        } else {
          for (std::size_t i = 0; i < e.nodes.size(); ++i) {
            const std::size_t pos = frdToAbaqus(e.type, i);
            if (out.node_ids[static_cast<std::size_t>(el.nodes[pos])] != e.nodes[i]) {
              problem = "element " + std::to_string(e.id) + ": frd nodes differ from the model's";
              break;
            }
          }
        }
      }
      if (!problem.empty() && badElements++ < kMaxReported) m_diag.error(m_reader.where(e.line), problem);
    }
    if (unsupported > 0)
      m_diag.info(source, std::to_string(unsupported) + " frd elements of types the FE model cannot hold are not checked");
    if (missing > kMaxReported || moved > kMaxReported || badElements > kMaxReported)
      m_diag.error(source, "frd and model differ: " + std::to_string(missing) + " missing nodes, " + std::to_string(moved) +
                               " moved nodes, " + std::to_string(badElements) + " different elements");
    if (missing + moved + badElements > 0) return false;
  }
  if (m_errors > 0) return false;

  // modes: node-major rows in result's node order
  const Eigen::Index n = result.nodeCount();
  Eigen::MatrixXd modes = Eigen::MatrixXd::Zero(3 * n, static_cast<Eigen::Index>(m_modes.size()));
  std::vector<double> frequencies;
  std::vector<int> target;  // universe index -> result node index
  if (m_haveNodeBlock) {
    target.resize(m_nodeIds.size());
    for (std::size_t i = 0; i < m_nodeIds.size(); ++i) target[i] = result.indexOf(m_nodeIds[i]);
  } else {
    target.resize(static_cast<std::size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i) target[static_cast<std::size_t>(i)] = static_cast<int>(i);
  }
  for (std::size_t k = 0; k < m_modes.size(); ++k) {
    const auto& mode = m_modes[k];
    if (mode.disp.size() != 3 * target.size()) {  // cannot happen: nodes come before results
      m_diag.error(m_reader.where(mode.line), "internal error: mode shape size");
      return false;
    }
    for (std::size_t i = 0; i < target.size(); ++i)
      for (std::size_t c = 0; c < 3; ++c)
        modes(3 * target[i] + static_cast<Eigen::Index>(c), static_cast<Eigen::Index>(k)) = mode.disp[3 * i + c];
    frequencies.push_back(mode.frequency_hz);
  }
  if (!fill && m_haveNodeBlock && static_cast<Eigen::Index>(m_nodeIds.size()) < n && !m_modes.empty())
    m_diag.info(source, std::to_string(n - static_cast<Eigen::Index>(m_nodeIds.size())) +
                            " model nodes have no results in the frd (nodes without elements); their mode rows are zero");
  if (m_modes.empty()) m_diag.info(source, "no mode shapes (DISP blocks of a frequency step) in the file");
  if (fill) out = std::move(filled);
  out.modes = std::move(modes);
  out.frequencies_hz = std::move(frequencies);
  out.sources.push_back(source);
  return true;
}

}  // namespace

bool readCalculixFrdFromString(std::string_view text, const std::string& source, fe::FeModel& out, Diagnostics& diag) {
  FrdParser p(text, source, diag);
  p.setModel(&out);
  if (!p.parse()) return false;
  return p.apply(out);
}

bool readCalculixFrd(const std::string& path, fe::FeModel& out, Diagnostics& diag) {
  std::string text;
  if (!readTextFile(path, text, diag)) return false;
  return readCalculixFrdFromString(text, path, out, diag);
}

}  // namespace flexim::io
