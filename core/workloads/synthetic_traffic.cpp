#include "workloads/synthetic_traffic.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "engine/random.h"

namespace fl::work {
namespace {

class TrafficAgent : public Agent {
 public:
  TrafficAgent(net::EndpointNode& ep, const net::Network& net, const TrafficSpec& t, int rank,
               std::uint64_t seed)
      : Agent(ep), net_(net), spec_(t), rank_(rank), rng_(seed, static_cast<std::uint64_t>(rank)) {
    const auto& cfg = net.config();
    const double wire = static_cast<double>(cfg.wire.wireBytes(net::Op::Write, cfg.packetPayload));
    double injection = 0;
    for (const auto& o : ep.outputs()) injection += o.channel.rate();
    meanGap_ = wire / (t.load * injection) * 1e12;  // ps
    const auto& topo = net.topology();
    fixedDestination_ = t.pattern == TrafficPattern::Transpose
                            ? transposeDestination(rank, topo.endpointCount(), topo.meshRows, topo.meshCols)
                            : -1;
  }

  void start() override {
    if (spec_.pattern == TrafficPattern::Transpose && fixedDestination_ == rank_) return finish();
    wakeAt(nextGap());
  }

  void onTimer(std::uint64_t) override {
    const Time t = now();
    if (t >= spec_.duration) return;
    const int dst = destination();
    net::Message m;
    m.op = net::Op::Write;
    m.destination = net_.topology().endpointNode(dst);
    m.bytes = net_.config().packetPayload;
    m.tag = static_cast<std::uint64_t>(rank_);
    m.created = t;
    m.measured = t >= spec_.warmup;
    if (m.measured) offeredBytes_ += m.bytes;
    post(m);
    wakeAt(t + nextGap());
  }

  void onDelivered(const net::Packet& p) override {
    if (p.op != net::Op::Write) return;
    lastDelivery_ = now();
    if (now() >= spec_.warmup && now() < spec_.duration) acceptedBytes_ += p.payload();
    if (p.measured) latencies_.push_back(now() - p.created);
  }

  std::int64_t offeredBytes_ = 0, acceptedBytes_ = 0;
  Time lastDelivery_ = 0;
  std::vector<Time> latencies_;

 private:
  Time nextGap() { return std::max<Time>(1, static_cast<Time>(std::llround(rng_.exponential(meanGap_)))); }

  int destination() {
    const int n = net_.endpointCount();
    if (fixedDestination_ >= 0) return fixedDestination_;
    if (spec_.pattern == TrafficPattern::Hotspot && rng_.uniform01() < spec_.hotspot_fraction) {
      const auto& hs = spec_.hotspots;
      const int h = hs[static_cast<std::size_t>(rng_.uniformInt(0, static_cast<std::int64_t>(hs.size()) - 1))];
      if (h != rank_) return h;
    }
    const auto d = static_cast<int>(rng_.uniformInt(0, n - 2));
    return d >= rank_ ? d + 1 : d;  // uniform over the others
  }

  const net::Network& net_;
  TrafficSpec spec_;
  int rank_;
  RandomStream rng_;
  double meanGap_ = 1;
  int fixedDestination_ = -1;
};

class SyntheticTraffic : public Workload {
 public:
  explicit SyntheticTraffic(const TrafficSpec& t) : spec_(t) {}

  double progress() const override {
    Time t = 0;
    for (const auto& a : agents_) t = std::max(t, static_cast<const TrafficAgent&>(*a).lastDelivery_);
    return std::min(1.0, static_cast<double>(t) / static_cast<double>(spec_.duration));
  }
  Time makespan() const override {
    Time t = 0;
    for (const auto& a : agents_) t = std::max(t, static_cast<const TrafficAgent&>(*a).lastDelivery_);
    return t;
  }
  void finish(Results& r) const override {
    std::int64_t offered = 0, accepted = 0;
    std::vector<Time> samples;
    for (const auto& a : agents_) {
      const auto& ta = static_cast<const TrafficAgent&>(*a);
      offered += ta.offeredBytes_;
      accepted += ta.acceptedBytes_;
      samples.insert(samples.end(), ta.latencies_.begin(), ta.latencies_.end());
    }
    r.latency = summariseLatency(samples);
    const double window = toSeconds(spec_.duration - spec_.warmup);
    const double n = static_cast<double>(agents_.size());
    r.offered_GBps = static_cast<double>(offered) / window / n / 1e9;
    r.accepted_GBps = static_cast<double>(accepted) / window / n / 1e9;
    r.accepted_fraction = offered > 0 ? static_cast<double>(accepted) / static_cast<double>(offered) : 0.0;
    r.phases = {{"warmup", 0, spec_.warmup},
                {"measure", spec_.warmup, spec_.duration},
                {"drain", spec_.duration, std::max(spec_.duration, makespan())}};
  }

 private:
  TrafficSpec spec_;
};

}  // namespace

int transposeDestination(int src, int n, int meshRows, int meshCols) {
  if (meshRows > 0 && meshCols > 0 && meshRows * meshCols == n) {
    const int r = src / meshCols, c = src % meshCols;
    if (meshRows == meshCols) return c * meshCols + r;
    return c * meshRows + r;  // index transpose of a non-square grid: still a permutation
  }
  if (std::has_single_bit(static_cast<unsigned>(n)) && n > 1) {
    const int bits = std::countr_zero(static_cast<unsigned>(n));
    const int lo = bits / 2, hi = bits - lo;
    const int low = src & ((1 << lo) - 1), high = src >> lo;
    return (low << hi) | high;
  }
  return (src + n / 2) % n;
}

LatencyStats summariseLatency(std::vector<Time>& samples) {
  LatencyStats s;
  s.samples = static_cast<std::int64_t>(samples.size());
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  double sum = 0;
  for (Time t : samples) sum += static_cast<double>(t);
  const auto at = [&](double q) {
    // Nearest-rank percentile.
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(samples.size())));
    return toNs(samples[std::min(samples.size(), std::max<std::size_t>(rank, 1)) - 1]);
  };
  s.mean_ns = sum / static_cast<double>(samples.size()) / kNanosecond;
  s.p50_ns = at(0.50);
  s.p99_ns = at(0.99);
  s.max_ns = toNs(samples.back());
  // 40 equal-width buckets from the minimum to the maximum.
  const double lo = toNs(samples.front()), hi = s.max_ns;
  const int buckets = 40;
  const double width = std::max(1e-3, (hi - lo) / buckets);
  s.histogram_edges_ns.resize(buckets + 1);
  for (int i = 0; i <= buckets; ++i) s.histogram_edges_ns[static_cast<std::size_t>(i)] = lo + width * i;
  s.histogram_counts.assign(buckets, 0);
  for (Time t : samples) {
    auto b = static_cast<int>((toNs(t) - lo) / width);
    s.histogram_counts[static_cast<std::size_t>(std::clamp(b, 0, buckets - 1))]++;
  }
  return s;
}

std::unique_ptr<Workload> makeSyntheticTraffic(const Scenario& s, net::Network& net, Simulator& sim) {
  auto w = std::make_unique<SyntheticTraffic>(s.workload.traffic);
  int rank = 0;
  w->createAgents(net, sim, [&](net::EndpointNode& ep) {
    return std::make_unique<TrafficAgent>(ep, net, s.workload.traffic, rank++, s.run.seed);
  });
  return w;
}

}  // namespace fl::work
