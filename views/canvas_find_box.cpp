#include "views/canvas_find_box.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QKeyEvent>
#include <QStringListModel>

namespace fl::views {

CanvasFindBox::CanvasFindBox(QWidget* parent) : QLineEdit(parent), names_(new QStringListModel(this)) {
  setObjectName(QStringLiteral("canvasFindBox"));
  setPlaceholderText(tr("Find a device by name…"));
  setClearButtonEnabled(true);
  setStyleSheet("QLineEdit { background: rgba(24, 26, 31, 235); color: #ebebf0; border: 1px solid #5a6070;"
                " border-radius: 6px; padding: 3px 6px; }");
  auto* completer = new QCompleter(names_, this);
  completer->setCaseSensitivity(Qt::CaseInsensitive);
  completer->setFilterMode(Qt::MatchContains);
  completer->setMaxVisibleItems(12);
  setCompleter(completer);
  // Picking a completion jumps at once; Enter on typed text jumps to the first match.
  connect(completer, qOverload<const QString&>(&QCompleter::activated), this,
          [this](const QString& name) { emit nodeRequested(name); });
  connect(this, &QLineEdit::returnPressed, this, [this] {
    if (this->completer() && this->completer()->popup()->isVisible()) return;  // activated() handles it
    emit nodeRequested(text().trimmed());
  });
  hide();
}

void CanvasFindBox::setNames(const QStringList& names) { names_->setStringList(names); }

void CanvasFindBox::open() {
  show();
  raise();
  setFocus(Qt::ShortcutFocusReason);
  selectAll();
}

void CanvasFindBox::keyPressEvent(QKeyEvent* e) {
  if (e->key() == Qt::Key_Escape) {
    hide();
    if (parentWidget()) parentWidget()->setFocus();
    return;
  }
  QLineEdit::keyPressEvent(e);
}

}  // namespace fl::views
