// CalculiX / Abaqus .inp mesh: the *ELEMENT keyword line (solid, discrete and skipped element
// types) and the data lines of *NODE and *ELEMENT (element node lists may continue on the next
// line).
#include "io/fe/calculix_inp_parser.h"
#include "io/fe/line_reader.h"

#include <algorithm>
#include <set>
#include <string>

namespace flexim::io::inp_detail {

namespace {

// Discrete element types that go into K and M (DASHPOTA is read only to say it is skipped).
const std::set<std::string, std::less<>> kDiscreteTypes{"MASS", "ROTARYI", "SPRINGA", "SPRING1", "SPRING2", "DASHPOTA"};

/// Element types of Abaqus/CalculiX that are not 3-D continuum elements: their blocks are
/// skipped with a warning (gmsh writes CPS6/CPS8 blocks for physical surfaces).
bool isNonSolidType(std::string_view t) {
  static const char* kPrefixes[] = {"CPS", "CPE", "CPEG", "CAX", "CGAX", "S3", "S4", "S6", "S8", "SC",
                                    "M3D", "B2", "B3", "PIPE", "T2D", "T3D", "SPRING", "DASHPOT",
                                    "MASS", "ROTARYI", "GAP", "DCOUP", "CONN", "R3D", "R2D", "F3D"};
  for (const char* p : kPrefixes)
    if (startsWith(t, p)) return true;
  return false;
}

/// 3-D continuum types the FE model has no element for (hybrid, modified, thermal-coupled, heat
/// transfer): errors, because skipping them would lose stiffness and mass.
bool isUnsupportedSolidType(std::string_view t) {
  return startsWith(t, "C3D") || startsWith(t, "DC3D") || startsWith(t, "COH3D");
}

}  // namespace

void Parser::startElementBlock(const Keyword& k, Loc loc) {
  const std::string* type = k.get("TYPE");
  m_blockSet = nullptr;
  if (!type || trim(*type).empty()) {
    error(loc, "*ELEMENT needs TYPE=<element type>");
    m_block = Block::SkipElement;
    return;
  }
  const std::string upper = toUpper(trim(*type));
  if (kDiscreteTypes.count(upper)) {
    m_block = Block::DiscreteElement;
    m_discreteType = upper;
    if (upper == "DASHPOTA")
      warning(loc, "element type DASHPOTA: dampers are not modelled (modal damping is set on the flexible body); "
                   "its elements are skipped");
    if (const std::string* s = k.get("ELSET"); s && !trim(*s).empty()) m_blockSet = &pendingSet(true, toUpper(trim(*s)), loc);
    return;
  }
  if (!fe::fromAbaqusName(upper, m_elementType)) {
    m_block = Block::SkipElement;
    // the set exists (empty), so that references to it stay valid
    if (const std::string* s = k.get("ELSET"); s && !trim(*s).empty()) pendingSet(true, toUpper(trim(*s)), loc);
    if (isNonSolidType(upper))
      warning(loc, "element type " + upper + " is not a solid element; its elements are skipped");
    else if (isUnsupportedSolidType(upper))
      error(loc, "element type " + upper + " is not supported (supported: " + fe::abaqusNames() + ")");
    else
      error(loc, "unknown element type " + quoteField(upper));
    return;
  }
  if (k.has("INPUT")) {
    error(loc, "*ELEMENT, INPUT=: reading element data from another file is not supported; use *INCLUDE");
    m_block = Block::SkipElement;
    return;
  }
  m_block = Block::Element;
  if (const std::string* s = k.get("ELSET"); s && !trim(*s).empty()) m_blockSet = &pendingSet(true, toUpper(trim(*s)), loc);
}

// ============================== data lines ===============================================

void Parser::endBlock() {
  if (m_elemOpen) {
    error(m_elemLoc, "element " + std::to_string(m_elemBuf[0]) + ": " + fe::abaqusName(m_elementType) + " needs " +
                         std::to_string(fe::nodeCount(m_elementType)) + " nodes, got " + std::to_string(m_elemHave - 1));
    m_elemOpen = false;
  }
  m_elemHave = 0;
}

void Parser::nodeLine(Loc loc) {
  std::string problem;
  int id = 0;
  if (!parseInt(m_fields[0], id, &problem)) {
    error(loc, "*NODE: node id: " + problem);
    return;
  }
  if (id <= 0) {
    error(loc, "*NODE: node id " + std::to_string(id) + " must be positive");
    return;
  }
  Eigen::Vector3d x = Eigen::Vector3d::Zero();
  const std::size_t n = std::min<std::size_t>(m_fields.size(), 4);
  for (std::size_t i = 1; i < n; ++i) {
    if (m_fields[i].empty()) continue;  // blank field = 0
    checkFieldWidth(m_fields[i], loc);
    if (!parseDouble(m_fields[i], x[static_cast<Eigen::Index>(i - 1)], &problem)) {
      error(loc, "node " + std::to_string(id) + ": " + problem);
      return;
    }
  }
  if (m_fields.size() > 4 && !m_extraNodeValuesReported) {
    bool extra = false;
    for (std::size_t i = 4; i < m_fields.size(); ++i) extra = extra || !m_fields[i].empty();
    if (extra) {
      m_extraNodeValuesReported = true;
      warning(loc, "*NODE: values after the z coordinate are ignored");
    }
  }
  const int index = m_model.addNode(id, x);
  if (index < 0) {
    const int old = m_model.indexOf(id);
    warning(loc, "node " + std::to_string(id) + " is defined again (first at " +
                     where(m_nodeLoc[static_cast<std::size_t>(old)]) + "); the new coordinates are used");
    m_model.coords[static_cast<std::size_t>(old)] = x;
    return;
  }
  m_nodeLoc.push_back(loc);
  if (m_blockSet) m_blockSet->items.push_back({id, id, 1, false, loc});
}

void Parser::elementLine(std::string_view line, Loc loc) {
  const int need = fe::nodeCount(m_elementType) + 1;
  // split on commas into the element buffer, ignoring empty fields
  std::string problem;
  int onLine = 0;
  if (!m_elemOpen) {
    m_elemHave = 0;
    m_elemLoc = loc;
  }
  const bool trailingComma = !line.empty() && line.back() == ',';  // line is trimmed
  std::size_t start = 0;
  int extra = 0;  // entries after the element's last node: ccx ignores them
  for (;;) {
    std::size_t p = line.find(',', start);
    const bool last = p == std::string_view::npos;
    if (last) p = line.size();
    const std::string_view f = trim(line.substr(start, p - start));
    start = p + 1;
    if (!f.empty() && m_elemHave >= need) {
      ++extra;
    } else if (!f.empty()) {
      ++onLine;
      int v = 0;
      if (!parseInt(f, v, &problem)) {
        error(loc, m_elemHave == 0 ? "*ELEMENT: element id: " + problem
                                   : "element " + std::to_string(m_elemBuf[0]) + ": node " + problem);
        m_elemOpen = false;
        m_elemHave = 0;
        return;
      }
      m_elemBuf[static_cast<std::size_t>(m_elemHave++)] = v;
    }
    if (last) break;
  }
  if (extra > 0 && m_extraEntries++ == 0)
    warning(loc, "element " + std::to_string(m_elemBuf[0]) + ": " + fe::abaqusName(m_elementType) + " has " +
                     std::to_string(need - 1) + " nodes; the " + std::to_string(extra) +
                     " extra entries of the line are ignored (as ccx does)");
  if (m_elemHave == 0) return;
  if (m_elemHave < need) {
    // continued on the next line?
    if (trailingComma || onLine >= kMaxFieldsPerDataLine) {
      m_elemOpen = true;
      return;
    }
    error(m_elemLoc, "element " + std::to_string(m_elemBuf[0]) + ": " + fe::abaqusName(m_elementType) + " needs " +
                         std::to_string(need - 1) + " nodes, got " + std::to_string(m_elemHave - 1));
    m_elemOpen = false;
    m_elemHave = 0;
    return;
  }
  m_elemOpen = false;
  m_elemHave = 0;
  const int id = m_elemBuf[0];
  if (id <= 0) {
    error(m_elemLoc, "element id " + std::to_string(id) + " must be positive");
    return;
  }
  if (auto it = m_elementIndex.find(id); it != m_elementIndex.end()) {
    error(m_elemLoc, "element " + std::to_string(id) + " is defined twice (first at " +
                         where(m_elementLoc[static_cast<std::size_t>(it->second)]) + ")");
    return;
  }
  fe::Element e;
  e.id = id;
  e.type = m_elementType;
  for (int i = 1; i < need; ++i) e.nodes[static_cast<std::size_t>(i - 1)] = m_elemBuf[static_cast<std::size_t>(i)];  // ids for now
  m_elementIndex.emplace(id, static_cast<int>(m_model.elements.size()));
  m_model.elements.push_back(e);
  m_elementLoc.push_back(m_elemLoc);
  if (m_blockSet) m_blockSet->items.push_back({id, id, 1, false, m_elemLoc});
}

}  // namespace flexim::io::inp_detail
