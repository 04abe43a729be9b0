// TpAgent's CAIS side (seed 002 §III): red.cais / ld.cais of the GEMM thread blocks, the
// homes' contribution counts, TB-group sync (cais_coord and later) and the row-by-row
// dataflow of cais_partial and cais.
#include <stdexcept>

#include "tp/tp_agent.h"

#include "network/group_sync_table.h"

namespace fl::tp {

// Thread blocks that issue *.cais, the same tile on every GPU but the row's home: every
// GEMM-RS block of a remote row, and the AG-GEMM block that loads a remote row (the
// row's first; the others find it in L2).
bool TpAgent::isGroupTb(int slot, std::int64_t tile) const {
  const Kernel& k = kernels_[static_cast<std::size_t>(slot)];
  if (k.kind == Kernel::Local) return false;
  const std::int64_t m = tile / k.colTiles;
  if (homeOfRow(m) == rank_) return false;
  return k.kind == Kernel::ReduceScatter || tile % k.colTiles == 0;
}

// SYNC(group) to the group's switch (hashed like an address); the thread block holds its
// SM until RELEASE. Group: junction, kernel, sync point, tile. The switch counts leads per
// junction and kernel, the bits from 21 up (GroupSyncTable::kLaneShift).
static_assert(net::GroupSyncTable::kLaneShift == 21, "sendSync's group layout names the lane");
void TpAgent::sendSync(int slot, int point, std::int64_t tile) {
  if (tile >= (1 << 20) || junction_ >= (1 << 10)) throw std::logic_error("tp: too many thread blocks to name a TB group");
  auto& sent = syncSent_[slot][point];
  const auto total = static_cast<std::size_t>(kernels_[static_cast<std::size_t>(slot)].total());
  if (sent.size() < total) sent.resize(total);
  sent[static_cast<std::size_t>(tile)] = now();
  timeline_.syncBegin(now());
  const std::uint32_t group = (static_cast<std::uint32_t>(junction_) << 22) | (static_cast<std::uint32_t>(slot) << 21) |
                              (static_cast<std::uint32_t>(point) << 20) | static_cast<std::uint32_t>(tile);
  net::Message m;
  m.op = net::Op::CaisSync;
  m.destination = shared_.map->switchOf(group);
  m.requester = shared_.homes[static_cast<std::size_t>(rank_)];
  m.bytes = 1;  // one flit: the header alone
  m.firstPiece = group;
  m.expected = static_cast<std::uint16_t>(n_ - 1);
  m.tag = tag(kTagSync, junction_, tbRef(slot, tile) | (static_cast<std::uint32_t>(point) << 30));
  post(m);
}

void TpAgent::onRelease(const net::Packet& p) {
  if (p.op != net::Op::CaisRelease) return;
  const auto v = static_cast<std::uint32_t>(p.tag & 0xffffffffu);
  const int point = static_cast<int>((v >> 30) & 1);
  const int slot = slotOf(v);
  const std::int64_t tile = tileOf(v) & 0x3fffffff;
  syncWaitPs_ += static_cast<double>(now() - syncSent_[slot][point][static_cast<std::size_t>(tile)]);
  ++syncCount_;
  timeline_.syncEnd(now());
  if (point == 0) return beginTb(slot, tile);
  pushTile(tile);
}

void TpAgent::pushTile(std::int64_t tile) {
  const Kernel& k = kernels_[0];
  const std::int64_t m = tile / k.colTiles;
  const int home = homeOfRow(m);
  const std::uint32_t first = base(junction_) + static_cast<std::uint32_t>(tile) * blocksPerTile_;
  unsent_[static_cast<std::size_t>(tile)] = blocksPerTile_;
  timeline_.open(TpTimeline::kReduceScatter, PipelineTaskKind::CaisReduce, now());
  for (std::uint32_t b = 0; b < blocksPerTile_; ++b)
    post(caisMessage(net::Op::CaisRed, *shared_.map, first + b, shared_.homes[static_cast<std::size_t>(home)],
                     shared_.payload, n_ - 1, tag(kTagCais, junction_, static_cast<std::uint32_t>(tile))));
}

void TpAgent::loadRow(std::int64_t m) {
  const std::uint32_t first = base(junction_) + static_cast<std::uint32_t>(m) * blocksPerRow_;
  timeline_.loadStart(m, now());
  loadStreams_.push_back({first, first + blocksPerRow_, homeOfRow(m), m, 0});
  issueLoads();
}

// Keeps kPostedLoads ld.cais posted (enough to feed every link while the outstanding
// limit allows), one block from each active row stream in turn, each stream with at most
// workload.tp.load_in_flight unanswered (the loading thread block's pipeline stages).
void TpAgent::issueLoads() {
  constexpr int kPostedLoads = 64;
  issueScheduled_ = false;
  const std::uint32_t limit = shared_.loadInFlight;
  std::size_t blocked = 0;
  while (postedLoads_ < kPostedLoads && blocked < loadStreams_.size()) {
    if (nextStream_ >= loadStreams_.size()) nextStream_ = 0;
    LoadStream& s = loadStreams_[nextStream_];
    if (s.next == s.end || s.inFlight >= limit) {
      ++blocked;
      ++nextStream_;
      continue;
    }
    blocked = 0;
    post(caisMessage(net::Op::CaisLoad, *shared_.map, s.next, shared_.homes[static_cast<std::size_t>(s.home)],
                     shared_.payload, n_ - 1, tag(kTagLoad, junction_)));
    ++postedLoads_;
    ++loadRequests_;
    ++s.inFlight;
    ++s.next;
    ++nextStream_;
  }
}

std::int64_t TpAgent::blocksComplete() const {
  std::int64_t sum = 0;
  for (const std::uint32_t c : complete_) sum += c;
  return sum;
}

std::vector<std::uint16_t>& TpAgent::countsFor(int j) {
  auto& v = counts_[static_cast<std::size_t>(j)];
  if (v.empty()) v.assign(ownBlocks_, 0);
  return v;
}

void TpAgent::onCais(const net::Packet& p) {
  const auto j = junctionOf(p.tag);
  if (p.op == net::Op::CaisWrite) {
    auto& v = countsFor(j);
    const std::uint32_t i = p.piece - base(j) - static_cast<std::uint32_t>(rank_) * ownBlocks_;
    if (i >= v.size()) throw std::logic_error("tp: a red.cais write for a block this GPU does not own");
    const int need = n_ - 1;
    const int before = v[i];
    v[i] = static_cast<std::uint16_t>(before + p.contributions);
    if (v[i] > need) throw std::logic_error("tp: a block received more than N-1 contributions");
    if (v[i] < need) return;
    ++complete_[static_cast<std::size_t>(j)];
    if (dataflow()) {
      auto& rows = rowComplete_[static_cast<std::size_t>(j)];
      if (rows.empty()) rows.assign(static_cast<std::size_t>(rowBlocksPerGpu_), 0);
      const std::uint32_t r = i / blocksPerRow_;
      if (++rows[r] == blocksPerRow_ && j == junction_ && r < ownTilesDone_.size() &&
          ownTilesDone_[r] == kernels_[0].colTiles)
        ownRowComplete(r);
      return;
    }
    if (j == junction_) advanceJunction();
    return;
  }
  if (p.op == net::Op::CaisResponse) ++loadResponses_;
  const Kernel& ag = kernels_[1];
  if (p.op != net::Op::CaisResponse || j != junction_ || !ag.active || ag.kind != Kernel::AllGather) return;
  const auto row = static_cast<std::size_t>((p.piece - base(j)) / blocksPerRow_);
  for (std::size_t i = 0; i < loadStreams_.size(); ++i) {
    LoadStream& s = loadStreams_[i];
    if (s.row != static_cast<std::int64_t>(row)) continue;
    --s.inFlight;
    if (s.next == s.end && s.inFlight == 0) {
      loadStreams_.erase(loadStreams_.begin() + static_cast<std::ptrdiff_t>(i));
      if (nextStream_ > i) --nextStream_;
    }
    if (!issueScheduled_) {
      issueScheduled_ = true;
      after(0, kIssueLoads);
    }
    break;
  }
  if (++rowArrived_[row] < blocksPerRow_) return;
  rowState_[row] = 2;
  timeline_.loadEnd(static_cast<std::int64_t>(row), now(), static_cast<int>(rowWaiters_[row].size()));
  for (const std::int64_t tile : rowWaiters_[row]) after(tbNoisy(ag.tbTime), kTbDone, tbRef(1, tile));
  rowWaiters_[row].clear();
  if (ag.dataflow) {  // the row's other blocks find it in L2: ready now
    Kernel& k = kernels_[1];
    for (std::int64_t c = 1; c < k.colTiles; ++c) k.makeReady(static_cast<std::int64_t>(row) * k.colTiles + c);
    dispatch();
  }
}

// Dataflow: own row r has all N-1 contributions and the home's own partial; LN runs on it
// alone (seed 002 §III-C1: "each TB in LN operates on a row").
void TpAgent::ownRowComplete(std::int64_t r) {
  if (rowComplete_[static_cast<std::size_t>(junction_)][static_cast<std::size_t>(r)] != blocksPerRow_) return;
  timeline_.ownRowComplete(now(), rowBlocksPerGpu_);
  // Named by its row block in the sequence, as the ld.cais spans are.
  after(timed(TpTimeline::kLn, PipelineTaskKind::LayerNorm, noisy(lnTime(shared_.tileM)), rank_ * rowBlocksPerGpu_ + r, 0), kLnRow,
        static_cast<std::uint32_t>(r));
}

void TpAgent::rowNormalised(std::uint32_t r) {
  ++rowsNormalised_;
  const std::int64_t m = rank_ * rowBlocksPerGpu_ + r;
  if (shared_.plan.stages[stage_].agN > 0) {
    flagAll(kTagRowsReady, static_cast<std::uint32_t>(m + 1));
    rowReady(m);
    dispatch();
  }
  maybeEndDataflow();
}

// A remote row's first block loads it (and holds its SM until it is here); the others
// become ready when it has arrived, so no SM waits on a row another block is fetching.
void TpAgent::rowReady(std::int64_t m) {
  Kernel& ag = kernels_[1];
  const std::int64_t cols = homeOfRow(m) == rank_ ? ag.colTiles : 1;
  for (std::int64_t c = 0; c < cols; ++c) ag.makeReady(m * ag.colTiles + c);
}

void TpAgent::onRowsReady(const net::Packet& p) {
  const auto j = static_cast<std::size_t>(junctionOf(p.tag));
  const auto v = static_cast<std::uint32_t>(p.tag & 0xffffffffu);
  if (v == 0) return;
  const std::int64_t m = v - 1;
  auto& flags = rowReadyFlag_[j];
  if (flags.empty()) flags.assign(static_cast<std::size_t>(shared_.plan.tokens / shared_.tileM), 0);
  flags[static_cast<std::size_t>(m)] = 1;
  const Kernel& ag = kernels_[1];
  if (static_cast<int>(j) != junction_ || !ag.active || !ag.dataflow) return;  // picked up at launch
  rowReady(m);
  dispatch();
}

void TpAgent::maybeEndDataflow() {
  const bool agDone = shared_.plan.stages[stage_].agN == 0 || !kernels_[1].active;
  if (!rsDone_ || rowsNormalised_ < rowBlocksPerGpu_ || !agDone) return;
  spans_[static_cast<std::size_t>(junction_)].end = now();
  timeline_.close(TpTimeline::kReduceScatter, now());
  rsDone_ = false;
  nextStage();
}

}  // namespace fl::tp
