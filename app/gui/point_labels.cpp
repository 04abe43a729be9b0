#include "gui/point_labels.h"

#include "scenario/story.h"

namespace fl::gui {

QStringList friendlyPointLabels(const Scenario& s) {
  QStringList out;
  for (const std::string& label : sweepPointLabels(s)) out << QString::fromStdString(label);
  return out;
}

}  // namespace fl::gui
