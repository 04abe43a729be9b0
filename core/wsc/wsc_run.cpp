#include "wsc/wsc_run.h"

#include <algorithm>
#include <limits>

#include "gpu/gpu_spec.h"
#include "mapping/switched_fabric.h"
#include "netmodel/analytical_model.h"
#include "netmodel/link_results.h"
#include "netmodel/plan_workload.h"
#include "balance/balancer.h"
#include "wsc/expert_placement.h"
#include "wsc/hot_cold_links.h"
#include "network/network.h"

namespace fl::wsc {

namespace {

const char* modelName(NetworkModel m) { return m == NetworkModel::Analytical ? "analytical" : "packet"; }
const char* mappingName(MappingKind k) {
  switch (k) {
    case MappingKind::Baseline: return "baseline";
    case MappingKind::Er: return "er";
    case MappingKind::Her: return "her";
    case MappingKind::Explicit: return "explicit";
  }
  return "?";
}

// The packet model's workload: the plan's agents, then the wsc annotations once the
// network has filled links[].
class WscWorkload : public netmodel::PlanWorkload {
 public:
  WscWorkload(const Scenario& s, std::shared_ptr<WscSetup> setup, net::Network& net, Simulator& sim)
      : PlanWorkload(std::shared_ptr<const netmodel::MessagePlan>(setup, &setup->layer.plan), net, sim),
        s_(s), setup_(std::move(setup)), topology_(net.topology()) {}

  // The layer's end; NI copies still in flight run on in the background.
  Time makespan() const override { return layerMakespan(plan(), timing()); }

  void annotate(Results& r) const override {
    // Channels count payload per traffic phase 1..3 = plan phases 0..2 (all_reduce,
    // dispatch, combine); the plan's migration hops (NI copies) are its only transfers
    // beyond those, and travel untagged (traffic phase 0).
    std::vector<std::vector<std::int64_t>> bytes(r.links.size(), std::vector<std::int64_t>(planPhaseNames().size(), 0));
    for (std::size_t i = 0; i < r.links.size(); ++i) {
      for (std::size_t p = 0; p + 1 < r.links[i].phase_payload_bytes.size(); ++p)
        bytes[i][p] = r.links[i].phase_payload_bytes[p + 1];
      bytes[i][kMigration] = r.links[i].phase_payload_bytes[0];
    }
    r.traffic_phases = {planPhaseNames()[0], planPhaseNames()[1], planPhaseNames()[2]};
    annotateWsc(s_, *setup_, timing(), bytes, topology_, r);
  }

