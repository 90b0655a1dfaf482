// Diagnostics: messages about user input or a run, each naming where the problem is.
// Core never prints; callers (CLI, GUI) decide how to show these.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace flexim {

enum class Severity { Info, Warning, Error };

/// Where a problem is, structured, so a front end can select the item or open the file there.
struct Location {
  std::string item;   ///< the item, e.g. "joints[1] 'pin'" ("" for the model as a whole)
  std::string field;  ///< the field's key path inside the item, e.g. "inertia", "function.speed"
  std::string file;   ///< the file the item was read from ("" when built in memory)
  int line = 0;       ///< 1-based line in file (0 = not known)
};

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string where;    ///< e.g. "bodies[2].inertia", "joint 'crank_pin'", "part.inp:12"
  std::string message;  ///< what is wrong, and a hint where one helps
  Location location;    ///< the same place, structured (where it is known)
  std::string str() const;  ///< "[file:line: ]where: severity: message"
};

class Diagnostics {
 public:
  void error(std::string where, std::string message);
  void warning(std::string where, std::string message);
  void info(std::string where, std::string message);
  void add(Diagnostic d);
  bool hasErrors() const;
  const std::vector<Diagnostic>& items() const { return m_items; }
  std::string str() const;  ///< one line per item
  void append(const Diagnostics& other);
  std::vector<Diagnostic>& items() { return m_items; }

 private:
  std::vector<Diagnostic> m_items;
};

/// Thrown by core entry points for invalid input; message names the item.
class FleximError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace flexim
