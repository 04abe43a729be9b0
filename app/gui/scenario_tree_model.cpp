#include "gui/scenario_tree_model.h"

#include <QFont>
#include <QGuiApplication>
#include <QPalette>
#include <QTimer>

#include "gui/scenario_document.h"
#include "scenario/input_error.h"
#include "scenario/schema.h"
#include "scenario/schema_values.h"  // the schema's own rules for level fields
#include "views/format_units.h"

namespace fl::gui {

namespace {

std::string sectionOf(const std::string& path) {
  const auto dot = path.find('.');
  return dot == std::string::npos ? "scenario" : path.substr(0, dot);
}

QString q(const std::string& s) { return QString::fromStdString(s); }

// The doc line's "nvswitch:", "mesh and hierarchy:", "p2p:" ... prefix says which
// fabrics or workloads a key is for.
std::string docScope(const ParamSpec& p) {
  const auto colon = p.doc.find(':');
  return colon == std::string::npos ? std::string() : p.doc.substr(0, colon);
}

}  // namespace

ScenarioTreeModel::ScenarioTreeModel(ScenarioDocument* doc, QObject* parent)
    : QAbstractItemModel(parent), doc_(doc) {
  rebuild();
  connect(doc_, &ScenarioDocument::changed, this, &ScenarioTreeModel::onScenarioChanged);
}

int ScenarioTreeModel::addItem(Kind kind, QString label, std::string path, const ParamSpec* spec, int parent) {
  Item item;
  item.kind = kind;
  item.label = std::move(label);
  item.path = std::move(path);
  item.spec = spec;
  item.parent = parent;
  items_.push_back(std::move(item));
  const int id = static_cast<int>(items_.size()) - 1;
  Item& it = items_.back();
  if (it.parent >= 0) {
    it.row = static_cast<int>(items_[static_cast<size_t>(it.parent)].children.size());
    items_[static_cast<size_t>(it.parent)].children.push_back(id);
  } else {
    it.row = static_cast<int>(sections_.size());
    sections_.push_back(id);
  }
  return id;
}

void ScenarioTreeModel::rebuild() {
  items_.clear();
  sections_.clear();
  const Scenario& s = doc_->scenario();
  levelCount_ = static_cast<int>(s.topology.levels.size());
  // Sections come from the schema itself (the first part of each key path, top-level
  // keys under "scenario"), in schema order, so new key groups appear without edits here.
  std::vector<std::pair<std::string, int>> sectionIds;
  sectionIds.push_back({"scenario", addItem(Kind::Section, QStringLiteral("scenario"), {}, nullptr, -1)});
  auto sectionId = [&](const std::string& name) {
    for (const auto& [n, id] : sectionIds)
      if (n == name) return id;
    sectionIds.push_back({name, addItem(Kind::Section, q(name), {}, nullptr, -1)});
    return sectionIds.back().second;
  };
  for (const ParamSpec& p : schema()) {
    const std::string section = sectionOf(p.path);
    const int parent = sectionId(section);
    const QString label = section == "scenario" ? q(p.path) : q(p.path.substr(section.size() + 1));
    const int id = addItem(Kind::Key, label, p.path, &p, parent);
    if (p.path != "topology.levels") continue;
    for (int i = 0; i < levelCount_; ++i) {
      const std::string lp = "topology.levels[" + std::to_string(i) + "]";
      const int level = addItem(Kind::Level, QStringLiteral("[%1] %2").arg(i).arg(q(s.topology.levels[size_t(i)].name)),
                                 lp, nullptr, id);
      for (const ParamSpec& f : detail::levelFieldSpecs())
        addItem(Kind::LevelField, q(f.path), lp + "." + f.path, &f, level);
    }
  }
  addItem(Kind::Sweep, QStringLiteral("sweep"), "sweep", nullptr, sectionIds.front().second);
}

void ScenarioTreeModel::onScenarioChanged() {
  if (static_cast<int>(doc_->scenario().topology.levels.size()) != levelCount_) {
    // Rows come and go: reset after the current event (an editor may be committing).
    QTimer::singleShot(0, this, [this] {
      beginResetModel();
      rebuild();
      endResetModel();
    });
    return;
  }
  for (size_t id = 0; id < items_.size(); ++id) {
    Item& it = items_[id];
    if (it.kind == Kind::Level)  // "[1] node": the name may have been edited
      it.label = QStringLiteral("[%1] %2").arg(it.row).arg(q(doc_->scenario().topology.levels[size_t(it.row)].name));
    if (it.children.empty()) continue;
    const QModelIndex p = createIndex(it.row, 0, quintptr(id));
    emit dataChanged(index(0, 0, p), index(static_cast<int>(it.children.size()) - 1, ColumnCount - 1, p));
  }
}

const ScenarioTreeModel::Item* ScenarioTreeModel::itemAt(const QModelIndex& index) const {
  if (!index.isValid() || index.internalId() >= items_.size()) return nullptr;
  return &items_[index.internalId()];
}

QModelIndex ScenarioTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (column < 0 || column >= ColumnCount || row < 0) return {};
  const std::vector<int>& rows = parent.isValid() ? itemAt(parent)->children : sections_;
  if (parent.isValid() && parent.column() != 0) return {};
  if (row >= static_cast<int>(rows.size())) return {};
  return createIndex(row, column, quintptr(rows[size_t(row)]));
}

