// Small HTML building blocks for the report: escaped tables and sections. Text given to
// these helpers is escaped here; `attrs` strings are raw attribute text built by callers
// with htmlAttr() (which escapes the value).
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace fl::report {

std::string htmlEscape(std::string_view text);
// ` name="value"` with the value escaped.
std::string htmlAttr(std::string_view name, std::string_view value);

struct Cell {
  std::string text;
  bool numeric = false;  // right-aligned, tabular figures
  std::string attrs;     // extra raw attributes (from htmlAttr)
  bool raw = false;      // text is already HTML (e.g. <code>)

  Cell(std::string t = {}) : text(std::move(t)) {}  // NOLINT: plain text converts implicitly
  Cell(const char* t) : text(t) {}                   // NOLINT
  Cell(std::string t, bool num, std::string a, bool isHtml = false)
      : text(std::move(t)), numeric(num), attrs(std::move(a)), raw(isHtml) {}
};
inline Cell numCell(std::string text, std::string attrs = {}) { return {std::move(text), true, std::move(attrs)}; }
inline Cell htmlCell(std::string html) { return {std::move(html), false, {}, true}; }

class HtmlTable {
 public:
  explicit HtmlTable(std::string attrs = {}) : attrs_(std::move(attrs)) {}
  void header(const std::vector<Cell>& cells);
  void row(const std::vector<Cell>& cells, std::string rowAttrs = {});
  std::size_t rows() const { return rows_; }
  std::string html() const;

 private:
  std::string attrs_, head_, body_;
  std::size_t rows_ = 0;
};

// Two-column table of label/value pairs: labels are text (escaped here), values are HTML
// (escape plain text with htmlEscape first).
std::string keyValueTable(const std::vector<std::pair<std::string, std::string>>& rows,
                          const std::string& attrs = {});

// <section id=...><h2>title</h2>body</section>
std::string htmlSection(const std::string& id, const std::string& title, const std::string& body,
                        int level = 2);

}  // namespace fl::report
