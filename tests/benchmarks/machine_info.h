// Benchmark helper: facts about the machine and the process that belong next to a timing.
#pragma once

#include <sys/resource.h>

#include <ctime>
#include <fstream>
#include <string>

namespace flexim::bench {

/// CPU model from /proc/cpuinfo.
inline std::string cpuModel() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("model name", 0) == 0) {
      const auto p = line.find(':');
      return p == std::string::npos ? line : line.substr(p + 2);
    }
  return "unknown";
}

/// 1, 5 and 15 minute load averages (other work on the machine skews timings).
inline std::string loadAverage() {
  std::ifstream f("/proc/loadavg");
  std::string a, b, c;
  f >> a >> b >> c;
  return f ? a + " " + b + " " + c : "unknown";
}

/// Local date and time.
inline std::string now() {
  char buf[64];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %Z", std::localtime(&t));
  return buf;
}

/// Peak resident set size of the process so far [MB] (ru_maxrss is in KiB on Linux).
inline double peakRssMb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024.0;
}

}  // namespace flexim::bench
