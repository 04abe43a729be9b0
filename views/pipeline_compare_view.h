// Two token pipelines one above the other (e.g. two fusion schemes on the same scenario:
// seed 000 Fig. 9's sequential vs token-centric), on the same time axis: zooming or
// panning one moves the other, and their left edges line up so equal times sit on one
// vertical. Each Gantt has its SMs-busy strip under it and a title naming the scheme with
// its makespan and SM utilisation.
#pragma once
#include <QWidget>
#include <memory>

#include "results/results.h"

class QLabel;

namespace fl::views {

class PipelineGantt;

class PipelineCompareView : public QWidget {
  Q_OBJECT
 public:
  explicit PipelineCompareView(QWidget* parent = nullptr);

  // Side 0 on top. Either may be null (shown as a notice).
  void setResults(const QString& labelA, std::shared_ptr<const Results> a, const QString& labelB,
                  std::shared_ptr<const Results> b);

  PipelineGantt* gantt(int side) const { return gantts_[side]; }
  QString title(int side) const;

  // "<label>: token_centric + dysharp — makespan 412 µs, SM utilisation 63 %".
  static QString pipelineTitle(const QString& label, const Results& r);

 private:
  void alignLeftEdges();

  QLabel* titles_[2];
  PipelineGantt* gantts_[2];
};

}  // namespace fl::views
