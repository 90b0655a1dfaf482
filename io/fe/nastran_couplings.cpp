// Nastran rigid elements RBE2 and RBE3 (component lists, grid lists with THRU, RBE3 weights),
// into FeModel::couplings: a Craig-Bampton interface when named as one, else applied as linear
// constraints (linear_constraints.h); and MPC cards into FeModel::constraints.
#include "io/fe/line_reader.h"
#include "io/fe/nastran_parser.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace flexim::io::nastran_detail {

// ---- RBE2 and RBE3 -----------------------------------------------------------------------

/// A component list such as 123456 (each of 1..6 at most once); blank gives "".
bool NastranParser::components(const Card& c, std::size_t i, const char* what, std::string& out) {
  out = blank(c, i) ? std::string() : std::string(trim(c.fields[i]));
  std::set<char> seen;
  for (char ch : out)
    if (ch < '1' || ch > '6' || !seen.insert(ch).second) {
      error(fieldLoc(c, i), label(c) + ": " + what + " " + quoteField(out) +
                                " is not a component list (digits 1 to 6, each at most once)");
      return false;
    }
  return true;
}

/// Reads grid ids from field i on ("G1 G2 ...", "Ga THRU Gb" = every defined grid from Ga to Gb),
/// skipping blank fields, up to a real number, a word other than THRU, or the end. Returns the
/// index of the field that ended the list.
std::size_t NastranParser::gridList(const Card& c, std::size_t i, std::vector<int>& ids, bool& ok) {
  ok = true;
  for (; i < c.fields.size(); ++i) {
    if (blank(c, i)) continue;
    const std::string f = toUpper(trim(c.fields[i]));
    if (looksReal(f) || (f != "THRU" && !f.empty() && (f[0] < '0' || f[0] > '9') && f[0] != '+' && f[0] != '-')) break;
    if (f != "THRU") {
      int id = 0;
      if (!intField(c, i, "grid", id, true)) return ok = false, i;
      ids.push_back(id);
      continue;
    }
    std::size_t j = i + 1;
    while (j < c.fields.size() && blank(c, j)) ++j;
    int last = 0;
    if (ids.empty() || j >= c.fields.size() || !intField(c, j, "grid after THRU", last, true)) {
      if (ids.empty() || j >= c.fields.size()) error(fieldLoc(c, i), label(c) + ": THRU needs a grid before and after it");
      return ok = false, i;
    }
    const int from = ids.back();
    if (last < from) {
      error(fieldLoc(c, j), label(c) + ": " + std::to_string(from) + " THRU " + std::to_string(last) + " runs backwards");
      return ok = false, i;
    }
    if (m_sortedIds.empty()) {
      m_sortedIds = m_model.node_ids;
      std::sort(m_sortedIds.begin(), m_sortedIds.end());
    }
    for (auto it = std::upper_bound(m_sortedIds.begin(), m_sortedIds.end(), from); it != m_sortedIds.end() && *it <= last; ++it)
      ids.push_back(*it);
    i = j;
  }
  return i;
}

