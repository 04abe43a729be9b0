// A packet as it crosses the fabric. The wire size is explicit (flits), so payload
// efficiency is a result of the framing, not a constant. Trivially copyable: it is
// copied when it crosses a partition boundary.
#pragma once
#include <cstdint>
#include <type_traits>

#include "engine/time.h"

namespace fl::net {

// What the packet does; NVLS primitives are named after their PTX instructions.
enum class Op : std::uint8_t {
  Write,         // store carrying data (unicast)
  Ack,           // acknowledgement of an acknowledged write/reduction, or an agent's
                 // end-to-end acknowledgement (Packet::endToEnd)
  ReadRequest,   // load request (no data)
  ReadResponse,  // load response (data)
  McStore,       // multimem.st: one packet in, one replica per group member out
  LdReduce,      // multimem.ld_reduce request from a GPU to a switch
  LdReduceRead,  // the switch's fan-out read to each member
  LdReduceData,  // a member's contribution back to the switch
  LdReduceResult,// the reduced (possibly partial) result back to the requester
  Red,           // multimem.red: push contribution reduced in the switch
  // CAIS (seed 002): mergeable loads and reductions, to the switch the address hashes to
  // (destination); `requester` carries the home GPU of the address, `piece` the block.
  CaisLoad,      // ld.cais request, GPU -> switch
  CaisRead,      // the switch's fetch from the home (requester: the GPU a bypass answers)
  CaisData,      // the home's data back to the switch, on the link the read came by
  CaisResponse,  // ld.cais answer, switch -> requester (merged fan-out or bypass)
  CaisRed,       // red.cais operand, GPU -> switch
  CaisWrite,     // merged (or flushed, or bypassed) sum, switch -> home; `contributions`
  // CAIS TB-group coordination (seed 002 §III-B2): one-flit control packets.
  CaisSync,      // GPU -> sync switch: `piece` the group, `expected` its members
  CaisRelease,   // sync switch -> member: the group may go
  CaisThrottle,  // sync switch -> GPU: `contributions` 1 = stop issuing groups, 0 = resume
};

const char* toString(Op op);
// Inline: asked for every packet's wire size.
// Travels on the response virtual channels.
inline bool isResponseClass(Op op) {
  return op == Op::Ack || op == Op::ReadResponse || op == Op::LdReduceData ||
         op == Op::LdReduceResult || op == Op::CaisData || op == Op::CaisResponse || op == Op::CaisRelease ||
         op == Op::CaisThrottle;
}
// Requests carry an address-extension flit.
inline bool carriesAddress(Op op) {
  return op == Op::Write || op == Op::ReadRequest || op == Op::McStore || op == Op::LdReduce ||
         op == Op::LdReduceRead || op == Op::Red || op == Op::CaisLoad || op == Op::CaisRead ||
         op == Op::CaisRed || op == Op::CaisWrite;
}
// Writes carry a byte-enable flit.
inline bool carriesByteEnable(Op op) {
  return op == Op::Write || op == Op::McStore || op == Op::Red || op == Op::CaisRed || op == Op::CaisWrite;
}
// Ask for data without carrying any: their size is the data they refer to (and CAIS's
// one-flit control packets, which carry none).
inline bool requestsData(Op op) {
  return op == Op::ReadRequest || op == Op::LdReduce || op == Op::LdReduceRead || op == Op::CaisLoad ||
         op == Op::CaisRead || op == Op::CaisSync || op == Op::CaisRelease || op == Op::CaisThrottle;
}

// One cache line: a packet is read on every hop, and hundreds of thousands can be live,
// so most touches are cache misses; 64 B aligned makes each one line instead of two.
// Hence one size field for payload and requested bytes (no packet has both), the
// reduction key is the piece index, and the two flags are bits.
struct alignas(64) Packet {
  std::uint64_t tag = 0;        // workload's message tag
  Time created = 0;             // when the source generated it (latency is measured from here)
  Time tailAt = 0;              // when its last flit reaches the node now holding it
  std::int32_t source = -1;     // node that generated it
  std::int32_t destination = -1;// node it is routed to (an endpoint, or a switch for NVLS)
  std::int32_t requester = -1;  // LdReduce*: the endpoint that asked; Red: result destination
  std::int32_t group = -1;      // multicast group
  std::uint32_t size = 0;       // payload(), or dataBytes() for requestsData(op)
  std::uint32_t wireBytes = 0;  // bytes on the wire, all flits
  std::uint32_t piece = 0;      // index of this packet within its message; also the
                                // reduction key (with requester it is unique)
  std::uint16_t contributions = 0;  // reductions: how many operands this packet sums
  std::uint16_t expected = 0;       // reductions: operands the full result needs
  std::int16_t resultPort = -1;     // switch-internal: port a reduction result leaves by;
                                    // on a multicast original, the port of its replica
                                    // that finishes last (SwitchNode::startReplica)
  std::uint16_t replicasLeft = 0;   // switch-internal: multicast replicas not started yet
  std::uint8_t vc = 0;
  Op op = Op::Write;
  std::uint8_t phase = 0;       // the workload's traffic phase (Message::phase), kept by
                                // responses, replicas and reduction results
  bool measured : 1 = false;    // synthetic traffic: inside the measurement window
  bool endToEnd : 1 = false;    // Ack posted by an agent (no request of the receiver waits)

  // Data bytes carried.
  std::uint32_t payload() const { return requestsData(op) ? 0 : size; }
  // Data bytes a request refers to (reads, ld_reduce and its fan-out reads).
  std::uint32_t dataBytes() const { return size; }
};

// Traffic phases a workload may number (0: none); links count payload per phase.
inline constexpr int kTrafficPhases = 4;

static_assert(std::is_trivially_copyable_v<Packet>);
static_assert(sizeof(Packet) == 64);

}  // namespace fl::net
