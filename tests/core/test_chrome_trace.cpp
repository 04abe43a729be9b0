// Chrome trace export on hand-made Results: the JSON is parsed back and every event is
// checked against the input it came from (counts by brute force over the input, times by
// the picosecond -> microsecond conversion, pid/tid through the metadata names).
#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "results/chrome_trace.h"
#include "scenario/input_error.h"

using Json = nlohmann::ordered_json;
using fl::kMicrosecond;
using fl::kNanosecond;
using Kind = fl::PipelineTaskKind;

namespace {

fl::PipelineTask task(int gpu, int group, Kind kind, fl::Time start, fl::Time end, int after = -1, int tile = -1,
                      int step = 0) {
  fl::PipelineTask t;
  t.gpu = gpu;
  t.group = static_cast<std::uint8_t>(group);
  t.kind = kind;
  t.start = start;
  t.end = end;
  t.after = after;
  t.tile = tile;
  t.step = static_cast<std::uint16_t>(step);
  t.tokens = 128 + tile;
  t.sms = static_cast<std::uint16_t>(1 + gpu);
  t.expert = static_cast<std::int16_t>(kind == Kind::Gemm1 || kind == Kind::Gemm2 ? 10 * gpu + tile : -1);
  return t;
}

fl::LinkDirectionResult link(bool up, bool down, std::vector<std::int32_t> bins, std::vector<std::int64_t> bytes) {
  fl::LinkDirectionResult l;
  l.uplink = up;
  l.downlink = down;
  l.bin_bytes.bins = std::move(bins);
  l.bin_bytes.bytes = std::move(bytes);
  return l;
}

fl::PipelineResults pipeline(std::vector<fl::PipelineTask> tasks) {
  fl::PipelineResults p;
  p.fusion = "token_centric";
  p.groups = {"dispatch", "gemm1", "gemm2", "combine"};
  p.group_sms = {20, 48, 48, 16};
  p.sms = 132;
  p.tasks = std::move(tasks);
  return p;
}

fl::Results fixture(const QString& name) {
  fl::Results r;
  r.scenario = "hand-made " + name.toStdString();
  r.seed = 7;
  if (name == "empty") return r;
  if (name == "phases and counters, no tasks") {
    // Dispatch and combine overlap (concurrent schemes): two lanes on the layer.
    r.phases = {{"dispatch", 0, 3 * kMicrosecond}, {"combine", 2 * kMicrosecond, 5 * kMicrosecond + 1}};
    r.bin = 2 * kMicrosecond;
    r.bins = 3;
    r.links = {link(true, false, {0, 2}, {4000, 1000}), link(true, false, {1, 2}, {3, 5}),
               link(false, true, {0, 1, 2}, {7, 0, 123456789}),
               link(false, false, {0}, {999999})};  // switch-to-switch: in neither series
    return r;
  }
  if (name == "two GPUs, dependencies across them") {
    // gpu0 dispatches, gpu1's GEMMs wait for it, gpu0 combines gpu1's output; a launch gap
    // and a barrier on the host thread. Odd picosecond times test full precision.
    r.pipeline = pipeline({
        task(0, 255, Kind::LaunchGap, 0, 4 * kNanosecond),
        task(0, 0, Kind::Dispatch, 4 * kNanosecond, 1 * kMicrosecond + 7, 0, 0),
        task(1, 0, Kind::Dispatch, 5 * kNanosecond, 900 * kNanosecond, -1, 0),
        task(1, 1, Kind::Gemm1, 1 * kMicrosecond + 7, 2 * kMicrosecond + 333, 1, 0),
        task(1, 2, Kind::Gemm2, 2 * kMicrosecond + 333, 3 * kMicrosecond, 3, 0),
        task(0, 3, Kind::Combine, 3 * kMicrosecond, 3 * kMicrosecond + 123457, 4, 0),
        task(1, 3, Kind::Combine, 3 * kMicrosecond, 3 * kMicrosecond + 5, 4, 1),
        task(0, 255, Kind::Barrier, 3 * kMicrosecond + 123457, 3 * kMicrosecond + 123457, 5),
    });
    r.phases = {{"layer", 0, 3 * kMicrosecond + 123457}};
    r.moe = fl::MoeResults{};
    r.moe->communication = "dysharp";
    r.moe->fusion = "token_centric";
    r.bin = 1 * kMicrosecond;
    r.bins = 4;
    r.links = {link(true, false, {0, 3}, {512, 256}), link(false, true, {1, 2}, {1024, 2048})};
    return r;
  }
  if (name == "overlapping tiles in one SM group") {
    // GEMM-1 rows overlapping on one group, one of them zero length.
    r.pipeline = pipeline({
        task(0, 1, Kind::Gemm1, 0, 200 * kNanosecond, -1, 0),
        task(0, 1, Kind::Gemm1, 100 * kNanosecond, 300 * kNanosecond, 0, 1),
        task(0, 1, Kind::Gemm1, 150 * kNanosecond, 250 * kNanosecond, 0, 2),
        task(0, 1, Kind::Gemm1, 200 * kNanosecond, 400 * kNanosecond, 0, 3),
        task(0, 1, Kind::Gemm1, 250 * kNanosecond, 260 * kNanosecond, 2, 4),
        task(0, 1, Kind::Gemm1, 260 * kNanosecond, 260 * kNanosecond, 4, 5),  // zero length
        task(0, 1, Kind::Gemm1, 260 * kNanosecond, 270 * kNanosecond, 5, 6),
    });
    return r;
  }
  if (name == "sparse GPU ids, two steps") {
    r.pipeline = pipeline({
        task(3, 0, Kind::Dispatch, 0, 10 * kNanosecond, -1, 0, 0),
        task(7, 1, Kind::Gemm1, 10 * kNanosecond, 20 * kNanosecond, 0, 0, 0),
        task(3, 0, Kind::Dispatch, 30 * kNanosecond, 45 * kNanosecond, 1, 0, 1),
        task(7, 1, Kind::Gemm1, 45 * kNanosecond, 70 * kNanosecond, 2, 0, 1),
        task(7, 9, Kind::Gemm2, 70 * kNanosecond, 80 * kNanosecond, 3, 0, 1),  // row without a name
    });
    r.pipeline->groups.resize(2);
    r.bin = 50 * kNanosecond;
    r.bins = 2;
    return r;
  }
  qFatal("unknown fixture");
}

// Independent conversion: picoseconds to the format's microseconds.
double us(fl::Time t) { return static_cast<double>(t) / 1e6; }
std::int64_t ps(const Json& us) { return std::llround(us.get<double>() * 1e6); }

std::string expectedThread(const fl::PipelineResults& p, int group) {
  if (group == 255) return "host/launch";
  if (group < static_cast<int>(p.groups.size()) && !p.groups[group].empty()) return p.groups[group];
  return "group " + std::to_string(group);
}

}  // namespace

