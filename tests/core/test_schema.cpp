// The schema (key paths, defaults, text access, single-key errors), cross-field
// validation, endpoint counts and the generated docs/scenario.md. Expected values are
// hand-computed closed forms, never the code's own output.
#include <QtTest>

#include <functional>

#include "scenario/scenario_io.h"
#include "scenario/schema.h"
#include "scenario/sweep.h"
#include "scenario/validate.h"
#include "topology/presets.h"

using Mutator = std::function<void(fl::Scenario&)>;
Q_DECLARE_METATYPE(Mutator)

#include "../common/input_error_helpers.h"

namespace {
const QString kData = QStringLiteral(FABRICLAB_TEST_DATA);

using fl::test::expectError;
using fl::test::loadGood;
}  // namespace

class TestSchema : public QObject {
  Q_OBJECT

 private slots:
  void contractKeys();
  void defaults_data();
  void defaults();
  void getSetRoundTrip();
  void setValue_data();
  void setValue();
  void describe_data();
  void describe();
  void setValueErrors_data();
  void setValueErrors();
  void validation_data();
  void validation();
  void endpointCount_data();
  void endpointCount();
  void docsExampleLoads();
  void docsUpToDate();
};

// The key paths users script: a public contract (brief §2).
void TestSchema::contractKeys() {
  const char* keys[] = {
      "topology.kind", "topology.preset", "topology.gpus", "topology.switches", "topology.links_per_gpu",
      "topology.switch_ports", "topology.link.bandwidth", "topology.link.latency", "topology.link.efficiency",
      "topology.rows", "topology.cols", "topology.wafers.rows", "topology.wafers.cols",
      "topology.wafers.border_bandwidth", "topology.wafers.border_latency", "topology.die_injection_bandwidth",
      "topology.levels", "network.flit", "network.header_flits", "network.address_flits",
      "network.byte_enable_flits", "network.max_packet_payload", "network.packet_payload",
      "network.virtual_channels", "network.vc_depth_flits", "network.switch.latency",
      "network.switch.reduction_buffer", "network.switch.reduction_throughput", "network.outstanding_requests",
      "network.acknowledged_writes", "workload.kind", "workload.collective.op", "workload.collective.algorithm",
      "workload.collective.size", "workload.collective.nvls_window", "workload.collective.source", "workload.collective.destination",
      "workload.collective.matrix", "workload.collective.skew", "workload.traffic.pattern",
      "workload.traffic.load", "workload.traffic.duration", "workload.traffic.warmup",
      "workload.traffic.hotspot_fraction", "workload.traffic.hotspots", "run.seed", "run.bin", "run.threads",
      "run.partitions", "run.time_limit", "run.memory_limit", "run.jobs", "name", "description",
      // MoE expert parallelism (core/gpu, core/moe)
      "gpu.preset", "gpu.sms", "gpu.tensor_efficiency", "gpu.hbm_bandwidth", "gpu.sm_comm_bandwidth", "gpu.tile", "workload.moe.model",
      "workload.moe.tokens_per_gpu", "workload.moe.hidden", "workload.moe.expert_ffn", "workload.moe.experts",
      "workload.moe.top_k", "workload.moe.dispatch_dtype", "workload.moe.combine_dtype", "workload.moe.placement",
      "workload.moe.routing.distribution", "workload.moe.routing.sigma", "workload.moe.routing.alpha",
      "workload.moe.routing.trace", "scheme.communication", "scheme.fusion", "scheme.dysharp.al_tlb_entries",
      "scheme.dysharp.al_table_latency",
      // token pipelines and fusion schemes (core/pipeline)
      "scheme.dysharp.ld_reduce_in_flight", "scheme.dysharp.st_in_flight", "scheme.comm_sms", "scheme.launch.baseline", "scheme.launch.kernels", "scheme.launch.overhead",
      "scheme.token_centric.dispatch_sms", "scheme.token_centric.gemm1_sms", "scheme.token_centric.gemm2_sms",
      "scheme.token_centric.combine_sms", "scheme.token_centric.tile_tokens", "scheme.token_centric.ts_table_entries",
      "scheme.token_centric.or_table_entries", "scheme.token_centric.overflow_latency",
      "scheme.persistent.payload_efficient", "scheme.persistent.capacity_factor", "scheme.persistent.task_n",
      "scheme.stragglers.start_jitter_distribution", "scheme.stragglers.start_jitter",
      "scheme.stragglers.task_noise_distribution", "scheme.stragglers.task_noise", "scheme.stragglers.steps",
      // cross-datacenter MoE (HybridEP, core/xdc)
      "workload.xdc.model", "workload.xdc.hidden", "workload.xdc.experts", "workload.xdc.expert_bytes",
      "workload.xdc.top_k", "workload.xdc.tokens", "workload.xdc.data_bytes", "workload.xdc.layers",
      "workload.xdc.pre_expert_ns", "scheme.ep", "scheme.hybrid.domains", "scheme.hybrid.compression_ratio",
      "scheme.hybrid.fusion",
      "workload.xdc.pass", "workload.xdc.dense_bytes", "workload.xdc.grad_overlap",
      // CAIS merge units and tensor-parallel layers (core/network/merge_unit, core/tp)
      "network.switch.merge_table", "network.switch.merge_timeout", "network.switch.merge_records",
      "network.switch.merging", "workload.collective.stagger", "workload.tp.model", "workload.tp.hidden",
      "workload.tp.ffn_hidden", "workload.tp.heads", "workload.tp.seq_len", "workload.tp.batch", "workload.tp.phase",
      "workload.tp.layers", "workload.tp.kernel_offset", "workload.tp.tb_noise_cv", "workload.tp.rs_sm_fraction",
      "workload.tp.throttle_on", "workload.tp.throttle_off", "workload.tp.row_order", "workload.tp.load_in_flight",
      "scheme.tp",
      // wafer-scale inference (core/netmodel, core/mapping, core/wsc, core/balance)
      "network.model", "workload.wsc.model", "workload.wsc.hidden", "workload.wsc.expert_ffn", "workload.wsc.experts",
      "workload.wsc.top_k", "workload.wsc.moe_layers", "workload.wsc.tp", "workload.wsc.tokens_per_group", "workload.wsc.stage",
      "workload.wsc.attention_params", "workload.wsc.kv_bytes_per_token", "workload.wsc.context", "workload.wsc.prefill_share",
      "workload.wsc.all_gather", "workload.wsc.gating", "workload.wsc.zipf_s", "workload.wsc.trace",
      "workload.wsc.iterations", "workload.wsc.micro_batches", "workload.wsc.hot_threshold",
      "workload.wsc.hot_threshold_kind",
      "workload.wsc.expert_placement", "workload.wsc.expert_dies", "workload.wsc.expert_slots", "mapping.kind",
      "mapping.groups", "mapping.ftds", "balancer.kind", "balancer.load", "balancer.zipf_s", "balancer.warmup",
      "balancer.period", "balancer.shadow_slots", "balancer.alpha", "balancer.interval", "balancer.window",
      "balancer.migration_priority",
      // Follow One from a scenario or the CLI (scenario/follow_selector.h)
      "run.follow"};
  for (const char* k : keys) QVERIFY2(fl::findParam(k), k);
  QCOMPARE(fl::schema().size(), std::size(keys));  // and nothing else
  for (const fl::ParamSpec& p : fl::schema()) QVERIFY2(!p.doc.empty() && !p.type.empty(), p.path.c_str());
  QCOMPARE(fl::findParam("workload.collective.op")->choices,
           (std::vector<std::string>{"p2p", "all_reduce", "reduce_scatter", "all_gather", "all_to_all", "all_to_all_v"}));
}

