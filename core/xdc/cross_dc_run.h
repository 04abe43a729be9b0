// workload.kind: cross_dc_moe (HybridEP, seed 004): builds the stream model's input from
// the hierarchy and the workload keys, lets the model choose the expert domains (or
// takes scheme.hybrid.domains / plain EP), plays one training iteration's forward pass
// through the asynchronous communicator on the flow model, and fills Results.
#pragma once
#include "results/results.h"
#include "scenario/scenario.h"
#include "topology/topology.h"
#include "xdc/stream_model.h"

namespace fl::xdc {

// The model's input for a scenario on its (hierarchy) topology. B^l is what one GPU gets
// towards its level-l peers: the narrowest link on the way (levels l.. down to the GPU),
// each shared by the GPUs below it (a DC's 8 GPUs share its uplink).
ModelInput modelInput(const Scenario& s, const topo::Topology& t);

// P_E on the wire: expert_bytes / compression ratio (spec 1.9: the ratio as a divisor).
double wireExpertBytes(const Scenario& s);
double dataBytes(const XdcSpec& x);

// Throws fl::InputError for a topology the workload cannot use.
Results runCrossDcMoe(const Scenario& s, const topo::Topology& t);

}  // namespace fl::xdc
