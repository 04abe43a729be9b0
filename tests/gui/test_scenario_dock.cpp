// The Scenario dock in a narrow column (offscreen): no key is broken inside a word and no
// value is squeezed to a word a line. Keys wrap after their '.' and '_' separators into
// the key column and the row holds the lines; a part wider than the whole column (only in
// the narrowest docks) is elided, the full key in its tooltip; values keep room for
// several words. Expected line counts from a greedy packing of the key's parts written
// here with QFontMetrics. Narrower than ~260 px each key stands above its value instead,
// on one line.
#include <QHeaderView>
#include <QRegularExpression>
#include <QTreeView>
#include <QtTest>
#include <functional>

#include "gui/key_delegate.h"
#include "gui/scenario_dock.h"
#include "gui/scenario_document.h"
#include "gui/scenario_tree_model.h"
#include "gui_test_util.h"

namespace t = fl::gui::test;
using fl::gui::ScenarioTreeModel;

namespace {

// Lines `key` takes in `width` px: parts end after '.', '_' or a space and go whole onto the
// line if they fit, else onto a new one; a part wider than a line takes one line alone.
int keyLines(const QFontMetrics& fm, const QString& key, int width) {
  QStringList parts;
  QString part;
  for (const QChar c : key) {
    part += c;
    if (c == u'.' || c == u'_' || c == u' ') parts << part, part.clear();
  }
  if (!part.isEmpty()) parts << part;
  int lines = 0, used = width + 1;
  for (const QString& p : parts) {
    const int w = fm.horizontalAdvance(p);
    if (used + w <= width) {
      used += w;
    } else if (w <= width) {
      ++lines, used = w;
    } else {
      ++lines, used = width + 1;  // elided alone on its line
    }
  }
  return std::max(1, lines);
}

}  // namespace

// A bundled scenario in a Scenario dock `width` px wide, every row in view.
struct OpenDock {
  fl::gui::ScenarioDocument doc;
  fl::gui::ScenarioDock dock{&doc};
  OpenDock(const QString& file, int width) {
    doc.load(QStringLiteral(FABRICLAB_SCENARIOS "/") + file);
    dock.resize(width, 2400);
    dock.show();
  }
  QTreeView* laidOut() {
    QCoreApplication::processEvents();
    dock.view()->doItemsLayout();
    QCoreApplication::processEvents();
    return dock.view();
  }
};

