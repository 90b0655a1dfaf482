// Linearization of a model about its static equilibrium or a state of a run (Simulation::linearize,
// core/run/linearization.cpp): reduced mass, stiffness and damping matrices, the state-space
// matrices for chosen inputs and outputs, the system's modes (eigenfrequencies, damping ratios,
// shapes) and frequency responses.
#pragma once

#include "core/run/simulation.h"

#include <Eigen/Core>

#include <algorithm>
#include <complex>
#include <limits>
#include <string>
#include <vector>

namespace flexim {

struct LinearizeOptions {
  StaticOptions statics;  ///< how the equilibrium is found (load levels, log)
  /// When finite: linearize about the state of a run at this time [s] (the consistent initial
  /// state at the initial time; the multipliers from the equations of motion there) instead of
  /// the static equilibrium. The tangent is taken with the velocities frozen at their values.
  double at_time = std::numeric_limits<double>::quiet_NaN();
  /// Inputs (columns of B): "BODY.fx|fy|fz" a force [N] at the body's reference point,
  /// "BODY.mx|my|mz" a moment [N m], both along the global axes.
  std::vector<std::string> inputs;
  /// Outputs (rows of C): "BODY.x|y|z" the displacement [m] of the body's reference point,
  /// "BODY.rx|ry|rz" its small rotation [rad], both along the global axes.
  std::vector<std::string> outputs;
};

/// One mode of the linearized system.
struct LinearMode {
  std::complex<double> eigenvalue;  ///< of the state matrix: −ζω ± iω√(1 − ζ²); (r, 0) for a real one
  double omega = 0.0;               ///< [rad/s] |eigenvalue|: the undamped natural angular frequency
  double frequency = 0.0;           ///< [Hz] omega / 2π
  double damping_ratio = 0.0;       ///< ζ = −Re / |eigenvalue|
  VecX shape;                       ///< the motion over the System's velocity coordinates, unit length
  /// A motion that grows (a real part above round-off), not a vibration.
  bool unstable() const { return eigenvalue.real() > 1e-9 * std::max(1.0, omega); }
};

struct LinearizationResult {
  bool ok = false;
  std::string message;    ///< why not, when !ok
  RunSummary statics;     ///< the static equilibrium's summary (or the run's, with at_time)
  State state;            ///< the equilibrium
  MatX N;                 ///< nv × n: orthonormal basis of the motions the constraints allow (Δv = N y)
  MatX M, K, D;           ///< n × n: reduced mass, tangent stiffness (geometric part included), damping
  MatX A;                 ///< 2n × 2n: [0 I; −M⁻¹K −M⁻¹D] over the state [y, ẏ]
  MatX B;                 ///< 2n × inputs: [0; M⁻¹ Nᵀ P] with P the inputs' generalized forces
  MatX C;                 ///< outputs × 2n: [Q N, 0] with Q the outputs' rows over the velocity coordinates
  MatX Dss;               ///< outputs × inputs: the feedthrough (zero: displacement outputs)
  MatX P, Q;              ///< nv × inputs, outputs × nv (see B and C)
  std::vector<LinearMode> modes;  ///< by angular frequency (one of each conjugate pair)
  std::vector<std::string> inputs, outputs;  ///< the names of B's columns and C's rows
};

/// The complex frequency response H(iω) = C (K − ω²M + iωD)⁻¹ B over the result's inputs
/// (columns) and outputs (rows) at the angular frequency omega [rad/s].
Eigen::MatrixXcd frequencyResponse(const LinearizationResult& r, double omega);

}  // namespace flexim
