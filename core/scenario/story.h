// A scenario's guided tour: the optional top-level `story:` list, each step a short text
// and the actions showing it performs (a sweep point, a dock, a time or phase, the
// direction filter), and the short names of sweep points (`sweep[].labels`) the steps
// and the views use. Read from YAML here; the desktop app's Story dock plays the steps.
//
//   story:
//     - text: Ring all-reduce: every GPU's links busy in both directions.
//       point: ring            # a sweep point: its label, or its number from 1
//       dock: Plots            # raise a dock by its title
//       at: 120 us             # or phase: reduce-scatter
//       direction: up          # both | up | down
#pragma once
#include <string>
#include <vector>

#include "scenario/input_error.h"
#include "scenario/scenario.h"

namespace YAML {
class Node;
}

namespace fl {

// The docks a step may raise (their titles in the desktop app).
const std::vector<std::string>& storyDockNames();

// Each sweep point's label: its axes' labels (or "key = value" where an axis has none)
// joined by ", "; "single run" without a sweep. Point i as sweepPoint(s, i) orders them.
std::vector<std::string> sweepPointLabels(const Scenario& s);

// The 0-based sweep point a step's `point` names (its number from 1, or its label), or
// -1 when it names none.
int storyPointIndex(const Scenario& s, const std::string& point);

// Reads `node` (the value of the top-level `story` key at `at`, in `file`) into
// s.story, checking every step against the scenario's sweep (read before). Throws
// InputError at the offending key, e.g. story[2].point.
void readStory(const YAML::Node& node, const InputLocation& at, const std::string& file, Scenario& s);

// Reads sweep[i].labels (`path`) for `axis` (its values read): one label per value,
// distinct, non-empty, one line each.
std::vector<std::string> readSweepLabels(const YAML::Node& node, const SweepAxis& axis, const std::string& path,
                                         const InputLocation& at, const std::string& file);

}  // namespace fl
