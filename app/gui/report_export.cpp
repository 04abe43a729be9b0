#include "gui/report_export.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QPainter>
#include <QPrinter>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QAbstractTextDocumentLayout>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>
#include <algorithm>

#include "gui/print_tables.h"
#include "views/topology_canvas.h"
#include "report/html_report.h"
#include "results/atomic_file.h"
#include "scenario/input_error.h"

namespace fl::gui {

namespace {

QString tempNameFor(const QString& path) {
  return path + QStringLiteral(".partial-%1").arg(QCoreApplication::applicationPid());
}

// Runs `write` (results/atomic_file.h: nothing half-written, links kept, devices written
// in place); its error as the message the window shows, or empty.
template <class Write>
QString writeError(const QString& path, Write write) {
  try {
    write();
    return {};
  } catch (const InputError& e) {
    return QObject::tr("%1: cannot write (%2)").arg(path, QString::fromStdString(e.found()));
  }
}

// Puts the finished temporary file in place of `path`.
QString commit(const QString& tmp, const QString& path) {
  return writeError(path, [&] { replaceWithFile(tmp.toStdString(), path.toStdString(), "export"); });
}

QByteArray pngBytes(const QImage& image) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  image.save(&buffer, "PNG");
  return bytes;
}

// The PDF is laid out at screen resolution, so that the stylesheet's px sizes are CSS
// pixels (1/96 in): at the printer's 1200 dpi, 13 px table text came out 0.8 pt high.
// The pages keep 2 mm of printer margin and 2 cm of text margin (writePdf), which leave
// 628 px of an A4 page's width. QTextDocument knows no max-width, so pictures wider than
// that are scaled down to it.
constexpr int kPrintTextWidthPx = 628;

// width and height attributes for a picture `pixels` in size meant to show `cssWidth` px
// wide: both, since with a width alone QTextDocument reserves the image's own pixel
// height on its line (blank bands around every chart).
QString printSize(QSize pixels, int cssWidth) {
  const int w = std::min(cssWidth, kPrintTextWidthPx);
  const int h = pixels.width() > 0 ? pixels.height() * w / pixels.width() : 0;
  return QStringLiteral("width=\"%1\" height=\"%2\"").arg(w).arg(h);
}

// QTextDocument lays out HTML but knows neither inline SVG nor data: URLs: turn both into
// image resources of the document, at most the page's width.
QString inlineImagesAsResources(QString html, QTextDocument& doc) {
  int n = 0;
  static const QRegularExpression svg(QStringLiteral("<svg\\b.*?</svg>"),
                                      QRegularExpression::DotMatchesEverythingOption);
  for (auto m = svg.match(html); m.hasMatch(); m = svg.match(html, m.capturedStart())) {
    QSvgRenderer renderer(m.captured(0).toUtf8());
    QString replacement;
    if (renderer.isValid()) {
      const QSize size = renderer.defaultSize().isEmpty() ? QSize(640, 360) : renderer.defaultSize();
      QImage image(size * 2, QImage::Format_ARGB32_Premultiplied);
      image.fill(Qt::white);
      QPainter painter(&image);
      renderer.render(&painter);
      const QString name = QStringLiteral("svg-%1.png").arg(n++);
      doc.addResource(QTextDocument::ImageResource, QUrl(name), image);
      replacement = QStringLiteral("<img src=\"%1\" %2>").arg(name, printSize(image.size(), size.width()));
    }
    html.replace(m.capturedStart(), m.capturedLength(), replacement);
  }
  static const QRegularExpression data(QStringLiteral("src=\"data:image/png;base64,([^\"]+)\""));
  for (auto m = data.match(html); m.hasMatch(); m = data.match(html, m.capturedStart() + 1)) {
    const QImage image = QImage::fromData(QByteArray::fromBase64(m.captured(1).toLatin1()), "PNG");
    const QString name = QStringLiteral("img-%1.png").arg(n++);
    doc.addResource(QTextDocument::ImageResource, QUrl(name), image);
    html.replace(m.capturedStart(), m.capturedLength(),
                 QStringLiteral("src=\"%1\" %2").arg(name, printSize(image.size(), image.width())));
  }
  return html;
}

QString writePdf(const QString& path, const std::string& html, const QString& title) {
  QTextDocument doc;
  layoutReportDocument(doc, html);
  const QString tmp = tempNameFor(path);
  QPrinter printer(QPrinter::ScreenResolution);  // see kPrintTextWidthPx
  printer.setOutputFormat(QPrinter::PdfFormat);
  printer.setPageSize(QPageSize(QPageSize::A4));
  printer.setOutputFileName(tmp);
  printer.setDocName(title);  // the PDF's Title
  // The pages printed are those laid out here (QTextDocument::print() would lay out a
  // copy of its own, where headings could fall elsewhere); page numbers as it draws them.
  printer.setPageMargins(QMarginsF(2, 2, 2, 2), QPageLayout::Millimeter);
  const QSizeF page(printer.width(), printer.height());
  paginateForPrint(doc, page, kPrintMarginPx);
  QPainter painter(&printer);
  const auto failed = [&] {  // nothing half-written left behind
    QFile::remove(tmp);
    return QObject::tr("%1: cannot write the PDF").arg(path);
  };
  if (!painter.isActive()) return failed();
  for (int i = 0; i < doc.pageCount(); ++i) {
    if (i > 0) printer.newPage();
    painter.save();
    painter.translate(0, -i * page.height());
    doc.drawContents(&painter, QRectF(0, i * page.height(), page.width(), page.height()));
    painter.restore();
    painter.setFont(doc.defaultFont());
    painter.drawText(QRectF(0, page.height() - kPrintMarginPx + 8, page.width() - kPrintMarginPx, 30),
                     Qt::AlignRight | Qt::AlignTop, QString::number(i + 1));
  }
  if (!painter.end() || !QFileInfo::exists(tmp)) return failed();
  return commit(tmp, path);
}

}  // namespace

