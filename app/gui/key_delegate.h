// The scenario tree's key column: a key path never broken inside a word ("scenar" /
// "io" told nothing in a narrow dock). It wraps after its '.', '_' and ' ' separators
// ("die_injection_" / "bandwidth") and the row grows to hold the lines, as values do; a
// part wider than the whole column is elided on its own line ("bandw…"), the full key
// in the cell's tooltip.
#pragma once
#include "gui/value_delegate.h"

class QFontMetrics;

namespace fl::gui {

class KeyDelegate : public ValueDelegate {
  Q_OBJECT
 public:
  using ValueDelegate::ValueDelegate;
  // `key` with a break opportunity (zero-width space) after each '.' and '_'.
  static QString breakable(const QString& key);
  // The lines `key` is drawn in, `width` px wide: its parts (each ending after a
  // separator) packed greedily, a part too wide for a line elided alone on its line.
  static QStringList keyLines(const QString& key, const QFontMetrics& metrics, int width);

  bool helpEvent(QHelpEvent* event, QAbstractItemView* view, const QStyleOptionViewItem& option,
                 const QModelIndex& index) override;

 protected:
  int textHeight(const QString& text, const QFont& font, int width) const override;
  void drawText(QPainter* painter, const QRect& area, const QString& text, const QFont& font) const override;
};

}  // namespace fl::gui
