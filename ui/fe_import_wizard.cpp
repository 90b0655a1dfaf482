#include "ui/fe_import_wizard.h"

#include "ui/fe_reduction_job.h"
#include "ui/mode_browser.h"
#include "ui/model_document.h"
#include "ui/vtk_viewport.h"

#include "core/fe/surface_regions.h"
#include "core/fe/validation_report.h"
#include "io/fe/import.h"
#include "io/fe/reduced_body_file.h"
#include "render/fe_preview.h"
#include "render/model_scene.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

namespace flexim::ui {

/// A wizard page whose completeness, validation and next page are the wizard's functions.
class FeImportPage : public QWizardPage {
 public:
  std::function<bool()> complete, validate;
  std::function<void()> initialize;
  std::function<int()> next;
  using QWizardPage::QWizardPage;
  bool isComplete() const override { return complete ? complete() : true; }
  bool validatePage() override { return validate ? validate() : true; }
  void initializePage() override {
    if (initialize) initialize();
  }
  int nextId() const override { return next ? next() : QWizardPage::nextId(); }
  void changed() { emit completeChanged(); }
};

namespace {

QString html(const std::string& text) { return QString::fromStdString(text).toHtmlEscaped(); }

/// The report as rich text: facts, then the warnings in orange.
QString reportHtml(const fe::ValidationReport& report, const Diagnostics* diag = nullptr) {
  QString out;
  for (const std::string& w : report.warnings) out += "<p style='color:#d9822b'>⚠ " + html(w) + "</p>";
  if (diag)
    for (const Diagnostic& d : diag->items())
      if (d.severity != Severity::Info)
        out += QString("<p style='color:%1'>%2</p>")
                   .arg(d.severity == Severity::Error ? "#e5534b" : "#d9822b", html(d.str()));
  out += "<pre style='white-space: pre-wrap'>";
  for (const std::string& line : report.lines) out += html(line) + "\n";
  return out + "</pre>";
}

QString nodeCount(std::size_t n) { return n == 1 ? QObject::tr("1 node") : QObject::tr("%1 nodes").arg(n); }

/// A material field's number; the range is fe::materialProblem's to judge.
bool parseNumber(const QLineEdit* edit, double& value) {
  bool ok = false;
  value = QLocale::c().toDouble(edit->text().trimmed(), &ok);
  return ok;
}

VtkViewport* previewView(render::FePreview& preview, QWidget* parent) {
  auto* view = new VtkViewport(parent);
  view->setMinimumSize(420, 320);
  view->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  view->setRenderer(preview.renderer());
  view->setCameraReset([&preview] { preview.resetCamera(); });
  return view;
}

}  // namespace

FeImportWizard::FeImportWizard(QString modelFolder, QWidget* parent)
    : QWizard(parent), m_modelFolder(std::move(modelFolder)) {
  setObjectName("feImportWizard");
  setWindowTitle(tr("Import FE body"));
  setWizardStyle(QWizard::ClassicStyle);
  setOption(QWizard::NoBackButtonOnStartPage);
  m_meshPreview = std::make_unique<render::FePreview>();
  m_reductionPreview = std::make_unique<render::FePreview>();
  setPage(FilePage, makeFilePage());
  setPage(MeshPage, makeMeshPage());
  setPage(ReductionPage, makeReductionPage());
  setPage(ReducePage, makeReducePage());
  resize(1000, 680);
}

FeImportWizard::~FeImportWizard() {
  if (m_job) m_job->cancel();
  if (m_modeBrowser) m_modeBrowser->stop();  // while the scene it draws in lives
}

QString FeImportWizard::firstInterface() const {
  return m_body && !m_body->interfaces.empty() ? QString::fromStdString(m_body->interfaces.front().name) : QString();
}

bool FeImportWizard::hasRigidModes() const {
  return m_body && std::count(m_body->kinds.begin(), m_body->kinds.end(), fe::ModeKind::Rigid) >= 6;
}

bool FeImportWizard::isReducing() const { return m_job && m_job->isRunning(); }

// ---- 1. the file -----------------------------------------------------------------------------

QWizardPage* FeImportWizard::makeFilePage() {
  auto* page = new FeImportPage(this);
  page->setTitle(tr("FE file"));
  page->setSubTitle(tr("A mesh or deck, exported matrices, or a reduced body (.frb)."));
  m_file = new QLineEdit(page);
  m_file->setObjectName("feFile");
  auto* browse = new QPushButton(tr("Browse…"), page);
  browse->setObjectName("feBrowse");
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString filter = tr("FE files (%1 *.frb);;All files (*)").arg(QString::fromStdString(io::feFileFilter()));
    const QString file = QFileDialog::getOpenFileName(this, tr("Import FE body"), m_modelFolder, filter);
    if (!file.isEmpty()) m_file->setText(file);
  });
  m_fileError = new QLabel(page);
  m_fileError->setObjectName("feFileError");
  m_fileError->setWordWrap(true);
  m_fileError->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_fileError->setStyleSheet("color: #e5534b");
  auto* formats = new QLabel(tr("Formats: %1, and .frb").arg(QString::fromStdString(io::feFileFilter())), page);
  formats->setWordWrap(true);
  auto* row = new QHBoxLayout;
  row->addWidget(m_file, 1);
  row->addWidget(browse);
  auto* layout = new QVBoxLayout(page);
  layout->addLayout(row);
  layout->addWidget(formats);
  layout->addWidget(m_fileError);
  layout->addStretch(1);
  page->complete = [this] { return !m_file->text().trimmed().isEmpty(); };
  page->next = [this] { return m_file->text().trimmed().endsWith(".frb", Qt::CaseInsensitive) ? -1 : int(MeshPage); };
  page->validate = [this] { return importFile(); };
  connect(m_file, &QLineEdit::textChanged, page, [this, page] {
    m_fileError->clear();
    page->changed();
  });
  return page;
}