class TestScenarioDock : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { t::isolateSettings(); }

  void keysAndValuesWhole_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("width");
    for (const char* file : {"default.yaml", "xdc-ablation-24-8.yaml", "wsc-4x4-paper.yaml", "cais-4gpu.yaml"})
      for (int width : {270, 330, 440})
        QTest::newRow(qPrintable(QString("%1 at %2 px").arg(file).arg(width))) << QString(file) << width;
  }

  void keysAndValuesWhole() {
    QFETCH(QString, file);
    QFETCH(int, width);
    OpenDock open(file, width);
    fl::gui::ScenarioDock& dock = open.dock;
    QVERIFY(QTest::qWaitForWindowExposed(&dock));
    QTreeView* tree = open.laidOut();
    int keys = 0, wrapped = 0;
    QStringList elidedKeys;
    std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
      for (int r = 0; r < tree->model()->rowCount(parent); ++r) {
        const QModelIndex key = tree->model()->index(r, ScenarioTreeModel::KeyColumn, parent);
        const QModelIndex value = tree->model()->index(r, ScenarioTreeModel::ValueColumn, parent);
        const QRect keyCell = tree->visualRect(key);
        const QString text = key.data().toString();
        if (keyCell.isValid() && !text.isEmpty()) {
          QFont f = tree->font();
          if (const QVariant v = key.data(Qt::FontRole); v.isValid()) f = v.value<QFont>();
          const QFontMetrics fm(f);
          const int lines = keyLines(fm, text, keyCell.width() - 8);
          QVERIFY2(keyCell.height() >= lines * fm.height(),
                   qPrintable(QString("%1: %2 lines in %3 px wide, row %4 px").arg(text).arg(lines).arg(keyCell.width()).arg(keyCell.height())));
          QVERIFY2(keyCell.right() <= tree->viewport()->width() + 1, qPrintable(text));
          // What the delegate draws: whole parts, or one part elided alone on its line.
          const QStringList drawn = fl::gui::KeyDelegate::keyLines(text, fm, keyCell.width() - 8);
          QCOMPARE(int(drawn.size()), lines);
          QString rebuilt;
          for (const QString& line : drawn) {
            QVERIFY2(!line.isEmpty(), qPrintable(QString("%1 in %2 px").arg(text).arg(keyCell.width() - 8)));
            const bool elided = line.endsWith(QChar(0x2026));
            QVERIFY2(!elided || text.contains(line.chopped(1)), qPrintable(line));
            QVERIFY2(elided || text.mid(rebuilt.size()).startsWith(line), qPrintable(text + " / " + line));
            QVERIFY2(elided || rebuilt.size() + line.size() == text.size() || QString("._ ").contains(line.back()),
                     qPrintable(QString("'%1' broken inside a word: '%2'").arg(text, line)));
            if (elided) {
              elidedKeys << text;
              const int next = text.indexOf(QRegularExpression("[._ ]"), rebuilt.size());
              rebuilt = next < 0 ? text : text.left(next + 1);
            } else {
              rebuilt += line;
            }
          }
          ++keys;
          wrapped += lines > 1;
          // Values: room for several words (a description wrapped a word a line below ~120 px).
          if (!value.data().toString().isEmpty())
            QVERIFY2(tree->visualRect(value).width() >= 120,
                     qPrintable(QString("%1: value column %2 px").arg(text).arg(tree->visualRect(value).width())));
        }
        if (tree->isExpanded(key)) walk(key);
      }
    };
    walk(QModelIndex());
    QVERIFY(keys >= 20);
    if (width <= 270) QVERIFY(wrapped > 0);  // the narrow rows do wrap (else the check above proves little)
    if (width >= 330) QVERIFY2(elidedKeys.isEmpty(), qPrintable(elidedKeys.join(", ")));  // only narrow docks elide
  }

  // A dock narrower than ~260 px: each key above its value on the whole width, on one
  // line (at 240 px keys wrapped at every separator in a ~100 px column, e.g.
  // "wafers.border_" / "bandwidth"); the row holds the key's line and the value's lines.
  void keysAboveValuesWhenNarrow_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("width");
    QTest::addColumn<bool>("stacked");
    for (const char* file : {"default.yaml", "xdc-ablation-24-8.yaml", "wsc-4x4-paper.yaml", "cais-4gpu.yaml"}) {
      for (int width : {240, 250}) QTest::addRow("%s at %d px", file, width) << QString(file) << width << true;
      QTest::addRow("%s at 280 px", file) << QString(file) << 280 << false;
    }
  }
  void keysAboveValuesWhenNarrow() {
    QFETCH(QString, file);
    QFETCH(int, width);
    QFETCH(bool, stacked);
    OpenDock open(file, width);
    fl::gui::ScenarioDock& dock = open.dock;
    QVERIFY(QTest::qWaitForWindowExposed(&dock));
    QTreeView* tree = open.laidOut();
    QCOMPARE(dock.keysStacked(), stacked);
    QCOMPARE(tree->isColumnHidden(ScenarioTreeModel::KeyColumn), stacked);
    if (!stacked) return;  // keysAndValuesWhole checks the two columns
    int keys = 0, oneLine = 0;
    QStringList twoLines;
    std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
      for (int r = 0; r < tree->model()->rowCount(parent); ++r) {
        const QModelIndex key = tree->model()->index(r, ScenarioTreeModel::KeyColumn, parent);
        const QModelIndex value = tree->model()->index(r, ScenarioTreeModel::ValueColumn, parent);
        const QRect cell = tree->visualRect(value);
        const QString text = key.data().toString();
        QVERIFY2(cell.isValid() && cell.right() <= tree->viewport()->width() + 1, qPrintable(text));
        QFont f = tree->font();
        if (const QVariant v = key.data(Qt::FontRole); v.isValid()) f = v.value<QFont>();
        const QFontMetrics kfm(f), vfm(tree->font());
        const int textWidth = cell.width() - 8;
        // One line where it fits (all but the two longest keys, 35 and 36 characters:
        // stragglers.start_jitter_ and task_noise_distribution), else packed at separators.
        const int lines = keyLines(kfm, text, textWidth);
        QCOMPARE(lines, kfm.horizontalAdvance(text) <= textWidth ? 1 : 2);
        oneLine += lines == 1;
        if (lines > 1) twoLines << text;
        const QString v = value.data().toString();
        const int valueHeight = v.isEmpty() ? 0 : vfm.boundingRect(QRect(0, 0, textWidth - 10, 100000), Qt::TextWordWrap, v).height();
        QVERIFY2(cell.height() >= lines * kfm.height() + valueHeight,
                 qPrintable(QString("%1 = '%2': row %3 px, key %4 x %5 + value %6").arg(text, v).arg(cell.height()).arg(lines).arg(kfm.height()).arg(valueHeight)));
        ++keys;
        if (tree->isExpanded(key)) walk(key);
      }
    };
    walk(QModelIndex());
    QVERIFY(keys >= 20);
    QVERIFY2(oneLine >= keys - 2, qPrintable(QString("%1 of %2 keys on one line; on two: %3").arg(oneLine).arg(keys).arg(twoLines.join(", "))));
    if (width == 240 && file == "default.yaml") QVERIFY(dock.grab().save(t::artefactsDir() + "/scenario_dock_stacked.png"));
  }

  // The break rule itself: after each separator, nothing else changed.
  void breakable() {
    QCOMPARE(fl::gui::KeyDelegate::breakable("die_injection.bandwidth"),
             QString("die_\u200Binjection.\u200Bbandwidth"));
    QCOMPARE(fl::gui::KeyDelegate::breakable("name"), QString("name"));
  }
};

QTEST_MAIN(TestScenarioDock)
#include "test_scenario_dock.moc"
