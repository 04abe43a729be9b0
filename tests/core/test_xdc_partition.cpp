// HybridEP's domain partition (seed 004 §IV-A): Eq. 13's renumbering, Algorithm 1's pair
// classification and Table VII's pair counts. Expected values are the spec's worked
// examples (spec 2.1, 2.5), closed forms G(G/S - 1) and G(S - 1), or brute force over
// coordinates built here by nested loops, never from the code under test.
#include <QtTest>

#include <set>
#include <vector>

#include "xdc/domain_partition.h"

using namespace fl::xdc;
using Ints = std::vector<int>;
Q_DECLARE_METATYPE(Ints)

class TestXdcPartition : public QObject {
  Q_OBJECT

 private slots:
  void renumberExamples();
  void renumberThreeLevelsBruteForce();
  void figure8Examples();
  void tableSevenCounts_data();
  void tableSevenCounts();
  void threeLevelsBruteForce_data();
  void threeLevelsBruteForce();
};

void TestXdcPartition::renumberExamples() {
  // spec 2.5: SF = [3, 2, 4]: f(21) = (2, 1, 1), f(23) = (2, 1, 3); SF = [4, 4]: f(1) = (0, 1).
  QCOMPARE(renumber(21, {3, 2, 4}), (Ints{2, 1, 1}));
  QCOMPARE(renumber(23, {3, 2, 4}), (Ints{2, 1, 3}));
  QCOMPARE(renumber(1, {4, 4}), (Ints{0, 1}));
  QCOMPARE(renumber(13, {4, 4}), (Ints{3, 1}));
  QCOMPARE(globalRank({2, 1, 1}, {3, 2, 4}), 21);
}

void TestXdcPartition::renumberThreeLevelsBruteForce() {
  const Ints sf{3, 2, 4};
  long rank = 0;
  for (int a = 0; a < 3; ++a)  // PyTorch rank order: the innermost digit varies fastest
    for (int b = 0; b < 2; ++b)
      for (int c = 0; c < 4; ++c, ++rank) {
        QCOMPARE(renumber(rank, sf), (Ints{a, b, c}));
        QCOMPARE(globalRank({a, b, c}, sf), rank);
      }
}

void TestXdcPartition::figure8Examples() {
  // Fig. 8(b): 4 DCs x 4 GPUs, S_ED = [2, 4] (spec 2.5).
  const Ints sf{4, 4}, d{2, 4};
  QCOMPARE(classifyPair(1, 5, 0, sf, d), PairKind::AllGather);
  QCOMPARE(classifyPair(1, 9, 0, sf, d), PairKind::AllToAll);
  QCOMPARE(classifyPair(1, 13, 0, sf, d), PairKind::None);  // other domain, other offset
  QCOMPARE(classifyPair(1, 2, 0, sf, d), PairKind::None);   // inner coordinate differs
  QCOMPARE(classifyPair(1, 1, 0, sf, d), PairKind::None);
  for (int n : {0, 2, 3}) QCOMPARE(classifyPair(1, n, 1, sf, d), PairKind::AllGather);
  // The "all other levels equal" reading: GPU 1 and GPU 4 differ at level 0 too, so no
  // level-1 pair (the literal pseudocode would call them AG peers).
  QCOMPARE(classifyPair(1, 4, 1, sf, d), PairKind::None);
  // Counts: level 0 has 16 AG and 16 A2A, level 1 has 48 AG and 0 A2A.
  QCOMPARE(pairCounts(0, sf, d).ag, 16);
  QCOMPARE(pairCounts(0, sf, d).a2a, 16);
  QCOMPARE(pairCounts(1, sf, d).ag, 48);
  QCOMPARE(pairCounts(1, sf, d).a2a, 0);
  QCOMPARE(peers(1, 1, PairKind::AllGather, sf, d), (std::vector<std::int64_t>{0, 2, 3}));
  QCOMPARE(peers(1, 0, PairKind::AllToAll, sf, d), (std::vector<std::int64_t>{9}));
}

