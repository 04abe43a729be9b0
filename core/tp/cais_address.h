// CAIS's deterministic, address-hashed routing (seed 002 §III-A5; specs/cais.md §2.6):
// every GPU hashes a block address to the same link slot, and the slot to the switch at
// the end of that slot's link, so all requests for one block, the home's data and the
// merged write meet in one switch's merge unit. Capacity-weighted: a switch with 5 of a
// GPU's 18 links takes 5/18 of the blocks (a plain modulo over 4 chips would cap each
// direction at 4 x 4 x 25 = 400 GB/s).
#pragma once
#include <cstdint>
#include <vector>

#include "network/network.h"

namespace fl::tp {

class CaisAddressMap {
 public:
  // From the endpoints' links: slot i is every GPU's i-th link. Throws std::logic_error
  // if the GPUs' links do not lead to the same switches in the same order.
  explicit CaisAddressMap(net::Network& net);
  // XOR-fold of the block number (address bits >= 7 for 128 B blocks), mod the slots.
  int slotOf(std::uint32_t block) const {
    std::uint32_t x = block;
    x ^= x >> 16;
    x ^= x >> 8;
    x *= 0x9E3779B1u;  // spread consecutive blocks over the slots
    return static_cast<int>((x >> 8) % static_cast<std::uint32_t>(switchOfSlot_.size()));
  }
  topo::NodeId switchOf(std::uint32_t block) const { return switchOfSlot_[static_cast<std::size_t>(slotOf(block))]; }
  int slots() const { return static_cast<int>(switchOfSlot_.size()); }

 private:
  std::vector<topo::NodeId> switchOfSlot_;
};

// One ld.cais or red.cais of `bytes` for `block`, whose home is node `home`, to the switch
// the block hashes to; `participants` GPUs take part (the home excluded: Expected).
inline net::Message caisMessage(net::Op op, const CaisAddressMap& map, std::uint32_t block, topo::NodeId home,
                                std::int64_t bytes, int participants, std::uint64_t tag = 0) {
  net::Message m;
  m.op = op;
  m.destination = map.switchOf(block);
  m.requester = home;
  m.bytes = bytes;
  m.firstPiece = block;
  m.expected = static_cast<std::uint16_t>(participants);
  m.tag = tag;
  return m;
}

}  // namespace fl::tp
