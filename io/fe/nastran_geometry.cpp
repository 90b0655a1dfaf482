// Nastran grids and coordinate systems: GRID, GRDSET, CORD1R/1C/1S and CORD2R/2C/2S as read,
// and, once every card is read, each grid placed in the basic system and the displacement
// directions of the grids with a CD (nastran_coord.h holds the math of a system).
#include "io/fe/line_reader.h"
#include "io/fe/nastran_parser.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace flexim::io::nastran_detail {

void NastranParser::grid(const Card& c) {
  GridCard g;
  g.loc = c.loc;
  g.cpBlank = blank(c, 1);
  g.cdBlank = blank(c, 5);
  if (!intField(c, 0, "grid id", g.id, true) || !intField(c, 1, "CP", g.cp, false) || !intField(c, 5, "CD", g.cd, false))
    return;
  if (g.id < 1) {
    error(fieldLoc(c, 0), label(c) + ": grid id must be positive");
    return;
  }
  if (g.cp < 0) {
    error(fieldLoc(c, 1), label(c) + ": coordinate system CP = " + std::to_string(g.cp) + " must be 0 or positive");
    return;
  }
  if (g.cd < 0) {
    error(fieldLoc(c, 5), label(c) + ": CD = " + std::to_string(g.cd) +
                              (g.cd == -1 ? " makes it a fluid grid point, which is not supported"
                                          : " must be 0 or a coordinate system id"));
    return;
  }
  static const char* kX[] = {"X1", "X2", "X3"};
  for (int k = 0; k < 3; ++k) {
    bool given = false;
    if (!realField(c, 2 + static_cast<std::size_t>(k), kX[k], g.x[k], given)) return;
  }
  noExtraFields(c, 8);
  if (m_model.addNode(g.id, g.x) < 0) {
    const GridCard& first = m_grids[static_cast<std::size_t>(m_model.indexOf(g.id))];
    error(c.loc, "GRID " + std::to_string(g.id) + " is defined twice (first at " + where(first.loc) + ")");
    return;
  }
  m_grids.push_back(g);
}

/// GRDSET: the CP and CD of every GRID that leaves them blank (PS and SEID are not used).
void NastranParser::grdset(const Card& c) {
  if (m_grdset) {
    error(c.loc, "GRDSET appears twice (first at " + where(m_grdset->second) + "); only one is allowed");
    return;
  }
  GridCard d;
  if (!intField(c, 1, "CP", d.cp, false) || !intField(c, 5, "CD", d.cd, false)) return;
  if (d.cp < 0 || d.cd < 0) {
    error(c.loc, "GRDSET: CP and CD must be 0 or coordinate system ids");
    return;
  }
  d.cpBlank = blank(c, 1);
  d.cdBlank = blank(c, 5);
  m_grdset.emplace(d, c.loc);
}

/// CORD2R/C/S: CID RID A1 A2 A3 B1 B2 B3 / C1 C2 C3 (points in RID). CORD1R/C/S: up to two
/// systems per card, CIDA G1A G2A G3A CIDB G1B G2B G3B.
void NastranParser::coord(const Card& c) {
  const bool form2 = c.name[4] == '2';
  const char kind = c.name.size() == 6 ? c.name[5] : '?';
  if ((c.name[4] != '1' && !form2) || (kind != 'R' && kind != 'C' && kind != 'S')) {
    countSkipped(c.name, c.loc);  // CORD3G and the like
    return;
  }
  auto add = [&](CoordCard cc, std::size_t cidField) {
    if (cc.cid < 1) {
      error(fieldLoc(c, cidField), c.name + ": coordinate system id " + std::to_string(cc.cid) + " must be positive");
      return;
    }
    const auto [it, inserted] = m_coordCards.emplace(cc.cid, cc);
    if (!inserted)
      error(cc.loc, c.name + " " + std::to_string(cc.cid) + ": coordinate system " + std::to_string(cc.cid) +
                        " is defined twice (first " + it->second.card + " at " + where(it->second.loc) + ")");
  };
  if (form2) {
    CoordCard cc{c.name, 0, false, 0, {}, {}, c.loc};
    if (!intField(c, 0, "CID", cc.cid, true) || !intField(c, 1, "RID", cc.rid, false)) return;
    if (cc.rid < 0) {
      error(fieldLoc(c, 1), label(c) + ": RID = " + std::to_string(cc.rid) + " must be 0 or a coordinate system id");
      return;
    }
    static const char* kNames[] = {"A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"};
    for (std::size_t k = 0; k < 9; ++k) {
      bool given = false;
      double v = 0;
      if (!realField(c, 2 + k, kNames[k], v, given)) return;
      cc.points[k / 3][static_cast<Eigen::Index>(k % 3)] = v;
    }
    noExtraFields(c, 11);
    add(cc, 0);
    return;
  }
  for (std::size_t s = 0; s < 2; ++s) {
    const std::size_t f = 4 * s;
    if (s == 1 && blank(c, 4) && blank(c, 5) && blank(c, 6) && blank(c, 7)) break;
    CoordCard cc{c.name, 0, true, 0, {}, {}, fieldLoc(c, f)};
    if (!intField(c, f, "CID", cc.cid, true)) return;
    static const char* kG[] = {"G1", "G2", "G3"};
    for (std::size_t k = 0; k < 3; ++k)
      if (!intField(c, f + 1 + k, kG[k], cc.grids[k], true)) return;
    if (cc.grids[0] == cc.grids[1] || cc.grids[0] == cc.grids[2] || cc.grids[1] == cc.grids[2]) {
      error(cc.loc, c.name + " " + std::to_string(cc.cid) + ": G1, G2 and G3 must be three different grids");
      return;
    }
    add(cc, f);
  }
  noExtraFields(c, 8);
}

