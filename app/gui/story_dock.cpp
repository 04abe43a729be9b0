#include "gui/story_dock.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMainWindow>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include "gui/point_labels.h"
#include "gui/scenario_document.h"
#include "gui/story_step_delegate.h"
#include "gui/sweep_results.h"
#include "scenario/follow_selector.h"
#include "scenario/story.h"
#include "views/run_model.h"

namespace fl::gui {

StoryDock::StoryDock(ScenarioDocument* doc, SweepResults* sweep, views::RunModel* model, QWidget* parent)
    : QDockWidget(tr("Story"), parent), doc_(doc), sweep_(sweep), model_(model) {
  setObjectName(QStringLiteral("StoryDock"));
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(4, 4, 4, 4);
  list_ = new QListWidget(body);
  list_->setObjectName(QStringLiteral("storySteps"));
  list_->setWordWrap(true);
  list_->setResizeMode(QListView::Adjust);  // re-wrap the steps when the dock changes width
  list_->setSpacing(3);
  list_->setItemDelegate(new StoryStepDelegate(list_));  // every step whole, never elided
  list_->setToolTip(tr("Click a step to show it"));
  layout->addWidget(list_, 1);
  note_ = new QLabel(body);
  note_->setWordWrap(true);
  note_->setObjectName(QStringLiteral("storyNote"));
  layout->addWidget(note_);
  auto* row = new QHBoxLayout;
  back_ = new QPushButton(tr("◀ Back"), body);
  next_ = new QPushButton(tr("Next ▶"), body);
  back_->setObjectName(QStringLiteral("storyBack"));
  next_->setObjectName(QStringLiteral("storyNext"));
  row->addWidget(back_);
  row->addStretch(1);
  row->addWidget(next_);
  layout->addLayout(row);
  setWidget(body);

  connect(list_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) { play(list_->row(item)); });
  connect(back_, &QPushButton::clicked, this, &StoryDock::back);
  connect(next_, &QPushButton::clicked, this, &StoryDock::next);
  connect(doc_, &ScenarioDocument::changed, this, &StoryDock::rebuild);
  // A step waiting for its point's results: move the timeline once they are final (after
  // the sweep has put the timeline on the busiest bin).
  connect(model_, &views::RunModel::resultsChanged, this, [this] {
    if (pending_ < 0 || !model_->isFinal()) return;
    QTimer::singleShot(0, this, [this] {
      if (pending_ >= 0 && pending_ < stepCount() && moveTimeline(steps_[size_t(pending_)])) pending_ = -1;
    });
  });
  rebuild();
}

int StoryDock::stepCount() const { return static_cast<int>(steps_.size()); }

QString StoryDock::problem() const { return note_->property("problem").toString(); }

void StoryDock::say(const QString& problem) {
  note_->setProperty("problem", problem);
  note_->setText(problem.isEmpty() ? QString() : QStringLiteral("<i>%1</i>").arg(problem.toHtmlEscaped()));
}

void StoryDock::rebuild() {
  if (doc_->scenario().story == steps_ && list_->count() == stepCount() && stepCount() > 0) return;
  steps_ = doc_->scenario().story;
  list_->clear();
  current_ = -1;
  pending_ = -1;
  for (size_t i = 0; i < steps_.size(); ++i)
    list_->addItem(QStringLiteral("%1. %2").arg(i + 1).arg(QString::fromStdString(steps_[i].text)));
  back_->setEnabled(!steps_.empty());
  next_->setEnabled(!steps_.empty());
  if (steps_.empty())
    say(tr("This scenario has no story. A `story:` list in its file adds one: steps with a text and what to "
           "show (a sweep point, a dock, a time or phase, the direction filter, a packet to follow); see docs/scenario.md."));
  else
    say({});
}

void StoryDock::play(int step) {
  if (step < 0 || step >= stepCount()) return;
  current_ = step;
  list_->setCurrentRow(step);
  const StoryStep& s = steps_[size_t(step)];
  QStringList problems;
  if (!s.point.empty()) {
    int point = storyPointIndex(doc_->scenario(), s.point);
    if (point < 0) point = int(friendlyPointLabels(doc_->scenario()).indexOf(QString::fromStdString(s.point)));
    if (point < 0 || point >= sweep_->pointCount())
      problems << tr("no sweep point \"%1\" any more").arg(QString::fromStdString(s.point));
    else
      sweep_->selectPoint(point);
  }
  if (!s.direction.empty())
    model_->setDirectionFilter(s.direction == "up"     ? views::DirectionFilter::Up
                               : s.direction == "down" ? views::DirectionFilter::Down
                                                       : views::DirectionFilter::Both);
  if (!s.dock.empty()) {
    QDockWidget* found = nullptr;
    if (auto* window = qobject_cast<QMainWindow*>(parent()))
      for (QDockWidget* d : window->findChildren<QDockWidget*>())
        if (d->windowTitle() == QString::fromStdString(s.dock)) found = d;
    if (found) {
      found->show();
      found->raise();
    } else {
      problems << tr("no dock \"%1\"").arg(QString::fromStdString(s.dock));
    }
  }
  if (!s.follow.empty()) {
    const auto sels = parseFollowSelectors(s.follow);
    if (sels && !sels->empty() && !sels->front().none()) emit followRequested(QString::fromStdString(s.follow));
  }
  pending_ = -1;
  if ((s.at >= 0 || !s.phase.empty()) && !moveTimeline(s)) pending_ = step;
  if (!s.phase.empty() && model_->isFinal() && pending_ < 0 && model_->results()) {
    bool known = false;
    for (const auto& ph : model_->results()->phases) known |= ph.name == s.phase;
    if (!known) problems << tr("this run has no phase \"%1\"").arg(QString::fromStdString(s.phase));
  }
  say(problems.join(QStringLiteral("; ")));
  emit stepPlayed(step);
}

bool StoryDock::moveTimeline(const StoryStep& s) {
  const Results* r = model_->results();
  if (!r || !model_->isFinal() || r->bin <= 0) return false;
  Time t = s.at;
  if (!s.phase.empty())
    for (const auto& ph : r->phases)
      if (ph.name == s.phase) {
        t = ph.start;
        break;
      }
  if (t < 0) return true;  // an unknown phase: said by play()
  model_->setFollowLive(false);
  model_->setCurrentBin(int(t / r->bin));
  return true;
}

}  // namespace fl::gui
