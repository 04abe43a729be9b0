#include "sim/run.h"

#include <chrono>
#include <algorithm>
#include <cmath>

#include "engine/simulator.h"
#include "network/network.h"
#include "scenario/sweep.h"
#include "scenario/validate.h"
#include "scenario/input_error.h"
#include "sim/memory_estimate.h"
#include "sim/partitioner.h"
#include "sim/follow_run.h"
#include "sim/snapshot_pacer.h"
#include "sim/sweep_runner.h"
#include "topology/topology.h"
#include "workloads/workload.h"
#include "xdc/cross_dc_run.h"
#include "wsc/wsc_run.h"

namespace fl {

Results runScenario(const Scenario& s, const RunControl& control) {
  validateScenario(s);
  const auto wallStart = std::chrono::steady_clock::now();
  auto topology = topo::buildTopology(s.topology);
  Results r = runWithFollow(s, *topology, control);  // runOnTopology, with run.follow's hops
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
  return r;
}

Results runOnTopology(const Scenario& s, const topo::Topology& topology, const RunControl& control) {
  return runFollowing(s, topology, nullptr, nullptr, control);
}

Results runFollowing(const Scenario& s, const topo::Topology& topology, const FollowSpec* follow, PacketFollow* followed,
                     const RunControl& control) {
  // Refused before it starts when its estimate cannot fit, whatever the network model;
  // on packets, held to budgets derived from the limit while it runs (below).
  const std::int64_t memoryLimit = memoryLimitBytes(s);
  const MemoryEstimate memory = estimateRunMemory(s, topology);
  requireFits(memory, memoryLimit, "the run");
  // Held to budgets derived from the limit while it runs (recorded bins per link, packets
  // alive at once), whichever model runs it.
  const MemoryBudget budget = memoryBudget(memory, memoryLimit);
  // HybridEP's iteration on the flow model has its own solver (no packet engine); on
  // packets it is a message plan like any other workload's.
  if (s.workload.kind == WorkloadKind::CrossDcMoe && xdc::runsOnFlow(s, topology))
    return xdc::runCrossDcMoe(s, topology, budget.recordedBins);
  const auto wallStart = std::chrono::steady_clock::now();
  if (s.workload.kind == WorkloadKind::WscInference && s.network.model == NetworkModel::Analytical) {
    Results r = wsc::runWscAnalytical(s, topology, budget.recordedBins);  // Eq. 1: no engine to run
    r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    if (control.progress) control.progress(1.0);
    return r;
  }
  // Automatic partitioning depends on the topology only, never on the thread count
  // (results do not depend on either, but the count is reported).
  const int wanted = s.run.partitions > 0 ? s.run.partitions : automaticPartitions(topology);
  const Partitioning parts = partitionTopology(topology, wanted);
  Simulator sim(parts.parts);
  if (parts.parts > 1) sim.setLookahead(parts.lookahead);
  // Event queues are sized for the farthest common event: a packet's serialisation plus
  // the longest link latency.
  Time horizon = 0;
  for (const auto& l : topology.links()) {
    const double wire = static_cast<double>(net::WireFormat::from(s.network).wireBytes(net::Op::Write, s.network.packet_payload));
    horizon = std::max(horizon, l.latency + transferTime(wire, l.bandwidth * l.efficiency));
  }
  sim.setHorizon(horizon);

  net::Network network(topology, s.network, s.run.bin, sim, parts.partitionOf, budget.recordedBins);
  if (follow != nullptr && !follow->empty()) network.setFollow(follow);
  auto workload = work::makeWorkload(s, network, sim);

  auto lastReport = std::chrono::steady_clock::now();
  SnapshotPacer pacer(control.snapshotHz, control.snapshotBudget, lastReport);
  const auto tick = [&](Time now) {
    std::int64_t live = 0;
    for (int p = 0; p < parts.parts; ++p) live += network.pool(p).live();
    if (live > budget.livePackets)
      throwMemoryLimit(memory, memoryLimit, "the run",
                       std::to_string(live) + " packets alive at once, more than the " +
                           std::to_string(budget.livePackets) + " its share of the limit holds (estimated peak " +
                           formatApproxBytes(memory.total() + kProcessBaseBytes) + ")");
    if (control.poll) control.poll();
    const auto t = std::chrono::steady_clock::now();
    if (control.progress && t - lastReport >= std::chrono::milliseconds(50)) {
      lastReport = t;
      control.progress(workload->progress());
    }
    if (control.snapshot && pacer.due(t)) {
      Results partial;
      partial.scenario = s.name;
      partial.seed = s.run.seed;
      partial.sim_time = partial.makespan = now;
      partial.bin = s.run.bin;
      partial.bins = static_cast<int>((now + s.run.bin - 1) / s.run.bin);
      network.collect(partial, now);
      control.snapshot(std::move(partial));
      pacer.taken(t, std::chrono::steady_clock::now());
    }
  };
  const EngineStats stats = sim.run(s.run.time_limit, s.run.threads, control.cancel, tick);

  Results r;
  r.scenario = s.name;
  r.seed = s.run.seed;
  r.threads = s.run.threads;
  r.partitions = parts.parts;
  // Events that lazy delivery left out count as handled, as they would have been (so the
  // figures do not depend on it).
  Time lastElided = 0;
  r.events = stats.events + network.elidedEvents(s.run.time_limit, lastElided);
  r.sim_time = stats.cancelled ? stats.endTime : std::max(stats.endTime, lastElided);
  r.cancelled = stats.cancelled;
  r.makespan = workload->makespan();
  if (r.makespan <= 0) r.makespan = r.sim_time;
  // Work left at the end: a simulator stall if it ran out of events, else the time limit.
  // Synthetic traffic has no end of its own, so only collectives and MoE layers count.
  r.time_limit_reached = stats.timeLimitReached;
  if (s.workload.kind != WorkloadKind::Traffic && !stats.cancelled)
    for (const auto& a : workload->agents()) r.agents_unfinished += a->finishedAt() < 0 ? 1 : 0;
  workload->finish(r);
  network.collect(r, r.makespan);
  if (followed != nullptr && follow != nullptr) {
    *followed = network.followed();
    followed->spec = *follow;
  }
  workload->annotate(r);
  r.packets = r.packets_consumed;
  r.peak_live_packets = network.peakLivePackets();
  r.bin = s.run.bin;
  r.bins = static_cast<int>((r.makespan + s.run.bin - 1) / s.run.bin);
  r.direction_balance = computeDirectionBalance(r);
  r.nic_incast = computeNicIncast(r);
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
  if (control.progress) control.progress(1.0);
  return r;
}

std::vector<SweepPoint> runSweep(const Scenario& s, const RunControl& control) {
  SweepOptions o;
  o.cancel = control.cancel;
  if (control.progress) o.progress = [&](const SweepProgress& p) { control.progress(p.fraction); };
  return runSweepPoints(s, o);
}

}  // namespace fl
