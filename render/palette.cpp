#include "render/palette.h"

#include <map>
#include <string>

namespace flexim::render {

Rgb bodyColour(std::size_t index) {
  // a qualitative palette (saturated, distinct under both light and shadow)
  static constexpr std::array<Rgb, 10> kColours{{
      {0.16, 0.47, 0.78},
      {0.96, 0.52, 0.10},
      {0.22, 0.66, 0.25},
      {0.86, 0.20, 0.20},
      {0.58, 0.40, 0.78},
      {0.60, 0.38, 0.30},
      {0.90, 0.45, 0.76},
      {0.75, 0.75, 0.15},
      {0.10, 0.75, 0.82},
      {0.55, 0.55, 0.55},
  }};
  return kColours[index % kColours.size()];
}

Rgb jointColour(JointType type) {
  // kinds without a colour of their own (registered later) share a neutral one
  static const std::map<std::string, Rgb> kColours{
      {"revolute", {0.95, 0.80, 0.30}},  {"prismatic", {0.85, 0.88, 0.92}}, {"cylindrical", {0.70, 0.90, 0.60}},
      {"spherical", {0.92, 0.62, 0.45}}, {"universal", {0.55, 0.85, 0.95}}, {"planar", {0.80, 0.70, 0.95}},
      {"fixed", {0.60, 0.60, 0.62}},
  };
  const auto it = kColours.find(type.key());
  return it == kColours.end() ? Rgb{0.90, 0.90, 0.90} : it->second;
}

Rgb darker(const Rgb& c, double factor) { return {c[0] * factor, c[1] * factor, c[2] * factor}; }

}  // namespace flexim::render
