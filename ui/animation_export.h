// Writing the animation of a run: an Ogg Theora video (.ogv, through VTK's vtkOggTheoraWriter)
// or a numbered PNG sequence (NAME_0000.png, NAME_0001.png, ...). The frames are taken at a
// steady rate of the video, so the film plays at the chosen speed whatever the output step.
#pragma once

#include <QImage>
#include <QString>

#include <functional>
#include <vector>

namespace flexim::ui {

/// For each video frame at `framesPerSecond` of a playback at `speed` (simulated seconds per
/// second), the index of the latest sample at or before its time; the last sample always ends
/// the film. Empty when there are no samples or the arguments are not positive.
std::vector<int> animationFrames(const std::vector<double>& times, double framesPerSecond, double speed);

/// "NAME_0007.png" for frame 7 of a sequence whose path is NAME.png.
QString sequenceFramePath(const QString& path, int frame);

struct AnimationExportResult {
  bool ok = false;
  bool cancelled = false;
  int frames = 0;       ///< written
  QString error;        ///< when not ok and not cancelled
  QString description;  ///< what was written ("40 frames, 640x480, Ogg Theora video at 25 fps")
};

/// Writes the frames: `draw(sample)` returns the picture of that sample (all of one size);
/// `progress(done, total)` returns false to cancel (what was written is removed for a video,
/// kept for a sequence). The format follows the extension: .ogv is a video, .png a sequence.
AnimationExportResult writeAnimation(const QString& path, const std::vector<int>& frames, int framesPerSecond,
                                      const std::function<QImage(int)>& draw,
                                      const std::function<bool(int, int)>& progress);

}  // namespace flexim::ui