void layoutReportDocument(QTextDocument& doc, const std::string& html) {
  QString text = inlineImagesAsResources(QString::fromStdString(html), doc);
  // Link lists spaced by CSS (which QTextDocument ignores) would run together.
  text.replace(QStringLiteral("</a><a"), QStringLiteral("</a> · <a"));
  // QTextDocument knows no <figure>: a figure's picture and caption ran into the block
  // before it (a heading's or a paragraph's line, as tall as the picture). Blocks it
  // knows, and every picture in a block of its own.
  static const QRegularExpression figure(QStringLiteral("<figure\\b[^>]*>"));
  text.replace(figure, QStringLiteral("<div>"));
  text.replace(QStringLiteral("</figure>"), QStringLiteral("</div>"));
  text.replace(QStringLiteral("<figcaption>"), QStringLiteral("<p style=\"color:#57606a\">"));
  text.replace(QStringLiteral("</figcaption>"), QStringLiteral("</p>"));
  // Tables on a page, which cannot scroll as a browser window does: the print
  // stylesheet's smaller text, tighter cells, and column headers that wrap at their word
  // boundaries (kept on one line, they made QTextDocument squeeze the other columns until
  // it broke their words, "dispat/ch", and still run past the page, "uplink/dow").
  text.replace(QStringLiteral("</style>"),
               QStringLiteral("table { font-size: 11px; } th, td { padding: 3px; }\n"
                              "thead th, thead th.num { white-space: normal; }\n"
                              // The scenario file and its comments, there to be read again
                              // rather than studied: two pages of a long demo's five.
                              "pre { font-size: 9px; }\n</style>"));
  static const QRegularExpression image(QStringLiteral("(<img\\b[^>]*>)"));
  text.replace(image, QStringLiteral("<div>\\1</div>"));  // nor on a figure's heading's line
  // Lines break between words only: with Qt's default (or anywhere) a table's cells
  // count one letter as their narrowest, so squeezed columns broke words ("dispat/ch").
  QTextOption option = doc.defaultTextOption();
  option.setWrapMode(QTextOption::WordWrap);
  doc.setDefaultTextOption(option);
  doc.setHtml(text);
  // Tables still wider than the text (a sweep's figures in a dozen columns ran 5 columns
  // past the page edge): turned when they have few rows, else split (gui/print_tables.h);
  // split further while any is still too wide.
  for (int attempt = 0; attempt < 3; ++attempt) {
    doc.setTextWidth(kPrintTextWidthPx);
    std::vector<QTextTable*> tables;
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next())
      if (QTextTable* t = QTextCursor(b).currentTable(); t && std::find(tables.begin(), tables.end(), t) == tables.end())
        tables.push_back(t);
    std::vector<int> turn, split;
    for (std::size_t i = 0; i < tables.size(); ++i) {
      if (doc.documentLayout()->frameBoundingRect(tables[i]).width() <= kPrintTextWidthPx - 8) continue;
      const TableShape shape = tableShape(text, static_cast<int>(i));
      (attempt == 0 && shape.rows <= 7 && shape.columns > shape.rows ? turn : split).push_back(static_cast<int>(i));
    }
    if (turn.empty() && split.empty()) break;
    text = splitTables(turnTables(text, turn), split, attempt + 2);
    doc.setHtml(text);  // (not clear(): that drops the picture resources too)
  }
}

