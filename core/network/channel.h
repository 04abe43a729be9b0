// One direction of a link: serialisation at the link rate, propagation latency, and
// the per-direction statistics the views animate (bytes per time bin).
#pragma once
#include <cstdint>
#include <vector>

#include "engine/time.h"
#include "results/results.h"

namespace fl::net {

struct ChannelStats {
  std::int64_t wireBytes = 0;
  std::int64_t payloadBytes = 0;
  std::int64_t packets = 0;
  Time busy = 0;
  BinSeries binBytes;  // wire bytes per time bin
};

class Channel {
 public:
  void configure(double bytesPerSecond, Time latency, int flitBytes, Time binWidth);

  double rate() const { return rate_; }
  Time latency() const { return latency_; }
  Time flitTime() const { return flitTime_; }
  Time serialisation(std::int64_t wireBytes) const;

  // Records a transmission occupying the channel over [start, end).
  void record(Time start, Time end, std::int64_t wireBytes, std::int64_t payloadBytes);
  const ChannelStats& stats() const { return stats_; }

 private:
  double rate_ = 1;  // bytes per second, after efficiency
  Time latency_ = 0;
  Time flitTime_ = 0;
  Time binWidth_ = kMicrosecond;
  ChannelStats stats_;
};

}  // namespace fl::net
