// A scenario's guided tour: the optional top-level `story:` list, each step a short text
// and the actions showing it performs (a sweep point, a dock, a time or phase, the
// direction filter, a packet to follow), and the short names of sweep points (`sweep[].labels`) the steps
// and the views use. Read from YAML here; the desktop app's Story dock plays the steps.
//
//   story:
//     - text: Ring all-reduce: every GPU's links busy in both directions.
//       point: ring            # a sweep point: its label, or its number from 1
//       dock: Plots            # raise a dock by its title
//       at: 120 us             # or phase: reduce-scatter
//       direction: up          # both | up | down
//       follow: gpu 0, piece 0  # Follow One (scenario/follow_selector.h); a list of
//                               # selectors (or ';' between them) follows each, as run.follow
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

// One axis's value as a point's label names it: the axis's own label, the seeds' name
// for the value ("ER-Mapping", scenario/friendly_names.h), a number with its short name
// and unit ("Compression 50×", "Table 40 KiB"), else "key = value" (the key's last segment).
std::string sweepValueLabel(const SweepAxis& axis, std::size_t valueIndex);

// Each sweep point's label, the one source for the app, the CLI and the reports: where
// the point sets scheme.communication and scheme.fusion to a combination the seeds name,
// that name ("Full DySHARP", "DeepEP") first, then the other axes' sweepValueLabel, joined
// by ", "; "single run" without a sweep. Point i as sweepPoint(s, i) orders them.
std::vector<std::string> sweepPointLabels(const Scenario& s);

// The 0-based sweep point a step's `point` names (its number from 1, or its label), or
// -1 when it names none.
int storyPointIndex(const Scenario& s, const std::string& point);

// The scenario a step shows: its point's, or the scenario itself without a point.
Scenario storyStepScenario(const Scenario& s, const StoryStep& step);
// Whether each of the step's follow selectors names packets of that scenario's workload (an
// edited scenario may no longer fit it; a saved file leaves it out).
bool storyFollowFits(const Scenario& s, const StoryStep& step);

// Reads `node` (the value of the top-level `story` key at `at`, in `file`) into
// s.story, checking every step against the scenario's sweep (read before). Throws
// InputError at the offending key, e.g. story[2].point.
void readStory(const YAML::Node& node, const InputLocation& at, const std::string& file, Scenario& s);

// Reads sweep[i].labels (`path`) for `axis` (its values read): one label per value,
// distinct, non-empty, one line each.
std::vector<std::string> readSweepLabels(const YAML::Node& node, const SweepAxis& axis, const std::string& path,
                                         const InputLocation& at, const std::string& file);

}  // namespace fl