QModelIndex ScenarioTreeModel::parent(const QModelIndex& child) const {
  const Item* it = itemAt(child);
  if (!it || it->parent < 0) return {};
  return createIndex(items_[size_t(it->parent)].row, 0, quintptr(it->parent));
}

int ScenarioTreeModel::rowCount(const QModelIndex& parent) const {
  if (!parent.isValid()) return static_cast<int>(sections_.size());
  if (parent.column() != 0) return 0;
  const Item* it = itemAt(parent);
  return it ? static_cast<int>(it->children.size()) : 0;
}

int ScenarioTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QModelIndex ScenarioTreeModel::indexOfPath(const QString& path, int column) const {
  const std::string p = path.toStdString();
  for (size_t i = 0; i < items_.size(); ++i)
    if (items_[i].path == p && items_[i].kind != Kind::Section)
      return createIndex(items_[i].row, column, quintptr(i));
  return {};
}

QString ScenarioTreeModel::valueText(const Item& item) const {
  try {
    if (item.kind == Kind::Level) {
      const LevelSpec& l = doc_->scenario().topology.levels.at(size_t(item.row));
      return QStringLiteral("%1 × %2, %3")
          .arg(l.count)
          .arg(q(getValue(doc_->scenario(), item.path + ".bandwidth")),
               q(getValue(doc_->scenario(), item.path + ".latency")));
    }
    if (item.kind == Kind::Section) return {};
    return q(doc_->valueText(item.path));
  } catch (const std::exception&) {
    return {};  // a row of a level being removed, until the deferred reset
  }
}

QString ScenarioTreeModel::toolTip(const Item& item) const {
  if (item.kind == Kind::Sweep)
    return tr("Runs the scenario once per point of the cartesian product of the axes.\n"
              "Example: [{key: workload.collective.size, values: [1 MiB, 16 MiB]}]");
  if (item.kind == Kind::Level) return tr("One level of the hierarchy, outermost first");
  return item.spec ? paramToolTip(item.path, *item.spec) : QString();
}

QString paramToolTip(const std::string& path, const ParamSpec& p) {
  QString tip = QStringLiteral("<b>%1</b><br>%2").arg(q(path).toHtmlEscaped(), q(p.doc).toHtmlEscaped());
  if (!p.unit.empty()) tip += ScenarioTreeModel::tr("<br>Unit: %1 (any unit of the same kind is accepted)").arg(q(p.unit));
  if (const std::string r = p.rangeText(); !r.empty())
    tip += ScenarioTreeModel::tr("<br>Range: %1").arg(q(r).toHtmlEscaped());
  if (!p.choices.empty()) tip += ScenarioTreeModel::tr("<br>Choices: %1").arg(q([&] {
    std::string c;
    for (const auto& x : p.choices) c += (c.empty() ? "" : ", ") + x;
    return c;
  }()));
  if (!p.source.empty()) tip += ScenarioTreeModel::tr("<br>Source: %1").arg(q(p.source).toHtmlEscaped());
  return tip;
}

QString ScenarioTreeModel::sweptValues(const Item& item) const {
  if (item.kind != Kind::Key && item.kind != Kind::LevelField) return {};
  QStringList values;
  for (const SweepAxis& a : doc_->scenario().sweep)
    if (a.key == item.path)
      for (const std::string& v : a.values) values << q(v);
  return values.join(QStringLiteral(", "));
}

