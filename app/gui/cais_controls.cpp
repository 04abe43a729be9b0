#include "gui/cais_controls.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "gui/scenario_document.h"
#include "gui/selected_sweep_point.h"
#include "scenario/friendly_names.h"
#include "scenario/schema.h"
#include "scenario/sweep.h"
#include "views/format_units.h"

namespace fl::gui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }

// Tooltip from the schema: what the key is, its default and where that comes from.
QString describe(const std::string& path) {
  const ParamSpec* p = findParam(path);
  if (!p) return {};
  QString tip = q(path) + QStringLiteral("\n") + q(p->doc);
  if (!p->defaultText.empty()) tip += QObject::tr("\ndefault: %1").arg(q(p->defaultText));
  if (!p->source.empty()) tip += QObject::tr(" (%1)").arg(q(p->source));
  return tip;
}
}  // namespace

QString tpSchemeDisplayName(const std::string& value) {
  const std::string name = friendlyValueName("scheme.tp", value);
  return q(name.empty() ? value : name);
}

CaisControls::CaisControls(ScenarioDocument* doc, QWidget* parent) : QDockWidget(tr("CAIS"), parent), doc_(doc) {
  setObjectName(QStringLiteral("CaisControlsDock"));
  stack_ = new QStackedWidget(this);
  notice_ = views::makeNoticeLabel(stack_);
  notice_->setText(tr("CAIS settings apply to tensor-parallel layers.\nSet workload.kind to tp_layer to edit them."));
  stack_->addWidget(notice_);

  auto* scroll = new QScrollArea(stack_);
  scroll->setWidgetResizable(true);
  auto* page = new QWidget(scroll);
  auto* col = new QVBoxLayout(page);
  auto* form = new QFormLayout;
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form->setRowWrapPolicy(QFormLayout::WrapLongRows);
  scheme_ = addChoice(form, tr("Scheme:"), "scheme.tp");
  scheme_->setObjectName(QStringLiteral("caisScheme"));
  addLine(form, tr("Merge table:"), "network.switch.merge_table");
  addLine(form, tr("Merge timeout:"), "network.switch.merge_timeout");
  addLine(form, tr("Launch jitter:"), "scheme.stragglers.start_jitter");
  addLine(form, tr("TB noise:"), "scheme.stragglers.task_noise");
  // The calibrated drift (specs/cais.md §2.8) and the SM split of asymmetric overlapping (§2.10).
  addLine(form, tr("Kernel offset:"), "workload.tp.kernel_offset");
  addLine(form, tr("TB noise CV:"), "workload.tp.tb_noise_cv");
  addLine(form, tr("SM split:"), "workload.tp.rs_sm_fraction");  // GEMM-RS share
  addChoice(form, tr("Tile order:"), "workload.tp.row_order");
  col->addLayout(form);
  sweepNote_ = new QLabel(page);
  sweepNote_->setWordWrap(true);
  sweepNote_->setMargin(6);
  sweepNote_->setStyleSheet(QStringLiteral("background: palette(alternate-base); border: 1px solid palette(mid);"));
  sweepNote_->hide();
  col->addWidget(sweepNote_);
  error_ = views::makeErrorLabel(page);
  col->addWidget(error_);
  col->addStretch(1);
  scroll->setWidget(page);
  stack_->addWidget(scroll);
  setWidget(stack_);

  connect(doc_, &ScenarioDocument::changed, this, &CaisControls::refresh);
  refresh();
}

void CaisControls::addLine(QFormLayout* form, const QString& label, const std::string& path) {
  if (!findParam(path)) return;
  auto* edit = new QLineEdit(form->parentWidget());
  edit->setObjectName(q(path));
  edit->setToolTip(describe(path));
  form->addRow(label, edit);
  lines_.emplace_back(path, edit);
  connect(edit, &QLineEdit::editingFinished, this, [this, path, edit] {
    if (edit->isModified()) commit(path, edit->text().trimmed().toStdString());
    edit->setModified(false);
  });
}

