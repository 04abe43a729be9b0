// FlashDMoE's memory overhead model (core/pipeline/flash_memory.h) against seed 001
// Table 6.2, the two regimes of §5.4's Size(L) formula and capacity-factor scaling.
#include <QtTest>

#include <array>
#include <cmath>

#include "pipeline/flash_memory.h"
#include "scenario/scenario.h"
#include "scenario/scenario_io.h"
#include "scenario/sweep.h"

#include "../common/input_error_helpers.h"

namespace {

constexpr double kMiB = 1024.0 * 1024.0;  // Table 6.2's MB: 4K tokens x 4 KB x 4 = 64.00
// The table prints two decimals; every column is met to one unit of that last place.
constexpr double kTableTolMiB = 0.01;

// Seed 001 Table 6.2 (bM = 128, Size(T) = Tokens x 4 KB).
struct TableRow {
  int tokens, experts, ec, paddedEc;
  double bookkeepingMiB, layoutMiB, totalMiB;
};
constexpr std::array<TableRow, 12> kTable62 = {{
    {4096, 16, 256, 256, 64.57, 64.00, 128.57},
    {4096, 32, 128, 128, 64.55, 64.00, 128.55},
    {4096, 64, 64, 128, 128.90, 128.01, 256.91},
    {4096, 128, 32, 128, 257.96, 256.02, 513.98},
    {8192, 16, 512, 512, 128.95, 128.01, 256.95},
    {8192, 32, 256, 256, 128.90, 128.01, 256.91},
    {8192, 64, 128, 128, 128.90, 128.01, 256.91},
    {8192, 128, 64, 128, 258.15, 256.02, 514.17},
    {16384, 16, 1024, 1024, 257.89, 256.02, 513.90},
    {16384, 32, 512, 512, 257.79, 256.02, 513.81},
    {16384, 64, 256, 256, 257.80, 256.02, 513.81},
    {16384, 128, 128, 128, 258.53, 256.02, 514.54},
}};

const TableRow* tableRow(std::int64_t tokens, int experts) {
  for (const TableRow& r : kTable62)
    if (r.tokens == tokens && r.experts == experts) return &r;
  return nullptr;
}

// Compares one configuration with its Table 6.2 row; returns "" or what differs.
QString compareWithTable(const fl::FlashMemoryBreakdown& b, const TableRow& row) {
  const double layout = b.symmetricLayoutBytes() / kMiB;
  const double book = b.bookkeepingBytes() / kMiB;
  QString diff;
  if (b.expert_capacity != row.ec) diff += QString(" EC %1 vs %2").arg(b.expert_capacity).arg(row.ec);
  if (b.padded_capacity != row.paddedEc)
    diff += QString(" max(bM,EC) %1 vs %2").arg(b.padded_capacity).arg(row.paddedEc);
  if (std::abs(layout - row.layoutMiB) > kTableTolMiB) diff += QString(" Size(L) %1 vs %2").arg(layout).arg(row.layoutMiB);
  if (std::abs(book - row.bookkeepingMiB) > kTableTolMiB)
    diff += QString(" bookkeeping %1 vs %2").arg(book).arg(row.bookkeepingMiB);
  if (std::abs(layout + book - row.totalMiB) > kTableTolMiB)
    diff += QString(" total %1 vs %2").arg(layout + book).arg(row.totalMiB);
  return diff;
}

fl::FlashMemoryShape tableShape(int tokens, int experts) {
  fl::FlashMemoryShape m;  // defaults: Table 6.2's testbed and model (H 1024, I 4096, fp32)
  m.tokens = tokens;
  m.experts = experts;
  return m;
}

}  // namespace

class TestFlashMemory : public QObject {
  Q_OBJECT

 private slots:
  void table62_data();
  void table62();
  void paddingRegimes_data();
  void paddingRegimes();
  void capacityFactor_data();
  void capacityFactor();
  void scenarioKeys();
  void badShape_data();
  void badShape();
  void bundledSweepReproducesTable();
};

void TestFlashMemory::table62_data() {
  QTest::addColumn<int>("index");
  for (int i = 0; i < static_cast<int>(kTable62.size()); ++i) {
    const TableRow& r = kTable62[i];
    QTest::newRow(qPrintable(QString("%1K tokens, %2 experts").arg(r.tokens / 1024).arg(r.experts))) << i;
  }
}

