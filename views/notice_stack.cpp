#include "views/notice_stack.h"

#include <QLabel>
#include <QVBoxLayout>

#include "views/format_units.h"

namespace fl::views {

NoticeStack::NoticeStack(QWidget* page, QWidget* parent) : QStackedWidget(parent) {
  auto* first = new QWidget(this);
  auto* layout = new QVBoxLayout(first);
  notice_ = makeNoticeLabel(first);
  links_ = new PointLinks(first);
  layout->addStretch(1);
  layout->addWidget(notice_);
  layout->addWidget(links_);
  layout->addStretch(1);
  addWidget(first);
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

void NoticeStack::setElsewherePoints(const QString& what, std::vector<PointLinks::Point> points) {
  setElsewhereHint(points.empty() ? QString() : tr("Sweep points with %1 (click one to show it):").arg(what));
  links_->setPoints({}, std::move(points));
  links_->setVisible(!links_->points().empty() && withHint_);
}

void NoticeStack::updateNotice() {
  links_->setVisible(!links_->points().empty() && withHint_);
  notice_->setText(withHint_ && !hint_.isEmpty() ? reason_ + QStringLiteral("\n\n") + hint_ : reason_);
}

}  // namespace fl::views