bool FeImportWizard::importFile() {
  const QString path = QFileInfo(m_file->text().trimmed()).absoluteFilePath();
  m_fileError->clear();
  m_body.reset();
  m_frbPath.clear();
  QApplication::setOverrideCursor(Qt::WaitCursor);
  Diagnostics diag;
  fe::FeModel mesh;
  bool ok = false;
  if (path.endsWith(".frb", Qt::CaseInsensitive)) {
    auto body = std::make_shared<fe::ReducedBody>();
    std::string why;
    ok = io::loadReducedBody(path.toStdString(), *body, &why);
    if (ok) {
      m_body = std::move(body);
      m_frbPath = path;
    } else {
      diag.error(path.toStdString(), why);
    }
  } else {
    ok = io::importFe(path.toStdString(), mesh, diag) && !mesh.coords.empty();
    if (ok && mesh.elements.empty() && mesh.K.rows() == 0) {
      diag.error(path.toStdString(), "the file holds no elements and no matrices: nothing to reduce");
      ok = false;
    }
  }
  QApplication::restoreOverrideCursor();
  if (!ok) {
    QStringList lines;
    for (const Diagnostic& d : diag.items())
      if (d.severity == Severity::Error) lines << QString::fromStdString(d.str());
    if (lines.isEmpty()) lines << tr("%1 could not be read").arg(path);
    m_fileError->setText(lines.join('\n'));
    return false;
  }
  m_path = path;
  m_importDiag = diag;
  if (!m_body) {  // a mesh or deck (a .frb opened has nothing to reduce)
    m_mesh = std::move(mesh);
    m_picked = 0;
    showMesh();
  }
  return true;
}

// ---- 2. the mesh -----------------------------------------------------------------------------

