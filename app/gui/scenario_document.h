// The scenario being edited: its value, the file it came from, its undo stack and
// whether it has unsaved changes. Every edit goes through edit(), which checks it with
// the schema and validateScenario() (the CLI's messages) before pushing the matching
// undo command, so the document never holds an invalid scenario.
#pragma once
#include <QObject>
#include <QString>
#include <QUndoStack>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "scenario/scenario.h"

namespace fl::gui {

class ScenarioCommand;

class ScenarioDocument : public QObject {
  Q_OBJECT
 public:
  explicit ScenarioDocument(QObject* parent = nullptr);

  const Scenario& scenario() const { return scenario_; }
  QString filePath() const { return filePath_; }
  QString displayName() const;  // file name, or "untitled"
  QUndoStack* undoStack() { return &undo_; }
  bool isModified() const { return !undo_.isClean() || forcedModified_; }

  // Replaces the document (open, recovery): clears the undo stack. `modified` marks a
  // restored recovery file as unsaved.
  void reset(const Scenario& s, const QString& filePath, bool modified = false);
  // Loads and validates a file; throws fl::InputError and leaves the document unchanged.
  void load(const QString& path);
  // Atomic save (temporary file + rename); throws fl::InputError naming the file.
  void save(const QString& path);

  // Sets one key from text, exactly as a file or --set would. Returns "" when applied,
  // else the InputError message, the scenario unchanged. Paths: schema keys, element
  // paths "topology.levels[i].<field>", and "sweep" (a YAML flow list of axes).
  QString edit(const std::string& path, const std::string& text);
  // Sets several keys as one undo step (one user gesture), checked together: the
  // combination must validate, not each key alone. `label` names the step ("" = default).
  QString editAll(const std::vector<std::pair<std::string, std::string>>& assignments, const QString& label = {});

  // The mapping editor's swap (gui/cmd_edit_mapping.h): mapping.kind explicit with these
  // TP groups, as one undo step, checked like every edit. Returns "" or the message.
  QString editMapping(const std::vector<std::vector<std::int64_t>>& groups, const QString& label);

  // The current text of a path (getValue, or the sweep's flow text).
  std::string valueText(const std::string& path) const;

  // For undo commands only: installs a scenario they computed.
  void applyFromCommand(const Scenario& s);

 signals:
  void changed();          // the scenario value changed (edit, undo, redo, reset)
  void edited();           // ... by an edit, undo or redo (not by reset)
  void documentReset();    // a different document (open, recovery)
  void modifiedChanged(bool modified);
  void filePathChanged(const QString& path);

 private:
  void setForcedModified(bool on);
  // Builds a command (null: no edit), checks its result with `keys` as the edited keys
  // and pushes it; returns "" or the InputError message.
  QString pushChecked(const std::function<std::unique_ptr<ScenarioCommand>()>& make,
                      const std::vector<std::string>& keys);

  Scenario scenario_;
  QString filePath_;
  QUndoStack undo_;
  bool forcedModified_ = false;
  bool lastModified_ = false;
};

// Checks every combination (validateScenario naming `editedKey` when involved) and each
// sweep point, as the loader does. Throws fl::InputError.
void validateEdited(const Scenario& s, const std::string& editedKey);
// The same when several keys were edited together.
void validateEdited(const Scenario& s, const std::vector<std::string>& editedKeys);

}  // namespace fl::gui
