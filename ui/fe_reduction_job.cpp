#include "ui/fe_reduction_job.h"

#include "core/fe/reduction.h"
#include "io/fe/import.h"
#include "io/fe/reduced_body_source.h"

#include <QFileInfo>
#include <QThread>

namespace flexim::ui {

FeReductionJob::FeReductionJob(QString path, QObject* parent) : QObject(parent), m_path(std::move(path)) {}

FeReductionJob::FeReductionJob(QString path, fe::FeModel mesh, fe::ReductionOptions options,
                               std::optional<fe::Material> material, QObject* parent)
    : QObject(parent),
      m_path(std::move(path)),
      m_mesh(std::move(mesh)),
      m_options(std::move(options)),
      m_material(std::move(material)) {}

FeReductionJob::~FeReductionJob() {
  if (!m_thread) return;
  m_cancel = true;
  m_thread->wait();
  delete m_thread;
}

void FeReductionJob::start() {
  if (m_thread) return;
  m_thread = QThread::create([this] { work(); });
  connect(m_thread, &QThread::finished, this, &FeReductionJob::finished);
  m_thread->start();
}

void FeReductionJob::cancel() { m_cancel = true; }

bool FeReductionJob::isRunning() const { return m_thread && m_thread->isRunning(); }

void FeReductionJob::work() {
  // runs in the worker: results go to members read only after finished()
  const auto stage = [this](const QString& text) {
    QMetaObject::invokeMethod(this, [this, text] { emit stageChanged(text); }, Qt::QueuedConnection);
  };
  const std::string path = m_path.toStdString();
  if (!m_mesh) {
    stage(tr("Reading %1…").arg(QFileInfo(m_path).fileName()));
    m_mesh.emplace();
    if (!io::importFe(path, *m_mesh, m_diag) || m_cancel) return;
  }
  const fe::FeModel& mesh = *m_mesh;
  stage(tr("Assembling %1 nodes and solving for the modes…").arg(mesh.nodeCount()));
  fe::ReductionOptions options = m_options;
  options.material = m_material ? &*m_material : nullptr;
  fe::ReductionReport& report = m_report;
  auto body = std::make_shared<fe::ReducedBody>();
  if (!fe::reduce(mesh, options, *body, report, m_diag) || m_cancel) return;
  stage(tr("Finding the display surface…"));
  io::describeReducedBody(mesh, path, *body);
  m_summary = tr("%1: %2 nodes, mass %3 kg, %4; assembly %5 s, modes %6 s")
                  .arg(QFileInfo(m_path).fileName())
                  .arg(body->coords.size())
                  .arg(report.mass, 0, 'g', 6)
                  .arg(QString::fromStdString(body->method))
                  .arg(report.seconds_assembly, 0, 'f', 2)
                  .arg(report.seconds_eigen, 0, 'f', 2);
  m_body = std::move(body);
  m_ok = true;
}

}  // namespace flexim::ui
