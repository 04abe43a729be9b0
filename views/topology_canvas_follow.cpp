// TopologyCanvas: the followed packets' overlay (views/follow_item.h).
#include "views/follow_item.h"
#include "views/run_model.h"
#include "views/topology_canvas.h"

#include <QGraphicsScene>

namespace fl::views {

void TopologyCanvas::setFollow(std::shared_ptr<const PacketFollow> follow) {
  follow_ = std::move(follow);
  if (followItem_) {
    scene_->removeItem(followItem_);
    delete followItem_;
    followItem_ = nullptr;
  }
  addFollowItem();
}

void TopologyCanvas::setFollowTime(Time t) {
  followTime_ = t;
  if (followItem_) followItem_->setTime(t);
}

void TopologyCanvas::addFollowItem() {
  if (!follow_ || !model_->topology() || layout_.links.empty()) return;
  followItem_ = new FollowItem(follow_, layout_, QPointF(0, isSideBySide() ? 64 : 0) /* kCaption */, glyphScale_);
  scene_->addItem(followItem_);
  followItem_->setTime(followTime_);
}

}  // namespace fl::views