void TestSchema::defaults_data() {
  QTest::addColumn<QString>("path");
  QTest::addColumn<QString>("text");
  const char* rows[][2] = {
      {"topology.kind", "nvswitch"}, {"topology.preset", "none"}, {"topology.gpus", "8"},
      {"topology.switches", "4"}, {"topology.links_per_gpu", "18"}, {"topology.switch_ports", "64"},
      {"topology.link.bandwidth", "25 GB/s"}, {"topology.link.latency", "250 ns"},
      {"topology.link.efficiency", "1"}, {"topology.levels", "[]"}, {"network.flit", "16 B"},
      {"network.max_packet_payload", "256 B"}, {"network.packet_payload", "256 B"},
      {"network.switch.reduction_buffer", "64 KiB"}, {"network.switch.latency", "0 ns"},
      {"network.acknowledged_writes", "false"}, {"workload.collective.size", "64 MiB"}, {"workload.collective.nvls_window", "1 MiB"},
      {"workload.collective.algorithm", "ring"}, {"workload.traffic.load", "0.3"},
      {"workload.traffic.duration", "20 us"}, {"workload.traffic.warmup", "2 us"},
      {"workload.traffic.hotspots", "[0]"}, {"run.bin", "1 us"}, {"run.time_limit", "10 s"}, {"run.seed", "1"}};
  for (auto& r : rows) QTest::newRow(r[0]) << r[0] << r[1];
}

