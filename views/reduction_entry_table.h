// The in-switch table inspector's entry table: the reduction-buffer entries of one switch
// port alive at one instant (the middle of the current bin), decoded from their tags
// (MoE: token and source GPU), with the contributions arrived by then and their age
// then. Its header also counts the entries that came and went between two bin middles
// (e.g. NVLS entries whose contributions all arrive at once), which never show as rows.
#pragma once
#include <QWidget>
#include <cstdint>
#include <vector>

#include "results/results.h"

class QLabel;
class QTableWidget;

namespace fl::topo {
class Topology;
}

namespace fl::views {

// An MoE layer's message tag: phase << 62 | source GPU << 32 | token (core/workloads/moe_layer).
struct MoeTag {
  int phase = 0;   // 0 dispatch, 1 combine
  int source = 0;  // endpoint index of the token's GPU
  std::uint32_t token = 0;
};
MoeTag decodeMoeTag(std::uint64_t tag);

// What the table shows: one port's entries at one instant.
struct EntriesAt {
  const SwitchResult* sw = nullptr;  // the port's switch; null when no port is picked (empty)
  const std::vector<const ReductionEntryRecord*>* log = nullptr;  // the port's entries, log order
  Time t = 0;                        // the instant shown: the middle of bin `bin`
  int bin = 0, bins = 0;
  Time binWidth = 0;
  bool moe = false;                          // tags are MoE tokens (else shown raw, in hex)
  const topo::Topology* topology = nullptr;  // names the tokens' source GPUs
};

class ReductionEntryTable : public QWidget {
  Q_OBJECT
 public:
  enum Column { Token = 0, Source, Piece, Expected, Arrived, Age, Evicted, ColumnCount };

  explicit ReductionEntryTable(QWidget* parent = nullptr);
  QTableWidget* table() const { return table_; }
  void showEntries(const EntriesAt& at);

 private:
  QLabel* header_;
  QTableWidget* table_;
};

}  // namespace fl::views
