#include "results/chrome_trace.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>
#include <utility>

#include "results/atomic_file.h"
#include "scenario/schema.h"

namespace fl {
namespace {

using Json = nlohmann::ordered_json;

// Process ids: fixed ones for the layer and the fabric, then one per GPU (gpu N: 10 + N).
// Thread ids are unique over the whole trace (Perfetto names threads by tid alone) and
// start above any process id.
constexpr int kPidLayer = 1, kPidFabric = 2, kFirstGpuPid = 10;
constexpr std::int64_t kFirstTid = 1000000;
constexpr int kRowPhases = -1;  // a GPU's phase thread sorts first
constexpr int kRowHost = 255;   // PipelineTask::group of launch gaps and barriers, sorts last

// The format's unit; picoseconds divide exactly into a double for any run under ~100 days.
double toUs(Time t) { return static_cast<double>(t) / kMicrosecond; }

// Slices on one Chrome thread must nest, but tasks sharing an SM group overlap (one row of
// thread blocks per SM). Each slice goes to the first lane free at its start; visiting them
// in start order this uses the fewest lanes (interval colouring). A zero-length slice
// holds its lane for 1 ps so that nothing starting at the same instant shares it.
class Lanes {
 public:
  int place(Time start, Time end) {
    const Time busyUntil = std::max(start + 1, end);
    for (std::size_t i = 0; i < ends_.size(); ++i)
      if (ends_[i] <= start) {
        ends_[i] = busyUntil;
        return static_cast<int>(i);
      }
    ends_.push_back(busyUntil);
    return static_cast<int>(ends_.size()) - 1;
  }
  int count() const { return static_cast<int>(ends_.size()); }

 private:
  std::vector<Time> ends_;
};

// The traceEvents array, one event per line (diffable), each dumped as it comes so that
// no JSON tree of the whole trace is held.
class EventWriter {
 public:
  EventWriter& operator<<(const Json& e) {
    text_ += text_.empty() ? "\n" : ",\n";
    text_ += e.dump();
    return *this;
  }
  std::string take() { return std::move(text_); }

 private:
  std::string text_;
};

struct Span {
  Time start = 0, end = 0;
  int gpu = 0, row = 0;  // row: kRowPhases, an SM-group row, or kRowHost
  std::string name, cat;
  Json args;
  int lane = 0;
};

// Threads of the trace: one per (process, row, lane), numbered in display order.
class Threads {
 public:
  void add(int pid, int row, int lanes, std::string name) { rows_[{pid, row}] = {lanes, std::move(name)}; }

  void assign() {
    std::int64_t tid = kFirstTid;
    for (auto& [key, row] : rows_) {
      row.firstTid = tid;
      tid += row.lanes;
    }
  }
  std::int64_t tid(int pid, int row, int lane) const { return rows_.at({pid, row}).firstTid + lane; }

  void metadata(EventWriter& out) const {
    std::map<int, int> position;
    for (const auto& [key, row] : rows_)
      for (int lane = 0; lane < row.lanes; ++lane) {
        const std::int64_t t = row.firstTid + lane;
        const std::string name = lane ? row.name + " #" + std::to_string(lane + 1) : row.name;
        out << meta("thread_name", key.first, t, Json{{"name", name}});
        out << meta("thread_sort_index", key.first, t, Json{{"sort_index", position[key.first]++}});
      }
  }

  static Json meta(const char* what, int pid, std::int64_t tid, Json args) {
    return Json{{"name", what}, {"cat", "__metadata"}, {"ph", "M"}, {"ts", 0},
                {"pid", pid}, {"tid", tid}, {"args", std::move(args)}};
  }

