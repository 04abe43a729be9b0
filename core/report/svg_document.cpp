#include "report/svg_document.h"

#include <cmath>
#include <cstdio>

namespace fl::report {

std::string xmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string svgNumber(double v) {
  if (!std::isfinite(v)) return "0";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

SvgDocument::SvgDocument(double width, double height, std::string_view cssClass, std::string_view label)
    : width_(width), height_(height) {
  SvgAttrs a = {{"xmlns", "http://www.w3.org/2000/svg"},
                {"width", svgNumber(width)},
                {"height", svgNumber(height)},
                {"viewBox", "0 0 " + svgNumber(width) + " " + svgNumber(height)},
                {"font-family", "system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif"},
                {"font-size", "12"},
                {"role", "img"}};
  if (!cssClass.empty()) a.emplace_back("class", std::string(cssClass));
  if (!label.empty()) a.emplace_back("aria-label", std::string(label));
  open("svg", a);
}

void SvgDocument::writeAttrs(const SvgAttrs& attrs) {
  for (const auto& [name, value] : attrs) {
    out_ += ' ';
    out_ += name;
    out_ += "=\"";
    out_ += xmlEscape(value);
    out_ += '"';
  }
}

void SvgDocument::open(std::string_view tag, const SvgAttrs& attrs) {
  out_.append(static_cast<std::size_t>(indent_), ' ');
  out_ += '<';
  out_ += tag;
  writeAttrs(attrs);
  out_ += ">\n";
  open_.emplace_back(tag);
  ++indent_;
}

void SvgDocument::close() {
  if (open_.empty()) return;
  --indent_;
  out_.append(static_cast<std::size_t>(indent_), ' ');
  out_ += "</" + open_.back() + ">\n";
  open_.pop_back();
}

void SvgDocument::element(std::string_view tag, const SvgAttrs& attrs, std::string_view text) {
  out_.append(static_cast<std::size_t>(indent_), ' ');
  out_ += '<';
  out_ += tag;
  writeAttrs(attrs);
  if (text.empty()) {
    out_ += "/>\n";
    return;
  }
  out_ += '>';
  out_ += xmlEscape(text);
  out_ += "</";
  out_ += tag;
  out_ += ">\n";
}

void SvgDocument::rect(double x, double y, double w, double h, SvgAttrs attrs) {
  attrs.insert(attrs.begin(), {{"x", svgNumber(x)}, {"y", svgNumber(y)}, {"width", svgNumber(w)},
                               {"height", svgNumber(h)}});
  element("rect", attrs);
}

void SvgDocument::line(double x1, double y1, double x2, double y2, SvgAttrs attrs) {
  attrs.insert(attrs.begin(), {{"x1", svgNumber(x1)}, {"y1", svgNumber(y1)}, {"x2", svgNumber(x2)},
                               {"y2", svgNumber(y2)}});
  element("line", attrs);
}

void SvgDocument::polyline(const std::vector<SvgPoint>& points, SvgAttrs attrs) {
  std::string p;
  for (const SvgPoint& pt : points) {
    if (!p.empty()) p += ' ';
    p += svgNumber(pt.x) + "," + svgNumber(pt.y);
  }
  attrs.insert(attrs.begin(), {"points", p});
  element("polyline", attrs);
}

void SvgDocument::circle(double cx, double cy, double r, SvgAttrs attrs) {
  attrs.insert(attrs.begin(), {{"cx", svgNumber(cx)}, {"cy", svgNumber(cy)}, {"r", svgNumber(r)}});
  element("circle", attrs);
}

void SvgDocument::text(double x, double y, std::string_view text, std::string_view anchor, SvgAttrs attrs) {
  attrs.insert(attrs.begin(), {{"x", svgNumber(x)}, {"y", svgNumber(y)}});
  if (anchor != "start") attrs.emplace_back("text-anchor", std::string(anchor));
  element("text", attrs, text.empty() ? std::string_view(" ") : text);
}

void SvgDocument::title(std::string_view text) { element("title", {}, text); }

std::string SvgDocument::finish() {
  while (!open_.empty()) close();
  return std::move(out_);
}

}  // namespace fl::report
