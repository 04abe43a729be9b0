// The one source of task/phase colours (Okabe-Ito, colour-blind safe): the Pipeline dock's
// Gantt bars and legend, the Fusion scheme dock's SM-partition swatches and anything else
// that colours a pipeline phase take them from here, so a phase looks the same everywhere.
#pragma once
#include <QColor>

#include "results/results.h"

namespace fl::views {

// Communication in blue/green, the two GEMMs warm, waiting in neutral tones.
QColor phaseColour(PipelineTaskKind kind);

}  // namespace fl::views
