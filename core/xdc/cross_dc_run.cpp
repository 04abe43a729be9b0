#include "xdc/cross_dc_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "gpu/gpu_spec.h"
#include "netmodel/flow_results.h"
#include "netmodel/flow_routes.h"
#include "netmodel/flow_solver.h"
#include "netmodel/plan_workload.h"
#include "network/network.h"
#include "scenario/input_error.h"
#include "xdc/communicator_plan.h"
#include "xdc/domain_partition.h"
#include "xdc/pre_expert.h"

namespace fl::xdc {

namespace {

// SRDecode and SREncode touch the dense expert once each (read the shared expert, write
// the rebuilt one): about 2 x dense bytes / HBM bandwidth. Fusion cuts SREncode by 30 %
// (into the optimizer step) and SRDecode by 45 % (into the expert GEMMs): Fig. 15's
// "up to" figures (spec 1.9, H8). Unconfirmed: the paper gives the costs only in a figure.
constexpr double kEncodeFused = 0.7, kDecodeFused = 0.55;

// hybridep.* from the setup and what the network model measured.
HybridEpResults hybridEpResults(const Scenario& s, const CrossDcSetup& setup, std::int64_t a2aBytes,
                                std::int64_t agBytes, std::int64_t flows, const std::vector<StreamSpan>& gpu0,
                                const char* model, std::int64_t gradBytes = 0, std::int64_t allReduceBytes = 0) {
  const XdcSpec& x = s.workload.xdc;
  const Prediction& pred = setup.prediction;
  HybridEpResults h;
  h.scheme = s.scheme.ep == XdcScheme::Ep ? "ep" : "hybrid";
  const double layers = x.layers;
  for (std::size_t l = 0; l < pred.levels.size(); ++l) {
    const LevelPrediction& lp = pred.levels[l];
    h.levels.push_back(
        {lp.workers, lp.domainSize, lp.p, caseNumber(lp.modelCase), setup.input.levels[l].bandwidth, lp.expert});
    for (const CurvePoint& c : lp.curve) h.curve.push_back({int(l), c.domainSize, c.p, c.lat * layers * 1e9});
    const PairCounts pc = pairCounts(int(l), setup.plan.workers, setup.plan.domains);
    h.a2a_pairs += pc.a2a;
    h.ag_pairs += pc.ag;
  }
  h.model_lat_ns = pred.lat * layers * 1e9;
  h.model_ep_lat_ns = pred.epLat * layers * 1e9;
  h.a2a_bytes = a2aBytes;
  h.ag_bytes = agBytes;
  h.flows = flows;
  for (const StreamSpan& sp : gpu0) h.timeline.push_back({sp.layer, sp.kind, sp.start, sp.end});
  h.data_bytes = setup.input.data;
  h.expert_bytes = double(x.expert_bytes);
  h.compression_ratio = s.scheme.hybrid.compression_ratio;
  h.pre_expert_ns = toNs(setup.plan.preExpert);
  h.layers = x.layers;
  h.network_model = model;
  h.pass = setup.plan.training ? "training" : "forward";
  h.grad_bytes = gradBytes;
  h.allreduce_bytes = allReduceBytes;
  h.dense_bytes = setup.plan.training ? denseBytes(x) : 0;
  return h;
}

// The packet model's workload: the communicator's plan, then hybridep from its timing.
class CrossDcWorkload : public netmodel::PlanWorkload {
 public:
  CrossDcWorkload(const Scenario& s, CrossDcSetup setup, std::shared_ptr<const CommunicatorMessages> m,
                  net::Network& net, Simulator& sim)
      : PlanWorkload(std::shared_ptr<const netmodel::MessagePlan>(m, &m->plan), net, sim),
        s_(s), setup_(std::move(setup)), messages_(std::move(m)) {}

  void annotate(Results& r) const override {
    r.hybridep = hybridEpResults(s_, setup_, messages_->a2aBytes, messages_->agBytes,
                                 messages_->messages, gpu0Spans(*messages_, timing()), "packet",
                                 messages_->gradBytes, messages_->allReduceBytes);
  }

