// Ring all-reduce / reduce-scatter / all-gather: GPU i sends one chunk to GPU i+1 per
// step and may start step s+1 once it has received step s's chunk from GPU i-1
// (reduce-scatter steps then all-gather steps). Time ~ steps * (S/N / B + step latency).
#include <vector>

#include "workloads/collective.h"

namespace fl::work {
namespace {

class RingAgent : public Agent {
 public:
  RingAgent(net::EndpointNode& ep, const CollectiveSpec& c, int rank, int n,
            topo::NodeId next)
      : Agent(ep), spec_(c), rank_(rank), n_(n), next_(next) {
    reduceSteps_ = c.op == CollectiveOp::AllGather ? 0 : n - 1;
    gatherSteps_ = c.op == CollectiveOp::ReduceScatter ? 0 : n - 1;
    steps_ = reduceSteps_ + gatherSteps_;
    got_.assign(static_cast<std::size_t>(steps_), 0);
    for (int s = 0; s < steps_; ++s) expected_ += stepBytes(rank_ - 1, s);
  }

  void start() override {
    if (steps_ == 0) return finish();
    beginPhase(reduceSteps_ > 0 ? "reduce_scatter" : "all_gather");
    send(0);
  }

  void onDelivered(const net::Packet& p) override {
    if (p.op != net::Op::Write) return;
    const auto step = static_cast<int>(p.tag);
    got_[static_cast<std::size_t>(step)] += p.payload();
    received_ += p.payload();
    // Steps complete in order: a chunk can only be forwarded once fully received.
    while (done_ < steps_ && got_[static_cast<std::size_t>(done_)] >= stepBytes(rank_ - 1, done_)) {
      ++done_;
      if (done_ == reduceSteps_ && gatherSteps_ > 0) {
        endPhase();
        beginPhase("all_gather");
      }
      if (done_ < steps_) send(done_);
    }
    if (done_ == steps_) {
      endPhase();
      finish();
    }
  }

 private:
  // The chunk rank r sends at step s: chunk (r - s) mod n.
  std::int64_t stepBytes(int r, int s) const {
    const int chunk = ((r - s) % n_ + 2 * n_) % n_;
    return chunkBytes(spec_.size, n_, chunk);
  }
  void send(int step) {
    net::Message m;
    m.op = net::Op::Write;
    m.destination = next_;
    m.bytes = stepBytes(rank_, step);
    m.tag = static_cast<std::uint64_t>(step);
    post(m);
  }

  CollectiveSpec spec_;
  int rank_, n_;
  topo::NodeId next_;
  int reduceSteps_ = 0, gatherSteps_ = 0, steps_ = 0, done_ = 0;
  std::vector<std::int64_t> got_;
};

}  // namespace

std::unique_ptr<Workload> makeRingCollective(const CollectiveSpec& c, net::Network& net,
                                             Simulator& sim) {
  auto w = std::make_unique<CollectiveWorkload>(c);
  const int n = net.endpointCount();
  int rank = 0;
  w->createAgents(net, sim, [&](net::EndpointNode& ep) {
    const int r = rank++;
    const topo::NodeId next = net.topology().endpointNode((r + 1) % n);
    return std::make_unique<RingAgent>(ep, c, r, n, next);
  });
  return w;
}

}  // namespace fl::work