/// RBE2 EID GN CM GM1 ... [ALPHA [TREF]]: a rigid coupling of the GMi to GN.
/// RBE3 EID _ REFGRID REFC WT1 C1 G1,1 ... WT2 C2 G2,1 ... [UM GM1 CM1 ...] [ALPHA a [TREF t]]:
/// REFGRID follows the weighted average of the Gi,j (weights summed when a grid is in several
/// groups). Both become FeModel::couplings, interface candidates: not put into K or M.
void NastranParser::coupling(const Card& c) {
  const bool rbe2 = c.name == "RBE2";
  int eid = 0, ref = 0;
  if (!intField(c, 0, "element id", eid, true) || !intField(c, rbe2 ? 1 : 2, rbe2 ? "GN" : "REFGRID", ref, true)) return;
  if (eid < 1) {
    error(fieldLoc(c, 0), label(c) + ": element id must be positive");
    return;
  }
  const std::string name = c.name + " " + std::to_string(eid);
  std::string comps;
  if (!components(c, 2 + (rbe2 ? 0 : 1), rbe2 ? "CM" : "REFC", comps)) return;
  if (comps.empty()) {
    error(fieldLoc(c, rbe2 ? 2 : 3), name + ": " + (rbe2 ? "CM" : "REFC") + " (the coupled components) is missing");
    return;
  }
  const auto hasAll = [](const std::string& s, const char* need) {
    for (const char* p = need; *p; ++p)
      if (s.find(*p) == std::string::npos) return false;
    return true;
  };
  std::vector<int> ids;
  std::vector<double> wts;  // RBE3: weight per entry of ids
  bool ok = true;
  if (rbe2) {
    const std::size_t end = gridList(c, 3, ids, ok);
    if (!ok) return;
    if (end < c.fields.size() && !looksReal(c.fields[end])) {
      error(fieldLoc(c, end), name + ": " + quoteField(c.fields[end]) + " is neither a grid nor ALPHA");
      return;
    }
    if (!hasAll(comps, "123"))
      warning(c.loc, name + ": CM = " + comps + " does not tie every translation (123); imported as rigid in all "
                                                "directions");
  } else {
    if (!hasAll(comps, "123456"))
      warning(c.loc, name + ": REFC = " + comps + "; imported as the average of all six reference components");
    std::size_t i = 4;
    while (i < c.fields.size()) {
      if (blank(c, i)) {
        ++i;
        continue;
      }
      const std::string f = toUpper(trim(c.fields[i]));
      if (f == "UM") {
        warning(fieldLoc(c, i), name + ": UM (dependent DOFs moved to the attached grids) ignored: the reference grid "
                                       "stays the dependent one");
        break;
      }
      if (f == "ALPHA" || f == "TREF") break;
      double wt = 0;
      bool given = false;
      if (!looksReal(f)) {
        error(fieldLoc(c, i), name + ": expected a weight WTi (a real number) in " + fieldName(i) + ", found " +
                                  quoteField(f));
        return;
      }
      if (!realField(c, i, "WT", wt, given)) return;
      if (!(wt > 0)) {
        error(fieldLoc(c, i), name + ": weight " + quoteField(f) + " must be positive");
        return;
      }
      std::size_t j = i + 1;
      while (j < c.fields.size() && blank(c, j)) ++j;
      std::string ci;
      if (j >= c.fields.size()) {
        error(fieldLoc(c, i), name + ": weight " + quoteField(f) + " has no component list and no grids after it");
        return;
      }
      if (!components(c, j, "C", ci)) return;
      if (!hasAll(ci, "123"))
        warning(fieldLoc(c, j), name + ": C = " + ci + " does not average every translation (123); imported as "
                                                        "averaging all three");
      const std::size_t before = ids.size();
      i = gridList(c, j + 1, ids, ok);
      if (!ok) return;
      if (ids.size() == before) {
        error(fieldLoc(c, j), name + ": weight " + quoteField(f) + " has no grids");
        return;
      }
      wts.resize(ids.size(), wt);
    }
  }
  if (ids.empty()) {
    error(c.loc, name + " attaches no grid");
    return;
  }
  // grid ids -> node indices; a grid in several RBE3 groups adds up its weights
  fe::Coupling cp;
  cp.name = name;
  cp.rigid = rbe2;
  cp.where = where(c.loc);
  auto undefined = [&](const char* role, int id) {
    warning(c.loc, name + ": " + role + " " + std::to_string(id) + " is not defined (no GRID " + std::to_string(id) +
                       "); the coupling is skipped");
  };
  cp.reference_node = m_model.indexOf(ref);
  if (cp.reference_node < 0) return undefined("the reference grid", ref);
  std::unordered_map<int, std::size_t> slot;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    if (ids[k] == ref) {
      error(c.loc, name + ": grid " + std::to_string(ref) + " is both the reference and an attached grid");
      return;
    }
    const int node = m_model.indexOf(ids[k]);
    if (node < 0) return undefined("attached grid", ids[k]);
    const auto [it, fresh] = slot.emplace(node, cp.nodes.size());
    if (fresh) {
      cp.nodes.push_back(node);
      if (!rbe2) cp.weights.push_back(wts[k]);
    } else if (!rbe2) {
      cp.weights[it->second] += wts[k];
    }
  }
  m_model.couplings.push_back(std::move(cp));
}

