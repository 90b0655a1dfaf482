#include "io/fe/line_reader.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace flexim::io {

bool readTextFile(const std::string& path, std::string& text, Diagnostics& diag, std::size_t maxBytes) {
  text.clear();
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    diag.error(path, std::string("cannot open file: ") + std::strerror(errno));
    return false;
  }
  if (std::fseek(f, 0, SEEK_END) == 0) {
    const long size = std::ftell(f);
    if (size > 0 && static_cast<unsigned long>(size) > maxBytes) {
      diag.error(path, "file is too large (" + std::to_string(size) + " bytes)");
      std::fclose(f);
      return false;
    }
    if (size > 0) text.reserve(static_cast<std::size_t>(size));
    std::fseek(f, 0, SEEK_SET);
  }
  bool ok = true;
  char buf[1 << 16];
  for (;;) {
    const std::size_t got = std::fread(buf, 1, sizeof buf, f);
    if (got > 0) text.append(buf, got);
    if (text.size() > maxBytes) {
      diag.error(path, "file is too large (more than " + std::to_string(maxBytes) + " bytes)");
      ok = false;
      break;
    }
    if (got < sizeof buf) {
      if (std::ferror(f)) {
        diag.error(path, std::string("cannot read file: ") + std::strerror(errno));
        ok = false;
      }
      break;
    }
  }
  std::fclose(f);
  if (!ok) text.clear();
  return ok;
}

// ---- LineReader --------------------------------------------------------------------------

LineReader::LineReader(std::string_view text, std::string source) : m_text(text), m_source(std::move(source)) {}

bool LineReader::next(std::string_view& line) {
  std::size_t start = m_pos;
  if (m_unread) {
    m_unread = false;
    start = m_lastStart;
  } else if (m_pos >= m_text.size()) {
    return false;
  }
  m_lastStart = start;
  const void* nl = std::memchr(m_text.data() + start, '\n', m_text.size() - start);
  std::size_t end = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - m_text.data()) : m_text.size();
  m_pos = nl ? end + 1 : m_text.size();
  if (end > start && m_text[end - 1] == '\r') --end;
  line = m_text.substr(start, end - start);
  ++m_line;
  return true;
}

void LineReader::unread() {
  if (m_line > 0 && !m_unread) {
    m_unread = true;
    --m_line;
  }
}

// ---- fields ------------------------------------------------------------------------------

namespace {
inline bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
}  // namespace

std::string_view trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && isBlank(s[b])) ++b;
  while (e > b && isBlank(s[e - 1])) --e;
  return s.substr(b, e - b);
}

std::string_view columns(std::string_view line, std::size_t first, std::size_t last) {
  if (first < 1 || last < first || first > line.size()) return {};
  return line.substr(first - 1, std::min(last, line.size()) - (first - 1));
}

void splitFields(std::string_view line, char sep, std::vector<std::string_view>& out) {
  out.clear();
  std::size_t start = 0;
  for (;;) {
    const std::size_t p = line.find(sep, start);
    if (p == std::string_view::npos) {
      out.push_back(trim(line.substr(start)));
      return;
    }
    out.push_back(trim(line.substr(start, p - start)));
    start = p + 1;
  }
}

void splitWords(std::string_view line, std::vector<std::string_view>& out) {
  out.clear();
  std::size_t i = 0;
  const std::size_t n = line.size();
  while (i < n) {
    while (i < n && isBlank(line[i])) ++i;
    if (i >= n) break;
    const std::size_t b = i;
    while (i < n && !isBlank(line[i])) ++i;
    out.push_back(line.substr(b, i - b));
  }
}

// ---- numbers -----------------------------------------------------------------------------

std::string quoteField(std::string_view s, std::size_t max) {
  std::string q = "'";
  const bool cut = s.size() > max;
  for (char c : cut ? s.substr(0, max) : s) q += (static_cast<unsigned char>(c) < 32 || c == 127) ? '?' : c;
  if (cut) q += "...";
  q += "'";
  return q;
}

namespace {

template <class T>
bool parseInteger(std::string_view s, T& out, std::string* problem, const char* what) {
  std::string_view t = trim(s);
  if (t.empty()) {
    if (problem) *problem = std::string("expected ") + what + ", got an empty field";
    return false;
  }
  std::string_view digits = t;
  if (digits[0] == '+') digits.remove_prefix(1);
  if (digits.empty() || (t[0] == '+' && (digits[0] == '-' || digits[0] == '+'))) {
    if (problem) *problem = quoteField(t) + " is not " + what;
    return false;
  }
  T v{};
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (r.ec == std::errc::result_out_of_range) {
    if (problem) *problem = quoteField(t) + " is out of range";
    return false;
  }
  if (r.ec != std::errc() || r.ptr != digits.data() + digits.size()) {
    if (problem) *problem = quoteField(t) + " is not " + what;
    return false;
  }
  out = v;
  return true;
}

}  // namespace

bool parseInt(std::string_view s, int& out, std::string* problem) {
  return parseInteger(s, out, problem, "an integer");
}

bool parseInt64(std::string_view s, long long& out, std::string* problem) {
  return parseInteger(s, out, problem, "an integer");
}

bool parseDouble(std::string_view s, double& out, std::string* problem) {
  std::string_view t = trim(s);
  if (t.empty()) {
    if (problem) *problem = "expected a number, got an empty field";
    return false;
  }
  std::string_view body = t;
  if (body[0] == '+') {
    body.remove_prefix(1);
    if (body.empty() || body[0] == '+' || body[0] == '-') {
      if (problem) *problem = quoteField(t) + " is not a number";
      return false;
    }
  }
  // Fortran double-precision exponents: copy to a small buffer with 'E'
  char buf[64];
  if (body.find_first_of("dD") != std::string_view::npos && body.size() < sizeof buf) {
    for (std::size_t i = 0; i < body.size(); ++i) buf[i] = (body[i] == 'd' || body[i] == 'D') ? 'E' : body[i];
    body = std::string_view(buf, body.size());
  }
  double v = 0.0;
  const char* end = body.data() + body.size();
  // from_chars accepts "inf"/"nan" and hexadecimal-free decimal forms; reject the former below
  const auto r = std::from_chars(body.data(), end, v, std::chars_format::general);
  if (r.ec == std::errc::result_out_of_range) {
    // underflow to a denormal/zero is harmless; overflow is not
    const bool tiny = [&] {
      std::size_t e = body.find_first_of("eE");
      if (e == std::string_view::npos) return false;
      int exp = 0;
      return parseInt(body.substr(e + 1), exp) && exp < 0;
    }();
    if (tiny && r.ptr == end) {
      out = 0.0;
      return true;
    }
    if (problem) *problem = quoteField(t) + " is out of range";
    return false;
  }
  if (r.ec != std::errc() || r.ptr != end) {
    if (problem) *problem = quoteField(t) + " is not a number";
    return false;
  }
  if (!std::isfinite(v)) {
    if (problem) *problem = quoteField(t) + " is not a finite number";
    return false;
  }
  out = v;
  return true;
}

std::string toUpper(std::string_view s) {
  std::string u(s);
  for (char& c : u)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return u;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'a' && x <= 'z') x = static_cast<char>(x - 'a' + 'A');
    if (y >= 'a' && y <= 'z') y = static_cast<char>(y - 'a' + 'A');
    if (x != y) return false;
  }
  return true;
}

}  // namespace flexim::io
