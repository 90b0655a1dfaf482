#include "ui/fe_reduction_job.h"

#include "io/fe/reduced_body_file.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace flexim::ui {

FeReductionJob::FeReductionJob(QString path, QObject* parent) : QObject(parent), m_path(std::move(path)) {}

FeReductionJob::FeReductionJob(QString path, const fe::FeModel& mesh, const fe::ReductionOptions& options,
                               std::optional<fe::Material> material, QObject* parent)
    : QObject(parent), m_path(std::move(path)), m_arguments(reduceArguments(mesh, options, material)) {}

FeReductionJob::~FeReductionJob() {
  if (m_process && m_process->state() != QProcess::NotRunning) {
    m_process->disconnect(this);
    m_process->kill();
    m_process->waitForFinished(2000);
  }
}

QString FeReductionJob::cliProgram() {
  const QString given = qEnvironmentVariable("FLEXIM_CLI");
  if (!given.isEmpty()) return given;
  const QString beside = QCoreApplication::applicationDirPath() + "/flexim-cli";
  if (QFileInfo(beside).isExecutable()) return beside;
  return QStringLiteral(FLEXIM_BUILD_CLI);
}

QStringList FeReductionJob::reduceArguments(const fe::FeModel& mesh, const fe::ReductionOptions& o,
                                            const std::optional<fe::Material>& material) {
  const auto number = [](double x) { return QString::number(x, 'g', 17); };
  QStringList a;
  // the node sets the interfaces name, as the mesh holds them (a face picked in the wizard is
  // not in the file the child reads)
  for (const fe::InterfaceSpec& i : o.interfaces) {
    const QString name = QString::fromStdString(i.set).toUpper();
    const auto set = mesh.node_sets.find(name.toStdString());
    if (set == mesh.node_sets.end()) continue;
    QStringList ids;
    for (int index : set->second) ids << QString::number(mesh.node_ids[std::size_t(index)]);
    a << "--node-set" << name + ":" + ids.join(',');
  }
  if (o.max_frequency_hz > 0) a << "--max-frequency" << number(o.max_frequency_hz);
  else a << "--modes" << QString::number(o.modes);
  for (const fe::InterfaceSpec& i : o.interfaces) {
    QString set = QString::fromStdString(i.set);
    if (i.kind) set += *i.kind == fe::Interface::Kind::Rigid ? ":rigid" : ":averaging";
    a << "--interface" << set;
    if (i.reference != fe::InterfaceSpec::Reference::Default)
      a << "--reference" << QString::fromStdString(fe::interfaceReferenceText(i));
  }
  a << "--method" << (o.method == fe::ReductionOptions::Method::CraigBampton ? "craig-bampton" : "free-free");
  if (o.orthonormalise) a << "--orthonormalise";
  a << "--invariants" << (o.invariant_mass == fe::ReductionOptions::InvariantMass::Lumped ? "lumped" : "consistent");
  if (!o.geometric_stiffening) a << "--no-stiffening";
  if (material) a << "--material" << number(material->E) + "," + number(material->nu) + "," + number(material->rho);
  if (o.density > 0) a << "--density" << number(o.density);
  return a;
}

void FeReductionJob::start() {
  if (m_process) return;
  m_process = new QProcess(this);
  connect(m_process, &QProcess::readyReadStandardOutput, this, &FeReductionJob::readProgress);
  connect(m_process, &QProcess::finished, this, &FeReductionJob::onExited);
  connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
    if (error != QProcess::FailedToStart) return;  // the others end in finished()
    m_diag.error(m_path.toStdString(), "cannot start the reduction: " + cliProgram().toStdString() + ": " +
                                           m_process->errorString().toStdString());
    m_done = true;
    emit finished();
  });
  const QString frb = m_folder.filePath("body.frb");
  m_process->start(cliProgram(), QStringList{"reduce", m_path} << m_arguments << "--out" << frb << "--progress");
}

void FeReductionJob::cancel() {
  if (!m_process || m_done) return;
  m_cancel = true;
  m_process->kill();  // at once, whatever the stage; finished() follows from onExited
}

bool FeReductionJob::isRunning() const { return m_process && !m_done; }

void FeReductionJob::readProgress() {
  m_pending += m_process->readAllStandardOutput();
  for (qsizetype end = m_pending.indexOf('\n'); end >= 0; end = m_pending.indexOf('\n')) {
    const QStringList f = QString::fromUtf8(m_pending.left(end)).split('\t');
    m_pending.remove(0, end + 1);
    if (f.size() >= 2 && f[0] == "stage") {
      emit stageChanged(f[1]);
    } else if (f.size() >= 4 && f[0] == "diagnostic") {
      if (f[1] == "error") m_diag.error(f[2].toStdString(), f[3].toStdString());
      else if (f[1] == "warning") m_diag.warning(f[2].toStdString(), f[3].toStdString());
      else m_diag.info(f[2].toStdString(), f[3].toStdString());
    } else if (f.size() >= 5 && f[0] == "timings") {
      for (int i = 0; i < 4; ++i) m_seconds[i] = f[i + 1].toDouble();
    }
  }
}

void FeReductionJob::onExited(int code, QProcess::ExitStatus status) {
  readProgress();
  m_done = true;
  if (m_cancel) {
    emit finished();
    return;
  }
  const QString frb = m_folder.filePath("body.frb");
  if (status == QProcess::CrashExit) {
    m_diag.error(m_path.toStdString(), "the reduction process crashed (" + m_process->errorString().toStdString() +
                                           "); the window and the model are not affected");
  } else if (code != 0 || !QFileInfo::exists(frb)) {
    // what it said is in the diagnostics already; its last words may add the reason
    const QString said = QString::fromUtf8(m_process->readAllStandardError()).trimmed().section('\n', -1);
    if (!m_diag.hasErrors())
      m_diag.error(m_path.toStdString(), said.isEmpty() ? "the reduction failed" : said.toStdString());
  } else {
    auto body = std::make_shared<fe::ReducedBody>();
    std::string error;
    if (!io::loadReducedBody(frb.toStdString(), *body, &error)) {
      m_diag.error(m_path.toStdString(), error);
    } else {
      m_body = std::move(body);
      m_summary = tr("%1: %2 nodes, mass %3 kg, %4; assembly %5 s, modes %6 s")
                      .arg(QFileInfo(m_path).fileName())
                      .arg(m_body->coords.size())
                      .arg(m_body->invariants.I1, 0, 'g', 6)
                      .arg(QString::fromStdString(m_body->method))
                      .arg(m_seconds[0], 0, 'f', 2)
                      .arg(m_seconds[1], 0, 'f', 2);
    }
  }
  emit finished();
}

}  // namespace flexim::ui
