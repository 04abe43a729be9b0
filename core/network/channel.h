// One direction of a link: serialisation at the link rate, propagation latency, and
// the per-direction statistics the views animate (bytes per time bin).
#pragma once
#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "engine/time.h"
#include "network/packet.h"
#include "results/results.h"

namespace fl::net {

// Time bins of traffic all channels together may record (12 B each: ~800 MB). A run far
// longer than its bins are wide (a link of a few bytes per second, bins of a picosecond)
// stops with an error naming run.bin rather than exhaust memory. Each channel may record
// an equal share, but at least kMinRecordedBins.
inline constexpr std::int64_t kRecordedBinBudget = std::int64_t{1} << 26;
inline constexpr std::int32_t kMinRecordedBins = 1 << 16;

// One directed link's share of `budget` recorded bins over `channels` directed links;
// the flow and analytical models hold their links to the same share.
std::int32_t recordedBinsPerLink(std::int64_t budget, std::int64_t channels);
// The error of a link busy across more than `maxBins` bins of `binWidth`, up to `end`:
// names run.bin, whichever model recorded them.
[[noreturn]] void throwTooManyBins(std::int64_t maxBins, Time binWidth, Time end);

struct ChannelStats {
  std::int64_t wireBytes = 0;
  std::int64_t payloadBytes = 0;
  std::int64_t packets = 0;
  Time busy = 0;
  BinSeries binBytes;  // wire bytes per time bin
  std::int64_t phasePayload[kTrafficPhases] = {};  // payload bytes per traffic phase
};

class Channel {
 public:
  // `maxBins`: how many time bins of traffic it may record (see kRecordedBinBudget).
  void configure(double bytesPerSecond, Time latency, int flitBytes, Time binWidth,
                 std::int32_t maxBins = INT32_MAX);

  double rate() const { return rate_; }
  Time latency() const { return latency_; }
  Time flitTime() const { return flitTime_; }
  Time serialisation(std::int64_t wireBytes) const {
    // Packets of a run come in a few sizes: remember the last one (a double division and
    // a rounding per hop otherwise).
    if (wireBytes != lastBytes_) {
      lastBytes_ = wireBytes;
      lastTime_ = std::max<Time>(1, transferTime(static_cast<double>(wireBytes), rate_));
    }
    return lastTime_;
  }

  // Records a transmission occupying the channel over [start, end). Inline for the usual
  // case, a transmission within the time bin of the last one (once per packet hop).
  void record(Time start, Time end, std::int64_t wireBytes, std::int64_t payloadBytes, int phase = 0) {
    stats_.wireBytes += wireBytes;
    stats_.payloadBytes += payloadBytes;
    stats_.phasePayload[phase] += payloadBytes;
    stats_.packets += 1;
    stats_.busy += end - start;
    if (start >= binStart_ && end <= binStart_ + binWidth_)  // the bin of the last one:
      stats_.binBytes.add(bin_, wireBytes);                  // no divisions per packet
    else
      recordBins(start, end, wireBytes);
  }
  const ChannelStats& stats() const { return stats_; }

 private:
  // Spreads the bytes over the bins [start, end) overlaps.
  void recordBins(Time start, Time end, std::int64_t wireBytes);
  [[noreturn]] void tooManyBins(Time end) const;
  double rate_ = 1;  // bytes per second, after efficiency
  Time latency_ = 0;
  Time flitTime_ = 0;
  Time binWidth_ = kMicrosecond;
  std::int32_t maxBins_ = INT32_MAX;
  std::int32_t bin_ = 0;      // bin of the last transmission's end, starting at binStart_
  Time binStart_ = -kMicrosecond;
  mutable std::int64_t lastBytes_ = -1;
  mutable Time lastTime_ = 0;
  ChannelStats stats_;
};

}  // namespace fl::net