QWizardPage* FeImportWizard::makeMeshPage() {
  auto* page = new FeImportPage(this);
  page->setTitle(tr("Check the mesh"));
  page->setSubTitle(tr("Select a node set to see its nodes. The warnings say what may make the body wrong."));
  m_meshView = previewView(*m_meshPreview, page);
  m_meshView->setObjectName("meshPreview");
  m_report = new QTextBrowser(page);
  m_report->setObjectName("meshReport");
  m_sets = new QListWidget(page);
  m_sets->setObjectName("nodeSets");
  connect(m_sets, &QListWidget::currentRowChanged, this, [this](int) {
    const QListWidgetItem* item = m_sets->currentItem();
    std::vector<int> nodes;
    if (item) {
      const std::string name = item->data(Qt::UserRole).toString().toStdString();
      if (auto it = m_mesh.node_sets.find(name); it != m_mesh.node_sets.end()) nodes = it->second;
      for (const fe::Coupling& c : m_mesh.couplings)
        if (c.name == name) nodes = c.nodes;
    }
    m_meshPreview->highlightNodes(nodes);
    m_meshView->update();
  });

  auto* materialBox = new QGroupBox(tr("Material"), page);
  m_materialOverride = new QCheckBox(tr("Use this material for every element"), materialBox);
  m_materialOverride->setObjectName("materialOverride");
  const auto field = [&](const char* name) {
    auto* edit = new QLineEdit(materialBox);
    edit->setObjectName(name);
    return edit;
  };
  m_young = field("materialE");
  m_poisson = field("materialNu");
  m_density = field("materialRho");
  m_materialNote = new QLabel(materialBox);
  m_materialNote->setObjectName("materialNote");
  m_materialNote->setWordWrap(true);
  auto* materialError = new QLabel(materialBox);
  materialError->setObjectName("materialError");
  materialError->setWordWrap(true);
  materialError->setStyleSheet("color: #e5534b");
  auto* form = new QFormLayout(materialBox);
  form->addRow(m_materialOverride);
  form->addRow(tr("Young's modulus E [Pa]"), m_young);
  form->addRow(tr("Poisson's ratio ν"), m_poisson);
  form->addRow(tr("Density ρ [kg/m³]"), m_density);
  form->addRow(m_materialNote);
  form->addRow(materialError);

  auto* right = new QWidget(page);
  auto* rightLayout = new QVBoxLayout(right);
  rightLayout->setContentsMargins(0, 0, 0, 0);
  rightLayout->addWidget(new QLabel(tr("Validation report"), right));
  rightLayout->addWidget(m_report, 2);
  rightLayout->addWidget(new QLabel(tr("Node sets and couplings"), right));
  rightLayout->addWidget(m_sets, 1);
  rightLayout->addWidget(materialBox);
  auto* splitter = new QSplitter(page);
  splitter->addWidget(m_meshView);
  splitter->addWidget(right);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);
  auto* layout = new QVBoxLayout(page);
  layout->addWidget(splitter);

  page->complete = [this, materialError] {
    // asked whenever a field changes: the place to say what keeps Next disabled
    QString why;
    const bool usable = material(why).has_value() || why.isEmpty();
    materialError->setText(why);
    return usable;
  };
  for (QLineEdit* edit : {m_young, m_poisson, m_density}) {
    connect(edit, &QLineEdit::textChanged, page, &FeImportPage::changed);
    connect(edit, &QLineEdit::textChanged, this, &FeImportWizard::showReport);
  }
  connect(m_materialOverride, &QCheckBox::toggled, page, [this, page](bool on) {
    // what the file lacks must be given; the rest only when overriding
    m_young->setEnabled(on);
    m_poisson->setEnabled(on);
    m_density->setEnabled(on || !m_missing.no_density.empty());
    page->changed();
    showReport();
  });
  return page;
}

std::optional<fe::Material> FeImportWizard::material(QString& why) const {
  // nullopt with an empty reason: the file's materials are used as they are
  why.clear();
  const bool densityOnly = !m_materialOverride->isChecked() && !m_missing.no_density.empty();
  if (!m_materialOverride->isChecked() && !densityOnly) {
    if (m_missing.unassigned || !m_missing.no_elastic.empty())
      why = tr("the file gives no elastic constants: tick the box and give E, ν and ρ");
    return std::nullopt;
  }
  fe::Material m;
  m.name = "import wizard";
  if (!parseNumber(m_density, m.rho)) why = tr("the density ρ is not a number");
  else if (densityOnly) why = QString::fromStdString(fe::densityProblem(m.rho));
  else if (!parseNumber(m_young, m.E)) why = tr("Young's modulus E is not a number");
  else if (!parseNumber(m_poisson, m.nu)) why = tr("Poisson's ratio ν is not a number");
  else why = QString::fromStdString(fe::materialProblem(m.E, m.nu, m.rho));
  if (!why.isEmpty()) return std::nullopt;
  // with only the density missing, the file's E and ν stay (ReductionOptions::density)
  m.has_density = true;
  m.has_elastic = !densityOnly;
  return m;
}

