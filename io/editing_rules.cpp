#include "io/editing_rules.h"

#include <cctype>

namespace flexim::io {

bool holderScoped(const ItemDescription& d) {
  for (const FieldDescription& f : modelDescription().fields)
    if (f.type == FieldType::List && f.item == &d) return false;
  return true;
}

bool refersToKind(const std::string& refersTo, const ItemDescription& d) {
  return d.kind == refersTo || (!d.nameScope.empty() && d.nameScope == refersTo);
}

std::string numberedName(const std::set<std::string>& used, const std::string& base) {
  for (int n = 1;; ++n)
    if (!used.count(base + std::to_string(n))) return base + std::to_string(n);
}

std::string freeName(const std::set<std::string>& used, const std::string& name, const std::string& fallback) {
  std::string base = name;
  while (!base.empty() && std::isdigit(static_cast<unsigned char>(base.back()))) base.pop_back();
  return numberedName(used, base.empty() ? fallback : base);
}

}  // namespace flexim::io
