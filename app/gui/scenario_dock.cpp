#include "gui/scenario_dock.h"

#include <QEvent>
#include <QHeaderView>
#include <algorithm>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

#include "gui/scenario_document.h"
#include "gui/scenario_tree_model.h"
#include "gui/value_delegate.h"
#include "views/format_units.h"

namespace fl::gui {

ScenarioDock::ScenarioDock(ScenarioDocument* doc, QWidget* parent)
    : QDockWidget(tr("Scenario"), parent) {
  setObjectName(QStringLiteral("ScenarioDock"));
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(2, 2, 2, 2);

  model_ = new ScenarioTreeModel(doc, this);
  view_ = new QTreeView(body);
  view_->setModel(model_);
  view_->setItemDelegateForColumn(ScenarioTreeModel::ValueColumn, new ValueDelegate(view_));
  view_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                         QAbstractItemView::SelectedClicked);
  view_->setAlternatingRowColors(true);
  // Values wrap rather than elide (ValueDelegate): rows follow the value column's width.
  view_->setUniformRowHeights(false);
  view_->setWordWrap(true);
  view_->header()->setSectionResizeMode(ScenarioTreeModel::KeyColumn, QHeaderView::Interactive);
  view_->header()->setSectionResizeMode(ScenarioTreeModel::ValueColumn, QHeaderView::Stretch);
  // Defaults are secondary: a fixed, narrow column (the tooltip has the full text).
  view_->header()->setSectionResizeMode(ScenarioTreeModel::DefaultColumn, QHeaderView::Interactive);
  view_->header()->resizeSection(ScenarioTreeModel::DefaultColumn, 72);
  view_->header()->setStretchLastSection(false);
  layout->addWidget(view_, 1);
  view_->viewport()->installEventFilter(this);
  connect(view_->header(), &QHeaderView::sectionResized, view_, [this](int section) {
    if (section == ScenarioTreeModel::ValueColumn) view_->doItemsLayout();
  });

  error_ = views::makeErrorLabel(body);
  error_->setObjectName(QStringLiteral("scenarioError"));
  layout->addWidget(error_);

  auto* hint = new QLabel(tr("Double-click a value to edit it; units as in files (25 GB/s, 250 ns)."), body);
  hint->setWordWrap(true);
  hint->setEnabled(false);  // secondary text
  layout->addWidget(hint);
  setWidget(body);

  connect(model_, &ScenarioTreeModel::editRejected, this, &ScenarioDock::showError);
  connect(model_, &ScenarioTreeModel::editAccepted, this, &ScenarioDock::clearError);
  connect(model_, &QAbstractItemModel::modelReset, this, &ScenarioDock::expandSections);
  connect(model_, &QAbstractItemModel::modelReset, this, &ScenarioDock::fitColumns);
  connect(doc, &ScenarioDocument::documentReset, this, &ScenarioDock::clearError);
  expandSections();
}

bool ScenarioDock::eventFilter(QObject* watched, QEvent* event) {
  if (watched == view_->viewport() && event->type() == QEvent::Resize) fitColumns();
  return QDockWidget::eventFilter(watched, event);
}

void ScenarioDock::fitColumns() {
  const int width = view_->viewport()->width();
  if (width <= 0) return;
  view_->setColumnHidden(ScenarioTreeModel::DefaultColumn, width < 420);
  // Keys as wide as they need up to 45 %; in a narrow dock the values keep at least
  // 180 px where the keys can spare it (down to 35 %): squeezed below ~120 px, values
  // wrapped a word per line ("communication-" / "bound" / "MoE").
  const int need = static_cast<QAbstractItemView*>(view_)->sizeHintForColumn(ScenarioTreeModel::KeyColumn) + 8;
  const int key = std::min(need, std::clamp(width - 180, width * 35 / 100, width * 45 / 100));
  if (view_->columnWidth(ScenarioTreeModel::KeyColumn) != key) view_->setColumnWidth(ScenarioTreeModel::KeyColumn, key);
}

QString ScenarioDock::errorText() const { return error_->isHidden() ? QString() : error_->text(); }

void ScenarioDock::showError(const QString& message) {
  error_->setText(message);
  error_->show();
}

void ScenarioDock::clearError() {
  error_->clear();
  error_->hide();
}

void ScenarioDock::expandSections() {
  // Sections open; level rows stay closed so that a deep hierarchy stays short.
  for (int r = 0; r < model_->rowCount(); ++r) view_->expand(model_->index(r, 0));
  const QModelIndex levels = model_->indexOfPath(QStringLiteral("topology.levels"), 0);
  if (levels.isValid()) view_->expand(levels);
}

}  // namespace fl::gui
