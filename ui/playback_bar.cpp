#include "ui/playback_bar.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

#include <algorithm>
#include <cmath>

namespace flexim::ui {
namespace {

constexpr double kSpeeds[] = {0.01, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0};

QToolButton* buttonFor(QAction* action, QWidget* parent) {
  auto* button = new QToolButton(parent);
  button->setDefaultAction(action);
  button->setAutoRaise(true);
  return button;
}

}  // namespace

PlaybackBar::PlaybackBar(QWidget* parent) : QWidget(parent) {
  m_playAction = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Play / pause"), this);
  m_playAction->setObjectName("actionPlay");
  m_playAction->setShortcut(QKeySequence(Qt::Key_Space));
  m_playAction->setToolTip(tr("Play / pause the animation (Space)"));
  m_stepBackAction = new QAction(style()->standardIcon(QStyle::SP_MediaSeekBackward), tr("Step &back"), this);
  m_stepBackAction->setObjectName("actionStepBack");
  m_stepBackAction->setShortcut(QKeySequence(Qt::Key_Comma));
  m_stepBackAction->setToolTip(tr("Previous frame (,)"));
  m_stepForwardAction = new QAction(style()->standardIcon(QStyle::SP_MediaSeekForward), tr("Step &forward"), this);
  m_stepForwardAction->setObjectName("actionStepForward");
  m_stepForwardAction->setShortcut(QKeySequence(Qt::Key_Period));
  m_stepForwardAction->setToolTip(tr("Next frame (.)"));
  m_loopAction = new QAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("&Loop"), this);
  m_loopAction->setObjectName("actionLoop");
  m_loopAction->setCheckable(true);
  m_loopAction->setToolTip(tr("Start again at the end"));

  m_playButton = buttonFor(m_playAction, this);
  m_slider = new QSlider(Qt::Horizontal, this);
  m_slider->setToolTip(tr("Time"));
  m_timeLabel = new QLabel(this);
  m_timeLabel->setMinimumWidth(180);
  m_speedBox = new QComboBox(this);
  m_speedBox->setObjectName("playbackSpeed");
  m_speedBox->setToolTip(tr("Playback speed: simulated time per second of wall time"));
  for (double speed : kSpeeds) m_speedBox->addItem(QStringLiteral("%1×").arg(speed), speed);
  m_speedBox->setCurrentIndex(m_speedBox->findData(1.0));

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(6, 2, 6, 2);
  layout->setSpacing(2);
  layout->addWidget(buttonFor(m_stepBackAction, this));
  layout->addWidget(m_playButton);
  layout->addWidget(buttonFor(m_stepForwardAction, this));
  layout->addSpacing(4);
  layout->addWidget(m_slider, 1);
  layout->addWidget(m_timeLabel);
  layout->addWidget(m_speedBox);
  layout->addWidget(buttonFor(m_loopAction, this));

  m_playTimer.setInterval(33);
  connect(&m_playTimer, &QTimer::timeout, this, &PlaybackBar::advance);
  connect(m_playAction, &QAction::triggered, this, &PlaybackBar::togglePlay);
  connect(m_stepBackAction, &QAction::triggered, this, &PlaybackBar::stepBack);
  connect(m_stepForwardAction, &QAction::triggered, this, &PlaybackBar::stepForward);
  connect(m_speedBox, &QComboBox::currentIndexChanged, this, [this] { setSpeed(m_speedBox->currentData().toDouble()); });
  connect(m_slider, &QSlider::valueChanged, this, [this](int index) {
    updateLabel();
    emit frameChanged(index);
  });
  clear();
}

void PlaybackBar::setAbscissa(const QString& name) {
  m_abscissa = name;
  updateLabel();
}

void PlaybackBar::clear() {
  pause();
  m_times.clear();
  m_abscissa.clear();
  const QSignalBlocker block(m_slider);
  m_slider->setRange(0, 0);
  m_slider->setValue(0);
  setEnabled(false);
  updateLabel();
}

