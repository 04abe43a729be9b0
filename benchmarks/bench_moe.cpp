// MoE layer speed and memory (issue 4): DeepSeek-V3 Large-8 on GH200 NVL32, 4096 tokens
// per GPU, deepep and dysharp, sequential, on one core, with 256 B packets (the NVLink
// packet) and with 4 KiB packets (framing still per NVLink packet). Each case runs in its
// own forked process so its peak RSS is its own. Targets: <= 60 s and 8 GiB at 256 B;
// <= 5 s at 4 KiB. `bench_moe [SUBSTRING]` runs only the cases whose label contains it
// (e.g. "dysharp, 256"), so one case can be measured alone under /usr/bin/time -v;
// `bench_moe SUBSTRING THREADS` runs them on that many engine threads (issue 24: the
// DySHARP 256 B case within 60 s on 2 threads); `bench_moe SUBSTRING THREADS TOKENS` with
// fewer tokens per GPU, for profiles (callgrind) of the same layer at a reduced size.

#include <cstdio>
#include <cstdlib>

#include "engine/huge_pages.h"
#include "scenario/scenario.h"
#include "sim/run.h"
#include "forked_case.h"

using namespace fl;

namespace {

const char* only = nullptr;  // label filter from the command line
int threads = 1;             // engine threads (second argument; default partitions)
int tokens = 4096;           // tokens per GPU (third argument)

Results runMoe(MoeCommunication comm, std::int64_t packet) {
  Scenario s;
  s.topology.gpus = 32;
  s.topology.switches = 9;
  s.topology.links_per_gpu = 18;
  s.topology.link_efficiency = 0.98;
  s.workload.kind = WorkloadKind::MoeLayer;  // DeepSeek-V3 shapes by default
  s.workload.moe.tokens_per_gpu = tokens;
  s.scheme.communication = comm;
  s.scheme.fusion = MoeFusion::Sequential;
  s.network.packet_payload = packet;
  const std::int64_t scale = packet / 256;  // buffers hold as many packets as at 256 B
  s.network.vc_depth_flits = static_cast<int>(256 * scale);
  s.network.reduction_buffer = 64 * 1024 * scale;
  s.run.bin = 10 * kMicrosecond;
  s.run.threads = threads;
  return runScenario(s);
}

void runCase(const char* label, MoeCommunication comm, std::int64_t packet) {
  bench::forkedCase(
      label, only, [&] { return runMoe(comm, packet); },
      [&](const Results& r, const bench::CaseCost& c) {
        std::printf("%-28s wall %7.2f s  peak RSS %6.0f MiB  events %11lld (%5.2f M/s)  makespan %8.1f us\n", label,
                    c.wall_s, c.peak_rss_mib, static_cast<long long>(r.events), r.events / c.wall_s / 1e6,
                    toNs(r.makespan) / 1e3);
      });
}

}  // namespace

int main(int argc, char** argv) {
  fl::reexecWithHugePages(argv);
  if (argc > 1) only = argv[1];
  if (argc > 2) threads = std::atoi(argv[2]);
  if (argc > 3) tokens = std::atoi(argv[3]);
  runCase("deepep, 4 KiB packets", MoeCommunication::DeepEp, 4096);
  runCase("dysharp, 4 KiB packets", MoeCommunication::DySharp, 4096);
  runCase("deepep, 256 B packets", MoeCommunication::DeepEp, 256);
  runCase("dysharp, 256 B packets", MoeCommunication::DySharp, 256);
  return 0;
}
