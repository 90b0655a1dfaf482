// Colours of the scene, in one place so that views and legends agree.
#pragma once

#include "core/model/model.h"

#include <array>

namespace flexim::render {

using Rgb = std::array<double, 3>;  ///< components in [0, 1]

/// Distinct colour for the i-th body (cycles through a ten-colour qualitative palette).
Rgb bodyColour(std::size_t index);
/// Colour of a joint glyph; each joint type has its own so the kinds read at a glance.
Rgb jointColour(JointType type);
Rgb darker(const Rgb& c, double factor = 0.65);

inline constexpr Rgb kGroundColour{0.42, 0.44, 0.50};
inline constexpr Rgb kGridColour{0.62, 0.65, 0.70};
inline constexpr Rgb kVirtualBodyColour{0.80, 0.82, 0.86};  ///< massless bodies on flexible ones
inline constexpr Rgb kSpringColour{0.88, 0.88, 0.92};
inline constexpr Rgb kBeamColour{0.35, 0.68, 0.92};          ///< beam elements (their centre line)
inline constexpr Rgb kForceColour{0.93, 0.30, 0.22};        ///< applied point forces
inline constexpr Rgb kTorqueColour{0.62, 0.36, 0.90};       ///< applied torques
inline constexpr Rgb kTraceColour{1.00, 0.45, 0.85};        ///< path of a traced point
inline constexpr Rgb kGhostColour{0.85, 0.87, 0.92};        ///< undeformed shape of a flexible body
inline constexpr Rgb kTextColour{0.95, 0.95, 0.95};
inline constexpr Rgb kBackgroundTop{0.32, 0.36, 0.44};
inline constexpr Rgb kBackgroundBottom{0.10, 0.11, 0.14};

}  // namespace flexim::render
