// Transformer models for tensor-parallel layers (seed 002 Table I and Table II): presets
// filling workload.tp.{hidden, ffn_hidden, heads, seq_len, batch} and gpu.sms.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "scenario/scenario.h"

namespace fl::tp {

// mega-gpt-4b, mega-gpt-8b, llama-7b (Table I: already the half-scale models, 66 SMs),
// table2-full, table2-half (Table II: 132 / 66 SMs).
const std::vector<std::string>& tpModelNames();
// Sets spec.model and the model's dimensions, and gpu.sms. Throws std::invalid_argument
// for an unknown name (the schema offers only known ones).
void applyTpModel(std::string_view name, TpSpec& spec, GpuSettings& gpu);
std::string tpModelSummary(std::string_view name);
// A TP layer's GPU size when the scenario names none (neither gpu.sms nor gpu.preset):
// the model's SMs (66 for Table I), since the defaults disagree (workload.tp.model
// llama-7b, gpu.sms an H100's 132) and a preset fills only keys left at what the previous
// preset gave. Leaves gpu alone for custom models.
void fillTpModelSms(const TpSpec& spec, GpuSettings& gpu);

}  // namespace fl::tp
