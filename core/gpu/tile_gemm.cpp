#include "gpu/tile_gemm.h"

#include <stdexcept>
#include <string>

namespace fl {
namespace {

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

void checkSms(const GpuSpec& gpu, int sms) {
  if (sms < 1 || sms > gpu.sms)
    throw std::invalid_argument("tile GEMM on " + std::to_string(sms) + " SMs of a " + std::to_string(gpu.sms) +
                                "-SM GPU");
}

}  // namespace

std::int64_t tileCount(const GemmShape& shape, const TileShape& tile) {
  if (shape.m <= 0 || shape.n <= 0) return 0;
  return ceilDiv(shape.m, tile.m) * ceilDiv(shape.n, tile.n);
}

std::int64_t waveCount(std::int64_t tiles, int sms) { return tiles <= 0 ? 0 : ceilDiv(tiles, sms); }

TileCost tileCost(const GpuSpec& gpu, const TileShape& tile, std::int64_t k, Dtype in, Dtype out) {
  if (!gpu.supports(in))
    throw std::invalid_argument(gpu.name + " has no tensor throughput for " + std::string(dtypeName(in)));
  const double bm = tile.m, bn = tile.n, kk = static_cast<double>(k);
  TileCost c;
  c.flops = 2 * bm * bn * kk;
  c.bytes = (bm * kk + kk * bn) * dtypeBytes(in) + bm * bn * dtypeBytes(out);
  c.compute_seconds = c.flops / gpu.smFlops(in);
  c.memory_seconds = c.bytes / gpu.smBandwidth();
  return c;
}

GemmTime gemmTime(const GpuSpec& gpu, const GemmShape& shape, const TileShape& tile, Dtype in, Dtype out,
                  int sms) {
  return groupedGemmTime(gpu, {shape.m}, shape.n, shape.k, tile, in, out, sms);
}

GemmTime groupedGemmTime(const GpuSpec& gpu, const std::vector<std::int64_t>& ms, std::int64_t n,
                         std::int64_t k, const TileShape& tile, Dtype in, Dtype out, int sms) {
  checkSms(gpu, sms);
  GemmTime t;
  for (std::int64_t m : ms) t.tiles += tileCount({m, n, k}, tile);
  t.waves = waveCount(t.tiles, sms);
  t.tile = tileCost(gpu, tile, k, in, out);
  t.seconds = static_cast<double>(t.waves) * t.tile.seconds();
  return t;
}

ExpertGemmTimes expertGemmTimes(const GpuSpec& gpu, const std::vector<std::int64_t>& tokens, int hidden,
                                int expertFfn, const TileShape& tile, Dtype compute, Dtype out, int sms) {
  ExpertGemmTimes t;
  t.gemm1 = groupedGemmTime(gpu, tokens, 2 * std::int64_t(expertFfn), hidden, tile, compute, compute, sms);
  t.gemm2 = groupedGemmTime(gpu, tokens, hidden, expertFfn, tile, compute, out, sms);
  return t;
}

}  // namespace fl
