// The 2-DC cluster on which the packet and flow models must agree for cross_dc_moe
// (issue 23; test_xdc_iteration forward, test_xdc_training training): 2 DCs x 4 GPUs,
// 10 Gb/s between DCs, 16 GB/s inside, 2 and 1 us of latency; framing flits off and 4 KiB
// packets, so both models carry payload at line rate.
#pragma once
#include <QtTest>

#include <cstdint>
#include <string>

#include "results/results.h"

namespace fl::test {

// `xdc`: the workload.xdc lines (4-space indented); `scheme`: scheme.ep's value and below.
inline std::string twoDcScenario(const std::string& xdc, const std::string& scheme, const char* model) {
  return std::string("fabriclab: 1\nname: t\ntopology:\n  kind: hierarchy\n  levels:\n") +
         "    - {name: dc, count: 2, bandwidth: 10 Gb/s, latency: 2 us}\n"
         "    - {name: gpu, count: 4, bandwidth: 16 GB/s, latency: 1 us}\n"
         "workload:\n  kind: cross_dc_moe\n  xdc:\n" + xdc + "scheme:\n  ep: " + scheme + "\n" +
         "network:\n  header_flits: 0\n  address_flits: 0\n  byte_enable_flits: 0\n"
         "  packet_payload: 4 KiB\n  max_packet_payload: 4 KiB\n  vc_depth_flits: 4096\n  model: " + model +
         "\nrun:\n  bin: 100 us\n";
}

// Both runs list the same link directions with the same payload bytes (same routes);
// `total` gets their sum. Check QTest::currentTestFailed() after the call.
inline void compareLinkBytes(const Results& a, const Results& b, std::int64_t& total) {
  total = 0;
  QCOMPARE(a.links.size(), b.links.size());
  for (std::size_t i = 0; i < a.links.size(); ++i) {
    QCOMPARE(a.links[i].link, b.links[i].link);
    QCOMPARE(a.links[i].direction, b.links[i].direction);
    QCOMPARE(a.links[i].payload_bytes, b.links[i].payload_bytes);
    total += a.links[i].payload_bytes;
  }
}

}  // namespace fl::test
