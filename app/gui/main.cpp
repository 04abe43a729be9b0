// fabriclab: the desktop app.
//
//   fabriclab [SCENARIO] [--open SCENARIO] [--screenshot FILE.png] [--report FILE.html|FILE.pdf]
//             [--show DOCK]... [--at TIME]
//
// Opens SCENARIO (default: the bundled demo; a bundled scenario's name as
// `fabriclab-cli list` shows it also works) and runs it at once. With --screenshot the
// window is grabbed when the run has finished, saved as PNG, and the app exits; with
// --report the run's report is exported as from File > Export Report (HTML, or PDF,
// which the CLI cannot write), and the app exits. Exit status 0 on success, 2 on bad
// input (unreadable or invalid scenario, unwritable output path, a TIME that is not a
// time). Both work headless with QT_QPA_PLATFORM=offscreen. --at moves the timeline to
// the bin holding TIME when the run has finished, so that a screenshot shows the views
// at that moment.
#include <QApplication>
#include <QDockWidget>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QTimer>
#include <cstdio>
#include <optional>

#include "engine/huge_pages.h"
#include "gui/dock_show.h"
#include "gui/main_window.h"
#include "gui/settings.h"
#include "gui/run_controller.h"
#include "scenario/data_dirs.h"
#include "scenario/input_error.h"
#include "scenario/quantity.h"
#include "views/run_model.h"

