#include "ui/plot_panel.h"

#include "render/geometry.h"

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

void PlotView::refresh() {
  const bool any = !m_results.empty();
  if (m_autoscale && any) {
    m_t0 = m_results.time().front();
    m_t1 = m_results.time().back();
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
    series->setName(QString::fromStdString(channel.header()));
    attachToUnit(series, channel.unit);
    double& lo = ranges[channel.unit].lo;
    double& hi = ranges[channel.unit].hi;
    const ResultTable::Envelope env = m_results.envelope(std::size_t(c), m_t0, m_t1, buckets);
    QList<QPointF>& points = curves[k];
    points.reserve(int(env.size()) * 2);
    for (std::size_t b = 0; b < env.size(); ++b) {
      // a vertical stroke per pixel column from one extreme to the other, the one nearer the
      // bucket's first value first: every column shows exactly its samples' range, with half
      // the points (and half the drawing) of first-extremes-last
      const double t = env.time[b];
      const bool minFirst = env.first[b] - env.min[b] < env.max[b] - env.first[b];
      points.append({t, minFirst ? env.min[b] : env.max[b]});
      if (env.min[b] != env.max[b]) points.append({t, minFirst ? env.max[b] : env.min[b]});
      lo = std::min(lo, env.min[b]);
      hi = std::max(hi, env.max[b]);
    }
  }
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
      const double niceLo = std::floor((lo - pad) / step) * step, niceHi = std::ceil((hi + pad) / step) * step;
      if (axis->min() != niceLo || axis->max() != niceHi) axis->setRange(niceLo, niceHi);
      if (axis->tickInterval() != step) axis->setTickInterval(step);
    }
    if (m_time->min() != m_t0 || m_time->max() != m_t1) m_time->setRange(m_t0, m_t1);
  }
  // an axis whose unit no channel has any more is hidden (kept: Qt Charts dislikes removals)
  for (const auto& [unit, axis] : m_valueAxes) axis->setVisible(unit.empty() ? m_valueAxes.size() == 1 : ranges.count(unit));
  for (std::size_t k = 0; k < m_names.size(); ++k) m_series[k]->replace(curves[k]);
  updateCursor();
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

void PlotView::setCursorTime(double t) {
  m_cursorTime = t;
  updateCursor();
}

void PlotView::updateCursor() {
  const QValueAxis* axis = m_valueAxes.front().second;
  m_cursor->replace(QList<QPointF>{{m_cursorTime, axis->min()}, {m_cursorTime, axis->max()}});
  emit readoutChanged(readout());
}

QString PlotView::readout() const {
  if (m_results.empty() || m_names.empty()) return {};
  const std::size_t i = m_results.indexAtTime(m_cursorTime);
  QStringList parts{tr("t = %1 s").arg(m_results.time()[i], 0, 'g', 6)};
  for (const std::string& name : m_names) {
    const int c = m_results.channelIndex(name);
    if (c < 0) continue;
    parts << QString("%1 = %2 %3")
                 .arg(QString::fromStdString(name))
                 .arg(m_results.column(std::size_t(c))[i], 0, 'g', 6)
                 .arg(QString::fromStdString(m_results.channels()[std::size_t(c)].unit));
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
  // every sample of the plotted channels (not the drawn envelope), full precision
  QTextStream out(&file);
  out.setRealNumberPrecision(17);
  std::vector<int> columns;
  out << "time [s]";
  for (const std::string& name : m_names) {
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
  connect(m_tabs, &QTabWidget::currentChanged, this,
          [this] { m_readout->setText(currentPlot() ? currentPlot()->readout() : QString()); });

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
                                (plot->channelNames().size() > 1 ? QString(" +%1").arg(plot->channelNames().size() - 1) : ""));
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
    for (const QString& name : names) plot->addChannel(name.toStdString());
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
  refreshAll();
}

void PlotPanel::samplesAppended() {
  if (m_refreshPending) return;
  m_refreshPending = true;
  QTimer::singleShot(100, this, [this] {
    m_refreshPending = false;
    refreshAll();
  });
}

void PlotPanel::refreshAll() {
  for (int i = 0; i < m_tabs->count(); ++i)
    if (auto* plot = qobject_cast<PlotView*>(m_tabs->widget(i))) plot->refresh();
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
