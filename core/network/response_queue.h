// An endpoint's queue of responses waiting for a link. Responses (LdReduceData above all)
// can queue by the hundred thousand; kept as pooled packets, every injection attempt
// read a packet slot written long before (a cache miss per attempt, the largest single
// stall in big NVLS runs). Here the packets themselves sit in a ring, read in order, and
// enter the pool only when sent. They still count as live packets meanwhile
// (PacketPool::hold), so peak_live_packets is what it was.
#pragma once
#include "engine/ring_queue.h"
#include "network/packet.h"

namespace fl::net {

using ResponseQueue = RingQueue<Packet>;

}  // namespace fl::net