// Items: the schema's values, by the seeds' names where they have one.
QComboBox* CaisControls::addChoice(QFormLayout* form, const QString& label, const std::string& path) {
  auto* box = new QComboBox(form->parentWidget());
  box->setObjectName(q(path));
  if (const ParamSpec* p = findParam(path))
    for (const std::string& v : p->choices) {
      const std::string name = friendlyValueName(path, v);
      box->addItem(q(name.empty() ? v : name), q(v));
    }
  box->setToolTip(describe(path));
  form->addRow(label, box);
  choices_.emplace_back(path, box);
  connect(box, &QComboBox::activated, this, [this, path, box](int i) { commit(path, box->itemData(i).toString().toStdString()); });
  return box;
}

QComboBox* CaisControls::choice(const std::string& path) const {
  for (const auto& [p, b] : choices_)
    if (p == path) return b;
  return nullptr;
}

QLineEdit* CaisControls::field(const std::string& path) const {
  for (const auto& [p, e] : lines_)
    if (p == path) return e;
  return nullptr;
}

std::vector<std::string> CaisControls::paths() const {
  std::vector<std::string> out;
  for (const auto& c : choices_) out.push_back(c.first);
  for (const auto& l : lines_) out.push_back(l.first);
  return out;
}

QString CaisControls::errorText() const { return error_->isHidden() ? QString() : error_->text(); }
bool CaisControls::noticeVisible() const { return stack_->currentIndex() == 0; }
QString CaisControls::sweepNoteText() const { return sweepNote_->isHidden() ? QString() : sweepNote_->text(); }

void CaisControls::setSweepPoint(int point) {
  if (point == sweepPoint_) return;
  sweepPoint_ = point;
  refresh();
}

void CaisControls::commit(const std::string& path, const std::string& text) {
  // The GUI writes µs; the schema reads both.
  std::string value = text;
  if (const auto at = value.find("\u00b5s"); at != std::string::npos) value.replace(at, std::string("\u00b5s").size(), "us");
  const QString error = doc_->edit(path, value);
  if (error.isEmpty()) {
    error_->hide();
  } else {
    error_->setText(error);
    error_->show();
  }
  refresh();  // a rejected value: the form shows the document's again
}

void CaisControls::refresh() {
  const Scenario& base = doc_->scenario();
  stack_->setCurrentIndex(base.workload.kind == WorkloadKind::TpLayer ? 1 : 0);
  // References, not a structured binding: the lambdas below capture them (Clang 14).
  const SelectedSweepPoint selected = selectedSweepPoint(base, sweepPoint_);
  const SweepSettings& point = selected.settings;
  const Scenario& shown = selected.scenario;
  QStringList swept;
  const auto isSwept = [&](const std::string& path) {
    const bool s = std::any_of(point.begin(), point.end(), [&](const auto& kv) { return kv.first == path; });
    if (s) swept << q(path);
    return s;
  };
  for (const auto& [path, box] : choices_) {
    const QSignalBlocker block(box);
    box->setEnabled(!isSwept(path));
    box->setCurrentIndex(box->findData(q(getValue(shown, path))));
  }
  for (const auto& [path, edit] : lines_) {
    edit->setEnabled(!isSwept(path));
    if (!edit->hasFocus() || !edit->isEnabled()) edit->setText(views::displayUnits(q(getValue(shown, path))));
  }
  QString pointText;
  for (const auto& [key, value] : point) pointText += (pointText.isEmpty() ? "" : ", ") + q(key) + " = " + q(value);
  sweepNote_->setVisible(!swept.isEmpty());
  sweepNote_->setText(swept.isEmpty() ? QString()
                                      : tr("<b>Locked:</b> the sweep sets %1 for each point. Shown: the point %2 "
                                           "(choose another under Sweep point in the toolbar, or edit the sweep "
                                           "in the Scenario dock).")
                                            .arg(swept.join(tr(" and ")), pointText));
}

}  // namespace fl::gui
