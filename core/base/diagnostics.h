// Diagnostics: messages about user input or a run, each naming where the problem is.
// Core never prints; callers (CLI, GUI) decide how to show these.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace flexim {

enum class Severity { Info, Warning, Error };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string where;    ///< e.g. "bodies[2].inertia", "joint 'crank_pin'", "part.inp:12"
  std::string message;  ///< what is wrong, and a hint where one helps
  std::string str() const;  ///< "where: severity: message"
};

class Diagnostics {
 public:
  void error(std::string where, std::string message);
  void warning(std::string where, std::string message);
  void info(std::string where, std::string message);
  bool hasErrors() const;
  const std::vector<Diagnostic>& items() const { return m_items; }
  std::string str() const;  ///< one line per item
  void append(const Diagnostics& other);

 private:
  std::vector<Diagnostic> m_items;
};

/// Thrown by core entry points for invalid input; message names the item.
class FleximError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace flexim
