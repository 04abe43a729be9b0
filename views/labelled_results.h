// A run's results with the name a view shows for it (a sweep point's label, e.g.
// "scheme.tp=cais_base"), for views that compare points side by side.
#pragma once
#include <QString>
#include <memory>

#include "results/results.h"

namespace fl::views {

struct LabelledResults {
  QString label;
  std::shared_ptr<const Results> results;
};

}  // namespace fl::views