void NastranParser::resolveCouplings(std::set<int>& ids) {
  for (const Card& c : m_couplings) {
    if (m_stop) return;
    const std::size_t before = m_model.couplings.size();
    coupling(c);
    if (m_model.couplings.size() == before) continue;
    // element ids are shared by every element, rigid ones included
    const int eid = std::atoi(c.fields[0].c_str());
    if (!ids.insert(eid).second) error(c.loc, label(c) + ": element id is used twice");
  }
  if (m_model.couplings.empty()) return;
  // grids that nothing holds: an interface cannot hold on to them either
  std::vector<char> held(static_cast<std::size_t>(m_model.nodeCount()), 0);
  for (const fe::Element& e : m_model.elements)
    for (int k = 0; k < fe::nodeCount(e.type); ++k) held[static_cast<std::size_t>(e.nodes[static_cast<std::size_t>(k)])] = 1;
  for (const fe::Discrete& s : m_model.springs)
    for (const fe::DiscreteTerm& t : s.terms) held[static_cast<std::size_t>(t.node)] = 1;
  for (const fe::Coupling& cp : m_model.couplings) {
    const auto loose = std::count_if(cp.nodes.begin(), cp.nodes.end(), [&](int n) { return !held[static_cast<std::size_t>(n)]; });
    if (loose > 0)
      m_diag.warning(cp.where, cp.name + ": " + std::to_string(loose) + " of its " + std::to_string(cp.nodes.size()) +
                                   " attached grids belong to no solid element or spring (on shells or beams that "
                                   "are left out?); as an interface it cannot hold them");
  }
}

/// MPC cards -> FeModel::constraints: "MPC SID G1 C1 A1 G2 C2 A2", continued by "(blank) G C A G C
/// A"; sum A u(G, C) = 0 with the first term the dependent DOF, components in the grid's
/// displacement system (CD). The case control selects one SID, and it is not read: with cards of
/// one SID they are applied, with several none is (a model change naming the SIDs).
void NastranParser::constraints() {
  std::set<int> sids;
  for (const Card& c : m_mpcs) {
    int sid = 0;
    if (intField(c, 0, "SID", sid, true)) sids.insert(sid);
  }
  if (sids.size() > 1) {
    std::string list;
    for (int sid : sids) list += (list.empty() ? "" : ", ") + std::to_string(sid);
    warning(m_mpcs.front().loc, "MPC: cards of " + std::to_string(sids.size()) + " sets (SID " + list +
                                    "); the case control selects one and is not read here, so none is applied");
    m_model.model_changes.push_back("multipoint constraints of several sets not applied (MPC SID " + list + ")");
    return;
  }
  int rotational = 0;
  for (const Card& c : m_mpcs) {
    fe::LinearConstraint lc;
    lc.label = label(c);
    lc.where = where(c.loc);
    bool usable = true;
    // term fields: 1, 4 on the first line, then 9, 12 on each continuation (8 fields a line)
    for (std::size_t line = 0; usable; ++line) {
      bool any = false;
      for (std::size_t t = 0; t < 2 && usable; ++t) {
        const std::size_t f = 8 * line + 1 + 3 * t;
        if (f >= c.fields.size()) break;
        if (c.fields[f].empty()) continue;
        any = true;
        int g = -1, component = 0;
        double a = 0;
        bool given = false;
        if (!gridIndex(c, f, true, g) || !intField(c, f + 1, "component", component, true) ||
            !realField(c, f + 2, "coefficient", a, given)) {
          usable = false;
          break;
        }
        if (component >= 4 && component <= 6) {  // solid grids have no rotations
          ++rotational;
          usable = false;
          break;
        }
        if (component < 1 || component > 3) {
          error(fieldLoc(c, f + 1), label(c) + ": component " + c.fields[f + 1] + " must be 1 ... 6 (scalar points are "
                                                                                  "not supported)");
          usable = false;
          break;
        }
        const Eigen::Vector3d direction = m_model.node_cd_axes.empty()
                                              ? Eigen::Vector3d(Eigen::Vector3d::Unit(component - 1))
                                              : Eigen::Vector3d(m_model.node_cd_axes[std::size_t(g)].col(component - 1));
        for (int b = 0; b < 3; ++b)
          if (direction(b) != 0) lc.terms.push_back({g, b, a * direction(b)});
      }
      if (!any && 8 * line + 1 >= c.fields.size()) break;
    }
    if (usable && !lc.terms.empty()) m_model.constraints.push_back(std::move(lc));
  }
  if (rotational > 0) {
    warning(m_mpcs.front().loc, "MPC: " + std::to_string(rotational) + " cards tie rotational components (4 ... 6) of "
                                "grids, which solid grids do not have; they are not applied");
    m_model.model_changes.push_back("multipoint constraints on rotations not applied (MPC: " + std::to_string(rotational) + ")");
  }
}

}  // namespace flexim::io::nastran_detail
