// Reading and writing scenario YAML, and --set overrides. Every path goes through the
// schema (scenario/schema.h) and validateScenario(), so a bad value gets the same message
// from a file, the CLI or the GUI. All errors are fl::InputError with file, 1-based line
// and column, key path, what was expected and what was found.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "scenario/scenario.h"

namespace fl {

// Loads and fully validates a file. The schema version `fabriclab: 1` is required;
// topology.preset is applied before every other key, so explicit keys override it
// whatever their order in the file. The text must be one YAML document, and may not
// write (or sweep) keys its topology kind does not read unless topology.kind is swept.
Scenario loadScenario(const std::string& path);
// Throws InputError naming `keyPath` at file `path` unless it is a file this process can
// read; found says why, from the system's error: "no such file", "permission denied"
// (also for a directory on the way it may not enter), "a directory", ...
void requireReadableScenarioFile(const std::string& path, const std::string& keyPath = {});
Scenario parseScenario(const std::string& yamlText, const std::string& fileNameForErrors);

// One --set flag, "key.path=value": the value is parsed exactly as in a file (lists as
// YAML flow text, "[0, 3]"). Errors are located at file "--set". Checks the key's own
// type and range only: combinations are checked by applyOverrides or validateScenario
// once all flags are applied, since one flag alone may pass through an impossible state.
// A key a sweep axis of `s` sets (or a part of it) is an error: the sweep would replace it.
void applyOverride(Scenario& s, std::string_view assignment);
// Applies every flag in order, then validateScenario(); a cross-field error names an
// overridden key when one is involved.
void applyOverrides(Scenario& s, const std::vector<std::string>& assignments);

// Readable YAML with quantity strings ("25 GB/s"). Writes topology.preset plus only the
// keys whose value differs from what the preset and the defaults give, so that
// parseScenario(saveScenarioText(s)) == s, but for keys the topology kind does not read
// (left out, unless topology.kind is swept: the loader refuses them).
std::string saveScenarioText(const Scenario& s);
// Writes a temporary file in the same directory, then renames it over `path`, so a
// failed save never leaves half a file. Throws InputError naming the file.
void saveScenario(const Scenario& s, const std::string& path);

}  // namespace fl
