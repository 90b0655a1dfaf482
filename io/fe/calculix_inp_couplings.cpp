// CalculiX / Abaqus .inp couplings: *SURFACE (element faces or nodes), *RIGID BODY and *COUPLING
// with *KINEMATIC / *DISTRIBUTING, into FeModel::couplings: a Craig-Bampton interface when named
// as one, else applied as linear constraints (linear_constraints.h).
#include "io/fe/calculix_inp_parser.h"

#include "core/fe/surface.h"
#include "io/fe/line_reader.h"

#include <cctype>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace flexim::io::inp_detail {

// ============================== surfaces and couplings ===================================

void Parser::startSurface(const Keyword& k, Loc loc) {
  const std::string* name = k.get("NAME");
  if (!name || trim(*name).empty()) {
    error(loc, "*SURFACE needs NAME=<name>");
    return;
  }
  const std::string* type = k.get("TYPE");
  const std::string upperType = type ? toUpper(trim(*type)) : std::string("ELEMENT");
  if (upperType != "ELEMENT" && upperType != "NODE") {
    info(loc, "*SURFACE, TYPE=" + *type + ": only element-face and node surfaces can be read; skipped");
    return;
  }
  const std::string upper = toUpper(trim(*name));
  if (auto it = m_surfaces.find(upper); it != m_surfaces.end()) {
    error(loc, "surface " + upper + " is defined twice (first at " + where(it->second.defined) + ")");
    return;
  }
  PendingSurface& s = m_surfaces[upper];
  s.name = upper;
  s.defined = loc;
  s.nodes = upperType == "NODE";
  m_surface = &s;
  m_block = Block::Surface;
}

/// "ELSET or element id, S<face>" (element faces) or "NSET or node id[, area]" (TYPE=NODE). Kept
/// as written: a surface of shells or beams is no error unless a coupling uses it.
void Parser::surfaceLine(Loc loc) {
  PendingSurface::Entry e;
  e.loc = loc;
  const std::string_view first = trim(m_fields[0]);
  if (!parseInt(first, e.id)) e.set = toUpper(unquote(first));
  if (!m_surface->nodes && m_fields.size() > 1) {
    e.label = toUpper(trim(m_fields[1]));
    if (e.label.size() == 2 && e.label[0] == 'S' && e.label[1] >= '1' && e.label[1] <= '6') e.face = e.label[1] - '0';
  }
  m_surface->entries.push_back(std::move(e));
}

void Parser::startCoupling(const Keyword& k, Loc loc) {
  PendingCoupling c;
  c.keyword = m_blockName;
  c.loc = loc;
  std::string problem;
  for (const auto& [param, slot, set] : {std::tuple<const char*, int*, std::string*>{"REF NODE", &c.ref, &c.refSet},
                                         {"ROT NODE", &c.rot, &c.rotSet}}) {
    const std::string* v = k.get(param);
    if (!v || parseInt(*v, *slot, &problem)) continue;
    const std::string name = toUpper(trim(unquote(*v)));
    // a node number, or the name of a node set holding one node (checked when the sets are known)
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) || name[0] == '-' || name[0] == '+') {
      error(loc, c.keyword + ", " + param + "=: " + problem);
      return;
    }
    *set = name;
  }
  if (k.name == "RIGID BODY") {
    const std::string* nset = k.get("NSET");
    const std::string* elset = k.get("ELSET");
    if (!nset == !elset || trim(nset ? *nset : *elset).empty()) {
      error(loc, "*RIGID BODY needs NSET=<set> or ELSET=<set> (one of them)");
      return;
    }
    c.source = nset ? 'N' : 'E';
    c.set = toUpper(trim(nset ? *nset : *elset));
    c.name = "RIGID BODY " + c.set;
    if (c.ref == 0 && c.refSet.empty()) {
      modelChange(loc, "RIGID BODY without REF NODE", "*RIGID BODY without REF NODE not applied",
                  "*RIGID BODY, " + std::string(nset ? "NSET=" : "ELSET=") + c.set +
                      " has no REF NODE: ccx makes its own reference node, which Flexim cannot offer as an interface "
                      "(give REF NODE=); the rigid body is not applied");
      return;
    }
  } else {
    const std::string* name = k.get("CONSTRAINT NAME");
    const std::string* surface = k.get("SURFACE");
    if (!name || trim(*name).empty() || !surface || trim(*surface).empty() || (c.ref == 0 && c.refSet.empty())) {
      error(loc, "*COUPLING needs CONSTRAINT NAME=<name>, REF NODE=<node> and SURFACE=<surface>");
      return;
    }
    c.source = 'S';
    c.set = toUpper(trim(*surface));
    c.name = toUpper(trim(*name));
    m_couplingOpen = true;  // *KINEMATIC or *DISTRIBUTING must follow
  }
  for (const PendingCoupling& other : m_couplings)
    if (other.name == c.name) {
      error(loc, "coupling " + c.name + " is defined twice (first at " + where(other.loc) + ")");
      m_couplingOpen = false;
      return;
    }
  m_couplings.push_back(std::move(c));
}

