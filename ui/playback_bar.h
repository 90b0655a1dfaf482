// Play/pause, step, a time slider, the time label, the playback speed and looping, for going
// through stored samples. The bar knows only the sample times; whoever owns the samples
// listens to frameChanged. Its actions carry the shortcuts (put them in a menu).
#pragma once

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

#include <vector>

class QAction;
class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace flexim::ui {

class PlaybackBar : public QWidget {
  Q_OBJECT

 public:
  explicit PlaybackBar(QWidget* parent = nullptr);

  void clear();
  /// What the frames' times are, for the label: empty for the time of a run [s] (the default
  /// after clear), else a name (e.g. "load factor" of a static equilibrium's levels).
  void setAbscissa(const QString& name);
  /// Adds frame times (ascending). While the slider sits on the last frame and playback is
  /// paused, it follows the newest frame (live view during a run).
  void appendFrames(const std::vector<double>& times);
  int frameCount() const { return int(m_times.size()); }
  int currentFrame() const;
  bool isPlaying() const { return m_playTimer.isActive(); }
  /// Time of a frame [s] (0 without frames).
  double frameTime(int index) const;
  QSlider* slider() const { return m_slider; }
  /// Simulated seconds per wall-clock second while playing (1 = real time).
  double speed() const { return m_speed; }
  void setSpeed(double speed);
  bool loops() const;
  void setLooping(bool on);
  QAction* playAction() const { return m_playAction; }
  QAction* stepBackAction() const { return m_stepBackAction; }
  QAction* stepForwardAction() const { return m_stepForwardAction; }
  QAction* loopAction() const { return m_loopAction; }

 public slots:
  void setCurrentFrame(int index);
  void play();
  void pause();
  void togglePlay();
  void stepForward();
  void stepBack();

 signals:
  void frameChanged(int index);

 private:
  void advance();
  void updateLabel();
  /// Playing restarts its clock from the frame shown (after a speed change or a loop).
  void restartClock();

  std::vector<double> m_times;
  QString m_abscissa;  ///< empty: time [s]
  QAction* m_playAction = nullptr;
  QAction* m_stepBackAction = nullptr;
  QAction* m_stepForwardAction = nullptr;
  QAction* m_loopAction = nullptr;
  QComboBox* m_speedBox = nullptr;
  double m_speed = 1.0;
  QToolButton* m_playButton = nullptr;
  QSlider* m_slider = nullptr;
  QLabel* m_timeLabel = nullptr;
  QTimer m_playTimer;
  QElapsedTimer m_clock;    ///< wall time since play() (real-time playback)
  double m_playStart = 0.0; ///< simulation time at play()
};

}  // namespace flexim::ui
