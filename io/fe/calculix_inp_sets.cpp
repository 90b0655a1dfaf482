// CalculiX / Abaqus .inp node and element sets: *NSET and *ELSET data lines (ids, GENERATE
// ranges, names of other sets), and the sets named by NSET= / ELSET= of other keywords; kept as
// written until the whole deck is read (Parser::finish() resolves them).
#include "io/fe/calculix_inp_parser.h"
#include "io/fe/line_reader.h"

#include <limits>
#include <map>
#include <string>

namespace flexim::io::inp_detail {

PendingSet& Parser::pendingSet(bool elements, const std::string& name, Loc loc) {
  auto& sets = elements ? m_elsets : m_nsets;
  auto it = sets.find(name);
  if (it == sets.end()) {
    PendingSet s;
    s.name = name;
    s.defined = loc;
    it = sets.emplace(name, std::move(s)).first;
  }
  return it->second;
}

void Parser::setLine(Loc loc, bool elements) {
  PendingSet& set = *m_blockSet;
  const char* what = elements ? "element" : "node";
  std::string problem;
  if (m_generate) {
    long long v[3] = {0, 0, 1};
    int n = 0;
    for (const auto f : m_fields) {
      if (f.empty()) continue;
      if (n >= 3) {
        error(loc, "GENERATE needs first, last[, increment]; got more values");
        return;
      }
      if (!parseInt64(f, v[n], &problem)) {
        error(loc, "GENERATE: " + problem);
        return;
      }
      ++n;
    }
    if (n < 2) {
      error(loc, "GENERATE needs first, last[, increment]");
      return;
    }
    if (v[2] <= 0 || v[0] <= 0 || v[1] < v[0]) {
      error(loc, "GENERATE " + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) +
                     ": needs 0 < first <= last and increment > 0");
      return;
    }
    if ((v[1] - v[0]) / v[2] >= kMaxGenerate) {
      error(loc, "GENERATE range of more than " + std::to_string(kMaxGenerate) + " ids");
      return;
    }
    if (v[1] > std::numeric_limits<int>::max() || v[2] > std::numeric_limits<int>::max()) {
      error(loc, "GENERATE: ids must not exceed " + std::to_string(std::numeric_limits<int>::max()));
      return;
    }
    set.items.push_back({static_cast<int>(v[0]), static_cast<int>(v[1]), static_cast<int>(v[2]), true, loc});
    return;
  }
  for (const auto f : m_fields) {
    if (f.empty()) continue;
    int id = 0;
    if (parseInt(f, id)) {
      set.items.push_back({id, id, 1, false, loc});
      continue;
    }
    // the name of another set of the same kind
    const std::string name = toUpper(unquote(f));
    auto& sets = elements ? m_elsets : m_nsets;
    auto it = sets.find(name);
    const bool nameLike = !name.empty() && !((name[0] >= '0' && name[0] <= '9') || name[0] == '-' || name[0] == '+' || name[0] == '.');
    if (!nameLike) {
      parseInt(f, id, &problem);
      error(loc, std::string(elements ? "*ELSET " : "*NSET ") + set.name + ": " + problem);
      continue;
    }
    if (it == sets.end() || &it->second == &set) {
      error(loc, std::string(elements ? "*ELSET " : "*NSET ") + set.name + ": " + quoteField(f) + " is neither a " + what +
                     " id nor a known " + what + " set");
      continue;
    }
    if (m_setItems + it->second.items.size() > kMaxSetItems) {
      error(loc, "sets are too large (more than " + std::to_string(kMaxSetItems) + " entries)");
      return;
    }
    m_setItems += it->second.items.size();
    const auto copy = it->second.items;  // copy: set may alias storage when growing
    set.items.insert(set.items.end(), copy.begin(), copy.end());
  }
}

}  // namespace flexim::io::inp_detail
