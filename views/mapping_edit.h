// The edits the mapping editor makes (seed 003 §IV, issue 20 "Views"): swapping two dies
// between TP groups (or between ring positions of one group), written as mapping.kind
// explicit + mapping.groups, and why such an edit cannot be applied. Qt only for the
// message type; the checks are core's (validateScenario builds the mapping), so the
// editor refuses exactly what a file or --set would.
#pragma once
#include <QString>
#include <cstdint>
#include <string>
#include <vector>

#include "results/wsc_results.h"
#include "scenario/scenario.h"

namespace fl::views {

using DieLists = std::vector<std::vector<std::int64_t>>;

// The TP groups of a run (wsc.tp_groups members, ring order).
DieLists groupsOf(const WscResults& w);
// `groups` with dies a and b exchanged (each takes the other's group and ring position);
// unchanged when either is missing.
DieLists swapDies(const DieLists& groups, int a, int b);
// The group of each die (-1 for none) over `dies` dies.
std::vector<int> groupOfDies(const DieLists& groups, int dies);

// Why `s` cannot take mapping.kind explicit with these groups (the message names the key
// and the reason: a die in two groups, explicit mapping.ftds that no longer hold one die
// per group, a sweep over the TP degree or the die grid, HER's inter-wafer all-gather), or
// "" when it can.
QString mappingEditRefusal(const Scenario& s, const DieLists& groups);
// `s` with the edit applied (no checks): mapping.kind explicit, mapping.groups, and no
// sweep axis over a mapping key (the edit fixes the mapping the shown point had).
Scenario withExplicitGroups(const Scenario& s, const DieLists& groups);

}  // namespace fl::views
