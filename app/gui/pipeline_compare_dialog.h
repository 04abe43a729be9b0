// "Compare pipelines": the token pipeline of the results on screen against the same
// scenario run with another scheme.fusion (and optionally scheme.communication), one
// above the other on one time axis (views::PipelineCompareView). The variant runs in a
// worker thread, never on the GUI thread; asking again while it runs cancels it and
// starts the newest request when it has stopped.
#pragma once
#include <QDialog>
#include <atomic>
#include <memory>
#include <thread>

#include "results/results.h"
#include "scenario/scenario.h"

class QComboBox;
class QLabel;
class QPushButton;

namespace fl::views {
class PipelineCompareView;
}

namespace fl::gui {

class PipelineCompareDialog : public QDialog {
  Q_OBJECT
 public:
  explicit PipelineCompareDialog(QWidget* parent = nullptr);
  ~PipelineCompareDialog() override;  // cancels and joins the variant's run

  // The run shown on top and the single-point scenario it ran (the variant's base).
  void setCurrent(std::shared_ptr<const Results> results, const Scenario& scenario, const QString& label);

  QComboBox* fusionBox() const { return fusion_; }
  QComboBox* communicationBox() const { return communication_; }  // item 0: the current one
  QPushButton* runButton() const { return run_; }
  views::PipelineCompareView* view() const { return view_; }
  QString statusText() const;
  bool isRunning() const { return job_ != nullptr; }
  std::shared_ptr<const Results> variant() const { return variant_; }

 public slots:
  void runVariant();

 signals:
  void variantFinished(bool ok);

 private:
  struct Job {
    std::atomic<bool> cancel{false};
  };
  void launch();
  void onDone(const std::shared_ptr<Job>& job, std::shared_ptr<const Results> r, const QString& error,
              const QString& label);
  void showBoth();
  QString variantLabel() const;

  std::shared_ptr<const Results> current_, variant_;
  Scenario base_;
  QString currentLabel_, shownVariantLabel_;
  QComboBox *fusion_, *communication_;
  QPushButton* run_;
  QLabel* status_;
  views::PipelineCompareView* view_;
  std::shared_ptr<Job> job_;
  std::thread worker_;
  bool pending_ = false;
};

}  // namespace fl::gui
