// A plain 8-bit RGB image (rows top to bottom) for screenshots and image comparisons in tests,
// independent of VTK's and Qt's image classes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace flexim::render {

struct RgbImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;  ///< width * height * 3, row 0 is the top row

  bool empty() const { return width <= 0 || height <= 0; }
  const std::uint8_t* pixel(int x, int y) const { return &rgb[3 * (std::size_t(y) * width + x)]; }
};

/// Largest per-channel difference between a pixel and a colour.
int channelDistance(const std::uint8_t* pixel, const std::uint8_t colour[3]);

/// Pixels further than `tolerance` (per channel) from `background`.
struct Coverage {
  long count = 0;
  double centroidX = 0.0, centroidY = 0.0;  ///< [pixels], y down; 0 when count == 0
};
Coverage coverage(const RgbImage& image, const std::uint8_t background[3], int tolerance = 12);

/// Fraction of pixels whose colours differ by more than `tolerance` in some channel.
/// Returns 1 when the sizes differ.
double differingFraction(const RgbImage& a, const RgbImage& b, int tolerance = 40);

bool writePng(const RgbImage& image, const std::string& path);
/// Empty image when the file cannot be read.
RgbImage readPng(const std::string& path);

}  // namespace flexim::render