void TestSchema::defaults() {
  QFETCH(QString, path);
  QFETCH(QString, text);
  QCOMPARE(QString::fromStdString(fl::findParam(path.toStdString())->defaultText), text);
  QCOMPARE(QString::fromStdString(fl::getValue(fl::Scenario{}, path.toStdString())), text);
}

// Writing back what getValue shows never changes a scenario (the GUI relies on it).
void TestSchema::getSetRoundTrip() {
  for (const char* file : {"dgx_h100_nvls.yaml", "mesh_two_wafers.yaml", "hierarchy_three_levels.yaml"}) {
    const fl::Scenario original = loadGood(file);
    fl::Scenario s = original;
    for (const fl::ParamSpec& p : fl::schema()) fl::setValue(s, p.path, fl::getValue(s, p.path));
    QVERIFY2(s == original, file);
  }
}

void TestSchema::setValue_data() {
  QTest::addColumn<QString>("path");
  QTest::addColumn<QString>("text");
  QTest::addColumn<QString>("canonical");
  QTest::newRow("bits") << "topology.link.bandwidth" << "10 Gb/s" << "1.25 GB/s";
  QTest::newRow("binary size") << "network.switch.reduction_buffer" << "0.5 MiB" << "512 KiB";
  QTest::newRow("percent") << "workload.traffic.load" << "80 %" << "0.8";
  QTest::newRow("bool yes") << "network.acknowledged_writes" << "yes" << "true";
  QTest::newRow("seed max") << "run.seed" << "18446744073709551615" << "18446744073709551615";
  QTest::newRow("hotspots") << "workload.traffic.hotspots" << "[1,3]" << "[1, 3]";
  QTest::newRow("levels") << "topology.levels" << "[{count: 2, bandwidth: 1000 MB/s, latency: 1000 ns}]"
                          << "[{name: level0, count: 2, bandwidth: 1 GB/s, latency: 1 us}]";
  QTest::newRow("matrix") << "workload.collective.matrix" << "[[0, 1024 B], [1 MB, 0]]"
                          << "[[0 B, 1 KiB], [1 MB, 0 B]]";
  QTest::newRow("enum") << "workload.collective.op" << " all_gather " << "all_gather";
  QTest::newRow("bandwidth floor") << "topology.link.bandwidth" << "1 Mb/s" << "125 KB/s";
  QTest::newRow("bandwidth ceiling") << "gpu.hbm_bandwidth" << "1000 TB/s" << "1000 TB/s";
  QTest::newRow("0: no limit") << "gpu.sm_comm_bandwidth" << "0" << "0 B/s";
}

void TestSchema::setValue() {
  QFETCH(QString, path);
  QFETCH(QString, text);
  QFETCH(QString, canonical);
  fl::Scenario s;
  fl::setValue(s, path.toStdString(), text.toStdString());
  QCOMPARE(QString::fromStdString(fl::getValue(s, path.toStdString())), canonical);
}

