#include "views/canvas_caption.h"

#include <QFontMetrics>
#include <QLabel>
#include <QStringList>
#include <algorithm>

namespace fl::views {

namespace {
const char* const kFullText = "fabriclabCaptionText";
}  // namespace

QString captionText(const QLabel* label) { return label->property(kFullText).toString(); }

QString wrapCaption(const QLabel* label, const QString& text, int width) {
  const QFontMetrics fm(label->font());
  QStringList out;
  for (const QString& line : text.split(u'\n')) {
    QString current;
    for (const QString& word : line.split(u' ')) {
      const QString joined = current.isEmpty() ? word : current + u' ' + word;
      if (!current.isEmpty() && fm.horizontalAdvance(joined) > width) {
        out << current;
        current = word;
      } else {
        current = joined;
      }
    }
    out << current;
  }
  return out.join(u'\n');
}

void fitCaption(QLabel* label, int room) {
  const QString text = captionText(label);
  // The label's padding: its width with the text on unbroken lines, less the widest line.
  label->setText(text);
  const QFontMetrics fm(label->font());
  int widest = 0;
  for (const QString& line : text.split(u'\n')) widest = std::max(widest, fm.horizontalAdvance(line));
  const int padding = std::max(0, label->sizeHint().width() - widest);
  if (widest + padding > room) label->setText(wrapCaption(label, text, std::max(40, room - padding)));
  label->adjustSize();
}

void setCaptionText(QLabel* label, const QString& text, int room) {
  label->setProperty(kFullText, text);
  fitCaption(label, room);
}

}  // namespace fl::views