namespace {

constexpr int kExitBadInput = 2;

int badInput(const QString& message) {
  std::fprintf(stderr, "fabriclab: %s\n", qPrintable(message));
  return kExitBadInput;
}

// "" when `path` ends in one of `suffixes` and its directory is writable, else the error.
QString checkOutput(const QString& option, const QString& path, const QStringList& suffixes) {
  const QFileInfo info(path);
  if (!suffixes.contains(info.suffix(), Qt::CaseInsensitive))
    return QStringLiteral("%1: expected a .%2 file name, found '%3'").arg(option, suffixes.join(QStringLiteral(" or .")), path);
  const QFileInfo dir(info.absolutePath());
  if (!dir.isDir() || !dir.isWritable())
    return QStringLiteral("%1: cannot write to directory '%2'").arg(option, info.absolutePath());
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  fl::reexecWithHugePages(argv);
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("FabricLab"));
  QApplication::setApplicationName(QStringLiteral("fabriclab"));
  QApplication::setApplicationVersion(QStringLiteral(FABRICLAB_VERSION));
  // The installed .desktop file's id (packaging/), which Wayland compositors match.
  QApplication::setDesktopFileName(QStringLiteral("io.github.fabriclab.FabricLab"));
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/fabriclab.svg")));  // resources/fabriclab.qrc

  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("FabricLab: an interactive lab for GPU interconnect fabrics"));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("scenario"), QStringLiteral("Scenario file to open (YAML)."),
                               QStringLiteral("[SCENARIO]"));
  const QCommandLineOption openOption(QStringLiteral("open"), QStringLiteral("Scenario file to open."),
                                      QStringLiteral("SCENARIO"));
  const QCommandLineOption shotOption(QStringLiteral("screenshot"),
                                      QStringLiteral("Run, save a PNG of the window when done, and exit."),
                                      QStringLiteral("FILE.png"));
  const QCommandLineOption showOption(QStringLiteral("show"),
                                      QStringLiteral("Bring a dock to the front by its title or a unique start of it (repeatable), e.g. Pipeline or hot."),
                                      QStringLiteral("DOCK"));
  const QCommandLineOption atOption(QStringLiteral("at"),
                                    QStringLiteral("Move the timeline to TIME (e.g. '12 us') when the run has finished."),
                                    QStringLiteral("TIME"));
  const QCommandLineOption reportOption(
      QStringLiteral("report"), QStringLiteral("Run, export the report (HTML or PDF by extension) when done, and exit."),
      QStringLiteral("FILE"));
  parser.addOption(openOption);
  parser.addOption(atOption);
  parser.addOption(shotOption);
  parser.addOption(reportOption);
  parser.addOption(showOption);
  const QCommandLineOption presentOption(QStringLiteral("presentation"),
                                         QStringLiteral("Start in presentation mode (full screen, larger type; F11)."));
  parser.addOption(presentOption);
  if (!parser.parse(QApplication::arguments())) return badInput(parser.errorText());
  if (parser.isSet(QStringLiteral("help"))) parser.showHelp(0);
  if (parser.isSet(QStringLiteral("version"))) parser.showVersion();

  const QStringList positional = parser.positionalArguments();
  if (positional.size() > 1 || (positional.size() == 1 && parser.isSet(openOption)))
    return badInput(QStringLiteral("give one scenario (SCENARIO or --open SCENARIO)"));
  QString path = parser.isSet(openOption) ? parser.value(openOption)
                 : positional.isEmpty()   ? QString::fromStdString((fl::bundledScenarioDir() / "default.yaml").string())
                                          : positional.first();
  try {
    path = QString::fromStdString(fl::resolveScenarioArgument(path.toStdString(), "SCENARIO"));
  } catch (const fl::InputError& e) {
    return badInput(QString::fromStdString(e.what()));
  }

  const QString shotPath = parser.value(shotOption);
  const QString reportPath = parser.value(reportOption);
  if (parser.isSet(shotOption)) {
    const QString e = checkOutput(QStringLiteral("--screenshot"), shotPath, {QStringLiteral("png")});
    if (!e.isEmpty()) return badInput(e);
  }
  if (parser.isSet(reportOption)) {
    const QString e = checkOutput(QStringLiteral("--report"), reportPath,
                                  {QStringLiteral("html"), QStringLiteral("htm"), QStringLiteral("pdf")});
    if (!e.isEmpty()) return badInput(e);
  }
  // Batch: run, write the outputs asked for, exit.
  const bool batch = parser.isSet(shotOption) || parser.isSet(reportOption);

  std::optional<fl::Time> at;
  if (parser.isSet(atOption)) {
    try {
      at = fl::parseTime(parser.value(atOption).toStdString(), "--at");
    } catch (const fl::InputError& e) {
      return badInput(QString::fromStdString(e.what()));
    }
  }

  fl::gui::MainWindowOptions options;
  options.autosave = !batch;
  options.restoreLayout = !batch;  // screenshots and reports look the same on every machine
  fl::gui::MainWindow window(options);
  int exitCode = 0;
  if (at)  // the first run only; connected before the screenshot's handler, which grabs after it
    QObject::connect(window.controller(), &fl::gui::RunController::runFinished, &app, [&] {
      fl::views::RunModel* m = window.runModel();
      if (at && m->binWidth() > 0) m->setCurrentBin(int(*at / m->binWidth()));
      at.reset();
    });
  QList<QDockWidget*> shown;  // --show docks, raised again before a screenshot (results raise others)
  if (batch) {
    QObject::connect(window.controller(), &fl::gui::RunController::failed, &app, [&](const QString& message) {
      exitCode = badInput(message);
      // Queued: a failure reported before exec() starts must still end the loop.
      QMetaObject::invokeMethod(&app, [&] { QApplication::exit(exitCode); }, Qt::QueuedConnection);
    });
    QObject::connect(window.controller(), &fl::gui::RunController::runFinished, &app, [&] {
      if (exitCode != 0) return;
      // Let the views repaint from the final results before grabbing.
      QTimer::singleShot(400, &app, [&] {
        for (QDockWidget* d : shown) d->raise();
        QApplication::processEvents();
        if (!reportPath.isEmpty()) {
          const QString e = window.exportReportTo(reportPath);
          if (!e.isEmpty()) exitCode = badInput(QStringLiteral("--report: %1").arg(e));
        }
        if (!shotPath.isEmpty() && !window.grab().save(shotPath, "PNG"))
          exitCode = badInput(QStringLiteral("--screenshot: cannot write '%1'").arg(shotPath));
        QApplication::exit(exitCode);
      });
    });
  }
  // A file named on the command line must open; a broken bundled default still shows the
  // window, with the error in its status bar.
  const bool named = !positional.isEmpty() || parser.isSet(openOption);
  const QString error = window.startup(path, !batch);
  if (!error.isEmpty() && (batch || named)) return badInput(error);
  // Docks named by --show come to the front of their tab group (screenshots, demos).
  const fl::gui::DockShowRequest request = fl::gui::findDocksToShow(window, parser.values(showOption));
  if (!request.error.isEmpty()) return badInput(request.error);
  shown = request.docks;
  fl::gui::raiseDocksSoon(window, shown);
  window.show();
  if (parser.isSet(presentOption)) window.setPresentationMode(true);
  // The first start (no scenario named) opens on the welcome page and its gallery.
  if (!batch && !named && !fl::gui::Settings::welcomeShown()) {
    fl::gui::Settings::setWelcomeShown();
    QTimer::singleShot(0, &window, [&window] { window.showWelcome(); });
  }
  const int rc = QApplication::exec();
  return batch ? exitCode : rc;
}
