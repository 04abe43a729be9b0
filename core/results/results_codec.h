// A compact binary form of Results, to move a sweep point's results between processes
// (MPI ranks) so that the gathering process writes byte-identical outputs. Every field
// is written (the sizeof checks in results_codec.cpp fail the build when a struct gains
// one, so the field lists cannot silently fall behind). Same build on both ends.
#pragma once
#include <string>

#include "results/results.h"

namespace fl {

std::string encodeResults(const Results& r);
// Throws std::runtime_error on truncated or malformed input.
Results decodeResults(const std::string& bytes);

}  // namespace fl