void PlaybackBar::appendFrames(const std::vector<double>& times) {
  if (times.empty()) return;
  const bool followLive = !isPlaying() && (m_times.empty() || currentFrame() == frameCount() - 1);
  m_times.insert(m_times.end(), times.begin(), times.end());
  {
    const QSignalBlocker block(m_slider);  // the range change alone is not a frame change
    m_slider->setRange(0, frameCount() - 1);
  }
  setEnabled(true);
  if (followLive) {
    setCurrentFrame(frameCount() - 1);
  } else {
    updateLabel();
  }
}

int PlaybackBar::currentFrame() const { return m_slider->value(); }

double PlaybackBar::frameTime(int index) const {
  if (m_times.empty()) return 0.0;
  return m_times[std::size_t(std::clamp(index, 0, frameCount() - 1))];
}

void PlaybackBar::setCurrentFrame(int index) {
  if (m_times.empty()) return;
  index = std::clamp(index, 0, frameCount() - 1);
  if (index == m_slider->value()) {
    updateLabel();
    emit frameChanged(index);  // callers expect a redraw even when the index is unchanged
  } else {
    m_slider->setValue(index);
  }
}

void PlaybackBar::setSpeed(double speed) {
  if (!(speed > 0.0) || !std::isfinite(speed)) return;
  m_speed = speed;
  const int index = m_speedBox->findData(speed);
  if (index >= 0 && index != m_speedBox->currentIndex()) {
    const QSignalBlocker block(m_speedBox);
    m_speedBox->setCurrentIndex(index);
  }
  if (isPlaying()) restartClock();
}

bool PlaybackBar::loops() const { return m_loopAction->isChecked(); }

void PlaybackBar::setLooping(bool on) { m_loopAction->setChecked(on); }

void PlaybackBar::play() {
  if (m_times.size() < 2) return;
  if (currentFrame() >= frameCount() - 1) setCurrentFrame(0);  // replay from the start
  restartClock();
  m_playTimer.start();
  m_playAction->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
}

void PlaybackBar::restartClock() {
  m_playStart = frameTime(currentFrame());
  m_clock.start();
}

void PlaybackBar::pause() {
  m_playTimer.stop();
  m_playAction->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
}

void PlaybackBar::togglePlay() {
  if (isPlaying()) {
    pause();
  } else {
    play();
  }
}

void PlaybackBar::stepForward() {
  pause();
  setCurrentFrame(currentFrame() + 1);
}

void PlaybackBar::stepBack() {
  pause();
  setCurrentFrame(currentFrame() - 1);
}

void PlaybackBar::advance() {
  // the frame shown is the one due at the elapsed wall time times the speed
  const double t = m_playStart + m_speed * 1e-3 * double(m_clock.elapsed());
  const auto after = std::upper_bound(m_times.begin(), m_times.end(), t);
  const int index = std::max(0, int(after - m_times.begin()) - 1);
  setCurrentFrame(index);
  if (index < frameCount() - 1) return;
  if (loops()) {
    setCurrentFrame(0);
    restartClock();
  } else {
    pause();
  }
}

void PlaybackBar::updateLabel() {
  if (m_times.empty()) {
    m_timeLabel->setText(m_abscissa.isEmpty() ? tr("t = – s") : m_abscissa + tr(" –"));
    return;
  }
  const double t = m_times[std::size_t(currentFrame())];
  if (!m_abscissa.isEmpty()) {
    m_timeLabel->setText(tr("%1 %2 / %3").arg(m_abscissa).arg(t, 0, 'f', 4).arg(m_times.back(), 0, 'f', 4));
    return;
  }
  m_timeLabel->setText(tr("t = %1 s / %2 s").arg(t, 0, 'f', 4).arg(m_times.back(), 0, 'f', 4));
}

}  // namespace flexim::ui