void paginateForPrint(QTextDocument& doc, QSizeF page, qreal margin) {
  QTextFrameFormat printed = doc.rootFrame()->frameFormat();
  printed.setLeftMargin(margin);
  printed.setRightMargin(margin);
  printed.setTopMargin(margin);
  printed.setBottomMargin(margin);
  doc.rootFrame()->setFrameFormat(printed);
  doc.setPageSize(page);
  QAbstractTextDocumentLayout* layout = doc.documentLayout();
  // The table a block is a cell of (null in the body text).
  auto tableOf = [&](const QTextBlock& b) -> QTextFrame* {
    QTextFrame* f = QTextCursor(b).currentFrame();
    while (f && f->parentFrame() && f->parentFrame() != doc.rootFrame()) f = f->parentFrame();
    return f && f != doc.rootFrame() ? f : nullptr;
  };
  const qreal content = page.height() - 2 * margin;
  // What must share a heading's page: the headings and short lines under it (a
  // subheading, a fabric's one-line caption, the empty block a table starts after)
  // whole, then a picture whole (it cannot split), or a few rows of a table or lines
  // of text.
  constexpr qreal kTextToKeep = 120;
  for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
    if (b.blockFormat().headingLevel() == 0 || tableOf(b)) continue;
    const QRectF heading = layout->blockBoundingRect(b);
    qreal keepUntil = heading.bottom();
    for (QTextBlock n = b.next(); n.isValid() && keepUntil - heading.top() <= content; n = n.next()) {
      if (QTextFrame* table = tableOf(n)) {
        const QRectF r = layout->frameBoundingRect(table);
        keepUntil = std::min(r.bottom(), r.top() + kTextToKeep);
        break;
      }
      const QRectF r = layout->blockBoundingRect(n);
      if (n.text().trimmed() == QString(QChar::ObjectReplacementCharacter)) {  // a picture
        keepUntil = r.bottom();
        break;
      }
      const bool brief = n.blockFormat().headingLevel() > 0 || (n.layout() && n.layout()->lineCount() <= 1);
      keepUntil = brief ? r.bottom() : std::min(r.bottom(), r.top() + kTextToKeep);
      if (!brief) break;
    }
    const int pageIndex = static_cast<int>(heading.top() / page.height());
    const qreal pageTop = pageIndex * page.height() + margin, pageEnd = (pageIndex + 1) * page.height() - margin;
    // Fits, or first on its page already, or too much to keep together anyway.
    if (keepUntil <= pageEnd || heading.top() <= pageTop + 1 || keepUntil - heading.top() > content) continue;
    QTextBlockFormat f = b.blockFormat();
    f.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
    QTextCursor(b).setBlockFormat(f);
  }
}

QString exportCanvasImage(views::TopologyCanvas* canvas, const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix != "png" && suffix != "svg") return QObject::tr("%1: choose a .png or .svg file name").arg(path);
  // The canvas writes the file; a temporary name keeps a failed export from leaving
  // half an image behind.
  const QString tmp = tempNameFor(path) + "." + suffix;
  if (suffix == "png") canvas->exportPng(tmp);
  else canvas->exportSvg(tmp);
  if (!QFileInfo::exists(tmp) || QFileInfo(tmp).size() == 0) {
    QFile::remove(tmp);
    return QObject::tr("%1: cannot write the image").arg(path);
  }
  return commit(tmp, path);
}

QString reportTitle(const ReportInput& in) {
  if (in.scenario && !in.scenario->name.empty()) return QString::fromStdString(in.scenario->name);
  return QFileInfo(in.scenarioFile).completeBaseName();
}

std::string reportHtml(const ReportInput& in, const QImage& canvasImage, bool forPdf) {
  report::ReportOptions options;
  options.date = QDateTime::currentDateTime().toString(Qt::ISODate).toStdString();
  options.scenarioFile = in.scenarioFile.toStdString();
  options.commandLine = "fabriclab (Export report)";
  options.forPdf = forPdf;
  if (!canvasImage.isNull())
    options.images.push_back({"Topology view", "The fabric as shown in FabricLab when the report was exported.",
                              "image/png", pngBytes(canvasImage).toBase64().toStdString()});
  return report::renderHtmlReport(*in.scenario, in.points, *in.topology, options);
}

QString writeReport(const QString& path, const ReportInput& in, views::TopologyCanvas* canvas) {
  if (in.points.empty() || !in.topology || !in.scenario)
    return QObject::tr("No finished results yet: run the scenario first.");
  const QString suffix = QFileInfo(path).suffix().toLower();
  const QImage image = canvas ? canvas->grab().toImage() : QImage();
  const std::string html = reportHtml(in, image, suffix == "pdf");
  if (suffix == "pdf") return writePdf(path, html, reportTitle(in));
  if (suffix != "html" && suffix != "htm") return QObject::tr("%1: choose a .html or .pdf file name").arg(path);
  return writeError(path, [&] { writeFileAtomically(path.toStdString(), html, "export"); });
}

}  // namespace fl::gui
