#include "views/reduction_entry_table.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "topology/topology.h"
#include "views/format_units.h"

namespace fl::views {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
constexpr int kMaxRows = 2000;  // a buffer holds tens of entries; this only guards odd logs
}  // namespace

MoeTag decodeMoeTag(std::uint64_t tag) {
  return {static_cast<int>(tag >> 62), static_cast<int>((tag >> 32) & 0x3fffffffu),
          static_cast<std::uint32_t>(tag & 0xffffffffu)};
}

ReductionEntryTable::ReductionEntryTable(QWidget* parent) : QWidget(parent) {
  header_ = new QLabel(this);
  header_->setObjectName(QStringLiteral("tableHeader"));
  header_->setWordWrap(true);  // notes on entries between bin middles make it long
  table_ = new QTableWidget(this);
  table_->setColumnCount(ColumnCount);
  table_->verticalHeader()->hide();
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setAlternatingRowColors(true);
  table_->setWordWrap(false);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  // Short headers (the dock is often narrow); the tooltips say what each means.
  const QString heads[ColumnCount] = {tr("token"),   tr("source"), tr("piece"),  tr("expected"),
                                      tr("arrived"), tr("age"),    tr("evicted")};
  const QString tips[ColumnCount] = {
      tr("The token being combined (an MoE layer's tag), or the raw message tag"),
      tr("The GPU the token belongs to (where the reduced result goes)"),
      tr("Packet-sized piece of the token's message"),
      tr("Targets expected: the contributions the entry waits for"),
      tr("Contributions that had arrived by the shown time (of those expected)"),
      tr("Time since the entry was allocated, at the shown time"),
      tr("Whether LRU eviction pushed the partial sum out before all contributions arrived")};
  for (int c = 0; c < ColumnCount; ++c) {
    auto* h = new QTableWidgetItem(heads[c]);
    h->setToolTip(tips[c]);
    table_->setHorizontalHeaderItem(c, h);
  }
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(header_);
  layout->addWidget(table_, 1);
}

void ReductionEntryTable::showEntries(const EntriesAt& at) {
  static const std::vector<const ReductionEntryRecord*> none;
  const auto& log = at.log ? *at.log : none;
  const Time t = at.t;
  std::vector<const ReductionEntryRecord*> alive;
  for (const auto* e : log)
    if (e->start <= t && t < e->end) alive.push_back(e);
  std::sort(alive.begin(), alive.end(), [](const auto* a, const auto* b) { return a->start < b->start; });

  const topo::Topology* topo = at.topology;
  table_->setUpdatesEnabled(false);
  table_->horizontalHeaderItem(Token)->setText(at.moe ? tr("token") : tr("tag"));
  const int rows = int(std::min<size_t>(alive.size(), kMaxRows));
  table_->setRowCount(rows);
  for (int r = 0; r < rows; ++r) {
    const ReductionEntryRecord& e = *alive[size_t(r)];
    QString token, source = QStringLiteral("–");
    if (at.moe) {
      const MoeTag tag = decodeMoeTag(e.tag);
      token = QString::number(tag.token);
      source = topo && tag.source < topo->endpointCount() ? q(topo->node(topo->endpointNode(tag.source)).name)
                                                            : tr("GPU %1").arg(tag.source);
    } else {
      token = QStringLiteral("0x%1").arg(e.tag, 0, 16);
    }
    const QString cells[ColumnCount] = {token,
                                        source,
                                        QString::number(e.piece),
                                        QString::number(e.expected),
                                        QString::number(contributionsAt(*at.sw, e, t)),
                                        formatTime(t - e.start),
                                        e.evicted ? tr("yes") : tr("no")};
    for (int c = 0; c < ColumnCount; ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      if (c == Evicted && e.evicted) item->setForeground(QColor(0xb02010));
      item->setTextAlignment((c == Source ? Qt::AlignLeft : c == Evicted ? Qt::AlignHCenter : Qt::AlignRight) |
                             Qt::AlignVCenter);
      table_->setItem(r, c, item);
    }
  }
  table_->setUpdatesEnabled(true);
  QString header = tr("%1 entries alive at %2 (middle of bin %3)")
                       .arg(alive.size())
                       .arg(formatTime(t))
                       .arg(binNumber(at.bin, at.bins));
  if (int(alive.size()) > rows) header += tr(", first %1 shown").arg(rows);
  // Entries that came and went between two bin middles never show as rows: say how many.
  // An entry is allocated by its first contribution, so one whose contributions all
  // arrive at once (a symmetric NVLS collective: equal links, no jitter) lives for no time.
  const Time binStart = Time(at.bin) * at.binWidth, binEnd = binStart + at.binWidth;
  int within = 0, instant = 0;
  for (const auto* e : log)
    if (e->start >= binStart && e->end < binEnd && !(e->start <= t && t < e->end)) {
      ++within;
      instant += e->start == e->end;
    }
  if (within > 0) header += tr("; %1 more lived only inside this bin").arg(within);
  if (instant > 0) header += tr(", %1 of them for no time (all contributions arrived at once)").arg(instant);
  if (at.sw && at.sw->entry_log_truncated) header += tr("; the entry log was truncated");
  header_->setText(at.sw ? header : QString());
}

}  // namespace fl::views
