#include "gpu/tile_gemm.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace fl {
namespace {

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Smallest s with s·s >= x (x >= 1).
std::int64_t ceilSqrt(std::int64_t x) {
  auto s = static_cast<std::int64_t>(std::sqrt(static_cast<double>(x)));
  while (s * s < x) ++s;
  while (s > 1 && (s - 1) * (s - 1) >= x) --s;
  return s;
}

void checkSms(const GpuSpec& gpu, int sms) {
  if (sms < 1 || sms > gpu.sms)
    throw std::invalid_argument("tile GEMM on " + std::to_string(sms) + " SMs of a " + std::to_string(gpu.sms) +
                                "-SM GPU");
}

// Bytes of A and B slices, and of one C tile.
struct SliceBytes {
  double a = 0, b = 0, c = 0;
  double block(const WaveBlock& w) const { return static_cast<double>(w.rows) * a + static_cast<double>(w.cols) * b; }
};

// HBM bytes of A and B slices read by `tiles` tiles of one GEMM (grid gridRows x
// gridCols) running concurrently, with `l2` bytes of L2 to share them in (header comment).
double operandBytes(std::int64_t tiles, std::int64_t gridRows, std::int64_t gridCols, const SliceBytes& s,
                    double l2) {
  const double whole = s.block(waveBlock(tiles, gridRows, gridCols));
  if (whole <= l2) return whole;
  for (std::int64_t m = tiles - 1; m >= 1; --m) {
    const double group = s.block(waveBlock(m, gridRows, gridCols));
    if (group > l2) continue;
    const std::int64_t rest = tiles % m;
    return static_cast<double>(tiles / m) * group + (rest > 0 ? s.block(waveBlock(rest, gridRows, gridCols)) : 0.0);
  }
  return static_cast<double>(tiles) * (s.a + s.b);  // not one tile's slices fit: no reuse
}

}  // namespace

std::int64_t tileCount(const GemmShape& shape, const TileShape& tile) {
  if (shape.m <= 0 || shape.n <= 0) return 0;
  return ceilDiv(shape.m, tile.m) * ceilDiv(shape.n, tile.n);
}

std::int64_t waveCount(std::int64_t tiles, int sms) { return tiles <= 0 ? 0 : ceilDiv(tiles, sms); }

WaveBlock waveBlock(std::int64_t tiles, std::int64_t gridRows, std::int64_t gridCols) {
  if (tiles <= 0) return {};
  if (gridRows < 1 || gridCols < 1 || tiles > gridRows * gridCols)
    throw std::invalid_argument("wave of " + std::to_string(tiles) + " tiles in a " + std::to_string(gridRows) +
                                " x " + std::to_string(gridCols) + " tile grid");
  WaveBlock b;
  b.cols = std::min(gridCols, ceilSqrt(tiles));
  b.rows = ceilDiv(tiles, b.cols);
  if (b.rows > gridRows) {
    b.rows = gridRows;
    b.cols = ceilDiv(tiles, gridRows);
  }
  return b;
}

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
  t.compute_seconds = static_cast<double>(t.waves) * t.tile.compute_seconds;
  if (t.tiles == 0) return t;

  const double kk = static_cast<double>(k);
  const SliceBytes slice{tile.m * kk * dtypeBytes(in), tile.n * kk * dtypeBytes(in),
                         static_cast<double>(tile.m) * tile.n * dtypeBytes(out)};
  const double l2 = static_cast<double>(gpu.l2_bytes);
  const std::int64_t gridCols = ceilDiv(n, tile.n);

  // Waves take the next `sms` tiles, expert after expert; a segment is one expert's share.
  struct Segment {
    std::int64_t tiles, gridRows;
    bool operator==(const Segment&) const = default;
  };
  std::vector<Segment> wave, last;
  double lastBytes = 0, lastSeconds = 0;
  std::int64_t filled = 0;
  auto closeWave = [&] {
    if (wave != last) {  // consecutive waves of one large GEMM are alike: reuse the cost
      double bytes = 0;
      for (const Segment& s : wave)
        bytes += operandBytes(s.tiles, s.gridRows, gridCols, slice, l2 * static_cast<double>(s.tiles) / filled);
      bytes += static_cast<double>(filled) * slice.c;
      lastBytes = bytes;
      lastSeconds = bytes / (static_cast<double>(filled) * gpu.smBandwidth());
      last = wave;
    }
    t.hbm_bytes += lastBytes;
    t.seconds += std::max(t.tile.compute_seconds, lastSeconds);
    if (lastSeconds > t.tile.compute_seconds) ++t.memory_bound_waves;
    wave.clear();
    filled = 0;
  };
  for (std::int64_t m : ms) {
    if (m <= 0) continue;
    const std::int64_t gridRows = ceilDiv(m, tile.m);
    for (std::int64_t left = gridRows * gridCols; left > 0;) {
      const std::int64_t take = std::min<std::int64_t>(left, sms - filled);
      wave.push_back({take, gridRows});
      filled += take;
      left -= take;
      if (filled == sms) closeWave();
    }
  }
  if (filled > 0) closeWave();
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
