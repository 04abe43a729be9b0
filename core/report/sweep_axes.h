// How a sweep's points lie along its axes, for every view that plots them (the report's
// sweep charts, the GUI's Sweep dock): the first axis is the x axis, read as numbers
// when its values are quantities ("64 KiB", "4 TB/s", "512"), else as categories; the
// other axes split the points into series ("Size 1 MiB, algorithm = ring").
#pragma once
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fl::report {

using PointSettings = std::vector<std::pair<std::string, std::string>>;  // key path -> value

// The value a point gives `key` in the schema's canonical text ("125 MB/s" for a file's
// "1 Gb/s", friendly_names.h canonicalValueText); "" when it does not set it.
std::string settingOf(const PointSettings& settings, const std::string& key);


// The x axis title of a sweep over `key`: its title (from `titles`, a hierarchy level's
// name, else friendlyKeyTitle) over the key path, "Merge table size
// (network.switch.merge_table)"; the bare key path when neither names it.
std::string axisTitle(const std::string& key, const std::map<std::string, std::string>& titles = {});

// The title alone, for a chart's "Bus bandwidth vs Message size per GPU"; the key path
// when nothing names it.
std::string axisName(const std::string& key, const std::map<std::string, std::string>& titles = {});

// Points grouped by the values of every axis but the first, in order of appearance;
// one group named "" when there is a single axis. A group is named as sweep points are:
// the seeds' names ("EP", "TP-NVLS"), a key's title where `titles` gives one (a
// hierarchy level's: "Datacenter link bandwidth 1.25 GB/s"), a numeric value with its
// name ("Size 1 MiB"), else "algorithm = ring".
struct SweepSeries {
  std::string name;
  std::vector<std::size_t> points;
};
std::vector<SweepSeries> seriesByOtherAxes(const std::vector<PointSettings>& points,
                                           const std::vector<std::string>& keys,
                                           const std::map<std::string, std::string>& titles = {});

}  // namespace fl::report
