#include "ui/plot_panel.h"

#include "render/geometry.h"
#include "ui/display_units.h"

#include <QChart>
#include <QGraphicsLayout>
#include <QDragEnterEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QListWidget>
#include <QMimeData>
#include <QPainter>
#include <QPushButton>
#include <QScatterSeries>
#include <QComboBox>
#include <QSplitter>
#include <QSvgGenerator>
#include <QTabWidget>
#include <QTextStream>
#include <QTimer>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace flexim::ui {

namespace {

/// The channel list: dragging items carries their names.
class ChannelList : public QListWidget {
 public:
  using QListWidget::QListWidget;

 protected:
  QMimeData* mimeData(const QList<QListWidgetItem*>& items) const override {
    QStringList names;
    for (const QListWidgetItem* item : items) names << item->data(Qt::UserRole).toString();
    auto* data = new QMimeData;
    data->setData(PlotPanel::mimeType(), names.join('\n').toUtf8());
    data->setText(names.join('\n'));
    return data;
  }
  QStringList mimeTypes() const override { return {PlotPanel::mimeType()}; }
};

QStringList channelNamesIn(const QMimeData* data) {
  if (!data->hasFormat(PlotPanel::mimeType())) return {};
  return QString::fromUtf8(data->data(PlotPanel::mimeType())).split('\n', Qt::SkipEmptyParts);
}

}  // namespace

const char* PlotPanel::mimeType() { return "application/x-flexim-channels"; }

namespace {
/// A plot layout's entry that names the x channel of an x-y plot: the prefix, then the channel.
const QString kLayoutXPrefix = QStringLiteral("@x=");
}  // namespace

// ---------------------------------------------------------------------------------------------
// PlotView

PlotView::PlotView(const ResultTable& results, QWidget* parent) : QChartView(parent), m_results(results) {
  auto* chart = new QChart;
  chart->legend()->setAlignment(Qt::AlignBottom);
  chart->setMargins(QMargins(2, 2, 2, 2));
  chart->layout()->setContentsMargins(0, 0, 0, 0);
  m_time = new QValueAxis(chart);
  m_time->setTitleText(tr("t [s]"));
  m_time->setLabelFormat("%.4g");
  m_time->setTickType(QValueAxis::TicksDynamic);
  m_time->setTickAnchor(0.0);
  m_small = m_time->labelsFont();
  m_small.setPointSizeF(m_small.pointSizeF() * 0.85);
  m_time->setLabelsFont(m_small);
  m_time->setTitleFont(m_small);
  QFont legendFont = chart->legend()->font();
  legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
  chart->legend()->setFont(legendFont);
  chart->addAxis(m_time, Qt::AlignBottom);
  m_cursor = new QLineSeries(chart);
  m_cursor->setPen(QPen(QColor(120, 120, 120), 1, Qt::DashLine));
  chart->addSeries(m_cursor);
  m_cursor->attachAxis(m_time);
  m_cursor->attachAxis(makeValueAxis(chart, ""));
  for (QLegendMarker* marker : chart->legend()->markers(m_cursor)) marker->setVisible(false);
  m_marks = new QScatterSeries(chart);
  m_marks->setMarkerSize(9.0);
  m_marks->setColor(QColor(60, 60, 60));
  m_marks->setBorderColor(Qt::white);
  chart->addSeries(m_marks);
  m_marks->attachAxis(m_time);
  m_marks->attachAxis(m_valueAxes.front().second);
  for (QLegendMarker* marker : chart->legend()->markers(m_marks)) marker->setVisible(false);
  setMouseTracking(true);  // the spectrum's cursor follows the mouse
  // setChart releases the chart QChartView made for itself without deleting it
  QChart* made = this->chart();
  setChart(chart);
  delete made;
  setRenderHint(QPainter::Antialiasing);
  setRubberBand(QChartView::RectangleRubberBand);
  setAcceptDrops(true);
  setMinimumSize(200, 150);  // below that Qt Charts elides the tick labels
  chart->setTitle(tr("Drop channels here"));
}

void PlotView::addChannel(const std::string& name) {
  if (std::find(m_names.begin(), m_names.end(), name) != m_names.end()) return;
  m_names.push_back(name);
  auto* series = new QLineSeries(chart());
  chart()->addSeries(series);
  series->attachAxis(m_time);
  series->attachAxis(m_valueAxes.front().second);  // its unit's axis once the channel is known
  m_series.push_back(series);
  chart()->setTitle(QString());
  refresh();
  emit channelsChanged();
}

