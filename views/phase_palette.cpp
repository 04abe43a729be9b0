#include "views/phase_palette.h"

namespace fl::views {

QColor phaseColour(PipelineTaskKind kind) {
  switch (kind) {
    case PipelineTaskKind::Dispatch: return QColor(0x0072b2);   // blue
    case PipelineTaskKind::Gemm1: return QColor(0xe69f00);      // amber
    case PipelineTaskKind::Gemm2: return QColor(0xd55e00);      // vermilion
    case PipelineTaskKind::Combine: return QColor(0x009e73);    // green
    case PipelineTaskKind::LaunchGap: return QColor(0x9a9a9a);  // grey
    case PipelineTaskKind::Barrier: return QColor(0xcc79a7);    // pink
  }
  return Qt::black;
}

}  // namespace fl::views
