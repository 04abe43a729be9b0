#include "scenario/friendly_names.h"

#include <cctype>
#include <cstdlib>
#include <exception>
#include <utility>

#include "scenario/quantity.h"
#include "scenario/scenario.h"
#include "scenario/schema.h"

namespace fl {

namespace {

struct Name {
  const char *key, *value, *name;
};

// Spelled as the seeds spell them (specs/ and seeds/ 002, 003, 004).
constexpr Name kNames[] = {
    {"mapping.kind", "baseline", "Baseline mapping"},
    {"mapping.kind", "er", "ER-Mapping"},
    {"mapping.kind", "her", "HER-Mapping"},
    {"mapping.kind", "explicit", "Explicit mapping"},
    {"balancer.kind", "none", "No balancer"},
    {"balancer.kind", "greedy", "Greedy balancer"},
    {"balancer.kind", "topology_aware", "Topology-aware balancer"},
    {"balancer.kind", "non_invasive", "Non-invasive balancer"},
    {"scheme.tp", "tp_nvls", "TP-NVLS"},
    {"scheme.tp", "sp_nvls", "SP-NVLS"},
    {"scheme.tp", "cais_base", "CAIS-Base"},
    {"scheme.tp", "cais_coord", "CAIS-Coord"},
    {"scheme.tp", "cais_partial", "CAIS-Partial"},
    {"scheme.tp", "cais", "CAIS"},
    {"scheme.communication", "deepep", "DeepEP (unicast)"},  // seed 000 §VI's names; alone, not as a pair
    {"scheme.communication", "nvls_static", "NVLS (static)"},
    {"scheme.communication", "dysharp", "DySHARP"},
    {"scheme.communication", "explicit", "Explicit addressing"},
    {"scheme.fusion", "sequential", "Sequential kernels"},
    {"scheme.fusion", "comm_only", "Communication only"},
    {"scheme.fusion", "overlap", "COMET overlap"},
    {"scheme.fusion", "token_centric", "Token-centric fusion"},
    {"scheme.fusion", "persistent", "Persistent kernel"},
    {"scheme.ep", "ep", "EP"},
    {"scheme.ep", "hybrid", "HybridEP"},
    {"topology.preset", "cluster-s", "Cluster-S"},
    {"topology.preset", "cluster-m", "Cluster-M"},
    {"topology.preset", "cluster-l", "Cluster-L"},
    {"gpu.preset", "h100", "H100"},  // core/gpu/gpu_spec.cpp's presets
    {"gpu.preset", "h200", "H200"},
    {"gpu.preset", "a100", "A100"},
    {"gpu.preset", "b200", "B200"},
};

struct Scheme {
  const char *communication, *fusion, *name;
};

constexpr Scheme kSchemes[] = {
    {"dysharp", "sequential", "DySHARP-Basic"},  // seed 000 Fig. 4c
    {"dysharp", "overlap", "DySHARP-COMET"},     // Fig. 4d
    {"deepep", "token_centric", "Fusion only"},  // Fig. 4e
    {"dysharp", "token_centric", "Full DySHARP"},  // §IV
    {"deepep", "persistent", "FlashDMoE"},       // seed 001 §4
    {"deepep", "sequential", "DeepEP"},          // seed 000 §VI baselines
    {"deepep", "overlap", "COMET"},
};

// Numeric keys swept by the bundled scenarios: what goes before and after the value.
struct Numeric {
  const char *key, *prefix, *suffix;
};

constexpr Numeric kNumeric[] = {
    {"scheme.hybrid.compression_ratio", "Compression ", "×"},
    {"network.switch.merge_table", "Table ", ""},
    {"network.switch.reduction_buffer", "Reduction buffer ", ""},
    {"scheme.dysharp.al_tlb_entries", "AL TLB ", " entries"},
    {"topology.gpus", "", " GPUs"},
    {"workload.moe.experts", "", " experts"},
    {"workload.moe.tokens_per_gpu", "", " tokens/GPU"},
    {"workload.moe.top_k", "Top-", ""},
    {"workload.wsc.tokens_per_group", "", " tokens/group"},
    {"workload.wsc.tp", "TP ", ""},
    {"workload.collective.size", "Size ", ""},
    {"workload.collective.stagger", "Stagger ", ""},
    {"workload.traffic.load", "Load ", ""},
    {"workload.xdc.data_bytes", "Data ", ""},
    {"workload.xdc.expert_bytes", "Expert bytes ", ""},
};

// Axis titles of the keys the bundled scenarios sweep (and their neighbours).
constexpr std::pair<const char*, const char*> kTitles[] = {
    {"mapping.kind", "Mapping"},
    {"balancer.kind", "Balancer"},
    {"scheme.communication", "Communication scheme"},
    {"scheme.fusion", "Fusion scheme"},
    {"scheme.tp", "TP scheme"},
    {"scheme.ep", "EP scheme"},
    {"scheme.hybrid.compression_ratio", "Compression ratio"},
    {"scheme.dysharp.al_tlb_entries", "AL TLB entries"},
    {"topology.preset", "Topology"},
    {"topology.gpus", "GPUs"},
    {"gpu.preset", "GPU"},
    {"network.model", "Network model"},
    {"network.switch.merge_table", "Merge table size"},
    {"network.switch.reduction_buffer", "Reduction buffer size"},
    {"workload.collective.op", "Collective"},
    {"workload.collective.algorithm", "Collective algorithm"},
    {"workload.collective.size", "Message size per GPU"},
    {"workload.collective.stagger", "Stagger"},
    {"workload.traffic.pattern", "Traffic pattern"},
    {"workload.traffic.load", "Offered load"},
    {"workload.moe.model", "Model"},
    {"workload.moe.experts", "Experts"},
    {"workload.moe.top_k", "Top-k"},
    {"workload.moe.tokens_per_gpu", "Tokens per GPU"},
    {"workload.tp.model", "Model"},
    {"workload.tp.phase", "Phase"},
    {"workload.wsc.model", "Model"},
    {"workload.wsc.tp", "TP degree"},
    {"workload.wsc.tokens_per_group", "Tokens per group"},
    {"workload.wsc.stage", "Stage"},
    {"workload.xdc.model", "Model"},
    {"workload.xdc.data_bytes", "Dispatch bytes per GPU"},
    {"workload.xdc.expert_bytes", "Expert bytes per GPU"},
};

// "levels[0].bandwidth" -> "Level 1 bandwidth", "al_tlb_entries" -> "Al tlb entries".
std::string humanKey(const std::string& key) {
  std::string last = key.substr(key.rfind('.') == std::string::npos ? 0 : key.rfind('.') + 1);
  std::string level;
  if (const auto open = key.rfind('['); open != std::string::npos && open < key.rfind('.'))
    level = "Level " + std::to_string(std::atoi(key.c_str() + open + 1) + 1) + " ";
  for (char& c : last) c = c == '_' ? ' ' : c;
  if (level.empty() && !last.empty()) last[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(last[0])));
  return level + last;
}

}  // namespace

