// The amplitude spectrum of a sampled channel, for the plots' "spectrum" view and
// `flexim-cli spectrum`. Samples need not be equally spaced (a run's output times are, but a
// channel may have gaps): they are first interpolated linearly onto an equally spaced grid with
// the mean sample spacing.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace flexim {

struct Spectrum {
  std::vector<double> frequency;  ///< [Hz], 0 to the Nyquist frequency, equally spaced
  std::vector<double> amplitude;  ///< in the channel's unit
  double resolution = 0.0;        ///< frequency spacing [Hz] = 1 / duration
  std::size_t samples = 0;        ///< points of the equally spaced grid
  bool empty() const { return frequency.empty(); }
};

/// Single-sided amplitude spectrum of v(t) over [t.front(), t.back()]: the mean removed, a Hann
/// window, scaled so that a sine of amplitude A whose frequency is a multiple of the resolution
/// reads A (between bins the Hann window's scalloping loss is at most 15 %). NaN samples (a
/// channel not yet defined) are skipped. Empty when fewer than 4 finite samples or zero duration;
/// `error` (if given) then says why.
Spectrum amplitudeSpectrum(const std::vector<double>& t, const std::vector<double>& v, std::string* error = nullptr);

/// Frequency [Hz] of the largest amplitude (the mean excluded); 0 for an empty spectrum.
double peakFrequency(const Spectrum& s);

}  // namespace flexim