void FeImportWizard::showReport() {
  // the materials as the modes will use them: the fields' once they make a material
  QString why;
  const std::optional<fe::Material> chosen = material(why);
  fe::GivenMaterial given;
  if (chosen && chosen->has_elastic) given.material = &*chosen;
  else if (chosen) given.density = chosen->rho;
  fe::ValidationReport report;
  fe::reportMesh(m_mesh, report, given);
  for (const std::string& change : m_mesh.model_changes) report.warn("the reduced model differs from the deck: " + change);
  const int scroll = m_report->verticalScrollBar()->value();
  m_report->setHtml(reportHtml(report, &m_importDiag));
  m_report->verticalScrollBar()->setValue(scroll);
}

void FeImportWizard::showMesh() {
  m_sets->clear();
  for (const auto& [name, nodes] : m_mesh.node_sets) {
    auto* item = new QListWidgetItem(QString("%1 (%2)").arg(QString::fromStdString(name), nodeCount(nodes.size())), m_sets);
    item->setData(Qt::UserRole, QString::fromStdString(name));
  }
  for (const fe::Coupling& c : m_mesh.couplings) {
    auto* item = new QListWidgetItem(
        QString("%1 (%2, %3)").arg(QString::fromStdString(c.name), c.rigid ? tr("rigid") : tr("averaging"), nodeCount(c.nodes.size())),
        m_sets);
    item->setData(Qt::UserRole, QString::fromStdString(c.name));
  }
  // the material: what the file lacks is asked for, prefilled with what it has
  m_missing = m_mesh.elements.empty() ? fe::MissingMaterialData{} : fe::missingMaterialData(m_mesh);
  for (const fe::Material& m : m_mesh.materials) {
    if (m.has_elastic) m_young->setText(QString::number(m.E, 'g', 10)), m_poisson->setText(QString::number(m.nu, 'g', 10));
    if (m.has_density) m_density->setText(QString::number(m.rho, 'g', 10));
    if (m.has_elastic) break;
  }
  const bool needAll = m_missing.unassigned || !m_missing.no_elastic.empty();
  m_materialOverride->setChecked(needAll);
  m_materialOverride->setEnabled(!m_mesh.elements.empty());
  m_young->setEnabled(needAll);
  m_poisson->setEnabled(needAll);
  m_density->setEnabled(needAll || !m_missing.no_density.empty());
  m_materialNote->setText(needAll ? tr("The file gives no elastic material: give E, ν and ρ.")
                          : !m_missing.no_density.empty()
                              ? tr("The file gives no density: give ρ (E and ν stay the file's).")
                              : tr("The file's materials are used unless the box is ticked."));
  showReport();
  m_meshPreview->setMesh(m_mesh);
  m_reductionPreview->setMesh(m_mesh);
  fillInterfaces();
}

// ---- 3. the reduction ------------------------------------------------------------------------

