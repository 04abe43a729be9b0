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
    // Tensor-parallel layers: GEMMs warm as the MoE GEMMs, communication cool, waits dark.
    case PipelineTaskKind::LocalGemm: return QColor(0x8c6d31);   // brown
    case PipelineTaskKind::Compute: return QColor(0xbcbd22);     // olive
    case PipelineTaskKind::GemmRs: return QColor(0xd55e00);      // vermilion
    case PipelineTaskKind::LayerNorm: return QColor(0x56b4e9);   // sky blue
    case PipelineTaskKind::AgGemm: return QColor(0xe69f00);      // amber
    case PipelineTaskKind::Collective: return QColor(0x0072b2);  // blue
    case PipelineTaskKind::CaisReduce: return QColor(0x009e73);  // green
    case PipelineTaskKind::CaisLoad: return QColor(0x332288);    // indigo
    case PipelineTaskKind::SyncWait: return QColor(0x882255);    // wine
  }
  return Qt::black;
}

}  // namespace fl::views
