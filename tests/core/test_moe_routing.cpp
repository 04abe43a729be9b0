// MoE routing: expert placement, routing generators, trace files and routing statistics
// (model presets and the workload.moe / scheme keys: test_moe_scenario.cpp). Expected
// values are hand counts, brute-force enumeration and closed forms computed here
// independently (lgamma), never the code's own output.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "moe/placement.h"
#include "moe/routing.h"
#include "moe/routing_stats.h"
#include "moe/routing_trace.h"
#include "scenario/input_error.h"

namespace {
const QString kMoe = QStringLiteral(FABRICLAB_TEST_DATA) + "/moe/";

template <class F>
fl::InputError expectError(F f) {
  try {
    f();
  } catch (const fl::InputError& e) {
    return e;
  }
  throw std::runtime_error("expected an InputError");
}

// C(n - m, k) / C(n, k) through log-gamma: independent of the code's product form.
double miss(int n, int m, int k) {
  if (n - m < k) return 0;
  return std::exp(std::lgamma(n - m + 1.0) - std::lgamma(n - m - k + 1.0) - std::lgamma(n + 1.0) +
                  std::lgamma(n - k + 1.0));
}

fl::RoutingParams params(int gpus, int tokens, int experts, int k, fl::RoutingDistribution d, std::uint64_t seed = 1) {
  fl::RoutingParams p;
  p.gpus = gpus, p.tokens_per_gpu = tokens, p.experts = experts, p.top_k = k, p.distribution = d, p.seed = seed;
  return p;
}

// Every token has k distinct experts in [0, E).
bool wellFormed(const fl::Routing& r) {
  for (int g = 0; g < r.gpus; ++g)
    for (int t = 0; t < r.tokens_per_gpu; ++t) {
      auto c = r.chosen(g, t);
      std::vector<int> v(c.begin(), c.end());
      std::sort(v.begin(), v.end());
      if (std::adjacent_find(v.begin(), v.end()) != v.end() || v.front() < 0 || v.back() >= r.experts) return false;
    }
  return r.choices.size() == size_t(r.gpus) * r.tokens_per_gpu * r.top_k;
}

// |load_e - N pi_e| within 5 binomial standard deviations (+1) for every expert.
bool loadsFollow(const fl::Routing& r, const std::vector<double>& pi) {
  const auto loads = fl::expertLoads(r);
  const double n = double(r.gpus) * r.tokens_per_gpu;
  for (size_t e = 0; e < loads.size(); ++e)
    if (std::abs(loads[e] - n * pi[e]) > 5 * std::sqrt(n * pi[e] * (1 - pi[e])) + 1) return false;
  return true;
}
}  // namespace

class TestMoeRouting : public QObject {
  Q_OBJECT

 private slots:
  void placement();
  void routingWellFormed_data();
  void routingWellFormed();
  void closedFormBruteForce();
  void uniformRemoteGpus_data();
  void uniformRemoteGpus();
  void dispatchCounts();
  void normalSigma_data();
  void normalSigma();
  void inclusionProbabilities_data();
  void inclusionProbabilities();
  void powerLaw();
  void determinism();
  void traceGood();
  void traceBad_data();
  void traceBad();
};

// Hand-listed layouts and the impossible ones.
void TestMoeRouting::placement() {
  const auto c = fl::ExpertPlacement::contiguous(8, 4);
  for (int e = 0; e < 8; ++e) QCOMPARE(c.gpuOf(e), e / 2);
  QCOMPARE(c.localExperts(3), (std::vector<int>{6, 7}));
  const auto r = fl::ExpertPlacement::roundRobin(10, 4);
  QCOMPARE(r.localExperts(1), (std::vector<int>{1, 5, 9}));
  QCOMPARE(r.localExperts(3), (std::vector<int>{3, 7}));
  const auto x = fl::ExpertPlacement::fromList({2, 2, 0}, 3);
  QCOMPARE(x.localExperts(1), std::vector<int>{});
  QCOMPARE(x.gpuOf(1), 2);
  QCOMPARE(expectError([] { fl::ExpertPlacement::contiguous(12, 8); }).keyPath(), std::string("workload.moe.placement"));
  QCOMPARE(expectError([] { fl::ExpertPlacement::fromList({0, 3}, 3); }).keyPath(), std::string("workload.moe.placement[1]"));
  fl::MoeSpec spec;
  spec.experts = 3, spec.placement = fl::ExpertPlacementKind::Explicit, spec.placement_list = {0, 1};
  QVERIFY2(QString(expectError([&] { fl::ExpertPlacement::fromSpec(spec, 2); }).what()).contains("3 GPU indices"), "");
}

