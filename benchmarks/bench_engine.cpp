// Engine speed and memory on one core:
//  (a) 8 x 8 mesh, uniform random traffic, 256 B packets, 30 % offered load (and its
//      speed-up on 2 threads);
//  (b) all-to-all on DGX-H100;
//  (c) peak memory of a 1000-datacenter hierarchy run.
// Prints events/s, packet-hops/s and bytes per in-flight packet. Targets (issue 2):
// >= 10 M events/s on one core, <= 200 B per in-flight packet.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <exception>

#include "engine/huge_pages.h"
#include "scenario/scenario.h"
#include "sim/run.h"

using namespace fl;

namespace {

bool anyFailed = false;  // the exit status: 1 when a case failed

long peakRssKiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

// Wall seconds of one case, or 0 when it failed: the error is printed and the next
// case still runs.
double report(const char* name, const Scenario& s) {
  const long before = peakRssKiB();
  const auto t0 = std::chrono::steady_clock::now();
  Results r;
  try {
    r = runScenario(s);
  } catch (const std::exception& e) {
    std::printf("%-44s error: %s\n", name, e.what());
    anyFailed = true;
    return 0;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const long after = peakRssKiB();
  std::printf("%-44s events %11lld  %6.2f M events/s  %6.2f M hops/s  wall %6.2f s  sim %9.1f us\n", name,
              static_cast<long long>(r.events), r.events / wall / 1e6, r.packet_hops / wall / 1e6, wall,
              toNs(r.makespan) / 1e3);
  std::printf("%-44s peak live packets %lld, peak RSS %ld MiB (+%ld MiB during the run)\n", "",
              static_cast<long long>(r.peak_live_packets), after / 1024, (after - before) / 1024);
  // Upper bound on memory per in-flight packet: all growth (packets, queued events,
  // statistics, source queues) divided by the packets alive at the peak.
  if (r.peak_live_packets > 100000)
    std::printf("%-44s <= %.0f B per in-flight packet (RSS growth / peak live packets)\n", "",
                double(after - before) * 1024.0 / double(r.peak_live_packets));
  return wall;
}

}  // namespace

int main(int /*argc*/, char** argv) {
  fl::reexecWithHugePages(argv);
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  Scenario a2a;
  a2a.topology.kind = TopologyKind::NvSwitch;
  a2a.topology.gpus = 8;
  a2a.topology.switches = 4;
  a2a.topology.links_per_gpu = 18;
  a2a.topology.link_efficiency = 0.98;
  a2a.workload.collective.op = CollectiveOp::AllToAll;
  a2a.workload.collective.algorithm = CollectiveAlgorithm::Direct;
  a2a.workload.collective.size = 256ll << 20;
  Scenario mesh;
  mesh.name = "mesh 8x8 uniform 30 %";
  mesh.topology.kind = TopologyKind::Mesh;
  mesh.workload.kind = WorkloadKind::Traffic;
  mesh.workload.traffic.load = 0.3;
  mesh.workload.traffic.duration = 200 * kMicrosecond;
  mesh.workload.traffic.warmup = 20 * kMicrosecond;
  const double one = report("(a) 8x8 mesh, uniform, 256 B, 30 % load", mesh);
  // The same run on 2 threads (default partitions: the same for any thread count, and
  // the same results). Target (issue 24): >= 1.7x on a 2-core machine.
  mesh.run.threads = 2;
  const double two = report("(a) the same on 2 threads", mesh);
  if (one > 0 && two > 0) std::printf("%-44s %.2fx on 2 threads\n", "", one / two);

  report("(b) DGX-H100 all-to-all, 256 MiB, 256 B", a2a);

  Scenario dc;
  dc.topology.kind = TopologyKind::Hierarchy;
  dc.topology.levels = {{"dc", 1000, 1.25e9, 5 * kMillisecond},
                        {"node", 2, 16e9, 1 * kMicrosecond},
                        {"gpu", 4, 50e9, 500 * kNanosecond}};
  dc.workload.kind = WorkloadKind::Traffic;
  dc.workload.traffic.load = 0.0005;
  dc.workload.traffic.duration = 2 * kMillisecond;
  dc.workload.traffic.warmup = 200 * kMicrosecond;
  dc.run.bin = 1 * kMillisecond;
  dc.network.vc_depth_flits = 1 << 20;  // a bandwidth-delay product of buffer for 5 ms links
  report("(c) 1000 datacenters x 2 nodes x 4 GPUs", dc);
  return anyFailed ? 1 : 0;
}
