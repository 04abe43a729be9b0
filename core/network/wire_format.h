// How many flits a packet takes on the wire. A simulated packet may stand for several
// NVLink packets (network.packet_payload > network.max_packet_payload): framing is then
// accounted per NVLink packet, so coarse simulation keeps exact wire bytes.
#pragma once
#include <cstdint>

#include "network/packet.h"

namespace fl {
struct NetworkSpec;
}

namespace fl::net {

struct WireFormat {
  int flitBytes = 16;
  int headerFlits = 1;
  int addressFlits = 1;
  int byteEnableFlits = 1;
  std::int64_t maxPacketPayload = 256;

  static WireFormat from(const NetworkSpec& spec);

  // Flits of a packet carrying `payload` data bytes for operation `op`, plus
  // `extensionFlits` per NVLink packet (e.g. target lists).
  // Inline: asked for every packet made and every multicast replica.
  std::int64_t flits(Op op, std::int64_t payload, int extensionFlits = 0) const {
    const std::int64_t nvlinkPackets =
        payload <= 0 ? 1 : (payload + maxPacketPayload - 1) / maxPacketPayload;
    std::int64_t perPacket = headerFlits + extensionFlits;
    if (carriesAddress(op)) perPacket += addressFlits;
    if (carriesByteEnable(op) && payload > 0) perPacket += byteEnableFlits;
    const std::int64_t dataFlits = (payload + flitBytes - 1) / flitBytes;
    return nvlinkPackets * perPacket + dataFlits;
  }
  std::int64_t wireBytes(Op op, std::int64_t payload, int extensionFlits = 0) const {
    return flits(op, payload, extensionFlits) * flitBytes;
  }
};

}  // namespace fl::net
