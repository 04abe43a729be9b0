// Sweeps changed from the command line: `--set` on a swept key replaces that axis with
// the one value, `--sweep key=v1,v2,...` adds or replaces an axis, `--point N` keeps one
// point. Values go through the schema exactly as the file's sweep values do, and the
// changed sweep gets the file's checks (point count, every point valid, keys the
// topology kind reads), with errors located at "--sweep" / "--point".
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace fl {

// Removes the axes that the --set assignments `sets` ("key=value") set whole (the key is
// the axis' key or contains it), so that the assignments may then be applied; a key
// inside a swept value (topology.levels[1].count while topology.levels is swept) is left
// for applyOverride to refuse. Returns one note per axis removed, for stderr.
std::vector<std::string> dropAxesSetByOverrides(Scenario& s, const std::vector<std::string>& sets);

// Applies every `--sweep key=v1,v2,...` in order: the values are YAML flow items (lists as
// "[0, 3]"), each parsed with the key's schema type. An existing axis over the key gets
// the new values in place (a note says so); otherwise the axis is appended. Then checks
// the whole sweep as a file's. Throws InputError at "--sweep".
std::vector<std::string> applySweepFlags(Scenario& s, const std::vector<std::string>& sweeps);

// The scenario of point `index` alone (no sweep left): the same as running `s` with one
// --set per axis. Throws InputError at "--point" with the valid range when out of range.
Scenario keepSweepPoint(const Scenario& s, std::size_t index);

}  // namespace fl
