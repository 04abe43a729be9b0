#include "network/wire_format.h"

#include "scenario/scenario.h"

namespace fl::net {

WireFormat WireFormat::from(const NetworkSpec& spec) {
  WireFormat w;
  w.flitBytes = spec.flit_bytes;
  w.headerFlits = spec.header_flits;
  w.addressFlits = spec.address_flits;
  w.byteEnableFlits = spec.byte_enable_flits;
  w.maxPacketPayload = spec.max_packet_payload;
  return w;
}

}  // namespace fl::net
