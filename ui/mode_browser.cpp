#include "ui/mode_browser.h"

#include "core/fe/reduced_body.h"
#include "core/fe/modal.h"
#include "core/fe/validation_report.h"
#include "io/fe/reference_modes.h"
#include "render/flexible_surface.h"

#include <QCheckBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QSlider>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace flexim::ui {

namespace {

constexpr int kFramesPerSecond = 30;

/// The flexible body an item is, or the one it names (a virtual body's); -1 for others.
int flexibleBodyOf(const ModelDocument& doc, ItemId id) {
  const ItemDescription* d = doc.description(id);
  if (!d) return -1;
  std::string name;
  if (d->kind == "flexible_body") {
    name = doc.itemName(id);
  } else {
    const FieldValue on = doc.value(id, "flexible_body");
    if (const auto* s = std::get_if<std::string>(&on)) name = *s;
  }
  const auto& bodies = doc.model().flexible_bodies;
  for (std::size_t f = 0; f < bodies.size(); ++f)
    if (!name.empty() && bodies[f].name == name) return int(f);
  return -1;
}

}  // namespace

ModelSpec modelOfReducedBody(std::shared_ptr<fe::ReducedBody> body, const std::string& name, const std::string& file) {
  ModelSpec model;
  model.name = name;
  FlexibleBodySpec flexible;
  flexible.name = body->name.empty() ? name : body->name;
  flexible.file = file;
  const bool rigidModes = std::count(body->kinds.begin(), body->kinds.end(), fe::ModeKind::Rigid) >= 6;
  if (!rigidModes && !body->interfaces.empty()) {
    flexible.reference = ReferenceFrame::Interface;
    flexible.reference_interface = body->interfaces.front().name;
  }
  flexible.data = std::move(body);
  model.flexible_bodies.push_back(std::move(flexible));
  return model;
}

ModeBrowser::ModeBrowser(ModelDocument* document, render::ModelScene* scene, QWidget* parent)
    : QWidget(parent), m_document(document), m_scene(scene) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  m_title = new QLabel(this);
  m_title->setWordWrap(true);
  layout->addWidget(m_title);

  m_table = new QTableWidget(0, 4, this);
  m_table->setObjectName("modeTable");
  setColumns(false);
  m_table->verticalHeader()->hide();
  m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::SingleSelection);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_table->horizontalHeader()->setStretchLastSection(true);
  // the table and the reduction's own facts (method, mass, interfaces, sources, warnings)
  auto* tabs = new QTabWidget(this);
  tabs->setObjectName("modeTabs");
  tabs->setDocumentMode(true);
  tabs->addTab(m_table, tr("Modes"));
  m_report = new QPlainTextEdit(this);
  m_report->setObjectName("reductionReport");
  m_report->setReadOnly(true);
  m_report->setLineWrapMode(QPlainTextEdit::WidgetWidth);
  m_report->setToolTip(tr("Validation report of the reduced body (flexim-cli info FILE.frb prints the same)"));
  tabs->addTab(m_report, tr("Report"));
  auto* mac = new QWidget(this);
  auto* macLayout = new QVBoxLayout(mac);
  macLayout->setContentsMargins(0, 4, 0, 0);
  m_macNote = new QLabel(mac);
  m_macNote->setObjectName("macNote");
  m_macNote->setWordWrap(true);
  m_mac = new QTableWidget(0, 0, mac);
  m_mac->setObjectName("macTable");
  m_mac->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_mac->horizontalHeader()->setDefaultSectionSize(m_mac->fontMetrics().horizontalAdvance("0.000") + 12);
  m_mac->verticalHeader()->setDefaultSectionSize(m_mac->fontMetrics().height() + 6);
  macLayout->addWidget(m_macNote);
  macLayout->addWidget(m_mac, 1);
  tabs->addTab(mac, tr("MAC"));
  layout->addWidget(tabs, 1);
  connect(m_table, &QTableWidget::itemSelectionChanged, this, [this] {
    const auto rows = m_table->selectionModel()->selectedRows();
    if (!rows.isEmpty()) showMode(rows.front().row());
  });

  auto* controls = new QFormLayout;
  m_animate = new QCheckBox(tr("Animate"), this);
  m_animate->setObjectName("animateMode");
  m_animate->setChecked(true);
  connect(m_animate, &QCheckBox::toggled, this, [this](bool on) {
    if (m_mode < 0) return;
    if (on) m_timer->start();
    else {
      m_timer->stop();
      draw(std::numbers::pi / 2);  // paused at the largest deflection
    }
  });
  controls->addRow(m_animate);
  m_amplitude = new QSlider(Qt::Horizontal, this);
  m_amplitude->setObjectName("modeAmplitude");
  m_amplitude->setRange(1, 300);  // per mille of the model's size
  m_amplitude->setValue(100);
  m_amplitudeLabel = new QLabel(this);
  connect(m_amplitude, &QSlider::valueChanged, this, [this] {
    m_amplitudeLabel->setText(tr("%1 % of the model size").arg(m_amplitude->value() / 10.0));
    if (m_mode >= 0 && !m_timer->isActive()) draw(std::numbers::pi / 2);
  });
  m_amplitudeLabel->setText(tr("%1 % of the model size").arg(m_amplitude->value() / 10.0));
  controls->addRow(tr("Amplitude"), m_amplitude);
  controls->addRow(QString(), m_amplitudeLabel);
  m_speed = new QSlider(Qt::Horizontal, this);
  m_speed->setObjectName("modeSpeed");
  m_speed->setRange(1, 30);  // tenths of a cycle per second
  m_speed->setValue(8);
  m_speed->setToolTip(tr("Animation speed (cycles per second on screen, not the mode's frequency)"));
  controls->addRow(tr("Speed"), m_speed);
  layout->addLayout(controls);

  m_timer = new QTimer(this);
  m_timer->setInterval(1000 / kFramesPerSecond);
  connect(m_timer, &QTimer::timeout, this, &ModeBrowser::advance);

  connect(m_document, &ModelDocument::selectionChanged, this, [this](ItemId id) {
    const int body = flexibleBodyOf(*m_document, id);
    if (body >= 0) showBody(body);
  });
  connect(m_document, &ModelDocument::modelReset, this, [this] {
    m_timer->stop();
    showBody(m_document->model().flexible_bodies.empty() ? -1 : 0);
  });
  showBody(-1);
}