// A 0 that stands for a setting ("no limit") is shown with its meaning; other values,
// and zeros of keys where 0 is just nothing, are shown as they are.
void TestSchema::describe_data() {
  QTest::addColumn<QString>("path");
  QTest::addColumn<QString>("text");
  QTest::addColumn<QString>("suffix");  // after getValue()'s text
  QTest::newRow("bandwidth 0: no limit") << "gpu.sm_comm_bandwidth" << "0 GB/s" << " (no limit)";
  QTest::newRow("bandwidth set") << "gpu.sm_comm_bandwidth" << "14 GB/s" << "";
  QTest::newRow("time 0: falls back") << "topology.wafers.border_latency" << "0 ns" << " (as topology.link.latency)";
  QTest::newRow("integer 0: automatic") << "run.partitions" << "0" << " (automatic)";
  QTest::newRow("integer set") << "run.partitions" << "10" << "";
  QTest::newRow("float 0: uniform") << "workload.collective.skew" << "0" << " (uniform)";
  QTest::newRow("float below 1") << "workload.collective.skew" << "0.5" << "";
  QTest::newRow("plain zero") << "network.switch.reduction_buffer" << "0 B" << "";
}

void TestSchema::describe() {
  QFETCH(QString, path);
  QFETCH(QString, text);
  QFETCH(QString, suffix);
  fl::Scenario s;
  fl::setValue(s, path.toStdString(), text.toStdString());
  const std::string value = fl::getValue(s, path.toStdString());
  const fl::ParamSpec* spec = fl::findParam(path.toStdString());
  QVERIFY(spec);
  QCOMPARE(QString::fromStdString(spec->describe(value)), QString::fromStdString(value) + suffix);
}

void TestSchema::setValueErrors_data() {
  QTest::addColumn<QString>("path");
  QTest::addColumn<QString>("text");
  QTest::addColumn<QString>("keyPath");
  QTest::addColumn<QString>("message");
  QTest::newRow("below range") << "topology.gpus" << "1" << "topology.gpus" << "an integer from 2 to 1000000";
  QTest::newRow("bare number") << "topology.link.bandwidth" << "450" << "topology.link.bandwidth"
                               << "(add a unit: '450 GB/s'?)";
  QTest::newRow("enum typo") << "workload.collective.algorithm" << "nvsl" << "workload.collective.algorithm"
                             << "expected one of ring, nvls, direct, cais, found 'nvsl' (did you mean 'nvls'?)";
  QTest::newRow("unknown key") << "topology.bandwith" << "1 GB/s" << "topology.bandwith"
                               << "did you mean 'topology.link.bandwidth'?";
  QTest::newRow("list element") << "workload.traffic.hotspots" << "[0, x]" << "workload.traffic.hotspots[1]"
                                << "found 'x'";
  QTest::newRow("level field missing") << "topology.levels" << "[{count: 2}]" << "topology.levels[0].bandwidth"
                                       << "found nothing";
  QTest::newRow("no such level") << "topology.levels[3].count" << "2" << "topology.levels[3].count"
                                 << "expected a level index below 0, found 3";
  QTest::newRow("efficiency zero") << "topology.link.efficiency" << "0" << "topology.link.efficiency"
                                   << "greater than 0 and at most 1";
  QTest::newRow("flow list broken") << "workload.traffic.hotspots" << "[0, 1" << "workload.traffic.hotspots"
                                    << "a YAML flow list";
  QTest::newRow("bandwidth below 1 Mb/s") << "gpu.hbm_bandwidth" << "1 B/s" << "gpu.hbm_bandwidth"
                                          << "expected a bandwidth of at least 1 Mb/s, found '1 B/s'";
  QTest::newRow("bandwidth of 1e18 B/s") << "topology.link.bandwidth" << "1e18 B/s" << "topology.link.bandwidth"
                                         << "expected a bandwidth of at most 1000 TB/s, found '1e18 B/s'";
  QTest::newRow("bandwidth with a 0 of its own")
      << "gpu.sm_comm_bandwidth" << "100 B/s" << "gpu.sm_comm_bandwidth"
      << "expected a bandwidth of 0 or at least 1 Mb/s, found '100 B/s'";
  QTest::newRow("level bandwidth below 1 Mb/s")
      << "topology.levels" << "[{count: 2, bandwidth: 999 Kb/s, latency: 0 ns}]" << "topology.levels[0].bandwidth"
      << "expected a bandwidth of at least 1 Mb/s, found '999 Kb/s'";
  QTest::newRow("unknown level field") << "topology.levels[0].speed" << "1" << "topology.levels[0].speed"
                                       << "expected a field of a level (name, count, bandwidth, latency, uplinks), found 'speed'";
  QTest::newRow("level field typo") << "topology.levels[0].latenc" << "1 ns" << "topology.levels[0].latenc"
                                    << "(did you mean 'latency'?)";
  QTest::newRow("name of three lines") << "name" << "a\nb\nc" << "name"
                                       << "expected a one-line name, found a name spanning 3 lines (an unclosed quote?)";
  QTest::newRow("control character escaped") << "workload.collective.op" << "all\x01" << "workload.collective.op"
                                             << "found 'all\\x01'";
}

