// The columns of a result CSV (read by io::readCsv) by their titles, for comparing runs in the
// UI tests.
#pragma once

#include "io/csv_writer.h"

#include <QString>

#include <map>
#include <vector>

namespace flexim::test {

/// Columns by title ("slider.position.x [m]"), or by name without the unit
/// ("slider.position.x") when withoutUnits. Empty when the file cannot be read.
inline std::map<QString, std::vector<double>> csvColumns(const QString& path, bool withoutUnits = false) {
  std::map<QString, std::vector<double>> columns;
  io::CsvTable table;
  if (!io::readCsv(path.toStdString(), table)) return columns;
  for (std::size_t c = 0; c < table.header.size() && c < table.columns.size(); ++c) {
    const QString title = QString::fromStdString(table.header[c]).trimmed();
    columns[withoutUnits ? title.section(" [", 0, 0) : title] = table.columns[c];
  }
  return columns;
}

}  // namespace flexim::test
