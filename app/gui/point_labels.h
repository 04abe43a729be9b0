// Friendly names for sweep points, shown in the sweep-point selector, the Sweep dock and
// the Story dock: core's sweepPointLabels (scenario/story.h), the same names the CLI
// and the reports use ("Full DySHARP", "ER-Mapping", "Compression 50×").
#pragma once
#include <QStringList>

#include "scenario/scenario.h"

namespace fl::gui {

QStringList friendlyPointLabels(const Scenario& s);

}  // namespace fl::gui
