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

std::int64_t WireFormat::flits(Op op, std::int64_t payload, int extensionFlits) const {
  const std::int64_t nvlinkPackets =
      payload <= 0 ? 1 : (payload + maxPacketPayload - 1) / maxPacketPayload;
  std::int64_t perPacket = headerFlits + extensionFlits;
  if (carriesAddress(op)) perPacket += addressFlits;
  if (carriesByteEnable(op) && payload > 0) perPacket += byteEnableFlits;
  const std::int64_t dataFlits = (payload + flitBytes - 1) / flitBytes;
  return nvlinkPackets * perPacket + dataFlits;
}

}  // namespace fl::net
