// "Follow one" on the canvas: the followed packets (results/packet_follow.h) drawn at one
// simulated time: each packet on a link as a dot at the share of the hop it has done
// (head leaving `from` at start, tail reaching `to` at arrive), coloured by what it does
// (a request or read; data, a contribution or a multicast copy, which leaves the switch
// as a store; a result or a multimem.st; an acknowledgement), and the links they have
// crossed so far as a faint trail. A reduction result (it carries the number of operands
// it sums) is drawn larger. Over links and devices; dots stay 5 px or more on screen.
// With several selectors (run.follow as a list) each one's dots and trail take its own
// colour (selectorColour), the role showing as the dot's rim, so two tokens can be told
// apart at a glance.
#pragma once
#include <QColor>
#include <QGraphicsItem>
#include <memory>
#include <optional>
#include <vector>

#include "engine/time.h"
#include "layout/topology_layout.h"
#include "results/packet_follow.h"

namespace fl::views {

class FollowItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 7 };
  enum class Role { Request, Data, Result, Ack };

  FollowItem(std::shared_ptr<const PacketFollow> follow, const layout::TopologyLayout& layout, QPointF offset,
             double scale);
  int type() const override { return Type; }

  void setTime(Time t);
  Time time() const { return time_; }
  struct Dot {
    QPointF at;    // scene position
    int hop = -1;  // index into follow->hops
    Role role = Role::Data;
    int selector = 0;  // which selector of the list (PacketFollow::selectorOf)
  };
  const std::vector<Dot>& dots() const { return dots_; }  // packets on links at time()
  int hopsDone() const { return done_; }                 // hops whose tail has arrived
  // Position on a hop's path at fraction f (0 at `from`, 1 at `to`). A link the canvas does
  // not draw (a mesh die's link to its router, links inside a collapsed group) runs
  // straight between where its ends are drawn; invalid only for unknown nodes.
  std::optional<QPointF> along(const FollowedHop& hop, double f) const;

  static Role roleOf(std::uint8_t op);
  static QColor colourOf(Role r);
  static QString roleName(Role r);
  static QColor selectorColour(int selector);  // distinct per selector, off the lanes' map
  bool bySelector() const { return follow_->parts.size() > 1; }
  const std::vector<std::pair<int, int>>& trail() const { return trail_; }  // (selector, link) crossed so far

  QRectF boundingRect() const override { return bounds_; }
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  std::shared_ptr<const PacketFollow> follow_;
  std::vector<QPolygonF> paths_;  // by link id, a to b, in scene coordinates (empty if hidden)
  std::vector<QPointF> nodes_;    // by node id: where it is drawn (hidden ones: their box's)
  std::vector<Dot> dots_;
  std::vector<std::pair<int, int>> trail_;  // (selector, link) crossed so far, each once
  int done_ = 0;
  Time time_ = -1;
  double scale_ = 1;
  QRectF bounds_;
};

}  // namespace fl::views
