// Random damage to a text file, for the importers' robustness tests: iteration i cuts the text
// short (i % 3 == 0), overwrites three characters with ones from `alphabet` (1), or deletes up to
// 20 characters (2). Deterministic for a given rng.
#pragma once

#include <algorithm>
#include <cstring>
#include <random>
#include <string>

namespace flexim::test {

inline std::string damage(const std::string& base, int iteration, std::mt19937& rng, const char* alphabet) {
  std::string t = base;
  if (t.empty()) return t;
  std::uniform_int_distribution<std::size_t> pos(0, t.size() - 1);
  const int kind = iteration % 3;
  if (kind == 0) {
    t.resize(pos(rng));
  } else if (kind == 1) {
    const std::size_t n = std::strlen(alphabet);
    for (int k = 0; k < 3; ++k) t[pos(rng)] = alphabet[rng() % n];
  } else {
    const std::size_t p = pos(rng);
    t.erase(p, std::min<std::size_t>(t.size() - p, 1 + rng() % 20));
  }
  return t;
}

}  // namespace flexim::test
