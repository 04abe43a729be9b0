#include "views/notice_stack.h"

#include <QLabel>

#include "views/format_units.h"

namespace fl::views {

NoticeStack::NoticeStack(QWidget* page, QWidget* parent) : QStackedWidget(parent), notice_(makeNoticeLabel(this)) {
  addWidget(notice_);
  page->setParent(this);
  addWidget(page);
}

void NoticeStack::showNotice(const QString& reason, bool withHint) {
  reason_ = reason;
  withHint_ = withHint;
  updateNotice();
  setCurrentIndex(0);
}

void NoticeStack::showPage() { setCurrentIndex(1); }

QString NoticeStack::noticeText() const { return notice_->text(); }

void NoticeStack::setElsewhereHint(const QString& hint) {
  if (hint == hint_) return;
  hint_ = hint;
  if (noticeVisible()) updateNotice();
}

void NoticeStack::updateNotice() {
  notice_->setText(withHint_ && !hint_.isEmpty() ? reason_ + QStringLiteral("\n\n") + hint_ : reason_);
}

}  // namespace fl::views