/// A data line of *KINEMATIC / *DISTRIBUTING: first DOF[, last DOF].
void Parser::couplingDofLine(Loc loc) {
  PendingCoupling& c = m_couplings.back();
  int range[2] = {0, 0};
  std::string problem;
  for (std::size_t i = 0; i < 2 && i < m_fields.size(); ++i) {
    if (trim(m_fields[i]).empty()) continue;
    if (!parseInt(m_fields[i], range[i], &problem) || range[i] < 1 || range[i] > 6) {
      error(loc, m_blockName + ": degree of freedom " + quoteField(m_fields[i]) + " must be 1 ... 6");
      return;
    }
  }
  if (range[0] == 0) {
    error(loc, m_blockName + " needs the first degree of freedom");
    return;
  }
  if (range[1] == 0) range[1] = range[0];
  for (int d = range[0]; d <= range[1]; ++d) c.dofs |= 1u << (d - 1);
}

/// A *COUPLING that no *KINEMATIC or *DISTRIBUTING follows defines nothing.
void Parser::closeCoupling() {
  m_couplingOpen = false;
  const PendingCoupling& c = m_couplings.back();
  warning(c.loc, "*COUPLING " + c.name + ": no *KINEMATIC or *DISTRIBUTING follows; skipped");
  m_couplings.pop_back();
}

/// The attached nodes of a coupling, in order of first appearance, without its reference and
/// rotation nodes; false (with an error) if its set or surface is not defined.
bool Parser::couplingNodes(const fe::FeModel& m, const PendingCoupling& c, std::vector<int>& nodes) {
  std::vector<char> seen(static_cast<std::size_t>(m.nodeCount()), 0);
  for (const int id : {c.ref, c.rot})
    if (const int index = m.indexOf(id); index >= 0) seen[static_cast<std::size_t>(index)] = 1;
  auto add = [&](int index) {
    // an element of a broken deck may name a node index outside the model: not a node to attach
    if (index >= 0 && static_cast<std::size_t>(index) < seen.size() && !seen[static_cast<std::size_t>(index)]) {
      seen[static_cast<std::size_t>(index)] = 1;
      nodes.push_back(index);
    }
  };
  auto addElement = [&](int e, int face) {  // face 0: every node
    const fe::Element& el = m.elements[static_cast<std::size_t>(e)];
    if (face == 0)
      for (int i = 0; i < fe::nodeCount(el.type); ++i) add(el.nodes[static_cast<std::size_t>(i)]);
    else
      for (int n : fe::faceNodes(el, face)) add(n);
  };
  const std::string what = c.keyword + " " + c.name;
  if (c.source == 'N' || c.source == 'E') {
    const auto& sets = c.source == 'N' ? m.node_sets : m.element_sets;
    const auto set = sets.find(c.set);
    if (set == sets.end()) {
      error(c.loc, what + ": " + (c.source == 'N' ? "node" : "element") + " set " + c.set + " is not defined");
      return false;
    }
    for (int i : set->second)
      if (c.source == 'N') add(i);
      else addElement(i, 0);
    return true;
  }
  std::vector<int> surfaceNodes;
  std::vector<std::pair<int, int>> faces;
  if (!surfaceMembers(m, c.set, c.loc, what, surfaceNodes, faces)) return false;
  for (int n : surfaceNodes) add(n);
  for (const auto& [el, face] : faces) addElement(el, face);
  return !m_gaveUp;
}

