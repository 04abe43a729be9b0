// Tensor-parallel layer speed and memory (issue 22): one LLaMA-7B layer (seed 002 Table I,
// 66 SMs), training, on the DGX-H100 fabric with 128 B packets as the paper simulates,
// on one core, per scheme. Each case runs in its own forked process so its peak RSS is
// its own. Target for cais (issue 22): < 60 s and < 2 GiB. `bench_tp [SUBSTRING]` runs only
// the cases whose label contains it.

#include <cstdio>

#include "engine/huge_pages.h"
#include "scenario/scenario.h"
#include "sim/run.h"
#include "forked_case.h"
#include "tp/tp_model.h"

using namespace fl;

namespace {

const char* only = nullptr;

Results runTp(TpScheme scheme) {
  Scenario s;
  s.topology.gpus = 8;
  s.topology.switches = 4;
  s.topology.links_per_gpu = 18;
  s.topology.link_efficiency = 0.98;
  s.network.packet_payload = 128;
  s.network.address_flits = 0;
  s.network.byte_enable_flits = 0;
  s.network.outstanding_requests = 10240;
  s.workload.kind = WorkloadKind::TpLayer;
  tp::applyTpModel("llama-7b", s.workload.tp, s.gpu);
  s.workload.tp.phase = TpPhase::Training;
  s.workload.tp.layers = 1;
  s.scheme.tp = scheme;
  s.run.bin = 10 * kMicrosecond;
  return runScenario(s);
}

void runCase(const char* label, TpScheme scheme) {
  bench::forkedCase(
      label, only, [&] { return runTp(scheme); },
      [&](const Results& r, const bench::CaseCost& c) {
        std::printf("%-32s wall %7.2f s  peak RSS %6.0f MiB  events %11lld (%5.2f M/s)  layer %8.1f us\n", label,
                    c.wall_s, c.peak_rss_mib, static_cast<long long>(r.events), r.events / c.wall_s / 1e6,
                    r.tp ? toNs(r.tp->layer) / 1e3 : 0.0);
      });
}

}  // namespace

int main(int argc, char** argv) {
  fl::reexecWithHugePages(argv);
  if (argc > 1) only = argv[1];
  runCase("llama-7b training, cais", TpScheme::Cais);
  runCase("llama-7b training, cais_base", TpScheme::CaisBase);
  runCase("llama-7b training, tp_nvls", TpScheme::TpNvls);
  return 0;
}