void TestXdcPartition::tableSevenCounts_data() {
  QTest::addColumn<int>("g");
  QTest::addColumn<int>("s");
  // Cluster sizes Table VII does not list (it has 8, 16, 32).
  for (int g : {6, 12, 24, 36})
    for (int s = 1; s <= g; ++s)
      if (g % s == 0) QTest::addRow("G=%d S=%d", g, s) << g << s;
}

void TestXdcPartition::tableSevenCounts() {
  QFETCH(int, g);
  QFETCH(int, s);
  const Ints sf{g}, d{s};
  long a2a = 0, ag = 0;
  for (int m = 0; m < g; ++m) {
    std::set<std::int64_t> agSet, a2aSet;
    for (int n = 0; n < g; ++n) {
      const PairKind k = classifyPair(m, n, 0, sf, d);
      if (k == PairKind::AllGather) agSet.insert(n);
      if (k == PairKind::AllToAll) a2aSet.insert(n);
      ag += k == PairKind::AllGather;
      a2a += k == PairKind::AllToAll;
    }
    const auto agPeers = peers(m, 0, PairKind::AllGather, sf, d);
    const auto a2aPeers = peers(m, 0, PairKind::AllToAll, sf, d);
    QCOMPARE(std::set<std::int64_t>(agPeers.begin(), agPeers.end()), agSet);
    QCOMPARE(std::set<std::int64_t>(a2aPeers.begin(), a2aPeers.end()), a2aSet);
  }
  QCOMPARE(a2a, long(g) * (g / s - 1));
  QCOMPARE(ag, long(g) * (s - 1));
  QCOMPARE(pairCounts(0, sf, d).a2a, std::int64_t(g) * (g / s - 1));
  QCOMPARE(pairCounts(0, sf, d).ag, std::int64_t(g) * (s - 1));
}

void TestXdcPartition::threeLevelsBruteForce_data() {
  QTest::addColumn<Ints>("domains");
  QTest::newRow("[1,1,1] plain EP") << Ints{1, 1, 1};
  QTest::newRow("[3,2,2]") << Ints{3, 2, 2};
  QTest::newRow("[1,2,4]") << Ints{1, 2, 4};
  QTest::newRow("[3,1,2]") << Ints{3, 1, 2};
}

void TestXdcPartition::threeLevelsBruteForce() {
  QFETCH(Ints, domains);
  const Ints sf{3, 2, 4};
  // Coordinates by nested loops (independent of renumber()).
  std::vector<Ints> loc;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 2; ++b)
      for (int c = 0; c < 4; ++c) loc.push_back({a, b, c});
  for (int l = 0; l < 3; ++l) {
    long ag = 0, a2a = 0;
    for (int m = 0; m < 24; ++m)
      for (int n = 0; n < 24; ++n) {
        int differ = 0;
        for (int i = 0; i < 3; ++i) differ += i != l && loc[m][i] != loc[n][i];
        const int s = domains[l], xm = loc[m][l], xn = loc[n][l];
        PairKind want = PairKind::None;
        if (differ == 0 && xm != xn) {
          if (xm / s == xn / s) want = PairKind::AllGather;
          else if (xm % s == xn % s) want = PairKind::AllToAll;
        }
        QCOMPARE(classifyPair(m, n, l, sf, domains), want);
        ag += want == PairKind::AllGather;
        a2a += want == PairKind::AllToAll;
      }
    QCOMPARE(pairCounts(l, sf, domains).ag, ag);
    QCOMPARE(pairCounts(l, sf, domains).a2a, a2a);
    QCOMPARE(ag, 24L * (domains[l] - 1));
    QCOMPARE(a2a, 24L * (sf[l] / domains[l] - 1));
  }
}

QTEST_GUILESS_MAIN(TestXdcPartition)
#include "test_xdc_partition.moc"
