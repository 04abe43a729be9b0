#include "xdc/xdc_models.h"

#include <cstdint>

#include "scenario/scenario.h"

namespace fl {
namespace {

struct Model {
  const char* name;
  int hidden, layers;
};
// Table II: H and layers; E = 32 for all.
const Model kModels[] = {
    {"llama-tiny", 512, 12}, {"mistral-small", 768, 12}, {"gpt-medium", 1024, 12}, {"gpt-large", 1024, 16}};

}  // namespace

const std::vector<std::string>& xdcModelNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const Model& m : kModels) v.emplace_back(m.name);
    return v;
  }();
  return names;
}

void applyXdcModel(std::string_view name, XdcSpec& spec) {
  for (const Model& m : kModels)
    if (name == m.name) {
      spec.hidden = m.hidden;
      spec.experts = 32;
      spec.top_k = 1;
      spec.layers = m.layers;
      // Two H x 4H matrices of fp32 (4 B) parameters.
      spec.expert_bytes = std::int64_t(2) * m.hidden * 4 * m.hidden * 4;
    }
}

}  // namespace fl
