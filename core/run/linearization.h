// Linearization of a model about its static equilibrium (Simulation::linearize,
// core/run/linearization.cpp): reduced mass, stiffness and damping matrices, the state matrix,
// and the system's modes (eigenfrequencies, damping ratios, shapes).
#pragma once

#include "core/run/simulation.h"

#include <complex>
#include <string>
#include <vector>

namespace flexim {

struct LinearizeOptions {
  StaticOptions statics;  ///< how the equilibrium is found (load levels, log)
};

/// One mode of the linearized system.
struct LinearMode {
  std::complex<double> eigenvalue;  ///< of the state matrix: −ζω ± iω√(1 − ζ²); (r, 0) for a real one
  double omega = 0.0;               ///< [rad/s] |eigenvalue|: the undamped natural angular frequency
  double frequency = 0.0;           ///< [Hz] omega / 2π
  double damping_ratio = 0.0;       ///< ζ = −Re / |eigenvalue|
  VecX shape;                       ///< the motion over the System's velocity coordinates, unit length
};

struct LinearizationResult {
  bool ok = false;
  std::string message;    ///< why not, when !ok
  RunSummary statics;     ///< the static equilibrium's summary
  State state;            ///< the equilibrium
  MatX N;                 ///< nv × n: orthonormal basis of the motions the constraints allow (Δv = N y)
  MatX M, K, D;           ///< n × n: reduced mass, tangent stiffness (geometric part included), damping
  MatX A;                 ///< 2n × 2n: [0 I; −M⁻¹K −M⁻¹D] over the state [y, ẏ]
  std::vector<LinearMode> modes;  ///< by angular frequency (one of each conjugate pair)
};

}  // namespace flexim