void TestSchema::setValueErrors() {
  QFETCH(QString, path);
  QFETCH(QString, text);
  QFETCH(QString, keyPath);
  QFETCH(QString, message);
  fl::Scenario s;
  const fl::InputError e = expectError([&] { fl::setValue(s, path.toStdString(), text.toStdString(), {"gui", 0, 0}); });
  QCOMPARE(QString::fromStdString(e.keyPath()), keyPath);
  QCOMPARE(e.where().file, std::string("gui"));
  QVERIFY2(QString(e.what()).contains(message), e.what());
}

void TestSchema::validation_data() {
  QTest::addColumn<Mutator>("change");
  QTest::addColumn<QString>("keyPath");  // "" = valid
  using S = fl::Scenario;
  QTest::newRow("defaults") << Mutator([](S&) {}) << "";
  QTest::newRow("links < switches") << Mutator([](S& s) { s.topology.links_per_gpu = 3; }) << "topology.links_per_gpu";
  // 16 GPUs x ceil(18/4) = 80 ports > 64; 12 x 5 = 60 fits.
  QTest::newRow("ports exceeded") << Mutator([](S& s) { s.topology.gpus = 16; }) << "topology.links_per_gpu";
  QTest::newRow("ports fit") << Mutator([](S& s) { s.topology.gpus = 12; }) << "";
  QTest::newRow("nvl32 exact fit") << Mutator([](S& s) { s.topology.gpus = 32, s.topology.switches = 9; }) << "";
  QTest::newRow("nvl72 one port short")
      << Mutator([](S& s) { fl::applyTopologyPreset("gb200-nvl72", s.topology); s.topology.switch_ports = 71; })
      << "topology.links_per_gpu";
  // 4 KiB payload: 16 NVLink packets x 3 framing + 256 data = 304 flits.
  QTest::newRow("packet 304 > 256") << Mutator([](S& s) { s.network.packet_payload = 4096; }) << "network.packet_payload";
  QTest::newRow("packet 304 = 304")
      << Mutator([](S& s) { s.network.packet_payload = 4096, s.network.vc_depth_flits = 304; }) << "";
  QTest::newRow("odd vcs") << Mutator([](S& s) { s.network.virtual_channels = 3; }) << "network.virtual_channels";
  QTest::newRow("4 vcs") << Mutator([](S& s) { s.network.virtual_channels = 4; }) << "";
  QTest::newRow("single die") << Mutator([](S& s) { s.topology.kind = fl::TopologyKind::Mesh, s.topology.rows = 1, s.topology.cols = 1; })
                              << "topology.rows";
  QTest::newRow("two wafers of one die")
      << Mutator([](S& s) { s.topology.kind = fl::TopologyKind::Mesh, s.topology.rows = s.topology.cols = 1, s.topology.wafer_cols = 2; })
      << "";
  QTest::newRow("hierarchy 20M") << Mutator([](S& s) {
    s.topology.kind = fl::TopologyKind::Hierarchy;
    s.topology.levels = {{"a", 10000, 1e9, 0}, {"b", 1000, 1e9, 0}, {"c", 2, 1e9, 0}};
  }) << "topology.levels";
  QTest::newRow("hierarchy 10M") << Mutator([](S& s) {
    s.topology.kind = fl::TopologyKind::Hierarchy;
    s.topology.levels = {{"a", 10000, 1e9, 0}, {"b", 1000, 1e9, 0}};
  }) << "";
  QTest::newRow("nvls on hierarchy") << Mutator([](S& s) {
    s.topology.kind = fl::TopologyKind::Hierarchy;
    s.topology.levels = {{"a", 4, 1e9, 0}};
    s.workload.collective.algorithm = fl::CollectiveAlgorithm::Nvls;
  }) << "workload.collective.algorithm";
  QTest::newRow("direct all_reduce") << Mutator([](S& s) { s.workload.collective.algorithm = fl::CollectiveAlgorithm::Direct; })
                                     << "workload.collective.algorithm";
  QTest::newRow("matrix 8x8") << Mutator([](S& s) {
    s.workload.collective.op = fl::CollectiveOp::AllToAllV;
    s.workload.collective.algorithm = fl::CollectiveAlgorithm::Direct;
    s.workload.collective.matrix.assign(8, std::vector<std::int64_t>(8, 1024));
  }) << "";
  QTest::newRow("traffic ignores collective") << Mutator([](S& s) {
    s.workload.kind = fl::WorkloadKind::Traffic;
    s.workload.collective.algorithm = fl::CollectiveAlgorithm::Direct;
  }) << "";
  QTest::newRow("hotspot 8 of 8") << Mutator([](S& s) { s.workload.kind = fl::WorkloadKind::Traffic, s.workload.traffic.hotspots = {8}; })
                                  << "workload.traffic.hotspots[0]";
  QTest::newRow("zero bin") << Mutator([](S& s) { s.run.bin = 0; }) << "run.bin";
}

