// One phase's figures of a link (links[].phases, wafer-scale inference), for the wsc tests.
#pragma once
#include <string>

#include "results/results.h"

inline const fl::LinkPhaseResult* phase(const fl::LinkDirectionResult& l, const std::string& name) {
  for (const auto& p : l.phases)
    if (p.phase == name) return &p;
  return nullptr;
}