void PlotView::removeChannels() {
  for (QLineSeries* s : m_series) {
    chart()->removeSeries(s);
    delete s;
  }
  m_series.clear();
  m_names.clear();
  chart()->setTitle(tr("Drop channels here"));
  refresh();
  emit channelsChanged();
}

void PlotView::setAbscissa(Abscissa abscissa, const std::string& xChannel) {
  if (abscissa == m_abscissa && xChannel == m_xChannel) return;
  m_abscissa = abscissa;
  m_xChannel = abscissa == Abscissa::Channel ? xChannel : std::string();
  m_spectraSamples = 0;
  m_cursorFrequency = -1.0;
  m_autoscale = true;
  refresh();
  emit channelsChanged();
}

QString PlotView::abscissaKey() const {
  if (m_abscissa == Abscissa::Frequency) return kSpectrumKey;
  return m_abscissa == Abscissa::Channel ? QString::fromStdString(m_xChannel) : QString(kTimeKey);
}

void PlotView::setAbscissaKey(const QString& key) {
  if (key == kTimeKey) setAbscissa(Abscissa::Time);
  else if (key == kSpectrumKey) setAbscissa(Abscissa::Frequency);
  else setAbscissa(Abscissa::Channel, key.toStdString());
}

QString PlotView::xTitle() const {
  if (m_abscissa == Abscissa::Frequency) return tr("f [Hz]");
  if (m_abscissa == Abscissa::Channel) {
    const int c = m_results.channelIndex(m_xChannel);
    if (c < 0) return QString::fromStdString(m_xChannel) + tr(" (not in this run)");
    const Channel& channel = m_results.channels()[std::size_t(c)];
    return QString("%1 [%2]").arg(QString::fromStdString(channel.name), shownUnit(channel.unit).unit);
  }
  if (!m_results.timed()) return QString::fromStdString(m_results.abscissa().header());
  return tr("t [s]");
}

void PlotView::updateSpectra(bool streaming) {
  // an FFT of every channel per redraw would cost the live view: while samples stream, only
  // when the run has grown by a tenth since; otherwise whenever it changed
  const std::size_t n = m_results.size();
  const bool current = m_spectra.size() == m_names.size() && m_spectraSamples > 0 && n >= m_spectraSamples;
  if (current && (n == m_spectraSamples || (streaming && 10 * (n - m_spectraSamples) < m_spectraSamples))) return;
  m_spectra.assign(m_names.size(), Spectrum{});
  m_spectraSamples = n;
  const std::vector<double> time(m_results.time().begin(), m_results.time().end());
  for (std::size_t k = 0; k < m_names.size(); ++k) {
    const int c = m_results.channelIndex(m_names[k]);
    if (c < 0) continue;
    const double factor = shownUnit(m_results.channels()[std::size_t(c)].unit).factor;
    std::vector<double> values(m_results.column(std::size_t(c)).begin(), m_results.column(std::size_t(c)).end());
    for (double& v : values) v *= factor;
    m_spectra[k] = amplitudeSpectrum(time, values);
  }
}