void TestFlashMemory::table62() {
  QFETCH(int, index);
  const TableRow& row = kTable62[index];
  const fl::FlashMemoryBreakdown b = fl::flashMemoryBreakdown(tableShape(row.tokens, row.experts));
  QCOMPARE(compareWithTable(b, row), QString());
  // Size(T) = Tokens x 4 KB (caption).
  QCOMPARE(b.token_buffer_bytes, std::int64_t{row.tokens} * 4096);
  const fl::MemoryResults r = fl::flashMemoryOverhead(tableShape(row.tokens, row.experts));
  QCOMPARE(r.symmetric_layout_bytes, b.symmetricLayoutBytes());
  QCOMPARE(r.bookkeeping_bytes, b.bookkeepingBytes());
  QCOMPARE(r.expert_capacity, std::int64_t{row.ec});
}

// §5.4: Size(L) = 4 Size(T) when S/E >= bM, else 4 (bM E / S) Size(T) (cells only; the
// signal flags are the "≈"). Shapes beyond the table: other GPU counts, bf16, big H.
void TestFlashMemory::paddingRegimes_data() {
  QTest::addColumn<int>("tokens");
  QTest::addColumn<int>("experts");
  QTest::addColumn<int>("gpus");
  QTest::addColumn<int>("hidden");
  QTest::addColumn<int>("elementBytes");
  QTest::newRow("S/E = 2 bM") << 4096 << 16 << 8 << 1024 << 4;
  QTest::newRow("S/E = bM") << 4096 << 32 << 8 << 1024 << 4;
  QTest::newRow("S/E = bM/2") << 4096 << 64 << 8 << 1024 << 4;
  QTest::newRow("S/E = bM/16, bf16, H 7168") << 2048 << 256 << 8 << 7168 << 2;
  QTest::newRow("S/E = 8 bM, 4 GPUs") << 32768 << 32 << 4 << 2048 << 2;
  QTest::newRow("S/E = bM/128, 32 GPUs") << 1024 << 1024 << 32 << 4096 << 1;
}

void TestFlashMemory::paddingRegimes() {
  QFETCH(int, tokens);
  QFETCH(int, experts);
  QFETCH(int, gpus);
  QFETCH(int, hidden);
  QFETCH(int, elementBytes);
  fl::FlashMemoryShape m;
  m.tokens = tokens;
  m.experts = experts;
  m.gpus = gpus;
  m.hidden = hidden;
  m.element_bytes = elementBytes;
  const fl::FlashMemoryBreakdown b = fl::flashMemoryBreakdown(m);
  const double sizeT = double(tokens) * hidden * elementBytes;
  QCOMPARE(b.token_buffer_bytes, std::int64_t(sizeT));
  const bool wide = tokens / experts >= m.tile_m;
  const double expected = wide ? 4 * sizeT : 4 * (double(m.tile_m) * experts / tokens) * sizeT;
  QCOMPARE(double(b.cell_bytes), expected);
  // The flags: one per (GPU, local expert) plus one per bM x bN tile of each expert.
  const double c = wide ? double(tokens) / experts : m.tile_m;
  const double flags = 8 * (experts + experts * (c / m.tile_m) * (double(hidden) / m.tile_n));
  QCOMPARE(double(b.flag_bytes), flags);
  QVERIFY(b.symmetricLayoutBytes() < 1.001 * expected);
}

// EC = ceil(f S / E), padded up to a multiple of bM; the cells follow the padded capacity.
void TestFlashMemory::capacityFactor_data() {
  QTest::addColumn<double>("factor");
  QTest::addColumn<int>("ec");
  QTest::addColumn<int>("padded");
  // 4K tokens, 16 experts: 256 at factor 1.
  QTest::newRow("0.25") << 0.25 << 64 << 128;
  QTest::newRow("0.5") << 0.5 << 128 << 128;
  QTest::newRow("1.0") << 1.0 << 256 << 256;
  QTest::newRow("1.1") << 1.1 << 282 << 384;  // 281.6 rounds up
  QTest::newRow("1.25") << 1.25 << 320 << 384;
  QTest::newRow("2.0") << 2.0 << 512 << 512;
}

void TestFlashMemory::capacityFactor() {
  QFETCH(double, factor);
  QFETCH(int, ec);
  QFETCH(int, padded);
  fl::FlashMemoryShape m = tableShape(4096, 16);
  m.capacity_factor = factor;
  const fl::FlashMemoryBreakdown b = fl::flashMemoryBreakdown(m);
  QCOMPARE(b.expert_capacity, std::int64_t{ec});
  QCOMPARE(b.padded_capacity, std::int64_t{padded});
  // 4 rounds-and-buffers x 16 experts x C x 1024 x 4 B; GEMM-0 staging 16 x C x 4096 x 4 B.
  QCOMPARE(b.cell_bytes, std::int64_t{4} * 16 * padded * 1024 * 4);
  QCOMPARE(b.staging_bytes, std::int64_t{16} * padded * 4096 * 4);
}

