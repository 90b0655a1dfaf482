// flexim-cli spectrum: the amplitude spectrum of one channel of a results CSV (the same as the
// plots' spectrum view), for scripts and reports.
#include "app/cli_common.h"
#include "core/run/spectrum.h"

#include <fstream>
#include <sstream>

namespace flexim::cli {

namespace {

/// Splits a CSV line at commas (the results CSV quotes nothing).
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line);
  for (std::string f; std::getline(in, f, ',');) out.push_back(f);
  return out;
}

}  // namespace

int spectrumCommand(const std::vector<std::string>& args) {
  std::string csv, channel, out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if ((a == "--channel" || a == "--out") && i + 1 < args.size()) (a == "--channel" ? channel : out) = args[++i];
    else if (a.rfind("--", 0) == 0) return fail("spectrum: unknown option " + a);
    else if (csv.empty()) csv = a;
    else return fail("spectrum: expected one results file, got '" + csv + "' and '" + a + "'");
  }
  if (csv.empty() || channel.empty()) return fail("spectrum: usage: flexim-cli spectrum RESULTS.csv --channel NAME [--out FILE.csv]");
  std::ifstream in(csv);
  if (!in) return fail(csv + ": cannot open");

  // comment lines (#) around a header row "time [s],name [unit],..." and rows of numbers
  std::string line, unit;
  int column = -1, lineNo = 0;
  std::vector<double> t, v;
  while (std::getline(in, line)) {
    ++lineNo;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = fields(line);
    if (column < 0) {
      for (std::size_t c = 1; c < f.size(); ++c) {
        const std::size_t bracket = f[c].find(" [");
        if (f[c] == channel || (bracket != std::string::npos && f[c].substr(0, bracket) == channel)) {
          column = int(c);
          if (bracket != std::string::npos) unit = f[c].substr(bracket + 2, f[c].size() - bracket - 3);
        }
      }
      if (column < 0) return fail(csv + ":" + std::to_string(lineNo) + ": no channel '" + channel + "' in the header");
      continue;
    }
    double time = 0, value = 0;
    if (f.size() <= std::size_t(column) || !parseNumber(f[0], time) || !parseNumber(f[std::size_t(column)], value))
      return fail(csv + ":" + std::to_string(lineNo) + ": expected numbers in columns 1 and " + std::to_string(column + 1));
    t.push_back(time);
    v.push_back(value);
  }
  if (column < 0) return fail(csv + ": no header row (not a results CSV)");
  std::string error;
  const Spectrum s = amplitudeSpectrum(t, v, &error);
  if (s.empty()) return fail(csv + ": channel '" + channel + "': " + error);

  FILE* file = out.empty() ? stdout : std::fopen(out.c_str(), "w");
  if (!file) return fail(out + ": cannot write");
  std::fprintf(file, "# amplitude spectrum of %s in %s: %zu samples resampled evenly, mean removed, Hann window\n",
               channel.c_str(), csv.c_str(), s.samples);
  std::fprintf(file, "frequency [Hz],%s amplitude [%s]\n", channel.c_str(), unit.c_str());
  for (std::size_t b = 0; b < s.frequency.size(); ++b) std::fprintf(file, "%.10g,%.10g\n", s.frequency[b], s.amplitude[b]);
  const bool written = out.empty() || std::fclose(file) == 0;
  if (!written) return fail(out + ": cannot write");
  std::fprintf(stderr, "%s: peak at %.6g Hz (resolution %.4g Hz)%s%s\n", channel.c_str(), peakFrequency(s), s.resolution,
               out.empty() ? "" : ", written: ", out.c_str());
  return 0;
}

}  // namespace flexim::cli
