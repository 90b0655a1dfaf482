// The OpenGL context VTK needs (3.2 core, depth, stencil). Call before creating QApplication.
#pragma once

namespace flexim::ui {

void setDefaultSurfaceFormatForVtk();

}  // namespace flexim::ui
