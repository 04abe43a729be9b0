// One GPU of a tensor-parallel layer (tp_layer.cpp builds them): runs the plan's stages
// as kernels of thread blocks (one 128 x 128 output tile each, one SM) and, at each
// junction, the scheme's communication:
//   tp_nvls  GEMM -> barrier -> NVLS all-reduce (ld_reduce of the own 1/N, multimem.st of
//            each reduced piece) -> LN on all T rows -> GEMM
//   sp_nvls  GEMM -> barrier -> NVLS reduce-scatter -> LN on T/N rows -> barrier -> NVLS
//            all-gather (multimem.st) -> GEMM
//   cais_base GEMM-RS whose thread blocks push their tile with red.cais to the row block's
//            home as they finish -> LN on the home once every own block has its N-1
//            contributions -> global barrier (kernel-level dependencies, Fig. 9c) ->
//            AG-GEMM whose first thread block of a remote row block loads it with ld.cais;
//            the row's thread blocks hold their SMs until it has arrived.
//   cais_coord plus TB-group coordination (seed 002 §III-B2): a thread block that issues
//            *.cais first sends SYNC to its group's switch and waits for RELEASE holding
//            its SM (pre-launch); a GEMM-RS block syncs again before its first red.cais
//            (pre-access); a throttled GPU issues no new group until THROTTLE-off.
//   cais_partial plus graph-level dataflow (§III-C1): the home normalises each row block
//            as soon as it is complete and flags it; AG-GEMM blocks of a ready row start
//            while GEMM-RS still runs, the SMs split between the two (§III-C2).
//   cais     plus traffic control: loads and reductions on separate VCs (network side).
// Barriers and flags are 16 B writes between GPUs. Drift (specs/cais.md §2.8): every
// kernel start waits an exponential offset (workload.tp.kernel_offset), every thread
// block's time is scaled by lognormal noise (workload.tp.tb_noise_cv), plus
// scheme.stragglers; seeded per GPU.
#pragma once
#include <array>
#include <cstdint>
#include <set>
#include <vector>