 private:
  struct Row {
    int lanes = 1;
    std::string name;
    std::int64_t firstTid = 0;
  };
  std::map<std::pair<int, int>, Row> rows_;
};

int gpuPid(int gpu) { return kFirstGpuPid + gpu; }

std::string groupName(const PipelineResults& p, int row) {
  if (row == kRowHost) return "host/launch";
  if (row >= 0 && static_cast<std::size_t>(row) < p.groups.size() && !p.groups[row].empty()) return p.groups[row];
  return "group " + std::to_string(row);
}

std::string taskName(const PipelineTask& t) {
  std::string name = pipelineTaskKindName(t.kind);
  if (t.tile < 0) return name;
  const bool gemm = t.kind == PipelineTaskKind::Gemm1 || t.kind == PipelineTaskKind::Gemm2;
  // A TP layer's tasks with a tile are per row block (an ld.cais row load, a row's LN).
  const bool tp = t.kind >= PipelineTaskKind::LocalGemm;
  return name + (gemm ? " tile " : tp ? " row block " : " chunk ") + std::to_string(t.tile);
}

// Per GPU, per layer pass and per kind: first start to last end of its tasks, a summary
// row above the SM groups (Results::phases are merged over all GPUs).
std::vector<Span> gpuPhaseSpans(const PipelineResults& p) {
  std::map<std::tuple<int, int, int>, std::pair<Time, Time>> spans;  // gpu, step, kind
  std::map<std::tuple<int, int, int>, std::int64_t> counts;
  for (const PipelineTask& t : p.tasks) {
    const int kind = static_cast<int>(t.kind);
    if (kind >= 4) continue;  // launch gaps and barriers are not phases
    const auto key = std::make_tuple(t.gpu, static_cast<int>(t.step), kind);
    auto [it, fresh] = spans.try_emplace(key, t.start, t.end);
    if (!fresh) it->second = {std::min(it->second.first, t.start), std::max(it->second.second, t.end)};
    ++counts[key];
  }
  int maxStep = 0;
  for (const PipelineTask& t : p.tasks) maxStep = std::max(maxStep, static_cast<int>(t.step));
  std::vector<Span> out;
  for (const auto& [key, se] : spans) {
    const auto [gpu, step, kind] = key;
    Span s{se.first, se.second, gpu, kRowPhases, pipelineTaskKindName(static_cast<PipelineTaskKind>(kind)),
           "phase", Json{{"step", step}, {"tasks", counts[key]}}};
    if (maxStep > 0) s.name += " (step " + std::to_string(step) + ")";
    out.push_back(std::move(s));
  }
  std::stable_sort(out.begin(), out.end(), [](const Span& a, const Span& b) {
    return std::tie(a.gpu, a.start) < std::tie(b.gpu, b.start);
  });
  return out;
}

Json completeEvent(const Span& s, int pid, std::int64_t tid) {
  return Json{{"name", s.name}, {"cat", s.cat}, {"ph", "X"}, {"ts", toUs(s.start)},
              {"dur", toUs(std::max<Time>(0, s.end - s.start))}, {"pid", pid}, {"tid", tid}, {"args", s.args}};
}

// Flow v1 events (v2's one bind_id per slice cannot fan out): "s" at the predecessor's
// start and "f" (bp "e") at the successor's start bind to the slice open on their lane
// then; Perfetto orders flow events after the slices that begin at the same timestamp.
Json flowEvent(const char* ph, std::int32_t id, Time ts, int pid, std::int64_t tid) {
  Json e{{"name", "after"}, {"cat", "dependency"}, {"ph", ph}, {"id", id}, {"ts", toUs(ts)},
         {"pid", pid}, {"tid", tid}};
  if (ph[0] == 'f') e["bp"] = "e";
  return e;
}

// Uplink and downlink wire bytes per bin, as GB/s, on the fabric process; a final zero
// closes the last bin.
void counterEvents(const Results& r, EventWriter& out) {
  std::vector<std::int64_t> up(static_cast<std::size_t>(r.bins), 0), down(up.size(), 0);
  for (const LinkDirectionResult& l : r.links) {
    if (!l.uplink && !l.downlink) continue;
    for (std::size_t i = 0; i < l.bin_bytes.bins.size(); ++i) {
      const auto b = l.bin_bytes.bins[i];
      if (b < 0 || b >= r.bins) continue;
      (l.uplink ? up : down)[static_cast<std::size_t>(b)] += l.bin_bytes.bytes[i];
    }
  }
  const auto binPs = static_cast<double>(r.bin);
  for (int b = 0; b <= r.bins; ++b) {
    const bool last = b == r.bins;
    for (const auto& [name, series] : {std::pair{"uplink", &up}, std::pair{"downlink", &down}}) {
      // bytes per picosecond = 1000 GB/s
      const double GBps = last ? 0.0 : static_cast<double>((*series)[static_cast<std::size_t>(b)]) * 1000.0 / binPs;
      out << Json{{"name", name}, {"cat", "fabric"}, {"ph", "C"}, {"ts", toUs(b * r.bin)},
                  {"pid", kPidFabric}, {"tid", kPidFabric}, {"args", Json{{"GBps", GBps}}}};
    }
  }
}

Json otherData(const Results& r, const Scenario& s) {
  Json o;
  o["fabriclab_version"] = FABRICLAB_VERSION;
  o["scenario"] = r.scenario.empty() ? s.name : r.scenario;
  o["seed"] = r.seed;
  if (r.moe) {
    o["fusion"] = r.moe->fusion;
    o["communication"] = r.moe->communication;
  } else if (s.workload.kind == WorkloadKind::MoeLayer) {
    o["fusion"] = getValue(s, "scheme.fusion");
    o["communication"] = getValue(s, "scheme.communication");
  }
  o["makespan_ns"] = toNs(r.makespan);
  o["bin_ns"] = toNs(r.bin);
  return o;
}

}  // namespace

std::string chromeTraceText(const Results& r, const Scenario& s) {
  static const PipelineResults kNoPipeline;
  const PipelineResults& p = r.pipeline ? *r.pipeline : kNoPipeline;
  const auto& tasks = p.tasks;

  // Tasks in start order (ties: input order) decide lanes and the order of events.
  std::vector<std::size_t> order(tasks.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return tasks[a].start < tasks[b].start; });

