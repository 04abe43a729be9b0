#include "network/group_sync_table.h"

#include <algorithm>
#include <stdexcept>

namespace fl::net {

GroupSyncTable::Lead& GroupSyncTable::leadOf(std::int32_t node, std::uint32_t lane) {
  for (LaneLead& l : leads_)
    if (l.node == node && l.lane == lane) return l.lead;
  // A lane with nothing waiting is forgotten (below), so the list stays a few lanes long.
  for (LaneLead& l : leads_)
    if (l.lead.waiting == 0 && !l.lead.throttled) {
      l = {node, lane, Lead{}};
      return l.lead;
    }
  leads_.push_back({node, lane, Lead{}});
  return leads_.back().lead;
}

bool GroupSyncTable::sync(std::uint32_t group, std::int32_t member, int expected, std::vector<std::int32_t>& release,
                          std::vector<std::pair<std::int32_t, bool>>& throttle) {
  if (expected < 1 || expected > kMaxMembers) throw std::logic_error("group sync: member count out of range");
  ++stats_.syncs;
  bool inserted = false;
  Group& g = groups_.findOrInsert(group, Group{}, inserted);
  g.members[g.count++] = member;
  if (g.count < expected) {
    stats_.peakGroups = std::max(stats_.peakGroups, groups());
    Lead& l = leadOf(member, group >> kLaneShift);
    ++l.waiting;
    if (on_ > 0 && !l.throttled && l.waiting >= on_) {
      l.throttled = true;
      ++stats_.throttleOn;
      throttle.emplace_back(member, true);
    }
    return false;
  }
  for (int i = 0; i < g.count; ++i) {
    const std::int32_t m = g.members[static_cast<std::size_t>(i)];
    release.push_back(m);
    if (i + 1 == g.count) break;  // the last member never waited
    Lead& l = leadOf(m, group >> kLaneShift);
    --l.waiting;
    if (l.throttled && l.waiting <= off_) {
      l.throttled = false;
      ++stats_.throttleOff;
      throttle.emplace_back(m, false);
    }
  }
  stats_.releases += g.count;
  groups_.erase(group);
  return true;
}

}  // namespace fl::net
