// Test helper: field-by-field comparison of two ModelSpecs over the item descriptions, naming
// every difference by its JSON path so a failing round trip says exactly which field was lost.
// Every described field is compared, whether or not the item's type uses it. (The loaded
// reduced-body data of flexible bodies is not part of the document and is not compared.)
#pragma once

#include "core/model/description.h"

#include <string>
#include <vector>

namespace flexim::test {

class ModelDiff {
 public:
  std::vector<std::string> differences;

  void item(const ItemDescription& d, const void* a, const void* b, const std::string& path) {
    for (const FieldDescription& f : d.fields) {
      const std::string p = path.empty() ? f.key : path + "." + f.key;
      if (f.type == FieldType::Object) {
        item(*f.item, f.object(const_cast<void*>(a)), f.object(const_cast<void*>(b)), p);
      } else if (f.type == FieldType::List) {
        if (f.count(a) != f.count(b)) {
          differences.push_back(p + " (size)");
          continue;
        }
        for (std::size_t i = 0; i < f.count(a); ++i)
          item(*f.item, f.element(const_cast<void*>(a), i), f.element(const_cast<void*>(b), i),
               p + "[" + std::to_string(i) + "]");
      } else if (f.get && !same(f.get(a), f.get(b))) {
        differences.push_back(p);
      }
    }
  }

  std::string str() const {
    std::string s;
    for (const auto& d : differences) s += d + "\n";
    return s;
  }

 private:
  static bool same(const FieldValue& a, const FieldValue& b) {
    if (a.index() != b.index()) return false;
    return std::visit(
        [&](const auto& x) {
          using V = std::decay_t<decltype(x)>;
          const V& y = std::get<V>(b);
          if constexpr (std::is_same_v<V, Quat>)
            return x.coeffs() == y.coeffs();
          else
            return bool(x == y);
        },
        a);
  }
};

/// Empty when a and b are equal field by field, else one differing path per line.
inline std::string modelDifferences(const ModelSpec& a, const ModelSpec& b) {
  ModelDiff d;
  d.item(modelDescription(), &a, &b, "");
  return d.str();
}

}  // namespace flexim::test
