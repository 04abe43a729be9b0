#include "gui/key_delegate.h"

namespace fl::gui {

QString KeyDelegate::breakable(const QString& key) {
  QString out;
  out.reserve(key.size() + 8);
  for (const QChar c : key) {
    out += c;
    if (c == u'.' || c == u'_') out += QChar(0x200B);
  }
  return out;
}

QString KeyDelegate::wrappedText(const QModelIndex& index) const {
  return breakable(index.data(Qt::DisplayRole).toString());
}

}  // namespace fl::gui
