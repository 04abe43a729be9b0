// The main window as the GUI tests open it: no autosave, the default dock layout unless
// `restoreLayout`, unsaved changes discarded without asking; and waiting for its run.
#pragma once
#include <QElapsedTimer>
#include <QMessageBox>
#include <QtTest>
#include <memory>

#include "gui/main_window.h"
#include "gui/run_controller.h"
#include "../common/test_waits.h"

namespace fl::gui::test {

inline std::unique_ptr<MainWindow> makeWindow(bool restoreLayout = false, bool show = true) {
  MainWindowOptions o;
  o.autosave = false;
  o.restoreLayout = restoreLayout;
  auto w = std::make_unique<MainWindow>(o);
  w->setSavePrompt([] { return QMessageBox::Discard; });
  if (show) w->show();
  return w;
}

// Until the window's run (or sweep) has finished; false when `ms` (scaled: waitMs) ran out first.
inline bool waitIdle(MainWindow& w, int ms = 60000) {
  QElapsedTimer timer;
  timer.start();
  while (w.controller()->isBusy() && timer.elapsed() < fl::test::waitMs(ms)) QTest::qWait(20);
  return !w.controller()->isBusy();
}

}  // namespace fl::gui::test
