#include "gui/main_actions.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QMainWindow>
#include <QMenuBar>
#include <QStyle>
#include <QUndoStack>

namespace fl::gui {

namespace {

QAction* make(QMainWindow* w, const QString& name, const QString& text, QStyle::StandardPixmap icon,
              const QList<QKeySequence>& keys, const QString& tip) {
  auto* a = new QAction(text, w);
  a->setObjectName(name);
  if (icon != QStyle::SP_CustomBase) a->setIcon(w->style()->standardIcon(icon));
  a->setShortcuts(keys);
  // Tooltips name the shortcut: the quickest way to learn them.
  const QString key = keys.isEmpty() ? QString() : keys.first().toString(QKeySequence::NativeText);
  a->setToolTip(key.isEmpty() ? tip : QStringLiteral("%1 (%2)").arg(tip, key));
  a->setStatusTip(tip);
  return a;
}

}  // namespace

MainActions createMainActions(QMainWindow* w, QUndoStack* undo) {
  constexpr auto none = QStyle::SP_CustomBase;
  MainActions a{};
  a.open = make(w, "actionOpen", QObject::tr("&Open…"), QStyle::SP_DialogOpenButton, {QKeySequence::Open},
                QObject::tr("Open a scenario file"));
  a.save = make(w, "actionSave", QObject::tr("&Save"), QStyle::SP_DialogSaveButton, {QKeySequence::Save},
                QObject::tr("Save the scenario"));
  a.saveAs = make(w, "actionSaveAs", QObject::tr("Save &As…"), none, {QKeySequence::SaveAs},
                  QObject::tr("Save the scenario under a new name"));
  a.exportReport = make(w, "actionExportReport", QObject::tr("Export &Report…"), none, {},
                        QObject::tr("Write an HTML or PDF report of the results"));
  a.exportImage = make(w, "actionExportImage", QObject::tr("Export &Image…"), none, {},
                       QObject::tr("Save the topology view as PNG or SVG"));
  a.quit = make(w, "actionQuit", QObject::tr("&Quit"), none, {QKeySequence::Quit}, QObject::tr("Quit FabricLab"));
  a.quit->setMenuRole(QAction::QuitRole);

  a.undo = undo->createUndoAction(w, QObject::tr("&Undo"));
  a.undo->setObjectName("actionUndo");
  a.undo->setShortcuts(QKeySequence::Undo);
  a.redo = undo->createRedoAction(w, QObject::tr("&Redo"));
  a.redo->setObjectName("actionRedo");
  a.redo->setShortcuts(QKeySequence::Redo);

  a.run = make(w, "actionRun", QObject::tr("&Run"), QStyle::SP_BrowserReload, {QKeySequence(Qt::CTRL | Qt::Key_R)},
               QObject::tr("Run the scenario (every sweep point)"));
  a.stop = make(w, "actionStop", QObject::tr("S&top"), QStyle::SP_MediaStop,
                {QKeySequence(Qt::Key_Escape), QKeySequence(Qt::CTRL | Qt::Key_Period)},
                QObject::tr("Stop the running simulation"));
  a.playPause = make(w, "actionPlayPause", QObject::tr("&Play"), QStyle::SP_MediaPlay,
                     {QKeySequence(Qt::Key_Space)}, QObject::tr("Play or pause the animation of the recorded bins"));
  a.stepForward = make(w, "actionStepForward", QObject::tr("Step &Forward"), QStyle::SP_MediaSeekForward,
                       {QKeySequence(Qt::Key_Right)}, QObject::tr("Show the next time bin"));
  a.stepBack = make(w, "actionStepBack", QObject::tr("Step &Back"), QStyle::SP_MediaSeekBackward,
                    {QKeySequence(Qt::Key_Left)}, QObject::tr("Show the previous time bin"));
  a.compare = make(w, "actionCompare", QObject::tr("&Compare Sweep Points…"), none, {},
                   QObject::tr("Show two finished sweep points side by side (traffic breakdown, bandwidth)"));
  a.compare->setEnabled(false);
  a.comparePipelines = make(w, "actionComparePipelines", QObject::tr("Compare &Pipelines…"), none, {},
                            QObject::tr("Run the shown MoE layer with another fusion scheme and compare the token "
                                        "pipelines on one time axis"));
  a.exportTrace = make(w, "actionExportTrace", QObject::tr("Export &Trace…"), none, {},
                       QObject::tr("Write the run's pipeline tasks and phases as a Chrome trace (Perfetto)"));
  a.fit = make(w, "actionFit", QObject::tr("&Fit to View"), none, {QKeySequence(Qt::CTRL | Qt::Key_0)},
               QObject::tr("Zoom the topology to fit the window"));

  a.presentation = make(w, "actionPresentation", QObject::tr("&Presentation Mode"), none, {QKeySequence(Qt::Key_F11)},
                        QObject::tr("Full screen for a projector: editing docks hidden, larger type and glyphs"));
  a.presentation->setCheckable(true);
  a.welcome = make(w, "actionWelcome", QObject::tr("&Welcome and Scenario Gallery…"), none, {},
                   QObject::tr("The bundled scenarios with a picture of each fabric"));
  a.docs = make(w, "actionDocs", QObject::tr("&Documentation"), none, {QKeySequence::HelpContents},
                QObject::tr("Open the README and the scenario key reference"));
  a.shortcuts = make(w, "actionShortcuts", QObject::tr("&Keyboard Shortcuts"), none, {},
                     QObject::tr("Every shortcut of the window"));
  a.about = make(w, "actionAbout", QObject::tr("&About FabricLab"), none, {}, QObject::tr("Version and licence"));
  a.about->setMenuRole(QAction::AboutRole);

  QMenuBar* bar = w->menuBar();
  QMenu* file = bar->addMenu(QObject::tr("&File"));
  file->addAction(a.open);
  a.recentMenu = file->addMenu(QObject::tr("Open &Recent"));
  a.recentMenu->setObjectName("menuRecent");
  file->addAction(a.save);
  file->addAction(a.saveAs);
  file->addSeparator();
  file->addAction(a.exportReport);
  file->addAction(a.exportImage);
  file->addAction(a.exportTrace);
  file->addSeparator();
  file->addAction(a.quit);

  QMenu* edit = bar->addMenu(QObject::tr("&Edit"));
  edit->addAction(a.undo);
  edit->addAction(a.redo);

  QMenu* run = bar->addMenu(QObject::tr("&Run"));
  run->addAction(a.run);
  run->addAction(a.stop);
  run->addAction(a.compare);
  run->addAction(a.comparePipelines);
  run->addSeparator();
  run->addAction(a.playPause);
  run->addAction(a.stepBack);
  run->addAction(a.stepForward);
  QMenu* speed = a.speedMenu = run->addMenu(QObject::tr("Playback &Speed"));
  a.speeds = new QActionGroup(w);
  a.speedFactors = {0.25, 0.5, 1, 2, 4, 8};
  for (double f : a.speedFactors) {
    QAction* s = speed->addAction(QObject::tr("%1 bins per frame").arg(f));
    s->setCheckable(true);
    s->setData(f);
    a.speeds->addAction(s);
  }

  a.viewMenu = bar->addMenu(QObject::tr("&View"));
  a.viewMenu->addAction(a.fit);
  a.viewMenu->addAction(a.presentation);
  a.viewMenu->addSeparator();

  a.helpMenu = bar->addMenu(QObject::tr("&Help"));
  a.helpMenu->addAction(a.welcome);
  a.helpMenu->addAction(a.docs);
  a.helpMenu->addAction(a.shortcuts);
  a.helpMenu->addSeparator();
  a.helpMenu->addAction(a.about);
  return a;
}

}  // namespace fl::gui
