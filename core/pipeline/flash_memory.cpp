#include "pipeline/flash_memory.h"

#include <cmath>
#include <string>

#include "gpu/dtype.h"
#include "scenario/input_error.h"
#include "scenario/scenario.h"

namespace fl {
namespace {

// FlashMoE structure sizes (types.cuh; Fig. 5.1 for the task).
constexpr std::int64_t kTaskBytes = 128;          // padded to a 128-byte cache line
constexpr std::int64_t kPacketLookupBytes = 32;   // PEL: two pointers, eC, six 16-bit fields
constexpr std::int64_t kPeerLookupBytes = 32;     // PLI: two pointers, pe, isRemote (align 16)
constexpr std::int64_t kExpertLookupBytes = 8;    // ELI
constexpr std::int64_t kRoutingEntryBytes = 8;    // TPS: token index, combine weight
constexpr std::int64_t kDoorbellBytes = 8;        // TQSignal: signal, interrupt
constexpr std::int64_t kBarrierBytes = 8;         // one 64-bit word (libcu++; unconfirmed)
constexpr std::int64_t kRingPayloadBytes = 8;     // softmax and top-k ring payloads
constexpr std::int64_t kCounterBytes = 4;         // 32-bit book entries
constexpr std::int64_t kFlagBytes = 8;            // 64-bit NVSHMEM signal
constexpr std::int64_t kStages = 2, kCells = 2;   // R rounds x B staging buffers (§5.3)
constexpr std::int64_t kWarp = 32;
constexpr std::int64_t kSubscriberThreads = 3 * kWarp;  // §4.1: three Subscriber warps

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

void requireAtLeast(const char* field, double value, double least) {
  if (!(value >= least))
    throw InputError({}, std::string("flash_memory.") + field, "at least " + std::to_string(least),
                     std::to_string(value));
}

}  // namespace

std::int64_t flashExpertCapacity(std::int64_t tokens, int experts, double capacity_factor) {
  // Rounded away from the last ulp so that 1.0 x 4096 / 16 stays 256.
  const double ec = capacity_factor * static_cast<double>(tokens) / experts;
  return static_cast<std::int64_t>(std::ceil(ec - 1e-9 * ec));
}

FlashMemoryBreakdown flashMemoryBreakdown(const FlashMemoryShape& m) {
  requireAtLeast("tokens", static_cast<double>(m.tokens), 1);
  requireAtLeast("experts", m.experts, 1);
  requireAtLeast("gpus", m.gpus, 1);
  requireAtLeast("hidden", m.hidden, 1);
  requireAtLeast("expert_ffn", m.expert_ffn, 1);
  requireAtLeast("element_bytes", m.element_bytes, 1);
  requireAtLeast("capacity_factor", m.capacity_factor, 1e-9);
  requireAtLeast("tile_m", m.tile_m, 1);
  requireAtLeast("tile_n", m.tile_n, 1);
  requireAtLeast("sms", m.sms, 1);
  requireAtLeast("blocks_per_sm", m.blocks_per_sm, 1);

  const std::int64_t S = m.tokens, E = m.experts, P = m.gpus, H = m.hidden, I = m.expert_ffn;
  const std::int64_t bytes = m.element_bytes, bM = m.tile_m, bN = m.tile_n;
  const std::int64_t localExperts = ceilDiv(E, P);   // E_local; P x E_local >= E (§5.3)
  const std::int64_t slots = P * localExperts;       // expert slots over the world
  const std::int64_t processors = std::int64_t{m.sms} * m.blocks_per_sm - 1;  // one OS block

  FlashMemoryBreakdown b;
  b.expert_capacity = flashExpertCapacity(S, m.experts, m.capacity_factor);
  b.padded_capacity = ceilDiv(b.expert_capacity, bM) * bM;
  const std::int64_t C = b.padded_capacity;
  const std::int64_t tilesM = C / bM;             // row tiles of one expert's capacity
  const std::int64_t tilesH = ceilDiv(H, bN);     // column tiles of a token (GEMM-1, combine)
  const std::int64_t tilesI = ceilDiv(I, bN);     // column tiles of GEMM-0's output
  b.token_buffer_bytes = S * H * bytes;

  // Size(L).
  b.cell_bytes = kStages * kCells * slots * C * H * bytes;
  b.flag_bytes = (slots + E * tilesM * tilesH) * kFlagBytes;
  b.sync_bytes = (P + 1) * kFlagBytes;

  // Bookkeeping.
  b.staging_bytes = slots * C * I * bytes;
  const std::int64_t subscriberWarps = kSubscriberThreads / kWarp;
  const std::int64_t perSubscriber = ceilDiv(slots, subscriberWarps) * ceilDiv(tilesM * tilesI, kWarp) +
                                     ceilDiv(tilesM * E, kSubscriberThreads) * tilesH;
  const std::int64_t processorTasks = slots * tilesM * tilesH;
  b.task_queue_bytes = (perSubscriber * kSubscriberThreads + processorTasks) * kTaskBytes;
  b.routing_table_bytes = E * C * kRoutingEntryBytes;
  b.lookup_bytes = E * (kPacketLookupBytes + kExpertLookupBytes) + P * kPeerLookupBytes +
                   processors * kDoorbellBytes + kBarrierBytes;
  if (E > bN) b.gate_bytes = 3 * S * ceilDiv(E, bN) * kRingPayloadBytes;  // softmax + 2 top-k sets
  const std::int64_t queueHeads = slots * tilesM;
  const std::int64_t counters = E * tilesM * tilesH                 // tile indices
                                + 2 + localExperts                   // flag count, sync, lX
                                + 2 * queueHeads + processors        // heads, tile sync, status
                                + 2 * E                              // expert counts, scratch
                                + 2 * E + 1;                         // gate logits, counts, loss
  b.counter_bytes = counters * kCounterBytes;
  return b;
}

MemoryResults flashMemoryOverhead(const FlashMemoryShape& shape) {
  const FlashMemoryBreakdown b = flashMemoryBreakdown(shape);
  MemoryResults r;
  r.symmetric_layout_bytes = b.symmetricLayoutBytes();
  r.bookkeeping_bytes = b.bookkeepingBytes();
  r.token_buffer_bytes = b.token_buffer_bytes;
  r.expert_capacity = b.expert_capacity;
  return r;
}

FlashMemoryShape flashMemoryShape(const Scenario& s, int gpus) {
  const MoeSpec& moe = s.workload.moe;
  FlashMemoryShape m;
  m.tokens = moe.tokens_per_gpu;
  m.experts = moe.experts;
  m.gpus = gpus;
  m.hidden = moe.hidden;
  m.expert_ffn = moe.expert_ffn;
  m.element_bytes = dtypeBytes(moe.dispatch_dtype);
  m.capacity_factor = s.scheme.persistent.capacity_factor;
  m.tile_m = s.gpu.tile_m;
  m.tile_n = s.scheme.persistent.task_n;
  m.sms = s.gpu.sms;
  return m;
}

MemoryResults flashMemoryFor(const Scenario& s, int gpus) {
  return flashMemoryOverhead(flashMemoryShape(s, gpus));
}

}  // namespace fl
