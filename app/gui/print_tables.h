// Tables on a printed page, which cannot scroll sideways as a browser window does: a
// table wider than the text is turned (rows become columns) when it has few rows and
// many columns (a sweep's points x figures), else split into several tables of fewer
// columns, each repeating the leading label columns (#, the swept keys). Works on the
// report's HTML (core/report/html_util's tables: a <thead> row and <tbody> rows).
#pragma once
#include <QString>
#include <vector>

namespace fl::gui {

struct TableShape {
  int rows = 0, columns = 0;  // header row included in rows
};

// `html` with the tables at `indices` (0-based, in document order of "<table") turned
// (`turn`) or split into `parts` tables of their non-leading columns.
QString turnTables(const QString& html, const std::vector<int>& indices);
QString splitTables(const QString& html, const std::vector<int>& indices, int parts);
// Rows and columns of the table at `index` (0-based); zeros when there is none.
TableShape tableShape(const QString& html, int index);

}  // namespace fl::gui
