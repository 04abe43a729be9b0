// A tiny SVG writer for the HTML report: elements with escaped attribute values and text,
// numbers printed with at most two decimals (deterministic bytes, small files). Only what
// the report draws; not a general XML library.
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fl::report {

// Escapes & < > " ' for use in HTML/XML text and attribute values.
std::string xmlEscape(std::string_view text);

// "12.5", "0", "-3.25": at most two decimals, no trailing zeros, never "-0".
std::string svgNumber(double v);

// Attribute list: name -> raw (unescaped) value.
using SvgAttrs = std::vector<std::pair<std::string, std::string>>;

struct SvgPoint {
  double x = 0, y = 0;
};

class SvgDocument {
 public:
  // An <svg> of width x height pixels (its viewBox is the same box, so it scales with CSS).
  // `cssClass` and `label` (aria-label, for screen readers and tests) are optional.
  SvgDocument(double width, double height, std::string_view cssClass = {}, std::string_view label = {});

  // <tag attrs...> left open until close(). Use for <g> groups and elements with <title>.
  void open(std::string_view tag, const SvgAttrs& attrs = {});
  void close();
  // A childless element: <tag attrs.../>, or <tag attrs...>text</tag> when text is given.
  void element(std::string_view tag, const SvgAttrs& attrs, std::string_view text = {});

  void rect(double x, double y, double w, double h, SvgAttrs attrs = {});
  void line(double x1, double y1, double x2, double y2, SvgAttrs attrs = {});
  void polyline(const std::vector<SvgPoint>& points, SvgAttrs attrs = {});
  void circle(double cx, double cy, double r, SvgAttrs attrs = {});
  // anchor: start | middle | end.
  void text(double x, double y, std::string_view text, std::string_view anchor = "start",
            SvgAttrs attrs = {});
  // A tooltip for the element currently open (browsers show it on hover).
  void title(std::string_view text);

  double width() const { return width_; }
  double height() const { return height_; }

  // Closes whatever is still open and returns the markup.
  std::string finish();

 private:
  void writeAttrs(const SvgAttrs& attrs);

  std::string out_;
  std::vector<std::string> open_;
  double width_, height_;
  int indent_ = 0;
};

}  // namespace fl::report