 private:
  Scenario s_;
  std::shared_ptr<WscSetup> setup_;
  const topo::Topology& topology_;
};

}  // namespace

WscSetup prepareWsc(const Scenario& s, const topo::Topology& t) {
  WscSetup setup;
  const WscSpec& w = s.workload.wsc;
  if (s.topology.kind == TopologyKind::Mesh) {
    setup.mapping = mapping::buildMapping(s.mapping, s.topology, w.tp, w.all_gather);
  } else {  // the DGX / NVL72 baselines (spec §1.4)
    setup.mapping = mapping::buildSwitchedMapping(s.mapping, t.endpointCount(), w.tp, w.all_gather);
    mapping::setFabricHops(setup.mapping, t);
  }
  const GpuSpec gpu = gpuSpecFor(s.gpu);
  IterationInputs in;
  in.hosts = {expertPlacement(w, setup.mapping.dies())};
  if (s.balancer.kind != BalancerKind::None || s.balancer.load != BalancerLoad::Gating) {
    Scenario one = s;
    one.workload.wsc.iterations = 1;
    const LayerPlan probe = buildLayerPlan(one, setup.mapping, gpu, in);
    // One iteration: its transfers are few enough to keep for the utilisations below.
    std::vector<netmodel::LinkTransfer> transfers;
    const auto run =
        netmodel::playAnalytical(probe.plan, t, [&](const netmodel::LinkTransfer& x) { transfers.push_back(x); });
    Time window[kAttention + 1] = {};
    for (const PhaseSpan& sp : probe.spans) window[sp.phase] += spanWindow(probe.plan, sp, run.timing.start, run.timing.end);
    balance::BalancerInputs bi;
    // A copy may use every MoE layer's phases of an iteration ([R]: one layer is modelled).
    bi.allReduceWindow = window[kAllReduce] * std::max(1, w.moe_layers);
    bi.allToAllWindow = (window[kDispatch] + window[kCombine]) * std::max(1, w.moe_layers);
    bi.utilAllReduce.assign(2 * t.links().size(), 0);
    bi.utilAllToAll.assign(2 * t.links().size(), 0);
    for (const auto& x : transfers) {
      const auto idx = static_cast<std::size_t>(2 * x.link + x.direction);
      const bool ar = x.phase == kAllReduce;
      if (!ar && x.phase != kDispatch && x.phase != kCombine) continue;
      const Time win = ar ? bi.allReduceWindow : bi.allToAllWindow;
      if (win > 0) (ar ? bi.utilAllReduce : bi.utilAllToAll)[idx] += static_cast<double>(x.end - x.start) / static_cast<double>(win);
    }
    balance::BalancerPlan bp = balance::planBalancing(s, setup.mapping, t, bi);
    in.hosts = std::move(bp.hosts);
    in.shares = std::move(bp.shares);
    in.stall = bp.stall;
    in.copies = std::move(bp.copies);
    for (Time st : bp.stall) setup.migrationStall += st;
    setup.migrations = std::move(bp.migrations);
    setup.migrationBytes = std::move(bp.migrationBytes);
  }
  setup.layer = buildLayerPlan(s, setup.mapping, gpu, in);
  setup.inputs = std::move(in);
  return setup;
}

Results runWscAnalytical(const Scenario& s, const topo::Topology& t, std::int64_t recordedBinBudget) {
  const WscSetup setup = prepareWsc(s, t);
  netmodel::LinkTally tally(t, planPhaseNames().size(), s.run.bin, recordedBinBudget);
  const netmodel::AnalyticalRun run =
      netmodel::playAnalytical(setup.layer.plan, t, [&](const netmodel::LinkTransfer& x) { tally.add(x); });
  Results r;
  r.scenario = s.name;
  r.seed = s.run.seed;
  r.threads = s.run.threads;
  r.sim_time = run.timing.makespan();
  r.makespan = layerMakespan(setup.layer.plan, run.timing);  // NI copies in flight run on in the background
  netmodel::fillLinkResults(t, tally, setup.layer.plan.phases, r.makespan, r);
  std::vector<std::vector<std::int64_t>> bytes(r.links.size(), std::vector<std::int64_t>(planPhaseNames().size(), 0));
  for (std::size_t i = 0; i < bytes.size(); ++i)
    for (std::size_t p = 0; p < bytes[i].size(); ++p) bytes[i][p] = tally.phaseBytes(i, p);
  annotateWsc(s, setup, run.timing, bytes, t, r);
  return r;
}

IterationProbe probeOneIteration(const Scenario& s, const topo::Topology& t) {
  Scenario one = s;
  one.workload.wsc.iterations = 1;
  const WscSetup setup = prepareWsc(one, t);
  const netmodel::AnalyticalRun run = netmodel::playAnalytical(setup.layer.plan, t, [](const netmodel::LinkTransfer&) {});
  IterationProbe probe;
  probe.items = static_cast<std::int64_t>(setup.layer.plan.items.size());
  for (const netmodel::PlanItem& item : setup.layer.plan.items) probe.deps += static_cast<std::int64_t>(item.deps.size());
  probe.makespan = layerMakespan(setup.layer.plan, run.timing);
  return probe;
}

std::unique_ptr<work::Workload> makeWscWorkload(const Scenario& s, net::Network& net, Simulator& sim) {
  auto setup = std::make_shared<WscSetup>(prepareWsc(s, net.topology()));
  return std::make_unique<WscWorkload>(s, std::move(setup), net, sim);
}

void annotateWsc(const Scenario& s, const WscSetup& setup, const netmodel::PlanTiming& timing,
                 const std::vector<std::vector<std::int64_t>>& phaseBytes, const topo::Topology& t, Results& r) {
  const mapping::Mapping& m = setup.mapping;
  const LayerPlan& layer = setup.layer;
  const WscSpec& w = s.workload.wsc;
  netmodel::fillPhaseMarks(layer.plan, timing, r);
  WscResults x;
  x.model = modelName(s.network.model);
  x.mapping = mappingName(s.mapping.kind);
  x.hot_threshold = w.hot_threshold;
  x.hot_threshold_kind = w.hot_threshold_kind == WscHotThreshold::Relative ? "relative" : "absolute";
  for (const auto& f : m.ftds) {
    const auto box = mapping::boundingBox(m, f);
    x.ftds.push_back({f, box.rows, box.cols});
  }
  for (const auto& g : m.groups) x.tp_groups.push_back({g, mapping::ringEdgeHops(m, g)});
  x.ftd_avg_hops = mapping::meanFtdHops(m);
  // Phase times: each micro-batch's window [first start, last end], summed, per iteration.
  const int iterations = std::max(1, w.iterations);
  std::vector<Time> phaseTime(planPhaseNames().size(), 0);
  for (const PhaseSpan& sp : layer.spans) phaseTime[sp.phase] += spanWindow(layer.plan, sp, timing.start, timing.end);
  x.allreduce = phaseTime[kAllReduce] / iterations;
  x.dispatch = phaseTime[kDispatch] / iterations;
  x.combine = phaseTime[kCombine] / iterations;
  x.comm = x.allreduce + x.dispatch + x.combine;
  Time compute = 0;
  for (Time c : layer.moeCompute) compute += c;
  x.moe_compute = compute / iterations;
  Time attention = 0;
  for (Time a : layer.attention) attention += a;
  x.attention = attention / iterations;
  x.migrations = setup.migrations;
  x.migration_stall = setup.migrationStall;
  const Time makespan = layerMakespan(layer.plan, timing);
  if (makespan > 0)
    x.tokens_per_s_per_device = layer.tokensPerIteration * iterations / (static_cast<double>(makespan) * 1e-12) / m.dies();
  for (const auto& tokens : layer.dieTokens) {
    double sum = 0, mx = 0;
    for (double v : tokens) sum += v, mx = std::max(mx, v);
    x.load_max_over_mean.push_back(sum > 0 ? mx / (sum / static_cast<double>(tokens.size())) : 0);
  }
  // Links: ftd tag, per-phase figures, inter-FTD and cross-border sums.
  // Mesh links join routers (a die's coordinates); switched fabrics' links a GPU and a
  // switch, which is in no FTD, so every such link counts as inter-FTD.
  const bool mesh = s.topology.kind == TopologyKind::Mesh;
  const auto dieAt = [&](topo::NodeId n) { return mesh ? t.node(n).row * m.cols + t.node(n).col : t.node(n).endpoint; };
  const std::vector<std::uint8_t> shown = {kAllReduce, kDispatch, kCombine, kMigration};
  std::vector<std::int64_t> border(planPhaseNames().size(), 0);
  for (std::size_t i = 0; i < r.links.size(); ++i) {
    LinkDirectionResult& d = r.links[i];
    const topo::Link& l = t.link(d.link);
    const bool local = l.kind == topo::LinkKind::Local;
    const int da = dieAt(l.a), db = dieAt(l.b);
    const bool intra = local || (da >= 0 && db >= 0 && m.ftdOf[static_cast<std::size_t>(da)] == m.ftdOf[static_cast<std::size_t>(db)]);
    d.ftd = intra ? "intra" : "inter";
    d.phases.clear();
    for (std::uint8_t p : shown) {
      LinkPhaseResult lp;
      lp.phase = planPhaseNames()[p];
      lp.bytes = phaseBytes[i][p];
      if (p == kMigration && i < setup.migrationBytes.size()) lp.bytes += setup.migrationBytes[i];
      lp.busy = d.capacity_Bps > 0 ? transferTime(static_cast<double>(lp.bytes), d.capacity_Bps) : 0;
      // NI copies run inside the other phases: their window is the whole run.
      const Time window = p == kMigration && phaseTime[p] == 0 ? makespan : phaseTime[p];
      lp.utilization = window > 0 ? static_cast<double>(lp.busy) / static_cast<double>(window) : 0;
      d.phases.push_back(std::move(lp));
    }
    if (!intra) x.a2a_inter_ftd_bytes += phaseBytes[i][kDispatch] + phaseBytes[i][kCombine];
    if (l.kind == topo::LinkKind::Border)
      for (std::size_t p = 0; p < border.size(); ++p) border[p] += phaseBytes[i][p];
  }
  for (std::uint8_t p : shown) x.cross_border_bytes.emplace_back(planPhaseNames()[p], border[p]);
  classifyLinks(r.links, w.hot_threshold_kind == WscHotThreshold::Relative, w.hot_threshold);
  r.wsc = std::move(x);
}

}  // namespace fl::wsc
