// Expert migrations on the wafer, played by the timeline (seed 003 §V, Fig. 11(d); issue
// 20 "Views"): each copy of wsc.migrations follows its path (core/balance/migration_path:
// the minimal path with fewest intra/inter-FTD changes) cut into its stages, Local stages
// (intra-FTD links, during the all-reduce) in green and solid, Global stages (inter-FTD
// links, during the all-to-all) in orange and dashed. At the timeline's time the view
// works out the iteration (time x iterations / makespan) and, for a copy running from
// start_iteration to end_iteration, spreads its stages evenly over those iterations: done
// stages solid, the running one with the expert's weights (a square) part way along,
// later ones faint. The results give a copy's iterations, not its stages' times, so the
// position inside a copy is a reading aid, not a measured time.
#pragma once
#include <QStringList>
#include <QWidget>
#include <memory>
#include <vector>

#include "results/results.h"
#include "topology/topology.h"
#include "views/wafer_grid.h"
#include "views/wafer_key.h"

namespace fl::views {

class MigrationAnimation : public QWidget {
  Q_OBJECT
 public:
  explicit MigrationAnimation(QWidget* parent = nullptr);

  void setTopology(std::shared_ptr<const topo::Topology> topology);
  void setResults(std::shared_ptr<const Results> results);
  void setTime(Time t);  // the timeline's time

  struct Stage {
    bool global = false;
    std::vector<int> dies;   // path through the stage, first die to last
    std::vector<int> links;  // topology links between consecutive dies
  };
  int migrationCount() const { return static_cast<int>(stages_.size()); }
  const std::vector<Stage>& stages(int migration) const { return stages_[static_cast<size_t>(migration)]; }
  double iteration() const { return iteration_; }  // fractional, from the time
  // Progress of a copy at the current time, in stages: 0 before it starts, the stage
  // count once its replica is in place; e.g. 1.5 = half way along its second stage.
  double progress(int migration) const;
  int activeCount() const;
  // The caption (iteration, copies moving and which) broken at spaces into lines at most
  // `width` pixels wide in the caption's bold font, at most three, the last elided.
  QString caption() const;
  QStringList captionLines(int width) const;
  // The key under the wafer (local / global stages, from / to), wrapped to the width.
  WaferKey key() const;

  QSize minimumSizeHint() const override { return {160, 120}; }

 protected:
  void paintEvent(QPaintEvent* e) override;

 private:
  void rebuildStages();
  QString movingList() const;

  std::shared_ptr<const topo::Topology> topology_;
  std::shared_ptr<const Results> results_;
  WaferGrid grid_;
  std::vector<std::vector<Stage>> stages_;  // per migration
  Time time_ = 0;
  double iteration_ = 0;
};

QColor localStageColour();
QColor globalStageColour();

}  // namespace fl::views
