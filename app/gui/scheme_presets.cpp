#include "gui/scheme_presets.h"

#include <QCoreApplication>
#include <map>
#include <string>

#include "scenario/friendly_names.h"

namespace fl::gui {

namespace {
QString tr(const char* text) { return QCoreApplication::translate("SchemePresets", text); }

QString lineFor(const std::map<std::string, const char*>& lines, const std::string& key) {
  const auto it = lines.find(key);
  return it == lines.end() ? QString() : tr(it->second);
}
// The seeds' name of a combination: one list for the presets and the sweep-point labels.
QString name(const char* communication, const char* fusion) {
  return QString::fromStdString(friendlySchemeName(communication, fusion));
}
}  // namespace

const std::vector<SchemePreset>& schemePresets() {
  static const std::vector<SchemePreset> presets = {
      {name("dysharp", "sequential"), "dysharp", "sequential",
       tr("dynamic multimem addressing, kernels one after another, no overlap (seed 000 Fig. 4c).")},
      {name("dysharp", "overlap"), "dysharp", "overlap",
       tr("dynamic multimem addressing with COMET's tile-level overlap (seed 000 Fig. 4d).")},
      {name("deepep", "token_centric"), "deepep", "token_centric",
       tr("token-centric fusion over DeepEP unicast; alone it does not beat COMET (seed 000 Fig. 4e).")},
      {name("dysharp", "token_centric"), "dysharp", "token_centric",
       tr("dynamic multimem addressing and token-centric fusion: one token-paced pipeline, dispatch and "
          "combine concurrent (seed 000 §IV).")},
      {name("deepep", "persistent"), "deepep", "persistent",
       tr("one persistent kernel running tile tasks as they become ready, device-initiated unicast "
          "(seed 001 §4).")},
  };
  return presets;
}

const SchemePreset* findSchemePreset(const std::string& communication, const std::string& fusion) {
  for (const SchemePreset& p : schemePresets())
    if (communication == p.communication && fusion == p.fusion) return &p;
  return nullptr;
}

QString fusionExplanation(const std::string& fusion) {
  static const std::map<std::string, const char*> lines = {
      {"sequential", "four kernels (dispatch, GEMM-1, GEMM-2, combine) with a barrier between"},
      {"comm_only", "dispatch and combine concurrently, no computation (pure communication)"},
      {"overlap", "COMET: dispatch overlapped with GEMM-1 and GEMM-2 with combine, per tile"},
      {"token_centric", "DySHARP: one pipeline on four SM groups gated by the token tracker"},
      {"persistent", "FlashDMoE: one persistent kernel running tile tasks as they become ready"},
  };
  return lineFor(lines, fusion);
}

QString communicationExplanation(const std::string& communication) {
  static const std::map<std::string, const char*> lines = {
      {"deepep", "one unicast copy per destination GPU, no in-switch computing"},
      {"nvls_static", "NVLS AllGather dispatch and ReduceScatter combine (moves useless bytes)"},
      {"dysharp", "dynamic multimem: one packet per token, the switch replicates and reduces"},
      {"explicit", "every destination GPU encoded in the packet header"},
  };
  return lineFor(lines, communication);
}

}  // namespace fl::gui
