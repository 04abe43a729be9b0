// Lat_PE derived from the GPU when workload.xdc.pre_expert_ns is 0 (seed 004 §III-A,
// Eq. 1-2; spec 1.1): the pre-expert part of the computation stream,
//   Lat_PE = ((m+1) Lat_Att + m Lat_FFN),  each a sum of GEMMs of L*M*H MACs / C.
// Attention: the Q, K, V and output projections (4 T H^2 MACs) and the score and value
// products (2 T S H, S = min(T, 512): Table III's longest sequence, [R]); a dense FFN
// block: two GEMMs with M = 4H (8 T H^2). m = 1 (one dense block before each MoE block,
// the usual alternating layout; the paper gives no m) [R]. C is the GPU's FP32 rate
// (the paper trains in fp32 under PyTorch 1.12, whose matmuls default to full FP32, not
// TF32 [R]) x tensor efficiency, halved to MAC/s.
#pragma once
#include "engine/time.h"
#include "gpu/gpu_spec.h"

namespace fl {
struct XdcSpec;
}

namespace fl::xdc {

inline constexpr int kDenseBlocksBeforeMoe = 1;  // m
inline constexpr int kLongestSequence = 512;     // Table III

// MACs of one attention block and of one dense FFN block for T tokens of hidden size H.
double attentionMacs(double tokens, double hidden);
double ffnMacs(double tokens, double hidden);

// Lat_PE for the spec's tokens and hidden size on `gpu`.
Time derivedPreExpert(const XdcSpec& x, const GpuSpec& gpu);

// The forward expert GEMMs of one layer on one GPU: the tokens it receives, D / (4 B x H)
// (balanced gate: it receives what it sends; fp32 activations), through an expert of two
// GEMMs with M = 4H: 2 D H MACs at the same rate. Eq. 7 hides these under the forward
// communication; the backward pass (training) charges 2 x this.
Time derivedExpertCompute(double dataBytes, int hidden, const GpuSpec& gpu);

// Non-expert parameter bytes per MoE layer, what DDP all-reduces: the pre-expert blocks
// ((m+1) attention Q/K/V/O 4 H^2 + m dense FFN 8 H^2 parameters) in fp32.
double denseBytes(const XdcSpec& x);

}  // namespace fl::xdc