// flashMemoryFor reads the scenario's keys; k does not change the capacity (Table 6.2
// reports EC = S/E under §6.1's top-2).
void TestFlashMemory::scenarioKeys() {
  fl::Scenario s;
  fl::applyOverrides(s, {"workload.kind=moe_layer", "workload.moe.model=custom", "workload.moe.tokens_per_gpu=8192",
                         "workload.moe.experts=64", "workload.moe.hidden=1024", "workload.moe.expert_ffn=4096",
                         "workload.moe.top_k=2", "workload.moe.dispatch_dtype=fp32", "gpu.tile=128x64"});
  const fl::FlashMemoryShape m = fl::flashMemoryShape(s, 8);
  QCOMPARE(m.tokens, std::int64_t{8192});
  QCOMPARE(m.experts, 64);
  QCOMPARE(m.gpus, 8);
  QCOMPARE(m.element_bytes, 4);
  QCOMPARE(m.tile_m, 128);
  QCOMPARE(m.tile_n, 64);  // scheme.persistent.task_n
  QCOMPARE(m.sms, 132);
  QCOMPARE(compareWithTable(fl::flashMemoryBreakdown(m), *tableRow(8192, 64)), QString());

  fl::Scenario k8 = s;
  fl::applyOverrides(k8, {"workload.moe.top_k=8"});
  const fl::MemoryResults a = fl::flashMemoryFor(s, 8), b = fl::flashMemoryFor(k8, 8);
  QCOMPARE(b.expert_capacity, a.expert_capacity);
  QCOMPARE(b.symmetric_layout_bytes, a.symmetric_layout_bytes);

  fl::applyOverrides(s, {"scheme.persistent.capacity_factor=2", "workload.moe.dispatch_dtype=bf16"});
  const fl::MemoryResults c = fl::flashMemoryFor(s, 8);
  QCOMPARE(c.expert_capacity, std::int64_t{256});
  QCOMPARE(c.token_buffer_bytes, std::int64_t{8192} * 1024 * 2);
}

void TestFlashMemory::badShape_data() {
  QTest::addColumn<QString>("field");
  QTest::newRow("experts") << "experts";
  QTest::newRow("gpus") << "gpus";
  QTest::newRow("tile_m") << "tile_m";
  QTest::newRow("capacity_factor") << "capacity_factor";
}

void TestFlashMemory::badShape() {
  QFETCH(QString, field);
  fl::FlashMemoryShape m;
  if (field == "experts") m.experts = 0;
  if (field == "gpus") m.gpus = 0;
  if (field == "tile_m") m.tile_m = 0;
  if (field == "capacity_factor") m.capacity_factor = 0;
  const fl::InputError e = fl::test::expectError([&] { fl::flashMemoryOverhead(m); });
  QCOMPARE(QString::fromStdString(e.keyPath()), "flash_memory." + field);
  QVERIFY(e.expected().find("at least") != std::string::npos);
}

// The bundled scenario's sweep is Table 6.2: 3 token counts x 4 expert counts on 8 GPUs.
void TestFlashMemory::bundledSweepReproducesTable() {
  const fl::Scenario base =
      fl::loadScenario(std::string(FABRICLAB_SCENARIOS) + "/flashdmoe-memory-overhead.yaml");
  QCOMPARE(base.topology.gpus, 8);
  QCOMPARE(base.scheme.fusion, fl::MoeFusion::Persistent);
  const auto points = fl::sweepPoints(base);
  QCOMPARE(points.size(), kTable62.size());
  std::array<bool, 12> seen{};
  for (const auto& settings : points) {
    const fl::Scenario s = fl::sweepPointScenario(base, settings);
    const TableRow* row = tableRow(s.workload.moe.tokens_per_gpu, s.workload.moe.experts);
    QVERIFY2(row, qPrintable(QString("no Table 6.2 row for %1 tokens, %2 experts")
                                 .arg(s.workload.moe.tokens_per_gpu).arg(s.workload.moe.experts)));
    seen[row - kTable62.data()] = true;
    const fl::FlashMemoryBreakdown b = fl::flashMemoryBreakdown(fl::flashMemoryShape(s, s.topology.gpus));
    QCOMPARE(compareWithTable(b, *row), QString());
    const fl::MemoryResults r = fl::flashMemoryFor(s, s.topology.gpus);
    QCOMPARE(r.expert_capacity, std::int64_t{row->ec});
    QCOMPARE(r.symmetric_layout_bytes + r.bookkeeping_bytes, b.symmetricLayoutBytes() + b.bookkeepingBytes());
  }
  for (bool v : seen) QVERIFY(v);
}

QTEST_GUILESS_MAIN(TestFlashMemory)
#include "test_flash_memory.moc"