bool ScenarioTreeModel::applies(const Item& item) const {
  if (!item.spec || item.kind == Kind::LevelField) return true;
  const Scenario& s = doc_->scenario();
  const std::string scope = docScope(*item.spec);
  const auto has = [&](const char* w) { return scope.find(w) != std::string::npos; };
  if (item.path.rfind("topology.", 0) == 0) {
    if (item.path == "topology.preset") return s.topology.kind == TopologyKind::NvSwitch;
    if (!has("nvswitch") && !has("mesh") && !has("hierarchy")) return true;
    switch (s.topology.kind) {
      case TopologyKind::NvSwitch: return has("nvswitch");
      case TopologyKind::Mesh: return has("mesh");
      case TopologyKind::Hierarchy: return has("hierarchy");
    }
  }
  if (item.path.rfind("workload.collective.", 0) == 0) {
    if (s.workload.kind != WorkloadKind::Collective) return false;
    if (scope == "p2p") return s.workload.collective.op == CollectiveOp::P2P;
    if (scope.rfind("all_to_all_v", 0) == 0) return s.workload.collective.op == CollectiveOp::AllToAllV;
  }
  // The GPU compute model and the MoE schemes only matter to MoE layers.
  if (item.path.rfind("workload.moe.", 0) == 0 || item.path.rfind("gpu.", 0) == 0 ||
      item.path.rfind("scheme.", 0) == 0)
    return s.workload.kind == WorkloadKind::MoeLayer;
  if (item.path.rfind("workload.traffic.", 0) == 0) {
    if (s.workload.kind != WorkloadKind::Traffic) return false;
    if (scope == "hotspot") return s.workload.traffic.pattern == TrafficPattern::Hotspot;
  }
  return true;
}

QVariant ScenarioTreeModel::data(const QModelIndex& index, int role) const {
  const Item* it = itemAt(index);
  if (!it) return {};
  switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
      if (index.column() == KeyColumn) return it->label;
      if (index.column() == ValueColumn) {
        if (role == Qt::EditRole) return valueText(*it);
        // A swept key's own value is only the base: say what the runs use instead. A 0
        // that means something else ("no limit") says so.
        const QString swept = sweptValues(*it);
        const QString shown = it->spec ? q(it->spec->describe(valueText(*it).toStdString())) : valueText(*it);
        return views::displayUnits(swept.isEmpty() ? shown : tr("%1 (swept: %2)").arg(shown, swept));
      }
      if (index.column() == DefaultColumn && it->spec && it->kind == Kind::Key)
        return views::displayUnits(q(it->spec->describe(it->spec->defaultText)));
      return {};
    case Qt::ToolTipRole:
      if (index.column() != KeyColumn && it->kind != Kind::Section) {
        // The value column is narrow: its tooltip starts with the whole value.
        const QString v = index.column() == ValueColumn ? views::displayUnits(valueText(*it))
                                                         : data(index, Qt::DisplayRole).toString();
        if (!v.isEmpty()) return QStringLiteral("<p><code>%1</code></p>%2").arg(v.toHtmlEscaped(), toolTip(*it));
      }
      return toolTip(*it);
    case PathRole: return q(it->path);
    case ChoicesRole: {
      if (!it->spec) return QStringList();
      if (it->spec->type == "bool") return QStringList{"false", "true"};
      QStringList c;
      for (const auto& x : it->spec->choices) c << q(x);
      return c;
    }
    case AppliesRole: return applies(*it);
    case Qt::FontRole: {
      QFont f;
      if (it->kind == Kind::Section) f.setBold(true);
      if (index.column() == ValueColumn && !sweptValues(*it).isEmpty()) f.setItalic(true);
      // Values that differ from the default stand out, as in a settings editor.
      if (index.column() == ValueColumn && it->kind == Kind::Key && it->spec &&
          valueText(*it) != q(it->spec->defaultText))
        f.setBold(true);
      return f;
    }
    case Qt::ForegroundRole:
      if (!applies(*it) || index.column() == DefaultColumn)
        return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
      return {};
    default: return {};
  }
}

bool ScenarioTreeModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  const Item* it = itemAt(index);
  if (!it || role != Qt::EditRole || !(flags(index) & Qt::ItemIsEditable)) return false;
  const std::string path = it->path;
  const QString error = doc_->edit(path, value.toString().trimmed().toStdString());
  if (!error.isEmpty()) {
    emit editRejected(error);
    return false;
  }
  emit editAccepted(q(path));
  return true;
}

Qt::ItemFlags ScenarioTreeModel::flags(const QModelIndex& index) const {
  const Item* it = itemAt(index);
  if (!it) return Qt::NoItemFlags;
  Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
  if (index.column() == ValueColumn && it->kind != Kind::Section && it->kind != Kind::Level)
    f |= Qt::ItemIsEditable;
  return f;
}

QVariant ScenarioTreeModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case KeyColumn: return tr("Key");
    case ValueColumn: return tr("Value");
    case DefaultColumn: return tr("Default");
    default: return {};
  }
}

}  // namespace fl::gui