class TestChromeTrace : public QObject {
  Q_OBJECT

 private slots:
  void trace_data() {
    QTest::addColumn<QString>("fixture");
    for (const char* f : {"empty", "phases and counters, no tasks", "two GPUs, dependencies across them",
                          "overlapping tiles in one SM group", "sparse GPU ids, two steps"})
      QTest::newRow(f) << QString(f);
  }

  void trace() {
    QFETCH(QString, fixture);
    const fl::Results r = ::fixture(fixture);
    fl::Scenario s;
    s.name = "ignored: Results carry the name";
    const std::string text = fl::chromeTraceText(r, s);
    const Json j = Json::parse(text);

    // Object form, keys in a fixed order.
    std::vector<std::string> keys;
    for (const auto& [k, v] : j.items()) keys.push_back(k);
    QCOMPARE(keys, (std::vector<std::string>{"traceEvents", "displayTimeUnit", "otherData"}));
    QCOMPARE(j["displayTimeUnit"].get<std::string>(), std::string("ns"));
    QCOMPARE(j["otherData"]["scenario"].get<std::string>(), r.scenario);
    QCOMPARE(j["otherData"]["seed"].get<std::uint64_t>(), r.seed);
    QCOMPARE(j["otherData"].contains("fusion"), r.moe.has_value());
    if (r.moe) QCOMPARE(j["otherData"]["communication"].get<std::string>(), r.moe->communication);

    // Metadata: names of processes and threads, and which process each thread is in.
    std::map<int, std::string> processName;
    std::map<std::int64_t, std::string> threadName;
    std::map<std::int64_t, int> threadPid;
    std::map<std::string, int> pidOf;
    for (const Json& e : j["traceEvents"]) {
      if (e["ph"] != "M") continue;
      if (e["name"] == "process_name") {
        processName[e["pid"].get<int>()] = e["args"]["name"].get<std::string>();
        pidOf[e["args"]["name"].get<std::string>()] = e["pid"].get<int>();
      }
      if (e["name"] == "thread_name") {
        const auto tid = e["tid"].get<std::int64_t>();
        QVERIFY2(!threadName.count(tid), "thread ids are unique over the trace");
        threadName[tid] = e["args"]["name"].get<std::string>();
        threadPid[tid] = e["pid"].get<int>();
      }
    }
    QCOMPARE(pidOf.size(), processName.size());  // distinct names, distinct pids

    const std::vector<fl::PipelineTask> noTasks;
    const auto& tasks = r.pipeline ? r.pipeline->tasks : noTasks;
    std::map<std::string, int> expectedX, gotX;  // by cat
    for (const fl::PipelineTask& t : tasks) ++expectedX[fl::pipelineTaskKindName(t.kind)];
    std::set<std::tuple<int, int, int>> gpuPhases;
    for (const fl::PipelineTask& t : tasks)
      if (static_cast<int>(t.kind) < 4) gpuPhases.insert({t.gpu, t.step, static_cast<int>(t.kind)});
    if (r.phases.size() + gpuPhases.size()) expectedX["phase"] = static_cast<int>(r.phases.size() + gpuPhases.size());

    std::map<int, const Json*> taskEvent;  // task index -> its X event
    std::map<std::int64_t, std::vector<std::pair<std::int64_t, std::int64_t>>> slicesOnThread;
    std::map<std::int64_t, const Json*> flowStart, flowEnd;
    std::map<std::string, std::vector<const Json*>> counters;
    std::multiset<std::string> layerPhases;
    for (const Json& e : j["traceEvents"]) {
      const std::string ph = e["ph"].get<std::string>();
      if (ph == "X") {
        ++gotX[e["cat"].get<std::string>()];
        const auto tid = e["tid"].get<std::int64_t>();
        QVERIFY2(threadName.count(tid), "every slice's thread is named");
        QCOMPARE(threadPid[tid], e["pid"].get<int>());
        slicesOnThread[tid].push_back({ps(e["ts"]), ps(e["ts"]) + ps(e["dur"])});
        if (e["cat"] == "phase" && processName[e["pid"].get<int>()] == "layer")
          layerPhases.insert(e["name"].get<std::string>());
        if (e["args"].contains("task")) {
          const int i = e["args"]["task"].get<int>();
          QVERIFY(!taskEvent.count(i));
          taskEvent[i] = &e;
        }
      } else if (ph == "s") {
        QVERIFY(!flowStart.count(e["id"].get<std::int64_t>()));
        flowStart[e["id"].get<std::int64_t>()] = &e;
      } else if (ph == "f") {
        QVERIFY(!flowEnd.count(e["id"].get<std::int64_t>()));
        flowEnd[e["id"].get<std::int64_t>()] = &e;
      } else if (ph == "C") {
        QCOMPARE(processName[e["pid"].get<int>()], std::string("fabric"));
        counters[e["name"].get<std::string>()].push_back(&e);
      } else {
        QCOMPARE(ph, std::string("M"));
      }
    }
    QCOMPARE(gotX, expectedX);

    // Every task: its GPU's process, its SM group's thread, times converted exactly.
    QCOMPARE(taskEvent.size(), tasks.size());
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      const fl::PipelineTask& t = tasks[i];
      const Json& e = *taskEvent[static_cast<int>(i)];
      QCOMPARE(e["ts"].get<double>(), us(t.start));
      QCOMPARE(e["dur"].get<double>(), us(t.end - t.start));
      QCOMPARE(processName[e["pid"].get<int>()], "gpu" + std::to_string(t.gpu));
      const std::string thread = threadName[e["tid"].get<std::int64_t>()];
      const std::string group = expectedThread(*r.pipeline, t.group);
      QVERIFY2(thread == group || thread.rfind(group + " #", 0) == 0, (thread + " vs " + group).c_str());
      QCOMPARE(e["cat"].get<std::string>(), std::string(fl::pipelineTaskKindName(t.kind)));
      QVERIFY(e["name"].get<std::string>().rfind(fl::pipelineTaskKindName(t.kind), 0) == 0);
      if (t.tile >= 0) QVERIFY(e["name"].get<std::string>().ends_with(" " + std::to_string(t.tile)));
      const Json& a = e["args"];
      QCOMPARE(a["tile"].get<int>(), t.tile);
      QCOMPARE(a["tokens"].get<int>(), t.tokens);
      QCOMPARE(a["sms"].get<int>(), static_cast<int>(t.sms));
      QCOMPARE(a["step"].get<int>(), static_cast<int>(t.step));
      QCOMPARE(a["expert"].get<int>(), static_cast<int>(t.expert));
      QCOMPARE(a["gpu"].get<int>(), t.gpu);
    }
    QCOMPARE(layerPhases.size(), r.phases.size());
    for (const fl::PhaseMark& m : r.phases) QVERIFY(layerPhases.count(m.name));

