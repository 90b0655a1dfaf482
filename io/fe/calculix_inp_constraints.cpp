// CalculiX / Abaqus .inp linear constraints: *EQUATION (homogeneous linear equations between
// DOFs) and *TIE (slave nodes tied to master faces), into FeModel::constraints.
#include "io/fe/calculix_inp_parser.h"

#include "core/fe/surface.h"
#include "core/fe/tie.h"
#include "io/fe/line_reader.h"

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace flexim::io::inp_detail {

/// The first line of an equation is its number of terms; then (node, DOF, coefficient) triples,
/// at most four per line, until that many are read.
void Parser::equationLine(Loc loc) {
  PendingEquation* eq = &m_equations.back();
  if (eq->count > 0 && static_cast<int>(eq->terms.size()) >= eq->count) {  // the next equation
    m_equations.push_back({loc, 0, {}});
    eq = &m_equations.back();
  }
  std::string problem;
  if (eq->count == 0) {
    int count = 0;
    if (!parseInt(trim(m_fields[0]), count, &problem) || count < 1) {
      error(loc, "*EQUATION: the first line of an equation is its number of terms (a positive integer), not " +
                     quoteField(m_fields[0]));
      m_block = Block::Skip;
      return;
    }
    eq->count = count;
    eq->loc = loc;
    return;
  }
  std::size_t fields = m_fields.size();
  while (fields > 0 && trim(m_fields[fields - 1]).empty()) --fields;  // a trailing comma
  if (fields % 3 != 0) {
    error(loc, "*EQUATION: give each term as node, degree of freedom, coefficient");
    m_block = Block::Skip;
    return;
  }
  for (std::size_t i = 0; i + 2 < fields; i += 3) {
    PendingEquation::Term t;
    t.node = toUpper(trim(m_fields[i]));
    t.loc = loc;
    if (!parseInt(trim(m_fields[i + 1]), t.dof, &problem) || !parseDouble(trim(m_fields[i + 2]), t.coefficient, &problem)) {
      error(loc, "*EQUATION: " + problem);
      m_block = Block::Skip;
      return;
    }
    eq->terms.push_back(std::move(t));
  }
}

void Parser::startTie(const Keyword& k, Loc loc) {
  PendingTie t;
  t.loc = loc;
  const std::string* name = k.get("NAME");
  t.name = name ? toUpper(trim(*name)) : std::string();
  if (const std::string* type = k.get("TYPE")) {  // CYCLIC SYMMETRY, MULTISTAGE, FLUID CYCLIC
    modelChange(loc, "TIE TYPE", "*TIE, TYPE=" + *type + ": not applied",
                "*TIE, TYPE=" + *type + " is not supported (only plain tied surfaces are); the reduced model differs "
                                        "from the deck");
    m_block = Block::Skip;
    return;
  }
  if (const std::string* tolerance = k.get("POSITION TOLERANCE")) {
    std::string problem;
    if (!parseDouble(trim(*tolerance), t.tolerance, &problem) || !(t.tolerance > 0)) {
      error(loc, "*TIE: POSITION TOLERANCE must be a positive length, not " + quoteField(*tolerance));
      return;
    }
  }
  if (const std::string* adjust = k.get("ADJUST")) t.adjust = toUpper(trim(*adjust)) != "NO";
  m_ties.push_back(std::move(t));
  m_block = Block::Tie;
}

void Parser::tieLine(Loc loc) {
  PendingTie& t = m_ties.back();
  if (!t.slave.empty()) {
    warning(loc, "*TIE " + t.name + ": one data line (slave surface, master surface) is read; this one is skipped");
    return;
  }
  if (m_fields.size() < 2 || trim(m_fields[0]).empty() || trim(m_fields[1]).empty()) {
    error(loc, "*TIE " + t.name + ": the data line is: slave surface, master surface");
    return;
  }
  t.slave = toUpper(unquote(trim(m_fields[0])));
  t.master = toUpper(unquote(trim(m_fields[1])));
}

/// Pending ties -> FeModel::constraints (slave nodes projected on the master faces, as ccx does).
void Parser::ties(fe::FeModel& m) {
  if (m_errors > 0 || m_gaveUp) return;  // element nodes may be unresolved
  for (const PendingTie& t : m_ties) {
    const std::string what = "*TIE " + t.name;
    if (t.slave.empty()) {
      error(t.loc, what + ": no data line (slave surface, master surface)");
      continue;
    }
    std::vector<int> slaveNodes, masterNodes;
    std::vector<std::pair<int, int>> slaveFaces, masterFaces;
    if (!surfaceMembers(m, t.slave, t.loc, what, slaveNodes, slaveFaces) ||
        !surfaceMembers(m, t.master, t.loc, what, masterNodes, masterFaces))
      continue;
    if (!masterNodes.empty() || masterFaces.empty()) {
      error(t.loc, what + ": the master surface " + t.master + " must be made of element faces (S1 ... S6)");
      continue;
    }
    for (const auto& [el, face] : slaveFaces)
      for (int n : fe::faceNodes(m.elements[static_cast<std::size_t>(el)], face)) slaveNodes.push_back(n);
    const fe::TieResult r = fe::tieNodesToFaces(m, "*TIE " + t.name, where(t.loc), slaveNodes, masterFaces, t.tolerance);
    char text[320];
    std::snprintf(text, sizeof text,
                  "%s: %d slave nodes tied to %zu master faces (position tolerance %.3g m; slave nodes moved onto "
                  "their faces by up to %.3g m%s)%s",
                  what.c_str(), r.tied, masterFaces.size(), r.tolerance, r.largest_move,
                  t.adjust ? "" : ", although ADJUST=NO: a gap would resist the body's rigid rotation",
                  r.shared ? ("; " + std::to_string(r.shared) + " slave nodes are master-face nodes too (connected already)").c_str()
                           : "");
    info(t.loc, text);
    if (r.tied == 0)
      warning(t.loc, what + ": no slave node lies within the position tolerance of the master surface: nothing is tied");
    else if (!r.outside.empty()) {
      std::string ids;
      for (std::size_t i = 0; i < r.outside.size() && i < 10; ++i)
        ids += (i ? ", " : "") + std::to_string(m.node_ids[static_cast<std::size_t>(r.outside[i])]);
      warning(t.loc, what + ": " + std::to_string(r.outside.size()) +
                         " slave nodes are farther than the position tolerance from every master face and are not tied (" +
                         ids + (r.outside.size() > 10 ? ", ..." : "") + ")");
    }
  }
}

/// Pending equations -> FeModel::constraints. Rotational DOFs (4-6) belong to beam or shell nodes,
/// which a solid model does not have: such an equation is left out as a change of the model.
void Parser::equations(fe::FeModel& m) {
  for (const PendingEquation& eq : m_equations) {
    if (eq.count == 0) continue;
    if (static_cast<int>(eq.terms.size()) != eq.count) {
      error(eq.loc, "*EQUATION: " + std::to_string(eq.count) + " terms announced, " + std::to_string(eq.terms.size()) +
                        " given");
      continue;
    }
    fe::LinearConstraint c;
    c.label = "*EQUATION";
    c.where = where(eq.loc);
    bool usable = true;
    for (const PendingEquation::Term& t : eq.terms) {
      int id = 0, node = -1;
      if (parseInt(t.node, id)) {
        node = m.indexOf(id);
      } else if (const auto set = m.node_sets.find(t.node); set != m.node_sets.end() && set->second.size() == 1) {
        node = set->second.front();
      } else {
        error(t.loc, "*EQUATION: " + quoteField(t.node) + " is not a node id (or a node set of one node)");
        usable = false;
        break;
      }
      if (node < 0) {
        error(t.loc, "*EQUATION: node " + t.node + " is not defined");
        usable = false;
        break;
      }
      if (t.dof >= 4 && t.dof <= 6) {
        modelChange(eq.loc, "EQUATION ROTATION", "*EQUATION: equations with rotational DOFs not applied",
                    "*EQUATION with a rotational degree of freedom (4 ... 6, of beam or shell nodes, which are not "
                    "imported) is not applied; the reduced model differs from the deck");
        usable = false;
        break;
      }
      if (t.dof < 1 || t.dof > 3) {  // temperature (11) and the like: not a mechanical constraint
        info(t.loc, "*EQUATION on degree of freedom " + std::to_string(t.dof) + " (not a displacement) skipped");
        usable = false;
        break;
      }
      c.terms.push_back({node, t.dof - 1, t.coefficient});
    }
    if (!usable) continue;
    if (c.terms.front().coefficient == 0) {
      error(eq.loc, "*EQUATION: the first coefficient (of the dependent degree of freedom) must not be zero");
      continue;
    }
    m.constraints.push_back(std::move(c));
  }
}

}  // namespace flexim::io::inp_detail
