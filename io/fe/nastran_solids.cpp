// Nastran solid elements with their properties and materials: CTETRA, CPYRAM, CPENTA and CHEXA
// (grids put into the Abaqus node order), PSOLID and MAT1; the elements get their nodes and
// material once every card is read.
#include "io/fe/nastran_parser.h"

#include "core/fe/element_library.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <set>
#include <span>
#include <string>

namespace flexim::io::nastran_detail {

void NastranParser::solid(const Card& c, const SolidCard& kind) {
  PendingElement e;
  e.loc = c.loc;
  e.card = c.name;
  if (!intField(c, 0, "element id", e.id, true) || !intField(c, 1, "property id", e.pid, true)) return;
  if (e.id < 1) {
    error(fieldLoc(c, 0), label(c) + ": element id must be positive");
    return;
  }
  const int lo = fe::nodeCount(kind.linear), hi = fe::nodeCount(kind.quadratic);
  const std::size_t maxGrids = static_cast<std::size_t>(hi);
  std::array<int, 20> g{};
  int count = 0;
  bool gap = false;
  for (std::size_t k = 0; k < maxGrids; ++k) {
    if (blank(c, 2 + k)) {
      gap = true;
      continue;
    }
    if (gap) {
      error(fieldLoc(c, 2 + k), label(c) + ": grid G" + std::to_string(k + 1) +
                                    " follows a blank grid field; mid-side grids must all be given or all omitted");
      return;
    }
    std::string what(1, 'G');
    what += std::to_string(k + 1);
    if (!intField(c, 2 + k, what.c_str(), g[k], true)) return;
    ++count;
  }
  noExtraFields(c, 2 + maxGrids);
  if (count != lo && count != hi) {
    error(c.loc, label(c) + " has " + std::to_string(count) + " grids; " + c.name + " needs " + std::to_string(lo) +
                     " or " + std::to_string(hi) + (count < lo ? " (card truncated?)" : ""));
    return;
  }
  e.type = count == lo ? kind.linear : kind.quadratic;
  e.count = count;
  const std::span<const int> map = nastranToAbaqus(e.type);
  for (int k = 0; k < count; ++k) e.grids[k] = g[map[k]];
  for (int k = 0; k < count; ++k)
    for (int j = 0; j < k; ++j)
      if (e.grids[k] == e.grids[j]) {
        error(c.loc, label(c) + " uses grid " + std::to_string(e.grids[k]) + " twice");
        return;
      }
  m_elements.push_back(e);
}

void NastranParser::mat1(const Card& c) {
  int mid = 0;
  if (!intField(c, 0, "material id", mid, true)) return;
  double E = 0, G = 0, nu = 0, rho = 0;
  bool hasE = false, hasG = false, hasNu = false, hasRho = false;
  if (!realField(c, 1, "E", E, hasE) || !realField(c, 2, "G", G, hasG) || !realField(c, 3, "NU", nu, hasNu) ||
      !realField(c, 4, "RHO", rho, hasRho))
    return;
  const std::string lab = "MAT1 " + std::to_string(mid);
  std::string derived;
  const auto text = [](double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.4g", v);
    return std::string(b);
  };
  if (hasE && hasG && !hasNu) {
    nu = E / (2.0 * G) - 1.0;
    derived = "NU = E / (2 G) - 1 = " + text(nu) + ", derived from E and G";
  } else if (!hasE && hasG && hasNu) {
    E = 2.0 * G * (1.0 + nu);
    derived = "E = 2 G (1 + NU) = " + text(E) + ", derived from G and NU";
  } else if (hasE && !hasG && !hasNu) {
    nu = 0.0;
    m_diag.warning(where(c.loc), lab + ": G and NU are blank; NU = 0 assumed (Nastran convention)");
  } else if (hasE && !hasG && hasNu) {
    // the usual case: E and NU
  } else if (hasE && hasG && hasNu) {
    const double g = E / (2.0 * (1.0 + nu));
    if (std::abs(G - g) > 0.01 * std::abs(g))
      m_diag.warning(where(c.loc), lab + ": G = " + std::to_string(G) + " does not match E / (2 (1 + NU)) = " +
                                       std::to_string(g) + "; E and NU are used");
  } else if (!hasE && !hasG) {
    error(c.loc, lab + ": E and G are both blank; at least one of them is needed");
    return;
  } else {  // G alone, or NU alone
    error(c.loc, lab + ": E cannot be derived (give E, or G and NU)");
    return;
  }
  // E and NU are checked where a solid uses the material (resolveElements): a MAT1 of skipped
  // bars or shells may hold anything
  if (const std::string p = hasRho ? fe::densityProblem(rho) : std::string(); !p.empty())
    warning(fieldLoc(c, 4), lab + ": " + p);
  if (m_mats.count(mid)) {
    error(c.loc, lab + " is defined twice (first at " + where(m_mats[mid].loc) + ")");
    return;
  }
  fe::Material m;
  m.name = "MAT1_" + std::to_string(mid);
  m.E = E;
  m.nu = nu;
  m.rho = hasRho ? rho : 0.0;
  m.has_elastic = true;
  m.has_density = hasRho;
  m_mats[mid] = {static_cast<int>(m_model.materials.size()), c.loc, derived};
  m_model.materials.push_back(m);
}

void NastranParser::psolid(const Card& c) {
  int pid = 0, mid = 0;
  if (!intField(c, 0, "property id", pid, true) || !intField(c, 1, "material id", mid, true)) return;
  if (m_props.count(pid)) {
    error(c.loc, "PSOLID " + std::to_string(pid) + " is defined twice (first at " + where(m_props[pid].loc) + ")");
    return;
  }
  m_props[pid] = {mid, c.loc};
}

// ---- the model ---------------------------------------------------------------------------

namespace {

/// The node order of the mirror image of an element type: node a takes the place of the node
/// whose natural coordinates are a's with xi and eta swapped (a reflection: corners and mid-side
/// nodes follow alike).
std::array<int, 20> mirrorOrder(const fe::ElementKind& kind) {
  std::array<int, 20> order{};
  for (int a = 0; a < kind.nodes; ++a) {
    const auto& x = kind.naturalNodes[std::size_t(a)];
    order[std::size_t(a)] = a;
    for (int b = 0; b < kind.nodes; ++b) {
      const auto& y = kind.naturalNodes[std::size_t(b)];
      if (std::abs(y[0] - x[1]) < 1e-12 && std::abs(y[1] - x[0]) < 1e-12 && std::abs(y[2] - x[2]) < 1e-12) order[std::size_t(a)] = b;
    }
  }
  return order;
}

/// Whether the element's Jacobian is positive at every stiffness point.
bool positivelyOriented(const fe::FeModel& m, const fe::Element& e, const fe::ElementKind& kind) {
  fe::ElementCoords X(3, kind.nodes);
  for (int a = 0; a < kind.nodes; ++a) X.col(a) = m.coords[std::size_t(e.nodes[std::size_t(a)])];
  fe::JacobianFailure fail;
  return fe::checkJacobian(kind, X, kind.stiffnessRule, fail);
}

}  // namespace

/// Nastran accepts a solid numbered in either orientation; the element library wants the
/// positive one. An element that is inverted everywhere but whose mirror order is valid is
/// renumbered; one that is neither (distorted, flat) is left for the assembly to report.
bool NastranParser::orientSolid(fe::Element& e) {
  const fe::ElementKind& kind = fe::elementKind(e.type);
  if (positivelyOriented(m_model, e, kind)) return false;
  fe::Element mirrored = e;
  const std::array<int, 20> order = mirrorOrder(kind);
  for (int a = 0; a < kind.nodes; ++a) mirrored.nodes[std::size_t(a)] = e.nodes[std::size_t(order[std::size_t(a)])];
  if (!positivelyOriented(m_model, mirrored, kind)) return false;
  e = mirrored;
  return true;
}

void NastranParser::resolveElements(std::set<int>& ids) {
  // what a property or material id is when it is not the card an element needs
  auto other = [&](char kind, int id) {
    const auto it = m_skippedIds.find({kind, id});
    return it == m_skippedIds.end() ? std::string() : "; " + it->second + " " + std::to_string(id) + " is not supported";
  };
  struct {
    int count = 0;
    std::string first;
    Loc loc;
  } mirrored;
  for (const auto& pe : m_elements) {
    if (m_stop) break;
    if (!ids.insert(pe.id).second) {
      error(pe.loc, pe.card + " " + std::to_string(pe.id) + ": element id is used twice");
      continue;
    }
    fe::Element e;
    e.id = pe.id;
    e.type = pe.type;
    bool ok = true;
    for (int k = 0; k < pe.count; ++k) {
      e.nodes[k] = m_model.indexOf(pe.grids[k]);
      if (e.nodes[k] < 0) {
        error(pe.loc, pe.card + " " + std::to_string(pe.id) + " uses grid " + std::to_string(pe.grids[k]) +
                          ", which is not defined (no GRID " + std::to_string(pe.grids[k]) + ")");
        ok = false;
        break;
      }
    }
    const auto prop = m_props.find(pe.pid);
    if (ok && prop == m_props.end()) {
      error(pe.loc, pe.card + " " + std::to_string(pe.id) + ": property " + std::to_string(pe.pid) +
                        " is not defined (no PSOLID " + std::to_string(pe.pid) + other('P', pe.pid) + ")");
      ok = false;
    }
    if (ok) {
      const auto mat = m_mats.find(prop->second.mid);
      if (mat == m_mats.end()) {
        error(prop->second.loc, "PSOLID " + std::to_string(pe.pid) + ": material " + std::to_string(prop->second.mid) +
                                    " is not defined (no MAT1 " + std::to_string(prop->second.mid) +
                                    other('M', prop->second.mid) + ")");
        ok = false;
      } else {
        e.material = mat->second.index;
      }
    }
    if (!ok) continue;
    if (orientSolid(e) && mirrored.count++ == 0) mirrored.first = pe.card + " " + std::to_string(pe.id), mirrored.loc = pe.loc;
    m_model.element_sets["PSOLID_" + std::to_string(pe.pid)].push_back(static_cast<int>(m_model.elements.size()));
    m_model.elements.push_back(e);
  }
  // the materials the solids use: kept with a warning, as every reader does (the material may be
  // overridden at import); the assembly refuses them unless it is
  std::set<int> used;
  for (const fe::Element& e : m_model.elements) used.insert(e.material);
  for (const auto& [mid, mat] : m_mats) {
    if (!used.count(mat.index)) continue;
    const fe::Material& m = m_model.materials[static_cast<std::size_t>(mat.index)];
    if (const std::string p = fe::elasticProblem(m.E, m.nu); !p.empty())
      m_diag.warning(where(mat.loc), "MAT1 " + std::to_string(mid) + ": " + p + (mat.derived.empty() ? "" : " (" + mat.derived + ")"));
  }
  if (mirrored.count)
    m_diag.info(where(mirrored.loc), std::to_string(mirrored.count) + " solid element(s) numbered in the mirror order (first " +
                                         mirrored.first + ") renumbered: Nastran accepts either orientation");
}

}  // namespace flexim::io::nastran_detail
