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
  // A "Compare sweep points" section shows this point's traffic breakdown, Gantt and
  // bandwidth on scales shared with the other points: not repeated here.
  bool inComparison = false;
  // With inComparison: the end of the time axis all compared points share (their Gantts
  // are drawn in their sections on it, compactly).
  Time sharedEnd = 0;
  // Several points in detail: the busiest link directions and switches tables shortened
  // (8 and 12 rows instead of 20 and 32), so that a 4-point report stays a readable length.
  bool brief = false;
};

// An MoE run's Traffic Breakdown chart and token pipeline Gantt as report figures ("" when
// the results have none); `valueTop` bytes and `timeEnd` fix the scale (0: fit this run).
std::string breakdownTitle(const Results& r);
std::string breakdownFigure(const Results& r, double valueTop = 0, double width = 720);
std::string pipelineFigure(const Results& r, Time timeEnd = 0, double rowsHeight = 420);

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
