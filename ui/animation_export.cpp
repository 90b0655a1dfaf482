#include "ui/animation_export.h"

#include "render/video_writer.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace flexim::ui {

std::vector<int> animationFrames(const std::vector<double>& times, double framesPerSecond, double speed) {
  std::vector<int> frames;
  if (times.empty() || !(framesPerSecond > 0.0) || !(speed > 0.0)) return frames;
  const double step = speed / framesPerSecond;  // simulated time per video frame
  const double start = times.front(), end = times.back();
  const double count = std::floor((end - start) / step + 1e-9);
  for (double k = 0; k <= count; ++k) {
    const double t = start + k * step;
    const auto after = std::upper_bound(times.begin(), times.end(), t + 1e-12 * std::max(1.0, std::abs(t)));
    frames.push_back(std::max(0, int(after - times.begin()) - 1));
  }
  if (frames.back() != int(times.size()) - 1) frames.push_back(int(times.size()) - 1);
  return frames;
}

QString sequenceFramePath(const QString& path, int frame) {
  const QFileInfo info(path);
  const QString base = info.completeSuffix().isEmpty() ? info.filePath() : info.path() + "/" + info.completeBaseName();
  return QStringLiteral("%1_%2.png").arg(base).arg(frame, 4, 10, QChar('0'));
}

namespace {

render::RgbImage toRgb(const QImage& image) {
  const QImage rgb = image.convertToFormat(QImage::Format_RGB888);
  render::RgbImage out;
  out.width = rgb.width();
  out.height = rgb.height();
  out.rgb.resize(std::size_t(out.width) * std::size_t(out.height) * 3);
  for (int y = 0; y < out.height; ++y)
    std::memcpy(&out.rgb[3 * std::size_t(y) * std::size_t(out.width)], rgb.constScanLine(y), 3 * std::size_t(out.width));
  return out;
}

}  // namespace

AnimationExportResult writeAnimation(const QString& path, const std::vector<int>& frames, int framesPerSecond,
                                      const std::function<QImage(int)>& draw,
                                      const std::function<bool(int, int)>& progress) {
  AnimationExportResult result;
  const QString suffix = QFileInfo(path).suffix().toLower();
  const bool video = suffix == "ogv";
  if (!video && suffix != "png") {
    result.error = QObject::tr("%1: the animation is written as .ogv (video) or .png (frame sequence)").arg(path);
    return result;
  }
  if (frames.empty()) {
    result.error = QObject::tr("no frames to write; run the model first");
    return result;
  }
  render::VideoWriter writer;
  std::string error;
  if (video && !writer.open(path.toStdString(), framesPerSecond, error)) {
    result.error = QString::fromStdString(error);
    return result;
  }
  QSize size;
  const int total = int(frames.size());
  for (int i = 0; i < total; ++i) {
    if (progress && !progress(i, total)) {
      result.cancelled = true;
      break;
    }
    const QImage image = draw(frames[std::size_t(i)]);
    if (image.isNull()) {
      result.error = QObject::tr("frame %1 could not be drawn").arg(i);
      break;
    }
    size = image.size();
    if (video) {
      if (!writer.addFrame(toRgb(image), error)) {
        result.error = QString::fromStdString(error);
        break;
      }
    } else if (!image.save(sequenceFramePath(path, i))) {
      result.error = QObject::tr("%1: cannot write here").arg(sequenceFramePath(path, i));
      break;
    }
    ++result.frames;
  }
  if (video) {
    if (!writer.close(error) && result.error.isEmpty()) result.error = QString::fromStdString(error);
    if (result.cancelled || !result.error.isEmpty()) QFile::remove(path);
  }
  if (progress && result.error.isEmpty() && !result.cancelled) progress(total, total);
  result.ok = result.error.isEmpty() && !result.cancelled;
  const QString kind = video ? QObject::tr("Ogg Theora video at %1 fps").arg(framesPerSecond)
                             : QObject::tr("PNG frames %1 …").arg(QFileInfo(sequenceFramePath(path, 0)).fileName());
  result.description = QObject::tr("%1 frames, %2×%3, %4").arg(result.frames).arg(size.width()).arg(size.height()).arg(kind);
  return result;
}

}  // namespace flexim::ui
