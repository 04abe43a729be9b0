#include "gui/print_tables.h"

#include <QRegularExpression>
#include <QStringList>
#include <algorithm>

namespace fl::gui {

namespace {

struct CellHtml {
  QString tag, attrs, text;  // th | td
  QString html() const { return "<" + tag + attrs + ">" + text + "</" + tag + ">"; }
};
struct Table {
  qsizetype start = -1, end = -1;  // of "<table" ... "</table>" in the HTML
  QString open;                    // "<table ...>"
  std::vector<std::vector<CellHtml>> rows;  // rows[0]: the header
};

// The `index`-th table; rows read from its <tr> elements (the report's tables nest none).
Table readTable(const QString& html, int index) {
  Table t;
  qsizetype at = -1;
  for (int i = 0; i <= index; ++i) {
    at = html.indexOf(QLatin1String("<table"), at + 1);
    if (at < 0) return t;
  }
  const qsizetype close = html.indexOf(QLatin1String("</table>"), at);
  if (close < 0) return t;
  t.start = at;
  t.end = close + 8;
  t.open = html.mid(at, html.indexOf('>', at) - at + 1);
  static const QRegularExpression row(QStringLiteral("<tr\\b[^>]*>(.*?)</tr>"), QRegularExpression::DotMatchesEverythingOption);
  static const QRegularExpression cell(QStringLiteral("<(th|td)\\b([^>]*)>(.*?)</\\1>"),
                                       QRegularExpression::DotMatchesEverythingOption);
  const QString body = html.mid(at, t.end - at);
  for (auto r = row.globalMatch(body); r.hasNext();) {
    std::vector<CellHtml> cells;
    for (auto c = cell.globalMatch(r.next().captured(1)); c.hasNext();) {
      const auto m = c.next();
      cells.push_back({m.captured(1), m.captured(2), m.captured(3)});
    }
    t.rows.push_back(std::move(cells));
  }
  return t;
}

QString writeTable(const QString& open, const std::vector<std::vector<CellHtml>>& rows) {
  QString out = open + "\n";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (r == 0) out += QLatin1String("<thead>");
    if (r == 1) out += QLatin1String("<tbody>\n");
    out += QLatin1String("<tr>");
    for (const CellHtml& c : rows[r]) out += c.html();
    out += QLatin1String("</tr>");
    if (r == 0) out += QLatin1String("</thead>\n");
    else out += '\n';
  }
  if (rows.size() > 1) out += QLatin1String("</tbody>\n");
  return out + QLatin1String("</table>");
}

// Leading label columns: the first, and the header cells after it that are not numeric
// (the swept keys of a sweep table).
int leadingColumns(const Table& t) {
  if (t.rows.empty()) return 0;
  int lead = 1;
  while (lead < static_cast<int>(t.rows[0].size()) && !t.rows[0][size_t(lead)].attrs.contains(QLatin1String("num")))
    ++lead;
  return std::min<int>(lead, static_cast<int>(t.rows[0].size()) - 1);
}

// Applies `rewrite` to the tables at `indices`, last first so earlier offsets hold.
template <class Rewrite>
QString rewriteTables(QString html, std::vector<int> indices, Rewrite rewrite) {
  std::sort(indices.rbegin(), indices.rend());
  for (int i : indices) {
    const Table t = readTable(html, i);
    if (t.start < 0 || t.rows.empty()) continue;
    html.replace(t.start, t.end - t.start, rewrite(t));
  }
  return html;
}

}  // namespace

TableShape tableShape(const QString& html, int index) {
  const Table t = readTable(html, index);
  int columns = 0;
  for (const auto& r : t.rows) columns = std::max(columns, static_cast<int>(r.size()));
  return {static_cast<int>(t.rows.size()), columns};
}

QString turnTables(const QString& html, const std::vector<int>& indices) {
  return rewriteTables(html, indices, [](const Table& t) {
    std::size_t columns = 0;
    for (const auto& r : t.rows) columns = std::max(columns, r.size());
    // Row c of the turned table: the header cell of column c, then each row's cell c.
    std::vector<std::vector<CellHtml>> rows(columns);
    for (std::size_t c = 0; c < columns; ++c)
      for (std::size_t r = 0; r < t.rows.size(); ++r) {
        CellHtml cell = c < t.rows[r].size() ? t.rows[r][c] : CellHtml{QStringLiteral("td"), {}, {}};
        // The old header column is the new label column; the old first column the header.
        cell.tag = r == 0 || c == 0 ? QStringLiteral("th") : QStringLiteral("td");
        if (r == 0) cell.attrs.remove(QLatin1String(" class=\"num\""));
        rows[c].push_back(cell);
      }
    return writeTable(t.open, rows);
  });
}

QString splitTables(const QString& html, const std::vector<int>& indices, int parts) {
  return rewriteTables(html, indices, [parts](const Table& t) {
    const int lead = leadingColumns(t);
    int columns = 0;
    for (const auto& r : t.rows) columns = std::max(columns, static_cast<int>(r.size()));
    const int rest = columns - lead, per = std::max(1, (rest + parts - 1) / std::max(1, parts));
    QStringList tables;
    for (int from = lead; from < columns; from += per) {
      std::vector<std::vector<CellHtml>> rows;
      for (const auto& r : t.rows) {
        std::vector<CellHtml> cells(r.begin(), r.begin() + std::min<int>(lead, static_cast<int>(r.size())));
        for (int c = from; c < std::min(columns, from + per) && c < static_cast<int>(r.size()); ++c)
          cells.push_back(r[size_t(c)]);
        rows.push_back(std::move(cells));
      }
      // Ids stay unique: the first part keeps the table's, the others none.
      QString open = t.open;
      if (from != lead) open.replace(QRegularExpression(QStringLiteral(" id=\"[^\"]*\"")), QString());
      tables << writeTable(open, rows);
    }
    return tables.join(QStringLiteral("\n<p></p>\n"));
  });
}

}  // namespace fl::gui
