// Cross-field checks: combinations of keys that are each valid alone but impossible
// together (more links than ports, nvls on a mesh, a matrix of the wrong size...).
// Single-key checks (types, ranges, enums) happen in the schema as values are set.
#pragma once
#include <functional>
#include <string_view>

#include "scenario/scenario.h"

namespace fl {

// Endpoints the topology will have: nvswitch GPUs; mesh rows x cols x wafer rows x wafer
// cols (topology.rows/cols are dies per wafer); hierarchy the product of level counts.
// Saturates at INT_MAX instead of overflowing.
int endpointCount(const TopologySpec& topology);

// Throws InputError without a location, naming the offending key path. When a check
// involves several keys, it names the first one `isExplicit` accepts (keys written in
// the file or given with --set), so the message points at what the user wrote; with no
// predicate or no explicit key, the first key of the check.
using ExplicitKeyPredicate = std::function<bool(std::string_view keyPath)>;
void validateScenario(const Scenario& s, const ExplicitKeyPredicate& isExplicit = {});

}  // namespace fl
