// The workload's side of an endpoint: told about every packet delivered to it.
#pragma once
#include <cstdint>

#include "engine/time.h"
#include "network/packet.h"

namespace fl::net {

class EndpointAgent {
 public:
  virtual ~EndpointAgent() = default;
  virtual void onDelivered(const Packet& p) = 0;
  // Extra time before the endpoint answers a read of `p` (e.g. an address translation
  // miss in the hub); asked once per read, before onDelivered.
  virtual Time responseDelay(const Packet& p) { return 0; }
  // The last packet of a posted message (tag `tag`) has left the endpoint: a sending
  // warp is free again. Called from inside injection: do not post from here (schedule
  // an event and post from that).
  virtual void onSent(std::uint64_t tag) {}
};

}  // namespace fl::net
