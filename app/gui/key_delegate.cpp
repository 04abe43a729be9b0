#include "gui/key_delegate.h"

#include <QAbstractItemView>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace fl::gui {

namespace {
bool isSeparator(QChar c) { return c == u'.' || c == u'_' || c == u' '; }
}  // namespace

QString KeyDelegate::breakable(const QString& key) {
  QString out;
  out.reserve(key.size() + 8);
  for (const QChar c : key) {
    out += c;
    if (c == u'.' || c == u'_') out += QChar(0x200B);
  }
  return out;
}

QStringList KeyDelegate::keyLines(const QString& key, const QFontMetrics& fm, int width) {
  QStringList parts;
  QString part;
  for (const QChar c : key) {
    if (c == QChar(0x200B)) continue;
    part += c;
    if (isSeparator(c)) parts << part, part.clear();
  }
  if (!part.isEmpty()) parts << part;
  // Parts measured one by one, as ScenarioDock sizes the column (keyWidths).
  QStringList lines;
  QString line;
  int used = 0;
  for (const QString& p : parts) {
    const int w = fm.horizontalAdvance(p);
    if (!line.isEmpty() && used + w <= width) {
      line += p, used += w;
      continue;
    }
    if (!line.isEmpty()) lines << line, line.clear();
    if (w <= width) line = p, used = w;
    else lines << fm.elidedText(p, Qt::ElideRight, std::max(fm.horizontalAdvance(QChar(0x2026)), width));
  }
  if (!line.isEmpty() || lines.isEmpty()) lines << line;
  return lines;
}

int KeyDelegate::textHeight(const QString& text, const QFont& font, int width) const {
  const QFontMetrics fm(font);
  return int(keyLines(text, fm, width).size()) * fm.height();
}

void KeyDelegate::drawText(QPainter* painter, const QRect& area, const QString& text, const QFont& font) const {
  const QFontMetrics fm(font);
  const QStringList lines = keyLines(text, fm, area.width());
  int y = area.center().y() - int(lines.size()) * fm.height() / 2;
  for (const QString& line : lines) {
    painter->drawText(QRect(area.left(), y, area.width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter, line);
    y += fm.height();
  }
}

bool KeyDelegate::helpEvent(QHelpEvent* event, QAbstractItemView* view, const QStyleOptionViewItem& option,
                            const QModelIndex& index) {
  // An elided key: its full path first, then whatever the model says about it.
  if (event && view && event->type() == QEvent::ToolTip && index.isValid()) {
    const QString key = index.data(Qt::DisplayRole).toString();
    QFont font = option.font;
    if (const QVariant f = index.data(Qt::FontRole); f.isValid()) font = f.value<QFont>();
    const QStringList lines = keyLines(key, QFontMetrics(font), textAreaWidth(index));
    if (lines.join(QString()) != key) {
      const QString more = index.data(Qt::ToolTipRole).toString();
      QToolTip::showText(event->globalPos(), more.isEmpty() ? key : key + QStringLiteral("\n\n") + more, view);
      return true;
    }
  }
  return ValueDelegate::helpEvent(event, view, option, index);
}

}  // namespace fl::gui
