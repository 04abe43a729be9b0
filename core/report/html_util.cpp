#include "report/html_util.h"

#include "report/svg_document.h"

namespace fl::report {

std::string htmlEscape(std::string_view text) { return xmlEscape(text); }

std::string htmlAttr(std::string_view name, std::string_view value) {
  return " " + std::string(name) + "=\"" + xmlEscape(value) + "\"";
}

namespace {

std::string cellHtml(const char* tag, const Cell& c) {
  std::string out = "<";
  out += tag;
  if (c.numeric) out += " class=\"num\"";
  out += c.attrs;
  out += '>';
  out += c.raw ? c.text : htmlEscape(c.text);
  out += "</";
  out += tag;
  out += '>';
  return out;
}

}  // namespace

void HtmlTable::header(const std::vector<Cell>& cells) {
  head_ = "<thead><tr>";
  for (const Cell& c : cells) head_ += cellHtml("th", c);
  head_ += "</tr></thead>\n";
}

void HtmlTable::row(const std::vector<Cell>& cells, std::string rowAttrs) {
  body_ += "<tr" + rowAttrs + ">";
  for (const Cell& c : cells) body_ += cellHtml("td", c);
  body_ += "</tr>\n";
  ++rows_;
}

std::string HtmlTable::html() const {
  // The wrapper scrolls wide tables sideways on narrow screens instead of widening the page.
  return "<div class=\"scroll\"><table" + attrs_ + ">\n" + head_ + "<tbody>\n" + body_ + "</tbody>\n</table></div>\n";
}

std::string keyValueTable(const std::vector<std::pair<std::string, std::string>>& rows, const std::string& attrs) {
  std::string out = "<table class=\"kv\"" + attrs + ">\n<tbody>\n";
  for (const auto& [k, v] : rows) out += "<tr><th scope=\"row\">" + htmlEscape(k) + "</th><td>" + v + "</td></tr>\n";
  return out + "</tbody>\n</table>\n";
}

std::string htmlSection(const std::string& id, const std::string& title, const std::string& body, int level) {
  const std::string h = "h" + std::to_string(level);
  return "<section" + htmlAttr("id", id) + ">\n<" + h + ">" + htmlEscape(title) + "</" + h + ">\n" + body +
         "</section>\n";
}

}  // namespace fl::report
