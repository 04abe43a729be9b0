#include "views/run_model.h"

#include <algorithm>

namespace fl::views {

RunModel::RunModel(QObject* parent) : QObject(parent) {}

void RunModel::setTopology(std::shared_ptr<const topo::Topology> topology) {
  topology_ = std::move(topology);
  results_.reset();
  directionIndex_.clear();
  final_ = false;
  currentBin_ = 0;
  phase_ = -1;
  selectionKind_ = SelectionKind::None;
  selectedId_ = -1;
  emit topologyChanged();
  emit resultsChanged();
}

void RunModel::setResults(std::shared_ptr<const Results> results, bool final) {
  results_ = std::move(results);
  final_ = final;
  directionIndex_.clear();
  if (results_) {
    int maxLink = -1;
    for (const auto& l : results_->links) maxLink = std::max(maxLink, l.link);
    directionIndex_.assign(static_cast<std::size_t>(maxLink + 1) * 2, -1);
    for (std::size_t i = 0; i < results_->links.size(); ++i) {
      const auto& l = results_->links[i];
      directionIndex_[static_cast<std::size_t>(l.link) * 2 + static_cast<std::size_t>(l.direction)] =
          static_cast<int>(i);
    }
    if (phase_ >= static_cast<int>(results_->phases.size())) phase_ = -1;
  }
  emit resultsChanged();
  const int last = std::max(0, binCount() - 1);
  if (!final_ && followLive_) setCurrentBin(lastCompleteBin());
  else setCurrentBin(std::min(currentBin_, last));
}

int RunModel::binCount() const { return results_ ? results_->bins : 0; }
Time RunModel::binWidth() const { return results_ ? results_->bin : 0; }

void RunModel::setCurrentBin(int bin) {
  bin = std::clamp(bin, 0, std::max(0, binCount() - 1));
  if (bin == currentBin_) return;
  currentBin_ = bin;
  emit currentBinChanged(bin);
}

int RunModel::linkDirectionIndex(topo::LinkId link, int direction) const {
  const auto i = static_cast<std::size_t>(link) * 2 + static_cast<std::size_t>(direction);
  return link >= 0 && i < directionIndex_.size() ? directionIndex_[i] : -1;
}

double RunModel::utilisation(int linkDirection, int bin) const {
  if (!results_ || linkDirection < 0 || results_->bin <= 0) return 0;
  const auto& l = results_->links[static_cast<std::size_t>(linkDirection)];
  if (l.capacity_Bps <= 0) return 0;
  const double capacity = l.capacity_Bps * toSeconds(results_->bin);
  return std::clamp(static_cast<double>(l.bin_bytes.at(bin)) / capacity, 0.0, 1.0);
}

double RunModel::phaseUtilisation(int linkDirection, int phase) const {
  if (!results_ || linkDirection < 0) return 0;
  const auto& l = results_->links[static_cast<std::size_t>(linkDirection)];
  if (l.capacity_Bps <= 0) return 0;
  Time start = 0, end = results_->makespan;
  if (phase >= 0 && phase < static_cast<int>(results_->phases.size())) {
    start = results_->phases[static_cast<std::size_t>(phase)].start;
    end = results_->phases[static_cast<std::size_t>(phase)].end;
  }
  if (end <= start || results_->bin <= 0) return 0;
  // Whole bins overlapping the phase: bins are the recording's resolution.
  const auto first = static_cast<std::int32_t>(start / results_->bin);
  const auto last = static_cast<std::int32_t>((end - 1) / results_->bin);
  std::int64_t bytes = 0;
  for (std::size_t k = 0; k < l.bin_bytes.bins.size(); ++k)
    if (l.bin_bytes.bins[k] >= first && l.bin_bytes.bins[k] <= last) bytes += l.bin_bytes.bytes[k];
  const double window = toSeconds(static_cast<Time>(last - first + 1) * results_->bin);
  return std::clamp(static_cast<double>(bytes) / (l.capacity_Bps * window), 0.0, 1.0);
}

void RunModel::setThresholds(double cold, double hot) {
  cold_ = std::clamp(cold, 0.0, 1.0);
  hot_ = std::clamp(hot, cold_, 1.0);
  emit thresholdsChanged();
}

void RunModel::setPhase(int phase) {
  if (phase == phase_) return;
  phase_ = phase;
  emit phaseChanged(phase);
}

double RunModel::displayedUtilisation(int linkDirection) const {
  return phase_ >= 0 ? phaseUtilisation(linkDirection, phase_) : utilisation(linkDirection, currentBin_);
}

void RunModel::setDirectionFilter(DirectionFilter f) {
  if (f == directionFilter_) return;
  directionFilter_ = f;
  emit directionFilterChanged();
}

int RunModel::lastCompleteBin() const {
  if (!results_ || results_->bin <= 0) return 0;
  if (final_) return std::max(0, binCount() - 1);
  const auto complete = static_cast<int>(results_->makespan / results_->bin);  // whole bins so far
  return std::clamp(complete - 1, 0, std::max(0, binCount() - 1));
}

void RunModel::select(SelectionKind kind, int id) {
  selectionKind_ = kind;
  selectedId_ = id;
  emit selectionChanged();
}

}  // namespace fl::views