void PlotView::refresh(bool streaming) {
  const bool any = !m_results.empty();
  const int xc = m_abscissa == Abscissa::Channel ? m_results.channelIndex(m_xChannel) : -1;
  const double xFactor = xc >= 0 ? shownUnit(m_results.channels()[std::size_t(xc)].unit).factor : 1.0;
  if (m_abscissa == Abscissa::Frequency && any) updateSpectra(streaming);
  if (m_autoscale && any) {
    if (m_abscissa == Abscissa::Time) {
      m_t0 = m_results.time().front();
      m_t1 = m_results.time().back();
    } else if (m_abscissa == Abscissa::Channel && xc >= 0) {
      const auto [lo, hi] = m_results.range(std::size_t(xc), 0, m_results.size());
      m_t0 = xFactor * lo, m_t1 = xFactor * hi;
      if (m_t0 > m_t1) std::swap(m_t0, m_t1);
      const double pad = 0.03 * (m_t1 - m_t0);
      m_t0 -= pad, m_t1 += pad;
    } else if (m_abscissa == Abscissa::Frequency) {
      // up to a quarter beyond the last line above 1 % of its channel's peak: the content, not
      // a long flat tail up to the Nyquist frequency (the wheel zooms out to it)
      m_t0 = 0.0, m_t1 = 0.0;
      for (const Spectrum& sp : m_spectra) {
        if (sp.empty()) continue;
        const double peak = *std::max_element(sp.amplitude.begin() + 1, sp.amplitude.end());
        std::size_t last = sp.frequency.size() - 1;
        while (last > 1 && !(sp.amplitude[last] >= 1e-2 * peak)) --last;
        m_t1 = std::max(m_t1, std::min(sp.frequency.back(), 1.25 * sp.frequency[last] + 2 * sp.resolution));
      }
    }
  }
  if (!(m_t1 > m_t0)) m_t1 = m_t0 + 1.0;
  // one bucket per pixel column of the plot area: the drawing is exact at this zoom
  const int buckets = std::max(50, int(chart()->plotArea().width()));
  // one value axis per unit, each with the range of its own channels
  struct Range {
    double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();
  };
  std::map<std::string, Range> ranges;
  std::vector<QList<QPointF>> curves(m_names.size());
  for (std::size_t k = 0; k < m_names.size(); ++k) {
    QLineSeries* series = m_series[k];
    const int c = m_results.channelIndex(m_names[k]);
    if (c < 0 || !any) {
      series->setName(QString::fromStdString(m_names[k]) + tr(" (not in this run)"));
      continue;
    }
    const Channel& channel = m_results.channels()[std::size_t(c)];
    const ShownUnit shown = shownUnit(channel.unit);
    const std::string unit = shown.unit.toStdString();
    series->setName(QString("%1 [%2]").arg(QString::fromStdString(channel.name), shown.unit));
    attachToUnit(series, unit);
    double& lo = ranges[unit].lo;
    double& hi = ranges[unit].hi;
    QList<QPointF>& points = curves[k];
    const auto add = [&](double x, double y) {
      points.append({x, y});
      if (std::isfinite(y)) lo = std::min(lo, y), hi = std::max(hi, y);
    };
    if (m_abscissa == Abscissa::Time) {
      const ResultTable::Envelope env = m_results.envelope(std::size_t(c), m_t0, m_t1, buckets);
      points.reserve(int(env.size()) * 2);
      for (std::size_t b = 0; b < env.size(); ++b) {
        // a vertical stroke per pixel column from one extreme to the other, the one nearer the
        // bucket's first value first: every column shows exactly its samples' range, with half
        // the points (and half the drawing) of first-extremes-last
        const double t = env.time[b];
        const bool minFirst = env.first[b] - env.min[b] < env.max[b] - env.first[b];
        add(t, shown.factor * (minFirst ? env.min[b] : env.max[b]));
        if (env.min[b] != env.max[b]) add(t, shown.factor * (minFirst ? env.max[b] : env.min[b]));
      }
    } else if (m_abscissa == Abscissa::Channel) {
      if (xc < 0) continue;
      // every sample up to 20 000 points, then every k-th: a curve in the plane has no envelope
      const std::span<const double> x = m_results.column(std::size_t(xc)), y = m_results.column(std::size_t(c));
      const std::size_t stride = std::max<std::size_t>(1, x.size() / 20000);
      points.reserve(int(x.size() / stride) + 1);
      for (std::size_t i = 0; i < x.size(); i += stride)
        if (std::isfinite(x[i]) && std::isfinite(y[i])) add(xFactor * x[i], shown.factor * y[i]);
    } else if (k < m_spectra.size() && !m_spectra[k].empty()) {
      // the largest amplitude per pixel column: a narrow peak is never lost between columns
      const Spectrum& sp = m_spectra[k];
      const double width = (m_t1 - m_t0) / buckets;
      for (std::size_t b = 0; b < sp.frequency.size();) {
        std::size_t best = b, e = b + 1;
        const double column = std::floor((sp.frequency[b] - m_t0) / width);
        while (e < sp.frequency.size() && std::floor((sp.frequency[e] - m_t0) / width) == column) {
          if (sp.amplitude[e] > sp.amplitude[best]) best = e;
          ++e;
        }
        add(sp.frequency[best], sp.amplitude[best]);
        b = e;
      }
      lo = std::min(lo, 0.0);  // amplitudes from zero
    }
  }
  m_time->setTitleText(xTitle());
  // the axes first, each set once and only when it changes: every axis change makes every
  // series rebuild its geometry (twice the cost of the whole redraw with 10 curves)
  if (m_autoscale) {
    // as many ticks as fit the plot's height with room for their labels (else Qt Charts elides
    // them all to "…"), 1, 2 or 5 times a power of ten apart and anchored at zero, so that a
    // zero tick reads 0 and not a round-off like -1.388e-17
    const int wanted = std::clamp(int(chart()->plotArea().height() / 28.0), 2, 6);
    for (const auto& [unit, axis] : m_valueAxes) {
      const auto r = ranges.find(unit);
      double lo = r == ranges.end() ? -1 : r->second.lo, hi = r == ranges.end() ? 1 : r->second.hi;
      if (!(hi >= lo)) lo = -1, hi = 1;
      const double pad = hi > lo ? 0.05 * (hi - lo) : std::max(1e-12, 0.05 * std::abs(hi));
      const double step = render::niceStep((hi - lo + 2 * pad) / double(wanted));
      // a quantity that is never negative (an amplitude, a von Mises stress) starts at 0
      const double niceLo = lo >= 0.0 ? std::max(0.0, std::floor((lo - pad) / step) * step) : std::floor((lo - pad) / step) * step;
      const double niceHi = std::ceil((hi + pad) / step) * step;
      setAxis(axis, niceLo, niceHi, step);
    }
  }
  // round ticks on the horizontal axis too, as many as fit its labels
  setAxis(m_time, m_t0, m_t1, render::niceStep((m_t1 - m_t0) / std::clamp(int(chart()->plotArea().width() / 90.0), 2, 10)));
  // an axis whose unit no channel has any more is hidden (kept: Qt Charts dislikes removals)
  for (const auto& [unit, axis] : m_valueAxes) axis->setVisible(unit.empty() ? m_valueAxes.size() == 1 : ranges.count(unit));
  for (std::size_t k = 0; k < m_names.size(); ++k) m_series[k]->replace(curves[k]);
  updateCursor();
}

