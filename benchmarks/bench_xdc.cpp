// HybridEP at scale (issue 23): one training iteration (forward, 12 layers of
// Mistral-Small shapes) of cross_dc_moe on the flow model over 1000 DCs x 8 GPUs (EP and
// the model's hybrid choice; hybrid again with workload.xdc.pass training, for reference:
// twice the traffic, no target) and 1000 DCs x 1 GPU, each in its own forked process so its
// peak RSS is its own; targets < 10 s and < 2 GiB on one core. Then the stream model's
// curve (every candidate of every level) for clusters up to 1000 x 8: target < 10 ms.
// `bench_xdc [SUBSTRING]` runs only the cases whose label contains it. CPU time is
// printed beside wall time: on a shared machine wall time counts the neighbours' load.

#include <chrono>
#include <cstdio>
#include <cstring>

#include "scenario/scenario.h"
#include "sim/run.h"
#include "forked_case.h"
#include "topology/presets.h"
#include "xdc/stream_model.h"

using namespace fl;

namespace {

const char* only = nullptr;

Results runXdc(const char* preset, XdcScheme scheme, int layers, XdcPass pass) {
  Scenario s;
  applyTopologyPreset(preset, s.topology);
  s.workload.kind = WorkloadKind::CrossDcMoe;
  s.workload.xdc.data_bytes = 24'000'000;
  s.workload.xdc.layers = layers;
  s.workload.xdc.pass = pass;
  s.scheme.ep = scheme;
  s.scheme.hybrid.compression_ratio = 50;
  s.run.bin = 100 * kMillisecond;
  return runScenario(s);
}

void runCase(const char* label, const char* preset, XdcScheme scheme, int layers, XdcPass pass = XdcPass::Forward) {
  bench::forkedCase(
      label, only, [&] { return runXdc(preset, scheme, layers, pass); },
      [&](const Results& r, const bench::CaseCost& c) {
        std::printf("%-34s wall %7.2f s  cpu %7.2f s  peak RSS %6.0f MiB  flows %11lld  recomputes %7lld  "
                    "makespan %9.1f ms  model %9.1f ms\n",
                    label, c.wall_s, c.cpu_s, c.peak_rss_mib, static_cast<long long>(r.hybridep->flows),
                    static_cast<long long>(r.events), toNs(r.makespan) / 1e6, r.hybridep->model_lat_ns / 1e6);
      });
}

void curveCase(int dcs, int gpus) {
  if (only != nullptr && std::strstr("curve", only) == nullptr) return;
  xdc::ModelInput in{24e6, 18.9e6 / 50, 1e-3, {{dcs, 1.25e9 / gpus}, {gpus, 16e9}}};
  const int reps = 100;
  const auto t0 = std::chrono::steady_clock::now();
  double sink = 0;
  for (int i = 0; i < reps; ++i) {
    in.preExpert = 1e-3 * (1 + i * 1e-6);  // defeat caching
    sink += xdc::predict(in).lat;
  }
  const double each = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps;
  std::printf("model curve %4d DCs x %d GPUs       %8.3f ms per evaluation (target < 10 ms) [%g]\n", dcs, gpus,
              each * 1e3, sink > 0 ? 1.0 : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) only = argv[1];
  runCase("1000 DCs x 1 GPU, hybrid, 12 layers", "xdc-1000", XdcScheme::Hybrid, 12);
  runCase("1000 DCs x 1 GPU, ep, 12 layers", "xdc-1000", XdcScheme::Ep, 12);
  runCase("1000 DCs x 8 GPUs, hybrid, 12 layers", "xdc-1000x8", XdcScheme::Hybrid, 12);
  runCase("1000 DCs x 8 GPUs, ep, 12 layers", "xdc-1000x8", XdcScheme::Ep, 12);
  runCase("1000 DCs x 8 GPUs, hybrid, training", "xdc-1000x8", XdcScheme::Hybrid, 12, XdcPass::Training);
  curveCase(4, 8);
  curveCase(1000, 1);
  curveCase(1000, 8);
  return 0;
}
