// The sections that describe one run (one sweep point): the topology picture in the
// busiest time bin, the plots over time, and the results tables. html_report.cpp puts
// them together; `idPrefix` keeps element ids unique when several points are shown.
#pragma once
#include <string>

#include "layout/topology_layout.h"
#include "results/results.h"
#include "topology/topology.h"

namespace fl::report {

struct RunView {
  const Results& results;
  const topo::Topology* topology = nullptr;  // null: no picture
  layout::LayoutOptions layout;
  bool fitLayout = true;  // hierarchies: open only as many group levels as stay readable
  std::string idPrefix;  // "" or "point-2-"
  int headingLevel = 2;
};

// <section id="{prefix}topology">: the fabric coloured by utilisation in the busiest bin;
// the <figure> carries data-busiest-bin (-1 when nothing moved).
std::string topologySection(const RunView& v);

// <section id="{prefix}plots">: uplink/downlink bandwidth over time, utilisation over
// time of the five busiest link directions, the latency histogram when measured.
std::string plotsSection(const RunView& v);

// <section id="{prefix}results">: totals, an MoE layer's traffic breakdown and token
// pipeline, phases, busiest link directions, switches.
std::string resultsSection(const RunView& v);

}  // namespace fl::report
