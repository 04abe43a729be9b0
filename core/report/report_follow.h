// The report's "Followed packets" table: the hops run.follow recorded (results/
// packet_follow.h), in time order, so a reader can trace one token or chunk through the
// fabric as the app's Follow One replays it.
#pragma once
#include <string>

#include "results/results.h"

namespace fl::report {

// At most this many hops are listed; the JSON and CSV outputs keep them all.
inline constexpr std::size_t kMaxReportedHops = 64;

// "" when the results have no followed packets.
std::string followSection(const Results& r, const std::string& idPrefix = {}, int headingLevel = 2);

}  // namespace fl::report
