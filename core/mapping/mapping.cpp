#include "mapping/mapping.h"

#include <cstdlib>
#include <numeric>
#include <string>

#include "mapping/baseline_mapping.h"
#include "mapping/er_mapping.h"
#include "mapping/full_token_domain.h"
#include "mapping/her_mapping.h"
#include "mapping/tiling.h"
#include "scenario/validate.h"

namespace fl::mapping {

namespace {

[[noreturn]] void fail(const char* key, const std::string& expected, const std::string& found,
                       const std::string& hint = {}) {
  throw ValidationError(key, key, expected, found, hint);
}

std::string str(std::int64_t v) { return std::to_string(v); }

// Baseline / ER / HER: the same tile on every wafer, groups wafer by wafer.
std::vector<std::vector<int>> tiledGroups(const Mapping& m, int tp, bool er) {
  const auto tile = chooseTile(m.waferRows, m.waferCols, tp);
  if (!tile)
    fail("workload.wsc.tp", "a TP degree t with a p x q tile (p*q = t, p dividing the wafer's " + str(m.waferRows) +
                                " rows, q its " + str(m.waferCols) + " columns) that admits a ring of 1-hop steps",
         str(tp), "t = 1, 2 or an even t whose tile has both sides >= 2; or give mapping.kind: explicit");
  std::vector<std::vector<int>> groups;
  for (int wr = 0; wr < m.rows / m.waferRows; ++wr)
    for (int wc = 0; wc < m.cols / m.waferCols; ++wc) {
      const int r0 = wr * m.waferRows, c0 = wc * m.waferCols;
      auto g = er ? erGroups(m.waferRows, m.waferCols, *tile, r0, c0, m.cols)
                  : baselineGroups(m.waferRows, m.waferCols, *tile, r0, c0, m.cols);
      groups.insert(groups.end(), g.begin(), g.end());
    }
  return groups;
}

std::vector<std::vector<int>> toInt(const std::vector<std::vector<std::int64_t>>& lists, int dies, const char* key) {
  std::vector<std::vector<int>> out;
  for (const auto& l : lists) {
    std::vector<int> v;
    for (std::int64_t d : l) {
      if (d < 0 || d >= dies) fail(key, "die ids from 0 to " + str(dies - 1), "die " + str(d));
      v.push_back(static_cast<int>(d));
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace

int Mapping::hops(int a, int b) const {
  if (!pairHops.empty()) return pairHops[static_cast<std::size_t>(a) * static_cast<std::size_t>(dies()) + static_cast<std::size_t>(b)];
  return std::abs(row(a) - row(b)) + std::abs(col(a) - col(b));
}

Mapping buildSwitchedMapping(const MappingSpec& spec, int gpus, int tp, bool allGather) {
  if (spec.kind == MappingKind::Er || spec.kind == MappingKind::Her)
    fail("mapping.kind", "baseline or explicit on a switched fabric (er and her lay rings on a wafer mesh)",
         spec.kind == MappingKind::Er ? "er" : "her");
  Mapping m;
  m.kind = spec.kind;
  m.rows = m.waferRows = 1;
  m.cols = m.waferCols = gpus;
  if (tp < 1 || gpus % tp != 0) fail("workload.wsc.tp", "a TP degree dividing the " + str(gpus) + " GPUs", str(tp));
  if (spec.kind == MappingKind::Explicit) {
    if (spec.groups.empty()) fail("mapping.groups", "GPU lists in ring order, one per TP group", "an empty list");
    m.groups = toInt(spec.groups, gpus, "mapping.groups");
    for (std::size_t g = 0; g < m.groups.size(); ++g)
      if (static_cast<int>(m.groups[g].size()) != tp)
        fail("mapping.groups", "groups of workload.wsc.tp = " + str(tp) + " GPUs",
             "group " + str(static_cast<std::int64_t>(g)) + " of " + str(static_cast<std::int64_t>(m.groups[g].size())));
    if (!spec.ftds.empty() && allGather) m.ftds = toInt(spec.ftds, gpus, "mapping.ftds");
  } else {
    for (int g = 0; g < gpus / tp; ++g) {
      m.groups.emplace_back();
      for (int k = 0; k < tp; ++k) m.groups.back().push_back(g * tp + k);
    }
  }
  if (!allGather) {
    m.ftds = {std::vector<int>(static_cast<std::size_t>(gpus))};
    std::iota(m.ftds[0].begin(), m.ftds[0].end(), 0);
  }
  completeMapping(m, "mapping.groups");
  if (spec.kind == MappingKind::Explicit && !spec.ftds.empty() && allGather)
    checkFtds(m.ftds, m.groupOf, static_cast<int>(m.groups.size()), "mapping.ftds");
  return m;
}

void completeMapping(Mapping& m, const char* groupsKey) {
  const int dies = m.dies();
  m.groupOf.assign(static_cast<std::size_t>(dies), -1);
  const std::size_t t = m.groups.empty() ? 0 : m.groups.front().size();
  for (std::size_t g = 0; g < m.groups.size(); ++g) {
    if (m.groups[g].size() != t)
      fail(groupsKey, "every TP group of the same size (" + str(static_cast<std::int64_t>(t)) + " dies)",
           "group " + str(static_cast<std::int64_t>(g)) + " of " + str(static_cast<std::int64_t>(m.groups[g].size())));
    for (int d : m.groups[g]) {
      int& owner = m.groupOf[static_cast<std::size_t>(d)];
      if (owner >= 0)
        fail(groupsKey, "each die in exactly one TP group",
             "die " + str(d) + " in groups " + str(owner) + " and " + str(static_cast<std::int64_t>(g)));
      owner = static_cast<int>(g);
    }
  }
  for (int d = 0; d < dies; ++d)
    if (m.groupOf[static_cast<std::size_t>(d)] < 0)
      fail(groupsKey, "every one of the " + str(dies) + " dies in a TP group", "die " + str(d) + " in none");
  if (m.ftds.empty()) m.ftds = ftdsFromGroups(m.groups);
  m.ftdOf.assign(static_cast<std::size_t>(dies), -1);
  for (std::size_t f = 0; f < m.ftds.size(); ++f)
    for (int d : m.ftds[f]) m.ftdOf[static_cast<std::size_t>(d)] = static_cast<int>(f);
}

Mapping buildMapping(const MappingSpec& spec, const TopologySpec& topology, int tp, bool allGather) {
  Mapping m;
  m.kind = spec.kind;
  m.waferRows = topology.rows;
  m.waferCols = topology.cols;
  m.rows = topology.rows * topology.wafer_rows;
  m.cols = topology.cols * topology.wafer_cols;
  const int dies = m.dies();
  if (tp < 1 || dies % tp != 0)
    fail("workload.wsc.tp", "a TP degree dividing the " + str(dies) + " dies", str(tp));
  switch (spec.kind) {
    case MappingKind::Baseline:
    case MappingKind::Er:
    case MappingKind::Her:
      if ((m.waferRows * m.waferCols) % tp != 0)
        fail("workload.wsc.tp", "a TP degree dividing the " + str(m.waferRows * m.waferCols) + " dies of a wafer",
             str(tp), "TP groups stay on one wafer");
      m.groups = tiledGroups(m, tp, spec.kind != MappingKind::Baseline);
      break;
    case MappingKind::Explicit: {
      if (spec.groups.empty()) fail("mapping.groups", "die lists in ring order, one per TP group", "an empty list");
      m.groups = toInt(spec.groups, dies, "mapping.groups");
      for (std::size_t g = 0; g < m.groups.size(); ++g)
        if (static_cast<int>(m.groups[g].size()) != tp)
          fail("mapping.groups", "groups of workload.wsc.tp = " + str(tp) + " dies",
               "group " + str(static_cast<std::int64_t>(g)) + " of " +
                   str(static_cast<std::int64_t>(m.groups[g].size())));
      break;
    }
  }
  if (spec.kind == MappingKind::Her) {
    m.interWaferAllGather = true;
    completeMapping(m, "mapping.groups");
    m.ftds = waferDomains(m);
  } else if (!allGather) {
    std::vector<int> all(static_cast<std::size_t>(dies));
    std::iota(all.begin(), all.end(), 0);
    m.ftds = {all};  // reduce-scatter only: every die's tokens are distinct (§2.2)
  } else if (spec.kind == MappingKind::Explicit && !spec.ftds.empty()) {
    m.ftds = toInt(spec.ftds, dies, "mapping.ftds");
  }
  completeMapping(m, "mapping.groups");
  if (spec.kind == MappingKind::Explicit && !spec.ftds.empty() && allGather)
    checkFtds(m.ftds, m.groupOf, static_cast<int>(m.groups.size()), "mapping.ftds");
  return m;
}

std::vector<int> ringEdgeHops(const Mapping& m, const std::vector<int>& group) {
  std::vector<int> hops;
  if (group.size() < 2) return hops;
  for (std::size_t i = 0; i < group.size(); ++i) hops.push_back(m.hops(group[i], group[(i + 1) % group.size()]));
  if (group.size() == 2) hops.pop_back();  // a pair is one edge used both ways
  return hops;
}

BoundingBox boundingBox(const Mapping& m, const std::vector<int>& dies) {
  int r0 = m.rows, r1 = -1, c0 = m.cols, c1 = -1;
  for (int d : dies) {
    r0 = std::min(r0, m.row(d)), r1 = std::max(r1, m.row(d));
    c0 = std::min(c0, m.col(d)), c1 = std::max(c1, m.col(d));
  }
  return dies.empty() ? BoundingBox{} : BoundingBox{r1 - r0 + 1, c1 - c0 + 1};
}

double meanFtdHops(const Mapping& m) {
  double sum = 0;
  std::int64_t pairs = 0;
  for (const auto& f : m.ftds)
    for (int u : f)
      for (int v : f)
        if (u != v) sum += m.hops(u, v), ++pairs;
  return pairs ? sum / static_cast<double>(pairs) : 0;
}

}  // namespace fl::mapping
