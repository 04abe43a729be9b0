#include "report/report_text.h"

#include "scenario/friendly_names.h"
#include "scenario/schema.h"

namespace fl::report {

std::string valueText(const Scenario& s, const std::string& key) {
  try {
    return getValue(s, key);
  } catch (const std::exception&) {
    return {};
  }
}

std::string workloadOneLine(const Scenario& s) {
  if (s.workload.kind == WorkloadKind::Collective) {
    const std::string op = valueText(s, "workload.collective.op");
    const std::string size = valueText(s, "workload.collective.size");
    if (s.workload.collective.op == CollectiveOp::P2P)
      return "p2p gpu" + std::to_string(s.workload.collective.source) + " → gpu" +
             std::to_string(s.workload.collective.destination) + ", " + size;
    std::string text = op + " " + valueText(s, "workload.collective.algorithm");
    if (s.workload.collective.op == CollectiveOp::AllToAllV && !s.workload.collective.matrix.empty())
      return text + ", explicit size matrix";
    if (s.workload.collective.op == CollectiveOp::AllToAllV)
      text += ", Zipf skew " + valueText(s, "workload.collective.skew");
    return text + ", " + size + " per GPU";
  }
  if (s.workload.kind == WorkloadKind::MoeLayer) {
    const MoeSpec& m = s.workload.moe;
    return "MoE layer " + valueText(s, "workload.moe.model") + " (" + std::to_string(m.experts) + " experts, top-" +
           std::to_string(m.top_k) + ", " + std::to_string(m.tokens_per_gpu) + " tokens per GPU), " +
           valueText(s, "scheme.communication") + " + " + valueText(s, "scheme.fusion");
  }
  if (s.workload.kind == WorkloadKind::CrossDcMoe)
    return "MoE iteration across DCs " + valueText(s, "workload.xdc.model") + " (" +
           std::to_string(s.workload.xdc.layers) + " layers" +
           (s.workload.xdc.pass == XdcPass::Training ? ", forward + backward + gradient all-reduce" : "") + "), " +
           valueText(s, "scheme.ep") +
           (s.scheme.ep == XdcScheme::Hybrid ? " domains " + valueText(s, "scheme.hybrid.domains") +
                                                   ", compression " + valueText(s, "scheme.hybrid.compression_ratio")
                                             : std::string()) +
           ", flow model";
  if (s.workload.kind == WorkloadKind::TpLayer) {
    const TpSpec& t = s.workload.tp;
    return "TP layers " + valueText(s, "workload.tp.model") + " (hidden " + std::to_string(t.hidden) + ", FFN " +
           std::to_string(t.ffn_hidden) + ", " + std::to_string(t.seq_len) + " x " + std::to_string(t.batch) +
           " tokens, " + std::to_string(t.layers) + " layers, " + valueText(s, "workload.tp.phase") + "), " +
           valueText(s, "scheme.tp");
  }
  if (s.workload.kind == WorkloadKind::WscInference) {
    const WscSpec& w = s.workload.wsc;
    return "MoE inference on the wafer " + valueText(s, "workload.wsc.model") + " (" + std::to_string(w.experts) +
           " experts, top-" + std::to_string(w.top_k) + ", TP " + std::to_string(w.tp) + ", " +
           std::to_string(w.tokens_per_group) + " tokens per group, " + valueText(s, "workload.wsc.stage") + "), " +
           valueText(s, "mapping.kind") + " mapping, " + valueText(s, "network.model") + " model";
  }
  return valueText(s, "workload.traffic.pattern") + " traffic at " + valueText(s, "workload.traffic.load") +
         " load for " + valueText(s, "workload.traffic.duration") + " (warm-up " +
         valueText(s, "workload.traffic.warmup") + ")";
}

std::string topologyOneLine(const topo::Topology& t) {
  if (!t.description.empty()) return t.description;
  return t.kind + ": " + std::to_string(t.endpointCount()) + " endpoints, " + std::to_string(t.nodes().size()) +
         " nodes, " + std::to_string(t.links().size()) + " links";
}

std::string settingsText(const std::vector<std::pair<std::string, std::string>>& settings) {
  std::string out;
  for (const auto& [k, v] : settings) out += (out.empty() ? "" : ", ") + k + " = " + canonicalValueText(k, v);
  return out;
}

}  // namespace fl::report