void TestMoeRouting::routingWellFormed_data() {
  QTest::addColumn<int>("dist");
  QTest::addColumn<int>("experts");
  QTest::addColumn<int>("k");
  QTest::addColumn<double>("alpha");
  using D = fl::RoutingDistribution;
  QTest::newRow("uniform 256/8") << int(D::Uniform) << 256 << 8 << 1.0;
  QTest::newRow("uniform k = E") << int(D::Uniform) << 6 << 6 << 1.0;
  QTest::newRow("normal 256/8 (heavy clipping)") << int(D::Normal) << 256 << 8 << 1.0;
  QTest::newRow("normal 8/2") << int(D::Normal) << 8 << 2 << 1.0;
  QTest::newRow("power 2.5 256/8 (capped)") << int(D::PowerLaw) << 256 << 8 << 2.5;
  QTest::newRow("power 0.5 64/4") << int(D::PowerLaw) << 64 << 4 << 0.5;
  QTest::newRow("power k = E") << int(D::PowerLaw) << 5 << 5 << 2.0;
}

void TestMoeRouting::routingWellFormed() {
  QFETCH(int, dist);
  QFETCH(int, experts);
  QFETCH(int, k);
  QFETCH(double, alpha);
  auto p = params(4, 3000, experts, k, fl::RoutingDistribution(dist));
  p.alpha = alpha;
  const fl::Routing r = fl::generateRouting(p);
  QVERIFY(wellFormed(r));
  QVERIFY(std::abs(std::accumulate(r.popularity.begin(), r.popularity.end(), 0.0) - 1) < 1e-12);
}

// The closed form against all C(E, k) expert sets, for equal and unequal placements.
void TestMoeRouting::closedFormBruteForce() {
  for (const auto& pl : {fl::ExpertPlacement::contiguous(8, 4), fl::ExpertPlacement::roundRobin(7, 3)}) {
    const int E = pl.experts(), k = 3;
    for (int source = 0; source < pl.gpus(); ++source) {
      double sum = 0, sum2 = 0, sets = 0;
      for (int mask = 0; mask < (1 << E); ++mask) {
        if (__builtin_popcount(unsigned(mask)) != k) continue;
        std::vector<bool> hit(size_t(pl.gpus()), false);
        for (int e = 0; e < E; ++e)
          if (mask >> e & 1) hit[size_t(pl.gpuOf(e))] = true;
        int d = 0;
        for (int g = 0; g < pl.gpus(); ++g) d += g != source && hit[size_t(g)];
        sum += d, sum2 += d * d, ++sets;
      }
      const double mean = sum / sets, var = sum2 / sets - mean * mean;
      QVERIFY(std::abs(fl::expectedRemoteGpusUniform(pl, k, source) - mean) < 1e-12);
      QVERIFY(std::abs(fl::varianceRemoteGpusUniform(pl, k, source) - var) < 1e-12);
    }
  }
  QVERIFY(std::abs(fl::missProbability(64, 8, 2) - 56.0 * 55 / (64 * 63)) < 1e-15);
}

// d = (G - 1)(1 - C(E - E/G, k)/C(E, k)): 7.0397 for DeepSeek-V3 on NVL32 (the seed gives
// no figure; 7.27 distinct GPUs counting the source's own), 1.6528, 3.875.
void TestMoeRouting::uniformRemoteGpus_data() {
  QTest::addColumn<int>("G");
  QTest::addColumn<int>("E");
  QTest::addColumn<int>("k");
  QTest::addColumn<bool>("roundRobin");
  QTest::addColumn<double>("expected");
  QTest::newRow("G32 E256 k8") << 32 << 256 << 8 << false << 7.039712419935603;
  QTest::newRow("G8 E64 k2") << 8 << 64 << 2 << false << 7 * (1 - 56.0 * 55 / (64 * 63));
  QTest::newRow("G32 E32 k4") << 32 << 32 << 4 << false << 31 * 4.0 / 32;
  QTest::newRow("G32 E256 k8 round robin") << 32 << 256 << 8 << true << 7.039712419935603;
}

