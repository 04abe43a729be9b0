// A panel's content or, when the results have nothing for it, a greyed notice in its
// place saying why, with an optional "elsewhere" hint (e.g. the sweep points that do have
// something) below it. Shared by the in-switch table docks (switch_table_panel.h,
// merge_table_inspector.h), whose notices differ only in their reason.
#pragma once
#include <QStackedWidget>

#include "views/point_links.h"

class QLabel;

namespace fl::views {

class NoticeStack : public QStackedWidget {
  Q_OBJECT
 public:
  // `page`: the content, shown by showPage().
  explicit NoticeStack(QWidget* page, QWidget* parent = nullptr);

  // The notice instead of the page: `reason`, then the hint when `withHint`.
  void showNotice(const QString& reason, bool withHint = true);
  void showPage();
  bool noticeVisible() const { return currentIndex() == 0; }
  QString noticeText() const;
  // Where else to look; updates a notice on screen. Empty: none.
  void setElsewhereHint(const QString& hint);
  const QString& elsewhereHint() const { return hint_; }
  // The sweep points that have `what`, as links under the notice (the hint names them).
  void setElsewherePoints(const QString& what, std::vector<PointLinks::Point> points);
  PointLinks* links() const { return links_; }

 private:
  void updateNotice();

  QLabel* notice_;
  PointLinks* links_;
  QString reason_, hint_;
  bool withHint_ = true;
};

}  // namespace fl::views