QWizardPage* FeImportWizard::makeReductionPage() {
  auto* page = new FeImportPage(this);
  page->setTitle(tr("Reduction"));
  page->setSubTitle(tr("Free–free normal modes, or Craig–Bampton modes with the interfaces held. An interface can "
                       "be a node set, a coupling of the deck, or a bore or face picked on the mesh."));
  m_reductionView = previewView(*m_reductionPreview, page);
  m_reductionView->setObjectName("reductionPreview");
  connect(m_reductionView, &VtkViewport::clicked, this, &FeImportWizard::onPreviewClicked);

  m_method = new QComboBox(page);
  m_method->setObjectName("reductionMethod");
  m_method->addItem(tr("Free–free normal modes"));
  m_method->addItem(tr("Craig–Bampton (fixed-interface modes)"));
  m_modeCount = new QSpinBox(page);
  m_modeCount->setObjectName("modeCount");
  m_modeCount->setRange(1, 500);
  m_modeCount->setValue(8);
  m_useCutoff = new QCheckBox(tr("Instead, every mode below"), page);
  m_useCutoff->setObjectName("useCutoff");
  m_cutoff = new QDoubleSpinBox(page);
  m_cutoff->setObjectName("cutoffHz");
  m_cutoff->setRange(0.001, 1e7);
  m_cutoff->setDecimals(1);
  m_cutoff->setValue(1000);
  m_cutoff->setSuffix(tr(" Hz"));
  m_cutoff->setEnabled(false);
  connect(m_useCutoff, &QCheckBox::toggled, m_cutoff, &QWidget::setEnabled);
  connect(m_useCutoff, &QCheckBox::toggled, m_modeCount, [this](bool on) { m_modeCount->setEnabled(!on); });
  auto* cutoffRow = new QHBoxLayout;
  cutoffRow->addWidget(m_useCutoff);
  cutoffRow->addWidget(m_cutoff, 1);

  m_interfaces = new QTableWidget(0, 4, page);
  m_interfaces->setObjectName("interfaces");
  m_interfaces->setHorizontalHeaderLabels({tr("Interface"), tr("Nodes"), tr("Kind"), tr("Reference point")});
  m_interfaces->horizontalHeaderItem(3)->setToolTip(
      tr("Where joints attach and whose 6 motions are the constraint modes: default (a coupling's reference node, "
         "else the centroid; Craig–Bampton averaging: the area-weighted centroid), centroid, area-centroid, "
         "node ID, or a point x, y, z [m]"));
  m_interfaces->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  m_interfaces->verticalHeader()->hide();
  m_pickBore = new QPushButton(tr("Pick a bore"), page);
  m_pickBore->setObjectName("pickBore");
  m_pickFace = new QPushButton(tr("Pick a face"), page);
  m_pickFace->setObjectName("pickFace");
  for (QPushButton* button : {m_pickBore, m_pickFace}) button->setCheckable(true);
  connect(m_pickBore, &QPushButton::toggled, this, [this](bool on) {
    if (on) m_pickFace->setChecked(false);
    m_picking = on ? Pick::Bore : m_pickFace->isChecked() ? Pick::Face : Pick::None;
    if (on) m_pickMessage->setText(tr("Click inside a bore or on a cylinder of the mesh."));
  });
  connect(m_pickFace, &QPushButton::toggled, this, [this](bool on) {
    if (on) m_pickBore->setChecked(false);
    m_picking = on ? Pick::Face : m_pickBore->isChecked() ? Pick::Bore : Pick::None;
    if (on) m_pickMessage->setText(tr("Click on a flat face of the mesh."));
  });
  m_pickMessage = new QLabel(page);
  m_pickMessage->setObjectName("pickMessage");
  m_pickMessage->setWordWrap(true);
  m_reductionError = new QLabel(page);
  m_reductionError->setObjectName("reductionError");
  m_reductionError->setWordWrap(true);
  m_reductionError->setStyleSheet("color: #e5534b");
  auto* pickRow = new QHBoxLayout;
  pickRow->addWidget(m_pickBore);
  pickRow->addWidget(m_pickFace);
  pickRow->addStretch(1);

  auto* right = new QWidget(page);
  auto* form = new QFormLayout(right);
  form->setContentsMargins(0, 0, 0, 0);
  form->addRow(tr("Method"), m_method);
  form->addRow(tr("Modes"), m_modeCount);
  form->addRow(cutoffRow);
  form->addRow(new QLabel(tr("Interfaces (ticked ones are used)"), right));
  form->addRow(m_interfaces);
  form->addRow(pickRow);
  m_lumpedInvariants = new QCheckBox(tr("Inertia from the lumped nodal masses (instead of the consistent mass)"), right);
  m_lumpedInvariants->setObjectName("lumpedInvariants");
  m_lumpedInvariants->setToolTip(tr("The consistent mass gives the FE model's mass properties and free-flight "
                                     "frequencies exactly; the lumped (HRZ) masses are the paper's sums over nodes. "
                                     "The report says what the other choice would change."));
  form->addRow(m_lumpedInvariants);
  m_stiffening = new QCheckBox(tr("Geometric stiffening load cases (centrifugal, gravity and interface loads)"), right);
  m_stiffening->setObjectName("stiffening");
  m_stiffening->setChecked(true);
  m_stiffening->setToolTip(tr("Static solves of unit inertia and interface loads whose stresses stiffen the body "
                               "at run time (a spinning blade, a swinging soft bar). Costs one more factorisation "
                               "of the stiffness; the body's \"geometric_stiffening\" field switches it at run time."));
  form->addRow(m_stiffening);
  form->addRow(m_pickMessage);
  form->addRow(m_reductionError);
  auto* splitter = new QSplitter(page);
  splitter->addWidget(m_reductionView);
  splitter->addWidget(right);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);
  auto* layout = new QVBoxLayout(page);
  layout->addWidget(splitter);

  const auto refresh = [this, page] {
    fe::ReductionOptions options;
    QString why;
    m_reductionError->setText(reductionOptions(options, why) ? QString() : why);
    m_modeCount->setToolTip(m_method->currentIndex() == 0 ? tr("elastic modes (the 6 rigid-body modes come on top)")
                                                          : tr("fixed-interface modes"));
    page->changed();
  };
  connect(m_method, &QComboBox::currentIndexChanged, page, refresh);
  connect(m_interfaces, &QTableWidget::itemChanged, page, refresh);
  page->initialize = refresh;
  page->complete = [this] {
    fe::ReductionOptions options;
    QString why;
    return reductionOptions(options, why);
  };
  page->validate = [this] {
    m_pickBore->setChecked(false);
    m_pickFace->setChecked(false);
    return true;
  };
  return page;
}

