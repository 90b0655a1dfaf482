#include "ui/surface_format.h"

#include <QSurfaceFormat>

namespace flexim::ui {

void setDefaultSurfaceFormatForVtk() {
  QSurfaceFormat format;
  format.setRenderableType(QSurfaceFormat::OpenGL);
  format.setVersion(3, 2);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setDepthBufferSize(24);
  format.setStencilBufferSize(8);
  format.setSamples(0);  // VTK renders into its own framebuffers; Qt's needs no multisampling
  QSurfaceFormat::setDefaultFormat(format);
}

}  // namespace flexim::ui
