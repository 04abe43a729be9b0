#include "engine/simulator.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <stdexcept>

namespace fl {

namespace {
constexpr ComponentId kExternalSource = kMaxComponents - 1;
constexpr std::int64_t kBatch = 1 << 16;  // events between cancellation checks and ticks
}  // namespace

Simulator::Simulator(int partitions) {
  if (partitions < 1) throw std::invalid_argument("at least one partition");
  for (int i = 0; i < partitions; ++i)
    partitions_.push_back(std::make_unique<Partition>(i, components_, partitionOf_));
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

void Simulator::deliverOutboxes() {
  // Delivery order does not matter: every event carries its own total-order key.
  for (auto& p : partitions_) {
    for (CrossEvent& ce : p->outbox()) {
      Event e = ce.event;
      if (ce.payloadSize > 0)
        e.arg = components_[e.target]->importPayload(ce.payload.data(), ce.payloadSize);
      partitions_[static_cast<size_t>(partitionOf_[e.target])]->push(e);
    }
    p->outbox().clear();
  }
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
  tbb::task_arena arena(std::max(1, threads));
  const auto n = partitions_.size();
  std::int64_t sinceTick = 0;
  for (;;) {
    deliverOutboxes();
    Time next = kTimeNever;
    for (auto& p : partitions_) next = std::min(next, p->nextTime());
    if (next == kTimeNever || next >= limit) {
      s.timeLimitReached = next != kTimeNever;
      break;
    }
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      s.cancelled = true;
      break;
    }
    const Time end = std::min(limit, next + lookahead_);
    std::int64_t before = 0;
    for (auto& p : partitions_) before += p->eventsProcessed();
    if (threads > 1) {
      arena.execute([&] {
        tbb::parallel_for(std::size_t{0}, n, [&](std::size_t i) {
          partitions_[i]->runUntil(end, INT64_MAX);
        });
      });
    } else {
      for (auto& p : partitions_) p->runUntil(end, INT64_MAX);
    }
    std::int64_t after = 0;
    for (auto& p : partitions_) after += p->eventsProcessed();
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
