// What a failure message says about the integration: which coordinate of which item, and how the
// step size got where it is. Shared by the integrators so both name the real cause.
#pragma once

#include "core/system/system.h"

#include <string>
#include <vector>

namespace flexim {

/// Name of position coordinate i of the System, e.g. "body 'crank' position y",
/// "body 'rod' Euler parameter 2", "flexible body 'rod' modal coordinate 3",
/// "joint 'hinge' coordinate 1".
std::string positionCoordinateName(const System& sys, int i);
/// Name of velocity coordinate i, e.g. "body 'crank' angular velocity z (body axes)".
std::string velocityCoordinateName(const System& sys, int i);
/// Name of constraint row i, e.g. "joint 'pin' row 4 of 5".
std::string constraintRowName(const System& sys, int i);

/// Below this a constraint residual is round-off and no cause of failure [m or rad].
constexpr double kRoundOffResidual = 1e-12;

/// The last accepted step sizes and the ones tried since, for "the step size history" of a
/// failure message.
class StepHistory {
 public:
  void accepted(double h);
  void tried(double h);  ///< a step that failed (convergence or error test)
  /// e.g. "accepted steps ... 1e-3, 1e-3, 5e-4; then tried 2.5e-4, 1.25e-4 (failed)"
  std::string str() const;

 private:
  static constexpr size_t kKeep = 6;
  std::vector<double> m_accepted, m_tried;
};

}  // namespace flexim
