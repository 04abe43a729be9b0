// One GPU of a tensor-parallel layer (tp_layer.cpp builds them): runs the plan's stages
// as kernels of thread blocks (one 128 x 128 output tile each, one SM) and, at each
// junction, the scheme's communication:
//   tp_nvls  GEMM -> barrier -> NVLS all-reduce (ld_reduce of the own 1/N, multimem.st of
//            each reduced piece) -> LN on all T rows -> GEMM
//   sp_nvls  GEMM -> barrier -> NVLS reduce-scatter -> LN on T/N rows -> barrier -> NVLS
//            all-gather (multimem.st) -> GEMM
//   cais_base GEMM-RS whose thread blocks push their tile with red.cais to the row block's
//            home as they finish -> LN on the home once every own block has its N-1
//            contributions -> "rows ready" flag to every GPU -> AG-GEMM whose first thread
//            block of a remote row block loads it with ld.cais (after the home's flag);
//            the row's thread blocks hold their SMs until it has arrived.
// Barriers and flags are 16 B writes between GPUs. Drift (scheme.stragglers): every
// kernel start waits a sampled jitter, every thread block's time is stretched by a
// sampled noise; seeded per GPU.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/random.h"
#include "gpu/gpu_spec.h"
#include "tp/cais_address.h"
#include "tp/tp_plan.h"
#include "workloads/agent.h"

namespace fl::tp {

// What every GPU's agent reads and none writes.
struct TpShared {
  TpPlan plan;
  TpScheme scheme = TpScheme::CaisBase;
  GpuSpec gpu;
  int sms = 132;
  int tileM = 128, tileN = 128;
  std::int64_t payload = 128;         // bytes of one block (network.packet_payload)
  std::int64_t nvlsWindow = 1 << 20;  // ld_reduce bytes in flight
  int group = -1;                     // NVLS multicast group of all GPUs
  std::vector<topo::NodeId> homes;    // node of each GPU
  const CaisAddressMap* map = nullptr;
  StragglerSpec drift;
  std::uint64_t seed = 1;
  std::uint32_t blocksPerTensor = 0;  // T x hidden x 2 B / payload: one junction's address range
};

// When one GPU ran one junction (for the sub-layer times).
struct JunctionSpan {
  Time start = -1, end = -1;
};

class TpAgent : public work::Agent {
 public:
  TpAgent(net::EndpointNode& ep, const TpShared& shared, int rank);
  void start() override;
  void onTimer(std::uint64_t arg) override;
  void onDelivered(const net::Packet& p) override;
  void onSent(std::uint64_t tag) override;
  const std::vector<JunctionSpan>& spans() const { return spans_; }

 private:
  enum Step : int { kRsGemm, kSync1, kReduce, kLn, kSync2, kGather, kAgGemm, kDone };
  enum Timer : std::uint64_t { kTbDone = 1, kStageDone = 2, kKernelGo = 3, kTbSent = 4 };
  enum TagKind : std::uint64_t { kTagBarrier1 = 1, kTagBarrier2 = 2, kTagRowsReady = 3, kTagNvls = 4, kTagCais = 5 };
  // kind (8 bits) | junction (24 bits) | thread block (32 bits: red.cais only)
  static std::uint64_t tag(TagKind k, int j, std::uint32_t tile = 0) {
    return (static_cast<std::uint64_t>(k) << 56) | (static_cast<std::uint64_t>(j) << 32) | tile;
  }
  static int junctionOf(std::uint64_t t) { return static_cast<int>((t >> 32) & 0xffffff); }

  // A kernel of thread blocks over an M x N output (tiles m-major).
  struct Kernel {
    enum Kind { Local, ReduceScatter, AllGather } kind = Local;
    std::int64_t rowTiles = 0, colTiles = 0, next = 0, running = 0, done = 0;
    Time tbTime = 0;
    bool active = false;
  };

  void runStage();
  void nextStage();
  void advanceJunction();
  void startKernel(Kernel::Kind kind, const GemmShape& shape);
  void launchKernel();
  void dispatch();
  void tbStarted(std::int64_t tile);
  void tbDone(std::int64_t tile);
  void tbFinished();
  void kernelDone();
  Time noisy(Time t);
  void after(Time d, Timer what, std::uint32_t value = 0);
  void flagAll(TagKind k);
  // NVLS
  void nvlsRequest(std::uint32_t count);
  void onNvls(const net::Packet& p);
  // CAIS
  void pushTile(std::int64_t tile);
  void loadRow(std::int64_t m);
  void onCais(const net::Packet& p);
  int homeOfRow(std::int64_t m) const { return static_cast<int>(m / rowBlocksPerGpu_); }
  std::uint32_t base(int j) const { return static_cast<std::uint32_t>(j) * shared_.blocksPerTensor; }
  std::vector<std::uint16_t>& countsFor(int j);
  int& flagCount(TagKind k, int j);
  bool junctionReady();

  const TpShared& shared_;
  int rank_, n_;
  RandomStream rng_;
  std::size_t stage_ = 0;
  int junction_ = -1;  // index of the current (or last) junction
  Step step_ = kDone;
  Kernel kernel_;
  Kernel::Kind pendingKind_ = Kernel::Local;
  GemmShape pendingShape_;
  std::int64_t rowBlocksPerGpu_ = 0;
  std::uint32_t blocksPerTile_ = 0, blocksPerRow_ = 0, ownBlocks_ = 0;
  std::vector<JunctionSpan> spans_;
  // Flags received per (kind, junction), possibly before this GPU got there.
  std::vector<int> flags_;  // index (kind - 1) * junctions + j
  std::vector<std::vector<std::uint8_t>> rowsReadyFrom_;  // by junction: homes whose rows are ready
  // NVLS collective in progress
  std::uint32_t pieces_ = 0, nextPiece_ = 0, reduced_ = 0, pieceBase_ = 0;
  std::vector<std::uint16_t> pieceContrib_;
  std::int64_t chunk_ = 0, stored_ = 0, storeExpected_ = 0;
  std::vector<std::int64_t> stReceived_;  // by junction
  bool gatherAfterReduce_ = false;
  // CAIS
  std::vector<std::vector<std::uint16_t>> counts_;  // by junction: contributions per own block
  std::vector<std::uint32_t> complete_;             // by junction: own blocks with N-1
  std::vector<std::uint8_t> rowState_;    // AG kernel: 0 not asked, 1 asked, 2 here
  std::vector<std::uint32_t> rowArrived_;
  std::vector<std::vector<std::int64_t>> rowWaiters_;  // tiles holding an SM for the row
  std::vector<std::int64_t> rowsPendingFlag_;          // rows to load once their home is ready
  std::vector<std::uint32_t> unsent_;  // GEMM-RS: red.cais of each thread block not yet injected
};

}  // namespace fl::tp