void FeImportWizard::fillInterfaces() {
  m_interfaces->setRowCount(0);
  for (const auto& [name, nodes] : m_mesh.node_sets) addInterfaceRow(name, nodes.size(), true, false);
  for (const fe::Coupling& c : m_mesh.couplings) addInterfaceRow(c.name, c.nodes.size(), c.rigid, false);
}

void FeImportWizard::addInterfaceRow(const std::string& name, std::size_t nodes, bool rigid, bool use) {
  QSignalBlocker block(m_interfaces);
  const int row = m_interfaces->rowCount();
  m_interfaces->insertRow(row);
  auto* item = new QTableWidgetItem(QString::fromStdString(name));
  item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
  item->setCheckState(use ? Qt::Checked : Qt::Unchecked);
  m_interfaces->setItem(row, 0, item);
  auto* count = new QTableWidgetItem(QString::number(nodes));
  count->setFlags(Qt::ItemIsEnabled);
  m_interfaces->setItem(row, 1, count);
  auto* kind = new QComboBox(m_interfaces);
  kind->addItems({tr("rigid"), tr("averaging")});
  kind->setCurrentIndex(rigid ? 0 : 1);
  m_interfaces->setCellWidget(row, 2, kind);
  auto* reference = new QComboBox(m_interfaces);
  reference->setEditable(true);
  reference->addItems({"default", "centroid", "area-centroid"});
  reference->lineEdit()->setPlaceholderText(tr("node ID or x, y, z [m]"));
  m_interfaces->setCellWidget(row, 3, reference);
  // a changed reference point is checked at once, like a ticked row
  connect(reference, &QComboBox::currentTextChanged, m_interfaces, [this, item] { emit m_interfaces->itemChanged(item); });
}

bool FeImportWizard::reductionOptions(fe::ReductionOptions& options, QString& why) const {
  options = {};
  options.method = m_method->currentIndex() == 1 ? fe::ReductionOptions::Method::CraigBampton
                                                 : fe::ReductionOptions::Method::FreeFree;
  options.modes = m_modeCount->value();
  options.max_frequency_hz = m_useCutoff->isChecked() ? m_cutoff->value() : 0.0;
  for (int row = 0; row < m_interfaces->rowCount(); ++row) {
    if (m_interfaces->item(row, 0)->checkState() != Qt::Checked) continue;
    fe::InterfaceSpec spec;
    spec.set = m_interfaces->item(row, 0)->text().toStdString();
    const auto* kind = static_cast<QComboBox*>(m_interfaces->cellWidget(row, 2));
    spec.kind = kind->currentIndex() == 0 ? fe::Interface::Kind::Rigid : fe::Interface::Kind::Averaging;
    const auto* reference = static_cast<QComboBox*>(m_interfaces->cellWidget(row, 3));
    std::string error;
    if (!fe::parseInterfaceReference(reference->currentText().toStdString(), spec, error)) {
      why = tr("Reference point of %1: %2").arg(QString::fromStdString(spec.set), QString::fromStdString(error));
      return false;
    }
    options.interfaces.push_back(spec);
  }
  if (m_lumpedInvariants->isChecked()) options.invariant_mass = fe::ReductionOptions::InvariantMass::Lumped;
  options.geometric_stiffening = m_stiffening->isChecked();
  if (options.method == fe::ReductionOptions::Method::CraigBampton && options.interfaces.empty()) {
    why = tr("Craig–Bampton needs at least one interface: tick a node set, or pick a bore or a face");
    return false;
  }
  return true;
}

