// A self-contained HTML report of a run or sweep: one file, inline CSS and SVG, no
// scripts or external resources, so it opens in any browser, prints on A4 and can be
// mailed or archived. Used by `fabriclab-cli run --report FILE.html` and the GUI's
// Export report.
//
// Sections (element ids): title, provenance, scenario (summary table and the scenario
// YAML), sweep (sweeps only), topology, plots, results, images (extra images only).
// With several sweep points detailed, the per-run sections are wrapped in
// <section id="point-N"> and their ids prefixed "point-N-" (N from 1).
#pragma once
#include <string>
#include <vector>

#include "layout/topology_layout.h"
#include "scenario/scenario.h"
#include "sim/run.h"
#include "topology/topology.h"

namespace fl::report {

struct ReportImage {
  std::string title;                   // heading and alt text
  std::string caption;
  std::string mimeType = "image/png";
  std::string base64;                  // the image bytes, base64-encoded
};

struct ReportOptions {
  std::string version = FABRICLAB_VERSION;
  std::string commandLine;  // how the run was started; "" when not from a command line
  std::string date;         // supplied by the caller (tests stay deterministic); "" = not shown
  std::string scenarioFile; // where the scenario came from, if a file
  std::vector<ReportImage> images;  // e.g. a screenshot of the GUI's canvas
  // Sweep points (0-based) to show in detail (topology, plots, tables); empty = every
  // point when there are at most 4, else the first.
  std::vector<int> detailPoints;
  layout::LayoutOptions layout;  // e.g. hierarchy groups the GUI has expanded
  // Hierarchies: collapse inner group levels when opening them would make the picture
  // wider than 3:1. False draws `layout` exactly (the GUI's canvas state).
  bool fitLayout = true;
  // For a PDF (printed from this HTML): leave out what is true of the HTML file only
  // (its footer's "self-contained file: inline SVG and CSS, no scripts").
  bool forPdf = false;
};

// `topology` is the fabric the points ran on. Points whose settings change topology.*
// keys are drawn on their own fabric, rebuilt from the scenario.
std::string renderHtmlReport(const Scenario& s, const std::vector<SweepPoint>& points,
                             const topo::Topology& topology, const ReportOptions& options = {});

}  // namespace fl::report
