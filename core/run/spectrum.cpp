#include "core/run/spectrum.h"

#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

namespace flexim {

Spectrum amplitudeSpectrum(const std::vector<double>& t, const std::vector<double>& v, std::string* error) {
  const auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return Spectrum{};
  };
  std::vector<double> ts, vs;
  ts.reserve(t.size());
  vs.reserve(t.size());
  for (std::size_t i = 0; i < t.size() && i < v.size(); ++i)
    if (std::isfinite(t[i]) && std::isfinite(v[i]) && (ts.empty() || t[i] > ts.back())) {
      ts.push_back(t[i]);
      vs.push_back(v[i]);
    }
  if (ts.size() < 4) return fail("fewer than 4 samples");
  const double duration = ts.back() - ts.front();
  if (!(duration > 0.0)) return fail("the samples span no time");

  // equally spaced at the mean spacing; the grid's duration n dt defines the resolution
  const std::size_t n = ts.size();
  const double dt = duration / double(n - 1);
  std::vector<double> x(n);
  std::size_t k = 0;
  double mean = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double ti = ts.front() + double(i) * dt;
    while (k + 2 < ts.size() && ts[k + 1] <= ti) ++k;
    const double s = std::clamp((ti - ts[k]) / (ts[k + 1] - ts[k]), 0.0, 1.0);
    x[i] = vs[k] + s * (vs[k + 1] - vs[k]);
    mean += x[i];
  }
  mean /= double(n);
  // periodic Hann window: coherent gain 1/2, so a bin-centred sine of amplitude A gives |X| = A n / 4
  double windowSum = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double w = 0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * double(i) / double(n));
    x[i] = (x[i] - mean) * w;
    windowSum += w;
  }
  Eigen::FFT<double> fft;
  std::vector<std::complex<double>> X;
  fft.fwd(X, x);

  Spectrum s;
  s.samples = n;
  s.resolution = 1.0 / (double(n) * dt);
  const std::size_t bins = n / 2 + 1;
  s.frequency.resize(bins);
  s.amplitude.resize(bins);
  for (std::size_t b = 0; b < bins; ++b) {
    const bool single = b == 0 || (n % 2 == 0 && b == n / 2);  // no mirror image to fold in
    s.frequency[b] = double(b) * s.resolution;
    s.amplitude[b] = (single ? 1.0 : 2.0) * std::abs(X[b]) / windowSum;
  }
  return s;
}

double peakFrequency(const Spectrum& s) {
  std::size_t best = 0;
  for (std::size_t b = 1; b < s.amplitude.size(); ++b)
    if (best == 0 || s.amplitude[b] > s.amplitude[best]) best = b;
  return best < s.frequency.size() ? s.frequency[best] : 0.0;
}

}  // namespace flexim
