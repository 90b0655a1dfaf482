#include "ui/playback_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

#include <algorithm>

namespace flexim::ui {

PlaybackBar::PlaybackBar(QWidget* parent) : QWidget(parent) {
  m_playButton = new QToolButton(this);
  m_playButton->setToolTip(tr("Play / pause"));
  m_playButton->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
  m_slider = new QSlider(Qt::Horizontal, this);
  m_slider->setToolTip(tr("Time"));
  m_timeLabel = new QLabel(this);
  m_timeLabel->setMinimumWidth(180);

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(6, 2, 6, 2);
  layout->addWidget(m_playButton);
  layout->addWidget(m_slider, 1);
  layout->addWidget(m_timeLabel);

  m_playTimer.setInterval(33);
  connect(&m_playTimer, &QTimer::timeout, this, &PlaybackBar::advance);
  connect(m_playButton, &QToolButton::clicked, this, &PlaybackBar::togglePlay);
  connect(m_slider, &QSlider::valueChanged, this, [this](int index) {
    updateLabel();
    emit frameChanged(index);
  });
  clear();
}

void PlaybackBar::clear() {
  pause();
  m_times.clear();
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

void PlaybackBar::play() {
  if (m_times.size() < 2) return;
  if (currentFrame() >= frameCount() - 1) setCurrentFrame(0);  // replay from the start
  m_playStart = m_times[std::size_t(currentFrame())];
  m_clock.start();
  m_playTimer.start();
  m_playButton->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
}

void PlaybackBar::pause() {
  m_playTimer.stop();
  m_playButton->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
}

void PlaybackBar::togglePlay() {
  if (isPlaying()) {
    pause();
  } else {
    play();
  }
}

void PlaybackBar::advance() {
  // real-time playback: the frame shown is the one due at the elapsed wall time
  const double t = m_playStart + 1e-3 * double(m_clock.elapsed());
  const auto after = std::upper_bound(m_times.begin(), m_times.end(), t);
  const int index = std::max(0, int(after - m_times.begin()) - 1);
  setCurrentFrame(index);
  if (index >= frameCount() - 1) pause();
}

void PlaybackBar::updateLabel() {
  if (m_times.empty()) {
    m_timeLabel->setText(tr("t = – s"));
    return;
  }
  const double t = m_times[std::size_t(currentFrame())];
  m_timeLabel->setText(tr("t = %1 s / %2 s").arg(t, 0, 'f', 4).arg(m_times.back(), 0, 'f', 4));
}

}  // namespace flexim::ui
