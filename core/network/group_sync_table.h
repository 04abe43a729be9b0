// CAIS's Group Sync Table (seed 002 §III-B2, Fig. 8; specs/cais.md §2.7): a switch counts
// the one-flit SYNC packets of a TB group (the same thread block of one kernel on every
// GPU that takes part) and, when all members have arrived, releases them all at once.
// It also watches how far each GPU runs ahead: a GPU with `throttleOn` groups waiting
// here for their other members is told to stop issuing new groups until its count falls
// to `throttleOff` (the paper's switch-driven throttling, with waiting groups as the
// lead; spec [D]).
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
  Lead& leadOf(std::int32_t node);

  int on_, off_;
  FlatMap<Group> groups_;
  std::vector<std::pair<std::int32_t, Lead>> leads_;  // by GPU node (few)
  GroupSyncStats stats_;
};

}  // namespace fl::net