void FeImportWizard::onPreviewClicked(double x, double y) {
  if (m_picking == Pick::None) return;
  const int facet = m_reductionPreview->pickFacet(x, y);
  if (facet < 0) {
    m_pickMessage->setText(tr("Nothing of the mesh under the mouse: click on its surface."));
    return;
  }
  const fe::TriangleSurface surface = m_reductionPreview->surface();
  const bool bore = m_picking == Pick::Bore;
  const fe::SurfaceFeature feature = bore ? fe::fitBore(surface, facet) : fe::fitFace(surface, facet);
  m_reductionPreview->highlightFacets(feature.region.facets);
  m_reductionView->update();
  if (!feature.ok()) {
    m_pickMessage->setText(tr("No interface made: %1").arg(QString::fromStdString(feature.message)));
    return;
  }
  // the region's nodes become a node set of the mesh, ticked as an interface
  std::string name;
  do name = (bore ? "BORE_" : "FACE_") + std::to_string(++m_picked);
  while (m_mesh.node_sets.count(name));
  m_mesh.node_sets[name] = feature.region.nodes;
  addInterfaceRow(name, feature.region.nodes.size(), true, true);
  m_pickMessage->setText(tr("%1: %2").arg(QString::fromStdString(name), QString::fromStdString(feature.message)));
  m_pickBore->setChecked(false);
  m_pickFace->setChecked(false);
  emit m_interfaces->itemChanged(m_interfaces->item(m_interfaces->rowCount() - 1, 0));
}

// ---- 4. reducing -----------------------------------------------------------------------------

QWizardPage* FeImportWizard::makeReducePage() {
  auto* page = new FeImportPage(this);
  page->setTitle(tr("Reducing"));
  page->setSubTitle(tr("The reduced body is written where you say when you press Finish; then you place it in the model."));
  page->setFinalPage(true);
  m_stage = new QLabel(page);
  m_stage->setObjectName("reduceStage");
  m_stage->setWordWrap(true);
  m_progress = new QProgressBar(page);
  m_progress->setObjectName("reduceProgress");
  m_cancel = new QPushButton(tr("Cancel the reduction"), page);
  m_cancel->setObjectName("reduceCancel");
  connect(m_cancel, &QPushButton::clicked, this, [this] {
    if (isReducing()) {
      m_job->cancel();
      m_stage->setText(tr("Cancelling after the current stage…"));
    } else {
      startReduction();
    }
  });
  // the modes animated on the reduced body, as the Modes panel shows them once it is placed
  m_modeDocument = new ModelDocument(this);
  render::SceneOptions options;
  options.showFloor = false;
  m_modeScene = std::make_unique<render::ModelScene>(options);
  m_modeView = new VtkViewport(page);
  m_modeView->setObjectName("modeView");
  m_modeView->setMinimumSize(360, 280);
  m_modeView->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  m_modeView->setRenderer(m_modeScene->renderer());
  m_modeView->setOverlay(m_modeScene->axesRenderer());
  m_modeView->setCameraReset([this] { m_modeScene->resetCamera(); });
  m_modeBrowser = new ModeBrowser(m_modeDocument, m_modeScene.get(), page);
  m_modeBrowser->setObjectName("wizardModes");
  connect(m_modeBrowser, &ModeBrowser::viewChanged, m_modeView, qOverload<>(&QWidget::update));
  m_reduceReport = new QTextBrowser(page);
  m_reduceReport->setObjectName("reduceReport");
  m_frb = new QLineEdit(page);
  m_frb->setObjectName("frbPath");
  auto* browse = new QPushButton(tr("Browse…"), page);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString file = QFileDialog::getSaveFileName(this, tr("Reduced body file"), m_frb->text(), tr("Reduced bodies (*.frb)"));
    if (!file.isEmpty()) m_frb->setText(file);
  });
  auto* stageRow = new QHBoxLayout;
  stageRow->addWidget(m_progress, 1);
  stageRow->addWidget(m_cancel);
  auto* frbRow = new QHBoxLayout;
  frbRow->addWidget(new QLabel(tr("Write to"), page));
  frbRow->addWidget(m_frb, 1);
  frbRow->addWidget(browse);
  // the view beside the modes; the messages of the import and the reduction in a tab behind it
  auto* shown = new QTabWidget(page);
  shown->setObjectName("reduceTabs");
  shown->addTab(m_modeView, tr("Mode shape"));
  shown->addTab(m_reduceReport, tr("Report and messages"));
  auto* tables = new QHBoxLayout;
  tables->addWidget(m_modeBrowser, 2);
  tables->addWidget(shown, 3);
  auto* layout = new QVBoxLayout(page);
  layout->addWidget(m_stage);
  layout->addLayout(stageRow);
  layout->addLayout(tables, 1);
  layout->addLayout(frbRow);
  page->initialize = [this] {
    m_frb->setText(defaultFrbPath());
    startReduction();
  };
  page->complete = [this] { return m_body && !isReducing() && !m_frb->text().trimmed().isEmpty(); };
  page->validate = [this] { return writeFrb(); };
  connect(m_frb, &QLineEdit::textChanged, page, &FeImportPage::changed);
  connect(this, &FeImportWizard::reductionFinished, page, &FeImportPage::changed);
  return page;
}

