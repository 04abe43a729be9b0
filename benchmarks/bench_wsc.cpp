// Wafer-scale inference speed (issue 20): 256 dies (four 8x8 wafers, wsc-2x2-8x8),
// DeepSeek-V3, TP 16, one layer at 256 tokens per group under ER, in the analytical model
// (target < 0.2 s) and the packet model (target < 30 s, one core); and a 100-iteration
// balancer study (NI-Balancer, mixed load) in the analytical model (target < 5 s).
// `bench_wsc [SUBSTRING]` runs only the cases whose label contains it.
// Measured 2026-11-26 on the shared 2-core machine (load average ~20, so CPU time is the
// figure to read): analytical 0.025 s CPU, 21 MiB; NI study 1.41 s CPU, 366 MiB (was
// 929 MiB while every transfer's per-link record was kept; now summed as played, and the
// rest is mostly the 100-iteration message plan); packet 41.2 s CPU, 89 MiB, 197M events:
// over its 30 s target. Again at 17:20 (load average ~17), after the wafer presets' 16384-flit
// VCs and the event-queue work: analytical 0.012 s, NI study 1.23 s, packet 29.4 s CPU
// (370 MiB, 197M events, comm 35.2 us): inside the targets, the packet case narrowly. Callgrind on a 64-die packet run (wsc-8x8, 64 tokens, 6.9M
// events, 4 327M instructions, ~630 per event) puts ~100 % in the engine and network:
// SwitchNode::tryArbitrate 12.5 %, Partition::runUntil 12 %, the current bucket's event
// heap 14 % (half the events land less than a bucket ahead: 20-100 ns hops set 128-512 ps
// buckets, wafer packets take 19-76 ps), EndpointNode::takeRequest 7 % (injection attempts
// scanning credit-blocked jobs: with NVLink's 256-flit VCs one VC carries 4 KiB per 40 ns
// credit round trip on a wafer hop, so the links run credit-limited). Buckets capped at a
// packet's time cut instructions 10 % but ran 10-25 % slower (more memory touched), so
// they were reverted.
#include <cstdio>
#include <string>

#include "forked_case.h"
#include "scenario/scenario_io.h"
#include "sim/run.h"

using namespace fl;

namespace {

const char* only = nullptr;  // run only the cases whose label contains it

// Each case in a child process (forked_case.h), so its CPU time and peak RSS are its own.
void runCase(const char* label, const std::string& yaml, double target) {
  bench::forkedCase(
      label, only, [&] { return runScenario(parseScenario(yaml, label)); },
      [&](const Results& r, const bench::CaseCost& c) {
        std::printf("%-40s wall %7.3f s  CPU %7.3f s (target < %g s)  peak RSS %6.1f MiB  makespan %9.1f ns  "
                    "comm %9.1f ns  events %lld\n",
                    label, c.wall_s, c.cpu_s, target, c.peak_rss_mib, toNs(r.makespan), r.wsc ? toNs(r.wsc->comm) : 0.0,
                    static_cast<long long>(r.events));
      });
}

std::string layer(const std::string& model, const std::string& extra = "") {
  return "fabriclab: 1\ntopology: {preset: wsc-2x2-8x8}\ngpu: {preset: b200}\nnetwork: {model: " + model +
         "}\nworkload:\n  kind: wsc_inference\n  wsc: {model: deepseek-v3, tp: 16, tokens_per_group: 256" + extra +
         "}\nmapping: {kind: er}\nrun: {bin: 1 us, threads: 1}\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) only = argv[1];
  runCase("256 dies, one layer, analytical", layer("analytical"), 0.2);
  runCase("256 dies, one layer, packet", layer("packet"), 30);
  runCase("256 dies, 100 iterations, NI balancer",
          layer("analytical", ", iterations: 100") + "balancer: {kind: non_invasive, load: mixed}\n", 5);
  return 0;
}
