#include "render/offscreen_render.h"

#include "render/model_scene.h"

#include <vtkImageData.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkWindowToImageFilter.h>

#include <algorithm>

namespace flexim::render {

RgbImage renderToImage(ModelScene& scene, int width, int height) {
  RgbImage image;
  if (width <= 0 || height <= 0) return image;
  auto window = vtkSmartPointer<vtkRenderWindow>::New();
  window->SetOffScreenRendering(1);
  window->SetMultiSamples(0);  // deterministic pixels for reference comparisons
  window->SetSize(width, height);
  window->SetNumberOfLayers(2);
  window->AddRenderer(scene.renderer());
  if (scene.axesRenderer()) window->AddRenderer(scene.axesRenderer());
  scene.renderer()->ResetCameraClippingRange();
  window->Render();

  auto grabber = vtkSmartPointer<vtkWindowToImageFilter>::New();
  grabber->SetInput(window);
  grabber->SetInputBufferTypeToRGB();
  grabber->ReadFrontBufferOff();
  grabber->Update();
  vtkImageData* data = grabber->GetOutput();
  int dims[3];
  data->GetDimensions(dims);
  if (dims[0] == width && dims[1] == height && data->GetNumberOfScalarComponents() == 3) {
    image.width = width;
    image.height = height;
    image.rgb.resize(3 * std::size_t(width) * height);
    // VTK's first row is the bottom one
    for (int y = 0; y < height; ++y) {
      const auto* row = static_cast<const std::uint8_t*>(data->GetScalarPointer(0, height - 1 - y, 0));
      std::copy_n(row, 3 * std::size_t(width), &image.rgb[3 * std::size_t(y) * width]);
    }
  }
  window->RemoveRenderer(scene.renderer());
  if (scene.axesRenderer()) window->RemoveRenderer(scene.axesRenderer());
  window->Finalize();
  return image;
}

bool renderToPng(ModelScene& scene, int width, int height, const std::string& path) {
  const RgbImage image = renderToImage(scene, width, height);
  return !image.empty() && writePng(image, path);
}

}  // namespace flexim::render
