#include "views/follow_item.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <algorithm>
#include <cmath>
#include <set>

#include "network/packet.h"

namespace fl::views {

namespace {
constexpr double kDot = 7;  // radius of a packet's dot, scene units (x the glyph scale)
constexpr double kMinDotPixels = 5;  // ... but never smaller on screen than this
}

FollowItem::FollowItem(std::shared_ptr<const PacketFollow> follow, const layout::TopologyLayout& layout, QPointF offset,
                       double scale)
    : follow_(std::move(follow)), scale_(scale) {
  setZValue(2.5);  // over links (1) and devices (2), under captions (3)
  setAcceptedMouseButtons(Qt::NoButton);
  paths_.resize(layout.links.size());
  for (size_t i = 0; i < layout.links.size(); ++i) {
    const auto& l = layout.links[i];
    if (!l.visible || l.points.size() < 2) continue;
    for (const auto& p : l.points) paths_[i] << QPointF(p.x, p.y) + offset;
    bounds_ |= paths_[i].boundingRect();
  }
  for (const auto& n : layout.nodes) {
    nodes_.push_back(QPointF(n.center.x, n.center.y) + offset);
    bounds_ |= QRectF(nodes_.back(), QSizeF(1, 1));
  }
  const double pad = 80;  // a dot keeps kMinDotPixels on screen: wide in scene units when zoomed out
  bounds_.adjust(-pad, -pad, pad, pad);
}

FollowItem::Role FollowItem::roleOf(std::uint8_t op) {
  switch (static_cast<net::Op>(op)) {
    case net::Op::Ack: return Role::Ack;
    case net::Op::ReadRequest:
    case net::Op::LdReduce:
    case net::Op::LdReduceRead:
    case net::Op::CaisLoad:
    case net::Op::CaisRead: return Role::Request;
    case net::Op::ReadResponse:
    case net::Op::McStore:
    case net::Op::LdReduceResult:
    case net::Op::CaisResponse:
    case net::Op::CaisWrite: return Role::Result;
    default: return Role::Data;
  }
}

// Okabe-Ito hues, away from the canvas's viridis lanes and its magenta selection.
QColor FollowItem::colourOf(Role r) {
  switch (r) {
    case Role::Request: return QColor(0xe6, 0x9f, 0x00);  // orange
    case Role::Data: return QColor(0x56, 0xb4, 0xe9);     // sky blue
    case Role::Result: return QColor(0xf0, 0xe4, 0x42);   // yellow-white
    case Role::Ack: return QColor(0xbb, 0xbb, 0xbb);
  }
  return Qt::white;
}

// Okabe-Ito again: the first two (sky blue, vermillion) differ for every colour vision.
QColor FollowItem::selectorColour(int selector) {
  static const QColor kColours[] = {QColor(0x56, 0xb4, 0xe9), QColor(0xd5, 0x5e, 0x00), QColor(0x00, 0x9e, 0x73),
                                    QColor(0xf0, 0xe4, 0x42), QColor(0xe6, 0x9f, 0x00), QColor(0x00, 0x72, 0xb2),
                                    QColor(0xff, 0xff, 0xff), QColor(0x99, 0x99, 0x99)};
  return kColours[std::size_t(std::max(0, selector)) % std::size(kColours)];
}

QString FollowItem::roleName(Role r) {
  switch (r) {
    case Role::Request: return QStringLiteral("request / read");
    case Role::Data: return QStringLiteral("data / contribution / copy");
    case Role::Result: return QStringLiteral("result / replica");
    case Role::Ack: return QStringLiteral("acknowledgement");
  }
  return {};
}

std::optional<QPointF> FollowItem::along(const FollowedHop& hop, double f) const {
  if (hop.link < 0 || hop.link >= static_cast<int>(paths_.size()) || paths_[size_t(hop.link)].size() < 2) {
    const int n = static_cast<int>(nodes_.size());
    if (hop.from < 0 || hop.to < 0 || hop.from >= n || hop.to >= n) return {};
    const QPointF a = nodes_[size_t(hop.from)], b = nodes_[size_t(hop.to)];
    return a + (b - a) * std::clamp(f, 0.0, 1.0);
  }
  const QPolygonF& p = paths_[size_t(hop.link)];
  f = std::clamp(hop.direction == 0 ? f : 1 - f, 0.0, 1.0);
  double total = 0;
  for (int i = 1; i < p.size(); ++i) total += std::hypot(p[i].x() - p[i - 1].x(), p[i].y() - p[i - 1].y());
  double want = f * total;
  for (int i = 1; i < p.size(); ++i) {
    const double seg = std::hypot(p[i].x() - p[i - 1].x(), p[i].y() - p[i - 1].y());
    if (want <= seg || i == p.size() - 1) {
      const double k = seg > 0 ? std::min(1.0, want / seg) : 0;
      return p[i - 1] + (p[i] - p[i - 1]) * k;
    }
    want -= seg;
  }
  return p.back();
}

void FollowItem::setTime(Time t) {
  if (t == time_) return;
  time_ = t;
  dots_.clear();
  done_ = 0;
  std::set<std::pair<int, int>> trail;
  const bool several = bySelector();
  const auto& hops = follow_->hops;
  for (size_t i = 0; i < hops.size(); ++i) {
    const FollowedHop& h = hops[i];
    const int selector = several ? follow_->selectorOf(h) : 0;
    if (h.arrive <= t) {
      ++done_;
      trail.insert({selector, h.link});
      continue;
    }
    if (h.start > t) continue;  // sorted by start: later ones have not left either
    const double f = double(t - h.start) / double(std::max<Time>(1, h.arrive - h.start));
    if (const auto at = along(h, f)) dots_.push_back({*at, static_cast<int>(i), roleOf(h.op), selector});
  }
  trail_.assign(trail.begin(), trail.end());
  update();
}

void FollowItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
  p->setRenderHint(QPainter::Antialiasing);
  const double lod = std::max(1e-3, QStyleOptionGraphicsItem::levelOfDetailFromTransform(p->worldTransform()));
  const bool several = bySelector();
  QPen trail(QColor(255, 255, 255, 140), std::max(2.5 * scale_, 2 / lod));
  trail.setCosmetic(false);
  trail.setCapStyle(Qt::RoundCap);
  p->setBrush(Qt::NoBrush);
  for (const auto& [selector, link] : trail_) {
    if (link < 0 || link >= static_cast<int>(paths_.size())) continue;
    if (several) {  // each selector's way in its colour, offset a little so shared links show both
      QColor c = selectorColour(selector);
      c.setAlpha(170);
      trail.setColor(c);
    }
    p->setPen(trail);
    p->drawPolyline(several ? paths_[size_t(link)].translated(QPointF(1, 1) * (selector * 3.0 * scale_)) : paths_[size_t(link)]);
  }
  for (const Dot& d : dots_) {
    const FollowedHop& h = follow_->hops[size_t(d.hop)];
    const double r = std::max(kDot * scale_, kMinDotPixels / lod) * (h.contributions > 1 ? 1.5 : 1);
    if (several) {  // fill: whose packet; rim: what it does
      p->setPen(QPen(colourOf(d.role), std::max(2.5 * scale_, 2 / lod)));
      p->setBrush(selectorColour(d.selector));
    } else {
      p->setPen(QPen(QColor(20, 20, 24), std::max(1.5 * scale_, 1 / lod)));
      p->setBrush(colourOf(d.role));
    }
    p->drawEllipse(d.at, r, r);
  }
}

}  // namespace fl::views
