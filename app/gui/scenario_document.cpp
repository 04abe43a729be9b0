#include "gui/scenario_document.h"

#include <QFileInfo>
#include <algorithm>
#include <memory>

#include "gui/cmd_set_levels.h"
#include "gui/cmd_set_parameter.h"
#include "gui/cmd_edit_mapping.h"
#include "gui/cmd_set_parameters.h"
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
  validateEdited(s, std::vector<std::string>{editedKey});
}

void validateEdited(const Scenario& s, const std::vector<std::string>& editedKeys) {
  validateScenario(s, [&](std::string_view path) {
    return std::find(editedKeys.begin(), editedKeys.end(), path) != editedKeys.end();
  });
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
  return pushChecked([&]() -> std::unique_ptr<ScenarioCommand> {
    if (valueText(path) == text) return nullptr;  // re-typing the same value is no edit
    if (path == "topology.preset") return std::make_unique<SetPresetCommand>(this, text);
    if (path == "topology.kind") return std::make_unique<SetTopologyKindCommand>(this, text);
    if (path == "topology.levels") return std::make_unique<SetLevelsCommand>(this, text);
    if (path == "sweep") return std::make_unique<SetSweepCommand>(this, text);
    return std::make_unique<SetParameterCommand>(this, path, text);
  }, {path});
}

QString ScenarioDocument::editAll(const std::vector<std::pair<std::string, std::string>>& assignments,
                                  const QString& label) {
  std::vector<std::string> keys;
  for (const auto& a : assignments) keys.push_back(a.first);
  return pushChecked([&] { return std::make_unique<SetParametersCommand>(this, assignments, label); }, keys);
}

QString ScenarioDocument::editMapping(const std::vector<std::vector<std::int64_t>>& groups, const QString& label) {
  return pushChecked([&] { return std::make_unique<EditMappingCommand>(this, groups, label); },
                     {"mapping.kind", "mapping.groups"});
}

QString ScenarioDocument::pushChecked(const std::function<std::unique_ptr<ScenarioCommand>()>& make,
                                      const std::vector<std::string>& keys) {
  try {
    std::unique_ptr<ScenarioCommand> cmd = make();
    if (!cmd) return {};
    Scenario after = scenario_;
    cmd->apply(after, true);
    if (after == scenario_) return {};  // e.g. "25GB/s" for "25 GB/s"
    validateEdited(after, keys);
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
