// The OpenGL context VTK needs (3.2 core, depth, stencil), and on a machine of two cores one
// thread for Mesa's software rasteriser. Call before creating QApplication.
#pragma once

namespace flexim::ui {

void setDefaultSurfaceFormatForVtk();

}  // namespace flexim::ui
