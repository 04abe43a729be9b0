// The seeds' names for the values of a few sweepable keys, so that sweep points read
// "ER-Mapping" or "TP-NVLS" rather than "kind = er" (seed 003 MoEntwine's mappings and
// balancers, seed 002 CAIS's tensor-parallel schemes). Used by the app's point labels
// and the report's comparison.
#pragma once
#include <string>

namespace fl {

// The name for `value` of `key` (a full key path, e.g. "mapping.kind"); "" when the
// seeds give none.
std::string friendlyValueName(const std::string& key, const std::string& value);

}  // namespace fl