QList<QPointF> PlotView::points(const std::string& name) const {
  for (std::size_t k = 0; k < m_names.size(); ++k)
    if (m_names[k] == name) return m_series[k]->points();
  return {};
}

QList<QPointF> PlotView::cursorMarks() const { return m_markValues; }

void PlotView::setAxis(QValueAxis* axis, double lo, double hi, double step) {
  // the interval first when the range grows: a thousand times the range with the old interval
  // would make Qt Charts lay out a million ticks
  if (axis->tickInterval() < step) axis->setTickInterval(step);
  if (axis->min() != lo || axis->max() != hi) axis->setRange(lo, hi);
  if (axis->tickInterval() != step) axis->setTickInterval(step);
}

QValueAxis* PlotView::valueAxis(const std::string& unit) {
  for (const auto& [u, axis] : m_valueAxes)
    if (u == unit) return axis;
  // the first axis (made for no unit) takes the first unit; others alternate right and left
  if (m_valueAxes.size() == 1 && m_valueAxes.front().first.empty() && !unit.empty()) {
    m_valueAxes.front().first = unit;
    m_valueAxes.front().second->setTitleText(QString("[%1]").arg(QString::fromStdString(unit)));
    return m_valueAxes.front().second;
  }
  return makeValueAxis(chart(), unit);
}

QValueAxis* PlotView::makeValueAxis(QChart* chart, const std::string& unit) {
  auto* axis = new QValueAxis(chart);
  axis->setLabelFormat("%.4g");
  axis->setTickType(QValueAxis::TicksDynamic);
  axis->setTickAnchor(0.0);
  axis->setLabelsFont(m_small);
  axis->setTitleFont(m_small);
  if (!unit.empty()) axis->setTitleText(QString("[%1]").arg(QString::fromStdString(unit)));
  chart->addAxis(axis, m_valueAxes.size() % 2 == 0 ? Qt::AlignLeft : Qt::AlignRight);
  m_valueAxes.emplace_back(unit, axis);
  return axis;
}

void PlotView::attachToUnit(QLineSeries* series, const std::string& unit) {
  QValueAxis* axis = valueAxis(unit);
  const QList<QAbstractAxis*> attached = series->attachedAxes();
  if (attached.contains(axis)) return;
  for (QAbstractAxis* a : attached)
    if (a != m_time) series->detachAxis(a);
  series->attachAxis(axis);
}

const QValueAxis* PlotView::axisOfUnit(const std::string& unit) const {
  for (const auto& [u, axis] : m_valueAxes)
    if (u == unit) return axis;
  return nullptr;
}

void PlotView::fit() {
  m_autoscale = true;
  refresh();
}

void PlotView::unitsChanged() {
  m_spectraSamples = 0;  // the spectra are kept in the shown units
  m_autoscale = true;
  refresh();
}

void PlotView::setCursorTime(double t) {
  m_cursorTime = t;
  updateCursor();
}

