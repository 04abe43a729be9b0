// Switch and port pickers over a run's switches, shared by the in-switch table docks
// (switch_table_panel.h: reduction buffers; merge_table_inspector.h: CAIS merge units).
// A Source says which switches count and which of their ports to list; the picker lists
// them, opens a switch on its busiest port (most peak entries), keeps what the user chose
// when results change (otherwise every rebuild picks again from the results at hand, so
// the final view does not depend on which live snapshots arrived), and follows the canvas
// selection: a switch selects it, another device the current switch's busiest port
// towards it.
#pragma once
#include <QString>
#include <QWidget>
#include <cstdint>
#include <functional>
#include <vector>

#include "results/results.h"

class QComboBox;

namespace fl::topo {
class Topology;
}

namespace fl::views {

class SwitchPortPicker : public QWidget {
  Q_OBJECT
 public:
  struct Port {
    int port = -1;
    std::string peer;  // the device at the port's other end
    std::int64_t peak_entries = 0;
  };
  struct Source {
    std::function<std::vector<Port>(const SwitchResult&)> ports;  // none: the switch is not listed
    std::function<QString(const SwitchResult&)> label;             // starts with the switch's id
  };

  SwitchPortPicker(Source source, const QString& portLabel, QWidget* parent = nullptr);
  // A SwitchResult's port list (merge_ports, reduction_ports) as the picker lists it.
  template <class P> static std::vector<Port> portsOf(const std::vector<P>& ports) {
    std::vector<Port> out;
    for (const P& p : ports) out.push_back({p.port, p.peer, p.peak_entries});
    return out;
  }

  QComboBox* switchCombo() const { return switchCombo_; }  // data: index in results->switches
  QComboBox* portCombo() const { return portCombo_; }      // data: the port number

  // Lists the switches of r (null: none); false when none qualifies.
  bool setResults(const Results* r);
  const SwitchResult* currentSwitch() const;
  int currentPort() const;  // -1: none
  void selectSwitch(const QString& name);  // no-op for a switch not listed
  void selectPort(int port);
  void follow(const topo::Topology* t, int node);  // a canvas selection

 signals:
  // The shown port changed: by the user, a selection or new results (also to none).
  void portChanged();

 private:
  void rebuildPorts();

  Source source_;
  const Results* results_ = nullptr;
  QComboBox *switchCombo_, *portCombo_;
  bool switchChosen_ = false, portChosen_ = false;
};

}  // namespace fl::views
