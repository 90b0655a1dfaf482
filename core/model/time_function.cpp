#include "core/model/time_function.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace flexim {

using Type = TimeFunctionSpec::Type;

std::string TimeFunction::check(const TimeFunctionSpec& s) {
  switch (s.type) {
    case Type::SmoothStep:
      if (!(s.t1 > s.t0)) return "t1 must be greater than t0";
      break;
    case Type::Harmonic:
      if (s.frequency < 0) return "frequency must not be negative";
      break;
    case Type::Table:
      if (s.times.size() != s.values.size()) return "times and values must have the same length";
      if (s.times.size() < 2) return "a table needs at least 2 points";
      for (size_t i = 1; i < s.times.size(); ++i)
        if (!(s.times[i] > s.times[i - 1])) return "times must be strictly increasing";
      break;
    default: break;
  }
  return {};
}

TimeFunction::TimeFunction(const TimeFunctionSpec& spec) : m_spec(spec) {
  if (spec.type != Type::Table || !check(spec).empty()) return;
  // natural cubic spline: solve the tridiagonal system for the knot second derivatives
  const auto& x = spec.times;
  const auto& y = spec.values;
  const size_t n = x.size();
  m_second.assign(n, 0.0);
  std::vector<double> c(n, 0.0), d(n, 0.0);
  for (size_t i = 1; i + 1 < n; ++i) {
    const double h0 = x[i] - x[i - 1], h1 = x[i + 1] - x[i];
    const double a = h0 / 6, b = (h0 + h1) / 3, cc = h1 / 6;
    const double r = (y[i + 1] - y[i]) / h1 - (y[i] - y[i - 1]) / h0;
    const double denom = b - a * c[i - 1];
    c[i] = cc / denom;
    d[i] = (r - a * d[i - 1]) / denom;
  }
  for (size_t i = n - 1; i-- > 1;) m_second[i] = d[i] - c[i] * m_second[i + 1];
}

TimeValue TimeFunction::operator()(double t) const {
  const auto& s = m_spec;
  switch (s.type) {
    case Type::Constant: return {s.value, 0, 0};
    case Type::ConstantSpeed: return {s.initial + s.speed * t, s.speed, 0};
    case Type::Ramp:
      if (t < s.start) return {s.initial, 0, 0};
      return {s.initial + s.slope * (t - s.start), s.slope, 0};
    case Type::SmoothStep: {
      if (t <= s.t0) return {s.value0, 0, 0};
      if (t >= s.t1) return {s.value1, 0, 0};
      const double T = s.t1 - s.t0, x = (t - s.t0) / T, dv = s.value1 - s.value0;
      // quintic 10x^3 - 15x^4 + 6x^5: zero slope and curvature at both ends
      const double f = x * x * x * (10 + x * (-15 + 6 * x));
      const double df = 30 * x * x * (1 - x) * (1 - x);
      const double ddf = 60 * x * (1 - x) * (1 - 2 * x);
      return {s.value0 + dv * f, dv * df / T, dv * ddf / (T * T)};
    }
    case Type::Harmonic: {
      const double w = 2 * std::numbers::pi * s.frequency;
      const double arg = w * t + s.phase;
      return {s.offset + s.amplitude * std::sin(arg), s.amplitude * w * std::cos(arg),
              -s.amplitude * w * w * std::sin(arg)};
    }
    case Type::Table: {
      const auto& x = s.times;
      const auto& y = s.values;
      if (x.size() < 2 || m_second.size() != x.size()) return {y.empty() ? 0.0 : y.front(), 0, 0};
      // constant outside the knots; on the first and last knot the spline's own slope, so that a
      // driver starting at the first knot starts with the table's velocity
      if (t < x.front()) return {y.front(), 0, 0};
      if (t > x.back()) return {y.back(), 0, 0};
      const size_t i = std::min<size_t>(std::upper_bound(x.begin(), x.end(), t) - x.begin() - 1, x.size() - 2);
      const double h = x[i + 1] - x[i], a = (x[i + 1] - t) / h, b = (t - x[i]) / h;
      const double m0 = m_second[i], m1 = m_second[i + 1];
      const double f = a * y[i] + b * y[i + 1] + ((a * a * a - a) * m0 + (b * b * b - b) * m1) * h * h / 6;
      const double df = (y[i + 1] - y[i]) / h + ((1 - 3 * a * a) * m0 + (3 * b * b - 1) * m1) * h / 6;
      const double ddf = a * m0 + b * m1;
      return {f, df, ddf};
    }
  }
  return {};
}

}  // namespace flexim
