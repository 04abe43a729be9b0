// Cross-field checks: combinations of keys that are each valid alone but impossible
// together (more links than ports, nvls on a mesh, a matrix of the wrong size...).
// Single-key checks (types, ranges, enums) happen in the schema as values are set.
#pragma once
#include <functional>
#include <string_view>

#include "scenario/input_error.h"
#include "scenario/scenario.h"

namespace fl {

// Endpoints the topology will have: nvswitch GPUs; mesh rows x cols x wafer rows x wafer
// cols (topology.rows/cols are dies per wafer); hierarchy the product of level counts.
// Saturates at INT_MAX instead of overflowing.
int endpointCount(const TopologySpec& topology);

// Throws ValidationError (an InputError) without a location, naming the offending key
// path. When a check involves several keys, it names the first one `isExplicit` accepts
// (keys written in the file or given with --set), so the message points at what the user
// wrote; with no predicate or no explicit key, the first key of the check. A few checks
// always name one key, and then put the explicit one in locateAt().
using ExplicitKeyPredicate = std::function<bool(std::string_view keyPath)>;
void validateScenario(const Scenario& s, const ExplicitKeyPredicate& isExplicit = {});

// A cross-field error: keyPath() is what the message is about, locateAt() the key whose
// place the error points at (scheme.comm_sms left at its default but too many for a
// written gpu.sms: about scheme.comm_sms, at gpu.sms' line).
class ValidationError : public InputError {
 public:
  ValidationError(std::string keyPath, std::string locateAt, std::string expected, std::string found,
                  std::string hint);
  const std::string& locateAt() const { return locateAt_; }

 private:
  std::string locateAt_;
};

// The key an error points at: locateAt() for a ValidationError, else keyPath().
const std::string& locateKeyOf(const InputError& e);

}  // namespace fl
