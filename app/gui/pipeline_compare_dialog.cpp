#include "gui/pipeline_compare_dialog.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMetaObject>
#include <QPushButton>
#include <QVBoxLayout>

#include "scenario/input_error.h"
#include "scenario/schema.h"
#include "scenario/sweep.h"
#include "sim/run.h"
#include "views/pipeline_compare_view.h"

namespace fl::gui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

PipelineCompareDialog::PipelineCompareDialog(QWidget* parent) : QDialog(parent) {
  setObjectName(QStringLiteral("PipelineCompareDialog"));
  setWindowTitle(tr("Compare Pipelines"));
  fusion_ = new QComboBox(this);
  fusion_->setObjectName(QStringLiteral("variantFusion"));
  for (const std::string& c : findParam("scheme.fusion")->choices) fusion_->addItem(q(c), q(c));
  communication_ = new QComboBox(this);
  communication_->setObjectName(QStringLiteral("variantCommunication"));
  communication_->addItem(tr("(as the current run)"), QString());
  for (const std::string& c : findParam("scheme.communication")->choices) communication_->addItem(q(c), q(c));
  run_ = new QPushButton(tr("Run variant"), this);
  run_->setToolTip(tr("Run the current scenario (the sweep point on screen) with these scheme settings"));
  status_ = new QLabel(this);
  auto* pick = new QHBoxLayout;
  pick->addWidget(new QLabel(tr("Below: the same scenario with scheme.fusion"), this));
  pick->addWidget(fusion_);
  pick->addWidget(new QLabel(tr("scheme.communication"), this));
  pick->addWidget(communication_);
  pick->addWidget(run_);
  pick->addWidget(status_, 1);
  view_ = new views::PipelineCompareView(this);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(pick);
  layout->addWidget(view_, 1);
  resize(1300, 950);
  connect(run_, &QPushButton::clicked, this, &PipelineCompareDialog::runVariant);
  // Before any variant has run, the lower pane is named after the one the boxes describe.
  for (QComboBox* box : {fusion_, communication_})
    connect(box, &QComboBox::currentIndexChanged, this, [this] {
      if (!variant_) showBoth();
    });
}

PipelineCompareDialog::~PipelineCompareDialog() {
  if (job_) job_->cancel = true;
  if (worker_.joinable()) worker_.join();
}

QString PipelineCompareDialog::statusText() const { return status_->text(); }

void PipelineCompareDialog::setCurrent(std::shared_ptr<const Results> results, const Scenario& scenario,
                                       const QString& label) {
  current_ = std::move(results);
  base_ = scenario;
  currentLabel_ = label;
  // Offer a scheme other than the current one first.
  const int same = fusion_->findData(q(getValue(base_, "scheme.fusion")));
  if (fusion_->currentIndex() == same) fusion_->setCurrentIndex(same == 0 ? fusion_->count() - 2 : 0);
  showBoth();
}

QString PipelineCompareDialog::variantLabel() const {
  QString label = tr("variant (fusion = %1").arg(fusion_->currentData().toString());
  if (!communication_->currentData().toString().isEmpty())
    label += tr(", communication = %1").arg(communication_->currentData().toString());
  return label + QLatin1Char(')');
}

void PipelineCompareDialog::runVariant() {
  if (job_) {  // the newest request wins once the running one has stopped
    pending_ = true;
    job_->cancel = true;
    return;
  }
  launch();
}

void PipelineCompareDialog::launch() {
  SweepSettings settings{{"scheme.fusion", fusion_->currentData().toString().toStdString()}};
  if (!communication_->currentData().toString().isEmpty())
    settings.emplace_back("scheme.communication", communication_->currentData().toString().toStdString());
  Scenario variant;
  try {
    variant = sweepPointScenario(base_, settings);
  } catch (const InputError& e) {
    status_->setText(q(e.what()));
    emit variantFinished(false);
    return;
  }
  auto job = std::make_shared<Job>();
  job_ = job;
  const QString label = variantLabel();
  status_->setText(tr("Running %1…").arg(label));
  worker_ = std::thread([this, job, variant, label] {
    std::shared_ptr<const Results> r;
    QString error;
    try {
      RunControl control;
      control.cancel = &job->cancel;
      r = std::make_shared<const Results>(runScenario(variant, control));
    } catch (const std::exception& e) {
      error = q(e.what());
    }
    QMetaObject::invokeMethod(this, [this, job, r, error, label] { onDone(job, r, error, label); },
                              Qt::QueuedConnection);
  });
}

void PipelineCompareDialog::onDone(const std::shared_ptr<Job>& job, std::shared_ptr<const Results> r,
                                   const QString& error, const QString& label) {
  if (worker_.joinable()) worker_.join();  // its last act was posting this
  job_.reset();
  const bool ok = error.isEmpty() && r && !r->cancelled && !job->cancel;
  if (ok) {
    variant_ = std::move(r);
    shownVariantLabel_ = label;
  }
  status_->setText(!error.isEmpty() ? error : ok ? QString() : tr("Stopped."));
  if (pending_) {
    pending_ = false;
    launch();
    return;
  }
  showBoth();
  emit variantFinished(ok);
}

void PipelineCompareDialog::showBoth() {
  view_->setResults(tr("current (%1)").arg(currentLabel_), current_,
                    variant_ ? shownVariantLabel_ : variantLabel(), variant_);
}

}  // namespace fl::gui
