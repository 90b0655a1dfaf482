// Writing stored run results to a file through io's writers.
#pragma once

#include "core/run/simulation.h"

#include <string>

namespace flexim::ui {

class ResultStore;

/// CSV with io::CsvResultWriter; modelPath (may be empty) goes into the metadata with its
/// SHA-256. Returns false, with a readable reason in error, on failure.
bool exportResultsCsv(const ResultStore& results, const RunSummary& summary, const std::string& path,
                      const std::string& modelPath, std::string& error);

}  // namespace flexim::ui
