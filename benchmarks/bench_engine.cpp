// Engine speed and memory on one core:
//  (a) 8 x 8 mesh, uniform random traffic, 256 B packets, 30 % offered load;
//  (b) all-to-all on DGX-H100;
//  (c) peak memory of a 1000-datacenter hierarchy run.
// Prints events/s, packet-hops/s and bytes per in-flight packet. Targets (issue 2):
// >= 10 M events/s on one core, <= 200 B per in-flight packet.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <utility>

#include "scenario/scenario.h"
#include "sim/run.h"

using namespace fl;

namespace {

long peakRssKiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

void report(const char* name, const Scenario& s) {
  const long before = peakRssKiB();
  const auto t0 = std::chrono::steady_clock::now();
  const Results r = runScenario(s);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const long after = peakRssKiB();
  std::printf("%-44s events %11lld  %6.2f M events/s  %6.2f M hops/s  wall %6.2f s  sim %9.1f us\n", name,
              static_cast<long long>(r.events), r.events / wall / 1e6, r.packet_hops / wall / 1e6, wall,
              toNs(r.makespan) / 1e3);
  std::printf("%-44s peak live packets %lld, peak RSS %ld MiB (+%ld MiB during the run)\n", "",
              static_cast<long long>(r.peak_live_packets), after / 1024, (after - before) / 1024);
}

// Runs `s` in a child process; returns (peak RSS KiB, peak live packets).
std::pair<long, long long> measureInChild(const Scenario& s) {
  int fd[2];
  if (pipe(fd) != 0) return {0, 0};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    const Results r = runScenario(s);
    const long long out[2] = {peakRssKiB(), static_cast<long long>(r.peak_live_packets)};
    (void)!write(fd[1], out, sizeof out);
    _exit(0);
  }
  close(fd[1]);
  long long in[2] = {0, 0};
  (void)!read(fd[0], in, sizeof in);
  close(fd[0]);
  waitpid(pid, nullptr, 0);
  return {static_cast<long>(in[0]), in[1]};
}

}  // namespace

int main() {
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
  // Memory per in-flight packet: the same all-to-all with deep buffers (many packets in
  // flight) and shallow ones; each in a process forked
  // before anything else ran, so peak RSS is its own. The slope
  // (extra RSS / extra live packets) counts the packet, its queue entries and its events.
  Scenario deep = a2a;
  deep.workload.collective.size = 64ll << 20;
  deep.network.vc_depth_flits = 1 << 16;
  Scenario shallow = deep;
  shallow.network.vc_depth_flits = 64;
  const auto [deepRss, deepLive] = measureInChild(deep);
  const auto [shallowRss, shallowLive] = measureInChild(shallow);
  std::printf("(memory) DGX-H100 all-to-all: %lld live packets -> %ld KiB peak RSS; %lld -> %ld KiB: %.0f B per in-flight packet\n",
              deepLive, deepRss, shallowLive, shallowRss,
              deepLive > shallowLive ? (deepRss - shallowRss) * 1024.0 / double(deepLive - shallowLive) : 0.0);

  Scenario mesh;
  mesh.name = "mesh 8x8 uniform 30 %";
  mesh.topology.kind = TopologyKind::Mesh;
  mesh.workload.kind = WorkloadKind::Traffic;
  mesh.workload.traffic.load = 0.3;
  mesh.workload.traffic.duration = 200 * kMicrosecond;
  mesh.workload.traffic.warmup = 20 * kMicrosecond;
  report("(a) 8x8 mesh, uniform, 256 B, 30 % load", mesh);

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
  return 0;
}