void ModeBrowser::setColumns(bool system) {
  if (system) {
    m_table->setHorizontalHeaderLabels({tr("Mode"), tr("Frequency [Hz]"), tr("Damping ratio"), tr("ω [rad/s]")});
    m_table->horizontalHeaderItem(2)->setToolTip(tr("ζ = −Re λ / |λ| of the state matrix's eigenvalue λ"));
    m_table->horizontalHeaderItem(3)->setToolTip(tr("|λ|: the undamped natural angular frequency"));
    return;
  }
  m_table->setHorizontalHeaderLabels({tr("Mode"), tr("Frequency [Hz]"), tr("Kind"), tr("Eff. mass [%]")});
  m_table->horizontalHeaderItem(2)->setToolTip({});
  m_table->horizontalHeaderItem(3)->setToolTip(
      tr("x / y / z: share of the body's mass moving with a fixed-interface (Craig–Bampton) mode when the "
         "interfaces are shaken along the body's x, y, z axes (lumped masses). Free-free elastic modes carry no net momentum "
         "(share 0 by construction), so none is shown for them."));
}

void ModeBrowser::showSystemModes(std::shared_ptr<const Simulation> simulation,
                                  std::shared_ptr<const LinearizationResult> modes) {
  stop();
  m_body = -1;
  m_simulation = std::move(simulation);
  m_linear = std::move(modes);
  setColumns(true);
  m_mac->setRowCount(0);
  m_mac->setColumnCount(0);
  m_macNote->setText(tr("The MAC compares a flexible body's modes with its FE program's; select the body."));
  const LinearizationResult& r = *m_linear;
  m_title->setText(tr("<b>System modes</b> about the static equilibrium (%1 DOF)").arg(r.N.cols()));
  m_table->setRowCount(int(r.modes.size()));
  for (int i = 0; i < int(r.modes.size()); ++i) {
    const LinearMode& mode = r.modes[std::size_t(i)];
    const QString cells[4] = {QString::number(i + 1), QString::number(mode.frequency, 'g', 6),
                              mode.unstable() ? tr("unstable") : QString::number(mode.damping_ratio, 'g', 4),
                              QString::number(mode.omega, 'g', 6)};
    for (int c = 0; c < 4; ++c) {
      m_table->setItem(i, c, new QTableWidgetItem(cells[c]));
      if (c > 0) m_table->item(i, c)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
  }
  QStringList lines;
  lines << tr("Linearized about the static equilibrium (%1 load levels, %2 Newton iterations).")
               .arg(r.statics.steps)
               .arg(r.statics.newton_iterations)
        << tr("Degrees of freedom: %1 (the motions the joints allow)").arg(r.N.cols())
        << tr("Mass, tangent stiffness (with the geometric stiffness of the loads and reactions) and damping reduced to "
              "them; flexim-cli linearize writes the same frequencies and the matrices.");
  for (const std::string& note : r.statics.notes) lines << QString::fromStdString(note);
  m_report->setPlainText(lines.join('\n'));
  const Sample equilibrium = m_simulation->displacedSample(r.state);
  if (equilibrium.poses.size() == std::size_t(m_scene->bodyTable().size())) m_scene->includeInBounds(equilibrium.poses);
  if (!r.modes.empty()) showMode(0);
}

void ModeBrowser::showBody(int body) {
  stop();
  m_linear.reset();
  m_simulation.reset();
  setColumns(false);
  m_body = body;
  m_table->setRowCount(0);
  m_report->clear();
  m_mac->setRowCount(0);
  m_mac->setColumnCount(0);
  m_macNote->clear();
  const auto& bodies = m_document->model().flexible_bodies;
  if (body < 0 || std::size_t(body) >= bodies.size() || !bodies[std::size_t(body)].data) {
    m_title->setText(bodies.empty() ? tr("The model has no flexible body. Open a reduced body (.frb) to browse its modes.")
                                    : tr("Select a flexible body to browse its modes."));
    return;
  }
  const FlexibleBodySpec& spec = bodies[std::size_t(body)];
  const fe::ReducedBody& data = *spec.data;
  const int used = spec.mode_count > 0 ? std::min<int>(spec.mode_count, int(data.modes.cols())) : int(data.modes.cols());
  m_title->setText(tr("<b>%1</b>: %2 modes used of %3 (%4)")
                       .arg(QString::fromStdString(spec.name))
                       .arg(used)
                       .arg(data.modes.cols())
                       .arg(QString::fromStdString(data.method)));
  m_table->setRowCount(used);
  const Eigen::MatrixXd shares = fe::effectiveMassShares(data);
  for (int i = 0; i < used; ++i) {
    const fe::ModeKind kind = std::size_t(i) < data.kinds.size() ? data.kinds[std::size_t(i)] : fe::ModeKind::Elastic;
    const double lambda = i < data.eigenvalues.size() ? data.eigenvalues(i) : 0.0;
    // a frequency only where the mode has one: constraint modes of Craig-Bampton are static shapes
    const QString hz = kind == fe::ModeKind::Elastic || kind == fe::ModeKind::FixedInterface
                           ? QString::number(std::sqrt(std::max(0.0, lambda)) / (2 * std::numbers::pi), 'g', 6)
                           : QStringLiteral("—");
    m_table->setItem(i, 0, new QTableWidgetItem(QString::number(i + 1)));
    m_table->setItem(i, 1, new QTableWidgetItem(hz));
    m_table->setItem(i, 2, new QTableWidgetItem(QString::fromUtf8(fe::toString(kind))));
    m_table->item(i, 1)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    const QString share = kind == fe::ModeKind::FixedInterface && i < shares.cols()
                              ? QStringLiteral("%1/%2/%3")
                                    .arg(100 * shares(0, i), 0, 'f', 1)
                                    .arg(100 * shares(1, i), 0, 'f', 1)
                                    .arg(100 * shares(2, i), 0, 'f', 1)
                              : QStringLiteral("—");
    m_table->setItem(i, 3, new QTableWidgetItem(share));
    m_table->item(i, 3)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  }
  // the report without its mode table (the table above is that)
  fe::ValidationReport report;
  fe::reportReducedBody(data, report);
  QStringList lines;
  for (const std::string& line : report.lines)
    if (line.rfind("  mode ", 0) != 0) lines << QString::fromStdString(line);
  for (const std::string& warning : report.warnings) lines << tr("WARNING: %1").arg(QString::fromStdString(warning));
  m_report->setPlainText(lines.join('\n'));
  showAssurance(spec);
}

void ModeBrowser::showAssurance(const FlexibleBodySpec& spec) {
  const fe::ReducedBody& data = *spec.data;
  // the body's elastic (free-free) modes against the FE program's, beside the .frb
  std::vector<int> ours;
  for (int j = 0; j < int(data.kinds.size()) && j < data.modes.cols(); ++j)
    if (data.kinds[std::size_t(j)] == fe::ModeKind::Elastic) ours.push_back(j);
  if (ours.empty()) {
    m_macNote->setText(tr("The MAC compares free-free elastic modes with the FE program's; this body has none "
                          "(Craig–Bampton modes would need a clamped FE analysis)."));
    return;
  }
  QString file = QString::fromStdString(spec.file);
  if (QFileInfo(file).isRelative() && !m_document->path().isEmpty())
    file = QFileInfo(m_document->path()).dir().filePath(file);
  io::ReferenceModes reference;
  std::string why;
  if (!io::findReferenceModes(file.toStdString(), data, reference, why)) {
    m_macNote->setText(tr("No FE modes to compare with: %1. Put the CalculiX results (.frd of the "
                          "*FREQUENCY step) beside the .frb to see the MAC matrix.")
                           .arg(QString::fromStdString(why)));
    return;
  }
  // the reference's rigid modes (near 0 Hz) are left out; a lumped-mass weighted MAC
  const double firstElastic = std::sqrt(std::max(0.0, data.eigenvalues(ours.front()))) / (2 * std::numbers::pi);
  std::vector<int> theirs;
  for (int j = 0; j < int(reference.frequencies_hz.size()) && j < reference.modes.cols(); ++j)
    if (reference.frequencies_hz[std::size_t(j)] > 0.01 * firstElastic) theirs.push_back(j);
  constexpr int kShown = 12;
  const int rows = std::min<int>(kShown, int(ours.size())), cols = std::min<int>(kShown, int(theirs.size()));
  Eigen::MatrixXd a(data.modes.rows(), rows), b(reference.modes.rows(), cols);
  for (int i = 0; i < rows; ++i) a.col(i) = data.modes.col(ours[std::size_t(i)]);
  for (int j = 0; j < cols; ++j) b.col(j) = reference.modes.col(theirs[std::size_t(j)]);
  Eigen::SparseMatrix<double> mass;  // empty (unweighted) when the masses do not fit the modes
  if (3 * Eigen::Index(data.node_mass.size()) == a.rows()) {
    mass.resize(a.rows(), a.rows());
    std::vector<Eigen::Triplet<double>> diagonal;
    for (Eigen::Index k = 0; k < a.rows(); ++k) diagonal.emplace_back(k, k, data.node_mass[std::size_t(k / 3)]);
    mass.setFromTriplets(diagonal.begin(), diagonal.end());
  }
  const Eigen::MatrixXd mac = fe::modalAssurance(a, b, mass);
  m_macNote->setText(tr("Rows: this body's elastic modes; columns: %1 (%2 elastic modes). 1 = the same shape.")
                         .arg(QFileInfo(QString::fromStdString(reference.path)).fileName())
                         .arg(theirs.size()));
  m_mac->setRowCount(rows);
  m_mac->setColumnCount(cols);
  for (int i = 0; i < rows; ++i) {
    const double hz = std::sqrt(std::max(0.0, data.eigenvalues(ours[std::size_t(i)]))) / (2 * std::numbers::pi);
    m_mac->setVerticalHeaderItem(i, new QTableWidgetItem(tr("%1: %2 Hz").arg(ours[std::size_t(i)] + 1).arg(hz, 0, 'g', 4)));
  }
  for (int j = 0; j < cols; ++j)
    m_mac->setHorizontalHeaderItem(j, new QTableWidgetItem(QString::number(reference.frequencies_hz[std::size_t(theirs[std::size_t(j)])], 'g', 4)));
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const double v = std::clamp(mac(i, j), 0.0, 1.0);
      auto* cell = new QTableWidgetItem(QString::number(mac(i, j), 'f', 3));
      cell->setData(Qt::UserRole, mac(i, j));
      // white (0) to deep blue (1)
      cell->setBackground(QColor::fromRgbF(1.0 - 0.85 * v, 1.0 - 0.65 * v, 1.0 - 0.2 * v));
      cell->setForeground(v > 0.55 ? Qt::white : Qt::black);
      cell->setTextAlignment(Qt::AlignCenter);
      m_mac->setItem(i, j, cell);
    }
  m_mac->horizontalHeader()->setToolTip(tr("Frequency of the FE program's mode [Hz]"));
}

