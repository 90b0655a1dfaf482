#include "core/base/diagnostics.h"

namespace flexim {

static const char* severityName(Severity s) {
  switch (s) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}

std::string Diagnostic::str() const {
  std::string out;
  // "model.json:14: bodies[2].inertia: ...", so editors jump to the line (syntax errors say it already)
  if (!location.file.empty() && location.line > 0 && where.rfind(location.file, 0) != 0)
    out += location.file + ":" + std::to_string(location.line) + ": ";
  if (!where.empty()) out += where + ": ";
  out += severityName(severity);
  out += ": ";
  out += message;
  return out;
}

void Diagnostics::error(std::string where, std::string message) {
  m_items.push_back({Severity::Error, std::move(where), std::move(message), {}});
}
void Diagnostics::warning(std::string where, std::string message) {
  m_items.push_back({Severity::Warning, std::move(where), std::move(message), {}});
}
void Diagnostics::info(std::string where, std::string message) {
  m_items.push_back({Severity::Info, std::move(where), std::move(message), {}});
}
void Diagnostics::add(Diagnostic d) { m_items.push_back(std::move(d)); }
bool Diagnostics::hasErrors() const {
  for (const auto& d : m_items)
    if (d.severity == Severity::Error) return true;
  return false;
}
std::string Diagnostics::str() const {
  std::string out;
  for (const auto& d : m_items) out += d.str() + "\n";
  return out;
}
void Diagnostics::append(const Diagnostics& other) {
  m_items.insert(m_items.end(), other.m_items.begin(), other.m_items.end());
}

}  // namespace flexim
