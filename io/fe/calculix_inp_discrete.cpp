// CalculiX / Abaqus .inp discrete elements: the data lines of MASS, ROTARYI, SPRINGA, SPRING1,
// SPRING2 and DASHPOTA element blocks, and *MASS, *ROTARY INERTIA and *SPRING into the model's
// masses, rotary inertias and springs.
#include "io/fe/calculix_inp_parser.h"
#include "io/fe/line_reader.h"

#include <algorithm>
#include <array>
#include <limits>
#include <string>
#include <vector>

namespace flexim::io::inp_detail {

namespace {

int discreteNodeCount(std::string_view t) { return t == "MASS" || t == "ROTARYI" || t == "SPRING1" ? 1 : 2; }

}  // namespace

void Parser::discreteElementLine(Loc loc) {
  std::string problem;
  DiscreteElement e;
  e.type = m_discreteType;
  e.loc = loc;
  const int need = discreteNodeCount(e.type);
  if (!parseInt(m_fields[0], e.id, &problem)) {
    error(loc, "*ELEMENT: element id: " + problem);
    return;
  }
  for (std::size_t i = 1; i < m_fields.size(); ++i) {
    if (trim(m_fields[i]).empty()) continue;
    if (e.count == need) {
      error(loc, "element " + std::to_string(e.id) + ": " + e.type + " needs " + std::to_string(need) + " node(s), got more");
      return;
    }
    if (!parseInt(m_fields[i], e.nodes[static_cast<std::size_t>(e.count)], &problem)) {
      error(loc, "element " + std::to_string(e.id) + ": node " + problem);
      return;
    }
    ++e.count;
  }
  if (e.count != need) {
    error(loc, "element " + std::to_string(e.id) + ": " + e.type + " needs " + std::to_string(need) + " node(s), got " +
                   std::to_string(e.count));
    return;
  }
  if (e.id <= 0 || m_elementIndex.count(e.id) || m_discreteIndex.count(e.id)) {
    error(loc, "element id " + std::to_string(e.id) + (e.id <= 0 ? " must be positive" : " is defined twice"));
    return;
  }
  m_discreteIndex.emplace(e.id, static_cast<int>(m_discrete.size()));
  m_discrete.push_back(e);
  if (m_blockSet) m_blockSet->items.push_back({e.id, e.id, 1, false, loc});
}

// ============================== discrete elements ========================================

/// MASS, ROTARYI and SPRING* elements with their *MASS / *ROTARY INERTIA / *SPRING into the
/// model's masses, rotary inertias and springs (ccx's definitions: a MASS element is the same
/// mass in x, y and z; SPRINGA acts along the line between its nodes; SPRING1 ties one DOF of
/// its node to ground, SPRING2 a DOF of node 1 to a DOF of node 2).
void Parser::discreteSections(fe::FeModel& m) {
  std::vector<char> covered(m_discrete.size(), 0);
  std::string problem;
  for (const DiscreteSection& sec : m_discreteSections) {
    const std::string kw = "*" + sec.keyword;
    auto set = m_elsets.find(sec.elset);
    if (set == m_elsets.end()) {
      error(sec.loc, kw + ": element set " + sec.elset + " is not defined");
      continue;
    }
    if (sec.nonlinear) {
      modelChange(sec.loc, "SPRING NONLINEAR", "*SPRING, NONLINEAR: nonlinear springs not imported",
                  kw + ", NONLINEAR: nonlinear springs are not supported; the springs of " + sec.elset + " are skipped");
      continue;
    }
    const char* wanted = sec.keyword == "MASS" ? "MASS" : sec.keyword == "ROTARY INERTIA" ? "ROTARYI" : "SPRING";
    // members of the set that are discrete elements of the matching type
    std::vector<int> members;
    long long work = 0;
    for (const SetItem& item : set->second.items)
      for (long long id = item.first; id <= item.last && work < kMaxSetWork; id += item.incr, ++work) {
        if (id > std::numeric_limits<int>::max()) break;
        auto it = m_discreteIndex.find(static_cast<int>(id));
        if (it == m_discreteIndex.end()) continue;
        const std::string& type = m_discrete[static_cast<std::size_t>(it->second)].type;
        if (startsWith(type, wanted)) members.push_back(it->second);
      }
    if (members.empty()) {
      warning(sec.loc, kw + ": element set " + sec.elset + " has no " + wanted + " elements; ignored");
      continue;
    }
    // the data lines: *MASS: mass; *ROTARY INERTIA: I11, I22, I33, I12, I13, I23;
    // *SPRING: [dof1[, dof2] (SPRING1/SPRING2 only)] then the stiffness
    const bool scalarSpring = sec.keyword == "SPRING" && m_discrete[static_cast<std::size_t>(members[0])].type != "SPRINGA";
    const std::size_t valueLine = scalarSpring ? 1 : 0;
    if (sec.lines.size() <= valueLine) {
      error(sec.loc, kw + ", ELSET=" + sec.elset + ": missing data line" +
                         (scalarSpring ? " (SPRING1/SPRING2 need a line with the DOFs, then one with the stiffness)" : ""));
      continue;
    }
    const auto& [vloc, vf] = sec.lines[valueLine];
    const int nValues = sec.keyword == "ROTARY INERTIA" ? 6 : 1;
    std::array<double, 6> v{};
    bool bad = false;
    for (int i = 0; i < nValues && !bad; ++i) {
      if (static_cast<std::size_t>(i) >= vf.size() || vf[static_cast<std::size_t>(i)].empty()) {
        if (i == 0 || sec.keyword != "ROTARY INERTIA") {
          error(vloc, kw + ": value " + std::to_string(i + 1) + " is missing");
          bad = true;
        }
        continue;  // blank products of inertia are 0
      }
      if (!parseDouble(vf[static_cast<std::size_t>(i)], v[static_cast<std::size_t>(i)], &problem)) {
        error(vloc, kw + ": " + problem);
        bad = true;
      }
    }
    if (bad) continue;
    if (sec.keyword != "ROTARY INERTIA" && !(v[0] >= 0)) {
      error(vloc, kw + ": " + (sec.keyword == "MASS" ? std::string("mass ") : std::string("stiffness ")) + vf[0] +
                      " must not be negative");
      continue;
    }
    std::array<int, 2> dofs{0, 0};
    if (scalarSpring) {
      const auto& [dloc, df] = sec.lines[0];
      for (std::size_t i = 0; i < 2 && !bad; ++i) {
        if (i >= df.size() || df[i].empty()) continue;
        if (!parseInt(df[i], dofs[i], &problem) || dofs[i] < 1 || dofs[i] > 6) {
          error(dloc, kw + ": degree of freedom " + (i < df.size() ? quoteField(df[i]) : std::string()) +
                          " must be 1 ... 6");
          bad = true;
        }
      }
      if (bad) continue;
      if (dofs[0] == 0) {
        error(dloc, kw + ": SPRING1/SPRING2 need the degree(s) of freedom on the first data line");
        continue;
      }
      if (dofs[1] == 0) dofs[1] = dofs[0];
      if (dofs[0] > 3 || dofs[1] > 3) {
        modelChange(dloc, "SPRING ROTATIONAL", "*SPRING: springs on rotational DOFs not imported",
                    kw + ", ELSET=" + sec.elset + ": rotational DOF " + std::to_string(std::max(dofs[0], dofs[1])) +
                        ": solid nodes have no rotations; these springs are skipped");
        continue;
      }
    }
    if (sec.orientation)
      modelChange(sec.loc, kw + " ORIENTATION", kw + ", ORIENTATION: global directions used instead of local ones",
                  kw + ", ORIENTATION: local directions are not supported; the global directions are used");
    for (int idx : members) {
      const DiscreteElement& e = m_discrete[static_cast<std::size_t>(idx)];
      covered[static_cast<std::size_t>(idx)] = 1;
      std::array<int, 2> node{-1, -1};
      for (int i = 0; i < e.count; ++i) {
        node[static_cast<std::size_t>(i)] = m.indexOf(e.nodes[static_cast<std::size_t>(i)]);
        if (node[static_cast<std::size_t>(i)] < 0) {
          error(e.loc, "element " + std::to_string(e.id) + " refers to node " +
                           std::to_string(e.nodes[static_cast<std::size_t>(i)]) + ", which is not defined");
          bad = true;
        }
      }
      if (bad) break;
      fe::Discrete d;
      d.label = where(e.loc) + ": element " + std::to_string(e.id) + " (" + e.type + ")";
      d.value = v[0];
      if (e.type == "MASS") {
        for (int c = 0; c < 3; ++c) m.masses.push_back({d.label, v[0], {{node[0], c, 1.0}}});
      } else if (e.type == "ROTARYI") {
        fe::RotaryInertia r;
        r.label = d.label;
        r.node = node[0];
        r.J << v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2];
        m.rotary_inertias.push_back(r);
        modelChange(sec.loc, "ROTARY INERTIA", "*ROTARY INERTIA: rotary inertia not in M",
                    "*ROTARY INERTIA: solid nodes have no rotational DOFs, so rotary inertia is not in the "
                    "mass matrix (listed in the mass report only)");
      } else if (e.type == "SPRINGA") {
        const Eigen::Vector3d axis = m.coords[static_cast<std::size_t>(node[1])] - m.coords[static_cast<std::size_t>(node[0])];
        if (!(axis.norm() > 0)) {
          error(e.loc, "element " + std::to_string(e.id) + " (SPRINGA): its nodes coincide, the spring has no direction");
          bad = true;
          break;
        }
        const Eigen::Vector3d n = axis.normalized();
        for (int c = 0; c < 3; ++c) {
          if (n(c) != 0) d.terms.push_back({node[0], c, n(c)});
          if (n(c) != 0) d.terms.push_back({node[1], c, -n(c)});
        }
        m.springs.push_back(d);
      } else if (e.type == "SPRING1") {
        d.terms.push_back({node[0], dofs[0] - 1, 1.0});
        m.springs.push_back(d);
      } else if (e.type == "SPRING2") {
        d.terms.push_back({node[0], dofs[0] - 1, 1.0});
        d.terms.push_back({node[1], dofs[1] - 1, -1.0});
        m.springs.push_back(d);
      }
    }
  }
  int uncovered = 0;
  for (std::size_t i = 0; i < m_discrete.size(); ++i)
    if (!covered[i] && m_discrete[i].type != "DASHPOTA" && uncovered++ == 0)
      warning(m_discrete[i].loc, "element " + std::to_string(m_discrete[i].id) + " (" + m_discrete[i].type +
                                     ") has no *MASS / *ROTARY INERTIA / *SPRING for its element set; skipped");
}

}  // namespace flexim::io::inp_detail
