// Codes PipelineAgent's two source files share (internal to the agent).
#pragma once
#include <cstdint>

namespace fl::work::pipeline_codes {

// Timer arguments: type in the top byte (barrier releases are kReleaseBase + id, below).
constexpr std::uint64_t kBatchDone = 1ull << 56, kStageGo = 2ull << 56, kKick = 3ull << 56,
                        kOrReady = 4ull << 56, kTypeMask = 0xffull << 56;
// Own token state bits: combined over the network, local experts done, counted done.
constexpr std::uint8_t kNet = 1, kLocal = 2, kDone = 4;
constexpr std::uint8_t kWholeGpu = 255;  // PipelineTask::group of launch gaps and barriers
// Barrier ids per pass: after dispatch, before combine, pass end.
constexpr int kBarriersPerPass = 4, kAfterDispatch = 0, kBeforeCombine = 1, kPassEnd = 3;

}  // namespace fl::work::pipeline_codes
