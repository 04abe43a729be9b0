// The report's stylesheet (inline in <head>): system fonts, zebra tables, print rules.
#pragma once

namespace fl::report {

inline constexpr const char* kReportCss = R"css(
:root { color-scheme: light; }
body { margin: 0; background: #fff; color: #1f2328; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto,
  "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1480px; margin: 0 auto; padding: 24px 28px 48px; box-sizing: border-box; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 36px 0 10px; padding-bottom: 4px; border-bottom: 1px solid #d0d7de; }
h3 { font-size: 15px; margin: 22px 0 8px; }
h4 { font-size: 14px; margin: 18px 0 6px; }
p { margin: 6px 0 10px; }
.subtitle { color: #57606a; margin: 0 0 4px; }
.description { white-space: pre-line; }
nav.toc { font-size: 13px; color: #57606a; margin: 10px 0 0; }
nav.toc a { color: #0969da; text-decoration: none; margin-right: 12px; }
table { border-collapse: collapse; margin: 6px 0 14px; font-size: 13px; }
th, td { padding: 4px 10px; text-align: left; vertical-align: top; }
thead th { background: #eef1f4; border-bottom: 2px solid #8c959f; white-space: nowrap; }
tbody tr:nth-child(even) { background: #f6f8fa; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.kv th { font-weight: 600; color: #424a53; white-space: nowrap; padding-right: 18px; }
div.scroll { overflow-x: auto; }
.compare-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 460px), 1fr)); gap: 4px 24px; }
.compare-grid figure { margin: 6px 0; min-width: 0; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 12px; }
pre.yaml { background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; padding: 10px 12px;
  white-space: pre-wrap; overflow-wrap: anywhere; }
figure { margin: 14px 0 22px; }
figcaption { font-size: 12.5px; color: #57606a; margin-top: 4px; max-width: 900px; }
svg, img { max-width: 100%; height: auto; display: block; }
.note { color: #57606a; font-size: 13px; }
ol.story li { margin: 4px 0; }
pre.comments { background: #fbfbf8; border-left: 3px solid #d0d7de; padding: 8px 12px; white-space: pre-wrap;
  overflow-wrap: anywhere; font-size: 12px; }
#summary table.kv { margin-bottom: 8px; }
.warning { color: #b35900; font-weight: 600; }
footer { margin-top: 40px; font-size: 12px; color: #8c959f; border-top: 1px solid #d0d7de; padding-top: 8px; }
@page { size: A4; margin: 14mm; }
@media print {
  body { font-size: 11pt; }
  table { font-size: 9pt; }
  main { max-width: none; padding: 0; }
  #summary { break-after: page; }
  nav.toc { display: none; }
  h2, h3 { break-after: avoid; }
  figure, pre.yaml, table.kv { break-inside: avoid; }
  thead { display: table-header-group; }
  div.scroll { overflow: visible; }
  a { color: inherit; text-decoration: none; }
}
)css";

}  // namespace fl::report
