// The mode browser: the modes of the selected flexible body — number,
// frequency, kind, effective mass share of fixed-interface modes — in a table, the reduction's
// validation report and the MAC matrix against the FE program's modes in tabs beside it; the selected mode is animated on the body in the 3-D view,
// with an amplitude (the largest displacement drawn, as a share of the model's size) and a
// speed, coloured by the mode's displacement magnitude. A reduced body (.frb) opened with
// File > Open is shown alone, ready to browse.
#pragma once

#include "render/model_scene.h"
#include "ui/model_document.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QSlider;
class QTableWidget;
class QTimer;

namespace flexim::ui {

/// A model of a reduced body alone, floating, without gravity (what the mode browser shows for a
/// .frb opened or just reduced): named name, its file `file`; a Craig–Bampton body (no six
/// rigid-body modes for mean axes) rides on its first interface.
ModelSpec modelOfReducedBody(std::shared_ptr<fe::ReducedBody> body, const std::string& name, const std::string& file);

class ModeBrowser : public QWidget {
  Q_OBJECT

 public:
  ModeBrowser(ModelDocument* document, render::ModelScene* scene, QWidget* parent = nullptr);

  /// The flexible body shown (index into the model's flexible_bodies, -1 for none).
  int body() const { return m_body; }
  /// Selects a mode row (0-based) and starts animating it.
  void showMode(int mode);
  /// Shows the first mode after the six rigid-body modes of a free body (the first row of a
  /// body without them, or of one with fewer modes).
  void showFirstElasticMode();
  /// The mode animated, -1 when none.
  int mode() const { return m_mode; }
  /// Stops animating and gives the view back (a run started, another model was opened).
  void stop();
  QTableWidget* table() const { return m_table; }
  QPlainTextEdit* report() const { return m_report; }
  /// MAC of the body's elastic modes (rows) with the FE program's (columns), when its .frd
  /// is beside the .frb; empty otherwise (macNote() says why).
  QTableWidget* assurance() const { return m_mac; }
  QString assuranceNote() const;
  /// Draws the mode at its largest deflection and stops there (for screenshots).
  void freezeAtPeak();

 signals:
  /// The view changed and should be redrawn.
  void viewChanged();

 private:
  void showBody(int body);
  void showAssurance(const FlexibleBodySpec& spec);
  void advance();
  void draw(double phase);

  ModelDocument* m_document;
  render::ModelScene* m_scene;
  QLabel* m_title = nullptr;
  QTableWidget* m_table = nullptr;
  QPlainTextEdit* m_report = nullptr;
  QTableWidget* m_mac = nullptr;
  QLabel* m_macNote = nullptr;
  QCheckBox* m_animate = nullptr;
  QSlider* m_amplitude = nullptr;  ///< largest drawn displacement, per mille of the model size
  QSlider* m_speed = nullptr;      ///< cycles per second, in tenths
  QLabel* m_amplitudeLabel = nullptr;
  QTimer* m_timer = nullptr;
  int m_body = -1;
  int m_mode = -1;
  double m_phase = 0.0;  ///< of the animation, radians
};

}  // namespace flexim::ui
