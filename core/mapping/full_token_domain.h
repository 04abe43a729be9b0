// Full Token Domains (seed 003 §IV-A, spec moentwine.md §2.2 [R]): the minimal sets of
// dies that together hold the tokens of every TP group once the all-gather has run. The
// paper's lost notation reads "the die at local coordinate (x, y) in every TP group forms
// an FTD": FTD k is the k-th member of every group in ring order. t FTDs of g dies each.
#pragma once
#include <vector>

namespace fl::mapping {

// FTD k = {groups[j][k] for every j}. Groups must all have the same size.
std::vector<std::vector<int>> ftdsFromGroups(const std::vector<std::vector<int>>& groups);

// Explicit FTDs (mapping.ftds): each must hold exactly one die of every group and together
// they must partition the dies. Throws ValidationError at `key` with the reason.
void checkFtds(const std::vector<std::vector<int>>& ftds, const std::vector<int>& groupOf, int groups,
               const char* key);

}  // namespace fl::mapping
