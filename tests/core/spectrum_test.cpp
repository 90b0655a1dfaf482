// The amplitude spectrum of a channel: sines of known amplitude and frequency come back at their
// frequency with their amplitude, whatever the offset and the spacing of the samples.
#include "core/run/spectrum.h"

#include <QtTest>

#include <cmath>
#include <numbers>
#include <random>

using namespace flexim;

namespace {

constexpr double kPi = std::numbers::pi;

double amplitudeAt(const Spectrum& s, double f) {
  std::size_t best = 0;
  for (std::size_t b = 0; b < s.frequency.size(); ++b)
    if (std::abs(s.frequency[b] - f) < std::abs(s.frequency[best] - f)) best = b;
  return s.amplitude[best];
}

}  // namespace

class SpectrumTest : public QObject {
  Q_OBJECT

 private slots:
  /// 2 sin(2 pi 5 t) + 0.3 cos(2 pi 20 t) + 3 at 1 kHz for 2 s: both lines exact, the offset gone.
  void binCentredSinesReadTheirAmplitude() {
    std::vector<double> t, v;
    for (int i = 0; i < 2000; ++i) {
      t.push_back(1e-3 * i);
      v.push_back(2.0 * std::sin(2 * kPi * 5 * t.back()) + 0.3 * std::cos(2 * kPi * 20 * t.back()) + 3.0);
    }
    const Spectrum s = amplitudeSpectrum(t, v);
    QCOMPARE(s.samples, std::size_t(2000));
    QVERIFY(std::abs(s.resolution - 0.5) < 1e-12);
    QCOMPARE(s.frequency.size(), std::size_t(1001));
    QVERIFY(std::abs(s.frequency.back() - 500.0) < 1e-9);  // Nyquist
    QVERIFY2(std::abs(amplitudeAt(s, 5.0) - 2.0) < 1e-9, qPrintable(QString::number(amplitudeAt(s, 5.0))));
    QVERIFY(std::abs(amplitudeAt(s, 20.0) - 0.3) < 1e-9);
    QVERIFY(amplitudeAt(s, 0.0) < 1e-9);     // the mean is removed
    QVERIFY(amplitudeAt(s, 100.0) < 1e-9);   // no leakage far from the lines
    QCOMPARE(peakFrequency(s), 5.0);
  }

  /// Between two bins the Hann window loses at most 15 % (1.42 dB) and the peak stays put.
  void offBinSineLosesAtMostTheScalloping() {
    std::vector<double> t, v;
    for (int i = 0; i < 2000; ++i) {
      t.push_back(1e-3 * i);
      v.push_back(std::sin(2 * kPi * 5.25 * t.back()));
    }
    const Spectrum s = amplitudeSpectrum(t, v);
    const double peak = std::max(amplitudeAt(s, 5.0), amplitudeAt(s, 5.5));
    QVERIFY2(peak > 0.84 && peak <= 1.0, qPrintable(QString::number(peak)));
    QVERIFY(std::abs(peakFrequency(s) - 5.25) <= 0.25 + 1e-12);
  }

  /// Jittered sample times (±30 % of the spacing): interpolated onto a grid, the line stays.
  void unequallySpacedSamples() {
    std::mt19937 random(7);
    std::uniform_real_distribution<double> jitter(-0.3e-3, 0.3e-3);
    std::vector<double> t, v;
    for (int i = 0; i < 4000; ++i) {
      t.push_back(1e-3 * i + (i > 0 && i < 3999 ? jitter(random) : 0.0));
      v.push_back(1.5 * std::sin(2 * kPi * 12 * t.back()));
    }
    const Spectrum s = amplitudeSpectrum(t, v);
    QVERIFY(std::abs(peakFrequency(s) - 12.0) < 1e-9);
    QVERIFY2(std::abs(amplitudeAt(s, 12.0) - 1.5) < 0.01, qPrintable(QString::number(amplitudeAt(s, 12.0))));
  }

  /// NaN samples (a channel not defined yet) are skipped; too little data is refused with a reason.
  void gapsAndTooLittleData() {
    std::vector<double> t, v;
    for (int i = 0; i < 1000; ++i) {
      t.push_back(1e-3 * i);
      v.push_back(i < 10 ? std::nan("") : std::sin(2 * kPi * 50 * t.back()));
    }
    QVERIFY(std::abs(peakFrequency(amplitudeSpectrum(t, v)) - 50.0) < 1.1);
    std::string error;
    QVERIFY(amplitudeSpectrum({0.0, 1.0, 2.0}, {1.0, 2.0, 3.0}, &error).empty());
    QVERIFY(error.find("fewer than 4") != std::string::npos);
    QVERIFY(amplitudeSpectrum({1.0, 1.0, 1.0, 1.0}, {1.0, 2.0, 3.0, 4.0}, &error).empty());
  }
};

QTEST_APPLESS_MAIN(SpectrumTest)
#include "spectrum_test.moc"
