#include "topology/wafer_presets.h"

#include "engine/time.h"
#include "scenario/scenario.h"

namespace fl {
namespace {

struct Wafer {
  const char* name;
  int rows, cols, waferRows, waferCols;
};

const Wafer kWafers[] = {
    {"wsc-4x4", 4, 4, 1, 1},      // the paper's minimum WSC: 16 B200-like dies ("35 PFLOPS, 2.8 TB",
                                  // i.e. 36 000 TFLOPS and 2880 GB divided by 1024)
    {"wsc-6x6", 6, 6, 1, 1},      // §VI-B: compared with a 4-node DGX B200
    {"wsc-8x8", 8, 8, 1, 1},      // §VI-B: compared with an 8-node DGX B200
    {"wsc-2x2-8x8", 8, 8, 2, 2},  // §VI-D: "four 8x8 wafers (256 devices)", a 2x2 grid [R]
    {"wsc-1x2-4x4", 4, 4, 1, 2},  // spec §3.7's worked cross-border example
};

// §I/§VI-A1: "bidirectional communication bandwidth of a single die ... 8 TB/s". Per link
// (default, [R]: §I's 4.4x over NVLink's 1.8 TB/s) that is 4 TB/s per direction; per die it
// is 8 TB/s over 4 ports = 1 TB/s per link per direction.
constexpr double kDieBidirectional = 8e12;
// §VI-A1: "one-border of cross-wafer bandwidth ... 9 TB/s", shared by that wafer edge's
// border links, read as bidirectional ([U], spec §1.1).
constexpr double kBorderEdgeBidirectional = 9e12;
// Hop latencies are never given by the paper ([U], spec §1.1): 20 ns on the wafer, 100 ns
// across a wafer border.
constexpr Time kWaferHop = 20 * kNanosecond;
constexpr Time kBorderHop = 100 * kNanosecond;

// Input buffer per virtual channel, in 16 B flits ([U], our choice: the paper's Eq. 1 has
// no flow control, so the packet model must not be limited by credits either). A VC
// carries at most depth x 16 B per credit round trip; the round trip of a hop is about
// 2 x its latency (data out, credit back) plus one 304 B packet's serialisation:
//   wafer hop   4 TB/s x (2 x 20 ns + 0.08 ns)       = 160.3 KB = 10 020 flits;
//   border hop  1.125 TB/s x (2 x 100 ns + 0.27 ns)  = 225.3 KB = 14 083 flits (4x4 wafers,
//               9 TB/s over 4 links, the shallowest edge; 8x8: 7 050 flits).
// 16 384 flits (256 KiB per VC) covers both with a margin, so one VC alone (an NI copy's
// background class) runs a hop at its full bandwidth. NVLink's 256 flits (seed 000) gave
// one VC 4 KiB per 40 ns, about 100 GB/s, 2.5 % of a wafer link.
constexpr int kVcDepthFlits = 16384;

const Wafer* find(std::string_view name, bool& perDie) {
  constexpr std::string_view suffix = "-per-die";
  perDie = name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
  if (perDie) name.remove_suffix(suffix.size());
  for (const Wafer& w : kWafers)
    if (name == w.name) return &w;
  return nullptr;
}

}  // namespace

const std::vector<std::string>& waferPresetNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const Wafer& w : kWafers) v.emplace_back(w.name);
    for (const Wafer& w : kWafers) v.emplace_back(std::string(w.name) + "-per-die");
    return v;
  }();
  return names;
}

bool applyWaferPreset(std::string_view name, TopologySpec& spec) {
  bool perDie = false;
  const Wafer* w = find(name, perDie);
  if (!w) return false;
  spec.kind = TopologyKind::Mesh;
  spec.preset = std::string(name);
  spec.rows = w->rows;
  spec.cols = w->cols;
  spec.wafer_rows = w->waferRows;
  spec.wafer_cols = w->waferCols;
  spec.link_bandwidth = perDie ? kDieBidirectional / 4 / 2 : kDieBidirectional / 2;
  spec.link_latency = kWaferHop;
  spec.link_efficiency = 1.0;  // Eq. 1 has no framing loss; the packet model adds its own framing
  // One wafer edge's border links: `rows` of them on a vertical edge (square wafers here).
  spec.border_bandwidth = kBorderEdgeBidirectional / 2 / w->rows;
  spec.border_latency = kBorderHop;
  // The die reaches all four of its ports at once ([U]: the die's own NoC is not the limit).
  spec.die_injection_bandwidth = 4 * spec.link_bandwidth;
  return true;
}

int waferPresetVcDepthFlits(std::string_view name) {
  bool perDie = false;
  return find(name, perDie) ? kVcDepthFlits : 0;
}

std::string waferPresetSummary(std::string_view name) {
  bool perDie = false;
  const Wafer* w = find(name, perDie);
  if (!w) return "";
  const int dies = w->rows * w->cols * w->waferRows * w->waferCols;
  std::string s = "WSC " + std::to_string(w->waferRows) + "x" + std::to_string(w->waferCols) + " wafer(s) of " +
                  std::to_string(w->rows) + "x" + std::to_string(w->cols) + " B200-like dies (" +
                  std::to_string(dies) + "), 8 TB/s bidirectional per " + (perDie ? "die" : "link") +
                  ", 9 TB/s per wafer edge, 20/100 ns hops, " + std::to_string(kVcDepthFlits) + "-flit VCs";
  return s;
}

}  // namespace fl
