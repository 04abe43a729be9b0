#include "gui/follow_runner.h"

#include <QAction>
#include <QCoreApplication>
#include <QPointer>
#include <QSpinBox>

#include "gui/sweep_results.h"
#include "scenario/follow_selector.h"
#include "scenario/input_error.h"
#include "sim/follow_run.h"
#include "sim/sweep_overrides.h"
#include "topology/topology.h"
#include "views/follow_bar.h"
#include "views/run_model.h"
#include "views/topology_canvas.h"

namespace fl::gui {

FollowRunner::FollowRunner(views::TopologyCanvas* canvas, views::RunModel* model, SweepResults* sweep, QWidget* barParent)
    : QObject(barParent), canvas_(canvas), model_(model), sweep_(sweep), bar_(new views::FollowBar(barParent)) {
  setObjectName(QStringLiteral("followRunner"));
  bar_->hide();
  action_ = new QAction(tr("Follow One…"), this);
  action_->setObjectName(QStringLiteral("followOneAction"));
  action_->setCheckable(true);
  action_->setShortcut(QKeySequence(tr("Ctrl+Shift+F")));
  action_->setToolTip(tr("Follow one token or chunk hop by hop through the fabric, in slow motion"));
  connect(action_, &QAction::toggled, this, [this](bool on) {
    bar_->setVisible(on);
    if (on) updateChoices();
    else canvas_->setFollow(nullptr);
  });
  connect(bar_, &views::FollowBar::closed, action_, [this] { action_->setChecked(false); });
  connect(bar_, &views::FollowBar::followRequested, this, &FollowRunner::follow);
  connect(bar_, &views::FollowBar::timeChanged, canvas_, [this](Time t) {
    canvas_->setFollowTime(t);
    // The lanes, the timeline and the plots' cursor show the bin the packets are in.
    if (bar_->follow() && model_->binWidth() > 0 && model_->isFinal()) model_->setCurrentBin(static_cast<int>(t / model_->binWidth()));
  });
  connect(model_, &views::RunModel::topologyChanged, this, [this] {
    bar_->setFollow(nullptr, QString());  // the canvas dropped the hops of the old fabric
    updateChoices();
  });
  connect(sweep_, &SweepResults::selectedPointChanged, this, [this] {
    canvas_->setFollow(nullptr);
    bar_->setFollow(nullptr, QString());
    shownRecorded_.reset();
    showRecorded();  // the point's own run.follow hops, when it has some
  });
  connect(model_, &views::RunModel::resultsChanged, this, &FollowRunner::showRecorded);
}

void FollowRunner::showRecorded() {
  const auto results = model_->resultsShared();
  if (!results || !model_->isFinal() || !results->follow || !model_->topology()) return;
  if (shownRecorded_.lock() == results) return;  // already on screen (or replaced by the user's pick)
  shownRecorded_ = results;
  ++generation_;  // a pick still being recorded is superseded by the newer run's hops
  stop();
  running_ = false;
  std::shared_ptr<const PacketFollow> follow(results, &*results->follow);  // lives as long as the results
  action_->setChecked(true);  // the bar, as View > Follow One shows it
  if (const auto sel = parseFollowSelector(firstFollowSelector(sweep_->scenario().run.follow))) {
    const FollowChoice c = followChoice(*sel);
    bar_->gpuBox()->setValue(c.gpu);
    bar_->itemBox()->setValue(c.item);
    if (c.piece >= 0) bar_->pieceBox()->setValue(c.piece);
  }
  canvas_->setFollow(follow);
  bar_->setFollow(follow, QString::fromStdString(follow->what));
  emit followed();
}

FollowRunner::~FollowRunner() { stop(); }

void FollowRunner::stop() {
  if (cancel_) cancel_->store(true);
  if (worker_.joinable()) worker_.join();
}

void FollowRunner::updateChoices() {
  const Scenario& s = sweep_->scenario();
  const int gpus = model_->topology() ? model_->topology()->endpointCount() : 0;
  if (s.workload.kind == WorkloadKind::MoeLayer)
    bar_->setChoices(gpus, tr("token"), std::max(1, s.workload.moe.tokens_per_gpu), false);
  else if (s.workload.kind == WorkloadKind::Collective && s.workload.collective.algorithm == CollectiveAlgorithm::Direct)
    bar_->setChoices(gpus, tr("to GPU"), gpus, true);
  else if (s.workload.kind == WorkloadKind::Collective && s.workload.collective.algorithm == CollectiveAlgorithm::Nvls)
    bar_->setChoices(gpus, tr("its chunk"), 1, true);
  else if (s.workload.kind == WorkloadKind::Collective)
    bar_->setChoices(gpus, tr("chunk"), gpus, true);
  else
    bar_->setChoices(gpus, tr("tag"), 1 << 20, true);
}

void FollowRunner::showAndFollow(int gpu, int item, int piece) {
  action_->setChecked(true);  // shows the bar with the workload's choices
  bar_->gpuBox()->setValue(gpu);
  bar_->itemBox()->setValue(item);
  if (piece >= 0) bar_->pieceBox()->setValue(piece);
  follow(gpu, item, piece);
}

void FollowRunner::showAndFollowSelectors(const QString& selectors) {
  const auto sels = parseFollowSelectors(selectors.toStdString());
  if (!sels || sels->empty() || sels->front().none()) return;
  const FollowChoice first = followChoice(sels->front());
  if (sels->size() == 1) return showAndFollow(first.gpu, first.item, first.piece);
  action_->setChecked(true);
  bar_->gpuBox()->setValue(first.gpu);  // the pickers show the first of the list
  bar_->itemBox()->setValue(first.item);
  if (first.piece >= 0) bar_->pieceBox()->setValue(first.piece);
  Scenario s;
  if (!pointScenario(s)) return;
  s.run.follow = selectors.toStdString();
  // As run.follow records a list: each selector its own group (colour) and name.
  record(s, tr("%1 selectors").arg(sels->size()),
         [](const Scenario& point, const topo::Topology& t, const RunControl& control, PacketFollow& out) {
           Results r = runWithFollow(point, t, control);
           if (r.follow) out = std::move(*r.follow);
         });
}

void FollowRunner::follow(int gpu, int item, int piece) {
  Scenario s;
  if (!pointScenario(s)) return;
  const auto topology = model_->topologyShared();
  auto spec = std::make_shared<FollowSpec>(followSpecFor(s, *topology, gpu, item, piece));
  const std::string what = describeFollow(s, gpu, item, piece);
  record(s, QString::fromStdString(what),
         [spec, what](const Scenario& point, const topo::Topology& t, const RunControl& control, PacketFollow& out) {
           runFollowing(point, t, spec.get(), &out, control);
           out.what = what;
         });
}

// The point the views show as a scenario of its own, on one thread; false (the bar says
// why) when there is none.
bool FollowRunner::pointScenario(Scenario& s) {
  stop();
  if (!model_->topologyShared()) return false;
  s = sweep_->scenario();
  try {
    if (!s.sweep.empty()) s = keepSweepPoint(s, static_cast<std::size_t>(std::max(0, sweep_->selectedPoint())));
  } catch (const std::exception& e) {
    bar_->setFollow(nullptr, QString::fromUtf8(e.what()));
    return false;
  }
  s.run.threads = 1;  // the recording is the same for any count; leave the cores to the main run
  return true;
}

void FollowRunner::record(const Scenario& s, const QString& what, RecordJob job) {
  const auto topology = model_->topologyShared();
  bar_->setBusy(tr("Recording the hops of %1…").arg(what));
  running_ = true;
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  const int generation = ++generation_;
  QPointer<FollowRunner> self(this);
  worker_ = std::jthread([self, s, topology, job = std::move(job), generation, cancel = cancel_] {
    auto out = std::make_shared<PacketFollow>();
    QString error;
    try {
      RunControl control;
      control.cancel = cancel.get();
      job(s, *topology, control, *out);
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    }
    if (cancel->load()) return;
    QMetaObject::invokeMethod(
        QCoreApplication::instance(), [self, out, error, generation] {
          if (!self || generation != self->generation_) return;
          self->running_ = false;
          if (!error.isEmpty()) {
            self->bar_->setFollow(nullptr, error);
          } else {
            self->canvas_->setFollow(out);
            self->bar_->setFollow(out, QString::fromStdString(out->what));
          }
          emit self->followed();
        },
        Qt::QueuedConnection);
  });
}

}  // namespace fl::gui
