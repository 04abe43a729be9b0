#include "gui/scenario_dock.h"

#include <QEvent>
#include <QHeaderView>
#include <algorithm>
#include <functional>
#include <QLabel>
#include <QScrollBar>
#include <QTreeView>
#include <QVBoxLayout>

#include "gui/scenario_document.h"
#include "gui/scenario_tree_model.h"
#include "gui/key_delegate.h"
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
  values_ = new ValueDelegate(view_);
  view_->setItemDelegateForColumn(ScenarioTreeModel::ValueColumn, values_);
  view_->setItemDelegateForColumn(ScenarioTreeModel::KeyColumn, new KeyDelegate(view_));
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
  // Room for a key and a wrapped value: a narrowing window takes its width from the
  // canvas and the right column first (it once squeezed this dock to ~70 px).
  view_->setMinimumWidth(236);
  view_->viewport()->installEventFilter(this);
  connect(view_->header(), &QHeaderView::sectionResized, view_, [this](int section) {
    if (section != ScenarioTreeModel::DefaultColumn) view_->doItemsLayout();  // both wrap
  });
  indentation_ = view_->indentation();

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
  // As if the vertical scroll bar were shown: it comes and goes as rows wrap, and its
  // arrival did not always re-fit the columns (keys then reached under the values).
  const QScrollBar* bar = view_->verticalScrollBar();
  const int width = view_->viewport()->width() - (bar->isVisible() ? 0 : bar->sizeHint().width());
  if (width <= 0) return;
  view_->setColumnHidden(ScenarioTreeModel::DefaultColumn, width < 420);
  // Narrower than ~260 px of dock, keys wrapped at every separator in a ~100 px column
  // ("wafers.border_" / "bandwidth"): there each key goes above its value instead, on
  // the whole width, the tree's indentation moved to the value column.
  if (const bool stack = width < kStackBelow; stack != keysStacked()) {
    values_->setKeyAbove(stack);
    view_->setTreePosition(stack ? ScenarioTreeModel::ValueColumn : ScenarioTreeModel::KeyColumn);
    view_->setColumnHidden(ScenarioTreeModel::KeyColumn, stack);
    view_->doItemsLayout();
  }
  if (keysStacked()) {
    const int indent = std::min(indentation_, 12);
    if (view_->indentation() != indent) view_->setIndentation(indent);
    return;
  }
  // A narrow dock indents less: the keys keep the room (a key is two levels deep).
  const int indent = width < 330 ? std::min(indentation_, 12) : indentation_;
  if (view_->indentation() != indent) view_->setIndentation(indent);
  // Keys as wide as they need on one line up to 45 %; in a narrow dock the values keep
  // at least 170 px where the keys can spare it (down to 40 %): squeezed below ~120 px,
  // values wrapped a word per line ("communication-" / "bound" / "MoE"). Keys wrap
  // after their separators where they are cut (KeyDelegate), never inside a word.
  // Wider where a key's part would otherwise break between letters ("descriptio" / "n"),
  // as long as the values keep 120 px.
  const KeyWidths keys = keyWidths(indent);
  const int margins = 12;  // the delegate's text margins and some air
  int key = std::min(keys.whole + margins, std::clamp(width - 170, width * 40 / 100, width * 45 / 100));
  key = std::max(key, std::min(keys.part + margins, width - 120));
  // Below ~200 px the keys' 40 % floor would squeeze the values under 120 px (a value a
  // word per line); there the values win, and a key part wider than its column is
  // elided (KeyDelegate; the full key in its tooltip).
  key = std::min(key, std::max(width - 120, 40));
  if (view_->columnWidth(ScenarioTreeModel::KeyColumn) != key) view_->setColumnWidth(ScenarioTreeModel::KeyColumn, key);
}

// The key column's widths: each key on one line, and each key's widest part between
// separators (what KeyDelegate keeps whole), indentation included for `indent`.
ScenarioDock::KeyWidths ScenarioDock::keyWidths(int indent) const {
  const QFontMetrics plain(view_->font());
  QFont boldFont = view_->font();
  boldFont.setBold(true);
  const QFontMetrics bold(boldFont);
  KeyWidths out;
  std::function<void(const QModelIndex&, int)> walk = [&](const QModelIndex& parent, int depth) {
    for (int r = 0; r < model_->rowCount(parent); ++r) {
      const QModelIndex key = model_->index(r, ScenarioTreeModel::KeyColumn, parent);
      const QString text = key.data(Qt::DisplayRole).toString();
      const QFontMetrics& fm = key.data(Qt::FontRole).value<QFont>().bold() ? bold : plain;
      const int lead = depth * indent;
      out.whole = std::max(out.whole, lead + fm.horizontalAdvance(text));
      QString part;
      for (const QChar c : text) {
        part += c;
        if (c == u'.' || c == u'_' || c == u' ') out.part = std::max(out.part, lead + fm.horizontalAdvance(part)), part.clear();
      }
      out.part = std::max(out.part, lead + fm.horizontalAdvance(part));
      if (model_->rowCount(key) > 0 && view_->isExpanded(key)) walk(key, depth + 1);
    }
  };
  walk({}, view_->rootIsDecorated() ? 1 : 0);
  return out;
}

bool ScenarioDock::keysStacked() const { return values_->keyAbove(); }

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
