// CAIS's Group Sync Table (seed 002 §III-B2, Fig. 8; specs/cais.md §2.7): a switch counts
// the one-flit SYNC packets of a TB group (the same thread block of one kernel on every
// GPU that takes part) and, when all members have arrived, releases them all at once.
// It also watches how far each GPU runs ahead: a GPU with `throttleOn` groups waiting
// here for their other members is told to stop issuing new groups until its count falls
// to `throttleOff` (the paper's switch-driven throttling, with waiting groups as the
// lead; spec [D]).
// Leads are counted per lane, a group id's bits from kLaneShift up (the TP agent puts the
// junction and kernel slot there): under graph-level dataflow a GPU runs two coordinated
// kernels at once (GEMM-RS and AG-GEMM) and may lead in one while trailing in the other.
// Counted together, a GPU ahead in AG-GEMM was throttled in GEMM-RS too, where the others
// waited for it, and every GPU could end up throttled (Mega-GPT-4B cais_partial stalled
// so). Per lane, the GPU furthest behind in a lane has no group waiting there (its SYNCs
// complete groups), so it is never held back in that lane. A THROTTLE packet carries the
// id of a group of its lane (the SYNC that turned it on, or the one whose release turned
// it off).
//
// Pure bookkeeping: the switch turns the answers into RELEASE and THROTTLE packets.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "engine/flat_map.h"

namespace fl::net {

struct GroupSyncStats {
  std::int64_t syncs = 0, releases = 0, throttleOn = 0, throttleOff = 0;
  std::int64_t peakGroups = 0;
};

class GroupSyncTable {
 public:
  static constexpr int kMaxMembers = 32;
  static constexpr int kLaneShift = 21;
  GroupSyncTable(int throttleOn = 0, int throttleOff = 0) : on_(throttleOn), off_(throttleOff) {}

  // SYNC(group) from `member` (a node id) of a group of `expected` members. Returns true
  // when the group is complete: its members are in `release`. Throttle changes (GPU node,
  // on/off) are appended to `throttle`.
  bool sync(std::uint32_t group, std::int32_t member, int expected, std::vector<std::int32_t>& release,
            std::vector<std::pair<std::int32_t, bool>>& throttle);
  std::int64_t groups() const { return static_cast<std::int64_t>(groups_.size()); }
  const GroupSyncStats& stats() const { return stats_; }

 private:
  struct Group {
    std::uint16_t count = 0;
    std::array<std::int32_t, kMaxMembers> members{};
  };
  struct Lead {
    std::int32_t waiting = 0;
    bool throttled = false;
  };
  Lead& leadOf(std::int32_t node, std::uint32_t lane);

  int on_, off_;
  FlatMap<Group> groups_;
  struct LaneLead {
    std::int32_t node;
    std::uint32_t lane;
    Lead lead;
  };
  std::vector<LaneLead> leads_;  // by GPU node and lane (few)
  GroupSyncStats stats_;
};

}  // namespace fl::net