// ---- coordinate systems ------------------------------------------------------------------

std::string NastranParser::notDefined(const char* what, int id) const {
  return std::string(what) + " = " + std::to_string(id) + " is not defined (no CORD1R/1C/1S/2R/2C/2S " +
         std::to_string(id) + ")";
}

/// Places every grid in the basic system and builds every coordinate system, in the order their
/// definitions need: a GRID needs its CP system, a CORD2x its RID system, a CORD1x its three
/// grids. A depth-first walk with an explicit stack (no recursion, so no depth limit) finds
/// undefined references and cycles; each is reported once, at the card where it shows.
void NastranParser::resolveGeometry() {
  // GRDSET defaults
  if (m_grdset)
    for (GridCard& g : m_grids) {
      if (g.cpBlank && !m_grdset->first.cpBlank) g.cp = m_grdset->first.cp;
      if (g.cdBlank && !m_grdset->first.cdBlank) g.cd = m_grdset->first.cd;
    }
  enum State : char { New, Active, Done, Failed };
  struct Item {
    bool grid;
    int key;  ///< node index (grid) or CID (system)
  };
  std::vector<State> gridState(m_grids.size(), New);
  std::map<int, State> sysState;
  auto state = [&](const Item& it) -> State& { return it.grid ? gridState[static_cast<std::size_t>(it.key)] : sysState[it.key]; };
  auto name = [&](const Item& it) {
    return it.grid ? "GRID " + std::to_string(m_grids[static_cast<std::size_t>(it.key)].id)
                   : m_coordCards.at(it.key).card + " " + std::to_string(it.key);
  };
  auto loc = [&](const Item& it) { return it.grid ? m_grids[static_cast<std::size_t>(it.key)].loc : m_coordCards.at(it.key).loc; };

  // the dependencies of an item; false (reported) when one is not defined
  auto dependencies = [&](const Item& it, std::vector<Item>& deps) {
    deps.clear();
    if (it.grid) {
      const GridCard& g = m_grids[static_cast<std::size_t>(it.key)];
      if (g.cp == 0) return true;
      if (!m_coordCards.count(g.cp)) {
        error(g.loc, name(it) + ": coordinate system " + notDefined("CP", g.cp));
        return false;
      }
      deps.push_back({false, g.cp});
      return true;
    }
    const CoordCard& cc = m_coordCards.at(it.key);
    if (!cc.byGrids) {
      if (cc.rid == 0) return true;
      if (!m_coordCards.count(cc.rid)) {
        error(cc.loc, name(it) + ": reference system " + notDefined("RID", cc.rid));
        return false;
      }
      deps.push_back({false, cc.rid});
      return true;
    }
    for (std::size_t k = 0; k < 3; ++k) {
      const int index = m_model.indexOf(cc.grids[k]);
      if (index < 0) {
        error(cc.loc, name(it) + ": grid G" + std::to_string(k + 1) + " = " + std::to_string(cc.grids[k]) +
                          " is not defined (no GRID " + std::to_string(cc.grids[k]) + ")");
        return false;
      }
      deps.push_back({true, index});
    }
    return true;
  };
  // places a grid or builds a system whose dependencies are done
  auto compute = [&](const Item& it) {
    if (it.grid) {
      const GridCard& g = m_grids[static_cast<std::size_t>(it.key)];
      Eigen::Vector3d& x = m_model.coords[static_cast<std::size_t>(it.key)];
      x = g.cp == 0 ? g.x : m_systems.at(g.cp).toBasic(g.x);
      if (!x.allFinite()) {
        error(g.loc, name(it) + ": its position in the basic system is not finite");
        return false;
      }
      return true;
    }
    const CoordCard& cc = m_coordCards.at(it.key);
    std::array<Eigen::Vector3d, 3> p;
    for (std::size_t k = 0; k < 3; ++k)
      p[k] = cc.byGrids ? m_model.coords[static_cast<std::size_t>(m_model.indexOf(cc.grids[k]))]
             : cc.rid == 0 ? cc.points[k]
                           : m_systems.at(cc.rid).toBasic(cc.points[k]);
    CoordSystem sys;
    std::string problem;
    if (!nastran::systemFromPoints(cc.card.back(), p[0], p[1], p[2], sys, problem)) {
      error(cc.loc, name(it) + ": " + problem + (cc.byGrids ? " (grids G1, G2, G3)" : " (points A, B, C)"));
      return false;
    }
    m_systems[it.key] = sys;
    return true;
  };

  std::vector<Item> roots;  // systems first: a cycle is reported at a CORD card
  for (const auto& [cid, cc] : m_coordCards) roots.push_back({false, cid});
  for (std::size_t i = 0; i < m_grids.size(); ++i) roots.push_back({true, static_cast<int>(i)});
  std::vector<Item> stack, deps;
  for (const Item& root : roots) {
    if (state(root) != New) continue;
    state(root) = Active;
    stack.assign(1, root);
    while (!stack.empty() && !m_stop) {
      const Item top = stack.back();
      bool failed = !dependencies(top, deps), pushed = false;
      for (const Item& d : deps) {
        if (failed || pushed) break;
        State& s = state(d);
        if (s == Done) continue;
        if (s == Failed) {
          failed = true;  // reported where it failed
        } else if (s == Active) {
          std::string chain;
          std::size_t k = stack.size();
          while (k > 0 && !(stack[k - 1].grid == d.grid && stack[k - 1].key == d.key)) --k;
          for (std::size_t j = k > 0 ? k - 1 : 0; j < stack.size(); ++j) chain += name(stack[j]) + " -> ";
          error(loc(d), "coordinate systems defined through each other: " + chain + name(d) +
                            " (a system cannot depend on itself through RID, CP or the grids of a CORD1)");
          failed = true;
        } else {
          s = Active;
          stack.push_back(d);
          pushed = true;
        }
      }
      if (pushed) continue;
      state(top) = !failed && compute(top) ? Done : Failed;
      stack.pop_back();
    }
  }
  if (m_stop) return;

  // displacement systems (CD): the directions of each grid's DOFs
  bool anyCd = false;
  for (const GridCard& g : m_grids) anyCd = anyCd || g.cd != 0;
  if (!anyCd) return;
  const std::size_t n = m_grids.size();
  m_model.node_cd.assign(n, 0);
  m_model.node_cd_axes.assign(n, Eigen::Matrix3d::Identity());
  std::map<int, int> onAxis;  // CD -> grids on its polar axis
  std::map<int, Loc> firstOnAxis;
  for (std::size_t i = 0; i < n; ++i) {
    const GridCard& g = m_grids[i];
    if (g.cd == 0) continue;
    m_model.node_cd[i] = g.cd;
    const auto sys = m_systems.find(g.cd);
    if (sys == m_systems.end()) {
      if (!m_coordCards.count(g.cd))
        error(g.loc, "GRID " + std::to_string(g.id) + ": displacement coordinate system " + notDefined("CD", g.cd));
      continue;  // else reported where the system failed
    }
    bool axis = false;
    m_model.node_cd_axes[i] = sys->second.directionsAt(m_model.coords[i], &axis);
    if (axis && ++onAxis[g.cd] == 1) firstOnAxis[g.cd] = g.loc;
  }
  for (const auto& [cd, count] : onAxis)
    warning(firstOnAxis[cd], std::to_string(count) + " grid(s) with CD = " + std::to_string(cd) +
                                 " lie on the polar axis of that system, where its radial and angular directions are "
                                 "undefined; the directions at angle 0 are used");
}

/// The axes of coordinate system cid (0 = basic) at the basic point x, as columns; false
/// (reported) when cid is not defined.
bool NastranParser::axesAt(const Card& c, int cid, const Eigen::Vector3d& x, Eigen::Matrix3d& axes) {
  axes = Eigen::Matrix3d::Identity();
  if (cid == 0) return true;
  const auto sys = m_systems.find(cid);
  if (sys != m_systems.end()) {
    axes = sys->second.directionsAt(x);
    return true;
  }
  if (!m_coordCards.count(cid)) error(c.loc, label(c) + ": coordinate system " + notDefined("CID", cid));
  else if (m_errors == 0) error(c.loc, label(c) + ": coordinate system CID = " + std::to_string(cid) + " could not be built");
  return false;
}

/// The basic direction of DOF `component` (0..2) of a node: its CD axis, or the basic axis.
Eigen::Vector3d NastranParser::nodeDirection(int node, int component) const {
  if (m_model.node_cd_axes.empty()) return Eigen::Vector3d::Unit(component);
  return m_model.node_cd_axes[static_cast<std::size_t>(node)].col(component);
}

}  // namespace flexim::io::nastran_detail