void TestMoeRouting::uniformRemoteGpus() {
  QFETCH(int, G);
  QFETCH(int, E);
  QFETCH(int, k);
  QFETCH(bool, roundRobin);
  QFETCH(double, expected);
  const int m = E / G;
  const double q = miss(E, m, k), q2 = miss(E, 2 * m, k);
  const double mean = (G - 1) * (1 - q);
  QVERIFY(std::abs(mean - expected) < 1e-9);
  QVERIFY(std::abs(fl::expectedRemoteGpusUniform(G, E, k) - expected) < 1e-9);
  // Var D = E[D^2] - E[D]^2 with E[X_g X_h] = 1 - 2q + q2 (g != h).
  const double var = (G - 1) * (1 - q) + (G - 1.0) * (G - 2) * (1 - 2 * q + q2) - mean * mean;
  const int tokens = 65536 / G;  // 65536 tokens: the standard error is about 0.01
  const auto pl = roundRobin ? fl::ExpertPlacement::roundRobin(E, G) : fl::ExpertPlacement::contiguous(E, G);
  QVERIFY(std::abs(fl::varianceRemoteGpusUniform(pl, k, 0) - var) < 1e-9);
  const fl::Routing r = fl::generateRouting(params(G, tokens, E, k, fl::RoutingDistribution::Uniform, 11));
  const double se = std::sqrt(var / (double(G) * tokens));
  const double got = fl::meanRemoteGpus(r, pl);
  QVERIFY2(std::abs(got - expected) < 5 * se, qPrintable(QString("d = %1, expected %2 +- %3").arg(got).arg(expected).arg(5 * se)));
  // Uniform loads: every expert within 5 sigma of N k/E.
  QVERIFY(loadsFollow(r, std::vector<double>(size_t(E), double(k) / E)));
}

// Hand count: 2 GPUs, experts {0,1} on GPU 0 and {2,3} on GPU 1.
void TestMoeRouting::dispatchCounts() {
  fl::Routing r;
  r.gpus = 2, r.tokens_per_gpu = 3, r.experts = 4, r.top_k = 2;
  r.choices = {0, 1, 0, 2, 2, 3, /* GPU 1 */ 1, 3, 2, 3, 0, 3};
  const auto pl = fl::ExpertPlacement::contiguous(4, 2);
  const fl::TokenMatrix c = fl::dispatchCounts(r, pl);
  QCOMPARE(c, (fl::TokenMatrix{{2, 2}, {2, 3}}));
  QCOMPARE(fl::tokensSent(c), (std::vector<std::int64_t>{2, 2}));
  QCOMPARE(fl::tokensReceived(c), (std::vector<std::int64_t>{2, 2}));
  QCOMPARE(fl::expertLoads(r), (std::vector<std::int64_t>{3, 2, 3, 4}));
  QCOMPARE(fl::meanRemoteGpus(r, pl), 4.0 / 6);
}

// Renormalising removes the mean of the draws: share_e - 1/E ≈ σ(Z_e - Z̄), whose spread
// is σ·sqrt(1 - 1/E) (to first order; clipping is negligible for these σ·E).
void TestMoeRouting::normalSigma_data() {
  QTest::addColumn<int>("E");
  QTest::addColumn<double>("sigma");
  QTest::addColumn<int>("seeds");
  QTest::newRow("seed default: E 8, sigma 0.032") << 8 << 0.032 << 4000;
  QTest::newRow("E 1024, sigma 0.0002") << 1024 << 0.0002 << 50;
}

