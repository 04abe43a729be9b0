// CAIS primitives as collectives (seed 002 §III-A; specs/cais.md C2): reduce-scatter as
// red.cais pushes and all-gather as ld.cais pulls, each block through the switch its
// address hashes to, where the merge units combine them.
// - reduce-scatter of S: chunk c (S/N, ownership [c S/N, (c+1) S/N)) lives on GPU c; every
//   other GPU pushes its partial of each 128 B block of it (red.cais, N-1 operands per
//   block; the home adds its own locally). The home counts contributions per block: done
//   when each block's counts sum to N-1.
// - all-gather of S: every GPU loads each block of every other GPU's chunk (ld.cais); the
//   switch fetches each block from its home once and answers the N-1 requesters.
// workload.collective.stagger delays GPUs N/2..N-1 (the two-cohort drift of spec C8).
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "tp/cais_address.h"
#include "tp/cais_collective.h"

namespace fl::tp {
namespace {

using work::chunkBytes;

struct Layout {
  int n = 0;
  std::int64_t piece = 0;
  std::vector<std::uint32_t> firstBlock;  // by chunk, and one past the last
  std::vector<std::int64_t> bytes;        // by chunk
  std::uint32_t blocks(int c) const { return firstBlock[static_cast<std::size_t>(c) + 1] - firstBlock[static_cast<std::size_t>(c)]; }
  std::uint32_t blockBytes(int c, std::uint32_t i) const {
    return static_cast<std::uint32_t>(
        std::min<std::int64_t>(piece, bytes[static_cast<std::size_t>(c)] - static_cast<std::int64_t>(i) * piece));
  }
};

class CaisAgent : public work::Agent {
 public:
  CaisAgent(net::EndpointNode& ep, const CollectiveSpec& c, int rank, const Layout& layout,
            const CaisAddressMap& map, const std::vector<topo::NodeId>& homes)
      : Agent(ep), reduce_(c.op == CollectiveOp::ReduceScatter), rank_(rank), layout_(layout), map_(map),
        homes_(homes) {
    stagger_ = rank >= layout.n / 2 ? c.stagger : 0;
    if (reduce_) {
      counts_.assign(layout.blocks(rank), 0);
      expected_ = layout.bytes[static_cast<std::size_t>(rank)];
    } else {
      for (int h = 0; h < layout.n; ++h)
        if (h != rank) requests_ += layout.blocks(h);
      answered_.assign(layout.firstBlock.back(), 0);
      for (int h = 0; h < layout.n; ++h)
        if (h != rank) expected_ += layout.bytes[static_cast<std::size_t>(h)];
    }
  }

  void start() override {
    if (stagger_ > 0) return wakeAt(now() + stagger_);
    issue();
  }
  void onTimer(std::uint64_t) override { issue(); }

  void onDelivered(const net::Packet& p) override {
    if (p.op == net::Op::CaisWrite) {
      const std::uint32_t i = p.piece - layout_.firstBlock[static_cast<std::size_t>(rank_)];
      if (i >= counts_.size()) throw std::logic_error("cais: a write for a block this GPU does not own");
      const int need = layout_.n - 1;
      const int before = counts_[i];
      counts_[i] = static_cast<std::uint16_t>(before + p.contributions);
      if (before < need && counts_[i] == need) ++complete_;
      if (before <= need && counts_[i] > need) ++overfilled_;
      received_ += before < need && counts_[i] >= need ? p.payload() : 0;
    } else if (p.op == net::Op::CaisResponse) {
      std::uint8_t& a = answered_[p.piece];
      if (++a == 1) {
        ++responses_;
        received_ += p.payload();
      } else {
        ++duplicates_;
      }
    }
    if (reduce_ ? complete_ == static_cast<std::int64_t>(counts_.size()) : responses_ == requests_) {
      endPhase(reduce_ ? "red.cais" : "ld.cais");
      finish();
    }
  }

  std::int64_t blocks() const { return static_cast<std::int64_t>(counts_.size()); }
  std::int64_t complete() const { return complete_; }
  std::int64_t overfilled() const { return overfilled_; }
  std::int64_t requests() const { return requests_; }
  std::int64_t responses() const { return responses_; }
  std::int64_t duplicates() const { return duplicates_; }

 private:
  // Every GPU walks the blocks in the same order, block i of every chunk in turn (its own
  // skipped), so the GPUs stay within one block of each other and every home and switch
  // port is busy at once.
  void issue() {
    beginPhase(reduce_ ? "red.cais" : "ld.cais");
    std::uint32_t most = 0;
    for (int h = 0; h < layout_.n; ++h) most = std::max(most, layout_.blocks(h));
    for (std::uint32_t i = 0; i < most; ++i) {
      for (int home = 0; home < layout_.n; ++home) {
        if (home == rank_ || i >= layout_.blocks(home)) continue;
        const std::uint32_t block = layout_.firstBlock[static_cast<std::size_t>(home)] + i;
        post(caisMessage(reduce_ ? net::Op::CaisRed : net::Op::CaisLoad, map_, block,
                         homes_[static_cast<std::size_t>(home)], layout_.blockBytes(home, i), layout_.n - 1));
      }
    }
    if ((reduce_ && counts_.empty()) || (!reduce_ && requests_ == 0)) finish();
  }

  bool reduce_;
  int rank_;
  const Layout& layout_;
  const CaisAddressMap& map_;
  const std::vector<topo::NodeId>& homes_;
  Time stagger_ = 0;
  std::vector<std::uint16_t> counts_;   // reduce-scatter: contributions per own block
  std::vector<std::uint8_t> answered_;  // all-gather: answers per block
  std::int64_t complete_ = 0, overfilled_ = 0;
  std::int64_t requests_ = 0, responses_ = 0, duplicates_ = 0;
};

class CaisCollective : public work::CollectiveWorkload {
 public:
  CaisCollective(const CollectiveSpec& c, net::Network& net) : CollectiveWorkload(c), map_(net) {
    layout_.n = net.endpointCount();
    layout_.piece = net.config().packetPayload;
    layout_.firstBlock.push_back(0);
    for (int h = 0; h < layout_.n; ++h) {
      const std::int64_t b = chunkBytes(c.size, layout_.n, h);
      layout_.bytes.push_back(b);
      layout_.firstBlock.push_back(layout_.firstBlock.back() +
                                   static_cast<std::uint32_t>((b + layout_.piece - 1) / layout_.piece));
      homes_.push_back(net.endpoint(h).node());
    }
  }
  void build(net::Network& net, Simulator& sim) {
    int rank = 0;
    createAgents(net, sim, [&](net::EndpointNode& ep) {
      return std::make_unique<CaisAgent>(ep, spec_, rank++, layout_, map_, homes_);
    });
  }
  void finish(Results& r) const override {
    CollectiveWorkload::finish(r);
    CaisResults c = r.cais.value_or(CaisResults{});
    for (const auto& a : agents_) {
      const auto& g = static_cast<const CaisAgent&>(*a);
      c.blocks += g.blocks();
      c.blocks_complete += g.complete();
      c.blocks_overfilled += g.overfilled();
      c.load_requests += g.requests();
      c.load_responses += g.responses();
      c.duplicate_responses += g.duplicates();
    }
    r.cais = c;
  }

 private:
  CaisAddressMap map_;
  Layout layout_;
  std::vector<topo::NodeId> homes_;
};

}  // namespace

std::unique_ptr<work::Workload> makeCaisCollective(const CollectiveSpec& c, net::Network& net, Simulator& sim) {
  auto w = std::make_unique<CaisCollective>(c, net);
  w->build(net, sim);
  return w;
}

}  // namespace fl::tp
