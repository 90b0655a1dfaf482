// Live plots of a run's channels, drawn with Qt Charts from the columnar ResultTable. The panel
// lists every channel of the run; a channel dragged (or double-clicked) into a plot is drawn
// there and grows while the run streams. Several plots sit in tabs. A plot's channels are drawn
// against time, against another channel (an x-y plot) or as their amplitude spectrum (FFT).
// Against time each plot draws the exact min/max envelope of its channels
// (ResultTable::envelope), one bucket per pixel column, so a million samples cost what a few
// thousand do. Zoom with the mouse wheel or a dragged rectangle, autoscale with "Fit". A cursor
// follows the animation's time (against time: a line; x-y: a mark on each curve) and reads out
// the channels' values; on a spectrum it follows the mouse and reads out each amplitude there.
// Values are shown in the display units (display_units.h); a plot exports as PNG, SVG or CSV.
#pragma once

#include "core/run/result_table.h"
#include "core/run/spectrum.h"

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
class QComboBox;
class QScatterSeries;

namespace flexim::ui {

/// One plot: the channels it shows (by name, so they survive a new run), its axes and cursor.
class PlotView : public QChartView {
  Q_OBJECT

 public:
  PlotView(const ResultTable& results, QWidget* parent = nullptr);

  /// What the horizontal axis is: time, another channel (x-y plot) or frequency (spectrum).
  enum class Abscissa { Time, Channel, Frequency };
  /// Draws the channels against time, against channel `xChannel` or as spectra.
  void setAbscissa(Abscissa abscissa, const std::string& xChannel = {});
  Abscissa abscissa() const { return m_abscissa; }
  /// The abscissa as one word, as the x box and the remembered layouts name it: kTimeKey,
  /// kSpectrumKey or the x channel's name.
  static constexpr const char* kTimeKey = "@time";
  static constexpr const char* kSpectrumKey = "@spectrum";
  QString abscissaKey() const;
  void setAbscissaKey(const QString& key);
  const std::string& xChannel() const { return m_xChannel; }

  /// Adds a channel by name (ignored if already shown); it is drawn at the next refresh.
  void addChannel(const std::string& name);
  void removeChannels();
  const std::vector<std::string>& channelNames() const { return m_names; }
  /// Redraws from the results (a run appended samples, or a new run started).
  /// streaming: samples are arriving, and a spectrum may lag behind them by a tenth.
  void refresh(bool streaming = false);
  /// Back to the whole time range and the data's value range.
  void fit();
  /// The shown units changed: redraw in them.
  void unitsChanged();
  /// The cursor's time (the animation's), with the channels' values in the readout.
  void setCursorTime(double t);
  /// The spectrum's cursor frequency [Hz] (the mouse sets it), with the amplitudes there in the readout.
  void setCursorFrequency(double f);
  QString readout() const;
  /// Number of points drawn for a channel (the envelope's, not the samples').
  int pointCount(const std::string& name) const;
  /// The value axis of a unit as shown ("m", "MPa"), null when no channel of the plot has it.
  const QValueAxis* axisOfUnit(const std::string& unit) const;
  const QValueAxis* horizontalAxis() const { return m_time; }
  /// The points drawn for a channel (envelope, x-y points or spectrum), in the shown units.
  QList<QPointF> points(const std::string& name) const;
  /// The marks of the x-y cursor, one per channel.
  QList<QPointF> cursorMarks() const;
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
  void mouseMoveEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void updateCursor();
  /// The spectra of the channels, recomputed when the samples changed (while they stream, when
  /// they have grown by a tenth).
  void updateSpectra(bool streaming);
  QString xTitle() const;
  /// Sets an axis' range and tick interval (each only when it changes: every change makes every
  /// series rebuild its geometry).
  static void setAxis(QValueAxis* axis, double lo, double hi, double step);
  /// The value axis of a unit, made (and placed, alternately left and right) when first needed.
  QValueAxis* valueAxis(const std::string& unit);
  QValueAxis* makeValueAxis(QChart* chart, const std::string& unit);
  /// Attaches a series to its unit's value axis (and detaches it from another).
  void attachToUnit(QLineSeries* series, const std::string& unit);

  const ResultTable& m_results;
  std::vector<std::string> m_names;
  std::vector<QLineSeries*> m_series;
  QLineSeries* m_cursor = nullptr;
  QScatterSeries* m_marks = nullptr;  ///< x-y cursor
  QList<QPointF> m_markValues;       ///< its marks in the channels' shown units
  Abscissa m_abscissa = Abscissa::Time;
  std::string m_xChannel;
  std::vector<Spectrum> m_spectra;  ///< per channel, in shown units (Frequency)
  std::size_t m_spectraSamples = 0; ///< samples the spectra were computed from
  double m_cursorFrequency = -1.0;  ///< < 0: at the first channel's peak
  QValueAxis* m_time = nullptr;
  /// One value axis per unit, in the order the units came ("" before the first channel is known).
  std::vector<std::pair<std::string, QValueAxis*>> m_valueAxes;
  QFont m_small;  ///< axis labels and titles
  bool m_autoscale = true;  ///< follow the data (a zoom by the user turns it off; Fit turns it on)
  double m_cursorTime = 0.0;
  double m_t0 = 0.0, m_t1 = 1.0;  ///< horizontal range shown (time, x channel or frequency)
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
  void refreshAll(bool streaming = false);

  QListWidget* channelList() const { return m_list; }
  QTabWidget* tabs() const { return m_tabs; }
  PlotView* currentPlot() const;
  PlotView* addPlot();
  /// The channel names of each plot tab, in order (what is remembered of a model's plots); a
  /// first entry "@spectrum" or "@x=<channel>" says what the horizontal axis is.
  QList<QStringList> plotLayout() const;
  /// Replaces the plots by one tab per entry with those channels (one empty plot for none).
  void setPlotLayout(const QList<QStringList>& layout);
  /// Where the current plot's horizontal axis is chosen: time, spectrum, or a channel.
  QComboBox* abscissaBox() const { return m_abscissa; }
  /// Shown values changed unit (View > Stress unit): every plot redraws.
  void unitsChanged();

 signals:
  /// A plot was added or closed, or its channels changed.
  void layoutChanged();

 public:
  /// MIME type of dragged channel names (one per line).
  static const char* mimeType();

 private:
  void exportCurrent();
  /// The abscissa box: time, spectrum, then one entry per channel; showing the current plot's.
  void updateAbscissaBox();

  const ResultTable& m_results;
  QListWidget* m_list = nullptr;
  QTabWidget* m_tabs = nullptr;
  QLabel* m_readout = nullptr;
  QComboBox* m_abscissa = nullptr;
  bool m_refreshPending = false;
  int m_plotsMade = 0;
};

}  // namespace flexim::ui
