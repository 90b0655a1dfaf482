// Results as CSV: '#' metadata lines (version, model file and SHA-256, integrator, settings,
// date), one header row "time [s],<channel> [unit],...", one row per sample, and a final
// "# end: ..." line. Rows are flushed as they are written, so a crash keeps every sample.
#pragma once

#include "core/run/result_table.h"
#include "core/run/simulation.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace flexim::io {

class CsvResultWriter : public ResultSink {
 public:
  /// modelPath names the model file in the metadata (with its SHA-256); empty for none.
  explicit CsvResultWriter(std::string outputPath, std::string modelPath = {});
  ~CsvResultWriter() override;

  /// Creates (truncates) the output file; begin() does it when not done yet. Lets a caller
  /// find an unwritable path before a long run. Returns ok().
  bool open();

  void begin(const std::vector<Channel>& channels, const RunSummary& info) override;
  void sample(const Sample& s) override;
  void end(const RunSummary& summary) override;

  /// False once opening or writing failed; error() then says why (naming the file).
  bool ok() const { return m_error.empty(); }
  const std::string& error() const { return m_error; }
  const std::string& path() const { return m_path; }
  /// The first column's title (before begin): "time [s]" unless set (ResultTable::abscissa).
  void setAbscissa(Channel abscissa) { m_abscissa = std::move(abscissa); }

 private:
  void write(const std::string& text);
  void close();

  std::string m_path, m_modelPath, m_error;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> m_file{nullptr, &std::fclose};
  Channel m_abscissa{"time", "s"};
  std::size_t m_columns = 0;  ///< channel values per row (time not counted)
  std::size_t m_notesInHeader = 0;  ///< the summary's notes already written by begin()
};

/// Writes a stored run (the table of its samples and its summary) as one CSV file; modelPath as
/// for CsvResultWriter. False, with a reason naming the file in error, on failure.
bool writeResultsCsv(const ResultTable& results, const RunSummary& summary, const std::string& path,
                     const std::string& modelPath, std::string& error);

/// A CSV result file read back.
struct CsvTable {
  std::vector<std::string> metadata;         ///< '#' lines without the leading "# "
  std::vector<std::string> header;           ///< column titles, e.g. "slider.position.x [m]"
  std::vector<std::vector<double>> columns;  ///< columns[c][row]
  std::size_t rows() const { return columns.empty() ? 0 : columns.front().size(); }
  /// Index of the column whose title is name or starts with "name [", or -1.
  int find(const std::string& name) const;
};

/// Reads a CSV written by CsvResultWriter (or any numeric CSV with one header row), skipping
/// '#' lines. A last line cut short by a crash is dropped. False with a reason on failure.
bool readCsv(const std::string& path, CsvTable& out, std::string* error = nullptr);

/// Shortest text that reads back to the same double ("0.1", "1e-10", "nan").
std::string formatDouble(double v);

}  // namespace flexim::io
