// What a sweep compares across its points: one catalogue of per-point figures for the
// CLI's sweep table and points.csv, the report's sweep table and charts and the GUI's
// Sweep dock, so they agree on names, units and which figures a sweep has (text and
// axis units: report/metric_format.h). A figure has a value
// only where it means something (bus bandwidth for collectives, the AL TLB hit rate
// where some lookup happened); a table or chart shows those with a value at some point.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "results/results.h"
#include "sim/run.h"

namespace fl {

enum class MetricKind {
  Time,      // picoseconds
  Fraction,  // 0..1, shown as a percentage
  Bytes,
  Number,    // a plain figure, its unit in the column heading (GB/s, ns, tokens/s)
};

struct SweepMetric {
  const char* id;      // its name in the results JSON, e.g. "al_tlb_hit_rate"
  const char* column;  // table heading, also the axis title: "busbw (GB/s)"
  const char* name;    // chart title: "Bus bandwidth"
  MetricKind kind;
  int decimals;        // Number only
  std::optional<double> (*value)(const Results&);
  // Parameter-key fragments whose sweeps this figure answers (a sweep of
  // scheme.dysharp.al_tlb_entries is about the AL TLB hit rate): charted first.
  std::vector<std::string> answers;
};

// Every figure, in table order.
const std::vector<SweepMetric>& sweepMetrics();
const SweepMetric* findSweepMetric(const std::string& id);

// The figures with a value at some point, in table order.
std::vector<const SweepMetric*> metricsWithValues(const std::vector<const Results*>& points);
// The same over a sweep's points.
std::vector<const SweepMetric*> metricsOfSweep(const std::vector<SweepPoint>& points);

// What to chart for a sweep whose first axis is `key`, given the figures with values:
// those that answer the key (in table order), then the sweep's headline: bus bandwidth
// for collectives; accepted throughput and p99 latency for synthetic traffic; else the
// makespan.
std::vector<const SweepMetric*> chartedMetrics(const std::string& key, const std::vector<const SweepMetric*>& available);

}  // namespace fl
