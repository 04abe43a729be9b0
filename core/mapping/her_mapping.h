// Hierarchical ER, HER (seed 003 §IV-B4, Fig. 10(c); spec §2.8 [R]) for systems of several
// wafers: every wafer is ER-mapped; the all-reduce becomes an intra-wafer reduce-scatter on
// the ER rings plus an all-gather among counterpart dies (the same position on every
// wafer), after which each wafer holds every token once and the all-to-all stays on the
// wafer: the FTDs are the wafers. Cross-border bytes fall by k / W (spec §3.7).
#pragma once
#include <vector>

namespace fl::mapping {

struct Mapping;

// The wafers as all-to-all domains (die ids ascending).
std::vector<std::vector<int>> waferDomains(const Mapping& m);

// The counterpart dies of `die` on every wafer (wafer order, `die` included): HER's
// inter-wafer all-gather ring.
std::vector<int> counterparts(const Mapping& m, int die);

}  // namespace fl::mapping
