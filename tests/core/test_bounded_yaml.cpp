// The libyaml pre-scan in front of yaml-cpp (scenario/bounded_yaml.h): each
// limit holds exactly at its value and refuses one past it, with the line of
// the problem; texts inside the limits load as yaml-cpp alone would load them.
// The texts are built here with counts written out, never taken from the code
// under test.
#include <QtTest>
#include <string>

#include "scenario/bounded_yaml.h"

namespace {

std::string nestedLists(int depth) {
  return std::string(static_cast<size_t>(depth), '[') + std::string(static_cast<size_t>(depth), ']');
}

// a: 10 scalars in a list (11 values), b: ten *a (1 + 10 * 11 = 111), ...
// `levels` lists.
std::string aliasTower(int levels) {
  std::string text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  const std::string names = "abcdefghij";
  for (int i = 1; i < levels; ++i) {
    text += std::string(1, names[static_cast<size_t>(i)]) + ": &" + names[static_cast<size_t>(i)] + " [";
    for (int k = 0; k < 10; ++k) text += std::string(k ? ", " : "") + "*" + names[static_cast<size_t>(i - 1)];
    text += "]\n";
  }
  return text;
}

}  // namespace

class TestBoundedYaml : public QObject {
  Q_OBJECT

 private slots:
  void accepted_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("size");  // of the root node
    QTest::newRow("a map") << "a: 1\nb: [1, 2]\n" << 2;
    QTest::newRow("64 levels deep") << QString::fromStdString("x: " + nestedLists(63)) << 1;
    QTest::newRow("empty second document") << "a: 1\n---\n" << 1;
    QTest::newRow("null second document") << "a: 1\n--- ~\n" << 1;
    QTest::newRow("explicit start and end") << "---\na: 1\n...\n" << 1;
    // The map, 5 keys and lists of 11 + 111 + 1111 + 11111 + 111111 values:
    // 123461.
    QTest::newRow("aliases under the limit") << QString::fromStdString(aliasTower(5)) << 5;
    QTest::newRow("comments only") << "# nothing\n" << 0;
  }
  void accepted() {
    QFETCH(QString, text);
    QFETCH(int, size);
    const YAML::Node n = fl::loadBoundedYaml(text.toStdString());
    QCOMPARE(static_cast<int>(n.size()), size);
  }

  void refused_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line");  // 1-based; 0: the whole text
    QTest::addColumn<QString>("expected");
    QTest::newRow("a comma") << QByteArray(",") << 1 << "well-formed YAML";
    QTest::newRow("a comma on line 3") << QByteArray("a: 1\n\n, b: 2\n") << 3 << "well-formed YAML";
    QTest::newRow("65 levels deep") << QByteArray::fromStdString("x: " + nestedLists(64)) << 1
                                    << "at most 64 levels of nested lists and maps";
    QTest::newRow("100000 open brackets")
        << QByteArray(100000, '[') << 1 << "at most 64 levels of nested lists and maps";
    QTest::newRow("block nesting") << QByteArray::fromStdString([] {
      std::string t;
      for (int i = 0; i < 70; ++i) t += std::string(static_cast<size_t>(2 * i), ' ') + "k:\n";
      return t;
    }()) << 65 << "at most 64 levels of nested lists and maps";
    QTest::newRow("second document") << QByteArray("a: 1\n---\nb: 2\n") << 2 << "one YAML document";
    // 123461 values up to line 5 (above), f's key and list make 123463, and
    // each *e adds 111111: the 8th *e on line 6 passes 1000000.
    QTest::newRow("alias bomb") << QByteArray::fromStdString(aliasTower(9)) << 6
                                << "at most 1000000 values (aliases expanded)";
    QTest::newRow("alias cycle") << QByteArray("a: &a [1, *a]\n") << 1 << "an alias to a finished value";
    QTest::newRow("not UTF-8") << QByteArray("a: 1\nb: \xff\xfe\n") << 2 << "well-formed YAML";
    QTest::newRow("oversize") << QByteArray::fromStdString("a: \"" + std::string((8u << 20) - 4, 'x') + "\"\n") << 0
                              << "at most 8 MiB of YAML";
  }
  void refused() {
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    QFETCH(QString, expected);
    try {
      fl::loadBoundedYaml(text.toStdString());
      QFAIL("accepted");
    } catch (const fl::BoundedYamlError& e) {
      QCOMPARE(QString::fromStdString(e.expected()), expected);
      QCOMPARE(e.mark.line + 1, line);
    }
  }
};

QTEST_GUILESS_MAIN(TestBoundedYaml)
#include "test_bounded_yaml.moc"