std::string friendlySchemeName(const std::string& communication, const std::string& fusion) {
  for (const Scheme& n : kSchemes)
    if (communication == n.communication && fusion == n.fusion) return n.name;
  return {};
}

std::string friendlyNumericValue(const std::string& key, const std::string& value) {
  if (value.empty() || !(std::isdigit(static_cast<unsigned char>(value[0])) || value[0] == '.')) return {};
  std::string text = value;  // the schema's canonical text: "40 KiB", "250 ns"
  try {
    Scenario scratch;
    setValue(scratch, key, value);
    text = getValue(scratch, key);
  } catch (const std::exception&) {
  }
  for (const Numeric& n : kNumeric)
    if (key == n.key) return n.prefix + text + n.suffix;
  return humanKey(key) + " " + text;
}

std::string canonicalValueText(const std::string& key, const std::string& value) {
  const std::optional<QuantityKind> q = keyQuantity(key);
  if (!q) return value;
  const QuantityKind kind = *q;
  if (kind != QuantityKind::Bytes && kind != QuantityKind::Bandwidth && kind != QuantityKind::Time) return value;
  try {
    return formatQuantity(parseQuantity(value, kind, key), kind);
  } catch (const std::exception&) {
    return value;
  }
}

std::string friendlyKeyTitle(const std::string& key) {
  for (const auto& [k, title] : kTitles)
    if (key == k) return title;
  return {};
}

std::string friendlyValueName(const std::string& key, const std::string& value) {
  for (const Name& n : kNames)
    if (key == n.key && value == n.value) return n.name;
  return {};
}

namespace {

struct LevelKey {
  std::string singular, plural, field;  // "Datacenter", "datacenters", "bandwidth"
};

// The level a key names and its field; false for other keys or a level `s` lacks.
bool levelKey(const Scenario& s, const std::string& key, LevelKey& out) {
  const std::string prefix = "topology.levels[";
  if (key.rfind(prefix, 0) != 0) return false;
  const auto close = key.find("].", prefix.size());
  if (close == std::string::npos) return false;
  const std::size_t index = std::strtoul(key.c_str() + prefix.size(), nullptr, 10);
  if (index >= s.topology.levels.size() || s.topology.levels[index].name.empty()) return false;
  const std::string& name = s.topology.levels[index].name;
  static const struct {
    const char *name, *singular, *plural;
  } known[] = {{"dc", "Datacenter", "datacenters"}, {"node", "Node", "nodes"}, {"gpu", "GPU", "GPUs"}};
  out.singular = name;
  out.singular[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
  out.plural = name + "s";
  for (const auto& k : known)
    if (name == k.name) out.singular = k.singular, out.plural = k.plural;
  out.field = key.substr(close + 2);
  for (char& c : out.field) c = c == '_' ? ' ' : c;
  return true;
}

}  // namespace

std::string friendlyLevelTitle(const Scenario& s, const std::string& key) {
  LevelKey k;
  if (!levelKey(s, key, k)) return {};
  if (k.field == "count") {
    std::string title = k.plural;
    title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
    return title;
  }
  return k.singular + (k.field == "bandwidth" || k.field == "latency" ? " link " : " ") + k.field;
}

std::string friendlyLevelValue(const Scenario& s, const std::string& key, const std::string& value) {
  LevelKey k;
  if (!levelKey(s, key, k)) return {};
  std::string text = value;  // the schema's canonical text ("10 Gb/s" as the schema writes it)
  try {
    Scenario scratch = s;
    setValue(scratch, key, value);
    text = getValue(scratch, key);
  } catch (const std::exception&) {
  }
  if (k.field == "count") return text + " " + k.plural;
  if (k.field == "bandwidth") return k.singular + " links " + text;
  return k.singular + " " + k.field + " " + text;
}

}  // namespace fl
