// Rendering a scene without a widget: tests, thumbnails and the CLI's future --image option.
// Needs an X display (use xvfb-run on headless machines).
#pragma once

#include "render/rgb_image.h"

#include <string>

namespace flexim::render {

class ModelScene;

/// Renders the scene's renderer into an offscreen window of the given size. The renderer is
/// detached again afterwards, so do not call this while the scene is shown in a viewport.
RgbImage renderToImage(ModelScene& scene, int width, int height);
/// renderToImage + PNG. Returns false when nothing could be rendered or written.
bool renderToPng(ModelScene& scene, int width, int height, const std::string& path);

}  // namespace flexim::render