QString ModeBrowser::assuranceNote() const { return m_macNote->text(); }

void ModeBrowser::showMode(int mode) {
  if ((m_body < 0 && !m_linear) || mode < 0 || mode >= m_table->rowCount()) return;
  m_mode = mode;
  m_phase = 0.0;
  if (m_table->currentRow() != mode) m_table->selectRow(mode);
  // the label names the mode (not a time); the colour scale is relative, at the mode's largest
  // drawn deflection
  const QString hz = m_table->item(mode, 1) ? m_table->item(mode, 1)->text() : QString();
  const QString kind = m_table->item(mode, 2) ? m_table->item(mode, 2)->text() : QString();
  m_scene->setModeLabel((m_linear ? tr("system mode %1: %2 Hz").arg(mode + 1).arg(hz)
                         : hz.isEmpty() || hz == QStringLiteral("—") ? tr("mode %1 (%2 shape)").arg(mode + 1).arg(kind)
                                                                     : tr("mode %1: %2 Hz").arg(mode + 1).arg(hz))
                            .toStdString());
  draw(std::numbers::pi / 2);
  m_scene->resetColourRange();
  if (m_animate->isChecked()) m_timer->start();
  emit viewChanged();
}

void ModeBrowser::showFirstElasticMode() { showMode(6 < m_table->rowCount() ? 6 : 0); }

