#include "ui/results_export.h"

#include "io/csv_writer.h"
#include "ui/result_store.h"

namespace flexim::ui {

bool exportResultsCsv(const ResultStore& results, const RunSummary& summary, const std::string& path,
                      const std::string& modelPath, std::string& error) {
  io::CsvResultWriter writer(path, modelPath);
  if (!writer.open()) {
    error = writer.error();
    return false;
  }
  writer.begin(results.channels(), summary);
  for (const Sample& s : results.samples()) writer.sample(s);
  writer.end(summary);
  if (!writer.ok()) {
    error = writer.error();
    return false;
  }
  return true;
}

}  // namespace flexim::ui
