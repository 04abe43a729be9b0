// Exports from the GUI: the topology canvas as PNG or SVG, and a report of the run as
// HTML (core/report's generator, with the canvas as it looks on screen added as an
// image) or PDF (the same HTML laid out by QTextDocument and printed). Files are written
// to a temporary name and renamed, so a failed export never leaves half a file.
#pragma once
#include <QImage>
#include <QString>
#include <QTextDocument>
#include <vector>

#include "scenario/scenario.h"
#include "sim/run.h"
#include "topology/topology.h"

namespace fl::views {
class TopologyCanvas;
}

namespace fl::gui {

// By extension (.png or .svg). Returns "" or the error.
QString exportCanvasImage(views::TopologyCanvas* canvas, const QString& path);

struct ReportInput {
  const Scenario* scenario = nullptr;
  std::vector<SweepPoint> points;             // finished points
  const topo::Topology* topology = nullptr;   // the fabric of the first point
  QString scenarioFile;                       // "" for an unsaved scenario
};

// The report's HTML (core/report's renderHtmlReport) with `canvasImage` added as an
// extra image (base64 PNG) when it is not null; `forPdf`: the HTML the PDF prints.
std::string reportHtml(const ReportInput& in, const QImage& canvasImage, bool forPdf = false);

// The PDF's Title metadata: the scenario's name, else its file's base name.
QString reportTitle(const ReportInput& in);

// Lays `html` out for printing: QTextDocument knows neither inline SVG nor data: URLs,
// so both become image resources of `doc`. What the PDF export prints.
void layoutReportDocument(QTextDocument& doc, const std::string& html);

// Lays `doc` out on printed pages (`page` in layout pixels, `margin` on each side) and
// moves every heading that would end a page apart from what it heads to the next one
// (QTextDocument ignores CSS break-after: avoid). The PDF prints these very pages.
void paginateForPrint(QTextDocument& doc, QSizeF page, qreal margin);
inline constexpr qreal kPrintMarginPx = 75;  // 2 cm at 96 dpi, as QTextDocument::print() keeps

// By extension (.html/.htm or .pdf). Returns "" or the error.
QString writeReport(const QString& path, const ReportInput& in, views::TopologyCanvas* canvas);

}  // namespace fl::gui
