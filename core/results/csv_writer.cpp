#include "results/csv_writer.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "results/atomic_file.h"
#include "results/sweep_metrics.h"
#include "results/setting_values.h"
#include "scenario/friendly_names.h"
#include "scenario/input_error.h"

namespace fl {
namespace {

namespace fs = std::filesystem;
const char* const kKey = "--csv";

// RFC 4180 quoting, only when needed.
std::string field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

// Shortest text that reads back to the same double: deterministic across runs.
std::string num(double v) {
  if (!std::isfinite(v)) return "";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}
std::string num(std::int64_t v) { return std::to_string(v); }
std::string num(int v) { return std::to_string(v); }
std::string ns(Time t) { return num(toNs(t)); }

template <typename... T>
void row(std::string& out, const T&... cells) {
  bool first = true;
  ((out += (first ? "" : ","), out += cells, first = false), ...);
  out += '\n';
}

[[noreturn]] void dirError(const std::string& dir, const std::string& found) {
  throw InputError(InputLocation{dir, 0, 0}, kKey, "a writable directory", found);
}

void ensureDirectory(const std::string& dir) {
  if (dir.empty()) dirError(dir, "an empty path");
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) dirError(dir, ec.message());
  if (!fs::is_directory(dir, ec)) dirError(dir, "a file that is not a directory");
}

// "key=value; key=value" in the schema's canonical text ("4 KiB", "125 MB/s"): values
// hold spaces, so the settings are parted by "; ".
std::string settingsText(const SweepPoint& p) {
  std::string s;
  for (const auto& [k, v] : p.settings) s += (s.empty() ? "" : "; ") + k + "=" + canonicalValueText(k, v);
  return s;
}

// A swept key's own column (canonical text) and, for a size, time or rate, a second one
// with its number (results/setting_values.h): ready to plot without parsing text.
struct AxisColumn {
  std::string key;
  std::string unitColumn;  // "" for a key without a unit
};

std::vector<AxisColumn> axisColumns(const std::vector<SweepPoint>& points) {
  std::vector<AxisColumn> out;
  for (const SweepPoint& p : points)
    for (const auto& setting : p.settings) {  // no structured binding: clang 14 cannot capture one
      const std::string& k = setting.first;
      if (std::none_of(out.begin(), out.end(), [&](const AxisColumn& c) { return c.key == k; }))
        out.push_back({k, settingUnitColumn(k)});
    }
  return out;
}

// Appends ",text" (piece by piece: GCC 12 misreads "," + string as an overlap, -Wrestrict).
void cell(std::string& out, const std::string& text) {
  out += ',';
  out += text;
}

std::string axisHeader(const std::vector<AxisColumn>& axes) {
  std::string out;
  for (const AxisColumn& a : axes) {
    cell(out, field(a.key));
    if (!a.unitColumn.empty()) cell(out, field(a.unitColumn));
  }
  return out;
}

std::string axisCells(const std::vector<AxisColumn>& axes, const SweepPoint& p) {
  std::string out;
  for (const AxisColumn& a : axes) {
    std::string value;
    for (const auto& [k, v] : p.settings)
      if (k == a.key) value = v;
    const SettingValue v = settingValue(a.key, value);
    cell(out, field(v.text));
    if (!a.unitColumn.empty()) cell(out, v.number ? num(*v.number) : std::string());
  }
  return out;
}

std::string optional(const std::optional<double>& v) { return v ? num(*v) : std::string(); }

}  // namespace

std::string linksCsv(const Results& r) {
  std::string out;
  row(out, "id", "link", "direction", "from", "to", "kind", "uplink", "downlink", "bytes",
      "payload_bytes", "packets", "busy_ns", "utilization");
  for (const LinkDirectionResult& l : r.links)
    row(out, field(l.id), num(l.link), num(l.direction), field(l.from), field(l.to), field(l.kind),
        std::string(l.uplink ? "1" : "0"), std::string(l.downlink ? "1" : "0"), num(l.bytes),
        num(l.payload_bytes), num(l.packets), ns(l.busy), num(l.utilization));
  return out;
}

std::string linkBinsCsv(const Results& r) {
  std::string out;
  row(out, "link_id", "from", "to", "bin", "start_ns", "bytes");
  for (const LinkDirectionResult& l : r.links)
    for (std::size_t k = 0; k < l.bin_bytes.bins.size(); ++k)
      if (const auto i = l.bin_bytes.bins[k]; l.bin_bytes.bytes[k] != 0)
        row(out, field(l.id), field(l.from), field(l.to), num(static_cast<std::int64_t>(i)),
            ns(static_cast<Time>(i) * r.bin), num(l.bin_bytes.bytes[k]));
  return out;
}

std::string switchesCsv(const Results& r) {
  std::string out;
  row(out, "id", "packets_forwarded", "multicast_replicas", "reductions", "reduction_contributions",
      "evictions", "peak_reduction_entries", "peak_reduction_bytes", "max_buffer_flits");
  for (const SwitchResult& s : r.switches)
    row(out, field(s.id), num(s.packets_forwarded), num(s.multicast_replicas), num(s.reductions),
        num(s.reduction_contributions), num(s.evictions), num(s.peak_reduction_entries),
        num(s.peak_reduction_bytes), num(s.max_buffer_flits));
  return out;
}

