// The workload's side of an endpoint: told about every packet delivered to it.
#pragma once
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
};

}  // namespace fl::net
