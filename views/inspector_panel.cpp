#include "views/inspector_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include "views/format_units.h"
#include "views/link_item.h"
#include "views/run_model.h"

namespace fl::views {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

InspectorPanel::InspectorPanel(RunModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  stack_ = new QStackedWidget(this);
  hint_ = new QLabel(tr("Nothing selected.\n\nClick a device or a link on the topology canvas to see its "
                        "details here."),
                     this);
  hint_->setWordWrap(true);
  hint_->setAlignment(Qt::AlignCenter);
  hint_->setEnabled(false);

  auto* page = new QWidget(this);
  title_ = new QLabel(page);
  QFont big = title_->font();
  big.setPointSizeF(big.pointSizeF() * 1.25);
  big.setBold(true);
  title_->setFont(big);
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  subtitle_ = new QLabel(page);
  subtitle_->setWordWrap(true);
  table_ = new QTableWidget(page);
  table_->verticalHeader()->hide();
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionMode(QAbstractItemView::NoSelection);
  table_->setAlternatingRowColors(true);
  table_->setWordWrap(false);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setFocusPolicy(Qt::NoFocus);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
  auto* col = new QVBoxLayout(page);
  col->setContentsMargins(6, 6, 6, 6);
  col->addWidget(title_);
  col->addWidget(subtitle_);
  col->addWidget(table_, 1);

  stack_->addWidget(hint_);
  stack_->addWidget(page);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(stack_);

  for (auto signal : {&RunModel::selectionChanged, &RunModel::resultsChanged, &RunModel::topologyChanged})
    connect(model_, signal, this, &InspectorPanel::refresh);
  // Only a link's figures depend on the bin, thresholds and phase (a node's port list
  // can be 1000 rows long: not worth redoing 30 times a second during playback).
  auto linkOnly = [this] {
    if (model_->selectionKind() == SelectionKind::Link) refresh();
  };
  connect(model_, &RunModel::currentBinChanged, this, linkOnly);
  connect(model_, &RunModel::thresholdsChanged, this, linkOnly);
  connect(model_, &RunModel::phaseChanged, this, linkOnly);
  refresh();
}

QString InspectorPanel::title() const { return stack_->currentIndex() == 1 ? title_->text() : QString(); }

QString InspectorPanel::value(const QString& property, int column) const {
  for (int r = 0; r < table_->rowCount(); ++r)
    if (table_->item(r, 0) && table_->item(r, 0)->text() == property)
      return table_->item(r, column) ? table_->item(r, column)->text() : QString();
  return {};
}

void InspectorPanel::refresh() {
  const topo::Topology* t = model_->topology();
  const int id = model_->selectedId();
  const SelectionKind kind = model_->selectionKind();
  table_->setUpdatesEnabled(false);
  table_->clear();
  table_->setRowCount(0);
  if (t && kind == SelectionKind::Node && id >= 0 && id < static_cast<int>(t->nodes().size())) {
    showNode(id);
    stack_->setCurrentIndex(1);
  } else if (t && kind == SelectionKind::Link && id >= 0 && id < static_cast<int>(t->links().size())) {
    showLink(id);
    stack_->setCurrentIndex(1);
  } else {
    stack_->setCurrentIndex(0);
  }
  // Property names as wide as they need; the values (one or two directions) share the rest.
  if (table_->columnCount() > 0) {
    table_->horizontalHeader()->setStretchLastSection(false);
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    for (int c = 1; c < table_->columnCount(); ++c)
      table_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::Stretch);
  }
  table_->setUpdatesEnabled(true);
}

void InspectorPanel::section(const QString& text) {
  const int r = table_->rowCount();
  table_->insertRow(r);
  auto* item = new QTableWidgetItem(text);
  QFont f = item->font();
  f.setBold(true);
  item->setFont(f);
  item->setBackground(QColor(222, 228, 238));
  item->setForeground(QColor(30, 34, 42));
  table_->setItem(r, 0, item);
  table_->setSpan(r, 0, 1, table_->columnCount());
}

void InspectorPanel::row(const QString& property, const QString& a, const QString& b) {
  const int r = table_->rowCount();
  table_->insertRow(r);
  table_->setItem(r, 0, new QTableWidgetItem(property));
  table_->setItem(r, 1, new QTableWidgetItem(a));
  if (table_->columnCount() > 2) table_->setItem(r, 2, new QTableWidgetItem(b));
  // Two directions side by side read best as right-aligned figures.
  if (table_->columnCount() > 2)
    for (int c = 1; c < table_->columnCount(); ++c) table_->item(r, c)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
}

