#include "network/channel.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "scenario/input_error.h"
#include "scenario/quantity.h"

namespace fl::net {

void Channel::configure(double bytesPerSecond, Time latency, int flitBytes, Time binWidth, std::int32_t maxBins) {
  rate_ = bytesPerSecond;
  maxBins_ = maxBins;
  latency_ = latency;
  flitTime_ = std::max<Time>(1, transferTime(flitBytes, bytesPerSecond));
  binWidth_ = binWidth;
  lastBytes_ = -1;
  bin_ = 0;
  binStart_ = -binWidth;  // no bin yet
}

// Spread the bytes over the bins the transmission overlaps, proportionally, keeping the
// exact total (the last bin takes the rounding remainder).
void Channel::recordBins(Time start, Time end, std::int64_t wireBytes) {
  auto& bins = stats_.binBytes;
  const auto first = static_cast<std::size_t>(start / binWidth_);
  const auto last = static_cast<std::size_t>((end - 1) / binWidth_);
  if (bins.bins.size() + (last - first) >= static_cast<std::size_t>(maxBins_)) tooManyBins(end);
  bin_ = static_cast<std::int32_t>(last);
  binStart_ = static_cast<Time>(last) * binWidth_;
  if (first == last) {
    bins.add(static_cast<std::int32_t>(first), wireBytes);
    return;
  }
  const Time duration = end - start;
  std::int64_t assigned = 0;
  for (std::size_t b = first; b < last; ++b) {
    const Time lo = std::max<Time>(start, static_cast<Time>(b) * binWidth_);
    const Time hi = static_cast<Time>(b + 1) * binWidth_;
    const auto share = static_cast<std::int64_t>(
        static_cast<__int128>(wireBytes) * (hi - lo) / duration);
    bins.add(static_cast<std::int32_t>(b), share);
    assigned += share;
  }
  bins.add(static_cast<std::int32_t>(last), wireBytes - assigned);
}

namespace {
std::string seconds(Time t) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g s", toSeconds(t));
  return text;
}
}  // namespace

std::int32_t recordedBinsPerLink(std::int64_t budget, std::int64_t channels) {
  return static_cast<std::int32_t>(std::clamp<std::int64_t>(budget / std::max<std::int64_t>(1, channels),
                                                            kMinRecordedBins, INT32_MAX));
}

void throwTooManyBins(std::int64_t maxBins, Time binWidth, Time end) {
  throw InputError({}, "run.bin",
                   "at most " + std::to_string(maxBins) + " time bins of traffic per link (a wider run.bin, "
                   "or faster links)",
                   "a link busy across more " + formatTime(binWidth) + " bins, up to " + seconds(end),
                   "each bin is kept for the heatmaps and plots; the budget is a share of run.memory_limit");
}

void Channel::tooManyBins(Time end) const { throwTooManyBins(maxBins_, binWidth_, end); }

}  // namespace fl::net