void PlotView::setCursorFrequency(double f) {
  m_cursorFrequency = f;
  updateCursor();
}

void PlotView::updateCursor() {
  const QValueAxis* axis = m_valueAxes.front().second;
  QList<QPointF> marks, drawn;
  double x = m_cursorTime;
  if (m_abscissa == Abscissa::Frequency) {
    for (const Spectrum& sp : m_spectra)  // at first, at the first channel's peak
      if (m_cursorFrequency < 0.0 && !sp.empty()) m_cursorFrequency = peakFrequency(sp);
    x = std::max(m_cursorFrequency, 0.0);
  }
  if (m_abscissa == Abscissa::Channel) {
    // a mark on each curve where the animation's time is
    const int xc = m_results.channelIndex(m_xChannel);
    if (xc >= 0 && !m_results.empty()) {
      const std::size_t i = m_results.indexAtTime(m_cursorTime);
      const double xFactor = shownUnit(m_results.channels()[std::size_t(xc)].unit).factor;
      for (std::size_t k = 0; k < m_names.size(); ++k)
        if (const int c = m_results.channelIndex(m_names[k]); c >= 0) {
          const ShownUnit shown = shownUnit(m_results.channels()[std::size_t(c)].unit);
          const QPointF mark(xFactor * m_results.column(std::size_t(xc))[i], shown.factor * m_results.column(std::size_t(c))[i]);
          marks.append(mark);
          // the mark series lives on the first value axis: a value on another unit's axis is
          // placed at the same height its own axis gives it
          const QValueAxis* own = axisOfUnit(shown.unit.toStdString());
          const double share = own && own->max() > own->min() ? (mark.y() - own->min()) / (own->max() - own->min()) : 0.5;
          drawn.append({mark.x(), axis->min() + share * (axis->max() - axis->min())});
        }
    }
    m_cursor->clear();
  } else {
    m_cursor->replace(QList<QPointF>{{x, axis->min()}, {x, axis->max()}});
  }
  m_markValues = marks;
  m_marks->replace(drawn);
  emit readoutChanged(readout());
}

QString PlotView::readout() const {
  if (m_results.empty() || m_names.empty()) return {};
  const auto value = [](double v, const QString& unit) { return QString("%1 %2").arg(v, 0, 'g', 6).arg(unit); };
  QStringList parts;
  if (m_abscissa == Abscissa::Frequency) {
    const double f = std::max(m_cursorFrequency, 0.0);
    parts << tr("f = %1 Hz").arg(f, 0, 'g', 5);
    for (std::size_t k = 0; k < m_names.size() && k < m_spectra.size(); ++k) {
      const Spectrum& sp = m_spectra[k];
      const int c = m_results.channelIndex(m_names[k]);
      if (sp.empty() || c < 0) continue;
      const auto bin = std::size_t(std::clamp(std::lround(f / sp.resolution), 0L, long(sp.frequency.size()) - 1));
      parts << tr("%1: %2 (peak at %3 Hz)")
                   .arg(QString::fromStdString(m_names[k]))
                   .arg(value(sp.amplitude[bin], shownUnit(m_results.channels()[std::size_t(c)].unit).unit))
                   .arg(peakFrequency(sp), 0, 'g', 5);
    }
    return parts.join("   ");
  }
  const std::size_t i = m_results.indexAtTime(m_cursorTime);
  if (m_results.timed()) parts << tr("t = %1 s").arg(m_results.time()[i], 0, 'g', 6);
  else parts << QString("%1 %2").arg(QString::fromStdString(m_results.abscissa().name)).arg(m_results.time()[i], 0, 'g', 6);
  std::vector<std::string> names = m_names;
  if (m_abscissa == Abscissa::Channel) names.insert(names.begin(), m_xChannel);
  for (std::size_t k = 0; k < names.size(); ++k) {
    const int c = m_results.channelIndex(names[k]);
    if (c < 0) continue;
    const ShownUnit shown = shownUnit(m_results.channels()[std::size_t(c)].unit);
    parts << QString("%1%2 = %3")
                 .arg(m_abscissa == Abscissa::Channel && k == 0 ? "x: " : "")
                 .arg(QString::fromStdString(names[k]))
                 .arg(value(shown.factor * m_results.column(std::size_t(c))[i], shown.unit));
  }
  return parts.join("   ");
}

int PlotView::pointCount(const std::string& name) const {
  for (std::size_t k = 0; k < m_names.size(); ++k)
    if (m_names[k] == name) return int(m_series[k]->count());
  return -1;
}

