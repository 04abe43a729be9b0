// The Maximal Incast Volume of seed 001 §6.7 (FlashDMoE's multi-node runs): the
// worst-case bytes one NIC receives in one incast,
//
//   MIV = Tokens / Experts x local_experts x precision x hidden_size x 2 x n_rg,
//
// read here as: Tokens = tokens per GPU (workload.moe.tokens_per_gpu); Experts = all
// experts (workload.moe.experts); local_experts = experts on the receiving GPU (the most
// any GPU hosts); precision = bytes per element of the dispatched tokens
// (workload.moe.dispatch_dtype); hidden_size = workload.moe.hidden; 2 = the two rounds,
// dispatch and combine; n_rg = remote peers, the GPUs outside the receiving GPU's node
// (its leaf switch). So Tokens / Experts x local_experts is what one peer sends one GPU
// when each token picks one expert uniformly; the formula has no top-k factor (top-k
// routing sends about k times that), and it sums both rounds, so one round's share,
// comparable with a per-phase measurement (traffic.max_nic_incast_bytes), is MIV / 2.
#pragma once
#include <cstdint>

#include "scenario/scenario.h"
#include "topology/topology.h"

namespace fl::work {

// The formula itself, rounded to whole bytes.
std::int64_t maximalIncastVolume(std::int64_t tokens, int experts, int localExperts, int precisionBytes,
                                 int hidden, int remotePeers);

// n_rg of a fabric: GPUs outside a GPU's node (its leaf switch), for the GPU with the
// most of them (the smallest node; a hierarchy's nodes are all alike). 0 without NICs
// (topo::isNicLink): a single node, where MIV does not apply.
int remotePeers(const topo::Topology& t);

}  // namespace fl::work