#include "engine/random.h"
#include "gpu/gpu_spec.h"
#include "results/tp_timeline.h"
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
  Time kernelOffset = 0;   // workload.tp.kernel_offset
  double tbNoiseCv = 0;    // workload.tp.tb_noise_cv
  double rsSmFraction = 0; // workload.tp.rs_sm_fraction (0: FLOP-proportional)
  TpRowOrder rowOrder = TpRowOrder::HomeInterleaved;  // workload.tp.row_order
  std::uint32_t loadInFlight = UINT32_MAX;  // ld.cais blocks a loading thread block has unanswered
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
  double syncWaitPs() const { return syncWaitPs_; }
  std::int64_t syncs() const { return syncCount_; }
  // CAIS's own checks (CaisResults): red.cais blocks this GPU owns over the junctions, those
  // whose contribution counts reached N-1, ld.cais posted and answered.
  std::int64_t ownBlocks() const { return static_cast<std::int64_t>(ownBlocks_) * static_cast<std::int64_t>(complete_.size()); }
  std::int64_t blocksComplete() const;
  std::int64_t loadRequests() const { return loadRequests_; }
  std::int64_t loadResponses() const { return loadResponses_; }
  const TpTimeline& timeline() const { return timeline_; }

 private:
  enum Step : int { kRsGemm, kSync1, kReduce, kLn, kSync2, kGather, kAgGemm, kDone };
  enum Timer : std::uint64_t { kTbDone = 1, kStageDone = 2, kKernelGo = 3, kTbSent = 4, kLnRow = 5, kIssueLoads = 6 };
  enum TagKind : std::uint64_t {
    kTagBarrier1 = 1, kTagBarrier2 = 2, kTagRowsReady = 3, kTagNvls = 4, kTagCais = 5, kTagSync = 6, kTagLoad = 7
  };
  // kind (8 bits) | junction (24 bits) | value (32 bits: a kernel's thread block, a row)
  static std::uint64_t tag(TagKind k, int j, std::uint32_t value = 0) {
    return (static_cast<std::uint64_t>(k) << 56) | (static_cast<std::uint64_t>(j) << 32) | value;
  }
  static int junctionOf(std::uint64_t t) { return static_cast<int>((t >> 32) & 0xffffff); }
  // A thread block of kernel slot k (0: the stage's GEMM or GEMM-RS, 1: AG-GEMM).
  static std::uint32_t tbRef(int k, std::int64_t tile) { return (static_cast<std::uint32_t>(k) << 31) | static_cast<std::uint32_t>(tile); }
  static int slotOf(std::uint32_t ref) { return static_cast<int>(ref >> 31); }
  static std::int64_t tileOf(std::uint32_t ref) { return ref & 0x7fffffffu; }

  // A kernel of thread blocks over an M x N output (tile = m x colTiles + n), dispatched in
  // the order of positions: m-major for local GEMMs, workload.tp.row_order for CAIS's.
  struct Kernel {
    enum Kind { Local, ReduceScatter, AllGather } kind = Local;
    std::int64_t rowTiles = 0, colTiles = 0, next = 0, running = 0, done = 0;  // next: a position
    Time tbTime = 0;
    bool active = false;
    bool dataflow = false;               // AG-GEMM: tiles become ready row by row
    std::vector<std::int64_t> order, pos;  // position -> tile and back; empty: identity
    // Dataflow: positions of ready tiles, lowest first, so every GPU walks them in the same
    // order (TB groups then cannot wait on each other in a cycle).
    std::set<std::int64_t> ready;
    // Dataflow under coordination: positions of this GPU's TB-group blocks (remote rows'
    // loaders), ascending, and the next one to start. They start in this order whatever
    // became ready first (dispatch()).
    std::vector<std::int64_t> groupOrder;
    std::size_t groupNext = 0;
    std::int64_t total() const { return rowTiles * colTiles; }
    std::int64_t tileAt(std::int64_t p) const { return order.empty() ? p : order[static_cast<std::size_t>(p)]; }
    void makeReady(std::int64_t tile) { ready.insert(pos.empty() ? tile : pos[static_cast<std::size_t>(tile)]); }
    bool hasReady() const { return dataflow ? !ready.empty() : next < total(); }
    std::int64_t peek() const { return tileAt(dataflow ? *ready.begin() : next); }
  };

  void runStage();
  void nextStage();
  void advanceJunction();
  void startKernel(Kernel::Kind kind, const GemmShape& shape);
  void launchKernel();
  void setUpKernel(Kernel& k, Kernel::Kind kind, const GemmShape& shape);
  void dispatch();
  void tbStarted(int slot, std::int64_t tile);
  void beginTb(int slot, std::int64_t tile);
  void tbDone(int slot, std::int64_t tile);
  void tbFinished(int slot);
  void kernelDone(int slot);
  Time noisy(Time t);
  Time tbNoisy(Time t);
  void after(Time d, Timer what, std::uint32_t value = 0);
  void flagAll(TagKind k, std::uint32_t value = 0);
  void startGather();
  // NVLS
  void nvlsRequest(std::uint32_t count);
  void onNvls(const net::Packet& p);
  // CAIS
  bool coordinated() const { return shared_.scheme >= TpScheme::CaisCoord; }
  bool dataflow() const { return shared_.scheme >= TpScheme::CaisPartial; }
  bool isGroupTb(int slot, std::int64_t tile) const;
  void sendSync(int slot, int point, std::int64_t tile);
  void onRelease(const net::Packet& p);
  void pushTile(std::int64_t tile);
  void loadRow(std::int64_t m);
  void issueLoads();
  std::uint32_t streamLimit() const;
  void onCais(const net::Packet& p);
  void ownRowComplete(std::int64_t row);    // dataflow: own row r's inputs are all in
  void rowNormalised(std::uint32_t row);    // dataflow: own row r through LN
  void rowReady(std::int64_t m);            // dataflow: AG-GEMM blocks of row m may start
  void onRowsReady(const net::Packet& p);
  void maybeEndDataflow();
  int homeOfRow(std::int64_t m) const { return static_cast<int>(m / rowBlocksPerGpu_); }
  std::uint32_t base(int j) const { return static_cast<std::uint32_t>(j) * shared_.blocksPerTensor; }
  std::vector<std::uint16_t>& countsFor(int j);
  int& flagCount(TagKind k, int j);
  Time lnTime(std::int64_t rows) const;

  const TpShared& shared_;
  int rank_, n_;
  RandomStream rng_;
  std::size_t stage_ = 0;
  int junction_ = -1;  // index of the current (or last) junction
  Step step_ = kDone;
  std::array<Kernel, 2> kernels_;
  int running_ = 0;     // SMs held by both kernels
  int rsQuota_ = 0;     // dataflow: SMs GEMM-RS may hold while AG-GEMM has ready blocks
  Kernel::Kind pendingKind_ = Kernel::Local;
  GemmShape pendingShape_;
  std::int64_t rowBlocksPerGpu_ = 0;
  std::uint32_t blocksPerTile_ = 0, blocksPerRow_ = 0, ownBlocks_ = 0;
  std::vector<JunctionSpan> spans_;
  // Flags received per (kind, junction), possibly before this GPU got there.
  std::vector<int> flags_;  // index (kind - 1) * junctions + j
  std::vector<std::vector<std::uint8_t>> rowsReadyFrom_;  // by junction: homes whose rows are ready
  std::vector<std::vector<std::uint8_t>> rowReadyFlag_;   // dataflow, by junction: remote rows flagged
  // NVLS collective in progress
  std::uint32_t pieces_ = 0, nextPiece_ = 0, reduced_ = 0, pieceBase_ = 0;
  std::vector<std::uint16_t> pieceContrib_;
  std::int64_t chunk_ = 0, stored_ = 0, storeExpected_ = 0;
  std::vector<std::int64_t> stReceived_;  // by junction
  bool gatherAfterReduce_ = false;
  // CAIS
  std::vector<std::vector<std::uint16_t>> counts_;  // by junction: contributions per own block
  std::vector<std::uint32_t> complete_;             // by junction: own blocks with N-1
  std::vector<std::vector<std::uint32_t>> rowComplete_;  // dataflow, by junction: complete blocks per own row
  std::vector<std::int64_t> ownTilesDone_;          // dataflow: own GEMM-RS tiles done per own row
  std::int64_t rowsNormalised_ = 0;                 // dataflow: own rows through LN
  bool rsDone_ = false;                             // dataflow: GEMM-RS kernel finished
  std::vector<std::uint8_t> rowState_;    // AG kernel: 0 not asked, 1 asked, 2 here
  std::vector<std::uint32_t> rowArrived_;
  std::vector<std::vector<std::int64_t>> rowWaiters_;  // tiles holding an SM for the row
  std::vector<std::int64_t> rowsPendingFlag_;          // rows to load once their home is ready
  std::vector<std::uint32_t> unsent_;  // GEMM-RS: red.cais of each thread block not yet injected
  // ld.cais of the loading thread blocks, one stream per row block (its next and end
  // block). The SMs' requests interleave in the memory system, so the streams are issued
  // round-robin, a few at a time, each with a bounded number in flight (a thread block
  // has only its pipeline stages' buffers): posted all at once, each row's 1 MiB queued
  // behind the previous row's, every GPU (which loads the rows in its own order) reached
  // a block at a different time, and one GPU's whole outstanding window landed on the
  // merge units of a single home.
  struct LoadStream {
    std::uint32_t next = 0, end = 0;
    int home = 0;
    std::int64_t row = 0;
    std::uint32_t inFlight = 0;  // requested, not yet answered
  };
  std::vector<LoadStream> loadStreams_;
  std::size_t nextStream_ = 0;
  int postedLoads_ = 0;         // posted, not yet injected
  std::int64_t loadRequests_ = 0, loadResponses_ = 0;  // ld.cais over the run
  bool issueScheduled_ = false;
  // Coordination
  std::vector<Time> syncSent_[2][2];   // by slot, point (0 pre-launch, 1 pre-access), tile
  // Per kernel slot, sync switches holding this GPU back from new groups (the switch
  // counts a GPU's lead per kernel: group_sync_table.h).
  std::array<int, 2> throttledBy_{};
  double syncWaitPs_ = 0;
  std::int64_t syncCount_ = 0;
  // The Pipeline view's record (results/tp_timeline.h): the row and kind of slot's kernel.
  TpTimeline timeline_;
  std::pair<TpTimeline::Row, PipelineTaskKind> kernelRow(int slot) const;
  Time timed(TpTimeline::Row row, PipelineTaskKind kind, Time d, std::int64_t tile = -1, int sms = -1);
};

}  // namespace fl::tp
