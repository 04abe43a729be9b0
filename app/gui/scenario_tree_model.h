// The scenario as an editable tree built from schema(): sections (scenario, topology,
// network, workload, run) with one row per key (key, value with unit, default), the
// hierarchy's levels as child rows, and the sweep. Edits go to ScenarioDocument::edit()
// (so through undo commands and the CLI's validation); rejected edits are reported with
// editRejected() and leave the scenario unchanged.
#pragma once
#include <QAbstractItemModel>
#include <string>
#include <vector>

namespace fl {
struct ParamSpec;
}

namespace fl::gui {

class ScenarioDocument;

class ScenarioTreeModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  enum Column { KeyColumn, ValueColumn, DefaultColumn, ColumnCount };
  enum Role {
    PathRole = Qt::UserRole + 1,  // QString key path ("" for sections and level rows)
    ChoicesRole,                  // QStringList for enums and bools, else empty
    AppliesRole,                  // bool: the key matters for the current fabric/workload
  };

  explicit ScenarioTreeModel(ScenarioDocument* doc, QObject* parent = nullptr);

  // The row of a key path ("topology.link.bandwidth", "topology.levels[1].count", "sweep").
  QModelIndex indexOfPath(const QString& path, int column = ValueColumn) const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role) override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;

 signals:
  void editRejected(const QString& message);
  void editAccepted(const QString& path);

 private:
  enum class Kind { Section, Key, Level, LevelField, Sweep };
  struct Item {
    Kind kind = Kind::Key;
    QString label;
    std::string path;             // key path; level rows: "topology.levels[i]"
    const ParamSpec* spec = nullptr;
    int parent = -1;              // index into items_, -1 for sections
    int row = 0;                  // row under its parent
    std::vector<int> children;
  };

  void rebuild();
  void onScenarioChanged();
  int addItem(Kind kind, QString label, std::string path, const ParamSpec* spec, int parent);
  const Item* itemAt(const QModelIndex& index) const;
  QString valueText(const Item& item) const;
  QString toolTip(const Item& item) const;
  bool applies(const Item& item) const;
  QString sweptValues(const Item& item) const;  // "ring, nvls" for a sweep axis key

  ScenarioDocument* doc_;
  std::vector<Item> items_;
  std::vector<int> sections_;
  int levelCount_ = -1;
};

// The rich-text tooltip of a key: path, meaning, unit, range, choices and source.
QString paramToolTip(const std::string& path, const ParamSpec& spec);

}  // namespace fl::gui
