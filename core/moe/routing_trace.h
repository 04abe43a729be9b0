// Recorded routing decisions as CSV, one token per row:
//
//   token,experts          <- optional header
//   0,3 17 42 200 5 9 11 8 <- experts separated by spaces or semicolons
//   1,"4;18;43;201;6;10;12;9"
//
// Tokens are numbered from 0 in row order. '#' lines and blank lines are skipped. Every
// row must list top_k distinct expert ids in [0, experts). Errors are InputErrors with
// key path workload.moe.routing.trace located at the trace file's line and column.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fl {

struct RoutingTrace {
  int top_k = 0;
  std::vector<std::int32_t> experts;  // rows x top_k, row-major

  std::size_t rows() const { return top_k ? experts.size() / static_cast<std::size_t>(top_k) : 0; }
  std::span<const std::int32_t> row(std::size_t r) const {
    return {experts.data() + r * static_cast<std::size_t>(top_k), static_cast<std::size_t>(top_k)};
  }
};

RoutingTrace parseRoutingTrace(std::string_view text, const std::string& fileForErrors, int experts, int topK);
// Reads the file; InputError at line 0 when it cannot be read or holds no rows.
RoutingTrace loadRoutingTrace(const std::string& path, int experts, int topK);

// A trace path as written in a scenario, made absolute against the directory of the
// scenario file (`scenarioFile`; "" or a pseudo-file such as "--set" means the current
// directory). Absolute paths keep saved scenarios loadable from anywhere.
std::string resolveTracePath(const std::string& path, const std::string& scenarioFile);

}  // namespace fl
