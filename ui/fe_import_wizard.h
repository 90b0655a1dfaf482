// File → Import FE body…: an FE mesh or deck of any format io::importFe
// reads, or a reduced body (.frb), becomes a reduced body file beside the model in three pages:
//  1. the file: imported at once; a broken file stays on the page with the importer's file:line;
//  2. the mesh: a preview with its node sets, the validation report and its warnings, and the
//     material when the file has none (or to override it);
//  3. the reduction: free–free modes by count or cut-off frequency, or Craig–Bampton; interfaces
//     from the node sets and couplings, or picked on the mesh as a bore or a face (a node set
//     made from the picked surface region), rigid or averaging;
//  4. reducing, in a worker thread with its stage and Cancel; the mode table and the report; the
//     .frb path, written when Finish is pressed.
// The wizard changes no model: its caller places the body (ItemActions::importFeBody).
#pragma once

#include "core/base/diagnostics.h"
#include "core/fe/fe_model.h"
#include "core/fe/reduced_body.h"
#include "core/fe/reduction.h"

#include <QWizard>

#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTextBrowser;

namespace flexim::render {
class FePreview;
class ModelScene;
}

namespace flexim::ui {

class FeReductionJob;
class ModeBrowser;
class ModelDocument;
class VtkViewport;

class FeImportWizard : public QWizard {
  Q_OBJECT

 public:
  enum PageId { FilePage, MeshPage, ReductionPage, ReducePage };

  /// modelFolder: where the .frb goes by default (the model's folder; the deck's when empty).
  explicit FeImportWizard(QString modelFolder, QWidget* parent = nullptr);
  ~FeImportWizard() override;

  /// After Finish: the reduced body, the .frb it was written to (absolute path) and what the
  /// importer and the reduction said.
  std::shared_ptr<fe::ReducedBody> body() const { return m_body; }
  const QString& frbPath() const { return m_frbPath; }
  const Diagnostics& diagnostics() const { return m_diag; }
  /// The first interface chosen (a Craig–Bampton body's frame rides on it), empty if none.
  QString firstInterface() const;
  /// Whether the body has its six rigid-body modes (mean or principal axes apply).
  bool hasRigidModes() const;

  // pages' steps, public for the tests' checks (the tests drive them through the widgets)
  const fe::FeModel& mesh() const { return m_mesh; }
  bool isReducing() const;
  /// Picking a bore or a face for an interface: the next click in the reduction page's preview.
  enum class Pick { None, Bore, Face };
  Pick picking() const { return m_picking; }

 signals:
  /// A reduction ended (successfully or not); the reduce page shows the outcome.
  void reductionFinished(bool ok);

 private:
  QWizardPage* makeFilePage();
  QWizardPage* makeMeshPage();
  QWizardPage* makeReductionPage();
  QWizardPage* makeReducePage();

  /// Imports the file named on the first page (or loads a .frb); false with the reason shown.
  bool importFile();
  void showMesh();
  /// The mesh report, with the materials as the fields make them.
  void showReport();
  void fillInterfaces();
  /// A row of the interface table: ticked when use, its kind rigid or averaging.
  void addInterfaceRow(const std::string& name, std::size_t nodes, bool rigid, bool use);
  /// The options of the reduction page; false with the reason when they are not usable.
  bool reductionOptions(fe::ReductionOptions& options, QString& why) const;
  std::optional<fe::Material> material(QString& why) const;
  void startReduction();
  void onReduced();
  void onPreviewClicked(double x, double y);
  bool writeFrb();
  QString defaultFrbPath() const;

  QString m_modelFolder;
  QString m_path;  ///< the file imported
  fe::FeModel m_mesh;
  Diagnostics m_importDiag;
  Diagnostics m_diag;
  std::shared_ptr<fe::ReducedBody> m_body;
  QString m_frbPath;
  FeReductionJob* m_job = nullptr;
  Pick m_picking = Pick::None;
  int m_picked = 0;  ///< regions picked so far (names BORE_1, FACE_2, …)

  // file page
  QLineEdit* m_file = nullptr;
  QLabel* m_fileError = nullptr;
  // mesh page
  std::unique_ptr<render::FePreview> m_meshPreview;
  VtkViewport* m_meshView = nullptr;
  QTextBrowser* m_report = nullptr;
  QListWidget* m_sets = nullptr;
  QCheckBox* m_materialOverride = nullptr;
  QLineEdit *m_young = nullptr, *m_poisson = nullptr, *m_density = nullptr;
  QLabel* m_materialNote = nullptr;
  fe::MissingMaterialData m_missing;
  // reduction page
  std::unique_ptr<render::FePreview> m_reductionPreview;
  VtkViewport* m_reductionView = nullptr;
  QComboBox* m_method = nullptr;
  QSpinBox* m_modeCount = nullptr;
  QCheckBox* m_useCutoff = nullptr;
  QDoubleSpinBox* m_cutoff = nullptr;
  QTableWidget* m_interfaces = nullptr;
  QCheckBox* m_lumpedInvariants = nullptr;
  QCheckBox* m_stiffening = nullptr;
  QLabel* m_pickMessage = nullptr;
  QPushButton *m_pickBore = nullptr, *m_pickFace = nullptr;
  QLabel* m_reductionError = nullptr;
  // reduce page
  QLabel* m_stage = nullptr;
  QProgressBar* m_progress = nullptr;
  QPushButton* m_cancel = nullptr;
  // the reduced body's modes, animated in a view of its own (a model of the body alone)
  ModelDocument* m_modeDocument = nullptr;
  std::unique_ptr<render::ModelScene> m_modeScene;
  VtkViewport* m_modeView = nullptr;
  ModeBrowser* m_modeBrowser = nullptr;
  QTextBrowser* m_reduceReport = nullptr;
  QLineEdit* m_frb = nullptr;
};

}  // namespace flexim::ui
