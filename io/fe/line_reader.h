// Line-oriented reading of text files held in memory, with "file:line" locations for
// diagnostics and strict number parsing (std::from_chars, no locale, no iostreams).
// Shared by the FE importers in io/fe.
#pragma once

#include "core/base/diagnostics.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace flexim::io {

/// Reads the whole file into text (binary, unchanged). Reports "path: cannot open ..." and
/// returns false if it cannot be read or is larger than maxBytes.
bool readTextFile(const std::string& path, std::string& text, Diagnostics& diag,
                  std::size_t maxBytes = std::size_t(8) << 30);

/// Walks through text line by line. Lines end at '\n'; a '\r' before it is dropped; a last
/// line without '\n' counts. Line numbers start at 1. The text must outlive the reader.
class LineReader {
 public:
  LineReader(std::string_view text, std::string source);

  /// Next line without its end-of-line characters; false at the end of the text.
  bool next(std::string_view& line);
  /// Makes the next call of next() return the line just read again (one level only).
  void unread();
  bool atEnd() const { return m_pos >= m_text.size() && !m_unread; }

  int line() const { return m_line; }  ///< number of the line last returned, 0 before the first
  const std::string& source() const { return m_source; }
  std::string where() const { return where(m_line); }  ///< "source:line"
  std::string where(int line) const { return m_source + ":" + std::to_string(line); }

 private:
  std::string_view m_text;
  std::string m_source;
  std::size_t m_pos = 0, m_lastStart = 0;
  int m_line = 0;
  bool m_unread = false;
};

/// s without leading and trailing blanks (space, tab, '\r', '\n', '\f', '\v').
std::string_view trim(std::string_view s);

/// Columns first..last (1-based, inclusive) of line, clipped to its length (empty if the
/// line is shorter than first). For fixed-column formats.
std::string_view columns(std::string_view line, std::size_t first, std::size_t last);

/// Splits line at sep into trimmed fields (an empty line gives one empty field). out is
/// cleared first; its capacity is reused.
void splitFields(std::string_view line, char sep, std::vector<std::string_view>& out);

/// Splits line at runs of blanks into non-empty fields.
void splitWords(std::string_view line, std::vector<std::string_view>& out);

// Strict number parsing: after trimming blanks, the whole field must be the number. On
// failure the functions return false and, if problem is given, set it to a message such as
// "'1.2.3' is not a number" or "'nan' is not a finite number".

/// Integer in int range; a leading '+' is accepted.
bool parseInt(std::string_view s, int& out, std::string* problem = nullptr);
/// 64-bit integer; a leading '+' is accepted.
bool parseInt64(std::string_view s, long long& out, std::string* problem = nullptr);
/// Finite double; accepts a leading '+', and Fortran exponents ("1.5D+03"). Rejects NaN, Inf
/// and values that overflow.
bool parseDouble(std::string_view s, double& out, std::string* problem = nullptr);

/// Upper-case ASCII copy.
std::string toUpper(std::string_view s);
/// Case-insensitive ASCII comparison.
bool equalsIgnoreCase(std::string_view a, std::string_view b);
/// s shortened to at most max characters for quoting in messages (with "..." if cut) and
/// non-printable bytes replaced by '?'.
std::string quoteField(std::string_view s, std::size_t max = 40);

}  // namespace flexim::io
