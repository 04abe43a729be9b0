// Results as JSON: the public, machine-readable contract of a run (fabriclab-cli --json).
// Units live in key suffixes (_ns, _bytes, _GBps). Serialisation is deterministic: the
// same Results give byte-identical text, except engine.wall_seconds, the only wall-clock
// figure written anywhere.
//
//   fabriclab_version, scenario, seed, cancelled,
//   workload{kind, op, algorithm | pattern, load},
//   engine{events, packets, packet_hops, wall_seconds, sim_time_ns, threads, partitions,
//          peak_live_packets},
//   summary{makespan_ns, phases[{name, start_ns, end_ns}]},
//   traffic{payload_bytes, wire_bytes, payload_efficiency, uplink_bytes, downlink_bytes,
//           uplink_payload_bytes, downlink_payload_bytes},
//   links[{id, link, direction, from, to, kind, uplink, downlink, bytes, payload_bytes,
//          packets, busy_ns, utilization}],
//   switches[{id, packets_forwarded, multicast_replicas, reductions,
//             reduction_contributions, evictions, peak_reduction_entries,
//             peak_reduction_bytes, max_buffer_flits}],
//   switch_totals{reduction_hits, reduction_lookups},
//   collective{size_bytes, algbw_GBps, busbw_GBps}          (collective workloads)
//   latency{mean_ns, p50_ns, p99_ns, max_ns, samples, histogram{edges_ns, counts}}
//   throughput{accepted_fraction, offered_GBps, accepted_GBps}   (when measured)
//   invariants{packets_injected, packets_consumed, packets_created_in_switches,
//              packets_consumed_in_switches, packets_in_flight, buffer_overflows},
//   series{bin_ns, bins, links[{id, bin_bytes[]}]}
//   tp{scheme, model, layer_ns, sublayer_ns{L1..L4}, sublayer_utilization{L1..L4},
//      sublayer_utilization_mean}   (tp_layer workloads; utilisations are busy fractions
//      of all link directions over each sub-layer's span, tp/window_utilization.h)
//
// Sweeps: {"fabriclab_version", "scenario", "sweep": [{"settings": {key: value},
// "results": {...}}]}.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "results/results.h"
#include "scenario/scenario.h"
#include "sim/run.h"

namespace fl {

nlohmann::ordered_json resultsToJson(const Results& results, const Scenario& scenario);

// One point without settings (a scenario without a sweep) gives the plain results
// object; otherwise {"sweep": [...]}.
nlohmann::ordered_json sweepToJson(const std::vector<SweepPoint>& points, const Scenario& scenario);

// The text written to files: two-space indentation and a final newline.
std::string jsonText(const nlohmann::ordered_json& json);

// Removes every engine.wall_seconds (plain results and sweeps), for comparing runs.
nlohmann::ordered_json stripWallTime(nlohmann::ordered_json json);

}  // namespace fl
