// Nothing lost, with real widget events: a Save As that fails changes neither the document nor
// any file; a model whose reduced body is missing opens with the body marked, and the body is
// pointed at its file through the property panel; a session killed a moment ago is recovered at
// the first restart; undo texts and reference fields say and keep what was typed; a binary file
// opened by mistake is named as such; Help > Examples opens the bundled models; --help and
// --version answer without a display.
#include "io/model_json.h"
#include "ui/fe_reduction_job.h"
#include "ui/main_window.h"
#include "ui/messages_panel.h"
#include "ui/model_document.h"
#include "ui/model_tree.h"
#include "ui/property_panel.h"
#include "ui/recovery.h"
#include "ui/surface_format.h"
#include "tests/ui/widget_events.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QElapsedTimer>
#include <QPointer>
#include <QProcess>
#include <QProgressDialog>
#include <QStandardPaths>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>
#include <QUndoStack>
#include <QtTest>

#include <csignal>
#include <functional>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace flexim;
using namespace flexim::ui;

namespace {

const QString kExamples = QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples");

QByteArray bytesOf(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Answers the next modal file dialog by typing path into its file name and clicking its Save
/// or Open button (looked for every 100 ms, for up to a minute); beforeAccept runs just before the click.
void acceptWhenStillOpen(QPointer<QFileDialog> dialog, QPushButton* accept, const QString& path, int tries);

/// The visible file dialog, if any: the active modal widget, or (on a loaded machine, where the
/// dialog can be shown before it is the active modal widget) any visible top-level one.
QFileDialog* visibleFileDialog() {
  if (auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) return dialog;
  for (QWidget* w : QApplication::topLevelWidgets())
    if (auto* dialog = qobject_cast<QFileDialog*>(w); dialog && dialog->isVisible()) return dialog;
  return nullptr;
}

// (on a loaded machine, a build beside the suite, the dialog has taken over 10 s to open or close)
void answerFileDialog(QObject* context, const QString& path, bool* answered, std::function<void()> beforeAccept = {},
                      int tries = 600) {
  QTimer::singleShot(100, context, [context, path, answered, beforeAccept, tries] {
    QFileDialog* dialog = visibleFileDialog();
    auto* name = dialog ? dialog->findChild<QLineEdit*>("fileNameEdit") : nullptr;
    if (!name || !dialog->isVisible()) {
      if (tries > 0) answerFileDialog(context, path, answered, beforeAccept, tries - 1);
      return;
    }
    name->selectAll();
    QTest::keyClicks(name, path);
    if (beforeAccept) beforeAccept();
    // the dialog's own button, not Return: a completion list popped up by the typing takes a Return
    auto* buttons = dialog->findChild<QDialogButtonBox*>();
    QPushButton* accept = nullptr;
    for (QAbstractButton* b : buttons ? buttons->buttons() : QList<QAbstractButton*>{})
      if (buttons->buttonRole(b) == QDialogButtonBox::AcceptRole) accept = qobject_cast<QPushButton*>(b);
    if (accept) QTest::mouseClick(accept, Qt::LeftButton);
    else QTest::keyClick(name, Qt::Key_Return);
    *answered = true;
    acceptWhenStillOpen(QPointer<QFileDialog>(dialog), accept, path, 120);
  });
}

/// A completion list that popped up after the typing (the directory is read in the background)
/// takes the first click: while the dialog is still open, close the list and click again.
void acceptWhenStillOpen(QPointer<QFileDialog> dialog, QPushButton* accept, const QString& path, int tries) {
  QTimer::singleShot(250, [dialog, accept, path, tries] {
    if (!dialog || !dialog->isVisible()) return;
    if (tries <= 0) {  // the clicks did not take in 30 s: the dialog's own accept, never a hang
      dialog->selectFile(path);
      static_cast<QDialog*>(dialog.data())->accept();  // QFileDialog's own accept, through QDialog's public one
      return;
    }
    if (QWidget* popup = QApplication::activePopupWidget()) popup->close();
    if (accept) QTest::mouseClick(accept, Qt::LeftButton);
    acceptWhenStillOpen(dialog, accept, path, tries - 1);
  });
}

}  // namespace

class FilesTest : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    QVERIFY(m_dir.isValid());
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1200, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
  }
  void cleanup() {
    if (m_window) m_window->document()->undoStack()->setClean();
    m_window.reset();
  }

  /// Save As into a folder where the write fails (the file size limit stands in for a full
  /// disk): the document keeps its file, its paths and its undo history, no file is created or
  /// changed, and the next Ctrl+S writes the original file, which opens with its reduced body.
  void failedSaveAsChangesNothing() {
    const QString model = copyFlexibleExample(m_dir.filePath("a"));
    QVERIFY(m_window->openModelFile(model));
    const QByteArray original = bytesOf(model);
    const std::string file = m_window->model().flexible_bodies.at(0).file;
    const int commands = m_window->document()->undoStack()->count();
    QVERIFY(QDir().mkpath(m_dir.filePath("b")));
    const QString target = m_dir.filePath("b/saved.json");

    // writes beyond 64 bytes fail (EFBIG), as on a full disk: from the moment the file name is
    // given until the save is done
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit old{};
    QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
    rlimit small = old;
    small.rlim_cur = 64;
    bool answered = false;
    answerFileDialog(this, target, &answered, [&small] { setrlimit(RLIMIT_FSIZE, &small); });
    QTest::keyClick(m_window.get(), Qt::Key_S, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(setrlimit(RLIMIT_FSIZE, &old), 0);
    QVERIFY(answered);
    closeSaveFailedBox();

    QVERIFY(!QFile::exists(target));
    QCOMPARE(QDir(m_dir.filePath("b")).entryList(QDir::Files | QDir::Hidden).size(), 0);  // no temporary left
    QCOMPARE(QFileInfo(m_window->document()->path()).canonicalFilePath(), QFileInfo(model).canonicalFilePath());
    QCOMPARE(m_window->model().flexible_bodies.at(0).file, file);
    QCOMPARE(m_window->document()->undoStack()->count(), commands);
    QVERIFY(m_window->messages()->lines(Severity::Error).join('\n').contains("saved.json"));
    QCOMPARE(bytesOf(model), original);

    // the next save goes to the original file, which still opens with its data
    QTest::keyClick(m_window.get(), Qt::Key_S, Qt::ControlModifier);
    ModelSpec reread;
    Diagnostics diag;
    QVERIFY2(io::loadModelFile(model.toStdString(), reread, diag), diag.str().c_str());
    QVERIFY(reread.flexible_bodies.at(0).data);
    QCOMPARE(reread.flexible_bodies.at(0).file, file);

    // without the limit the same Save As works, and the paths follow the new folder
    answered = false;
    answerFileDialog(this, target, &answered);
    QTest::keyClick(m_window.get(), Qt::Key_S, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(answered);
    QCOMPARE(QFileInfo(m_window->document()->path()).canonicalFilePath(), QFileInfo(target).canonicalFilePath());
    QCOMPARE(m_window->model().flexible_bodies.at(0).file, "../a/" + file);
    ModelSpec moved;
    QVERIFY2(io::loadModelFile(target.toStdString(), moved, diag), diag.str().c_str());
    QVERIFY(moved.flexible_bodies.at(0).data);
  }

  /// A folder that does not exist: refused with the reason, nothing changes.
  void saveIntoAMissingFolderChangesNothing() {
    const QString model = copyFlexibleExample(m_dir.filePath("c"));
    ModelDocument doc;
    Diagnostics diag;
    QVERIFY2(doc.open(model, diag), diag.str().c_str());
    const std::string file = doc.model().flexible_bodies.at(0).file;
    QString error;
    QVERIFY(!doc.save(m_dir.filePath("no/such/folder/model.json"), error));
    QVERIFY2(error.contains("no/such/folder/model.json"), qPrintable(error));
    QCOMPARE(doc.path(), model);
    QCOMPARE(doc.model().flexible_bodies.at(0).file, file);
    QCOMPARE(doc.undoStack()->count(), 0);
    QVERIFY(!doc.isDirty());
  }

  /// The model's name follows Save As when it was the file's name; a name of its own stays.
  void modelNameFollowsSaveAs() {
    const QString model = m_dir.filePath("slider_crank_rigid.json");
    QFile::remove(model);
    QVERIFY(QFile::copy(kExamples + "/slider_crank_rigid.json", model));
    QVERIFY(m_window->openModelFile(model));
    QCOMPARE(m_window->model().name, std::string("slider_crank_rigid"));
    // what File > Save As does with the name given (its dialog is driven in failedSaveAsChangesNothing)
    QVERIFY(m_window->saveModelFile(m_dir.filePath("my_crank.json")));
    QCOMPARE(m_window->model().name, std::string("my_crank"));
    QCOMPARE(m_window->windowTitle(), QString("my_crank.json — Flexim"));
    QCOMPARE(m_window->modelTree()->topLevelItem(0)->text(1), QString("my_crank"));
    ModelSpec reread;
    Diagnostics diag;
    QVERIFY(io::loadModelFile(m_dir.filePath("my_crank.json").toStdString(), reread, diag));
    QCOMPARE(reread.name, std::string("my_crank"));
    // a name that is not the file's stays as it is
    ModelDocument doc;
    QVERIFY(doc.open(model, diag));
    QString error;
    QVERIFY(doc.setField(ModelDocument::kModelId, "name", std::string("Crank study"), error));
    QVERIFY(doc.save(m_dir.filePath("other.json"), error));
    QCOMPARE(doc.model().name, std::string("Crank study"));
  }

  /// A model whose reduced-body file is missing opens: the body is marked in the tree and the
  /// Messages say which file; "…" beside the body's file points it at the file, and the mark goes.
  void missingReducedBodyOpensMarked() {
    const QString folder = m_dir.filePath("missing");
    QVERIFY(QDir().mkpath(folder));
    const QString model = folder + "/crank.json";
    QFile::remove(model);
    QVERIFY(QFile::copy(kExamples + "/slider_crank_flexible.json", model));  // without its rod/ folder
    QVERIFY(m_window->openModelFile(model));
    QCOMPARE(QFileInfo(m_window->document()->path()).canonicalFilePath(), QFileInfo(model).canonicalFilePath());
    const ItemId rod = m_window->document()->findItem("flexible_bodies", "rod");
    QVERIFY(!m_window->model().flexible_bodies.at(0).data);
    const QString problem = m_window->modelTree()->problemOf(rod);
    QVERIFY2(problem.contains("not loaded"), qPrintable(problem));
    QVERIFY(!m_window->modelTree()->rowOf(rod)->icon(0).isNull());
    const QString warnings = m_window->messages()->lines(Severity::Warning).join('\n');
    QVERIFY2(warnings.contains("rod_round_c3d10.frb") && warnings.contains("kept without its data"), qPrintable(warnings));

    // point the body at the file with the browse button of its "file" field
    clickRow("rod");
    auto* browse = m_window->propertyPanel()->findChild<QToolButton*>("browse:file");
    QVERIFY(browse);
    bool answered = false;
    answerFileDialog(this, kExamples + "/rod/rod_round_c3d10.frb", &answered);
    QTest::mouseClick(browse, Qt::LeftButton);
    QVERIFY(answered);
    QVERIFY(m_window->model().flexible_bodies.at(0).data);
    QVERIFY(m_window->modelTree()->problemOf(rod).isEmpty());
    QVERIFY(m_window->modelTree()->rowOf(rod)->icon(0).isNull());
    // named relative to the model's folder, and undoable
    QVERIFY(QFileInfo(QString::fromStdString(m_window->model().flexible_bodies.at(0).file)).isRelative());
    QVERIFY2(m_window->document()->undoStack()->undoText().contains("file"),
             qPrintable(m_window->document()->undoStack()->undoText()));
    m_window->activateWindow();  // the file dialog had the keyboard
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QTest::keyClick(m_window.get(), Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(!m_window->model().flexible_bodies.at(0).data);

    // the command line still refuses to run it, naming the body's file
    ModelSpec strict;
    Diagnostics diag;
    QVERIFY(!io::loadModelFile(model.toStdString(), strict, diag));
    QVERIFY2(diag.str().find("flexible_bodies[0].file") != std::string::npos, diag.str().c_str());
  }

  /// A session killed a moment ago may still be a zombie (its parent has not reaped it): its
  /// recovery file is offered all the same. A live session's file is not.
  void recoveryOfAJustKilledSession() {
    const QString model = m_dir.filePath("recover.json");
    QFile::remove(model);
    QVERIFY(QFile::copy(kExamples + "/slider_crank_rigid.json", model));
    QVERIFY(m_window->openModelFile(model));
    clickRow("crank");
    type(field("mass"), "0.25");
    // written soon after the change, without waiting for the minute
    Recovery* recovery = m_window->recovery();
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(recovery->file()), 3000);

    // a child of this process stands in for the session: alive, then killed and not reaped
    const pid_t child = fork();
    if (child == 0) {
      pause();
      _exit(0);
    }
    QVERIFY(child > 0);
    const QString left = QDir(Recovery::folder()).filePath(QString("session-%1.json").arg(child));
    QVERIFY(QFile::copy(recovery->file(), left));
    QVERIFY(QFile::copy(recovery->file() + ".origin", left + ".origin"));
    const auto offered = [&] {
      for (const Recovery::LeftBehind& l : m_window->recovery()->leftBehind())
        if (l.file == left) return true;
      return false;
    };
    QVERIFY(!offered());  // running
    kill(child, SIGKILL);
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(QString("/proc/%1/stat").arg(child)).exists() && offered(), 3000);
    QFile stat(QString("/proc/%1/stat").arg(child));
    QVERIFY(stat.open(QIODevice::ReadOnly));
    QVERIFY2(stat.readAll().contains(") Z"), "the killed child is a zombie");  // what the test is about
    stat.close();
    waitpid(child, nullptr, 0);
    QVERIFY(offered());
    Recovery::remove({left, model, {}});
  }

  /// The real application, given an edit (--set) and killed with SIGKILL a moment after: its
  /// autosave holds the edit, and the first start after it offers the model; "Open recovered"
  /// brings the edit back, unsaved, under the model's own path.
  void recoveryAfterKill9OfTheApplication() {
    const QString model = m_dir.filePath("killed.json");
    QFile::remove(model);
    QVERIFY(QFile::copy(kExamples + "/slider_crank_rigid.json", model));
    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("XDG_DATA_HOME", m_dir.filePath("killed-data"));
    app.setProcessEnvironment(env);
    app.start(QStringLiteral(FLEXIM_GUI), {model, "--set", "bodies[0].mass=0.25"});
    QVERIFY(app.waitForStarted());
    const QString saved = m_dir.filePath(QString("killed-data/Flexim/recovery/session-%1.json").arg(app.processId()));
    // the autosave writes the session and then its ".origin" beside it: the kill must come after
    // both (on a loaded machine it once fell between them)
    const auto holdsTheEdit = [&] {
      QFile file(saved);
      return file.open(QIODevice::ReadOnly) && file.readAll().contains("\"mass\": 0.25") && QFile::exists(saved + ".origin");
    };
    QTRY_VERIFY_WITH_TIMEOUT(holdsTheEdit(), 20000);
    QCOMPARE(::kill(pid_t(app.processId()), SIGKILL), 0);
    QVERIFY(app.waitForFinished(5000));
    QCOMPARE(app.exitStatus(), QProcess::CrashExit);
    // the next start finds it (here: where this test's sessions keep theirs)
    const QString left = QDir(Recovery::folder()).filePath(QFileInfo(saved).fileName());
    QVERIFY(QDir().mkpath(Recovery::folder()));
    QVERIFY(QFile::rename(saved, left) && QFile::rename(saved + ".origin", left + ".origin"));
    QString text;
    test::acceptRecoveryBoxWhenShown(this, &text);
    m_window->offerRecovery();
    QVERIFY2(text.contains("killed.json"), qPrintable(text));
    QCOMPARE(m_window->model().bodies[0].mass, 0.25);
    QVERIFY(m_window->document()->isDirty());
    QCOMPARE(QFileInfo(m_window->document()->path()).canonicalFilePath(), QFileInfo(model).canonicalFilePath());
    QVERIFY(!QFile::exists(left));
    m_window->document()->undoStack()->setClean();
  }

  /// The rename's undo text counts the references it changed.
  void renameUndoTextCountsTheReferences() {
    const QString model = m_dir.filePath("rename.json");
    QFile::remove(model);
    QVERIFY(QFile::copy(kExamples + "/slider_crank_rigid.json", model));
    QVERIFY(m_window->openModelFile(model));
    clickRow("crank");
    type(field("name"), "lever");
    const QString text = m_window->findChild<QAction*>("actionUndo")->text();
    QVERIFY2(QRegularExpression("\\(and [1-9][0-9]? references?\\)").match(text).hasMatch(), qPrintable(text));
    QVERIFY2(!text.contains("18446744073709551615"), qPrintable(text));
  }

  /// A name typed into a reference field and left with Tab is committed.
  void referenceTypedAndLeftWithTabIsCommitted() {
    const QString model = m_dir.filePath("tab.json");
    QFile::remove(model);
    QVERIFY(QFile::copy(kExamples + "/slider_crank_rigid.json", model));
    QVERIFY(m_window->openModelFile(model));
    QTreeWidgetItem* sensorRow = test::treeRow(m_window->modelTree(), "crank", "Sensors");
    QVERIFY(sensorRow);
    test::clickTreeRow(m_window->modelTree(), sensorRow);
    auto* joint = m_window->propertyPanel()->findChild<QComboBox*>("field:joint");
    QVERIFY(joint && joint->isEditable());
    joint->lineEdit()->setFocus();
    joint->lineEdit()->selectAll();
    QTest::keyClicks(joint->lineEdit(), "crank_pin");
    QTest::keyClick(joint->lineEdit(), Qt::Key_Tab);
    QApplication::processEvents();
    QCOMPARE(m_window->model().sensors.at(1).joint, std::string("crank_pin"));
    QVERIFY(m_window->propertyPanel()->fieldError("joint").isEmpty());
  }

  /// A binary file opened by mistake is named as not a text file, not echoed byte by byte.
  void binaryFileIsNamedNotText() {
    const QString png = QStringLiteral(FLEXIM_SOURCE_DIR "/docs/images/main-window.png");
    QVERIFY(!m_window->openModelFile(png));
    const QString errors = m_window->messages()->lines(Severity::Error).join('\n');
    QVERIFY2(errors.contains("not a text file"), qPrintable(errors));
    QVERIFY2(!errors.contains("PNG"), qPrintable(errors));
    QProcess cli;
    cli.start(QStringLiteral(FLEXIM_CLI), {"validate", png});
    QVERIFY(cli.waitForFinished(30000));
    QCOMPARE(cli.exitCode(), 1);
    QVERIFY(cli.readAllStandardError().contains("not a text file"));
  }

  /// Help > Examples lists the bundled models, their descriptions as tooltips, and opens one.
  void helpExamplesOpensABundledModel() {
    QMenu* examples = m_window->findChild<QMenu*>("menuExamples");
    QVERIFY(examples);
    QStringList names;
    for (QAction* a : examples->actions()) names << a->text();
    QVERIFY2(names.contains("slider_crank_flexible") && names.contains("n_four_bar_2"), qPrintable(names.join(',')));
    QAction* crank = m_window->findChild<QAction*>("example:slider_crank_rigid");
    QVERIFY(crank);
    QVERIFY(crank->toolTip().contains("slider"));
    // through the menus, with the mouse: Help, then Examples, then the model
    QMenuBar* bar = m_window->menuBar();
    QMenu* help = nullptr;
    for (QAction* a : bar->actions())
      if (a->menu() && a->menu()->actions().contains(examples->menuAction())) help = a->menu();
    QVERIFY(help);
    QTest::mouseClick(bar, Qt::LeftButton, {}, bar->actionGeometry(help->menuAction()).center());
    QTRY_VERIFY(help->isVisible());
    QTest::mouseClick(help, Qt::LeftButton, {}, help->actionGeometry(examples->menuAction()).center());
    QTRY_VERIFY(examples->isVisible());
    QTest::mouseClick(examples, Qt::LeftButton, {}, examples->actionGeometry(crank).center());
    QTRY_COMPARE(QFileInfo(m_window->document()->path()).fileName(), QString("slider_crank_rigid.json"));
    QCOMPARE(m_window->model().bodies.size(), std::size_t(3));
  }

  /// An FE reduction runs in a child process: its Cancel button takes effect at once, in any
  /// stage (here a stand-in that reports its first stage and then takes a minute), and so does a
  /// real reduction's.
  void feReductionCancelsAtOnce() {
    const QString slow = writeScript("slow-cli", "printf 'stage\\tReading the deck…\\n'; sleep 60");
    qputenv("FLEXIM_CLI", slow.toUtf8());
    const QString deck = QStringLiteral(FLEXIM_SOURCE_DIR "/tests/data/fe/rod/rod_round_c3d10.inp");
    QSignalSpy failed(m_window.get(), &MainWindow::openFailed);
    QVERIFY(m_window->openModelFile(deck));
    auto* dialog = m_window->findChild<QProgressDialog*>("feReductionProgress");
    QVERIFY(dialog);
    QTRY_VERIFY_WITH_TIMEOUT(dialog->labelText() == "Reading the deck…", 5000);
    QTRY_VERIFY_WITH_TIMEOUT(dialog->isVisible(), 5000);
    QElapsedTimer clock;
    clock.start();
    QTest::mouseClick(dialog->findChild<QPushButton*>(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(failed.count() == 1, 1000);
    qInfo("cancelled after %lld ms", clock.elapsed());
    QVERIFY(clock.elapsed() < 1000);
    QVERIFY(m_window->messages()->lines(Severity::Warning).join('\n').contains("reduction cancelled"));
    qunsetenv("FLEXIM_CLI");

    // the real flexim-cli, cancelled as soon as it says it is solving (60 modes: it would take
    // a while longer)
    fe::ReductionOptions options;
    options.modes = 60;
    FeReductionJob job(deck, fe::FeModel{}, options, std::nullopt);
    QSignalSpy done(&job, &FeReductionJob::finished);
    QString stage;
    connect(&job, &FeReductionJob::stageChanged, this, [&stage](const QString& s) { stage = s; });
    job.start();
    QTRY_VERIFY_WITH_TIMEOUT(stage.startsWith("Assembling"), 10000);
    QVERIFY(done.isEmpty());
    clock.start();
    job.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(done.count() == 1, 1000);
    qInfo("the real reduction cancelled after %lld ms", clock.elapsed());
    QVERIFY(job.cancelled() && !job.body());
  }

  /// A reduction process that crashes takes nothing with it: the window says so and goes on.
  void feReductionCrashLeavesTheWindow() {
    const QString crashing = writeScript("crashing-cli", "printf 'stage\\tAssembling…\\n'; kill -SEGV $$");
    qputenv("FLEXIM_CLI", crashing.toUtf8());
    QSignalSpy failed(m_window.get(), &MainWindow::openFailed);
    QVERIFY(m_window->openModelFile(QStringLiteral(FLEXIM_SOURCE_DIR "/tests/data/fe/rod/rod_round_c3d10.inp")));
    QTRY_VERIFY_WITH_TIMEOUT(failed.count() == 1, 10000);
    qunsetenv("FLEXIM_CLI");
    const QString errors = m_window->messages()->lines(Severity::Error).join('\n');
    QVERIFY2(errors.contains("crashed"), qPrintable(errors));
    QVERIFY(m_window->isVisible());
    QVERIFY(m_window->openModelFile(kExamples + "/slider_crank_rigid.json"));  // and works on
  }

  /// flexim --help and --version print without a display (QApplication would abort).
  void helpAndVersionWithoutADisplay() {
    for (const QString& option : {QString("--help"), QString("--version")}) {
      QProcess gui;
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      env.remove("DISPLAY");
      env.remove("WAYLAND_DISPLAY");
      env.remove("QT_QPA_PLATFORM");
      gui.setProcessEnvironment(env);
      gui.start(QStringLiteral(FLEXIM_GUI), {option});
      QVERIFY(gui.waitForFinished(30000));
      QCOMPARE(gui.exitStatus(), QProcess::NormalExit);
      QCOMPARE(gui.exitCode(), 0);
      const QString out = QString::fromUtf8(gui.readAllStandardOutput());
      QVERIFY2(option == "--help" ? out.contains("--run") && out.contains("--screenshot") : out.contains(FLEXIM_VERSION),
               qPrintable(out + gui.readAllStandardError()));
    }
  }

 private:
  /// The flexible slider-crank and its reduced bodies, copied into folder; the model's path.
  QString copyFlexibleExample(const QString& folder) {
    QDir().mkpath(folder + "/rod");
    for (const QString& f : QDir(kExamples + "/rod").entryList({"*.frb"}, QDir::Files))
      QFile::copy(kExamples + "/rod/" + f, folder + "/rod/" + f);
    const QString model = folder + "/slider_crank_flexible.json";
    QFile::remove(model);
    QFile::copy(kExamples + "/slider_crank_flexible.json", model);
    QFile::setPermissions(model, QFile::ReadOwner | QFile::WriteOwner);
    return model;
  }
  /// An executable shell script in the test's folder.
  QString writeScript(const QString& name, const QString& body) {
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return {};
    f.write(("#!/bin/sh\n" + body + "\n").toUtf8());
    f.close();
    f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
  }
  void closeSaveFailedBox() {
    auto* box = m_window->findChild<QMessageBox*>("saveFailedBox");
    QVERIFY(box);
    QVERIFY2(box->text().contains("cannot write"), qPrintable(box->text()));
    QTest::mouseClick(box->button(QMessageBox::Ok), Qt::LeftButton);
    QTRY_VERIFY(!m_window->findChild<QMessageBox*>("saveFailedBox"));
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
  }
  void clickRow(const QString& text) {
    QTreeWidgetItem* row = test::treeRow(m_window->modelTree(), text);
    QVERIFY2(row, qPrintable(text));
    test::clickTreeRow(m_window->modelTree(), row);
  }
  QLineEdit* field(const QString& key) const { return m_window->propertyPanel()->findChild<QLineEdit*>("field:" + key); }
  static void type(QLineEdit* edit, const QString& text) { test::typeAndReturn(edit, text); }

  QTemporaryDir m_dir;
  std::unique_ptr<MainWindow> m_window;
};

int main(int argc, char** argv) {
  QStandardPaths::setTestModeEnabled(true);  // recovery files in a test folder, not the user's
  qputenv("MESA_SHADER_CACHE_DISABLE", "true");  // no cache file written while a file-size limit is on
  setDefaultSurfaceFormatForVtk();
  QApplication app(argc, argv);
  FilesTest test;
  return QTest::qExec(&test, argc, argv);
}
#include "ui_files_test.moc"
