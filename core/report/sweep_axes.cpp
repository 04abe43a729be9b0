#include "report/sweep_axes.h"

#include <algorithm>

#include "scenario/friendly_names.h"

namespace fl::report {

std::string settingOf(const PointSettings& settings, const std::string& key) {
  for (const auto& [k, v] : settings)
    if (k == key) return canonicalValueText(k, v);
  return {};
}

std::string axisName(const std::string& key, const std::map<std::string, std::string>& titles) {
  const auto titled = titles.find(key);
  const std::string title = titled != titles.end() ? titled->second : friendlyKeyTitle(key);
  return title.empty() ? key : title;
}

std::string axisTitle(const std::string& key, const std::map<std::string, std::string>& titles) {
  const std::string name = axisName(key, titles);
  return name == key ? key : name + " (" + key + ")";
}

namespace {

std::string seriesPart(const std::string& key, const std::string& value,
                       const std::map<std::string, std::string>& titles) {
  if (std::string known = friendlyValueName(key, value); !known.empty()) return known;
  if (const auto t = titles.find(key); t != titles.end()) return t->second + " " + value;
  if (std::string numeric = friendlyNumericValue(key, value); !numeric.empty()) return numeric;
  return key.substr(key.rfind('.') + 1) + " = " + value;  // the key's last part names it
}

}  // namespace

std::vector<SweepSeries> seriesByOtherAxes(const std::vector<PointSettings>& points,
                                           const std::vector<std::string>& keys,
                                           const std::map<std::string, std::string>& titles) {
  std::vector<SweepSeries> groups;
  for (std::size_t i = 0; i < points.size(); ++i) {
    std::string name;
    for (std::size_t k = 1; k < keys.size(); ++k)
      name += (name.empty() ? "" : ", ") + seriesPart(keys[k], settingOf(points[i], keys[k]), titles);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const SweepSeries& g) { return g.name == name; });
    if (it == groups.end()) groups.push_back({name, {i}});
    else it->points.push_back(i);
  }
  return groups;
}

}  // namespace fl::report
