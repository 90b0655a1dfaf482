#include "render/rgb_image.h"

#include <vtkImageData.h>
#include <vtkPNGReader.h>
#include <vtkPNGWriter.h>
#include <vtkSmartPointer.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace flexim::render {

int channelDistance(const std::uint8_t* pixel, const std::uint8_t colour[3]) {
  int d = 0;
  for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(int(pixel[c]) - int(colour[c])));
  return d;
}

Coverage coverage(const RgbImage& image, const std::uint8_t background[3], int tolerance) {
  Coverage result;
  double sumX = 0.0, sumY = 0.0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x)
      if (channelDistance(image.pixel(x, y), background) > tolerance) {
        ++result.count;
        sumX += x;
        sumY += y;
      }
  if (result.count > 0) {
    result.centroidX = sumX / result.count;
    result.centroidY = sumY / result.count;
  }
  return result;
}

double differingFraction(const RgbImage& a, const RgbImage& b, int tolerance) {
  if (a.width != b.width || a.height != b.height || a.empty()) return 1.0;
  long differing = 0;
  for (int y = 0; y < a.height; ++y)
    for (int x = 0; x < a.width; ++x)
      if (channelDistance(a.pixel(x, y), b.pixel(x, y)) > tolerance) ++differing;
  return double(differing) / (double(a.width) * a.height);
}

bool writePng(const RgbImage& image, const std::string& path) {
  if (image.empty()) return false;
  auto data = vtkSmartPointer<vtkImageData>::New();
  data->SetDimensions(image.width, image.height, 1);
  data->AllocateScalars(VTK_UNSIGNED_CHAR, 3);
  // VTK images start at the bottom row
  for (int y = 0; y < image.height; ++y) {
    auto* row = static_cast<std::uint8_t*>(data->GetScalarPointer(0, image.height - 1 - y, 0));
    std::copy_n(image.pixel(0, y), 3 * std::size_t(image.width), row);
  }
  auto writer = vtkSmartPointer<vtkPNGWriter>::New();
  writer->SetFileName(path.c_str());
  writer->SetInputData(data);
  writer->Write();
  return writer->GetErrorCode() == 0 && std::filesystem::exists(path);
}

RgbImage readPng(const std::string& path) {
  RgbImage image;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return image;
  auto reader = vtkSmartPointer<vtkPNGReader>::New();
  if (!reader->CanReadFile(path.c_str())) return image;
  reader->SetFileName(path.c_str());
  reader->Update();
  vtkImageData* data = reader->GetOutput();
  int dims[3];
  data->GetDimensions(dims);
  const int components = data->GetNumberOfScalarComponents();
  if (data->GetScalarType() != VTK_UNSIGNED_CHAR || components < 3) return image;
  image.width = dims[0];
  image.height = dims[1];
  image.rgb.resize(3 * std::size_t(image.width) * image.height);
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      const auto* src = static_cast<std::uint8_t*>(data->GetScalarPointer(x, image.height - 1 - y, 0));
      std::copy_n(src, 3, &image.rgb[3 * (std::size_t(y) * image.width + x)]);
    }
  }
  return image;
}

}  // namespace flexim::render
