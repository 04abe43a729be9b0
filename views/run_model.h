// What every view looks at: the fabric, the run's results (final, or a live snapshot),
// the current time bin, the hot/cold thresholds, the selected phase and the selection.
// Owned by the main window; views observe its signals and never touch the engine.
#pragma once
#include <QObject>
#include <memory>
#include <vector>

#include "results/results.h"
#include "topology/topology.h"

namespace fl::views {

enum class SelectionKind { None, Node, Link };
// Which lanes the canvas draws at full strength: direction 0 of a link runs from its
// lower end (a GPU, a child switch) up, direction 1 down (topology builders put the lower
// end first); the other lanes are drawn faint.
enum class DirectionFilter { Both, Up, Down };

class RunModel : public QObject {
  Q_OBJECT
 public:
  explicit RunModel(QObject* parent = nullptr);

  // A new fabric (scenario edited or opened): clears results.
  void setTopology(std::shared_ptr<const topo::Topology> topology);
  // Results for the current topology; `final` is false for live snapshots.
  void setResults(std::shared_ptr<const Results> results, bool final);

  const topo::Topology* topology() const { return topology_.get(); }
  std::shared_ptr<const topo::Topology> topologyShared() const { return topology_; }
  const Results* results() const { return results_.get(); }
  std::shared_ptr<const Results> resultsShared() const { return results_; }
  bool isFinal() const { return final_; }

  int binCount() const;     // results->bins (0 without results)
  Time binWidth() const;    // results->bin
  int currentBin() const { return currentBin_; }
  void setCurrentBin(int bin);  // clamped; emits currentBinChanged
  bool followLive() const { return followLive_; }
  void setFollowLive(bool on) { followLive_ = on; }  // snapshots move the bin to the newest

  // Link directions are indexed as in results()->links (sorted by link, then direction).
  int linkDirectionIndex(topo::LinkId link, int direction) const;  // -1 when unknown
  // Utilisation of a link direction in a bin: bytes / (bin width x capacity), in [0, 1].
  double utilisation(int linkDirection, int bin) const;
  // Mean utilisation over a phase (index into results()->phases; -1 = whole run).
  double phaseUtilisation(int linkDirection, int phase) const;

  // Hot: utilisation >= hot threshold; cold: <= cold threshold (in the current bin, or
  // averaged over the selected phase when one is selected).
  double hotThreshold() const { return hot_; }
  double coldThreshold() const { return cold_; }
  void setThresholds(double cold, double hot);
  int phase() const { return phase_; }  // -1: per bin (timeline), else a phase index
  void setPhase(int phase);
  // The value a view colours a link direction by: phase mean or current-bin utilisation.
  double displayedUtilisation(int linkDirection) const;

  DirectionFilter directionFilter() const { return directionFilter_; }
  void setDirectionFilter(DirectionFilter f);
  bool showsDirection(int direction) const {
    return directionFilter_ == DirectionFilter::Both || (directionFilter_ == DirectionFilter::Up) == (direction == 0);
  }
  // The newest bin whose recording is complete: the last one of a final run; in a live
  // snapshot the one before the bin still filling (whose bytes are only partly in).
  int lastCompleteBin() const;

  SelectionKind selectionKind() const { return selectionKind_; }
  int selectedId() const { return selectedId_; }  // node id or link id
  void select(SelectionKind kind, int id);

 signals:
  void topologyChanged();
  void resultsChanged();
  void currentBinChanged(int bin);
  void thresholdsChanged();
  void phaseChanged(int phase);
  void selectionChanged();
  void directionFilterChanged();

 private:
  std::shared_ptr<const topo::Topology> topology_;
  std::shared_ptr<const Results> results_;
  std::vector<int> directionIndex_;  // link * 2 + direction -> index in results->links
  bool final_ = false;
  bool followLive_ = true;
  int currentBin_ = 0;
  double cold_ = 0.05, hot_ = 0.7;
  int phase_ = -1;
  DirectionFilter directionFilter_ = DirectionFilter::Both;
  SelectionKind selectionKind_ = SelectionKind::None;
  int selectedId_ = -1;
};

}  // namespace fl::views