bool Parser::surfaceMembers(const fe::FeModel& m, const std::string& name, Loc loc, const std::string& what,
                            std::vector<int>& nodes, std::vector<std::pair<int, int>>& faces) {
  const auto surface = m_surfaces.find(name);
  if (surface == m_surfaces.end()) {
    error(loc, what + ": surface " + name + " is not defined");
    return false;
  }
  const PendingSurface& s = surface->second;
  for (const PendingSurface::Entry& e : s.entries) {
    const std::string entry = e.set.empty() ? std::to_string(e.id) : e.set;
    if (e.set.empty() && e.id <= 0) {
      error(e.loc, "*SURFACE " + s.name + ": the first entry must be " +
                       (s.nodes ? "a node set or node id" : "an element set or element id"));
      continue;
    }
    if (!s.nodes && e.face == 0) {
      error(e.loc, "*SURFACE " + s.name + ": " +
                       (e.label.empty() ? std::string("the face label (S1 ... S6) is missing")
                                        : "face " + quoteField(e.label) + " is not one of S1 ... S6 (solid element faces)"));
      continue;
    }
    if (s.nodes) {
      if (e.set.empty()) {
        if (m.indexOf(e.id) < 0) error(e.loc, "*SURFACE " + s.name + ": node " + entry + " is not defined");
        else nodes.push_back(m.indexOf(e.id));
      } else if (const auto set = m.node_sets.find(e.set); set != m.node_sets.end()) {
        nodes.insert(nodes.end(), set->second.begin(), set->second.end());
      } else {
        error(e.loc, "*SURFACE " + s.name + ": node set " + entry + " is not defined");
      }
      continue;
    }
    std::vector<int> elements;
    if (e.set.empty()) {
      if (const auto it = m_elementIndex.find(e.id); it != m_elementIndex.end()) elements.push_back(it->second);
      else if (m_skippedElementIds.count(e.id)) warning(e.loc, "*SURFACE " + s.name + ": element " + entry + " is a skipped non-solid element; left out");
      else error(e.loc, "*SURFACE " + s.name + ": element " + entry + " is not defined");
    } else if (const auto set = m.element_sets.find(e.set); set != m.element_sets.end()) {
      elements = set->second;
    } else {
      error(e.loc, "*SURFACE " + s.name + ": element set " + entry + " is not defined");
    }
    for (int el : elements) {
      if (fe::faceNodes(m.elements[static_cast<std::size_t>(el)], e.face).empty()) {
        error(e.loc, "*SURFACE " + s.name + ": element " + std::to_string(m.elements[static_cast<std::size_t>(el)].id) + " (" +
                         fe::abaqusName(m.elements[static_cast<std::size_t>(el)].type) + ") has no face S" +
                         std::to_string(e.face));
        break;
      }
      faces.emplace_back(el, e.face);
    }
  }
  return !m_gaveUp;
}

/// Pending couplings -> FeModel::couplings.
void Parser::couplings(fe::FeModel& m) {
  if (m_couplingOpen) closeCoupling();
  std::string names;
  for (PendingCoupling c : m_couplings) {
    // REF NODE= / ROT NODE= naming a node set: its one node
    bool named = true;
    for (const auto& [param, slot, set] : {std::tuple<const char*, int*, const std::string*>{"REF NODE", &c.ref, &c.refSet},
                                           {"ROT NODE", &c.rot, &c.rotSet}}) {
      if (set->empty()) continue;
      const auto it = m.node_sets.find(*set);
      if (it == m.node_sets.end() || it->second.size() != 1) {
        error(c.loc, c.keyword + " " + c.name + ": " + param + "=" + *set +
                         (it == m.node_sets.end() ? " is neither a node number nor a defined node set"
                                                  : " names a node set of " + std::to_string(it->second.size()) +
                                                        " nodes; it must hold exactly one"));
        named = false;
        continue;
      }
      *slot = m.node_ids[static_cast<std::size_t>(it->second.front())];
    }
    if (!named) continue;
    fe::Coupling out;
    out.name = c.name;
    out.rigid = c.rigid;
    out.where = where(c.loc);
    out.reference_node = m.indexOf(c.ref);
    if (out.reference_node < 0) {
      error(c.loc, c.keyword + " " + c.name + ": REF NODE " + std::to_string(c.ref) + " is not defined");
      continue;
    }
    const int errors = m_errors;
    if (!couplingNodes(m, c, out.nodes) || m_errors > errors) continue;
    if (out.nodes.empty()) {
      warning(c.loc, c.keyword + " " + c.name + " attaches no node (its set is empty); skipped");
      continue;
    }
    // solid nodes have translations only: a kinematic coupling of DOFs 1-3 already ties them
    // rigidly to the reference node's translation and rotation
    const unsigned wanted = c.rigid ? 07u : 077u;
    if (c.keyword == "*COUPLING" && c.dofs != 0 && (c.dofs & wanted) != wanted)
      warning(c.loc, "*COUPLING " + c.name + " does not couple all DOFs " + (c.rigid ? "1-3" : "1-6") +
                         "; as an interface it ties all six DOFs of the reference node");
    if (m.indexOf(c.rot) < 0 && c.rot != 0) warning(c.loc, c.keyword + ": ROT NODE " + std::to_string(c.rot) + " is not defined");
    names += (names.empty() ? "" : ", ") + c.name;
    m.couplings.push_back(std::move(out));
  }
  if (m.couplings.empty()) return;
  const std::size_t n = m.couplings.size();
  const std::string count = std::to_string(n) + (n == 1 ? " coupling" : " couplings");
  info(m_couplings.front().loc, count + " (" + names + ") read: " + (n == 1 ? "it is" : "each is") +
                                    " a Craig-Bampton interface when named as one, by name or reference node id "
                                    "(--interface \"" + m.couplings.front().name + "\"; `flexim-cli info` lists them), "
                                    "else applied as the deck defines it");
}

}  // namespace flexim::io::inp_detail
