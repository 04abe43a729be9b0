// The switch's side of CAIS TB-group coordination (seed 002 §III-B2; specs/cais.md §2.7):
// a SYNC packet ends here, is counted in the Group Sync Table, and a complete group sends
// one RELEASE to each member; throttle changes go to the GPU concerned. All one flit.
#include "network/network.h"
#include "network/switch_node.h"

namespace fl::net {

void SwitchNode::caisSync(int inPort, PacketHandle h) {
  const Packet p = pool()[h];
  pool().release(h);
  ++stats_.packetsConsumed;
  release(inPort, p.vc, flitsOf(p));
  if (!groupSync_) groupSync_ = std::make_unique<GroupSyncTable>(config().caisThrottleOn, config().caisThrottleOff);
  answer_.clear();
  throttle_.clear();
  if (groupSync_->sync(p.piece, p.source, p.expected, answer_, throttle_))
    for (const std::int32_t m : answer_) emitCais(Op::CaisRelease, m, -1, p, 0, 0);
  for (const auto& [gpu, on] : throttle_) emitCais(Op::CaisThrottle, gpu, -1, p, 0, on ? 1 : 0);
}

}  // namespace fl::net
