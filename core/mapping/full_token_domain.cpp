#include "mapping/full_token_domain.h"

#include <string>

#include "scenario/validate.h"

namespace fl::mapping {

std::vector<std::vector<int>> ftdsFromGroups(const std::vector<std::vector<int>>& groups) {
  std::vector<std::vector<int>> ftds(groups.empty() ? 0 : groups.front().size());
  for (std::size_t k = 0; k < ftds.size(); ++k)
    for (const auto& g : groups) ftds[k].push_back(g[k]);
  return ftds;
}

void checkFtds(const std::vector<std::vector<int>>& ftds, const std::vector<int>& groupOf, int groups,
               const char* key) {
  const auto fail = [key](const std::string& expected, const std::string& found) {
    throw ValidationError(key, key, expected, found, "");
  };
  const int dies = static_cast<int>(groupOf.size());
  std::vector<int> seen(static_cast<std::size_t>(dies), -1);
  for (std::size_t f = 0; f < ftds.size(); ++f) {
    std::vector<int> perGroup(static_cast<std::size_t>(groups), 0);
    for (int d : ftds[f]) {
      if (d < 0 || d >= dies) fail("die ids from 0 to " + std::to_string(dies - 1), "die " + std::to_string(d));
      if (seen[static_cast<std::size_t>(d)] >= 0)
        fail("each die in exactly one FTD", "die " + std::to_string(d) + " in FTDs " +
                                                std::to_string(seen[static_cast<std::size_t>(d)]) + " and " +
                                                std::to_string(f));
      seen[static_cast<std::size_t>(d)] = static_cast<int>(f);
      ++perGroup[static_cast<std::size_t>(groupOf[static_cast<std::size_t>(d)])];
    }
    for (int g = 0; g < groups; ++g)
      if (perGroup[static_cast<std::size_t>(g)] != 1)
        fail("one die of every TP group in each FTD", "FTD " + std::to_string(f) + " holding " +
                                                          std::to_string(perGroup[static_cast<std::size_t>(g)]) +
                                                          " dies of group " + std::to_string(g));
  }
  for (int d = 0; d < dies; ++d)
    if (seen[static_cast<std::size_t>(d)] < 0) fail("every die in one FTD", "die " + std::to_string(d) + " in none");
}

}  // namespace fl::mapping