void TestSchema::validation() {
  QFETCH(Mutator, change);
  QFETCH(QString, keyPath);
  fl::Scenario s;
  change(s);
  try {
    fl::validateScenario(s);
    QVERIFY2(keyPath.isEmpty(), "expected an error");
  } catch (const fl::InputError& e) {
    QVERIFY2(QString::fromStdString(e.keyPath()) == keyPath, e.what());
  }
}

void TestSchema::endpointCount_data() {
  QTest::addColumn<QString>("yaml");
  QTest::addColumn<int>("count");
  QTest::newRow("nvl72") << "topology: {preset: gb200-nvl72}" << 72;
  QTest::newRow("mesh 3x4 on 2x3 wafers") << "topology: {kind: mesh, rows: 3, cols: 4, wafers: {rows: 2, cols: 3}}" << 72;
  QTest::newRow("hierarchy 5x6x7")
      << "topology: {kind: hierarchy, levels: [{count: 5, bandwidth: 1 GB/s, latency: 0}, "
         "{count: 6, bandwidth: 1 GB/s, latency: 0}, {count: 7, bandwidth: 1 GB/s, latency: 0}]}"
      << 210;
}

void TestSchema::endpointCount() {
  QFETCH(QString, yaml);
  QFETCH(int, count);
  QCOMPARE(fl::endpointCount(fl::parseScenario("fabriclab: 1\n" + yaml.toStdString(), "t").topology), count);
}

// The example at the top of docs/scenario.md is a valid scenario.
void TestSchema::docsExampleLoads() {
  const QString md = QString::fromStdString(fl::schemaMarkdown());
  const qsizetype start = md.indexOf("```yaml\n") + 8, end = md.indexOf("```", start);
  const fl::Scenario s = fl::parseScenario(md.mid(start, end - start).toStdString(), "docs");
  QCOMPARE(s.topology.link_latency, fl::Time(300'000));
  QCOMPARE(fl::sweepPoints(s).size(), size_t(3));
}

// docs/scenario.md is generated; FABRICLAB_REGENERATE_DOCS=1 rewrites it.
void TestSchema::docsUpToDate() {
  const QString path = QStringLiteral(FABRICLAB_SOURCE_DIR) + "/docs/scenario.md";
  const QByteArray want = QByteArray::fromStdString(fl::schemaMarkdown());
  if (qEnvironmentVariableIntValue("FABRICLAB_REGENERATE_DOCS") == 1) {
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
    out.write(want);
  }
  QFile in(path);
  QVERIFY2(in.open(QIODevice::ReadOnly), qPrintable(path + " missing: run with FABRICLAB_REGENERATE_DOCS=1"));
  QVERIFY2(in.readAll() == want,
           "docs/scenario.md differs from fl::schemaMarkdown(): run test_schema with FABRICLAB_REGENERATE_DOCS=1");
}

QTEST_GUILESS_MAIN(TestSchema)
#include "test_schema.moc"
