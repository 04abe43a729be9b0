// Where each routed expert's weights live at the start of a run (its native host; a
// balancer adds replicas later). Spec moentwine.md §1.2 [R]: expert e on die e mod N;
// workload.wsc.expert_placement: explicit gives the die of every expert by hand
// (workload.wsc.expert_dies, the mapping editor's expert drags), within
// workload.wsc.expert_slots experts per die.
#pragma once
#include "scenario/scenario.h"
#include "wsc/layer_plan.h"

namespace fl::wsc {

// Experts a die may hold: workload.wsc.expert_slots, or for 0 ceil(E / N) + 1 (the
// modulo placement's most plus one spare, so a hand move always has somewhere to go).
int expertSlots(const WscSpec& w, int dies);

// One host per expert: e mod `dies`, or workload.wsc.expert_dies. Unchecked.
ExpertHosts expertPlacement(const WscSpec& w, int dies);

// Throws ValidationError naming the key: expert_dies without explicit placement, not one
// entry per expert, a die out of range, or a die over its slots.
void checkExpertPlacement(const WscSpec& w, int dies);

}  // namespace fl::wsc
