// workload.kind: cross_dc_moe (HybridEP, seed 004): builds the stream model's input from
// the hierarchy and the workload keys, lets the model choose the expert domains (or
// takes scheme.hybrid.domains / plain EP), plays one training iteration (forward, or with
// workload.xdc.pass training also backward and the gradient all-reduce)
// through the asynchronous communicator on the flow model (runCrossDcMoe) or, for
// `network.model: packet`, on the packet engine (makeCrossDcWorkload), and fills Results.
#pragma once
#include <memory>

#include "network/channel.h"
#include "results/results.h"
#include "scenario/scenario.h"
#include "topology/topology.h"
#include "xdc/async_communicator.h"
#include "xdc/stream_model.h"

namespace fl {
class Simulator;
namespace net {
class Network;
}
namespace work {
class Workload;
}
}  // namespace fl

namespace fl::xdc {

// The model's input for a scenario on its (hierarchy) topology. B^l is what one GPU gets
// towards its level-l peers: the narrowest link on the way (levels l.. down to the GPU),
// each shared by the GPUs below it (a DC's 8 GPUs share its uplink).
ModelInput modelInput(const Scenario& s, const topo::Topology& t);

// P_E on the wire: expert_bytes / compression ratio (spec 1.9: the ratio as a divisor).
double wireExpertBytes(const Scenario& s);
double dataBytes(const XdcSpec& x);
// Lat_PE: workload.xdc.pre_expert_ns, or derived from the GPU when 0 (xdc/pre_expert.h).
Time preExpertTime(const Scenario& s);

// What both network models play: the model's prediction and the communicator's plan.
struct CrossDcSetup {
  ModelInput input;
  Prediction prediction;
  CommunicatorPlan plan;
};
CrossDcSetup prepareCrossDc(const Scenario& s, const topo::Topology& t);

// `network.model: auto` for cross_dc_moe: packet while the iteration is at most this many
// simulated packets (bytes on the wire / network.packet_payload), flow above.
inline constexpr double kAutoPacketLimit = 1e6;
double simulatedPackets(const Scenario& s, const CrossDcSetup& setup);
bool runsOnFlow(const Scenario& s, const topo::Topology& t);
bool runsOnFlow(const Scenario& s, const CrossDcSetup& setup);  // with the setup already made

// Route entries the flow model's communicator keeps (core/xdc/async_communicator.cpp):
// per GPU, level and peer group it uses (domain and across; training adds the whole
// level), one shared route of at most `depth` links up plus `depth` links to each peer.
// The solver's state grows with them (sim/memory_estimate.cpp).
std::int64_t flowRouteEntries(const CrossDcSetup& setup, int depth);

// Throws fl::InputError for a topology the workload cannot use, or for links busy across
// more than their share of `recordedBinBudget` time bins (run.bin's error).
Results runCrossDcMoe(const Scenario& s, const topo::Topology& t, std::int64_t recordedBinBudget = net::kRecordedBinBudget);
// The packet model's workload (the plan of communicator_plan.h); annotate fills hybridep.
std::unique_ptr<work::Workload> makeCrossDcWorkload(const Scenario& s, net::Network& net, Simulator& sim);

}  // namespace fl::xdc
