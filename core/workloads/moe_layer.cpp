#include "workloads/moe_layer.h"

#include <algorithm>
#include <cmath>

#include "pipeline/flash_memory.h"
#include "scenario/schema.h"
#include "workloads/moe_agent.h"
#include "workloads/moe_incast.h"
#include "workloads/moe_pipeline_agent.h"
#include "workloads/pipeline_results.h"

namespace fl::work {
namespace {

class MoeLayer : public Workload {
 public:
  MoeLayer(const Scenario& s, int gpus) : plan_(planMoeLayer(s, gpus)), spec_(s) {}
  MoePlan plan_;
  MoeShared shared_;
  PipelineShared pipeline_;
  bool pipelined_ = false;
  std::unique_ptr<BarrierCoordinator> coordinator_;
  Scenario spec_;
  Time ideal_ = 0;
  int remotePeers_ = 0;  // n_rg of the MIV; 0 on fabrics without NICs

  void finish(Results& r) const override {
    Workload::finish(r);
    MoeAccounting total;
    MoeResults moe;
    r.endpoints.clear();
    for (const auto& a : agents_) {
      const auto& agent = static_cast<const MoeAgent&>(*a);
      total.merge(agent.accounting());
      moe.al_tlb_hits += agent.tlb().hits();
      moe.al_tlb_misses += agent.tlb().misses();
      EndpointResult e;
      e.id = agent.name();
      e.al_tlb_hits = agent.tlb().hits();
      e.al_tlb_misses = agent.tlb().misses();
      e.al_blocks_allocated = agent.tlb().allocatedBlocks();
      r.endpoints.push_back(std::move(e));
    }
    r.breakdown = total.rows();
    moe.communication = getValue(spec_, "scheme.communication");
    moe.fusion = getValue(spec_, "scheme.fusion");
    moe.distinct_remote_gpus_per_token = plan_.meanRemoteGpus;
    moe.ideal_comm = ideal_;
    if (remotePeers_ > 0) {
      const MoeSpec& m = spec_.workload.moe;
      int local = 0;
      for (const auto& e : plan_.localExperts) local = std::max(local, static_cast<int>(e.size()));
      moe.miv_remote_peers = remotePeers_;
      moe.miv_bytes = maximalIncastVolume(m.tokens_per_gpu, m.experts, local, dtypeBytes(m.dispatch_dtype),
                                          m.hidden, remotePeers_);
    }
    r.moe = moe;
    r.traffic_phases = {"dispatch", "combine"};  // net::Message::phase 1 and 2 (MoeAgent::message)
    if (pipelined_) {
      std::vector<const PipelineAgent*> agents;
      for (const auto& a : agents_) agents.push_back(static_cast<const PipelineAgent*>(a.get()));
      r.pipeline = collectPipeline(agents, pipeline_, *coordinator_, spec_, makespan());
    }
    if (spec_.scheme.fusion == MoeFusion::Persistent) r.memory = flashMemoryFor(spec_, plan_.gpus);
  }
};

// Tiles, SM groups and kernels of the fusion scheme (pipeline/*).
void preparePipeline(MoeLayer& w, const Scenario& s) {
  PipelineShared& p = w.pipeline_;
  const MoePlan& plan = w.plan_;
  const bool persistent = s.scheme.fusion == MoeFusion::Persistent;
  auto rows = plan.expertRows;
  if (persistent && !s.scheme.persistent.payload_efficient) {
    // Padded sends: every expert computes its full capacity from every source.
    const std::int64_t capacity =
        flashExpertCapacity(plan.tokens, s.workload.moe.experts, s.scheme.persistent.capacity_factor);
    p.paddedCapacity = capacity;
    for (auto& g : rows)
      for (auto& r : g) r = std::max(r, capacity * plan.gpus);
  }
  p.tiles = planTiles(s, plan, persistent ? s.scheme.persistent.task_n : s.gpu.tile_n, rows);
  p.layout = fusionLayout(s, p.tiles.flops);
  p.launchOverhead = s.scheme.launch.overhead;
  p.stragglers = s.scheme.stragglers;
  p.tracker = s.scheme.token_centric;
  p.useTracker = s.scheme.fusion == MoeFusion::TokenCentric;
  p.notifications = s.scheme.fusion != MoeFusion::Sequential;
  p.seed = s.run.seed;
}

}  // namespace

std::unique_ptr<Workload> makeMoeLayer(const Scenario& s, net::Network& net, Simulator& sim) {
  const int gpus = net.endpointCount();
  auto w = std::make_unique<MoeLayer>(s, gpus);
  MoeShared& sh = w->shared_;
  sh.plan = &w->plan_;
  sh.scenario = &w->spec_;
  sh.comm = s.scheme.communication;
  sh.fusion = s.scheme.fusion;
  sh.packetPayload = net.config().packetPayload;
  sh.tlbEntries = s.scheme.al_tlb_entries;
  if (sh.comm == MoeCommunication::DySharp && sh.fusion != MoeFusion::CommOnly) sh.dispatchWindow = s.scheme.st_in_flight;
  sh.alTableLatency = s.scheme.al_table_latency;
  sh.wire = net.config().wire;
  sh.nodeOf = net.topology().endpoints();
  w->remotePeers_ = remotePeers(net.topology());
  Time longest = 0;
  for (const auto& l : net.topology().links()) longest = std::max(longest, l.latency);
  sh.barrierLatency = std::max<Time>(2 * longest, kNanosecond);
  if (sh.comm == MoeCommunication::NvlsStatic) {
    for (int g = 0; g < gpus; ++g) {
      std::vector<topo::NodeId> others;
      for (int d = 0; d < gpus; ++d)
        if (d != g) others.push_back(sh.nodeOf[static_cast<std::size_t>(d)]);
      sh.staticGroup.push_back(net.addGroup(std::move(others)));
    }
  } else if (sh.dynamic()) {
    const MoePlan& p = w->plan_;
    sh.tokenGroup.assign(static_cast<std::size_t>(gpus) * static_cast<std::size_t>(p.tokens), -1);
    for (int g = 0; g < gpus; ++g)
      for (int t = 0; t < p.tokens; ++t) {
        const TokenRoute& r = p.route(g, t);
        if (r.gpus.empty()) continue;
        net::Network::MulticastGroup group;
        for (auto d : r.gpus) group.members.push_back(sh.nodeOf[static_cast<std::size_t>(d)]);
        if (sh.comm == MoeCommunication::DySharp) {
          group.targets.assign(r.experts.begin(), r.experts.end());  // trimmed target list: this GPU's experts
        } else {
          group.targets.assign(r.gpus.size(), 1);  // one explicit address per replica
          group.targetsPerFlit = 1;
        }
        sh.tokenGroup[static_cast<std::size_t>(g) * static_cast<std::size_t>(p.tokens) + static_cast<std::size_t>(t)] =
            net.addGroup(std::move(group));
      }
  }
  // Ideal communication time: useful bytes at each GPU's link rate, tightest framing.
  std::vector<double> rate(static_cast<std::size_t>(gpus), 0.0);
  for (int g = 0; g < gpus; ++g)
    for (const auto& port : net.topology().ports(sh.nodeOf[static_cast<std::size_t>(g)])) {
      const auto& l = net.topology().link(port.link);
      rate[static_cast<std::size_t>(g)] += l.bandwidth * l.efficiency;
    }
  const auto full = static_cast<double>(sh.wire.maxPacketPayload);
  const auto framing = [&](net::Op op) {
    return full / static_cast<double>(sh.wire.wireBytes(op, sh.wire.maxPacketPayload));
  };
  CommBound bound = gpuLinkBound(w->plan_, rate, framing(net::Op::Write), framing(net::Op::ReadResponse));
  // Multi-node fabrics: a GPU's bytes to other nodes fit only through its NIC. Paths are
  // walked per GPU pair (single-path hierarchies; a few hundred GPUs at most in practice).
  if (w->remotePeers_ > 0 && net.topology().kind == "hierarchy" && gpus <= 4096)
    bound.raise(pathBound(w->plan_, net.topology(), sh.nodeOf, framing(net::Op::Write), framing(net::Op::ReadResponse)));
  w->ideal_ = bound.time(sh.fusion == MoeFusion::CommOnly);
  w->coordinator_ = std::make_unique<BarrierCoordinator>(sh);
  sh.coordinator = sim.add(*w->coordinator_, net.partitionOf(net.topology().endpointNode(0)));
  w->pipelined_ = sh.fusion != MoeFusion::CommOnly;
  if (w->pipelined_) preparePipeline(*w, s);
  if (const double perSm = s.gpu.sm_comm_bandwidth; perSm > 0) {
    // comm_only runs Dispatch and Combine as one communication kernel on comm_sms SMs each.
    const int kinds[2] = {kTaskDispatch, kTaskCombine};
    for (int k = 0; k < 2; ++k)
      sh.issueRate[k] = perSm * (w->pipelined_ ? w->pipeline_.layout.smsFor(kinds[k]) : s.scheme.comm_sms);
  }
  int rank = 0;
  w->createAgents(net, sim, [&](net::EndpointNode& ep) -> std::unique_ptr<Agent> {
    if (!w->pipelined_) return std::make_unique<MoeAgent>(ep, sh, rank++);
    auto a = std::make_unique<PipelineAgent>(ep, sh, w->pipeline_, rank++);
    w->pipeline_.agents.push_back(a.get());
    return a;
  });
  for (const auto& a : w->agents()) sh.agents.push_back(a->id());
  return w;
}

}  // namespace fl::work
