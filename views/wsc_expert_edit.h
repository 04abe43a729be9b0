// The expert edits the mapping editor makes (issue 20 "assign experts to dies"): moving
// one routed expert to another die, or exchanging two, written as
// workload.wsc.expert_placement explicit + workload.wsc.expert_dies, and why such an edit
// cannot be applied. The checks are core's (validateScenario runs
// wsc::checkExpertPlacement: every expert placed, dies in range, workload.wsc.expert_slots
// per die), so the editor refuses exactly what a file or --set would.
#pragma once
#include <QString>
#include <vector>

#include "scenario/scenario.h"

namespace fl::views {

using ExpertDies = std::vector<int>;  // entry e: the die of expert e

// The scenario's placement (modulo or explicit) over its dies; empty unless wsc_inference.
ExpertDies expertDiesOf(const Scenario& s);
// `dies` with expert e on `die`; unchanged when e is out of range.
ExpertDies moveExpert(const ExpertDies& dies, int expert, int die);
// `dies` with experts a and b exchanging dies.
ExpertDies swapExperts(const ExpertDies& dies, int a, int b);
// The experts on each of `count` dies, ascending.
std::vector<std::vector<int>> expertsOnDies(const ExpertDies& dies, int count);

// `s` with the placement (no checks): explicit, the list, no sweep axis over a placement key.
Scenario withExplicitExperts(const Scenario& s, const ExpertDies& dies);
// Why `s` cannot take this placement (the message names the key), or "".
QString expertEditRefusal(const Scenario& s, const ExpertDies& dies);

}  // namespace fl::views
