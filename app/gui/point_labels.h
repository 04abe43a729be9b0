// Friendly names for sweep points, shown in the sweep-point selector, the Sweep dock and
// the Story dock: an axis's own `labels` where the scenario gives them; where the point
// sets scheme.communication and scheme.fusion to a combination the seeds name, that
// name ("DySHARP-Basic", "Full DySHARP", "DeepEP", "COMET") in place of the two raw
// settings; the seeds' names for other values ("ER-Mapping", "TP-NVLS":
// scenario/friendly_names.h); else "key = value" (the key's last segment).
#pragma once
#include <QStringList>

#include "scenario/scenario.h"

namespace fl::gui {

QStringList friendlyPointLabels(const Scenario& s);

}  // namespace fl::gui
