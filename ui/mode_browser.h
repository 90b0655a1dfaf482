// The mode browser: the modes of the selected flexible body — number,
// frequency, kind, effective mass share of fixed-interface modes — or the system's modes about its
// static equilibrium (Simulation → System modes: frequency, damping ratio) in a table, the reduction's
// validation report and the MAC matrix against the FE program's modes in tabs beside it; the selected mode is animated on the body in the 3-D view,
// with an amplitude (the largest displacement drawn, as a share of the model's size) and a
// speed, coloured by the mode's displacement magnitude. A reduced body (.frb) opened with
// File > Open is shown alone, ready to browse.
#pragma once

#include "core/run/linearization.h"
#include "render/model_scene.h"
#include "ui/model_document.h"

#include <memory>

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
  /// The modes of the whole model linearized about its equilibrium (a second source beside a
  /// flexible body's FE modes): each drawn as every body's motion along the mode shape, scaled
  /// so that the largest displacement is the chosen share of the model size.
  void showSystemModes(std::shared_ptr<const Simulation> simulation, std::shared_ptr<const LinearizationResult> modes);
  /// Whether the table shows the system's modes (not a flexible body's).
  bool showsSystemModes() const { return m_linear != nullptr; }
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
  void drawSystemMode(double phase);
  /// The table's columns for a flexible body's modes or the system's.
  void setColumns(bool system);

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
  std::shared_ptr<const Simulation> m_simulation;      ///< of the system modes shown
  std::shared_ptr<const LinearizationResult> m_linear;  ///< the system modes shown, or none
  int m_body = -1;
  int m_mode = -1;
  double m_phase = 0.0;  ///< of the animation, radians
};

}  // namespace flexim::ui
