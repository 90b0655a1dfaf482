#include "ui/surface_format.h"

#include <QByteArray>
#include <QSurfaceFormat>
#include <QtGlobal>

#include <thread>

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
  // Mesa's software rasteriser (llvmpipe) draws with as many threads as there are cores: on a
  // machine of two it takes the core the solver runs on whenever a frame is drawn. One thread
  // of its own leaves the solver a core (no effect with a GPU driver; a value set is kept).
  if (qEnvironmentVariableIsEmpty("LP_NUM_THREADS") && std::thread::hardware_concurrency() <= 2)
    qputenv("LP_NUM_THREADS", QByteArray("1"));
}

}  // namespace flexim::ui