    // Slices on one thread never overlap (they must nest; lanes keep them apart).
    for (auto& [tid, spans] : slicesOnThread) {
      std::sort(spans.begin(), spans.end());
      for (std::size_t k = 1; k < spans.size(); ++k)
        QVERIFY2(spans[k].first >= spans[k - 1].second && spans[k].first > spans[k - 1].first,
                 (threadName[tid] + " has overlapping slices").c_str());
    }

    // One flow pair per task with a predecessor: from the predecessor's slice to its own.
    std::size_t withAfter = 0;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      if (tasks[i].after < 0) continue;
      ++withAfter;
      const auto id = static_cast<std::int64_t>(i);
      QVERIFY2(flowStart.count(id) && flowEnd.count(id), qPrintable(QString("flow of task %1").arg(i)));
      const Json& sEv = *flowStart[id];
      const Json& fEv = *flowEnd[id];
      const Json& pred = *taskEvent[tasks[i].after];
      const Json& self = *taskEvent[static_cast<int>(i)];
      QCOMPARE(sEv["tid"], pred["tid"]);
      QCOMPARE(sEv["pid"], pred["pid"]);
      QVERIFY(ps(sEv["ts"]) >= tasks[tasks[i].after].start && ps(sEv["ts"]) <= tasks[tasks[i].after].end);
      QCOMPARE(fEv["tid"], self["tid"]);
      QCOMPARE(fEv["ts"].get<double>(), us(tasks[i].start));
      QCOMPARE(fEv["bp"].get<std::string>(), std::string("e"));
      QCOMPARE(fEv["cat"], sEv["cat"]);  // v1 flows match on id, cat and name
      QCOMPARE(fEv["name"], sEv["name"]);
    }
    QCOMPARE(flowStart.size(), withAfter);
    QCOMPARE(flowEnd.size(), withAfter);

    // Counters: every bin of the uplink and downlink sums, in GB/s, then a closing zero.
    const int bins = r.bin > 0 ? r.bins : 0;
    std::vector<double> up(bins, 0), down(bins, 0);
    for (const fl::LinkDirectionResult& l : r.links)
      for (std::size_t k = 0; k < l.bin_bytes.bins.size(); ++k) {
        if (l.uplink) up[l.bin_bytes.bins[k]] += static_cast<double>(l.bin_bytes.bytes[k]);
        if (l.downlink) down[l.bin_bytes.bins[k]] += static_cast<double>(l.bin_bytes.bytes[k]);
      }
    QCOMPARE(counters.size(), std::size_t(bins ? 2 : 0));
    for (const auto& [name, series] : {std::pair{"uplink", &up}, std::pair{"downlink", &down}}) {
      if (!bins) break;
      const auto& events = counters[name];
      QCOMPARE(events.size(), std::size_t(bins + 1));
      for (int b = 0; b <= bins; ++b) {
        const Json& e = *events[b];
        QCOMPARE(e["ts"].get<double>(), us(b * r.bin));
        // bytes per bin over the bin's picoseconds: bytes/ps = 1000 GB/s
        const double expected = b < bins ? (*series)[b] * 1000.0 / static_cast<double>(r.bin) : 0.0;
        const double got = e["args"]["GBps"].get<double>();
        QVERIFY2(std::abs(got - expected) <= 1e-12 * std::max(1.0, expected),
                 qPrintable(QString("%1 bin %2: %3 vs %4").arg(name).arg(b).arg(got).arg(expected)));
      }
    }

    // Deterministic: the same Results (and a copy) give the same bytes.
    QCOMPARE(fl::chromeTraceText(r, s), text);
    const fl::Results copy = r;
    QCOMPARE(fl::chromeTraceText(copy, s), text);
  }

  // One SM group needs exactly as many lanes as it has tasks in flight at once, counted by
  // brute force at every start (a zero-length task occupies its instant).
  void lanesAreFewest() {
    const fl::Results r = fixture("overlapping tiles in one SM group");
    int most = 0;
    for (const fl::PipelineTask& at : r.pipeline->tasks) {
      int inFlight = 0;
      for (const fl::PipelineTask& t : r.pipeline->tasks)
        inFlight += t.start <= at.start && at.start < std::max(t.end, t.start + 1);
      most = std::max(most, inFlight);
    }
    QCOMPARE(most, 4);  // t = 260 ns: tiles 1, 3, 5 (zero length) and 6
    std::set<std::string> expected{"gemm1"};
    for (int lane = 2; lane <= most; ++lane) expected.insert("gemm1 #" + std::to_string(lane));
    const Json j = Json::parse(fl::chromeTraceText(r, {}));
    std::set<std::string> gemmThreads;
    for (const Json& e : j["traceEvents"])
      if (e["ph"] == "M" && e["name"] == "thread_name" && e["args"]["name"].get<std::string>().rfind("gemm1", 0) == 0)
        gemmThreads.insert(e["args"]["name"].get<std::string>());
    QCOMPARE(gemmThreads, expected);
  }

  void otherDataFromScenario() {
    fl::Scenario s;
    s.name = "from scenario";
    s.workload.kind = fl::WorkloadKind::MoeLayer;
    s.scheme.communication = fl::MoeCommunication::DeepEp;
    s.scheme.fusion = fl::MoeFusion::Sequential;
    const Json j = Json::parse(fl::chromeTraceText(fl::Results{}, s));
    QCOMPARE(j["otherData"]["scenario"].get<std::string>(), std::string("from scenario"));
    QCOMPARE(j["otherData"]["communication"].get<std::string>(), std::string("deepep"));
    QCOMPARE(j["otherData"]["fusion"].get<std::string>(), std::string("sequential"));
    QVERIFY(j["traceEvents"].empty());
  }

  void sweepPointPath_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("point");
    QTest::addColumn<QString>("expected");
    QTest::newRow("extension") << "out/run.json" << 3 << "out/run-point-003.json";
    QTest::newRow("no directory") << "trace.json" << 0 << "trace-point-000.json";
    QTest::newRow("no extension") << "dir.d/trace" << 12 << "dir.d/trace-point-012";
    QTest::newRow("two dots") << "/tmp/a.trace.json" << 7 << "/tmp/a.trace-point-007.json";
    QTest::newRow("four digits") << "t.json" << 1234 << "t-point-1234.json";
  }

  void sweepPointPath() {
    QFETCH(QString, path);
    QFETCH(int, point);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(fl::sweepPointTracePath(path.toStdString(), static_cast<std::size_t>(point))),
             expected);
  }

  void writeFile() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const fl::Results r = fixture("two GPUs, dependencies across them");
    const QString path = dir.filePath("t.json");
    fl::writeChromeTrace(path.toStdString(), r, {});
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll().toStdString(), fl::chromeTraceText(r, {}));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"t.json"});
    try {
      fl::writeChromeTrace(dir.filePath("missing/t.json").toStdString(), r, {});
      QFAIL("no error for a missing directory");
    } catch (const fl::InputError& e) {
      QVERIFY2(std::string(e.what()).find("--trace") != std::string::npos, e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestChromeTrace)
#include "test_chrome_trace.moc"
