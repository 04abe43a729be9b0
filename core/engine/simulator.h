// The executor: owns the partitions and runs them window by window (conservative
// synchronisation with the link latency as lookahead). With one thread the partitions
// run in turn, with more they run concurrently in a TBB arena; either way each
// partition sees the same events in the same order, so results are identical.
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

#include "engine/component.h"
#include "engine/partition.h"

namespace fl {

struct EngineStats {
  std::int64_t events = 0;
  std::int64_t windows = 0;
  Time endTime = 0;  // time of the last processed event
  bool cancelled = false;
  bool timeLimitReached = false;
};

class Simulator {
 public:
  explicit Simulator(int partitions);
  ~Simulator();

  int partitionCount() const { return static_cast<int>(partitions_.size()); }
  // Registers a component (not owned) in a partition; returns its id.
  ComponentId add(Component& c, int partition);
  Component& component(ComponentId id) { return *components_[id]; }
  const Partition& partition(int index) const { return *partitions_[static_cast<std::size_t>(index)]; }

  // Smallest latency of any link joining two partitions; required when partitions > 1.
  void setLookahead(Time lookahead) { lookahead_ = lookahead; }
  // The longest common scheduling distance (largest link latency): sizes event queues.
  void setHorizon(Time horizon);
  Time lookahead() const { return lookahead_; }

  // Schedules an initial event from outside any component (time 0 set-up).
  void scheduleInitial(Time at, ComponentId target, std::uint32_t kind, std::uint32_t arg32 = 0,
                       std::uint64_t arg = 0);

  // Work done once per window of a partitioned run, beside the partitions' own (in
  // parallel with them, or after them on one thread): it may read what partitions
  // wrote in the previous window (e.g. to merge per-partition figures in the run's
  // total order), never what they write in this one. The argument is the window index.
  void addWindowTask(std::function<void(std::int64_t window)> task) { windowTasks_.push_back(std::move(task)); }
  // Called by each partition's own step (its thread) when it has run to the window's end.
  void addWindowEnd(std::function<void(const Partition&, Time end)> hook) { windowEnds_.push_back(std::move(hook)); }

  // Runs until no events remain or simulated time reaches `limit`. `tick` is called
  // between batches of events (about every 64k events or every window) from the
  // calling thread.
  EngineStats run(Time limit, int threads, const std::atomic<bool>* cancel,
                  const std::function<void(Time now)>& tick);

 private:
  EngineStats runSingle(Time limit, const std::atomic<bool>* cancel,
                        const std::function<void(Time)>& tick);

  std::vector<Component*> components_;
  std::vector<int> partitionOf_;
  std::vector<std::unique_ptr<Partition>> partitions_;
  Time lookahead_ = 0;
  std::uint64_t initialSequence_ = 0;
  std::int64_t window_ = 0;  // windows run so far: outbox parity
  std::vector<std::function<void(std::int64_t)>> windowTasks_;
  std::vector<std::function<void(const Partition&, Time)>> windowEnds_;
};

}  // namespace fl
