// The report's opening page and the scenario's own words: a one-page summary (the
// fabric, the workload, each point's headline figures, the best point), the scenario's
// story (its guided tour, step by step, with what each step shows) and the comments of
// the scenario file (what to look at, parameter sources, where a seed's result is not
// reproduced and why).
#pragma once
#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "sim/run.h"
#include "topology/topology.h"

namespace fl::report {

std::string summarySection(const Scenario& s, const std::vector<SweepPoint>& points, const topo::Topology& t);
std::string storySection(const Scenario& s);  // "" without a story
// The full-line comments of a scenario file, in paragraphs; "" when none or unreadable.
std::string scenarioComments(const std::string& file);
std::string commentsSection(const std::string& comments);  // "" when empty

}  // namespace fl::report
