#include "render/video_writer.h"

#include <vtkImageData.h>
#include <vtkOggTheoraWriter.h>
#include <vtkUnsignedCharArray.h>
#include <vtkPointData.h>

#include <cstring>
#include <filesystem>
#include <fstream>

namespace flexim::render {

VideoWriter::VideoWriter() = default;

VideoWriter::~VideoWriter() {
  std::string ignored;
  close(ignored);
}

bool VideoWriter::open(const std::string& path, int framesPerSecond, std::string& error) {
  if (m_writer) close(error);
  // vtkOggTheoraWriter only logs a failed fopen; check the place first for a clear message
  if (!std::ofstream(path, std::ios::binary)) {
    error = path + ": cannot write here";
    return false;
  }
  m_path = path;
  m_rate = framesPerSecond > 0 ? framesPerSecond : 25;
  m_frames = 0;
  m_width = m_height = 0;
  m_started = false;
  m_image = vtkSmartPointer<vtkImageData>::New();
  m_writer = vtkSmartPointer<vtkOggTheoraWriter>::New();
  m_writer->SetFileName(path.c_str());
  m_writer->SetRate(m_rate);
  m_writer->SetQuality(2);
  m_writer->SetInputData(m_image);
  return true;
}

bool VideoWriter::addFrame(const RgbImage& frame, std::string& error) {
  if (!m_writer) {
    error = "no video file open";
    return false;
  }
  if (!m_started) {
    m_width = frame.width & ~1;
    m_height = frame.height & ~1;
    if (m_width < 2 || m_height < 2) {
      error = m_path + ": the frame is empty";
      return false;
    }
    m_image->SetDimensions(m_width, m_height, 1);
    m_image->AllocateScalars(VTK_UNSIGNED_CHAR, 3);
  } else if ((frame.width & ~1) != m_width || (frame.height & ~1) != m_height) {
    error = m_path + ": frame " + std::to_string(m_frames) + " is " + std::to_string(frame.width) + "x" +
            std::to_string(frame.height) + ", the video " + std::to_string(m_width) + "x" + std::to_string(m_height);
    return false;
  }
  // VTK images start at the bottom row
  auto* pixels = static_cast<unsigned char*>(m_image->GetScalarPointer());
  for (int y = 0; y < m_height; ++y)
    std::memcpy(pixels + 3 * std::size_t(y) * std::size_t(m_width), frame.pixel(0, m_height - 1 - y),
                3 * std::size_t(m_width));
  m_image->Modified();
  if (!m_started) {
    m_writer->Start();
    m_started = true;
  }
  m_writer->Write();
  if (m_writer->GetError()) {
    error = m_path + ": " + vtkGenericMovieWriter::GetStringFromErrorCode(m_writer->GetErrorCode());
    return false;
  }
  ++m_frames;
  return true;
}

bool VideoWriter::close(std::string& error) {
  if (!m_writer) return true;
  bool ok = true;
  if (m_started) {
    m_writer->End();
    if (m_writer->GetError()) {
      error = m_path + ": " + vtkGenericMovieWriter::GetStringFromErrorCode(m_writer->GetErrorCode());
      ok = false;
    }
  } else {
    std::error_code ignored;
    std::filesystem::remove(m_path, ignored);  // nothing was written: no empty file left behind
  }
  m_writer = nullptr;
  m_image = nullptr;
  m_started = false;
  return ok;
}

}  // namespace flexim::render
