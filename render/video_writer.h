// Writing an animation as an Ogg Theora video (.ogv) through VTK's vtkOggTheoraWriter, which
// Debian's VTK always carries: no external encoder is needed. Frames are RgbImages of one size.
#pragma once

#include "render/rgb_image.h"

#include <vtkSmartPointer.h>

#include <string>

class vtkImageData;
class vtkOggTheoraWriter;

namespace flexim::render {

class VideoWriter {
 public:
  VideoWriter();
  ~VideoWriter();
  VideoWriter(const VideoWriter&) = delete;
  VideoWriter& operator=(const VideoWriter&) = delete;

  /// Starts the file; the size is taken from the first frame (odd sizes lose their last
  /// row/column: Theora needs even ones). False (with error) when it cannot be written.
  bool open(const std::string& path, int framesPerSecond, std::string& error);
  /// False when the frame's size differs from the first or the writer reports an error.
  bool addFrame(const RgbImage& frame, std::string& error);
  /// Finishes the file (also done by the destructor). False if writing failed on the way.
  bool close(std::string& error);
  int frameCount() const { return m_frames; }

 private:
  std::string m_path;
  int m_rate = 25;
  int m_width = 0, m_height = 0;
  int m_frames = 0;
  bool m_started = false;
  vtkSmartPointer<vtkImageData> m_image;
  vtkSmartPointer<vtkOggTheoraWriter> m_writer;
};

}  // namespace flexim::render
