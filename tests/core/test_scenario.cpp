// Scenario files and overrides: presets, loading, saving, --set, sweeps and the error
// locations of every file in tests/data/bad/ (schema and validation: test_schema.cpp).
// Expected values come from hardware.md, the brief's closed forms and hand counts.
#include <sys/stat.h>
#include <unistd.h>

#include <QtTest>
#include <optional>

#include "scenario/scenario_io.h"
#include "scenario/story.h"
#include "scenario/schema.h"
#include "scenario/sweep.h"
#include "scenario/validate.h"
#include "topology/presets.h"

#include "../common/input_error_helpers.h"

namespace {
const QString kData = QStringLiteral(FABRICLAB_TEST_DATA);

using fl::test::expectError;
using fl::test::loadGood;
}  // namespace

class TestScenario : public QObject {
  Q_OBJECT

 private slots:
  void presets_data();
  void presets();
  void presetCalibration();
  void presetKeyOrder_data();
  void presetKeyOrder();
  void presetChangeKeepsExplicitKeys();
  void goodFiles_data();
  void goodFiles();
  void goodFileContents();
  void storyAndLabels();
  void storyFollowsAList();
  void sweepExpansion();
  void savedFileIsShort();
  void roundTripAwkwardText();
  void savedKeysFollowKind();
  void saveToFile();
  void unreadableFile_data();
  void unreadableFile();
  void badFiles_data();
  void badFiles();
  void overrideErrors_data();
  void overrideErrors();
  void overrideSweptKey_data();
  void overrideSweptKey();
  void overridesApply();
};

// hardware.md rows: HGX/DGX H100, GH200 NVL32 (seed 000 §V-A), 64-GPU node (seed 000
// §VI-C1), GB200 NVL72 + B200 NVLink 5; 250 ns from the NVLink latency row.
void TestScenario::presets_data() {
  QTest::addColumn<QString>("name");
  QTest::addColumn<int>("gpus");
  QTest::addColumn<int>("switches");
  QTest::addColumn<int>("links");
  QTest::addColumn<int>("ports");
  QTest::addColumn<double>("bandwidth");
  QTest::newRow("dgx-h100") << "dgx-h100" << 8 << 4 << 18 << 64 << 25e9;
  QTest::newRow("gh200-nvl32") << "gh200-nvl32" << 32 << 9 << 18 << 64 << 25e9;
  QTest::newRow("nvl64") << "nvl64" << 64 << 18 << 18 << 64 << 25e9;
  QTest::newRow("gb200-nvl72") << "gb200-nvl72" << 72 << 18 << 18 << 72 << 50e9;
}

