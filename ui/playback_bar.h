// Play/pause, a time slider and the time label for stepping through stored samples.
// The bar knows only the sample times; whoever owns the samples listens to frameChanged.
#pragma once

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

#include <vector>

class QLabel;
class QSlider;
class QToolButton;

namespace flexim::ui {

class PlaybackBar : public QWidget {
  Q_OBJECT

 public:
  explicit PlaybackBar(QWidget* parent = nullptr);

  void clear();
  /// Adds frame times (ascending). While the slider sits on the last frame and playback is
  /// paused, it follows the newest frame (live view during a run).
  void appendFrames(const std::vector<double>& times);
  int frameCount() const { return int(m_times.size()); }
  int currentFrame() const;
  bool isPlaying() const { return m_playTimer.isActive(); }
  QSlider* slider() const { return m_slider; }

 public slots:
  void setCurrentFrame(int index);
  void play();
  void pause();
  void togglePlay();

 signals:
  void frameChanged(int index);

 private:
  void advance();
  void updateLabel();

  std::vector<double> m_times;
  QToolButton* m_playButton = nullptr;
  QSlider* m_slider = nullptr;
  QLabel* m_timeLabel = nullptr;
  QTimer m_playTimer;
  QElapsedTimer m_clock;    ///< wall time since play() (real-time playback)
  double m_playStart = 0.0; ///< simulation time at play()
};

}  // namespace flexim::ui