 private:
  Scenario s_;
  CrossDcSetup setup_;
  std::shared_ptr<const CommunicatorMessages> messages_;
};

}  // namespace

double dataBytes(const XdcSpec& x) {
  return x.data_bytes > 0 ? double(x.data_bytes) : double(x.tokens) * x.hidden * 4.0 * x.top_k;
}

double wireExpertBytes(const Scenario& s) {
  return double(s.workload.xdc.expert_bytes) / s.scheme.hybrid.compression_ratio;
}

Time preExpertTime(const Scenario& s) {
  return s.workload.xdc.pre_expert > 0 ? s.workload.xdc.pre_expert
                                       : derivedPreExpert(s.workload.xdc, gpuSpecFor(s.gpu));
}

ModelInput modelInput(const Scenario& s, const topo::Topology& t) {
  if (t.kind != "hierarchy" || s.topology.levels.empty())
    throw InputError({}, "workload.kind", "a hierarchy topology for cross_dc_moe", t.kind);
  ModelInput in;
  in.data = dataBytes(s.workload.xdc);
  in.expert = wireExpertBytes(s);
  in.preExpert = toSeconds(preExpertTime(s));
  const auto& levels = s.topology.levels;
  // A level's link rate as built (bandwidth x efficiency), from the topology itself.
  std::vector<double> rate(levels.size(), 0);
  for (const topo::Link& l : t.links())
    if (l.level >= 0 && rate[std::size_t(l.level)] == 0) rate[std::size_t(l.level)] = l.bandwidth * l.efficiency;
  for (std::size_t l = 0; l < levels.size(); ++l) {
    double b = 0, below = 1;
    for (std::size_t j = levels.size(); j-- > l;) {  // GPU level first: below = GPUs under a level-j member
      const double share = rate[j] / below;
      b = b == 0 ? share : std::min(b, share);
      below *= levels[j].count;
    }
    in.levels.push_back({levels[l].count, b});
  }
  return in;
}

CrossDcSetup prepareCrossDc(const Scenario& s, const topo::Topology& t) {
  CrossDcSetup setup;
  setup.input = modelInput(s, t);
  std::vector<int> workers;
  for (const ModelLevel& l : setup.input.levels) workers.push_back(l.workers);
  std::vector<int> fixed;
  if (s.scheme.ep == XdcScheme::Ep) fixed.assign(workers.size(), 1);
  else fixed = s.scheme.hybrid.domains;  // empty: auto
  setup.prediction = predict(setup.input, fixed);
  std::vector<int> domains;
  for (const LevelPrediction& l : setup.prediction.levels) domains.push_back(l.domainSize);

  // Compression costs, only where experts travel compressed.
  const XdcSpec& x = s.workload.xdc;
  const bool compressed = s.scheme.ep == XdcScheme::Hybrid && s.scheme.hybrid.compression_ratio > 1;
  std::int64_t gathered = 1;
  for (int d : domains) gathered *= d;
  Time encode = 0, decode = 0;
  if (compressed && gathered > 1) {
    const double hbm = s.gpu.hbm_bandwidth;
    encode = transferTime(2.0 * double(x.expert_bytes) * x.layers * (s.scheme.hybrid.fusion ? kEncodeFused : 1), hbm);
    decode = transferTime(2.0 * double(x.expert_bytes) * double(gathered - 1) *
                              (s.scheme.hybrid.fusion ? kDecodeFused : 1), hbm);
  }
  CommunicatorPlan& plan = setup.plan;
  plan.workers = workers;
  plan.domains = domains;
  plan.data = setup.input.data;
  plan.expert = setup.input.expert;
  plan.layers = x.layers;
  plan.preExpert = preExpertTime(s);
  plan.expertCompute = decode;
  plan.encode = encode;
  if (x.pass == XdcPass::Training) {
    // Backward compute = 2 x forward (input and weight gradients), unconfirmed: the paper
    // does not describe its backward pass. The expert GEMMs Eq. 7 hides in the forward pass
    // sit between the backward all-to-alls, which wait for them.
    plan.training = true;
    plan.preExpertBackward = 2 * plan.preExpert;
    plan.expertBackward = 2 * derivedExpertCompute(plan.data, x.hidden, gpuSpecFor(s.gpu));
    // DDP's all-reduce: the dense gradients, and the shared expert's when experts travel
    // compressed (spec 1.9: kept in sync by an all-reduce in the backward pass).
    plan.allReduce = double(x.layers) * (denseBytes(x) + (compressed ? double(x.expert_bytes) : 0));
    plan.gradOverlap = x.grad_overlap;
  }
  return setup;
}

double simulatedPackets(const Scenario& s, const CrossDcSetup& setup) {
  const CommunicatorPlan& p = setup.plan;
  double perGpu = 0, gathered = p.expert;
  for (std::size_t l = 0; l < p.workers.size(); ++l) {
    perGpu += 2 * a2aBytesPerGpu(p.workers[l], p.domains[l], p.data) + agBytesPerGpu(p.domains[l], gathered);
    gathered *= p.domains[l];
  }
  perGpu *= p.layers;
  if (p.training) {  // the backward mirrors the forward; the all-reduce sends 2 (1 - 1/G) of its bytes
    const double g = double(gpuCount(p.workers));
    perGpu = 2 * perGpu + 2 * p.allReduce * (g - 1) / g;
  }
  return perGpu * double(gpuCount(p.workers)) / double(std::max<std::int64_t>(1, s.network.packet_payload));
}

bool runsOnFlow(const Scenario& s, const topo::Topology& t) {
  if (s.network.model != NetworkModel::Auto) return s.network.model == NetworkModel::Flow;
  return runsOnFlow(s, prepareCrossDc(s, t));
}

bool runsOnFlow(const Scenario& s, const CrossDcSetup& setup) {
  if (s.network.model != NetworkModel::Auto) return s.network.model == NetworkModel::Flow;
  return simulatedPackets(s, setup) > kAutoPacketLimit;
}

std::int64_t flowRouteEntries(const CrossDcSetup& setup, int depth) {
  const CommunicatorPlan& p = setup.plan;
  std::int64_t perGpu = 0;
  for (std::size_t l = 0; l < p.workers.size() && l < p.domains.size(); ++l) {
    const std::int64_t sf = p.workers[l], sd = std::max(1, p.domains[l]);
    std::int64_t peers[] = {sd - 1, sf / sd - 1, p.training ? sf - 1 : 0};  // domain, across, level
    for (const std::int64_t n : peers)
      if (n > 0) perGpu += (n + 1) * depth;
  }
  return perGpu * gpuCount(p.workers);
}

Results runCrossDcMoe(const Scenario& s, const topo::Topology& t, std::int64_t recordedBinBudget) {
  const auto wallStart = std::chrono::steady_clock::now();
  const CrossDcSetup setup = prepareCrossDc(s, t);
  std::vector<double> capacity;
  std::vector<Time> latency;
  for (const topo::Link& l : t.links())
    for (int dir = 0; dir < 2; ++dir) {
      capacity.push_back(l.bandwidth * l.efficiency);
      latency.push_back(l.latency);
    }
  const std::int32_t maxBins = net::recordedBinsPerLink(recordedBinBudget, static_cast<std::int64_t>(capacity.size()));
  netmodel::FlowSolver solver(std::move(capacity), std::move(latency), s.run.bin, maxBins);
  const netmodel::FlowTreeRoutes routes(t);
  const CommunicatorResult run = runAsyncCommunicator(setup.plan, routes, solver);

  Results r;
  r.scenario = s.name;
  r.seed = s.run.seed;
  r.threads = s.run.threads;
  r.makespan = r.sim_time = run.makespan;
  r.events = solver.recomputes();
  netmodel::fillFlowLinkResults(t, solver.links(), s.run.bin, r.makespan, r);
  r.direction_balance = computeDirectionBalance(r);
  r.hybridep = hybridEpResults(s, setup, run.a2aBytes, run.agBytes, run.flows, run.gpu0, "flow", run.gradBytes,
                               run.allReduceBytes);
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
  return r;
}

std::unique_ptr<work::Workload> makeCrossDcWorkload(const Scenario& s, net::Network& net, Simulator& sim) {
  CrossDcSetup setup = prepareCrossDc(s, net.topology());
  auto messages = std::make_shared<const CommunicatorMessages>(buildCommunicatorPlan(setup.plan));
  return std::make_unique<CrossDcWorkload>(s, std::move(setup), std::move(messages), net, sim);
}

}  // namespace fl::xdc