void ModeBrowser::stop() {
  m_timer->stop();
  if (m_mode >= 0) {
    m_mode = -1;
    m_scene->setModeLabel({});
    m_scene->resetPoses();
    m_scene->resetColourRange();
    emit viewChanged();
  }
}

void ModeBrowser::freezeAtPeak() {
  m_animate->setChecked(false);
  if (m_mode >= 0) draw(std::numbers::pi / 2);
}

void ModeBrowser::advance() {
  m_phase += 2 * std::numbers::pi * (m_speed->value() / 10.0) / kFramesPerSecond;
  draw(m_phase);
}

void ModeBrowser::drawSystemMode(double phase) {
  const LinearizationResult& r = *m_linear;
  if (m_mode >= int(r.modes.size())) return;
  const VecX& shape = r.modes[std::size_t(m_mode)].shape;
  // the largest displacement of a body's reference point (a rotation counted at the model's
  // size) or of a flexible body's surface per unit of the shape, from a small step along it
  const double length = m_scene->characteristicLength();
  const double probe = 1e-6;
  const Sample rest = m_simulation->displacedSample(r.state);
  const Sample moved = m_simulation->displacedSample(r.state, probe * shape);
  double peak = 0;
  for (std::size_t p = 0; p < rest.poses.size() && p < moved.poses.size(); ++p) {
    peak = std::max(peak, (moved.poses[p].position - rest.poses[p].position).norm());
    peak = std::max(peak, rest.poses[p].orientation.angularDistance(moved.poses[p].orientation) * length);
  }
  for (std::size_t f = 0; f < rest.modal.size() && f < moved.modal.size(); ++f)
    if (const render::FlexibleSurface* s = m_scene->flexibleSurface(f))
      if (s->modeCount() == moved.modal[f].size())
        peak = std::max(peak, s->maxDisplacement(moved.modal[f] - rest.modal[f]) * m_scene->deformationScale());
  peak /= probe;
  const double amplitude = peak > 0 ? m_amplitude->value() / 1000.0 * length / peak : 0.0;
  Sample sample = m_simulation->displacedSample(r.state, amplitude * std::sin(phase) * shape);
  if (sample.poses.size() != std::size_t(m_scene->bodyTable().size())) return;  // the model changed since
  m_scene->setSample(sample);
  emit viewChanged();
}