void InspectorPanel::showNode(int id) {
  const topo::Topology& t = *model_->topology();
  const topo::Node& n = t.node(id);
  table_->setColumnCount(2);
  table_->setHorizontalHeaderLabels({tr("property"), tr("value")});
  title_->setText(q(n.name));
  subtitle_->setText(tr("%1, node %2").arg(QString::fromLatin1(topo::toString(n.kind))).arg(id));
  section(tr("Device"));
  row(tr("name"), q(n.name));
  row(tr("kind"), QString::fromLatin1(topo::toString(n.kind)));
  row(tr("endpoint index"), n.endpoint >= 0 ? QString::number(n.endpoint) : tr("– (not an endpoint)"));
  if (n.row >= 0) row(tr("row, column"), QString("%1, %2").arg(n.row).arg(n.col));
  if (n.wafer >= 0) row(tr("wafer"), QString::number(n.wafer));
  if (n.level >= 0) row(tr("hierarchy depth"), QString::number(n.level));
  if (n.parent >= 0) row(tr("parent"), q(t.node(n.parent).name));

  // A die is drawn for its router too: show the router's switching and mesh ports.
  topo::NodeId figures = id;
  if (n.kind == topo::NodeKind::Die && !t.ports(id).empty()) figures = t.ports(id)[0].peer;
  if (const Results* r = model_->results()) {
    for (const SwitchResult& s : r->switches) {
      if (s.node != figures) continue;
      section(figures == id ? tr("Switch results") : tr("Switch results of %1").arg(q(t.node(figures).name)));
      row(tr("packets forwarded"), formatCount(s.packets_forwarded));
      row(tr("multicast replicas"), formatCount(s.multicast_replicas));
      row(tr("reductions"), formatCount(s.reductions));
      row(tr("reduction contributions"), formatCount(s.reduction_contributions));
      row(tr("evictions"), formatCount(s.evictions));
      row(tr("peak reduction entries"), formatCount(s.peak_reduction_entries));
      row(tr("peak reduction bytes"), formatBytes(double(s.peak_reduction_bytes)));
      row(tr("max input buffer (flits)"), formatCount(s.max_buffer_flits));
    }
  }
  portRows(id);
  if (figures != id) portRows(figures);
}

void InspectorPanel::portRows(int id) {
  const topo::Topology& t = *model_->topology();
  const auto& ports = t.ports(id);
  section(tr("Ports of %1 (%2)").arg(q(t.node(id).name)).arg(ports.size()));
  const size_t shown = std::min<size_t>(ports.size(), 2000);  // the root of 1000 datacenters is long enough
  for (size_t p = 0; p < shown; ++p) {
    const topo::Port& port = ports[p];
    const topo::Link& k = t.link(port.link);
    row(tr("port %1").arg(p), tr("→ %1 (link %2, %3)")
                                  .arg(q(t.node(port.peer).name))
                                  .arg(port.link)
                                  .arg(QString::fromLatin1(topo::toString(k.kind))));
  }
  if (shown < ports.size()) row(QString(), tr("… and %1 more").arg(ports.size() - shown));
}

void InspectorPanel::showLink(int id) {
  const topo::Topology& t = *model_->topology();
  const topo::Link& k = t.link(id);
  const QString a = q(t.node(k.a).name), b = q(t.node(k.b).name);
  table_->setColumnCount(3);
  table_->setHorizontalHeaderLabels({tr("property"), QString("%1 → %2").arg(a, b), QString("%1 → %2").arg(b, a)});
  title_->setText(tr("link %1: %2 ↔ %3").arg(id).arg(a, b));
  subtitle_->setText(tr("%1 link, %2 per direction, %3 latency, efficiency %4")
                         .arg(QString::fromLatin1(topo::toString(k.kind)), formatRate(k.bandwidth),
                              formatTime(k.latency), formatPercent(k.efficiency)));
  const Results* r = model_->results();
  const int d0 = model_->linkDirectionIndex(id, 0), d1 = model_->linkDirectionIndex(id, 1);
  if (!r || d0 < 0 || d1 < 0) {
    section(tr("No results yet: run the scenario to see traffic."));
    return;
  }
  const auto& l0 = r->links[static_cast<size_t>(d0)];
  const auto& l1 = r->links[static_cast<size_t>(d1)];
  const int bin = model_->currentBin();
  section(tr("Traffic over the run"));
  row(tr("bytes (wire)"), formatBytes(double(l0.bytes)), formatBytes(double(l1.bytes)));
  row(tr("payload bytes"), formatBytes(double(l0.payload_bytes)), formatBytes(double(l1.payload_bytes)));
  row(tr("packets"), formatCount(l0.packets), formatCount(l1.packets));
  row(tr("busy time"), formatTime(l0.busy), formatTime(l1.busy));
  row(tr("utilisation (run)"), formatPercent(l0.utilization), formatPercent(l1.utilization));
  row(tr("capacity"), formatRate(l0.capacity_Bps), formatRate(l1.capacity_Bps));
  section(tr("Bin %1 (%2 – %3)")
              .arg(binNumber(bin, r->bins))
              .arg(formatTime(Time(bin) * r->bin), formatTime(Time(bin + 1) * r->bin)));
  row(tr("bytes in bin"), formatBytes(double(l0.bin_bytes.at(bin))), formatBytes(double(l1.bin_bytes.at(bin))));
  row(tr("utilisation (bin)"), formatPercent(model_->utilisation(d0, bin)), formatPercent(model_->utilisation(d1, bin)));
  if (model_->phase() >= 0)
    row(tr("utilisation (phase %1)").arg(q(r->phases[static_cast<size_t>(model_->phase())].name)),
        formatPercent(model_->phaseUtilisation(d0, model_->phase())),
        formatPercent(model_->phaseUtilisation(d1, model_->phase())));
  auto state = [&](int ld) {
    const double u = model_->displayedUtilisation(ld);
    return heatName(heatOf(u, model_->coldThreshold(), model_->hotThreshold()));
  };
  row(tr("state (as drawn)"), state(d0), state(d1));
}

}  // namespace fl::views
