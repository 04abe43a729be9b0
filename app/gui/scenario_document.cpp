#include "gui/scenario_document.h"

#include <QFileInfo>
#include <memory>

#include "gui/cmd_set_levels.h"
#include "gui/cmd_set_parameter.h"
#include "gui/cmd_set_preset.h"
#include "gui/cmd_set_sweep.h"
#include "gui/cmd_set_topology_kind.h"
#include "scenario/input_error.h"
#include "scenario/scenario_io.h"
#include "scenario/schema.h"
#include "scenario/sweep.h"
#include "scenario/validate.h"

namespace fl::gui {

namespace {
// As many points as the loader checks; larger sweeps are checked when they run.
constexpr std::size_t kMaxSweepPointsChecked = 4096;
}  // namespace

void validateEdited(const Scenario& s, const std::string& editedKey) {
  validateScenario(s, [&](std::string_view path) { return path == editedKey; });
  if (s.sweep.empty() || sweepPointCount(s) > kMaxSweepPointsChecked) return;
  for (const SweepSettings& point : sweepPoints(s)) sweepPointScenario(s, point);
}

ScenarioDocument::ScenarioDocument(QObject* parent) : QObject(parent) {
  connect(&undo_, &QUndoStack::cleanChanged, this, [this] {
    const bool m = isModified();
    if (m != lastModified_) emit modifiedChanged(lastModified_ = m);
  });
}

QString ScenarioDocument::displayName() const {
  return filePath_.isEmpty() ? tr("untitled") : QFileInfo(filePath_).fileName();
}

void ScenarioDocument::setForcedModified(bool on) {
  forcedModified_ = on;
  const bool m = isModified();
  if (m != lastModified_) emit modifiedChanged(lastModified_ = m);
}

void ScenarioDocument::reset(const Scenario& s, const QString& filePath, bool modified) {
  undo_.clear();
  scenario_ = s;
  if (filePath != filePath_) {
    filePath_ = filePath;
    emit filePathChanged(filePath_);
  }
  setForcedModified(modified);
  emit documentReset();
  emit changed();
}

void ScenarioDocument::load(const QString& path) {
  const Scenario s = loadScenario(path.toStdString());  // throws before anything changes
  reset(s, path);
}

void ScenarioDocument::save(const QString& path) {
  saveScenario(scenario_, path.toStdString());
  if (path != filePath_) {
    filePath_ = path;
    emit filePathChanged(filePath_);
  }
  undo_.setClean();
  setForcedModified(false);
}

std::string ScenarioDocument::valueText(const std::string& path) const {
  if (path == "sweep") return SetSweepCommand::sweepText(scenario_.sweep);
  return getValue(scenario_, path);
}

QString ScenarioDocument::edit(const std::string& path, const std::string& text) {
  try {
    if (valueText(path) == text) return {};  // re-typing the same value is no edit
    std::unique_ptr<ScenarioCommand> cmd;
    if (path == "topology.preset") cmd = std::make_unique<SetPresetCommand>(this, text);
    else if (path == "topology.kind") cmd = std::make_unique<SetTopologyKindCommand>(this, text);
    else if (path == "topology.levels") cmd = std::make_unique<SetLevelsCommand>(this, text);
    else if (path == "sweep") cmd = std::make_unique<SetSweepCommand>(this, text);
    else cmd = std::make_unique<SetParameterCommand>(this, path, text);
    Scenario after = scenario_;
    cmd->apply(after, true);
    if (after == scenario_) return {};  // e.g. "25GB/s" for "25 GB/s"
    validateEdited(after, path);
    undo_.push(cmd.release());  // runs redo()
    return {};
  } catch (const InputError& e) {
    return QString::fromStdString(e.what());
  }
}

void ScenarioDocument::applyFromCommand(const Scenario& s) {
  scenario_ = s;
  emit changed();
  emit edited();
}

}  // namespace fl::gui
