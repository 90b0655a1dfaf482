// Independent references for the closed-loop benchmark mechanisms of resources/examples:
// the N-four-bar's closed form, the published solution of Andrews' squeezing mechanism, and how
// to read planar angles off a run. Shared by tests/core/closed_loop_test.cpp and
// tests/benchmarks/bench_tolerance.cpp. Nothing here uses Flexim's solver.
#pragma once

#include "core/run/simulation.h"

#include <array>
#include <cmath>
#include <numbers>
#include <vector>

namespace flexim::test {

/// IFToMM A02, the N-four-bar mechanism (resources/examples/n_four_bar_N.json): N + 1 cranks of
/// length L and mass m pinned to the ground at x = 0, L, ..., N L, their tips joined by N couplers
/// of length L and mass m, gravity g along -y.
///
/// Reduction to one coordinate. The pivots are L apart and the couplers are L long, so each window
/// is a parallelogram: on the continuous branch from the start (all cranks vertical, parallel
/// velocities) every crank has the same angle theta from +x and every coupler translates without
/// turning, its points moving with the crank tips: v = L theta' (-sin theta, cos theta).
/// Kinetic energy (slender uniform bars, crank about its pivot m L^2 / 3, coupler translating):
///     T = 1/2 [(N + 1) m L^2 / 3 + N m L^2] theta'^2 = 1/2 J theta'^2,  J = m L^2 ((N + 1)/3 + N).
/// Potential energy (crank centre at height L/2 sin theta, coupler centre at L sin theta):
///     V = [(N + 1) m g L / 2 + N m g L] sin theta = G sin theta,          G = m g L ((N + 1)/2 + N).
/// Lagrange:  J theta'' = -dV/dtheta = -G cos theta.  N = 2: J = 3 kg m^2, G = 34.335 N m;
/// N = 10: J = 41/3 kg m^2, G = 152.055 N m. The start theta = pi/2, theta' = -1 rad/s (tip B0 at
/// +1 m/s along x) has E = J/2 + G > G: the cranks go over the top and turn round for ever, the
/// links lying aligned on the x axis at every theta = 0 and pi.
struct FourBarClosedForm {
  double J = 0, G = 0;
  FourBarClosedForm(int n, double m = 1.0, double L = 1.0, double g = 9.81)
      : J(m * L * L * ((n + 1) / 3.0 + n)), G(m * g * L * ((n + 1) / 2.0 + n)) {}

  double energy(double theta, double rate) const { return 0.5 * J * rate * rate + G * std::sin(theta); }

  /// theta and theta' at each of the increasing times (from t = 0, theta = pi/2, theta' = -1 rad/s):
  /// classical Runge-Kutta 4 with steps of at most h that land on every requested time.
  std::vector<std::array<double, 2>> solve(const std::vector<double>& times, double h = 1e-4) const {
    std::vector<std::array<double, 2>> out;
    out.reserve(times.size());
    double t = 0, th = std::numbers::pi / 2, w = -1.0;
    const auto acc = [this](double theta) { return -G / J * std::cos(theta); };
    for (double target : times) {
      while (target - t > 1e-14) {
        const double s = std::min(h, target - t);
        const double k1t = w, k1w = acc(th);
        const double k2t = w + 0.5 * s * k1w, k2w = acc(th + 0.5 * s * k1t);
        const double k3t = w + 0.5 * s * k2w, k3w = acc(th + 0.5 * s * k2t);
        const double k4t = w + s * k3w, k4w = acc(th + s * k3t);
        th += s / 6 * (k1t + 2 * k2t + 2 * k3t + k4t);
        w += s / 6 * (k1w + 2 * k2w + 2 * k3w + k4w);
        t += s;
      }
      out.push_back({th, w});
    }
    return out;
  }

  /// Time the cranks take from theta = pi/2 down to theta = -pi/2, by the energy integral
  /// t = int dtheta / |theta'|, |theta'| = sqrt(1 + 2 (G / J)(1 - sin theta)) (composite Simpson;
  /// the integrand is smooth because theta' never vanishes). Independent of solve().
  double timeToBottom(int intervals = 200000) const {
    const auto f = [this](double th) { return 1.0 / std::sqrt(1.0 + 2.0 * G / J * (1.0 - std::sin(th))); };
    const double a = -std::numbers::pi / 2, b = std::numbers::pi / 2, h = (b - a) / intervals;
    double s = f(a) + f(b);
    for (int i = 1; i < intervals; ++i) s += f(a + i * h) * (i % 2 ? 4 : 2);
    return s * h / 3;
  }
};

/// Andrews' squeezing mechanism (Hairer & Wanner, Solving ODEs II, Sec. VII.7; IVP test set of
/// Mazzia & Magherini, problem "andrews"): the published solution at t = 0.03 s, angles
/// beta, Theta, gamma, Phi, delta, Omega, epsilon [rad].
inline constexpr std::array<double, 7> kAndrewsPublished = {
    15.81077119629904, -15.75637105984298, 0.04082224013073101, -0.5347301163226948,
    0.5244099658805304, 0.5347301163226948, 1.048080741042263};
/// The same from our own solve (tests/reference/andrews_reference.py with its defaults: equations
/// built from the geometry, Gragg-Bulirsch-Stoer of order 14; other orders, step counts and RK4 with
/// Richardson extrapolation agree to 1e-11 rad, the energy balance holds to 4e-13 of the kinetic
/// energy). It differs from the published values by at most 1.4e-9 rad (beta, Theta): far below
/// the 1e-7 the tests ask for. The tests use the published values.
inline constexpr std::array<double, 7> kAndrewsIndependent = {
    15.810771195155125, -15.756371058414766, 0.040822240119401429, -0.53473011634233847,
    0.52440996587990585, 0.53473011634218026, 1.0480807410419017};

/// Angle of a planar rotation about global z, in (-pi, pi].
inline double planarAngle(const Quat& q) { return std::remainder(2.0 * std::atan2(q.z(), q.w()), 2 * std::numbers::pi); }

/// Absolute angles of the rigid bodies about z at every sample, unwrapped along the samples
/// (the output interval must be short enough that no body turns by pi between two samples).
inline std::vector<std::vector<double>> unwrappedBodyAngles(const std::vector<Sample>& samples) {
  std::vector<std::vector<double>> out;
  for (const auto& s : samples) {
    std::vector<double> a(s.poses.size());
    for (size_t k = 0; k < a.size(); ++k) {
      a[k] = planarAngle(s.poses[k].orientation);
      if (!out.empty()) a[k] = out.back()[k] + std::remainder(a[k] - out.back()[k], 2 * std::numbers::pi);
    }
    out.push_back(std::move(a));
  }
  return out;
}

/// The test set's angles from the absolute angles psi of Andrews' bodies 1..7 (model files
/// andrews_squeezer*.json, bodies in that order): psi = (beta, beta + Theta, gamma, Phi + delta,
/// delta, Omega + epsilon, epsilon).
inline std::array<double, 7> andrewsAngles(const std::vector<double>& psi) {
  return {psi[0], psi[1] - psi[0], psi[2], psi[3] - psi[4], psi[4], psi[5] - psi[6], psi[6]};
}

}  // namespace flexim::test
