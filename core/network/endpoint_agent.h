// The workload's side of an endpoint: told about every packet delivered to it.
#pragma once
#include "network/packet.h"

namespace fl::net {

class EndpointAgent {
 public:
  virtual ~EndpointAgent() = default;
  virtual void onDelivered(const Packet& p) = 0;
};

}  // namespace fl::net