void ModeBrowser::draw(double phase) {
  if (m_linear) return drawSystemMode(phase);
  // the body's place among the scene's deformable bodies (Sample::modal order)
  const BodyTable& drawn = m_scene->bodyTable();
  const int pose = m_body >= 0 ? drawn.poseOf("flexible_bodies", std::size_t(m_body)) : -1;
  const int slot = pose >= 0 ? drawn[pose].deformable : -1;
  const render::FlexibleSurface* surface = slot >= 0 ? m_scene->flexibleSurface(std::size_t(slot)) : nullptr;
  if (!surface || m_mode >= surface->modeCount()) return;
  // mode m scaled so that its largest drawn displacement is the chosen share of the model size
  Eigen::VectorXd unit = Eigen::VectorXd::Zero(surface->modeCount());
  unit(m_mode) = 1.0;
  const double peak = surface->maxDisplacement(unit) * m_scene->deformationScale();
  const double target = m_amplitude->value() / 1000.0 * m_scene->characteristicLength();
  const double amplitude = peak > 0 ? target / peak : 0.0;
  std::vector<Eigen::VectorXd> modal(m_scene->flexibleBodyCount());
  for (std::size_t f = 0; f < modal.size(); ++f)
    if (const render::FlexibleSurface* s = m_scene->flexibleSurface(f)) modal[f] = Eigen::VectorXd::Zero(s->modeCount());
  modal[std::size_t(slot)] = unit * amplitude * std::sin(phase);
  m_scene->setModal(modal);
  emit viewChanged();
}

}  // namespace flexim::ui
