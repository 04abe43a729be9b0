// The public JSON contract of one run (json_writer.h), as the CLI and writer tests check
// it: which keys every result has, and which each workload kind adds.
#pragma once
#include <QtTest>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace fl::test {

using Json = nlohmann::ordered_json;  // keys in the order written

// "a.b.c" -> "/a/b/c"
inline bool hasPath(const Json& j, const std::string& dotted) {
  std::string pointer = "/" + dotted;
  for (char& c : pointer)
    if (c == '.') c = '/';
  return j.contains(Json::json_pointer(pointer));
}

// The public JSON contract of one run (json_writer.h).
inline const std::vector<std::string> kContractKeys = {
    "fabriclab_version", "scenario", "seed",
    "engine.events", "engine.packets", "engine.packet_hops", "engine.wall_seconds",
    "engine.sim_time_ns", "engine.partitions",
    "summary.makespan_ns", "summary.phases",
    "traffic.payload_bytes", "traffic.wire_bytes", "traffic.payload_efficiency",
    "traffic.uplink_bytes", "traffic.downlink_bytes", "traffic.uplink_payload_bytes",
    "traffic.downlink_payload_bytes",
    "links", "switches",
    "invariants.packets_injected", "invariants.packets_consumed", "invariants.buffer_overflows",
    "series.bin_ns", "series.links"};
inline const std::vector<std::string> kLinkKeys = {"id", "from", "to", "kind", "bytes", "payload_bytes",
                                            "packets", "busy_ns", "utilization"};
inline const std::vector<std::string> kSwitchKeys = {"id", "packets_forwarded", "multicast_replicas", "reductions",
                                              "evictions", "peak_reduction_entries", "peak_reduction_bytes"};
inline const std::vector<std::string> kCollectiveKeys = {"collective.size_bytes", "collective.algbw_GBps",
                                                  "collective.busbw_GBps"};
inline const std::vector<std::string> kTrafficKeys = {
    "latency.mean_ns", "latency.p50_ns", "latency.p99_ns", "latency.max_ns", "latency.samples",
    "latency.histogram.edges_ns", "latency.histogram.counts", "throughput.accepted_fraction",
    "throughput.offered_GBps", "throughput.accepted_GBps"};

// `exclusive`: the other workload kind's sections must be absent.
inline void checkContract(const Json& j, bool collective, bool exclusive = true) {
  for (const std::string& k : kContractKeys) QVERIFY2(hasPath(j, k), k.c_str());
  QVERIFY(j["links"].is_array() && !j["links"].empty());
  for (const std::string& k : kLinkKeys) QVERIFY2(j["links"][0].contains(k), ("links[]." + k).c_str());
  QVERIFY(j["switches"].is_array());
  if (!j["switches"].empty())
    for (const std::string& k : kSwitchKeys) QVERIFY2(j["switches"][0].contains(k), ("switches[]." + k).c_str());
  for (const Json& p : j["summary"]["phases"])
    for (const char* k : {"name", "start_ns", "end_ns"}) QVERIFY2(p.contains(k), k);
  QCOMPARE(j["series"]["links"].size(), j["links"].size());
  QVERIFY(j["series"]["links"][0].contains("id"));
  QVERIFY(j["series"]["links"][0]["bin_bytes"].is_array());
  for (const std::string& k : collective ? kCollectiveKeys : kTrafficKeys) QVERIFY2(hasPath(j, k), k.c_str());
  if (exclusive)
    for (const std::string& k : collective ? kTrafficKeys : kCollectiveKeys)
      QVERIFY2(!hasPath(j, k), ("unexpected " + k).c_str());
  QCOMPARE(j["invariants"]["buffer_overflows"].get<std::int64_t>(), std::int64_t{0});
}

}  // namespace fl::test
