#include "xdc/pre_expert.h"

#include <algorithm>
#include <cmath>

#include "scenario/scenario.h"

namespace fl::xdc {

double attentionMacs(double tokens, double hidden) {
  const double seq = std::min(tokens, double(kLongestSequence));
  return 4 * tokens * hidden * hidden + 2 * tokens * seq * hidden;
}

double ffnMacs(double tokens, double hidden) { return 2 * tokens * hidden * (4 * hidden); }

Time derivedPreExpert(const XdcSpec& x, const GpuSpec& gpu) {
  const double macPerSecond = gpu.flops(Dtype::Fp32) * gpu.tensor_efficiency / 2;
  if (!(macPerSecond > 0)) return 0;
  const int m = kDenseBlocksBeforeMoe;
  const double macs = (m + 1) * attentionMacs(x.tokens, x.hidden) + m * ffnMacs(x.tokens, x.hidden);
  return static_cast<Time>(std::llround(macs / macPerSecond * double(kSecond)));
}

Time derivedExpertCompute(double dataBytes, int hidden, const GpuSpec& gpu) {
  const double macPerSecond = gpu.flops(Dtype::Fp32) * gpu.tensor_efficiency / 2;
  if (!(macPerSecond > 0) || hidden <= 0) return 0;
  const double tokens = dataBytes / (4.0 * hidden);
  return static_cast<Time>(std::llround(ffnMacs(tokens, hidden) / macPerSecond * double(kSecond)));
}

double denseBytes(const XdcSpec& x) {
  if (x.dense_bytes > 0) return double(x.dense_bytes);
  const double h = x.hidden, m = kDenseBlocksBeforeMoe;
  return ((m + 1) * 4 * h * h + m * 8 * h * h) * 4.0;
}

}  // namespace fl::xdc
