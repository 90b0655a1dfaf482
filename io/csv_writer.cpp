#include "io/csv_writer.h"

#include "io/sha256.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>

namespace flexim::io {

namespace {

/// Metadata values go on one '#' line each, so line breaks inside them must go.
std::string oneLine(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

/// RFC 4180 quoting, only where needed (titles normally need none).
std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string utcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string modelLine(const std::string& modelPath) {
  if (modelPath.empty()) return "# model: (none)\n";
  std::string hex, why;
  const std::string name = std::filesystem::path(modelPath).filename().string();
  if (!sha256FileHex(modelPath, hex, &why)) hex = "unavailable (" + why + ")";
  return "# model: " + oneLine(name) + " sha256=" + hex + "\n";
}

}  // namespace

std::string formatDouble(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

CsvResultWriter::CsvResultWriter(std::string outputPath, std::string modelPath)
    : m_path(std::move(outputPath)), m_modelPath(std::move(modelPath)) {}

CsvResultWriter::~CsvResultWriter() = default;

bool CsvResultWriter::open() {
  if (m_file || !ok()) return ok();
  m_file.reset(std::fopen(m_path.c_str(), "w"));
  if (!m_file) m_error = "cannot write '" + m_path + "': " + std::strerror(errno);
  return ok();
}

void CsvResultWriter::write(const std::string& text) {
  if (!m_file) return;
  // one fwrite per row and a flush: a crash loses at most the row being written
  if (std::fwrite(text.data(), 1, text.size(), m_file.get()) != text.size() || std::fflush(m_file.get()) != 0) {
    m_error = "cannot write '" + m_path + "': " + std::strerror(errno);
    close();
  }
}

void CsvResultWriter::close() { m_file.reset(); }

void CsvResultWriter::begin(const std::vector<Channel>& channels, const RunSummary& info) {
  if (!open()) return;
  m_columns = channels.size();
  std::string head = std::string("# Flexim ") + FLEXIM_VERSION + "\n";
  head += modelLine(m_modelPath);
  head += "# integrator: " + oneLine(info.integrator) + "\n";
  head += "# settings: " + oneLine(info.settings) + "\n";
  for (const auto& n : info.notes) head += "# note: " + oneLine(n) + "\n";
  m_notesInHeader = info.notes.size();
  head += "# date: " + utcNow() + "\n";
  head += csvField(m_abscissa.header());
  for (const Channel& c : channels) (head += ',') += csvField(c.header());
  write(head + "\n");
}

void CsvResultWriter::sample(const Sample& s) {
  if (!m_file) return;
  std::string row = formatDouble(s.t);
  // exactly one field per channel, whatever the sample holds, so every row parses
  for (std::size_t i = 0; i < m_columns; ++i)
    (row += ',') += formatDouble(i < s.values.size() ? s.values[i] : std::numeric_limits<double>::quiet_NaN());
  write(row + "\n");
}

namespace {

/// The "# quality:" trailer lines: key=value pairs (numbers in formatDouble form), then the
/// energy check and why, and one line per warning.
std::string qualityLines(const RunQuality& q) {
  if (!q.measured) return {};
  const auto kv = [](const char* key, double v) { return std::string(" ") + key + "=" + formatDouble(v); };
  std::string s = "# quality: constraints" + kv("position_residual", q.position_residual) +
                  kv("position_tolerance", q.position_tolerance) + kv("velocity_residual", q.velocity_residual) +
                  kv("velocity_tolerance", q.velocity_tolerance) + "\n";
  s += "# quality: steps accepted=" + std::to_string(q.steps) + " rejected=" + std::to_string(q.rejected) +
       kv("rejected_limit", quality::kRejectedShare) + " halvings=" + std::to_string(q.halvings) +
       kv("smallest_step", q.smallest_step) + "\n";
  s += "# quality: energy" + kv("initial", q.energy_initial) + kv("final", q.energy_final);
  if (q.energy_known) {
    s += kv("work_drivers", q.work_drivers) + kv("work_dampers", q.work_dampers) + kv("work_loads", q.work_loads);
    if (q.work_stiffening != 0) s += kv("work_stiffening", q.work_stiffening);
    s += kv("balance_error", q.energy_error) + kv("scale", q.energy_scale);
    s += q.energy_checked ? kv("limit", q.energy_limit) + " check=" + q.energy_check
                          : " check=none (" + oneLine(q.energy_note) + ")";
  } else {
    s += " check=unknown (" + oneLine(q.energy_note) + ")";
  }
  s += "\n";
  for (const auto& w : q.warnings) s += "# quality: warning: " + oneLine(w) + "\n";
  return s;
}

}  // namespace

void CsvResultWriter::end(const RunSummary& summary) {
  if (!m_file) return;
  // notes that only the end of the run knows (hand-overs between integrators, stress hot spots)
  std::string line;
  for (size_t i = m_notesInHeader; i < summary.notes.size(); ++i) line += "# note: " + oneLine(summary.notes[i]) + "\n";
  line += qualityLines(summary.quality) + "# end: " + summary.status() +
                     " t=" + formatDouble(summary.t_reached) + " steps=" + std::to_string(summary.steps);
  if (!summary.message.empty()) (line += ' ') += oneLine(summary.message);
  // a warning says why on the end line itself
  for (size_t i = 0; summary.warning() && i < summary.quality.warnings.size(); ++i)
    (line += i ? "; " : " ") += oneLine(summary.quality.warnings[i]);
  write(line + "\n");
  close();
}

// ---- reading ----------------------------------------------------------------------------

namespace {

/// Splits one CSV line, honouring RFC 4180 quotes.
std::vector<std::string> splitCsv(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

bool parseNumber(std::string s, double& v) {
  const auto first = s.find_first_not_of(" \t"), last = s.find_last_not_of(" \t");
  if (first == std::string::npos) return false;
  s = s.substr(first, last - first + 1);
  const char* begin = s.data() + (s[0] == '+' ? 1 : 0);  // from_chars rejects a leading '+'
  const auto r = std::from_chars(begin, s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

}  // namespace

int CsvTable::find(const std::string& name) const {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name || header[i].rfind(name + " [", 0) == 0) return static_cast<int>(i);
  return -1;
}

bool readCsv(const std::string& path, CsvTable& out, std::string* error) {
  const auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return false;
  };
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("cannot open '" + path + "': " + std::strerror(errno));
  CsvTable table;
  std::string line;
  std::size_t lineNo = 0;
  bool haveHeader = false;
  while (std::getline(in, line)) {
    ++lineNo;
    const bool complete = !in.eof();  // getline hit a newline
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (line[0] == '#') {
      table.metadata.push_back(line.substr(line.rfind("# ", 0) == 0 ? 2 : 1));
      continue;
    }
    std::vector<std::string> fields = splitCsv(line);
    if (!haveHeader) {
      table.header = std::move(fields);
      table.columns.assign(table.header.size(), {});
      haveHeader = true;
      continue;
    }
    std::vector<double> values(fields.size());
    bool numeric = fields.size() == table.header.size();
    for (std::size_t i = 0; numeric && i < fields.size(); ++i) numeric = parseNumber(fields[i], values[i]);
    if (!numeric) {
      if (!complete) break;  // the last row of a run that died while writing it
      const std::string where = path + ":" + std::to_string(lineNo) + ": ";
      if (fields.size() != table.header.size())
        return fail(where + "expected " + std::to_string(table.header.size()) + " values, got " +
                    std::to_string(fields.size()));
      return fail(where + "not a number in row");
    }
    for (std::size_t i = 0; i < values.size(); ++i) table.columns[i].push_back(values[i]);
  }
  if (in.bad()) return fail("cannot read '" + path + "'");
  if (!haveHeader) return fail(path + ": no header row");
  out = std::move(table);
  return true;
}

bool writeResultsCsv(const ResultTable& results, const RunSummary& summary, const std::string& path,
                     const std::string& modelPath, std::string& error) {
  CsvResultWriter writer(path, modelPath);
  if (!writer.open()) {
    error = writer.error();
    return false;
  }
  writer.setAbscissa(results.abscissa());
  writer.begin(results.channels(), summary);
  for (std::size_t i = 0; i < results.size(); ++i) writer.sample(results.sample(i));
  writer.end(summary);
  if (!writer.ok()) {
    error = writer.error();
    return false;
  }
  return true;
}

}  // namespace flexim::io
