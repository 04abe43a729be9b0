// "Follow one": the hops of a few chosen packets, each with its times, recorded while a
// run goes on, so a view can replay one token's or one chunk's way through the fabric in
// slow motion (replicas leaving a switch, contributions merging into one result).
//
// Packets are chosen by what the workloads already stamp on them and every packet made
// from them keeps (Packet::tag, piece, source, requester): responses, a switch's fan-out
// reads and multicast replicas, and reduction results all carry their request's tag and
// piece. Only matching packets are recorded, each node at most `maxHops` hops, so the
// cost stays bounded; the recording is the same for any thread or partition count.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/time.h"

namespace fl {

struct FollowKey {
  std::uint64_t tag = 0;
  // The node the packet works for: its requester (reads, ld_reduce fan-out, contributions
  // and results carry the GPU that asked), else its source; -1: any.
  std::int32_t node = -1;
  std::int32_t group = 0;    // which selector of run.follow's list it comes from (colours, JSON)
  std::int64_t piece = -1;   // and only this piece of its message (-1: FollowSpec::piece decides)
  bool operator==(const FollowKey&) const = default;
};

struct FollowSpec {
  std::vector<FollowKey> keys;  // a packet matching any key is followed
  std::int64_t piece = -1;      // and only this piece of its message (-1: every piece)
  std::int64_t maxHops = 100000;  // per node; the recording stops there (see truncated)

  bool empty() const { return keys.empty(); }
  bool matches(std::uint64_t tag, std::int32_t source, std::int32_t requester, std::uint32_t piece) const {
    return groupOf(tag, source, requester, piece) >= 0;
  }
  // The group of the first key the packet matches; -1: none.
  int groupOf(std::uint64_t tag, std::int32_t source, std::int32_t requester, std::uint32_t piece) const {
    if (this->piece >= 0 && static_cast<std::int64_t>(piece) != this->piece) return -1;
    const std::int32_t origin = requester >= 0 ? requester : source;
    for (const FollowKey& k : keys)
      if (k.tag == tag && (k.node < 0 || k.node == origin) && (k.piece < 0 || k.piece == static_cast<std::int64_t>(piece)))
        return k.group;
    return -1;
  }
  bool operator==(const FollowSpec&) const = default;
};

// One packet crossing one link direction.
struct FollowedHop {
  Time start = 0;   // its first bit leaves `from`
  Time end = 0;     // its last bit leaves `from`
  Time arrive = 0;  // its last bit reaches `to`
  std::int32_t from = -1, to = -1;  // topology nodes
  std::int32_t link = -1;           // topology link
  std::int32_t direction = 0;       // 0: link.a -> link.b, 1: back
  std::uint8_t op = 0;              // net::Op (net::toString names it)
  std::uint16_t contributions = 0;  // a reduction packet: the operands it sums
  std::int32_t source = -1, requester = -1;
  std::uint32_t piece = 0;
  std::uint64_t tag = 0;
  bool operator==(const FollowedHop&) const = default;
};

// Several selectors followed in one run (run.follow as a list): spec i's keys become group
// i, each keeping its own piece. One spec is returned as it is.
FollowSpec combineFollowSpecs(const std::vector<FollowSpec>& specs);

struct PacketFollow {
  FollowSpec spec;
  std::string what;               // in the workload's words: token 3 of GPU 0
  std::vector<std::string> parts;  // run.follow lists several: what each names (by group); else empty
  std::vector<FollowedHop> hops;  // by start, then from, then link and direction
  bool truncated = false;         // a node reached spec.maxHops
  // Which selector of the list a hop belongs to (0 with one selector).
  int selectorOf(const FollowedHop& h) const { return std::max(0, spec.groupOf(h.tag, h.source, h.requester, h.piece)); }
};

// A hop as the outputs write it: node names from the results' link table, the operation's
// name (net::toString). Rows of JSON "follow.hops", CSV follow.csv and the report's table.
struct NamedHop {
  const FollowedHop* hop = nullptr;
  std::string from, to, op;
};
struct Results;
std::vector<NamedHop> namedHops(const Results& results);

// Canonical order of hops (start, from, link, direction, op, piece): the same for any
// partitioning, since every field is a pure function of the run.
void sortHops(std::vector<FollowedHop>& hops);

}  // namespace fl