void TestMoeRouting::normalSigma() {
  QFETCH(int, E);
  QFETCH(double, sigma);
  QFETCH(int, seeds);
  double sum2 = 0;
  for (int seed = 1; seed <= seeds; ++seed) {
    auto p = params(4, 1, E, 2, fl::RoutingDistribution::Normal, std::uint64_t(seed));
    p.sigma = sigma;
    for (double s : fl::expertPopularity(p)) sum2 += (s - 1.0 / E) * (s - 1.0 / E);
  }
  const double got = std::sqrt(sum2 / (double(seeds) * E)), want = sigma * std::sqrt(1 - 1.0 / E);
  QVERIFY2(std::abs(got / want - 1) < 0.03, qPrintable(QString("std %1, expected %2").arg(got).arg(want)));
  // Loads follow the drawn popularity: systematic sampling includes expert e with
  // probability exactly k·share_e (no share reaches 1/k here).
  auto p = params(4, 16384, E == 8 ? 8 : 64, 2, fl::RoutingDistribution::Normal, 5);
  p.sigma = 0.032;
  const fl::Routing r = fl::generateRouting(p);
  std::vector<double> pi;
  for (double s : r.popularity) pi.push_back(2 * s);
  QVERIFY(*std::max_element(pi.begin(), pi.end()) < 1);
  QVERIFY(loadsFollow(r, pi));
}

// k·share capped at 1, the excess spread in proportion: worked by hand.
void TestMoeRouting::inclusionProbabilities_data() {
  QTest::addColumn<std::vector<double>>("shares");
  QTest::addColumn<int>("k");
  QTest::addColumn<std::vector<double>>("pi");
  QTest::newRow("no cap") << std::vector<double>{0.5, 0.3, 0.2} << 2 << std::vector<double>{1.0, 0.6, 0.4};
  QTest::newRow("one cap") << std::vector<double>{0.6, 0.3, 0.1} << 2 << std::vector<double>{1.0, 0.75, 0.25};
  // 0.7 -> cap; 2 left over (0.2, 0.05, 0.05): 1.33 -> cap; 1 left over (0.05, 0.05).
  QTest::newRow("cascade") << std::vector<double>{0.7, 0.2, 0.05, 0.05} << 3 << std::vector<double>{1.0, 1.0, 0.5, 0.5};
}

void TestMoeRouting::inclusionProbabilities() {
  QFETCH(std::vector<double>, shares);
  QFETCH(int, k);
  QFETCH(std::vector<double>, pi);
  const auto got = fl::inclusionProbabilities(shares, k);
  for (size_t e = 0; e < pi.size(); ++e) QVERIFY2(std::abs(got[e] - pi[e]) < 1e-12, qPrintable(QString::number(got[e])));
}

void TestMoeRouting::powerLaw() {
  const int E = 64, k = 4;
  auto p = params(4, 16384, E, k, fl::RoutingDistribution::PowerLaw, 3);
  p.alpha = 1.2;
  const fl::Routing r = fl::generateRouting(p);
  // Popularity is exactly rank^-alpha / H, in a random expert order.
  std::vector<int> byRank(E);
  std::iota(byRank.begin(), byRank.end(), 0);
  std::sort(byRank.begin(), byRank.end(), [&](int a, int b) { return r.popularity[size_t(a)] > r.popularity[size_t(b)]; });
  double h = 0;
  for (int rank = 1; rank <= E; ++rank) h += std::pow(rank, -1.2);
  for (int rank = 1; rank <= E; ++rank)
    QVERIFY(std::abs(r.popularity[size_t(byRank[size_t(rank - 1)])] - std::pow(rank, -1.2) / h) < 1e-15);
  QVERIFY(byRank[0] != 0 || byRank[1] != 1);  // shuffled over experts
  // Inclusion probabilities: sum k, none above 1, the top expert capped, the rest proportional.
  const auto pi = fl::inclusionProbabilities(r.popularity, k);
  QVERIFY(std::abs(std::accumulate(pi.begin(), pi.end(), 0.0) - k) < 1e-12);
  QCOMPARE(pi[size_t(byRank[0])], 1.0);  // 4 / H(64, 1.2) > 1
  const double ratio = pi[size_t(byRank[E - 1])] / r.popularity[size_t(byRank[E - 1])];
  for (int e = 0; e < E; ++e) QVERIFY(pi[size_t(e)] <= 1 && (pi[size_t(e)] == 1 || std::abs(pi[size_t(e)] / r.popularity[size_t(e)] / ratio - 1) < 1e-12));
  QVERIFY(loadsFollow(r, pi));
  // Monotone-ish with rank: mean load of each block of 8 ranks below the previous block's.
  const auto loads = fl::expertLoads(r);
  double previous = 1e300;
  for (int b = 0; b < E / 8; ++b) {
    double mean = 0;
    for (int i = 0; i < 8; ++i) mean += double(loads[size_t(byRank[size_t(b * 8 + i)])]) / 8;
    QVERIFY2(mean < previous, qPrintable(QString("block %1").arg(b)));
    previous = mean;
  }
}

