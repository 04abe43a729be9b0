#include "views/point_links.h"

namespace fl::views {

PointLinks::PointLinks(QWidget* parent) : QLabel(parent) {
  setObjectName(QStringLiteral("pointLinks"));
  setWordWrap(true);
  setAlignment(Qt::AlignCenter);
  setTextFormat(Qt::RichText);
  setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
  setToolTip(tr("Click a point to show it (as picking it under \"Sweep point\" in the toolbar)"));
  connect(this, &QLabel::linkActivated, this, [this](const QString& href) {
    bool ok = false;
    const int point = href.toInt(&ok);
    if (ok) emit pointRequested(point);
  });
  hide();
}

void PointLinks::setPoints(const QString& lead, std::vector<Point> points) {
  if (points == points_ && lead == lead_) return;
  points_ = std::move(points);
  lead_ = lead;
  QStringList links;
  for (const auto& [index, label] : points_)
    links << QStringLiteral("<a href=\"%1\">%2</a>").arg(index).arg(label.toHtmlEscaped());
  setText((lead_.isEmpty() ? QString() : lead_.toHtmlEscaped() + QStringLiteral("<br>")) +
          links.join(QStringLiteral(" &middot; ")));
  setVisible(!points_.empty());
}

}  // namespace fl::views