std::string phasesCsv(const Results& r) {
  std::string out;
  row(out, "name", "start_ns", "end_ns");
  for (const PhaseMark& p : r.phases) row(out, field(p.name), ns(p.start), ns(p.end));
  return out;
}

std::string followCsv(const Results& r) {
  std::string out;
  row(out, "start_ns", "end_ns", "arrive_ns", "from", "to", "link", "direction", "op", "piece", "tag",
      "contributions", "selector");
  for (const NamedHop& n : namedHops(r))
    row(out, ns(n.hop->start), ns(n.hop->end), ns(n.hop->arrive), field(n.from), field(n.to), num(n.hop->link),
        num(n.hop->direction), field(n.op), num(std::int64_t(n.hop->piece)), num(std::int64_t(n.hop->tag)),
        num(int(n.hop->contributions)), num(r.follow->selectorOf(*n.hop)));
  return out;
}

void stageCsvDirectory(OutputFiles& files, const std::string& dir, const Results& r) {
  ensureDirectory(dir);
  const fs::path d(dir);
  files.stage((d / "links.csv").string(), linksCsv(r), kKey);
  files.stage((d / "link_bins.csv").string(), linkBinsCsv(r), kKey);
  files.stage((d / "switches.csv").string(), switchesCsv(r), kKey);
  files.stage((d / "phases.csv").string(), phasesCsv(r), kKey);
  if (r.follow) files.stage((d / "follow.csv").string(), followCsv(r), kKey);
}

void writeCsvDirectory(const std::string& dir, const Results& r) {
  OutputFiles files;
  stageCsvDirectory(files, dir, r);
  files.commit();
}

void writeCsvSweep(const std::string& dir, const std::vector<SweepPoint>& points) {
  OutputFiles files;
  stageCsvSweep(files, dir, points);
  files.commit();
}

void stageCsvSweep(OutputFiles& files, const std::string& dir, const std::vector<SweepPoint>& points) {
  if (points.size() == 1 && points.front().settings.empty()) {
    stageCsvDirectory(files, dir, points.front().results);
    return;
  }
  ensureDirectory(dir);
  // The fixed columns, then every other sweep figure some point has (results/
  // sweep_metrics.h: AL TLB and reduction-buffer hit rates, SM utilisation, ...), named
  // by their id with the unit as a suffix (_ns for times; fractions as 0..1).
  static const std::vector<std::string> kFixed = {"makespan",       "payload_efficiency", "algbw_GBps",
                                                  "busbw_GBps",     "latency_mean_ns",    "latency_p99_ns",
                                                  "accepted_fraction"};
  std::vector<const SweepMetric*> extra;
  for (const SweepMetric* m : metricsOfSweep(points))
    if (std::find(kFixed.begin(), kFixed.end(), m->id) == kFixed.end()) extra.push_back(m);
  // ",a,b" for the extra figures: appended to each row's last fixed cell.
  auto extras = [&](auto cell) {
    std::string out;
    for (const SweepMetric* m : extra) fl::cell(out, cell(*m));
    return out;
  };
  std::string index;
  const std::vector<AxisColumn> axes = axisColumns(points);
  row(index, "point", "directory", "settings" + axisHeader(axes), "makespan_ns", "events", "payload_efficiency", "algbw_GBps",
      "busbw_GBps", "latency_mean_ns", "latency_p99_ns",
      "accepted_fraction" + extras([](const SweepMetric& m) {
        return std::string(m.id) + (m.kind == MetricKind::Time ? "_ns" : "");
      }));
  for (std::size_t i = 0; i < points.size(); ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "point-%03zu", i);
    const Results& r = points[i].results;
    stageCsvDirectory(files, (fs::path(dir) / name).string(), r);
    row(index, num(static_cast<std::int64_t>(i)), std::string(name), field(settingsText(points[i])) + axisCells(axes, points[i]),
        ns(r.makespan), num(r.events), num(r.payload_efficiency()), optional(r.algbw_GBps),
        optional(r.busbw_GBps), r.latency ? num(r.latency->mean_ns) : std::string(),
        r.latency ? num(r.latency->p99_ns) : std::string(),
        optional(r.accepted_fraction) + extras([&](const SweepMetric& m) {
          const std::optional<double> v = m.value(r);
          if (!v) return std::string();
          return m.kind == MetricKind::Time ? num(*v / static_cast<double>(kNanosecond)) : num(*v);
        }));
  }
  files.stage((fs::path(dir) / "points.csv").string(), index, kKey);
}

void checkCsvDirectory(const std::string& dir) {
  if (dir.empty()) dirError(dir, "an empty path");
  std::error_code ec;
  fs::path p = fs::absolute(dir, ec);
  if (ec) dirError(dir, ec.message());
  if (fs::exists(p, ec)) {
    if (!fs::is_directory(p, ec)) dirError(dir, "a file that is not a directory");
    checkFileWritable((p / "links.csv").string(), kKey);
    return;
  }
  // Not there yet: the nearest existing ancestor must be a writable directory.
  fs::path a = p.parent_path();
  while (!a.empty() && !fs::exists(a, ec) && a != a.root_path()) a = a.parent_path();
  if (!fs::is_directory(a, ec)) dirError(dir, "a path below a file that is not a directory");
  try {
    checkFileWritable((a / "probe").string(), kKey);
  } catch (const InputError& e) {
    dirError(dir, e.found());
  }
}

}  // namespace fl
