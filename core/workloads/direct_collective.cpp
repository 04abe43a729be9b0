// Direct transfers: point-to-point copy, all-to-all (S/N to every peer) and
// all-to-all-v (per-pair sizes from the scenario's matrix, or a Zipf-skewed split).
// Every GPU posts all its sends at once; the endpoint interleaves them packet by packet.
#include <cmath>
#include <vector>

#include "workloads/collective.h"

namespace fl::work {
namespace {

using Matrix = std::vector<std::vector<std::int64_t>>;

Matrix trafficMatrix(const CollectiveSpec& c, int n) {
  Matrix m(static_cast<std::size_t>(n), std::vector<std::int64_t>(static_cast<std::size_t>(n), 0));
  switch (c.op) {
    case CollectiveOp::P2P:
      m[static_cast<std::size_t>(c.source)][static_cast<std::size_t>(c.destination)] = c.size;
      break;
    case CollectiveOp::AllToAll:
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          if (i != j) m[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = chunkBytes(c.size, n, j);
      break;
    case CollectiveOp::AllToAllV:
      if (!c.matrix.empty()) return c.matrix;
      // Peer at distance d (1..n-1) gets a share proportional to d^-skew of the S(n-1)/n
      // bytes that leave the GPU (skew 0: the uniform all-to-all).
      for (int i = 0; i < n; ++i) {
        double norm = 0;
        for (int d = 1; d < n; ++d) norm += std::pow(d, -c.skew);
        const double out = static_cast<double>(c.size) * (n - 1) / n;
        for (int d = 1; d < n; ++d)
          m[static_cast<std::size_t>(i)][static_cast<std::size_t>((i + d) % n)] =
              static_cast<std::int64_t>(std::llround(out * std::pow(d, -c.skew) / norm));
      }
      break;
    default:
      break;
  }
  return m;
}

class DirectAgent : public Agent {
 public:
  DirectAgent(net::EndpointNode& ep, const net::Network& net, const Matrix& m, int rank)
      : Agent(ep), net_(net), row_(m[static_cast<std::size_t>(rank)]), rank_(rank) {
    for (const auto& r : m) expected_ += r[static_cast<std::size_t>(rank)];
  }
  void start() override {
    beginPhase("transfer");
    // Staggered order (peer rank+1, rank+2, ...), as all-to-all implementations do, so
    // that the GPUs do not all start on the same destination (an incast wave).
    const std::size_t n = row_.size();
    for (std::size_t d = 1; d <= n; ++d) {
      const std::size_t j = (static_cast<std::size_t>(rank_) + d) % n;
      if (row_[j] == 0) continue;
      net::Message msg;
      msg.op = net::Op::Write;
      msg.destination = net_.topology().endpointNode(static_cast<int>(j));
      msg.bytes = row_[j];
      msg.tag = j;
      post(msg);
    }
    checkDone();
  }
  void onDelivered(const net::Packet& p) override {
    if (p.op == net::Op::Write) received_ += p.payload();
    checkDone();
  }

 private:
  void checkDone() {
    if (received_ >= expected_ && !finished()) {
      endPhase();
      finish();
    }
  }
  const net::Network& net_;
  std::vector<std::int64_t> row_;
  int rank_;
};

}  // namespace

std::unique_ptr<Workload> makeDirectCollective(const CollectiveSpec& c, net::Network& net,
                                               Simulator& sim) {
  auto w = std::make_unique<CollectiveWorkload>(c);
  const Matrix m = trafficMatrix(c, net.endpointCount());
  int rank = 0;
  w->createAgents(net, sim, [&](net::EndpointNode& ep) {
    return std::make_unique<DirectAgent>(ep, net, m, rank++);
  });
  return w;
}

}  // namespace fl::work
