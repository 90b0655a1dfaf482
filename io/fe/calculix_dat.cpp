#include "io/fe/calculix_dat.h"

#include "io/fe/line_reader.h"

namespace flexim::io {

namespace {

constexpr std::string_view kEigenTitle = "E I G E N V A L U E   O U T P U T";
constexpr std::string_view kTotalMassTitle = "T O T A L   E F F E C T I V E   M A S S";
constexpr int kMaxHeaderLines = 12;  ///< lines between a title and its first row
constexpr int kMaxErrors = 50;

bool startsWithDigit(std::string_view t) { return !t.empty() && t[0] >= '0' && t[0] <= '9'; }

class DatParser {
 public:
  DatParser(std::string_view text, const std::string& source, CalculixEigenTable& table, Diagnostics& diag)
      : m_reader(text, source), m_table(table), m_diag(diag) {}

  bool parse() {
    std::string_view line;
    int tables = 0, firstTitle = 0;
    while (m_errors < kMaxErrors && m_reader.next(line)) {
      if (line.find(kEigenTitle) != std::string_view::npos) {
        if (tables++ == 0) firstTitle = m_reader.line();
        eigenTable(m_reader.line());
      } else if (line.find(kTotalMassTitle) != std::string_view::npos) {
        totalMass(m_reader.line());
      }
    }
    if (m_errors > 0) return false;
    if (tables == 0) {
      m_diag.error(m_reader.source(), "no eigenvalue table ('" + std::string(kEigenTitle) +
                                          "') in the file: not the .dat of a *FREQUENCY step?");
      return false;
    }
    bool allZero = true;
    for (std::size_t i = 0; i < m_table.eigenvalue.size(); ++i)
      allZero = allZero && m_table.eigenvalue[i] == 0.0 && m_table.frequency_hz[i] == 0.0 && m_table.omega_imag[i] == 0.0;
    if (allZero) {
      m_diag.error(m_reader.where(firstTitle), "the eigenvalue table is all zeros: the eigen solver failed (with "
                                               "ARPACK, 5 * modes must not exceed the number of equations)");
      return false;
    }
    if (tables > 1)
      m_diag.info(m_reader.source(), std::to_string(tables) + " eigenvalue tables; their modes are concatenated");
    return true;
  }

 private:
  void error(int line, std::string msg) {
    if (m_errors++ < kMaxErrors) m_diag.error(m_reader.where(line), std::move(msg));
  }

  void eigenTable(int titleLine) {
    std::string_view line;
    int header = 0, rows = 0;
    while (m_reader.next(line)) {
      const std::string_view t = trim(line);
      if (rows == 0 && !startsWithDigit(t)) {
        if (++header > kMaxHeaderLines) {
          error(titleLine, "eigenvalue table without rows");
          return;
        }
        continue;
      }
      if (t.empty()) return;  // the table ends at the first blank line
      if (!startsWithDigit(t)) {
        m_reader.unread();
        return;
      }
      ++rows;
      splitWords(t, m_words);
      if (m_words.size() != 5) {
        error(m_reader.line(), "eigenvalue table row: expected the mode number and 4 values, got " +
                                   std::to_string(m_words.size()) + " fields");
        if (m_errors >= kMaxErrors) return;
        continue;
      }
      int mode = 0;
      double v[4];
      std::string problem;
      bool ok = parseInt(m_words[0], mode, &problem);
      for (std::size_t i = 0; ok && i < 4; ++i) ok = parseDouble(m_words[i + 1], v[i], &problem);
      if (!ok) {
        error(m_reader.line(), "eigenvalue table row: " + problem);
        if (m_errors >= kMaxErrors) return;
        continue;
      }
      m_table.mode.push_back(mode);
      m_table.eigenvalue.push_back(v[0]);
      m_table.omega_real.push_back(v[1]);
      m_table.frequency_hz.push_back(v[2]);
      m_table.omega_imag.push_back(v[3]);
    }
    if (rows == 0) error(m_reader.line() > 0 ? m_reader.line() : titleLine, "file ends before the rows of the eigenvalue table");
  }

  void totalMass(int titleLine) {
    std::string_view line;
    for (int i = 0; i < kMaxHeaderLines && m_reader.next(line); ++i) {
      const std::string_view t = trim(line);
      if (t.empty() || !(startsWithDigit(t) || t[0] == '-' || t[0] == '+' || t[0] == '.')) continue;
      splitWords(t, m_words);
      std::array<double, 6> v{};
      bool ok = m_words.size() == 6;
      for (std::size_t k = 0; ok && k < 6; ++k) ok = parseDouble(m_words[k], v[k]);
      if (!ok) {
        m_diag.warning(m_reader.where(), "TOTAL EFFECTIVE MASS row not understood; ignored");
        return;
      }
      m_table.total_effective_mass = v;
      m_table.has_total_effective_mass = true;
      return;
    }
    m_diag.warning(m_reader.where(titleLine), "TOTAL EFFECTIVE MASS title without a row; ignored");
  }

  LineReader m_reader;
  CalculixEigenTable& m_table;
  Diagnostics& m_diag;
  int m_errors = 0;
  std::vector<std::string_view> m_words;
};

}  // namespace

bool looksLikeCalculixDat(std::string_view text) { return text.find("E I G E N V A L U E") != std::string_view::npos; }

bool readCalculixDatFromString(std::string_view text, const std::string& source, CalculixEigenTable& table,
                               Diagnostics& diag) {
  CalculixEigenTable t;
  DatParser p(text, source, t, diag);
  if (!p.parse()) return false;
  table = std::move(t);
  return true;
}

bool readCalculixDat(const std::string& path, CalculixEigenTable& table, Diagnostics& diag) {
  std::string text;
  if (!readTextFile(path, text, diag)) return false;
  return readCalculixDatFromString(text, path, table, diag);
}

bool readCalculixDat(const std::string& path, std::vector<double>& frequencies_hz, Diagnostics& diag) {
  CalculixEigenTable t;
  if (!readCalculixDat(path, t, diag)) return false;
  frequencies_hz = std::move(t.frequency_hz);
  return true;
}

bool readCalculixDatEigenvalues(const std::string& path, std::vector<double>& eigenvalues, Diagnostics& diag) {
  CalculixEigenTable t;
  if (!readCalculixDat(path, t, diag)) return false;
  eigenvalues = std::move(t.eigenvalue);
  return true;
}

}  // namespace flexim::io