bool PlotView::exportCsv(const QString& path, QString& error) const {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text)) {
    error = tr("cannot write '%1'").arg(path);
    return false;
  }
  QTextStream out(&file);
  out.setRealNumberPrecision(17);
  if (m_abscissa == Abscissa::Frequency) {
    // the spectra as drawn from (every bin), in the shown units
    out << "frequency [Hz]";
    std::size_t bins = 0;
    for (std::size_t k = 0; k < m_names.size() && k < m_spectra.size(); ++k) {
      const int c = m_results.channelIndex(m_names[k]);
      if (c < 0 || m_spectra[k].empty()) continue;
      out << "," << QString::fromStdString(m_names[k]) << " amplitude [" << shownUnit(m_results.channels()[std::size_t(c)].unit).unit << "]";
      bins = std::max(bins, m_spectra[k].frequency.size());
    }
    out << "\n";
    for (std::size_t b = 0; b < bins; ++b) {
      bool first = true;
      for (const Spectrum& sp : m_spectra) {
        if (sp.empty()) continue;
        if (first) out << (b < sp.frequency.size() ? sp.frequency[b] : 0.0);
        first = false;
        out << "," << (b < sp.amplitude.size() ? sp.amplitude[b] : 0.0);
      }
      out << "\n";
    }
    return true;
  }
  // every sample of the plotted channels (not the drawn envelope), SI, full precision; an x-y
  // plot's x channel first
  std::vector<int> columns;
  out << QString::fromStdString(m_results.abscissa().header());
  std::vector<std::string> names = m_names;
  if (m_abscissa == Abscissa::Channel) names.insert(names.begin(), m_xChannel);
  for (const std::string& name : names) {
    const int c = m_results.channelIndex(name);
    if (c < 0) continue;
    columns.push_back(c);
    out << "," << QString::fromStdString(m_results.channels()[std::size_t(c)].header());
  }
  out << "\n";
  for (std::size_t i = 0; i < m_results.size(); ++i) {
    out << m_results.time()[i];
    for (int c : columns) out << "," << m_results.column(std::size_t(c))[i];
    out << "\n";
  }
  return true;
}

bool PlotView::exportSvg(const QString& path) {
  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(size());
  svg.setViewBox(rect());
  svg.setTitle(tr("Flexim plot"));
  QPainter painter;
  if (!painter.begin(&svg)) return false;
  render(&painter);
  return painter.end();
}

