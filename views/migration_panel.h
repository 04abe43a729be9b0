// The Migrations dock: the migration animation beside the device-load plot, both on the
// shown run and both following the timeline (the plot's cursor at the animation's
// iteration). Seed 003 §V-§VI-C. On a point without migrations (no balancer) a line
// above them names the sweep points that have some, as links (pointLinks()).
#pragma once
#include <QWidget>

class QSplitter;

namespace fl::views {

class MigrationAnimation;
class MigrationLoadPlot;
class PointLinks;
class RunModel;

class MigrationPanel : public QWidget {
  Q_OBJECT
 public:
  explicit MigrationPanel(RunModel* model, QWidget* parent = nullptr);
  MigrationAnimation* animation() const { return animation_; }
  MigrationLoadPlot* loadPlot() const { return plot_; }
  PointLinks* pointLinks() const { return links_; }

 protected:
  void resizeEvent(QResizeEvent* e) override;

 private:
  void followTimeline();

  RunModel* model_;
  MigrationAnimation* animation_;
  MigrationLoadPlot* plot_;
  PointLinks* links_;
  QSplitter* split_ = nullptr;
  bool userSized_ = false;
};

}  // namespace fl::views
