#include "tp/tp_layer.h"

#include <algorithm>

#include "scenario/schema.h"
#include "tp/tp_agent.h"
#include "tp/window_utilization.h"

namespace fl::tp {
namespace {

class TpLayer : public work::Workload {
 public:
  TpLayer(const Scenario& s, net::Network& net) : map_(net), spec_(s), net_(&net) {
    shared_.plan = planTpLayers(s.workload.tp, net.endpointCount());
    shared_.scheme = s.scheme.tp;
    shared_.gpu = gpuSpecFor(s.gpu);
    shared_.sms = s.gpu.sms;
    shared_.tileM = s.gpu.tile_m;
    shared_.tileN = s.gpu.tile_n;
    shared_.payload = net.config().packetPayload;
    shared_.nvlsWindow = s.workload.collective.nvls_window;
    shared_.group = net.addGroup(net.topology().endpoints());
    for (int g = 0; g < net.endpointCount(); ++g) shared_.homes.push_back(net.endpoint(g).node());
    shared_.map = &map_;
    shared_.drift = s.scheme.stragglers;
    shared_.kernelOffset = s.workload.tp.kernel_offset;
    shared_.tbNoiseCv = s.workload.tp.tb_noise_cv;
    shared_.rsSmFraction = s.workload.tp.rs_sm_fraction;
    shared_.rowOrder = s.workload.tp.row_order;
    shared_.loadInFlight = static_cast<std::uint32_t>(
        std::max<std::int64_t>(1, (s.workload.tp.load_in_flight + shared_.payload - 1) / shared_.payload));
    if (s.scheme.tp >= TpScheme::CaisCoord)
      net.setCaisControl(s.workload.tp.throttle_on, s.workload.tp.throttle_off, s.scheme.tp == TpScheme::Cais);
    shared_.seed = s.run.seed;
    shared_.blocksPerTensor =
        static_cast<std::uint32_t>(shared_.plan.tokens * shared_.plan.hidden * 2 / shared_.payload);
  }
  void build(net::Network& net, Simulator& sim) {
    int rank = 0;
    createAgents(net, sim, [&](net::EndpointNode& ep) { return std::make_unique<TpAgent>(ep, shared_, rank++); });
  }

  // Sub-layer Lk: from the first GPU starting its GEMM-RS to the last finishing its
  // AG-GEMM, averaged over the junctions of that kind; so is its bandwidth utilisation,
  // the busy fraction of all link directions over that span (the paper's Fig. 15).
  void finish(Results& r) const override {
    Workload::finish(r);
    TpResults t;
    t.scheme = getValue(spec_, "scheme.tp");
    t.model = spec_.workload.tp.model;
    const Time span = makespan();
    t.layer = span / std::max(1, spec_.workload.tp.layers);
    std::array<double, 4> sum{}, busy{};
    std::array<int, 4> count{};
    const std::vector<ChannelBins> channels = networkChannels(*net_);
    for (std::size_t j = 0, k = 0; k < shared_.plan.stages.size(); ++k) {
      const Stage& st = shared_.plan.stages[k];
      if (st.kind != StageKind::Junction) continue;
      Time first = -1, last = -1;
      for (const auto& a : agents_) {
        const JunctionSpan& s = static_cast<const TpAgent&>(*a).spans()[j];
        if (s.start < 0 || s.end < 0) continue;
        first = first < 0 ? s.start : std::min(first, s.start);
        last = std::max(last, s.end);
      }
      ++j;
      if (st.sublayer < 1 || first < 0) continue;
      const auto i = static_cast<std::size_t>(st.sublayer - 1);
      sum[i] += static_cast<double>(last - first);
      busy[i] += windowUtilization(channels, net_->config().bin, first, last);
      ++count[i];
    }
    for (std::size_t i = 0; i < 4; ++i) {
      if (count[i] == 0) continue;
      t.sublayer[i] = static_cast<Time>(sum[i] / count[i]);
      t.sublayer_utilization[i] = busy[i] / count[i];
    }
    r.tp = t;
    std::vector<const TpTimeline*> timelines;
    for (const auto& a : agents_) timelines.push_back(&static_cast<const TpAgent&>(*a).timeline());
    r.pipeline = tpPipeline(timelines, t.scheme, shared_.sms);
    if (spec_.scheme.tp >= TpScheme::CaisBase) {  // the homes' and requesters' own counts
      CaisResults c = r.cais.value_or(CaisResults{});
      for (const auto& a : agents_) {
        const auto& g = static_cast<const TpAgent&>(*a);
        c.blocks += g.ownBlocks();
        c.blocks_complete += g.blocksComplete();
        c.load_requests += g.loadRequests();
        c.load_responses += g.loadResponses();
      }
      r.cais = c;
    }
    if (spec_.scheme.tp >= TpScheme::CaisCoord) {  // mean wait of a synchronised thread block
      double wait = 0;
      std::int64_t syncs = 0;
      for (const auto& a : agents_) {
        wait += static_cast<const TpAgent&>(*a).syncWaitPs();
        syncs += static_cast<const TpAgent&>(*a).syncs();
      }
      CaisResults c = r.cais.value_or(CaisResults{});
      c.sync_wait_ns = syncs > 0 ? wait / static_cast<double>(syncs) / 1000.0 : 0;
      r.cais = c;
    }
  }

 private:
  CaisAddressMap map_;
  Scenario spec_;
  net::Network* net_;  // its channels' time bins, read once the run is over
  TpShared shared_;
};

}  // namespace

std::unique_ptr<work::Workload> makeTpLayer(const Scenario& s, net::Network& net, Simulator& sim) {
  auto w = std::make_unique<TpLayer>(s, net);
  w->build(net, sim);
  return w;
}

}  // namespace fl::tp
