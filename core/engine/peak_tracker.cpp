#include "engine/peak_tracker.h"

#include <algorithm>

#include "engine/simulator.h"

namespace fl {

PeakTracker::PeakTracker(Simulator& sim) {
  for (auto& logs : logs_) logs.resize(static_cast<std::size_t>(sim.partitionCount()));
  sim.addWindowTask([this](std::int64_t window) {
    if (window > 0) mergeWindow(window - 1);
  });
}

// A k-way merge by (time, order) through a heap of the logs' heads: every event's
// changes are in one partition's log, so the merged sequence is the run's, and the
// running count its single-partition value.
void PeakTracker::mergeWindow(std::int64_t window) {
  auto& logs = logs_[static_cast<std::size_t>(window & 1)];
  struct Head {
    Time time;
    std::uint64_t order;
    std::size_t log, at;
  };
  const auto later = [](const Head& a, const Head& b) {
    return a.time != b.time ? a.time > b.time : a.order > b.order;
  };
  std::vector<Head> heap;
  for (std::size_t i = 0; i < logs.size(); ++i)
    if (!logs[i].empty()) heap.push_back({logs[i][0].time, logs[i][0].order, i, 0});
  std::make_heap(heap.begin(), heap.end(), later);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    Head& h = heap.back();
    const std::vector<Change>& log = logs[h.log];
    // Take this log's entries while they come before every other head.
    const Head* rival = heap.size() > 1 ? &heap.front() : nullptr;
    for (;;) {
      const Change& c = log[h.at];
      if (running_ + c.high > peak_) peak_ = running_ + c.high;
      running_ += c.net;
      if (++h.at == log.size()) break;
      const Change& n = log[h.at];
      if (rival && (n.time > rival->time || (n.time == rival->time && n.order > rival->order))) break;
    }
    if (h.at == log.size()) {
      heap.pop_back();
    } else {
      h.time = log[h.at].time;
      h.order = log[h.at].order;
      std::push_heap(heap.begin(), heap.end(), later);
    }
  }
  for (auto& log : logs) log.clear();
  nextWindow_ = window + 1;
}

void PeakTracker::mergeRest() {
  mergeWindow(nextWindow_);
  mergeWindow(nextWindow_);
}

}  // namespace fl
