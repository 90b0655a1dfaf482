// Live plots of a run's channels (issue #9 item 5), drawn with Qt Charts from the columnar
// ResultTable. The panel lists every channel of the run; a channel dragged (or double-clicked)
// into a plot is drawn there against time, and grows while the run streams. Several plots sit in
// tabs. Each plot draws the exact min/max envelope of its channels (ResultTable::envelope), one
// bucket per pixel column, so a million samples cost what a few thousand do. Zoom with the
// mouse wheel or a dragged rectangle, autoscale with "Fit"; a cursor follows the animation's
// time with the channels' values; a plot exports as PNG, SVG or CSV.
#pragma once

#include "core/run/result_table.h"

#include <QChartView>
#include <QWidget>

#include <string>
#include <vector>

class QLabel;
class QListWidget;
class QTabWidget;
class QLineSeries;
class QValueAxis;
class QChart;

namespace flexim::ui {

/// One plot: the channels it shows (by name, so they survive a new run), its axes and cursor.
class PlotView : public QChartView {
  Q_OBJECT

 public:
  PlotView(const ResultTable& results, QWidget* parent = nullptr);

  /// Adds a channel by name (ignored if already shown); it is drawn at the next refresh.
  void addChannel(const std::string& name);
  void removeChannels();
  const std::vector<std::string>& channelNames() const { return m_names; }
  /// Redraws from the results (a run appended samples, or a new run started).
  void refresh();
  /// Back to the whole time range and the data's value range.
  void fit();
  /// The cursor's time (the animation's), with the channels' values in the readout.
  void setCursorTime(double t);
  QString readout() const;
  /// Number of points drawn for a channel (the envelope's, not the samples').
  int pointCount(const std::string& name) const;
  /// The value axis of a unit ("m", "rad/s"), null when no channel of the plot has it.
  const QValueAxis* axisOfUnit(const std::string& unit) const;
  bool exportCsv(const QString& path, QString& error) const;
  bool exportSvg(const QString& path);

 signals:
  void channelsChanged();
  void readoutChanged(const QString& text);

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dragMoveEvent(QDragMoveEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void updateAxes();
  void updateCursor();
  /// The value axis of a unit, made (and placed, alternately left and right) when first needed.
  QValueAxis* valueAxis(const std::string& unit);
  QValueAxis* makeValueAxis(QChart* chart, const std::string& unit);
  /// Attaches a series to its unit's value axis (and detaches it from another).
  void attachToUnit(QLineSeries* series, const std::string& unit);

  const ResultTable& m_results;
  std::vector<std::string> m_names;
  std::vector<QLineSeries*> m_series;
  QLineSeries* m_cursor = nullptr;
  QValueAxis* m_time = nullptr;
  /// One value axis per unit, in the order the units came ("" before the first channel is known).
  std::vector<std::pair<std::string, QValueAxis*>> m_valueAxes;
  QFont m_small;  ///< axis labels and titles
  bool m_autoscale = true;  ///< follow the data (a zoom by the user turns it off; Fit turns it on)
  double m_cursorTime = 0.0;
  double m_t0 = 0.0, m_t1 = 1.0;  ///< time range shown
};

class PlotPanel : public QWidget {
  Q_OBJECT

 public:
  explicit PlotPanel(const ResultTable& results, QWidget* parent = nullptr);

  /// The run's channels changed (a run started): lists them; plots keep their channels by name.
  void setChannels(const std::vector<Channel>& channels);
  /// Samples were appended: the plots redraw (at most every 100 ms while samples stream).
  void samplesAppended();
  void setCursorTime(double t);
  /// Redraws every plot now (the run finished: its last samples are shown at once).
  void refreshAll();

  QListWidget* channelList() const { return m_list; }
  QTabWidget* tabs() const { return m_tabs; }
  PlotView* currentPlot() const;
  PlotView* addPlot();
  /// The channel names of each plot tab, in order (what is remembered of a model's plots).
  QList<QStringList> plotLayout() const;
  /// Replaces the plots by one tab per entry with those channels (one empty plot for none).
  void setPlotLayout(const QList<QStringList>& layout);

 signals:
  /// A plot was added or closed, or its channels changed.
  void layoutChanged();

 public:
  /// MIME type of dragged channel names (one per line).
  static const char* mimeType();

 private:
  void exportCurrent();

  const ResultTable& m_results;
  QListWidget* m_list = nullptr;
  QTabWidget* m_tabs = nullptr;
  QLabel* m_readout = nullptr;
  bool m_refreshPending = false;
  int m_plotsMade = 0;
};

}  // namespace flexim::ui
