// NVLS (NVLink SHARP) collectives, as NCCL runs them on NVSwitch:
// - reduce-scatter: each GPU pulls its 1/N chunk with multimem.ld_reduce (the switch
//   reads every GPU's copy, sums, returns one result);
// - all-gather: each GPU pushes its chunk once with multimem.st (the switch replicates);
// - all-reduce: ld_reduce of the own chunk, then multimem.st of each reduced piece as
//   soon as it is complete (pipelined), so every GPU sends and receives S(1 + 1/N).
// A GPU keeps workload.collective.nvls_window bytes of ld_reduce in flight, as NCCL's
// chunked loop does: requesting its whole chunk at once made every GPU answer the
// switches' reads (which go first) before storing anything, so the uplinks worked
// first and the downlinks after, at half the rate overall.
#include <algorithm>
#include <vector>

#include "workloads/collective.h"

namespace fl::work {
namespace {

class NvlsAgent : public Agent {
 public:
  NvlsAgent(net::EndpointNode& ep, const CollectiveSpec& c, int rank, int n, int group,
            std::int64_t piece)
      : Agent(ep), op_(c.op), n_(n), group_(group), piece_(piece), window_(c.nvls_window) {
    myChunk_ = chunkBytes(c.size, n, rank);
    pieces_ = static_cast<std::uint32_t>((myChunk_ + piece - 1) / piece);
    contributions_.assign(pieces_, 0);
    reduce_ = op_ != CollectiveOp::AllGather;
    gather_ = op_ != CollectiveOp::ReduceScatter;
    // What arrives here: the reduced own chunk (reduce-scatter), every chunk once (gather).
    expected_ = gather_ ? c.size : myChunk_;
  }

  void start() override {
    if (myChunk_ == 0 && expected_ == 0) return finish();
    if (reduce_) {
      beginPhase("ld_reduce");
      const std::int64_t window = std::max<std::int64_t>(1, window_ / piece_);
      requestPieces(static_cast<std::uint32_t>(std::min<std::int64_t>(window, pieces_)));
    } else {
      beginPhase("multimem_st");
      store(0, myChunk_);
    }
  }

  void onDelivered(const net::Packet& p) override {
    if (p.op == net::Op::LdReduceResult) {
      auto& c = contributions_[p.piece];
      c = static_cast<std::uint16_t>(c + p.contributions);
      if (c < n_) return;
      ++piecesReduced_;
      if (nextPiece_ < pieces_) requestPieces(1);  // the window moves on
      const std::int64_t bytes = pieceBytes(p.piece);
      if (piecesReduced_ == pieces_) endPhase("ld_reduce");
      if (gather_) {
        if (!storing_) {
          beginPhase("multimem_st");
          storing_ = true;
        }
        store(p.piece, bytes);
      } else {
        received_ += bytes;
      }
    } else if (p.op == net::Op::Write) {
      received_ += p.payload();
    }
    if (received_ >= expected_ && (!reduce_ || piecesReduced_ == pieces_)) {
      endPhase(gather_ ? "multimem_st" : "ld_reduce");
      finish();
    }
  }

 private:
  std::int64_t pieceBytes(std::uint32_t i) const {
    return std::min<std::int64_t>(piece_, myChunk_ - static_cast<std::int64_t>(i) * piece_);
  }
  // ld_reduce of the next `count` pieces of the own chunk.
  void requestPieces(std::uint32_t count) {
    net::Message m;
    m.op = net::Op::LdReduce;
    m.firstPiece = nextPiece_;
    m.bytes = std::min<std::int64_t>(static_cast<std::int64_t>(count) * piece_,
                                     myChunk_ - static_cast<std::int64_t>(nextPiece_) * piece_);
    m.group = group_;
    m.expected = static_cast<std::uint16_t>(n_);
    nextPiece_ += count;
    post(m);
  }
  void store(std::uint32_t firstPiece, std::int64_t bytes) {
    net::Message m;
    m.op = net::Op::McStore;
    m.bytes = bytes;
    m.group = group_;
    m.firstPiece = firstPiece;
    post(m);
  }

  CollectiveOp op_;
  int n_, group_;
  std::int64_t piece_;
  std::int64_t window_;  // ld_reduce bytes in flight
  std::int64_t myChunk_ = 0;
  std::uint32_t pieces_ = 0, piecesReduced_ = 0, nextPiece_ = 0;
  std::vector<std::uint16_t> contributions_;
  bool reduce_ = false, gather_ = false, storing_ = false;
};

}  // namespace

std::unique_ptr<Workload> makeNvlsCollective(const CollectiveSpec& c, net::Network& net,
                                             Simulator& sim) {
  auto w = std::make_unique<CollectiveWorkload>(c);
  const int n = net.endpointCount();
  const int group = net.addGroup(net.topology().endpoints());
  const std::int64_t piece = net.config().packetPayload;
  int rank = 0;
  w->createAgents(net, sim, [&](net::EndpointNode& ep) {
    return std::make_unique<NvlsAgent>(ep, c, rank++, n, group, piece);
  });
  return w;
}

}  // namespace fl::work
