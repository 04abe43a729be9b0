#include "wsc/hot_cold_links.h"

#include <algorithm>
#include <map>

namespace fl::wsc {

double hotCutoff(const std::vector<LinkDirectionResult>& links, const std::string& phase, bool relative,
                 double threshold) {
  if (!relative) return threshold;
  double busiest = 0, busiestAny = 0;
  for (const LinkDirectionResult& d : links)
    for (const LinkPhaseResult& lp : d.phases) {
      if (lp.phase != phase) continue;
      busiestAny = std::max(busiestAny, lp.utilization);
      if (d.kind != "local") busiest = std::max(busiest, lp.utilization);
    }
  return threshold * (busiest > 0 ? busiest : busiestAny);
}

const char* linkClass(std::int64_t bytes, double utilization, double cutoff) {
  return bytes == 0 ? "idle" : utilization >= cutoff ? "hot" : "cold";
}

void classifyLinks(std::vector<LinkDirectionResult>& links, bool relative, double threshold) {
  std::map<std::string, double> cutoff;
  for (const LinkDirectionResult& d : links)
    for (const LinkPhaseResult& lp : d.phases)
      if (!cutoff.count(lp.phase)) cutoff[lp.phase] = hotCutoff(links, lp.phase, relative, threshold);
  for (LinkDirectionResult& d : links)
    for (LinkPhaseResult& lp : d.phases) lp.cls = linkClass(lp.bytes, lp.utilization, cutoff[lp.phase]);
}

}  // namespace fl::wsc
