// The scenario tree's key column: a key path never elided ("link.b…" told nothing in a
// narrow dock). It wraps after its '.' and '_' separators ("die_injection_" /
// "bandwidth"), else anywhere, and the row grows to hold the lines, as values do.
#pragma once
#include "gui/value_delegate.h"

namespace fl::gui {

class KeyDelegate : public ValueDelegate {
  Q_OBJECT
 public:
  using ValueDelegate::ValueDelegate;
  // `key` with a break opportunity (zero-width space) after each '.' and '_'.
  static QString breakable(const QString& key);

 protected:
  QString wrappedText(const QModelIndex& index) const override;
};

}  // namespace fl::gui
