#include "views/switch_port_picker.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <algorithm>

#include "topology/topology.h"

namespace fl::views {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

SwitchPortPicker::SwitchPortPicker(Source source, const QString& portLabel, QWidget* parent)
    : QWidget(parent), source_(std::move(source)) {
  switchCombo_ = new QComboBox(this);
  switchCombo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  portCombo_ = new QComboBox(this);
  portCombo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(new QLabel(tr("Switch:"), this));
  row->addWidget(switchCombo_);
  row->addSpacing(12);
  row->addWidget(new QLabel(portLabel, this));
  row->addWidget(portCombo_);
  row->addStretch(1);
  connect(switchCombo_, &QComboBox::currentIndexChanged, this, [this] {
    switchChosen_ = true;
    portChosen_ = false;  // a switch's first view: its busiest port
    rebuildPorts();
  });
  connect(portCombo_, &QComboBox::currentIndexChanged, this, [this] {
    portChosen_ = true;
    emit portChanged();
  });
}

bool SwitchPortPicker::setResults(const Results* r) {
  results_ = r;
  const QString keep = switchCombo_->currentText().section(' ', 0, 0);
  const QSignalBlocker block(switchCombo_);
  switchCombo_->clear();
  if (r)
    for (std::size_t i = 0; i < r->switches.size(); ++i)
      if (!source_.ports(r->switches[i]).empty()) switchCombo_->addItem(source_.label(r->switches[i]), int(i));
  if (switchCombo_->count() == 0) {
    const QSignalBlocker blockPorts(portCombo_);
    portCombo_->clear();
    return false;
  }
  switchCombo_->setCurrentIndex(0);
  if (switchChosen_) selectSwitch(keep);
  rebuildPorts();
  return true;
}

const SwitchResult* SwitchPortPicker::currentSwitch() const {
  const int i = switchCombo_->currentData().isValid() ? switchCombo_->currentData().toInt() : -1;
  return results_ && i >= 0 && i < int(results_->switches.size()) ? &results_->switches[std::size_t(i)] : nullptr;
}

int SwitchPortPicker::currentPort() const {
  return currentSwitch() && portCombo_->currentData().isValid() ? portCombo_->currentData().toInt() : -1;
}

void SwitchPortPicker::selectSwitch(const QString& name) {
  for (int k = 0; k < switchCombo_->count(); ++k)
    if (switchCombo_->itemText(k).section(' ', 0, 0) == name) return switchCombo_->setCurrentIndex(k);
}

void SwitchPortPicker::selectPort(int port) {
  const int i = portCombo_->findData(port);
  if (i >= 0) portCombo_->setCurrentIndex(i);
}

void SwitchPortPicker::rebuildPorts() {
  const SwitchResult* s = currentSwitch();
  const int keep = portCombo_->currentData().isValid() ? portCombo_->currentData().toInt() : -1;
  {
    const QSignalBlocker block(portCombo_);
    portCombo_->clear();
    if (s) {
      auto ports = source_.ports(*s);
      std::sort(ports.begin(), ports.end(), [](const Port& a, const Port& b) { return a.port < b.port; });
      int busiest = 0;
      for (const Port& p : ports) {
        if (p.peak_entries > ports[std::size_t(busiest)].peak_entries) busiest = portCombo_->count();
        portCombo_->addItem(tr("port %1 → %2 (peak %3 entries)").arg(p.port).arg(q(p.peer)).arg(p.peak_entries), p.port);
      }
      portCombo_->setCurrentIndex(busiest);
      if (portChosen_) selectPort(keep);
    }
  }
  emit portChanged();
}

void SwitchPortPicker::follow(const topo::Topology* t, int node) {
  if (!t || !results_ || node < 0 || node >= int(t->nodes().size())) return;
  const QString name = q(t->node(node).name);
  for (const SwitchResult& s : results_->switches)
    if (s.node == node) return selectSwitch(name);
  const SwitchResult* s = currentSwitch();
  if (!s) return;
  const Port* best = nullptr;
  const auto ports = source_.ports(*s);
  for (const Port& p : ports) {
    if (q(p.peer) != name) continue;
    if (p.port == currentPort()) return;  // already showing a port towards it
    if (!best || p.peak_entries > best->peak_entries) best = &p;
  }
  if (best) selectPort(best->port);
}

}  // namespace fl::views
