#include "views/merge_table_state.h"

#include <algorithm>
#include <functional>
#include <queue>

namespace fl::views {

const char* mergeCellStateName(MergeCellState s) {
  switch (s) {
    case MergeCellState::Empty: return "empty";
    case MergeCellState::LoadWait: return "Load-Wait";
    case MergeCellState::LoadReady: return "Load-Ready";
    case MergeCellState::Reduction: return "Reduction";
    case MergeCellState::Completed: return "completed";
    case MergeCellState::Evicted: return "evicted";
    case MergeCellState::TimedOut: return "timed out";
    case MergeCellState::EvictedOnFill: return "evicted on fill";
  }
  return "?";
}

MergeCellState liveStateAt(const MergeEntryRecord& e, Time t) {
  if (t < e.start || t >= e.end) return MergeCellState::Empty;
  if (!e.load) return MergeCellState::Reduction;
  return e.ready >= 0 && e.ready <= t ? MergeCellState::LoadReady : MergeCellState::LoadWait;
}

MergeCellState endState(const MergeEntryRecord& e) {
  switch (e.reason) {
    case MergeEndReason::Completed: return MergeCellState::Completed;
    case MergeEndReason::Evicted: return MergeCellState::Evicted;
    case MergeEndReason::TimedOut: return MergeCellState::TimedOut;
    case MergeEndReason::EvictedOnFill: return MergeCellState::EvictedOnFill;
  }
  return MergeCellState::Completed;
}

int arrivalsBy(const SwitchResult& sw, const MergeEntryRecord& e, Time t) {
  if (t < e.start) return 0;
  if (std::size_t(e.arrivals) + e.arrived > sw.merge_arrivals.size()) return e.arrived;  // no offsets recorded
  int n = 0;
  for (int k = 0; k < e.arrived; ++k)
    if (e.start + Time(sw.merge_arrivals[e.arrivals + std::size_t(k)].offset_ns) * kNanosecond <= t) ++n;
  return n;
}

MergePortLog collectPortLog(const SwitchResult& sw, int port, std::int64_t capacity) {
  MergePortLog log;
  log.sw = &sw;
  log.port = port;
  for (const MergeEntryRecord& e : sw.merge_log)
    if (e.port == port) log.entries.push_back(&e);
  std::stable_sort(log.entries.begin(), log.entries.end(),
                   [](const auto* a, const auto* b) { return a->start < b->start; });
  // Lowest free slot at each start; an entry ending at t frees its slot for one starting at t.
  std::priority_queue<int, std::vector<int>, std::greater<>> free;
  using Busy = std::pair<Time, int>;  // end, slot
  std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
  int next = 0;
  log.slot.resize(log.entries.size());
  for (std::size_t i = 0; i < log.entries.size(); ++i) {
    const MergeEntryRecord& e = *log.entries[i];
    while (!busy.empty() && busy.top().first <= e.start) {
      free.push(busy.top().second);
      busy.pop();
    }
    int s = next;
    if (free.empty()) ++next;
    else {
      s = free.top();
      free.pop();
    }
    log.slot[i] = s;
    busy.push({e.end, s});
  }
  log.slotCount = std::max<int>(next, int(std::max<std::int64_t>(capacity, 0)));
  log.bySlot.assign(std::size_t(log.slotCount), {});
  for (std::size_t i = 0; i < log.entries.size(); ++i) log.bySlot[std::size_t(log.slot[i])].push_back(int(i));
  for (const MergeBypassRecord& b : sw.merge_bypasses)
    if (b.port == port) log.bypasses.push_back(&b);
  std::stable_sort(log.bypasses.begin(), log.bypasses.end(),
                   [](const auto* a, const auto* b) { return a->time < b->time; });
  return log;
}

MergeWindow mergeWindow(const MergePortLog& log, Time from, Time to) {
  MergeWindow w;
  w.cells.resize(std::size_t(log.slotCount));
  for (std::size_t s = 0; s < log.bySlot.size(); ++s) {
    const auto& ids = log.bySlot[s];
    // A slot's entries are disjoint in time, in start order: the last one started by `to`
    // is live at `to` or the last to have ended.
    const auto it = std::upper_bound(ids.begin(), ids.end(), to,
                                     [&](Time t, int i) { return t < log.entries[std::size_t(i)]->start; });
    if (it == ids.begin()) continue;
    const MergeEntryRecord& e = *log.entries[std::size_t(*(it - 1))];
    MergeCell& c = w.cells[s];
    if (e.end > to) c.state = liveStateAt(e, to);
    else if (e.end > from) c.state = endState(e);
    else continue;
    c.entry = &e;
    c.arrivedBy = log.sw ? arrivalsBy(*log.sw, e, to) : e.arrived;
  }
  for (const MergeEntryRecord* e : log.entries) {
    if (e->start > to) break;
    if (e->start > from) ++w.opened;
    if (e->end > from && e->end <= to) ++w.ended[int(endState(*e))];
    else if (e->end > to) ++w.live[int(liveStateAt(*e, to))];
  }
  const auto first = std::upper_bound(log.bypasses.begin(), log.bypasses.end(), from,
                                      [](Time t, const MergeBypassRecord* b) { return t < b->time; });
  for (auto it = first; it != log.bypasses.end() && (*it)->time <= to; ++it) ++((*it)->load ? w.bypassedLoads : w.bypassedReductions);
  return w;
}

}  // namespace fl::views