  std::map<std::pair<int, int>, Lanes> lanes;  // (gpu, row)
  std::vector<int> taskLane(tasks.size());
  for (std::size_t i : order) {
    const PipelineTask& t = tasks[i];
    taskLane[i] = lanes[{t.gpu, t.group}].place(t.start, t.end);
  }
  std::vector<Span> gpuPhases = gpuPhaseSpans(p);
  for (Span& sp : gpuPhases) sp.lane = lanes[{sp.gpu, kRowPhases}].place(sp.start, sp.end);
  Lanes layerLanes;
  std::vector<Span> layerPhases;
  for (const PhaseMark& m : r.phases)
    layerPhases.push_back(Span{m.start, m.end, 0, 0, m.name, "phase", Json::object()});
  std::stable_sort(layerPhases.begin(), layerPhases.end(),
                   [](const Span& a, const Span& b) { return a.start < b.start; });
  for (Span& sp : layerPhases) sp.lane = layerLanes.place(sp.start, sp.end);

  Threads threads;
  if (!layerPhases.empty()) threads.add(kPidLayer, 0, layerLanes.count(), "phases");
  for (const auto& [key, l] : lanes)
    threads.add(gpuPid(key.first), key.second, l.count(),
                key.second == kRowPhases ? "phases" : groupName(p, key.second));
  threads.assign();

  EventWriter events;
  const bool counters = r.bins > 0 && r.bin > 0;
  const auto process = [&events](int pid, const std::string& name, int sortIndex) {
    events << Threads::meta("process_name", pid, pid, Json{{"name", name}})
           << Threads::meta("process_sort_index", pid, pid, Json{{"sort_index", sortIndex}});
  };
  if (!layerPhases.empty()) process(kPidLayer, "layer", 0);
  int lastGpu = -1;
  for (const auto& [key, l] : lanes)
    if (key.first != lastGpu) {
      lastGpu = key.first;
      process(gpuPid(key.first), "gpu" + std::to_string(key.first), gpuPid(key.first));
    }
  if (counters) process(kPidFabric, "fabric", std::numeric_limits<int>::max());
  threads.metadata(events);

  for (const Span& sp : layerPhases) events << completeEvent(sp, kPidLayer, threads.tid(kPidLayer, 0, sp.lane));
  for (const Span& sp : gpuPhases)
    events << completeEvent(sp, gpuPid(sp.gpu), threads.tid(gpuPid(sp.gpu), kRowPhases, sp.lane));

  const auto n = static_cast<std::int32_t>(tasks.size());
  const auto hasAfter = [&](std::int32_t i) {
    return tasks[i].after >= 0 && tasks[i].after < n && tasks[i].after != i;
  };
  std::vector<std::vector<std::int32_t>> successors(tasks.size());
  for (std::int32_t i = 0; i < n; ++i)
    if (hasAfter(i)) successors[tasks[i].after].push_back(i);
  const auto tidOf = [&](std::size_t i) { return threads.tid(gpuPid(tasks[i].gpu), tasks[i].group, taskLane[i]); };
  for (std::size_t i : order) {
    const PipelineTask& t = tasks[i];
    const int pid = gpuPid(t.gpu);
    Span sp{t.start, t.end, t.gpu, t.group, taskName(t), pipelineTaskKindName(t.kind),
            Json{{"task", i}, {"tile", t.tile}, {"tokens", t.tokens}, {"sms", t.sms}, {"step", t.step},
                 {"expert", t.expert}, {"gpu", t.gpu}, {"after", t.after}}};
    events << completeEvent(sp, pid, tidOf(i));
    for (std::int32_t next : successors[i]) events << flowEvent("s", next, t.start, pid, tidOf(i));
    if (hasAfter(static_cast<std::int32_t>(i)))
      events << flowEvent("f", static_cast<std::int32_t>(i), t.start, pid, tidOf(i));
  }
  if (counters) counterEvents(r, events);

  std::string text = "{\"traceEvents\":[" + events.take();
  text += "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":";
  text += otherData(r, s).dump();
  text += "}\n";
  return text;
}

void writeChromeTrace(const std::string& path, const Results& r, const Scenario& s,
                      const std::string& keyPathForErrors) {
  writeFileAtomically(path, chromeTraceText(r, s), keyPathForErrors);
}

std::string sweepPointTracePath(const std::string& path, std::size_t point) {
  const std::filesystem::path p(path);
  std::string index = std::to_string(point);
  if (index.size() < 3) index.insert(0, 3 - index.size(), '0');
  const std::string name = p.stem().string() + "-point-" + index + p.extension().string();
  return (p.parent_path() / name).string();
}

}  // namespace fl
