#include "engine/simulator.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <optional>
#include <thread>
#include <stdexcept>

#include "engine/thread_sanitizer.h"

namespace fl {

namespace {
constexpr ComponentId kExternalSource = kMaxComponents - 1;
constexpr std::int64_t kBatch = 1 << 16;  // events between cancellation checks and ticks
// Under ThreadSanitizer each window's tasks run on plain threads (thread_sanitizer.h).
constexpr bool kPlainThreads = kThreadSanitizer;
}  // namespace

Simulator::Simulator(int partitions) {
  if (partitions < 1) throw std::invalid_argument("at least one partition");
  for (int i = 0; i < partitions; ++i)
    partitions_.push_back(std::make_unique<Partition>(i, components_, partitionOf_));
  for (auto& p : partitions_) p->setPartitionCount(partitions);
}

Simulator::~Simulator() = default;

ComponentId Simulator::add(Component& c, int partition) {
  if (partition < 0 || partition >= partitionCount())
    throw std::out_of_range("partition index");
  if (components_.size() + 1 >= kMaxComponents) throw std::length_error("too many components");
  c.id_ = static_cast<ComponentId>(components_.size());
  c.partition_ = partitions_[static_cast<size_t>(partition)].get();
  components_.push_back(&c);
  partitionOf_.push_back(partition);
  return c.id_;
}

void Simulator::setHorizon(Time horizon) {
  for (auto& p : partitions_) p->configureQueue(horizon);
}

void Simulator::scheduleInitial(Time at, ComponentId target, std::uint32_t kind,
                                std::uint32_t arg32, std::uint64_t arg) {
  const Event e(at, eventOrder(kExternalSource, initialSequence_++), target, kind, arg32, arg);
  partitions_[static_cast<size_t>(partitionOf_[target])]->push(e);
}

EngineStats Simulator::runSingle(Time limit, const std::atomic<bool>* cancel,
                                 const std::function<void(Time)>& tick) {
  EngineStats s;
  Partition& p = *partitions_.front();
  while (p.nextTime() < limit) {
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      s.cancelled = true;
      break;
    }
    s.events += p.runUntil(limit, kBatch);
    if (tick) tick(p.now());
  }
  s.endTime = p.now();
  s.timeLimitReached = !s.cancelled && p.nextTime() != kTimeNever;
  return s;
}

EngineStats Simulator::run(Time limit, int threads, const std::atomic<bool>* cancel,
                           const std::function<void(Time)>& tick) {
  if (partitionCount() == 1) return runSingle(limit, cancel, tick);
  if (lookahead_ <= 0) throw std::logic_error("partitioned run needs a positive lookahead");

  EngineStats s;
  const auto n = partitions_.size();
  std::optional<tbb::task_arena> arena;
  if (threads > 1) arena.emplace(threads);
  // Each window is one parallel step per partition: take in what the others posted in
  // the last window, run to the window's end, and say when its next event is; the only
  // serial work between windows is the minimum of those times.
  std::vector<Time> nextOf(n, kTimeNever);
  Time next = kTimeNever;
  for (auto& p : partitions_) next = std::min({next, p->nextTime(), p->earliestPosted()});
  std::int64_t sinceTick = 0;
  for (;;) {
    if (next == kTimeNever || next >= limit) {
      s.timeLimitReached = next != kTimeNever;
      break;
    }
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      s.cancelled = true;
      break;
    }
    const Time end = std::min(limit, next + lookahead_);
    const std::int64_t window = window_++;
    std::int64_t before = 0;
    for (auto& p : partitions_) before += p->eventsProcessed();
    const auto step = [&](std::size_t i) {
      Partition& p = *partitions_[i];
      if (window > 0) p.takeIn(partitions_, window - 1);
      p.beginWindow(window);
      p.runUntil(end, INT64_MAX);
      for (const auto& hook : windowEnds_) hook(p, end);
      nextOf[i] = p.nextTime();
    };
    // Window tasks first (index n + k): they are short and must not be left for last.
    const std::size_t tasks = n + windowTasks_.size();
    const auto any = [&](std::size_t i) {
      if (i < windowTasks_.size()) windowTasks_[i](window);
      else step(i - windowTasks_.size());
    };
    if (arena && kPlainThreads) {
      // Under ThreadSanitizer: plain threads taking tasks from a counter.
      std::atomic<std::size_t> nextTask{0};
      std::vector<std::thread> workers;
      for (int t = 0; t < std::min<int>(threads, static_cast<int>(tasks)); ++t)
        workers.emplace_back([&] {
          for (std::size_t i; (i = nextTask.fetch_add(1)) < tasks;) any(i);
        });
      for (std::thread& w : workers) w.join();
    } else if (arena) {
      arena->execute([&] {
        // One partition per task: partitions differ in work, stealing evens it out.
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, tasks, 1),
                          [&](const tbb::blocked_range<std::size_t>& r) {
                            for (std::size_t i = r.begin(); i != r.end(); ++i) any(i);
                          },
                          tbb::simple_partitioner());
      });
    } else {
      for (std::size_t i = 0; i < tasks; ++i) any(i);
    }
    next = kTimeNever;
    std::int64_t after = 0;
    for (std::size_t i = 0; i < n; ++i) {
      next = std::min({next, nextOf[i], partitions_[i]->earliestPosted()});
      after += partitions_[i]->eventsProcessed();
    }
    s.events += after - before;
    ++s.windows;
    sinceTick += after - before;
    if (tick && sinceTick >= kBatch) {
      tick(end);
      sinceTick = 0;
    }
  }
  for (auto& p : partitions_) s.endTime = std::max(s.endTime, p->now());
  return s;
}

}  // namespace fl
