// The files of the edited model: open (models, reduced bodies, FE meshes reduced on opening,
// dropped files), new, save, save as, revert, the recent files, the recovery of a session that
// ended without saving, the examples, the plots remembered per model file, and the exports
// (results CSV, view image, animation). It owns the File actions; the window lays them out and
// follows its signals.
#pragma once

#include "core/model/model.h"

#include <QObject>
#include <QString>

#include <memory>

class QAction;
class QMenu;
class QMimeData;
class QWidget;

namespace flexim::fe {
struct ReducedBody;
}

namespace flexim::ui {

class FeReductionJob;
class MessagesPanel;
class ModelDocument;
class PlaybackBar;
class PlotPanel;
class Recovery;
class RunSession;
class VtkViewport;

class DocumentFiles : public QObject {
  Q_OBJECT

 public:
  /// window: parent of the actions and dialogs; the run's results are what the exports write.
  DocumentFiles(ModelDocument& document, const RunSession& run, MessagesPanel& messages, PlaybackBar& playback,
                VtkViewport& viewport, PlotPanel& plots, QWidget* window);

  /// Loads a model file, or a reduced body (.frb) as a model of that body alone, to browse its
  /// modes, or reduces an FE file (openFeMesh); problems go to Messages. Returns false on errors
  /// (or when the user keeps the unsaved changes of the current model).
  bool open(const QString& path);
  /// An FE mesh or deck (any format of io::importFe) is reduced in a worker thread (free-free,
  /// 8 elastic modes) with a progress dialog and Cancel, written beside it as a .frb and shown
  /// like an opened .frb. Returns true when the reduction started; modelShown() or openFailed()
  /// follows.
  bool openFeMesh(const QString& path);
  static bool isFeFile(const QString& path);
  /// The one local file a drag carries ("" for none or several), and whether open() takes it.
  static QString draggedFile(const QMimeData* mime);
  static bool opens(const QString& path);
  /// Shows a model that is already in memory (source: file name or description for the title).
  void showModel(const ModelSpec& model, const QString& source);
  /// Writes the model JSON to path (the document's file from now on). False with a message.
  bool save(const QString& path);
  /// Asks whether to save unsaved changes before they would be lost: true to go on (saved or
  /// discarded), false to stop (cancelled, or the save failed).
  bool maybeSave();
  /// Offers to open the recovery file of a session that ended without saving (at start).
  void offerRecovery();
  Recovery* recovery() const { return m_recovery; }

  bool exportResultsCsv(const QString& path);
  /// Writes the animation of the results: .ogv video or .png frame sequence, at the playback
  /// speed, with a progress dialog (Cancel). False with a message in Messages.
  bool exportAnimation(const QString& path, int framesPerSecond = 25);
  bool exportViewImage(const QString& path);

  /// Whether a model is shown (none at start), the file or description it came from, and the
  /// folder files named in the model are relative to ("" for a model not from a file).
  bool hasModel() const { return m_hasModel; }
  QString source() const { return m_source; }
  QString modelDirectory() const;
  /// The plots of each model file are remembered (QSettings) in a session that restores its state.
  void rememberPlotsPerFile() { m_remembersPlots = true; }

  /// The folder of the bundled example models (installed, else the source tree's).
  static QString examplesFolder();
  /// Help > Examples: one entry per example model, its description as the tooltip.
  void fillExamplesMenu(QMenu* menu);
  /// New, open, recent, save, save as, revert, importFe, the exports; in that order.
  void fillFileMenu(QMenu* menu, QAction* importFe);
  QAction* exportAnimationAction() const { return m_exportAnimationAction; }
  /// Which file actions apply now.
  void updateActions(bool running);

 signals:
  /// The document holds another model (opened, new, recovered, a reduced body): the window shows it.
  void modelShown();
  /// Another file (saved as, a reduced body written): the title follows.
  void sourceChanged();
  /// A reduced body was opened or reduced: its modes are browsed.
  void reducedBodyShown();
  /// An FE file could not be reduced, or its reduction was cancelled.
  void openFailed();
  void status(const QString& text);

 private:
  void createActions();
  void updateRecentFiles(const QString& opened);
  void rememberPlots();
  void restorePlots();
  bool openReducedBody(const QString& path);
  void showReducedBody(std::shared_ptr<fe::ReducedBody> body, const QString& path);
  void onFeReduced(const FeReductionJob& job);
  void newModel();
  bool saveToCurrentFile();
  bool saveAs();
  void revert();

  ModelDocument& m_document;
  const RunSession& m_run;
  MessagesPanel& m_messages;
  PlaybackBar& m_playback;
  VtkViewport& m_viewport;
  PlotPanel& m_plots;
  QWidget* m_window;
  Recovery* m_recovery = nullptr;
  QString m_source;
  bool m_hasModel = false;
  bool m_remembersPlots = false;
  FeReductionJob* m_feJob = nullptr;  ///< an FE file being reduced (File > Open)
  QAction* m_newAction = nullptr;
  QAction* m_openAction = nullptr;
  QAction* m_saveAction = nullptr;
  QAction* m_saveAsAction = nullptr;
  QAction* m_revertAction = nullptr;
  QAction* m_exportAction = nullptr;
  QAction* m_exportImageAction = nullptr;
  QAction* m_exportAnimationAction = nullptr;
  QMenu* m_recentMenu = nullptr;
};

}  // namespace flexim::ui
