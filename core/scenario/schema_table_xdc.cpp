// The schema rows of cross_dc_moe (HybridEP, seed 004): workload.xdc.* and
// scheme.ep / scheme.hybrid.*, appended after the rest of the table.
#include <yaml-cpp/yaml.h>

#include "scenario/schema_builders.h"
#include "xdc/xdc_models.h"

namespace fl::schema_build {
namespace {

// scheme.hybrid.domains: auto, or one expert-domain size per hierarchy level.
ParamSpec domainsParam() {
  ParamSpec p = base("scheme.hybrid.domains", "auto or list of ints", {1, 1'000'000},
                     "cross_dc_moe, hybrid: expert-domain size S_ED per hierarchy level, outermost first, each "
                     "dividing that level's count (1 = plain EP at that level, the count = all-gather only); auto "
                     "= the stream model's choice per level",
                     "seed 004 §IV-A (expert domains), §III-E (optimal p)");
  p.scalar = false;
  p.get = [](const Scenario& s) {
    return s.scheme.hybrid.domains.empty() ? std::string("auto") : intListText(s.scheme.hybrid.domains);
  };
  p.set = [rules = p](Scenario& s, const YAML::Node& n, const ValueSource& src) {
    if (n.IsScalar()) {
      std::string text = n.Scalar();
      text.erase(0, text.find_first_not_of(" \t"));
      text.erase(text.find_last_not_of(" \t") + 1);
      if (text == "auto") {
        s.scheme.hybrid.domains.clear();
        return;
      }
      if (!text.empty() && text.front() == '[') {  // a list arriving as text (--set, the GUI)
        YAML::Node list;
        try {
          list = YAML::Load(text);
        } catch (const YAML::Exception&) {
        }
        if (list.IsSequence()) {
          ValueSource inner = src;
          inner.fallback = src.at(n), inner.useMarks = false;
          s.scheme.hybrid.domains = readIntList(list, rules.path, rules, inner);
          if (s.scheme.hybrid.domains.empty())
            throw InputError(src.at(n), rules.path, "auto or a list of domain sizes", "an empty list");
          return;
        }
      }
      throw InputError(src.at(n), rules.path, "auto or a list of domain sizes such as [2, 4]", "'" + text + "'");
    }
    s.scheme.hybrid.domains = readIntList(n, rules.path, rules, src);
    if (s.scheme.hybrid.domains.empty())
      throw InputError(src.at(n), rules.path, "auto or a list of domain sizes", "an empty list");
  };
  return p;
}

}  // namespace

void addXdcKeys(std::vector<ParamSpec>& t) {
  using Q = QuantityKind;
  {
    std::vector<std::string> models = {"custom"};
    for (const std::string& m : xdcModelNames()) models.push_back(m);
    t.push_back(fillingPreset(
        "workload.xdc.model", models,
        "cross_dc_moe: a Table II model (E = 32) filling hidden, experts, expert_bytes, top_k and layers; explicit "
        "keys override it; custom fills nothing",
        "seed 004 Table II; expert bytes 2 x H x 4H fp32 parameters (2.1M, 4.7M, 8.4M match the table)",
        FIELD(workload.xdc.model), [](const std::string& name, Scenario& s) { applyXdcModel(name, s.workload.xdc); },
        {"workload.xdc.hidden", "workload.xdc.experts", "workload.xdc.expert_bytes", "workload.xdc.top_k",
         "workload.xdc.layers"},
        "custom"));
  }
  t.push_back(integer("workload.xdc.hidden", FIELD(workload.xdc.hidden), {1, 1'000'000},
                      "cross_dc_moe: hidden size H (with tokens and top_k gives data_bytes when that is 0)",
                      "seed 004 Table II"));
  t.push_back(integer("workload.xdc.experts", FIELD(workload.xdc.experts), {1, 1'000'000},
                      "cross_dc_moe: experts E of the model (at least top_k); the stream model, like the paper's, "
                      "moves expert_bytes per GPU whatever E/G is", "seed 004 Table II (E = 32)"));
  t.push_back(quantity("workload.xdc.expert_bytes", Q::Bytes, FIELD(workload.xdc.expert_bytes), {1, 1e15},
                       "cross_dc_moe: P_E, the expert bytes one GPU contributes to an all-gather, before compression",
                       "seed 004 Table II, Table IV (P_E), §V-C (expert sweep 32 -> 2 MB)"));
  t.push_back(integer("workload.xdc.top_k", FIELD(workload.xdc.top_k), {1, 1024},
                      "cross_dc_moe: experts per token k (with tokens and hidden gives data_bytes when that is 0)",
                      "seed 004 Table III (K in 1, 2, 4)"));
  t.push_back(integer("workload.xdc.tokens", FIELD(workload.xdc.tokens), {1, 1'000'000'000},
                      "cross_dc_moe: tokens per GPU per layer (batch x sequence), for data_bytes = 0",
                      "seed 004 Table III (B x L, 8 x 128 to 32 x 512)"));
  t.push_back(zeroMeans(
      quantity("workload.xdc.data_bytes", Q::Bytes, FIELD(workload.xdc.data_bytes), kNonNegative,
               "cross_dc_moe: D, the bytes one GPU dispatches in one all-to-all; 0 = tokens x hidden x 4 B x top_k",
               "seed 004 Table I (D), §V-C (6-192 MB)"),
      "tokens x hidden x 4 B x top_k"));
  t.push_back(integer("workload.xdc.layers", FIELD(workload.xdc.layers), {1, 100'000},
                      "cross_dc_moe: MoE layers in the iteration's forward pass", "seed 004 Table II"));
  t.push_back(zeroMeans(
      quantity("workload.xdc.pre_expert_ns", Q::Time, FIELD(workload.xdc.pre_expert), kNonNegative,
               "cross_dc_moe: Lat_PE, pre-expert compute (attention and dense blocks) per MoE layer; the "
               "all-gather overlaps it",
               "seed 004 Eq. 1-2 for 0; a given value is unconfirmed: the paper does not give Lat_PE for its models "
               "(1 ms lies in the range (0.76, 1.62) ms where the model reproduces every Table VI choice, spec 2.7)"),
      "derived from the GPU: (2 attention + 1 dense FFN block) GEMM MACs of tokens x hidden / (FP32 rate x "
      "gpu.tensor_efficiency / 2); core/xdc/pre_expert.h"));
  t.push_back(choice<XdcPass>(
      "workload.xdc.pass", FIELD(workload.xdc.pass), {{"forward", XdcPass::Forward}, {"training", XdcPass::Training}},
      "cross_dc_moe: forward = the forward pass of every MoE layer (what the paper's stream model predicts); "
      "training = the iteration: + the backward pass mirrored (combine and dispatch all-to-alls backward, expert "
      "and pre-expert compute x 2, expert gradients back to their owners in the domain) and the data-parallel "
      "all-reduce of the dense gradients (and of the shared expert when compressed)",
      "seed 004 §VI (backward: DDP all-reduce, an additive constant), §IV-B (shared expert all-reduced in "
      "backward); backward compute = 2 x forward is the usual estimate, unconfirmed (the paper does not say); "
      "default forward: the paper's model and tables cover the forward pass"));
  t.push_back(zeroMeans(
      quantity("workload.xdc.dense_bytes", Q::Bytes, FIELD(workload.xdc.dense_bytes), kNonNegative,
               "cross_dc_moe, training: non-expert (dense) parameter bytes per MoE layer whose gradients DDP "
               "all-reduces over every GPU",
               "seed 004 §V-A (PyTorch DDP, no ZeRO); derived value: the pre-expert blocks of core/xdc/pre_expert.h "
               "in fp32, unconfirmed (the paper gives only expert sizes)"),
      "((m+1) attention 4 H^2 + m dense FFN 8 H^2) x 4 B, m = 1: 64 H^2 bytes"));
  t.push_back(boolean("workload.xdc.grad_overlap", FIELD(workload.xdc.grad_overlap),
                      "cross_dc_moe, training: gradients leave during the backward pass (true): a DDP all-reduce "
                      "bucket per MoE layer as soon as that layer's backward is done, and the expert gradients back "
                      "to their owners as soon as its expert backward is done, one after another beside the "
                      "backward of the layers below (sharing links with its all-to-alls, which may then slow); "
                      "false: expert gradients inside each backward step and every dense gradient after the whole "
                      "backward pass. No optimizer step is modelled (the paper gives no time for it)",
                      "seed 004 §V-A (PyTorch DDP); default true as DDP overlaps by default (Li et al., PyTorch "
                      "Distributed, VLDB 2020: gradient buckets all-reduced during backward); a bucket per layer [R], "
                      "DDP's default is 25 MB buckets (one layer's dense fp32 gradients at H = 768: 37.7 MB)"));
  t.push_back(choice<XdcScheme>("scheme.ep", FIELD(scheme.ep), {{"ep", XdcScheme::Ep}, {"hybrid", XdcScheme::Hybrid}},
                                "cross_dc_moe: ep = plain expert parallelism (tokens only, p = 1); hybrid = HybridEP's "
                                "expert domains (experts all-gathered inside, tokens all-to-all across)",
                                "seed 004 §III-IV"));
  t.push_back(domainsParam());
  t.push_back(real("scheme.hybrid.compression_ratio", "float", FIELD(scheme.hybrid.compression_ratio), {1, 1e6},
                   "cross_dc_moe, hybrid: SR-based expert compression, the divisor on expert bytes on the wire "
                   "(1 = off)", "seed 004 §IV-B, §V-E (50)"));
  t.push_back(boolean("scheme.hybrid.fusion", FIELD(scheme.hybrid.fusion),
                      "cross_dc_moe, hybrid with compression: SREncode fused into the optimizer step (-30 %) and "
                      "SRDecode into the expert GEMMs (-45 %); each costs about 2 x dense expert bytes / HBM bandwidth "
                      "unfused (unconfirmed: the paper gives the costs only in Fig. 15)",
                      "seed 004 Fig. 15"));
}

}  // namespace fl::schema_build