void TestMoeRouting::determinism() {
  using D = fl::RoutingDistribution;
  for (D d : {D::Uniform, D::Normal, D::PowerLaw}) {
    const fl::Routing a = fl::generateRouting(params(4, 500, 64, 4, d, 9));
    QVERIFY(fl::generateRouting(params(4, 500, 64, 4, d, 9)).choices == a.choices);
    QVERIFY(fl::generateRouting(params(4, 500, 64, 4, d, 10)).choices != a.choices);
    // One stream per GPU: adding GPUs leaves the first GPUs' tokens unchanged.
    const fl::Routing wide = fl::generateRouting(params(8, 500, 64, 4, d, 9));
    QVERIFY(std::equal(a.choices.begin(), a.choices.end(), wide.choices.begin()));
  }
}

void TestMoeRouting::traceGood() {
  const fl::RoutingTrace t = fl::loadRoutingTrace((kMoe + "trace_good.csv").toStdString(), 8, 2);
  QCOMPARE(t.rows(), size_t(6));
  auto row = [&](size_t r) { return std::vector<int>(t.row(r).begin(), t.row(r).end()); };
  QCOMPARE(row(1), (std::vector<int>{2, 3}));
  QCOMPARE(row(2), (std::vector<int>{4, 5}));  // quoted field
  QCOMPARE(row(4), (std::vector<int>{7, 0}));  // padded with spaces
  QCOMPARE(fl::loadRoutingTrace((kMoe + "trace_crlf.csv").toStdString(), 4, 2).rows(), size_t(2));
}

void TestMoeRouting::traceBad_data() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<int>("line");
  QTest::addColumn<int>("column");
  QTest::addColumn<QString>("message");
  QTest::newRow("token gap") << "trace_token_gap.csv" << 2 << 1 << "expected token 1 (rows in order from 0), found '2'";
  QTest::newRow("expert range") << "trace_expert_range.csv" << 3 << 5 << "expected an expert id below 8, found '8'";
  QTest::newRow("duplicate") << "trace_duplicate.csv" << 1 << 5 << "expected distinct experts per token, found expert 3 twice";
  QTest::newRow("too few") << "trace_too_few.csv" << 2 << 3 << "expected 2 experts per token (top_k), found 1";
  QTest::newRow("too many") << "trace_too_many.csv" << 1 << 7 << "found expert number 3";
  QTest::newRow("not integer") << "trace_not_integer.csv" << 1 << 5 << "expected an expert id (integer), found 'x2'";
  QTest::newRow("no comma") << "trace_no_comma.csv" << 1 << 1 << "expected a row 'token,experts'";
  QTest::newRow("no rows") << "trace_empty.csv" << 0 << 0 << "found no rows";
  QTest::newRow("missing") << "no_such_trace.csv" << 0 << 0 << "found no such file";
}

void TestMoeRouting::traceBad() {
  QFETCH(QString, file);
  QFETCH(int, line);
  QFETCH(int, column);
  QFETCH(QString, message);
  const std::string path = (kMoe + file).toStdString();
  const fl::InputError e = expectError([&] { fl::loadRoutingTrace(path, 8, 2); });
  QCOMPARE(e.where().file, path);
  QCOMPARE(e.where().line, line);
  QCOMPARE(e.where().column, column);
  QCOMPARE(e.keyPath(), std::string("workload.moe.routing.trace"));
  QVERIFY2(QString(e.what()).contains(message), e.what());
}

QTEST_GUILESS_MAIN(TestMoeRouting)
#include "test_moe_routing.moc"