void PlotView::dragEnterEvent(QDragEnterEvent* event) {
  if (!channelNamesIn(event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void PlotView::dragMoveEvent(QDragMoveEvent* event) {
  if (!channelNamesIn(event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void PlotView::dropEvent(QDropEvent* event) {
  const QStringList names = channelNamesIn(event->mimeData());
  if (names.isEmpty()) return;
  for (const QString& name : names) addChannel(name.toStdString());
  event->acceptProposedAction();
}

void PlotView::wheelEvent(QWheelEvent* event) {
  // zoom the time axis about the mouse position
  const double factor = event->angleDelta().y() > 0 ? 0.8 : 1.25;
  const QPointF at = chart()->mapToValue(event->position());
  m_autoscale = false;
  m_t0 = at.x() - (at.x() - m_time->min()) * factor;
  m_t1 = at.x() + (m_time->max() - at.x()) * factor;
  m_time->setRange(m_t0, m_t1);
  refresh();
  event->accept();
}

void PlotView::mouseReleaseEvent(QMouseEvent* event) {
  // a rubber band zooms (right button: back out); the envelope is recomputed for the new range
  QChartView::mouseReleaseEvent(event);
  if (m_time->min() != m_t0 || m_time->max() != m_t1) {
    m_autoscale = false;
    m_t0 = m_time->min();
    m_t1 = m_time->max();
    refresh();
  }
}

void PlotView::mouseMoveEvent(QMouseEvent* event) {
  QChartView::mouseMoveEvent(event);
  if (m_abscissa == Abscissa::Frequency && chart()->plotArea().contains(event->position()))
    setCursorFrequency(chart()->mapToValue(event->position(), m_cursor).x());
}

void PlotView::resizeEvent(QResizeEvent* event) {
  QChartView::resizeEvent(event);
  refresh();  // buckets follow the plot's width
}

// ---------------------------------------------------------------------------------------------
// PlotPanel

PlotPanel::PlotPanel(const ResultTable& results, QWidget* parent) : QWidget(parent), m_results(results) {
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  m_list = new ChannelList(splitter);
  m_list->setObjectName("channelList");
  m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
  m_list->setDragEnabled(true);
  m_list->setDragDropMode(QAbstractItemView::DragOnly);
  m_list->setToolTip(tr("Channels of the run: drag them into a plot, or double-click"));
  m_list->setMaximumWidth(260);
  connect(m_list, &QListWidget::itemDoubleClicked, this, [this](QListWidgetItem* item) {
    PlotView* plot = currentPlot() ? currentPlot() : addPlot();
    plot->addChannel(item->data(Qt::UserRole).toString().toStdString());
  });

  auto* right = new QWidget(splitter);
  auto* column = new QVBoxLayout(right);
  column->setContentsMargins(0, 0, 0, 0);
  auto* buttons = new QHBoxLayout;
  const auto button = [&](const QString& text, const QString& name, const QString& tip, auto slot) {
    auto* b = new QPushButton(text, right);
    b->setObjectName(name);
    b->setToolTip(tip);
    connect(b, &QPushButton::clicked, this, slot);
    buttons->addWidget(b);
    return b;
  };
  button(tr("New plot"), "newPlot", tr("Add an empty plot tab"), [this] { addPlot(); });
  button(tr("Fit"), "fitPlot", tr("Show the whole run and the data's range (autoscale)"), [this] {
    if (PlotView* p = currentPlot()) p->fit();
  });
  button(tr("Clear"), "clearPlot", tr("Remove the channels of this plot"), [this] {
    if (PlotView* p = currentPlot()) p->removeChannels();
  });
  button(tr("Export…"), "exportPlot", tr("Save this plot as PNG or SVG, or its data as CSV"), [this] { exportCurrent(); });
  m_abscissa = new QComboBox(right);
  m_abscissa->setObjectName("plotAbscissa");
  m_abscissa->setToolTip(tr("The horizontal axis of this plot: time, another channel (an x-y plot), or frequency "
                            "(the amplitude spectrum of each channel, Hann window)"));
  m_abscissa->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  buttons->addWidget(m_abscissa);
  connect(m_abscissa, &QComboBox::activated, this, [this] {
    if (PlotView* plot = currentPlot()) plot->setAbscissaKey(m_abscissa->currentData().toString());
  });
  buttons->addStretch(1);
  column->addLayout(buttons);
  m_tabs = new QTabWidget(right);
  m_tabs->setTabsClosable(true);
  connect(m_tabs, &QTabWidget::tabCloseRequested, this, [this](int i) {
    delete m_tabs->widget(i);
    emit layoutChanged();
  });
  column->addWidget(m_tabs, 1);
  m_readout = new QLabel(right);
  m_readout->setObjectName("plotReadout");
  m_readout->setTextInteractionFlags(Qt::TextSelectableByMouse);
  column->addWidget(m_readout);
  connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
    m_readout->setText(currentPlot() ? currentPlot()->readout() : QString());
    updateAbscissaBox();
  });

  splitter->setStretchFactor(0, 0);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({220, 600});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(splitter);
  addPlot();
}

PlotView* PlotPanel::currentPlot() const { return qobject_cast<PlotView*>(m_tabs->currentWidget()); }

PlotView* PlotPanel::addPlot() {
  auto* plot = new PlotView(m_results, m_tabs);
  plot->setObjectName(QString("plot%1").arg(++m_plotsMade));
  const int index = m_tabs->addTab(plot, tr("Plot %1").arg(m_plotsMade));
  m_tabs->setCurrentIndex(index);
  connect(plot, &PlotView::readoutChanged, this, [this, plot](const QString& text) {
    if (plot == currentPlot()) m_readout->setText(text);
  });
  connect(plot, &PlotView::channelsChanged, this, [this, plot] {
    // the tab is named after its first channel
    const int i = m_tabs->indexOf(plot);
    if (i >= 0 && !plot->channelNames().empty())
      m_tabs->setTabText(i, QString::fromStdString(plot->channelNames().front()) +
                                (plot->channelNames().size() > 1 ? QString(" +%1").arg(plot->channelNames().size() - 1) : "") +
                                (plot->abscissa() == PlotView::Abscissa::Frequency ? tr(" (FFT)")
                                 : plot->abscissa() == PlotView::Abscissa::Channel
                                     ? tr(" vs %1").arg(QString::fromStdString(plot->xChannel()))
                                     : QString()));
    if (plot == currentPlot()) updateAbscissaBox();
    emit layoutChanged();
  });
  emit layoutChanged();
  return plot;
}

QList<QStringList> PlotPanel::plotLayout() const {
  QList<QStringList> layout;
  for (int i = 0; i < m_tabs->count(); ++i)
    if (auto* plot = qobject_cast<PlotView*>(m_tabs->widget(i))) {
      QStringList names;
      if (plot->abscissa() == PlotView::Abscissa::Frequency) names << PlotView::kSpectrumKey;
      if (plot->abscissa() == PlotView::Abscissa::Channel) names << kLayoutXPrefix + plot->abscissaKey();
      for (const std::string& name : plot->channelNames()) names << QString::fromStdString(name);
      layout << names;
    }
  return layout;
}

void PlotPanel::setPlotLayout(const QList<QStringList>& layout) {
  const QSignalBlocker block(this);  // one change, announced once
  while (m_tabs->count() > 0) delete m_tabs->widget(0);
  m_plotsMade = 0;
  for (const QStringList& names : layout) {
    PlotView* plot = addPlot();
    for (const QString& name : names) {
      if (name == PlotView::kSpectrumKey) plot->setAbscissaKey(name);
      else if (name.startsWith(kLayoutXPrefix)) plot->setAbscissaKey(name.mid(kLayoutXPrefix.size()));
      else plot->addChannel(name.toStdString());
    }
  }
  if (m_tabs->count() == 0) addPlot();
  m_tabs->setCurrentIndex(0);
}

void PlotPanel::setChannels(const std::vector<Channel>& channels) {
  m_list->clear();
  for (const Channel& c : channels) {
    auto* item = new QListWidgetItem(QString::fromStdString(c.header()), m_list);
    item->setData(Qt::UserRole, QString::fromStdString(c.name));
  }
  updateAbscissaBox();
  refreshAll();
}

void PlotPanel::updateAbscissaBox() {
  const QSignalBlocker block(m_abscissa);
  m_abscissa->clear();
  m_abscissa->addItem(m_results.timed() ? tr("x: time") : tr("x: %1").arg(QString::fromStdString(m_results.abscissa().name)),
                      PlotView::kTimeKey);
  m_abscissa->addItem(tr("x: frequency (spectrum)"), PlotView::kSpectrumKey);
  for (int i = 0; i < m_list->count(); ++i) {
    const QString name = m_list->item(i)->data(Qt::UserRole).toString();
    m_abscissa->addItem(tr("x: %1").arg(name), name);
  }
  const PlotView* plot = currentPlot();
  const QString shown = plot ? plot->abscissaKey() : QString(PlotView::kTimeKey);
  if (m_abscissa->findData(shown) < 0) m_abscissa->addItem(tr("x: %1 (not in this run)").arg(shown), shown);
  m_abscissa->setCurrentIndex(m_abscissa->findData(shown));
}

void PlotPanel::unitsChanged() {
  for (int i = 0; i < m_tabs->count(); ++i)
    if (auto* plot = qobject_cast<PlotView*>(m_tabs->widget(i))) plot->unitsChanged();
}

void PlotPanel::samplesAppended() {
  if (m_refreshPending) return;
  m_refreshPending = true;
  QTimer::singleShot(100, this, [this] {
    m_refreshPending = false;
    refreshAll(true);
  });
}

void PlotPanel::refreshAll(bool streaming) {
  for (int i = 0; i < m_tabs->count(); ++i)
    if (auto* plot = qobject_cast<PlotView*>(m_tabs->widget(i))) plot->refresh(streaming);
}

void PlotPanel::setCursorTime(double t) {
  for (int i = 0; i < m_tabs->count(); ++i)
    if (auto* plot = qobject_cast<PlotView*>(m_tabs->widget(i))) plot->setCursorTime(t);
}

void PlotPanel::exportCurrent() {
  PlotView* plot = currentPlot();
  if (!plot) return;
  QString filter;
  const QString path = QFileDialog::getSaveFileName(this, tr("Export plot"), QStringLiteral("plot.png"),
                                                    tr("PNG image (*.png);;SVG drawing (*.svg);;CSV data (*.csv)"), &filter);
  if (path.isEmpty()) return;
  const QString suffix = QFileInfo(path).suffix().toLower();
  QString error;
  bool ok = true;
  if (suffix == "csv") ok = plot->exportCsv(path, error);
  else if (suffix == "svg") ok = plot->exportSvg(path);
  else ok = plot->grab().save(path);
  if (!ok) m_readout->setText(error.isEmpty() ? tr("could not write %1").arg(path) : error);
}

}  // namespace flexim::ui
