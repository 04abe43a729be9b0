// What the merge-table inspector draws, worked out from a switch's merge log (seed 002
// §III-A2..A4; specs/cais.md §2.2): one merge unit's entries laid out in stable slots
// (an entry keeps its slot for its whole life, so the picture does not jump from frame to
// frame) and, for a time window, each slot's entry and state: live (Load-Wait,
// Load-Ready, Reduction) at the window's end, or how it ended inside the window.
// The unit's own slot numbers are not recorded; slots here are the lowest free one at
// each entry's start, which never needs more slots than the unit held entries at once.
#pragma once
#include <cstdint>
#include <vector>

#include "results/results.h"

namespace fl::views {

enum class MergeCellState : std::uint8_t {
  Empty,
  LoadWait,       // ld.cais session waiting for the home's data
  LoadReady,      // data cached; later requesters answered from the switch
  Reduction,      // red.cais operands being summed
  Completed,      // every expected request merged
  Evicted,        // pushed out by LRU (a Reduction's partial sum flushed)
  TimedOut,       // idle past the merge timeout
  EvictedOnFill,  // a Load-Wait victim, freed when its data came
};
inline constexpr int kMergeCellStates = 8;
const char* mergeCellStateName(MergeCellState s);  // "Load-Wait", ...

// The state of a live entry at instant t (start <= t < end); Empty outside its life.
MergeCellState liveStateAt(const MergeEntryRecord& e, Time t);
// How an entry's life ended, as a cell state.
MergeCellState endState(const MergeEntryRecord& e);

// One merge unit's log: its entries (start order), their slots, its bypasses (time order).
struct MergePortLog {
  const SwitchResult* sw = nullptr;
  int port = -1;
  std::vector<const MergeEntryRecord*> entries;
  std::vector<int> slot;  // by entry
  int slotCount = 0;      // the unit's capacity, or more slots where the log needs them
  std::vector<std::vector<int>> bySlot;  // entry indices per slot, in time order
  std::vector<const MergeBypassRecord*> bypasses;
};
MergePortLog collectPortLog(const SwitchResult& sw, int port, std::int64_t capacity);

struct MergeCell {
  const MergeEntryRecord* entry = nullptr;  // null: empty
  MergeCellState state = MergeCellState::Empty;
  int arrivedBy = 0;  // requests that had joined it by the window's end
};

// The window (from, to]: per slot, the entry live at `to` or else the last one that ended
// inside the window; plus what happened inside it.
struct MergeWindow {
  std::vector<MergeCell> cells;  // by slot
  std::int64_t opened = 0;       // entries allocated in the window
  std::int64_t ended[kMergeCellStates] = {};  // by end state (Completed .. EvictedOnFill)
  std::int64_t live[kMergeCellStates] = {};   // at `to`, by live state
  std::int64_t bypassedLoads = 0, bypassedReductions = 0;
};
MergeWindow mergeWindow(const MergePortLog& log, Time from, Time to);

// Requests of entry `e` that had arrived by t (its MergeArrival offsets are in ns).
int arrivalsBy(const SwitchResult& sw, const MergeEntryRecord& e, Time t);

}  // namespace fl::views
