// The expert load trace of workload.wsc.gating: trace (seed 003 §V-B uses production
// traces; spec moentwine.md §2.10 asks for a CSV with columns iteration, layer, expert,
// tokens). One row per (iteration, layer, expert): how many tokens picked that expert.
// Blank lines and '#' comments are skipped, an optional header names the columns, CRLF is
// accepted. One MoE layer is modelled, so the run reads layer 0; rows of other layers are
// checked and kept for nothing. Every bad row is an InputError at
// workload.wsc.trace with the file, line and column of the bad field.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace fl::wsc {

struct ExpertLoadTrace {
  std::vector<std::vector<double>> tokens;  // [iteration][expert], layer 0; empty iterations: none given
  // The iteration's per-expert shares of its tokens (summing to 1).
  std::vector<double> shares(int iteration) const;
};

ExpertLoadTrace parseExpertLoadTrace(std::string_view text, const std::string& file, int experts);
ExpertLoadTrace loadExpertLoadTrace(const std::string& path, int experts);

// Throws InputError unless iterations 0 .. iterations-1 each have layer-0 tokens.
void checkTraceCovers(const ExpertLoadTrace& trace, const std::string& file, int iterations);

}  // namespace fl::wsc
