#include "tp/tp_model.h"

#include <stdexcept>

namespace fl::tp {
namespace {

struct Model {
  const char* name;
  int hidden, ffn, heads, seq, batch, sms;
  const char* source;
};

// Table I rows are the scaled (half) dimensions run on 66 SMs (specs/cais.md §1.2); Table
// II gives hidden/FFN/heads/SMs only: seq 3072 x batch 3 is our choice (LLaMA-7B's), §1.3.
constexpr Model kModels[] = {
    {"mega-gpt-4b", 2048, 8192, 24, 1024, 16, 66, "seed 002 Table I"},
    {"mega-gpt-8b", 3072, 12288, 32, 1024, 12, 66, "seed 002 Table I"},
    {"llama-7b", 4096, 11264, 32, 3072, 3, 66, "seed 002 Table I"},
    {"table2-full", 8192, 22528, 64, 3072, 3, 132, "seed 002 Table II (seq x batch: our choice)"},
    {"table2-half", 4096, 11264, 32, 3072, 3, 66, "seed 002 Table II (seq x batch: our choice)"},
};

const Model& find(std::string_view name) {
  for (const Model& m : kModels)
    if (name == m.name) return m;
  throw std::invalid_argument("unknown tp model " + std::string(name));
}

}  // namespace

const std::vector<std::string>& tpModelNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const Model& m : kModels) n.push_back(m.name);
    return n;
  }();
  return names;
}

void applyTpModel(std::string_view name, TpSpec& spec, GpuSettings& gpu) {
  if (name == "custom") {  // fills nothing: the explicit keys describe the model
    spec.model = "custom";
    return;
  }
  const Model& m = find(name);
  spec.model = m.name;
  spec.hidden = m.hidden;
  spec.ffn_hidden = m.ffn;
  spec.heads = m.heads;
  spec.seq_len = m.seq;
  spec.batch = m.batch;
  gpu.sms = m.sms;
}

void fillTpModelSms(const TpSpec& spec, GpuSettings& gpu) {
  if (spec.model != "custom") gpu.sms = find(spec.model).sms;
}

std::string tpModelSummary(std::string_view name) {
  const Model& m = find(name);
  return std::string(m.name) + ": hidden " + std::to_string(m.hidden) + ", FFN " + std::to_string(m.ffn) + ", " +
         std::to_string(m.heads) + " heads, sequence " + std::to_string(m.seq) + " x batch " +
         std::to_string(m.batch) + ", " + std::to_string(m.sms) + " SMs (" + m.source + ")";
}

}  // namespace fl::tp
