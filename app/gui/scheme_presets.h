// The named fusion x communication combinations the seeds evaluate, and one-line
// explanations of each scheme, for the Fusion scheme dock.
#pragma once
#include <QString>
#include <string>
#include <vector>

namespace fl::gui {

struct SchemePreset {
  QString name;           // "Full DySHARP"
  const char* communication;  // scheme.communication value
  const char* fusion;         // scheme.fusion value
  QString explanation;    // one line, with the seed section
};

// DySHARP-Basic, DySHARP-COMET, fusion-only, full DySHARP (seed 000 §VI, Fig. 4, 16),
// FlashDMoE (seed 001).
const std::vector<SchemePreset>& schemePresets();

// The preset matching a combination, or null.
const SchemePreset* findSchemePreset(const std::string& communication, const std::string& fusion);

// One line for a scheme.fusion / scheme.communication value ("" for an unknown one).
QString fusionExplanation(const std::string& fusion);
QString communicationExplanation(const std::string& communication);

}  // namespace fl::gui