void TestScenario::presets() {
  QFETCH(QString, name);
  QFETCH(int, gpus);
  QFETCH(int, switches);
  QFETCH(int, links);
  QFETCH(int, ports);
  QFETCH(double, bandwidth);
  const fl::Scenario s = fl::parseScenario("fabriclab: 1\ntopology: {preset: " + name.toStdString() + "}\n", "t");
  QCOMPARE(s.topology.kind, fl::TopologyKind::NvSwitch);
  QCOMPARE(s.topology.gpus, gpus);
  QCOMPARE(s.topology.switches, switches);
  QCOMPARE(s.topology.links_per_gpu, links);
  QCOMPARE(s.topology.switch_ports, ports);
  QCOMPARE(s.topology.link_bandwidth, bandwidth);
  QCOMPARE(s.topology.link_latency, fl::Time(250'000));
  QCOMPARE(s.topology.link_efficiency, 0.98);
  QVERIFY(!fl::topologyPresetSummary(name.toStdString()).empty());
}

// 256 B packets = 1 header + 1 address + 1 byte-enable + 16 data flits: 16/19 of the wire;
// x 18 x 25 GB/s x 0.98 must land in the measured 370-377 GB/s (hardware.md).
void TestScenario::presetCalibration() {
  fl::Scenario s;
  fl::setValue(s, "topology.preset", "dgx-h100");
  const auto& n = s.network;
  const double data = double(n.max_packet_payload) / n.flit_bytes;
  const double wire = data + n.header_flits + n.address_flits + n.byte_enable_flits;
  QCOMPARE(wire, 19.0);
  const double usable = s.topology.links_per_gpu * s.topology.link_bandwidth * data / wire * s.topology.link_efficiency;
  QVERIFY2(usable >= 370e9 && usable <= 377e9, qPrintable(QString::number(usable)));
}

void TestScenario::presetKeyOrder_data() {
  QTest::addColumn<QString>("yaml");
  QTest::newRow("preset first") << "fabriclab: 1\ntopology:\n  preset: dgx-h100\n  gpus: 12\n  link: {bandwidth: 50 GB/s}\n";
  QTest::newRow("preset last") << "fabriclab: 1\ntopology:\n  gpus: 12\n  link: {bandwidth: 50 GB/s}\n  preset: dgx-h100\n";
  QTest::newRow("preset between") << "fabriclab: 1\ntopology:\n  gpus: 12\n  preset: dgx-h100\n  link: {bandwidth: 50 GB/s}\n";
}

void TestScenario::presetKeyOrder() {
  QFETCH(QString, yaml);
  const fl::Scenario s = fl::parseScenario(yaml.toStdString(), "t");
  QCOMPARE(s.topology.gpus, 12);
  QCOMPARE(s.topology.link_bandwidth, 50e9);
  QCOMPARE(s.topology.switches, 4);  // from the preset
  QCOMPARE(s.topology.link_efficiency, 0.98);
}

void TestScenario::presetChangeKeepsExplicitKeys() {
  fl::Scenario s = loadGood("dgx_h100_nvls.yaml");  // explicit link latency 300 ns
  fl::applyOverride(s, "topology.preset=gb200-nvl72");
  QCOMPARE(s.topology.gpus, 72);
  QCOMPARE(s.topology.switch_ports, 72);
  QCOMPARE(s.topology.link_bandwidth, 50e9);
  QCOMPARE(s.topology.link_latency, fl::Time(300'000));
  fl::applyOverride(s, "topology.preset=none");
  QCOMPARE(s.topology.gpus, 8);
  QCOMPARE(s.topology.link_efficiency, 1.0);
  QCOMPARE(s.topology.link_latency, fl::Time(300'000));
}

void TestScenario::goodFiles_data() {
  QTest::addColumn<QString>("file");
  const QStringList files = QDir(kData + "/good").entryList({"*.yaml"}, QDir::Files, QDir::Name);
  QVERIFY(files.size() >= 4);
  for (const QString& f : files) QTest::newRow(qPrintable(f)) << kData + "/good/" + f;
}

// load -> save -> load gives an equal Scenario, and saving is stable.
void TestScenario::goodFiles() {
  QFETCH(QString, file);
  const fl::Scenario s = fl::loadScenario(file.toStdString());
  const std::string text = fl::saveScenarioText(s);
  const fl::Scenario again = fl::parseScenario(text, "saved");
  QVERIFY2(again == s, text.c_str());
  QCOMPARE(fl::saveScenarioText(again), text);
}

void TestScenario::goodFileContents() {
  const fl::Scenario dgx = loadGood("dgx_h100_nvls.yaml");
  QCOMPARE(dgx.topology.link_latency, fl::Time(300'000));
  QCOMPARE(dgx.topology.gpus, 8);
  QCOMPARE(dgx.workload.collective.algorithm, fl::CollectiveAlgorithm::Nvls);
  QCOMPARE(dgx.workload.collective.size, std::int64_t(256) << 20);
  QCOMPARE(dgx.run.seed, std::uint64_t(42));
  const fl::Scenario mesh = loadGood("mesh_two_wafers.yaml");
  QCOMPARE(fl::endpointCount(mesh.topology), 50);  // 5 x 5 dies x 1 x 2 wafers
  QCOMPARE(mesh.topology.border_bandwidth, 9e12);
  QCOMPARE(mesh.workload.traffic.load, 0.5);
  QCOMPARE(mesh.workload.traffic.hotspots, (std::vector<int>{0, 49}));
  QCOMPARE(mesh.run.bin, fl::Time(100'000));
  const fl::Scenario h = loadGood("hierarchy_three_levels.yaml");
  QCOMPARE(fl::endpointCount(h.topology), 64);  // 4 x 2 x 8
  QCOMPARE(h.topology.levels.size(), size_t(3));
  QCOMPARE(h.topology.levels[0].bandwidth, 1.25e9);  // 10 Gb/s / 8
  QCOMPARE(h.topology.levels[0].latency, fl::Time(5'000'000'000));
  QCOMPARE(h.topology.levels[2].name, std::string("gpu"));
  QCOMPARE(h.workload.collective.skew, 1.2);
}

// Sweep labels name the points; story steps keep their actions in order.
void TestScenario::storyAndLabels() {
  const fl::Scenario s = loadGood("story_and_labels.yaml");
  QCOMPARE(s.sweep[0].labels, (std::vector<std::string>{"Ring", "NVLS"}));
  QCOMPARE(fl::sweepPointLabels(s), (std::vector<std::string>{"Ring", "NVLS"}));
  QCOMPARE(s.story.size(), size_t(3));
  QCOMPARE(s.story[0].point, std::string("Ring"));
  QCOMPARE(s.story[0].dock, std::string("Plots"));
  QCOMPARE(fl::storyPointIndex(s, s.story[0].point), 0);
  QCOMPARE(fl::storyPointIndex(s, s.story[1].point), 1);
  QCOMPARE(s.story[1].at, fl::Time(20'000'000));
  QCOMPARE(s.story[1].direction, std::string("up"));
  QCOMPARE(s.story[2].phase, std::string("all_reduce"));
  QCOMPARE(s.story[2].at, fl::Time(-1));
  // Without labels: "key = value" per axis, joined.
  fl::Scenario plain = s;
  plain.sweep[0].labels.clear();
  QCOMPARE(fl::sweepPointLabels(plain)[1], std::string("algorithm = nvls"));
  QCOMPARE(fl::storyPointIndex(plain, "NVLS"), -1);
  QCOMPARE(fl::sweepPointLabels(fl::Scenario{}), (std::vector<std::string>{"single run"}));
}

// A step's follow takes a list, as run.follow does: kept as "a; b" (the one-line form
// reads the same), every selector checked against the step's workload, and saved as a
// list that reads back the same.
void TestScenario::storyFollowsAList() {
  const fl::Scenario s = loadGood("story_follow_two.yaml");
  QCOMPARE(s.story.size(), size_t(2));
  QCOMPARE(s.story[0].follow, std::string("gpu 2, piece 1; gpu 5"));
  QCOMPARE(s.story[1].follow, s.story[0].follow);
  QVERIFY(fl::storyFollowFits(s, s.story[0]));
  fl::Scenario ring = s;
  ring.workload.collective.algorithm = fl::CollectiveAlgorithm::Ring;  // 'gpu G' is NVLS's word
  QVERIFY(!fl::storyFollowFits(ring, ring.story[0]));
  const std::string saved = fl::saveScenarioText(s);
  QVERIFY2(saved.find("- gpu 2, piece 1") != std::string::npos, saved.c_str());
  const fl::Scenario again = fl::parseScenario(saved, "saved.yaml");
  QCOMPARE(again.story[0].follow, s.story[0].follow);
}

void TestScenario::sweepExpansion() {
  const fl::Scenario s = loadGood("sweep_presets_sizes.yaml");
  QCOMPARE(s.sweep.size(), size_t(2));
  const auto points = fl::sweepPoints(s);
  QCOMPARE(points.size(), size_t(6));
  QCOMPARE(fl::sweepPointCount(s), size_t(6));
  // First axis outermost: point 1 is (dgx-h100, 16 MiB), point 3 is (gb200-nvl72, 1 MiB).
  QCOMPARE(points[1], (fl::SweepSettings{{"topology.preset", "dgx-h100"}, {"workload.collective.size", "16 MiB"}}));
  const fl::Scenario p3 = fl::sweepPointScenario(s, points[3]);
  QCOMPARE(p3.topology.gpus, 72);
  QCOMPARE(p3.topology.link_bandwidth, 50e9);
  QCOMPARE(p3.topology.link_efficiency, 0.95);  // explicit in the file: survives the preset change
  QCOMPARE(p3.workload.collective.size, std::int64_t(1) << 20);
  QVERIFY(p3.sweep.empty());
  QCOMPARE(fl::sweepPoints(fl::Scenario{}).size(), size_t(1));
  // One point alone, by index: axes of 3, 5 and 7 values, the last varying fastest, so
  // point i takes value i / 35 of the first, (i / 7) % 5 of the second, i % 7 of the third.
  fl::Scenario big;
  const std::vector<std::string> keys = {"workload.collective.size", "run.seed", "topology.gpus"};
  const int sizes[3] = {3, 5, 7};
  for (int a = 0; a < 3; ++a) {
    fl::SweepAxis axis;
    axis.key = keys[size_t(a)];
    for (int v = 0; v < sizes[a]; ++v) axis.values.push_back(std::to_string(a * 100 + v));
    big.sweep.push_back(axis);
  }
  for (size_t i : {size_t(0), size_t(1), size_t(7), size_t(36), size_t(104)}) {
    const fl::SweepSettings p = fl::sweepPoint(big, i);
    QCOMPARE(p, (fl::SweepSettings{{keys[0], std::to_string(i / 35)},
                                   {keys[1], std::to_string(100 + (i / 7) % 5)},
                                   {keys[2], std::to_string(200 + i % 7)}}));
  }
}

void TestScenario::savedFileIsShort() {
  const std::string text = fl::saveScenarioText(loadGood("dgx_h100_nvls.yaml"));
  QVERIFY2(text.find("preset: dgx-h100") != std::string::npos, text.c_str());
  QVERIFY2(text.find("latency: 300 ns") != std::string::npos, text.c_str());
  QVERIFY2(text.find("size: 256 MiB") != std::string::npos, text.c_str());
  QVERIFY2(text.find("gpus:") == std::string::npos, text.c_str());
  QVERIFY2(text.find("bandwidth:") == std::string::npos, text.c_str());
  QCOMPARE(fl::saveScenarioText(fl::Scenario{}), std::string("# FabricLab scenario; keys and units: docs/scenario.md\nfabriclab: 1\n"));
}

// Strings YAML would misread, multi-line text and list-valued sweep values survive saving.
void TestScenario::roundTripAwkwardText() {
  fl::Scenario s;
  s.name = "true";
  s.description = "a: b # not a comment\nsecond line\n";
  s.topology.kind = fl::TopologyKind::Hierarchy;
  s.topology.levels = {{"dc, east", 3, 1.25e9, 5'000'000}, {"[gpu]", 4, 25e9, 250'000}};
  s.workload.kind = fl::WorkloadKind::Traffic;
  s.workload.traffic.hotspots = {0, 11};
  s.sweep = {{"workload.traffic.hotspots", {"[0, 3]", "[1]"}}, {"name", {"null", "x: y"}},
             {"topology.levels[1].bandwidth", {"50 GB/s"}}};
  const std::string text = fl::saveScenarioText(s);
  QVERIFY2(fl::parseScenario(text, "saved") == s, text.c_str());
}

// Keys the topology kind does not read are not saved (the loader would refuse them),
// unless topology.kind is swept and some point reads them.
void TestScenario::savedKeysFollowKind() {
  fl::Scenario s;
  s.topology.rows = 4;
  QVERIFY(fl::saveScenarioText(s).find("rows: 4") == std::string::npos);
  s.topology.kind = fl::TopologyKind::Mesh;
  QVERIFY(fl::saveScenarioText(s).find("rows: 4") != std::string::npos);
  s.topology.kind = fl::TopologyKind::NvSwitch;
  s.sweep = {{"topology.kind", {"nvswitch", "mesh"}}};
  const std::string text = fl::saveScenarioText(s);
  QVERIFY2(text.find("rows: 4") != std::string::npos, text.c_str());
  QVERIFY(fl::parseScenario(text, "saved") == s);
}

void TestScenario::saveToFile() {
  QTemporaryDir dir;
  const std::string path = (dir.path() + "/saved.yaml").toStdString();
  const fl::Scenario s = loadGood("hierarchy_three_levels.yaml");
  fl::saveScenario(s, path);
  QVERIFY(fl::loadScenario(path) == s);
  QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);  // no temporary left
  const std::string bad = (dir.path() + "/no/such/dir/x.yaml").toStdString();
  const fl::InputError e = expectError([&] { fl::saveScenario(s, bad); });
  QCOMPARE(e.where().file, bad);
  QCOMPARE(e.expected(), std::string("a writable scenario file"));
  // Saved through a symbolic link: the link stays, the file it names gets the scenario.
  const QString link = dir.path() + "/link.yaml";
  QVERIFY(QFile::link(QString::fromStdString(path), link));
  fl::Scenario changed = s;
  changed.run.seed = 7;
  fl::saveScenario(changed, link.toStdString());
  QVERIFY(QFileInfo(link).isSymLink());
  QVERIFY(fl::loadScenario(path) == changed);
}

void TestScenario::unreadableFile_data() {
  QTest::addColumn<QString>("path");  // @TMP@: a directory of the test's own
  QTest::addColumn<QString>("found");
  QTest::newRow("missing") << "/nonexistent/scenario.yaml" << "no such file";
  QTest::newRow("a directory") << "@TMP@" << "a directory";
  QTest::newRow("behind a directory without permission") << "@TMP@/locked/s.yaml" << "permission denied";
}

void TestScenario::unreadableFile() {
  QFETCH(QString, path);
  QFETCH(QString, found);
  QTemporaryDir dir;
  QVERIFY(QDir(dir.path()).mkdir("locked"));
  QFile file(dir.path() + "/locked/s.yaml");
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write("fabriclab: 1\n");
  file.close();
  const std::string locked = (dir.path() + "/locked").toStdString(), p = path.replace("@TMP@", dir.path()).toStdString();
  QCOMPARE(::chmod(locked.c_str(), 0), 0);
  // Root passes every permission check: read as nobody, as a user would.
  const bool root = ::geteuid() == 0;
  if (root) QCOMPARE(::seteuid(65534), 0);
  std::optional<fl::InputError> e;
  try {
    fl::loadScenario(p);
  } catch (const fl::InputError& error) {
    e = error;
  }
  if (root) QCOMPARE(::seteuid(0), 0);
  QCOMPARE(::chmod(locked.c_str(), 0700), 0);
  QVERIFY(e);
  QCOMPARE(e->where().file, p);
  QCOMPARE(e->expected(), std::string("a readable scenario file"));
  QCOMPARE(QString::fromStdString(e->found()), found);
}

// Each file's first line: "# expect: <key path> line <N>" ("-" = no key path, line 0 =
// no line). The lead's CLI exit-status test reads the same header. Lines after it
// "# message: <text>" each give a part of the message.
void TestScenario::badFiles_data() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<QString>("keyPath");
  QTest::addColumn<int>("line");
  QTest::addColumn<QStringList>("message");
  const QStringList files = QDir(kData + "/bad").entryList({"*.yaml"}, QDir::Files, QDir::Name);
  QVERIFY2(files.size() >= 24, "at least 24 bad-input files");
  const QRegularExpression header(R"(^# expect: (\S+) line (\d+)$)");
  for (const QString& f : files) {
    QFile in(kData + "/bad/" + f);
    QVERIFY(in.open(QIODevice::ReadOnly));
    const auto m = header.match(QString::fromUtf8(in.readLine()).trimmed());
    QVERIFY2(m.hasMatch(), qPrintable(f + ": bad header"));
    QStringList message;
    for (QString line; (line = QString::fromUtf8(in.readLine()).trimmed()).startsWith("# message: ");)
      message << line.mid(11);
    QTest::newRow(qPrintable(f)) << in.fileName() << (m.captured(1) == "-" ? QString() : m.captured(1))
                                 << m.captured(2).toInt() << message;
  }
}

void TestScenario::badFiles() {
  QFETCH(QString, file);
  QFETCH(QString, keyPath);
  QFETCH(int, line);
  QFETCH(QStringList, message);
  const fl::InputError e = expectError([&] { fl::loadScenario(file.toStdString()); });
  QVERIFY2(QString::fromStdString(e.keyPath()) == keyPath, e.what());
  QVERIFY2(e.where().line == line, e.what());
  QCOMPARE(QString::fromStdString(e.where().file), file);
  QVERIFY(!e.expected().empty() && !e.found().empty());
  for (const QString& part : message) QVERIFY2(QString::fromUtf8(e.what()).contains(part), e.what());
}

void TestScenario::overrideErrors_data() {
  QTest::addColumn<QStringList>("flags");
  QTest::addColumn<QString>("keyPath");
  QTest::addColumn<QString>("message");
  QTest::newRow("not an int") << QStringList{"topology.gpus=abc"} << "topology.gpus" << "found 'abc'";
  QTest::newRow("bare number") << QStringList{"topology.link.bandwidth=450"} << "topology.link.bandwidth"
                               << "add a unit: '450 GB/s'?";
  QTest::newRow("unknown key") << QStringList{"topology.bandwith=1 GB/s"} << "topology.bandwith"
                               << "did you mean 'topology.link.bandwidth'?";
  QTest::newRow("no equals") << QStringList{"topology.gpus"} << "" << "expected key.path=value";
  QTest::newRow("list element") << QStringList{"workload.traffic.hotspots=[0, x]"} << "workload.traffic.hotspots[1]"
                                << "found 'x'";
  QTest::newRow("cross-field") << QStringList{"topology.preset=dgx-h100", "topology.switches=20"}
                               << "topology.switches" << "each GPU reaches every chip";
  QTest::newRow("nvls after mesh") << QStringList{"topology.kind=mesh", "workload.collective.algorithm=nvls"}
                                   << "workload.collective.algorithm" << "topology.kind nvswitch";
  QTest::newRow("tiny bandwidth") << QStringList{"topology.link.bandwidth=1e-30 B/s"} << "topology.link.bandwidth"
                                  << "expected a bandwidth of at least 1 Mb/s, found '1e-30 B/s'";
  // The levels come from a flag as a whole: the element's error is still the flag's.
  QTest::newRow("per_gpu on the GPU level")
      << QStringList{"topology.kind=hierarchy",
                     "topology.levels=[{count: 2, bandwidth: 1 GB/s, latency: 0 ns}, "
                     "{count: 4, bandwidth: 1 GB/s, latency: 0 ns, uplinks: per_gpu}]"}
      << "topology.levels[1].uplinks" << "expected shared on the GPU level (the last one), found per_gpu";
  QTest::newRow("gpu.sms below the comm SMs")
      << QStringList{"workload.kind=moe_layer", "gpu.sms=8"} << "scheme.comm_sms"
      << "scheme.comm_sms: expected at most gpu.sms (8) SMs, found 20 (lower scheme.comm_sms or raise gpu.sms)";
  QTest::newRow("name over two lines") << QStringList{"name=a\nb"} << "name"
                                       << "expected a one-line name, found a name spanning 2 lines";
}

void TestScenario::overrideErrors() {
  QFETCH(QStringList, flags);
  QFETCH(QString, keyPath);
  QFETCH(QString, message);
  std::vector<std::string> v;
  for (const QString& f : flags) v.push_back(f.toStdString());
  fl::Scenario s;
  const fl::InputError e = expectError([&] { fl::applyOverrides(s, v); });
  QCOMPARE(QString::fromStdString(e.keyPath()), keyPath);
  QCOMPARE(e.where().file, std::string("--set"));
  QVERIFY2(QString(e.what()).startsWith("--set: "), e.what());
  QVERIFY2(QString(e.what()).contains(message), e.what());
}

// A flag setting what a sweep axis sets would be replaced at every point: an error.
void TestScenario::overrideSweptKey_data() {
  QTest::addColumn<QString>("flag");
  QTest::addColumn<QString>("message");
  QTest::newRow("the swept key")
      << "run.seed=3"
      << "--set: run.seed: expected a key no sweep axis sets, found run.seed, which sweep[1] sets at every point";
  QTest::newRow("inside a swept list") << "topology.levels[0].count=3"
                                       << "found topology.levels[0].count, which sweep[0] sets at every point";
}

void TestScenario::overrideSweptKey() {
  QFETCH(QString, flag);
  QFETCH(QString, message);
  fl::Scenario s = loadGood("hierarchy_three_levels.yaml");
  s.sweep = {{"topology.levels", {"[{count: 2, bandwidth: 1 GB/s, latency: 0 ns}, {count: 4, bandwidth: 1 GB/s, latency: 0 ns}]"}},
             {"run.seed", {"1", "2"}}};
  const fl::InputError e = expectError([&] { fl::applyOverrides(s, {flag.toStdString()}); });
  QVERIFY2(QString(e.what()).contains(message), e.what());
}

void TestScenario::overridesApply() {
  fl::Scenario s = loadGood("mesh_two_wafers.yaml");
  // The file says kind: mesh explicitly, which the preset does not override.
  fl::applyOverrides(s, {"topology.preset=gb200-nvl72", "topology.kind=nvswitch", "workload.kind=collective",
                         "workload.collective.algorithm=nvls", "topology.levels=[]", "run.seed = 9"});
  QCOMPARE(s.topology.kind, fl::TopologyKind::NvSwitch);
  QCOMPARE(s.topology.gpus, 72);
  QCOMPARE(s.topology.link_bandwidth, 4e12);  // explicit in the file: kept
  QCOMPARE(s.run.seed, std::uint64_t(9));
}

QTEST_GUILESS_MAIN(TestScenario)
#include "test_scenario.moc"
