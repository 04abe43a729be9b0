// FlashDMoE's memory overhead on one GPU (seed 001 §5.3-5.4, §6.8 Table 6.2): the
// symmetric tensor layout L and the bookkeeping state, each summed from the dimensions of
// the buffers FlashDMoE allocates (no constant is fitted to the table).
//
// Expert capacity EC = ceil(capacity_factor x S / E), padded to C = ceil(EC / bM) x bM
// (§5.4 "align this capacity to ... bM = 128"). k does not enter: Table 6.2 reports
// EC = Tokens / Experts although §6.1 routes top-2 (eq. 1.4, S_e = S / N_e), and
// FlashMoE's compile-time config of that time sets EC = ceil_div(S, E).
//
// Size(L), symmetric (NVSHMEM) heap:
//   cells    P x R x B x E_local x C x H elements, R = 2 rounds (dispatch, combine),
//            B = 2 staging buffers (outgoing, incoming): 4 x P x E_local x C x H (§5.3).
//   flags    one 64-bit signal per (peer, local expert) for dispatch and one per
//            bM x bN tile of every expert's capacity for combine (Algorithm 2: "combine
//            flags: one per tile"): (P x E_local + E x C/bM x H/bN) x 8 B. This is
//            Table 6.2's extra 0.01 / 0.02 MB.
//   sync     P + 1 64-bit words of a symmetric barrier (FlashMoE bootstrap; unconfirmed).
//
// Bookkeeping, device-local:
//   staging  xM, GEMM-0 output of every slot: P x E_local x C x I elements. I = 4H in the
//            table, so it is as large as L's cells.
//   tasks    128 B task descriptors (Fig. 5.1): per-thread queues of the three Subscriber
//            warps (§4.1) bounded by the GEMM-0 tiles they decode and the combine tiles
//            they own, plus the GEMM-1 tasks processors enqueue (P x E_local x C/bM x H/bN).
//   T_phi    routing table, E x C entries of (token index, combine weight), 8 B (§4.1).
//   lookups  per-expert packet encoding (32 B) and expert lookup (8 B), per-peer lookup
//            (32 B); processor doorbells (8 B each) and one device-wide barrier (8 B).
//   gate     when E exceeds one gate tile (bN columns) the gate's softmax and top-k are
//            reduced across blocks through ring payloads: 3 x S x ceil(E / bN) x 8 B.
//   counters 32-bit state: tile indices (E x C/bM x H/bN), task-queue heads and tile sync
//            (P x E_local x C/bM each), expert counts, processor status, gate statistics.
//
// The sizes of the structures, the Subscriber's queue bound and the per-tile flag count are
// FlashMoE's (github.com/osayamenja/FlashMoE, csrc/include/flashmoe/types.cuh and
// bootstrap.cuh, 2025); the thesis names the structures but not their sizes (unconfirmed
// beyond matching Table 6.2). With these, all twelve rows of Table 6.2 are met to the
// table's 0.01 MB (MB = 2^20 B there).
#pragma once
#include <cstdint>

#include "results/results.h"

namespace fl {

struct Scenario;

// Defaults are Table 6.2's first row on seed 001's testbed (§6.1: 8 x H100).
struct FlashMemoryShape {
  std::int64_t tokens = 4096;    // S, tokens per GPU (Table 6.2 "Tokens")
  int experts = 16;              // E, experts of the layer over all GPUs
  int gpus = 8;                  // P, expert-parallel world (§6.1: 8 GPUs)
  int hidden = 1024;             // H; with 4 B elements, 4 KB per token (Table 6.2 caption)
  int expert_ffn = 4096;         // I (the thesis's D); §6.7's shape, I = 4H
  int element_bytes = 4;         // fp32: §7 lists FP16 as not yet supported
  double capacity_factor = 1.0;  // §6.1
  int tile_m = 128;              // bM (§5.4)
  int tile_n = 64;               // bN (§4.3, tile 128 x 64)
  int sms = 132;                 // H100 SXM
  int blocks_per_sm = 2;         // Table 6.1 (max active blocks per SM)
};

// Every term above, in bytes unless named otherwise.
struct FlashMemoryBreakdown {
  std::int64_t expert_capacity = 0;   // EC, tokens
  std::int64_t padded_capacity = 0;   // C, tokens (Table 6.2 "max(bM, EC)")
  std::int64_t token_buffer_bytes = 0;  // Size(T) = S x H
  std::int64_t cell_bytes = 0, flag_bytes = 0, sync_bytes = 0;
  std::int64_t staging_bytes = 0, task_queue_bytes = 0, routing_table_bytes = 0,
               lookup_bytes = 0, gate_bytes = 0, counter_bytes = 0;

  std::int64_t symmetricLayoutBytes() const { return cell_bytes + flag_bytes + sync_bytes; }
  std::int64_t bookkeepingBytes() const {
    return staging_bytes + task_queue_bytes + routing_table_bytes + lookup_bytes + gate_bytes +
           counter_bytes;
  }
};

// ceil(capacity_factor x tokens / experts).
std::int64_t flashExpertCapacity(std::int64_t tokens, int experts, double capacity_factor);

// Throws InputError (key path flash_memory.<field>) for a shape that allocates nothing.
FlashMemoryBreakdown flashMemoryBreakdown(const FlashMemoryShape& shape);
MemoryResults flashMemoryOverhead(const FlashMemoryShape& shape);

// The shape of a moe_layer scenario on `gpus` GPUs: workload.moe.{tokens_per_gpu, hidden,
// expert_ffn, experts, dispatch_dtype}, scheme.persistent.{capacity_factor, task_n},
// gpu.tile's bM and gpu.sms.
FlashMemoryShape flashMemoryShape(const Scenario& s, int gpus);
MemoryResults flashMemoryFor(const Scenario& s, int gpus);

}  // namespace fl