QString FeImportWizard::defaultFrbPath() const {
  const QFileInfo deck(m_path);
  const QDir folder(m_modelFolder.isEmpty() ? deck.absolutePath() : m_modelFolder);
  // never over an existing file (it may hold another reduction of the same deck)
  QString frb = folder.filePath(deck.completeBaseName() + ".frb");
  for (int n = 2; QFileInfo::exists(frb); ++n) frb = folder.filePath(QString("%1_%2.frb").arg(deck.completeBaseName()).arg(n));
  return frb;
}

void FeImportWizard::startReduction() {
  if (isReducing()) return;
  fe::ReductionOptions options;
  QString why;
  const std::optional<fe::Material> chosen = material(why);
  if (!reductionOptions(options, why) || !why.isEmpty()) {
    m_stage->setText(why);
    return;
  }
  std::optional<fe::Material> override;
  if (chosen && chosen->has_elastic) override = chosen;
  else if (chosen) options.density = chosen->rho;
  m_body.reset();
  m_modeBrowser->stop();
  m_modeDocument->reset({}, {});
  m_modeScene->clear();
  m_reduceReport->clear();
  if (m_job) m_job->deleteLater();
  m_job = new FeReductionJob(m_path, m_mesh, options, override, this);
  connect(m_job, &FeReductionJob::stageChanged, m_stage, &QLabel::setText);
  connect(m_job, &FeReductionJob::finished, this, &FeImportWizard::onReduced);
  m_progress->setRange(0, 0);  // busy: the eigen solver does not say how far it is
  m_cancel->setText(tr("Cancel the reduction"));
  m_job->start();
  emit reductionFinished(false);  // the page is not complete while it runs
}

void FeImportWizard::onReduced() {
  m_progress->setRange(0, 1);
  m_progress->setValue(1);
  m_cancel->setText(tr("Reduce again"));
  m_diag = m_importDiag;
  m_diag.append(m_job->diagnostics());
  m_body = m_job->body();
  if (m_job->cancelled()) {
    m_stage->setText(tr("Cancelled: nothing was reduced. Go back to change the options, or reduce again."));
    m_progress->setValue(0);
  } else if (!m_body) {
    m_stage->setText(tr("The reduction failed:"));
    fe::ValidationReport none;
    m_reduceReport->setHtml(reportHtml(none, &m_diag));
  } else {
    m_stage->setText(m_job->summary());
    // the body alone in the wizard's view, its first elastic mode moving (that of a free body)
    const ModelSpec alone = modelOfReducedBody(m_body, QFileInfo(m_path).completeBaseName().toStdString(), {});
    m_modeScene->build(alone);
    m_modeDocument->reset(alone, {});
    m_modeBrowser->showFirstElasticMode();
    m_modeView->resetView();
    fe::ValidationReport report;
    fe::reportReducedBody(*m_body, report);
    m_reduceReport->setHtml(reportHtml(report, &m_diag));
  }
  emit reductionFinished(m_body != nullptr);
}

bool FeImportWizard::writeFrb() {
  if (!m_body) return false;
  QString path = m_frb->text().trimmed();
  if (!path.endsWith(".frb", Qt::CaseInsensitive)) path += ".frb";
  path = QFileInfo(path).absoluteFilePath();
  if (QFileInfo::exists(path) &&
      QMessageBox::question(this, tr("Import FE body"), tr("%1 exists. Replace it?").arg(path)) != QMessageBox::Yes)
    return false;
  std::string error;
  if (!io::saveReducedBody(*m_body, path.toStdString(), &error)) {
    m_stage->setText(tr("Could not write %1: %2").arg(path, QString::fromStdString(error)));
    return false;
  }
  m_frbPath = path;
  return true;
}

}  // namespace flexim::ui
