#include "gui/fusion_editor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>

#include "gui/scenario_document.h"
#include "gui/selected_sweep_point.h"
#include "gui/scenario_tree_model.h"
#include "gui/scheme_presets.h"
#include "pipeline/fusion_layout.h"
#include "scenario/schema.h"
#include "scenario/sweep.h"
#include "views/flow_layout.h"
#include "views/format_units.h"

namespace fl::gui {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

const char* const kGroupKeys[views::kSmGroups] = {
    "scheme.token_centric.dispatch_sms", "scheme.token_centric.gemm1_sms", "scheme.token_centric.gemm2_sms",
    "scheme.token_centric.combine_sms"};

// The split the simulator takes while "automatic" is ticked: shown then (greyed), and
// what unticking starts from, so that the first manual edit departs from what ran.
views::SmGroups automaticSplit(const Scenario& s) {
  int split[views::kSmGroups];
  automaticTokenCentricSplit(s, split);
  return {split[0], split[1], split[2], split[3]};
}

// A form whose fields go under their labels where the dock is too narrow for both side
// by side (a small screen), rather than scroll sideways.
QFormLayout* newForm() {
  auto* form = new QFormLayout;
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form->setLabelAlignment(Qt::AlignLeft);
  form->setRowWrapPolicy(QFormLayout::WrapLongRows);
  return form;
}

QGroupBox* section(const QString& title, QWidget* parent, QFormLayout*& form) {
  auto* box = new QGroupBox(title, parent);
  form = newForm();
  box->setLayout(form);
  // Scroll rather than squeeze; Minimum, not Fixed: a box whose rows wrap grows to the
  // height its width needs.
  box->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
  return box;
}

}  // namespace

FusionEditor::FusionEditor(ScenarioDocument* doc, QWidget* parent)
    : QDockWidget(tr("Fusion scheme"), parent), doc_(doc) {
  setObjectName(QStringLiteral("FusionDock"));
  stack_ = new QStackedWidget(this);
  notice_ = views::makeNoticeLabel(stack_);
  notice_->setText(tr("The fusion scheme applies to MoE layers.\nSet workload.kind to moe_layer to edit it."));
  stack_->addWidget(notice_);

  auto* scroll = scroll_ = new QScrollArea(stack_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* body = new QWidget(scroll);
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(4, 4, 4, 4);
  for (QWidget* box : {buildSchemeBox(), buildPartitionBox(), buildTrackerBox(), buildLaunchBox(),
                       buildPersistentBox(), buildStragglersBox()}) {
    box->setParent(body);
    layout->addWidget(box);
  }
  layout->addStretch(1);
  scroll->setWidget(body);
  alignLabels(body);
  for (QWidget* w : body->findChildren<QWidget*>())
    if (qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QComboBox*>(w) || qobject_cast<QSlider*>(w)) {
      w->setFocusPolicy(Qt::StrongFocus);  // not focused by the wheel ...
      w->installEventFilter(this);         // ... which scrolls the form instead (eventFilter)
    }

  // The message of a rejected edit stays in view under the scrolling form.
  auto* page = new QWidget(stack_);
  auto* pageLayout = new QVBoxLayout(page);
  pageLayout->setContentsMargins(0, 0, 0, 0);
  sweepNote_ = new QLabel(page);
  sweepNote_->setObjectName(QStringLiteral("sweepNote"));
  sweepNote_->setWordWrap(true);
  sweepNote_->setMargin(6);
  sweepNote_->setStyleSheet(QStringLiteral("background: palette(alternate-base); border: 1px solid palette(mid);"));
  sweepNote_->hide();
  pageLayout->addWidget(sweepNote_);
  pageLayout->addWidget(scroll, 1);
  error_ = views::makeErrorLabel(page);
  error_->setObjectName(QStringLiteral("fusionError"));
  pageLayout->addWidget(error_);
  stack_->addWidget(page);
  setWidget(stack_);

  connect(doc_, &ScenarioDocument::changed, this, [this] {
    clearError();
    refresh();
  });
  refresh();
}

QWidget* FusionEditor::buildSchemeBox() {
  // Combos, the explanation, the named schemes and the SM fields one under the other: the
  // wrapped texts and buttons take the height their width needs.
  auto* box = new QGroupBox(tr("Scheme"), this);
  box->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
  auto* column = new QVBoxLayout(box);
  QFormLayout* form = newForm();
  column->addLayout(form);
  addCombo(form, tr("Fusion:"), "scheme.fusion");
  addCombo(form, tr("Communication:"), "scheme.communication");
  explanation_ = new QLabel(box);
  explanation_->setObjectName(QStringLiteral("schemeExplanation"));
  explanation_->setWordWrap(true);
  // Room for four lines, so that the form does not jump as the text changes.
  explanation_->setMinimumHeight(explanation_->fontMetrics().lineSpacing() * 4);
  explanation_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  column->addWidget(explanation_);

  // The named schemes wrap to the dock's width (three to a line in a wide one).
  auto* presetBox = new QWidget(box);
  auto* presets = new views::FlowLayout(presetBox, 4);
  presets->setContentsMargins(0, 0, 0, 0);
  const auto& all = schemePresets();
  for (int i = 0; i < int(all.size()); ++i) {
    auto* button = new QPushButton(all[i].name, box);
    button->setObjectName(QStringLiteral("schemePreset%1").arg(i));
    button->setCheckable(true);  // shows which named combination is in use
    button->setToolTip(QStringLiteral("<b>%1</b>: communication %2, fusion %3<br>%4")
                           .arg(all[i].name, QString::fromLatin1(all[i].communication),
                                QString::fromLatin1(all[i].fusion), all[i].explanation));
    presets->addWidget(button);
    presetButtons_.push_back(button);
    connect(button, &QPushButton::clicked, this, [this, i] {
      const SchemePreset& p = schemePresets()[i];
      commit({{"scheme.communication", p.communication}, {"scheme.fusion", p.fusion}},
             tr("Use scheme %1").arg(p.name));
    });
  }
  column->addWidget(presetBox);
  QFormLayout* sms = newForm();
  column->addLayout(sms);
  addInteger(sms, tr("Comm SMs:"), "scheme.comm_sms");
  addInteger(sms, tr("Tile tokens:"), "scheme.token_centric.tile_tokens");
  return box;
}

QWidget* FusionEditor::buildPartitionBox() {
  auto* box = new QGroupBox(tr("SM partition (token_centric)"), this);
  box->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
  auto* layout = new QVBoxLayout(box);
  partition_ = new views::SmPartitionSlider(box);
  layout->addWidget(partition_);
  connect(partition_, &views::SmPartitionSlider::partitionEdited, this, [this](const views::SmGroups& g) {
    Assignments a;
    for (int i = 0; i < views::kSmGroups; ++i) a.emplace_back(kGroupKeys[i], std::to_string(g[i]));
    const bool automatic = std::all_of(g.begin(), g.end(), [](int v) { return v == 0; });
    commit(a, automatic ? tr("Automatic SM partition")
                        : tr("Set SM partition to %1 / %2 / %3 / %4").arg(g[0]).arg(g[1]).arg(g[2]).arg(g[3]));
  });
  partitionBox_ = box;
  return box;
}

QWidget* FusionEditor::buildTrackerBox() {
  QFormLayout* form;
  QGroupBox* box = section(tr("Token tracker (token_centric)"), this, form);
  addInteger(form, tr("TS table entries:"), "scheme.token_centric.ts_table_entries");
  addInteger(form, tr("OR table entries:"), "scheme.token_centric.or_table_entries");
  addQuantity(form, tr("Overflow latency:"), "scheme.token_centric.overflow_latency");
  trackerBox_ = box;
  return box;
}

QWidget* FusionEditor::buildLaunchBox() {
  QFormLayout* form;
  QGroupBox* box = section(tr("Kernel launches"), this, form);
  addCombo(form, tr("Baseline:"), "scheme.launch.baseline");
  addInteger(form, tr("Kernels per layer:"), "scheme.launch.kernels");
  addQuantity(form, tr("Overhead per launch:"), "scheme.launch.overhead");
  return box;
}

QWidget* FusionEditor::buildPersistentBox() {
  QFormLayout* form;
  QGroupBox* box = section(tr("Persistent kernel (persistent)"), this, form);
  addCheck(form, tr("Payload-efficient:"), "scheme.persistent.payload_efficient");
  addReal(form, tr("Capacity factor:"), "scheme.persistent.capacity_factor", 2, 0.1);
  addInteger(form, tr("Task columns:"), "scheme.persistent.task_n");
  persistentBox_ = box;
  return box;
}

QWidget* FusionEditor::buildStragglersBox() {
  QFormLayout* form;
  QGroupBox* box = section(tr("Stragglers"), this, form);
  addCombo(form, tr("Start jitter:"), "scheme.stragglers.start_jitter_distribution");
  addQuantity(form, tr("Mean start jitter:"), "scheme.stragglers.start_jitter");
  addCombo(form, tr("Task noise:"), "scheme.stragglers.task_noise_distribution");
  addReal(form, tr("Mean task noise:"), "scheme.stragglers.task_noise", 3, 0.05);
  addInteger(form, tr("Steps:"), "scheme.stragglers.steps");
  return box;
}

bool FusionEditor::eventFilter(QObject* watched, QEvent* event) {
  // Scrolling the form with the wheel must not change the values it passes over.
  if (event->type() == QEvent::Wheel && !static_cast<QWidget*>(watched)->hasFocus()) {
    QCoreApplication::sendEvent(scroll_->verticalScrollBar(), event);
    return true;
  }
  return QDockWidget::eventFilter(watched, event);
}

void FusionEditor::alignLabels(QWidget* body) {
  // One label column width for every section, so that the fields line up across boxes.
  const auto forms = body->findChildren<QFormLayout*>();
  int width = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (QFormLayout* form : forms)
      for (int r = 0; r < form->rowCount(); ++r)
        if (QLayoutItem* item = form->itemAt(r, QFormLayout::LabelRole); item && item->widget()) {
          if (pass == 0) width = std::max(width, item->widget()->sizeHint().width());
          else item->widget()->setMinimumWidth(width);
        }
}

QWidget* FusionEditor::bind(const std::string& path, QWidget* w, std::function<void(const std::string&)> show) {
  w->setObjectName(q(path));
  w->setToolTip(paramToolTip(path, *findParam(path)));
  fields_.push_back({path, w, std::move(show)});
  return w;
}

QComboBox* FusionEditor::addCombo(QFormLayout* form, const QString& label, const std::string& path) {
  auto* combo = new QComboBox;
  for (const std::string& c : findParam(path)->choices) combo->addItem(q(c));
  bind(path, combo, [combo](const std::string& v) { combo->setCurrentText(q(v)); });
  connect(combo, &QComboBox::activated, this, [this, combo, path] {
    commit({{path, combo->currentText().toStdString()}});
  });
  form->addRow(label, combo);
  return combo;
}

QWidget* FusionEditor::addInteger(QFormLayout* form, const QString& label, const std::string& path) {
  auto* spin = new QSpinBox;
  const ParamSpec& p = *findParam(path);
  spin->setRange(int(p.min.value_or(0)), int(std::min(p.max.value_or(INT_MAX), double(INT_MAX))));
  spin->setKeyboardTracking(false);  // one edit when typing ends, not per digit
  spin->setGroupSeparatorShown(true);
  bind(path, spin, [spin](const std::string& v) { spin->setValue(q(v).toInt()); });
  connect(spin, &QSpinBox::valueChanged, this, [this, path](int v) { commit({{path, std::to_string(v)}}); });
  form->addRow(label, spin);
  return spin;
}

QWidget* FusionEditor::addReal(QFormLayout* form, const QString& label, const std::string& path, int decimals,
                               double step) {
  auto* spin = new QDoubleSpinBox;
  const ParamSpec& p = *findParam(path);
  spin->setDecimals(decimals);
  spin->setSingleStep(step);
  spin->setRange(p.min.value_or(0), p.max.value_or(1e9));
  spin->setKeyboardTracking(false);
  bind(path, spin, [spin](const std::string& v) { spin->setValue(q(v).toDouble()); });
  connect(spin, &QDoubleSpinBox::valueChanged, this,
          [this, path](double v) { commit({{path, QString::number(v, 'g', 12).toStdString()}}); });
  form->addRow(label, spin);
  return spin;
}

QLineEdit* FusionEditor::addQuantity(QFormLayout* form, const QString& label, const std::string& path) {
  auto* edit = new QLineEdit;
  edit->setPlaceholderText(tr("e.g. %1").arg(q(findParam(path)->defaultText)));
  // Shown with "µs" as the rest of the GUI writes it; either spelling is accepted.
  bind(path, edit, [edit](const std::string& v) {
    edit->setText(views::displayUnits(q(v)));
    edit->setStyleSheet({});
  });
  connect(edit, &QLineEdit::editingFinished, this, [this, edit, path] {
    const QString text = edit->text().trimmed();
    if (text != views::displayUnits(q(doc_->valueText(path)))) commit({{path, text.toStdString()}}, {}, edit);
  });
  form->addRow(label, edit);
  return edit;
}

QWidget* FusionEditor::addCheck(QFormLayout* form, const QString& label, const std::string& path) {
  auto* check = new QCheckBox;
  bind(path, check, [check](const std::string& v) { check->setChecked(v == "true"); });
  connect(check, &QCheckBox::clicked, this, [this, path](bool on) { commit({{path, on ? "true" : "false"}}); });
  form->addRow(label, check);
  return check;
}

QWidget* FusionEditor::field(const std::string& path) const {
  for (const Field& f : fields_)
    if (f.path == path) return f.widget;
  return nullptr;
}

void FusionEditor::commit(const Assignments& assignments, const QString& label, QWidget* keep) {
  const QString error = doc_->editAll(assignments, label);
  if (error.isEmpty()) {
    refresh();  // also when nothing changed ("5us" for "5 us"): show the canonical text
    return;
  }
  showError(error);
  refresh(keep);
  if (auto* edit = qobject_cast<QLineEdit*>(keep))
    edit->setStyleSheet(QStringLiteral("QLineEdit { border: 1px solid #b00020; }"));
}

void FusionEditor::setSweepPoint(int point) {
  if (point == sweepPoint_) return;
  sweepPoint_ = point;
  refresh();
}

void FusionEditor::refresh(QWidget* keep) {
  const Scenario& base = doc_->scenario();
  const bool moe = base.workload.kind == WorkloadKind::MoeLayer;
  stack_->setCurrentIndex(moe ? 1 : 0);

  // The selected sweep point's settings, and the scenario that point ran.
  // References, not a structured binding: the lambdas below capture them (Clang 14).
  const SelectedSweepPoint selected = selectedSweepPoint(base, sweepPoint_);
  const SweepSettings& point = selected.settings;
  const Scenario& shown = selected.scenario;
  const auto sweptValue = [&](const std::string& path) -> const std::string* {
    for (const auto& [key, value] : point)
      if (key == path) return &value;
    return nullptr;
  };
  QStringList swept;
  for (const Field& f : fields_) {
    const std::string* value = sweptValue(f.path);
    f.widget->setEnabled(value == nullptr);
    if (value) swept << q(f.path);
    if (f.widget == keep) continue;
    const QSignalBlocker block(f.widget);
    f.show(value ? getValue(shown, f.path) : doc_->valueText(f.path));
  }
  QString pointText;
  for (const auto& [key, value] : point) pointText += (pointText.isEmpty() ? "" : ", ") + q(key) + " = " + q(value);
  sweepNote_->setVisible(!swept.isEmpty());
  sweepNote_->setText(swept.isEmpty() ? QString()
                                      : tr("<b>Locked:</b> the sweep sets %1 for each point. Shown: the point %2 "
                                           "(choose another under Sweep point in the toolbar).")
                                            .arg(swept.join(tr(" and ")), pointText));

  const std::string fusion = getValue(shown, "scheme.fusion"), comm = getValue(shown, "scheme.communication");
  const SchemePreset* preset = findSchemePreset(comm, fusion);
  const bool schemeSwept = sweptValue("scheme.fusion") || sweptValue("scheme.communication");
  for (int i = 0; i < int(presetButtons_.size()); ++i) {
    presetButtons_[i]->setChecked(preset == &schemePresets()[i]);
    presetButtons_[i]->setEnabled(!schemeSwept);
  }
  explanation_->setText(preset ? QStringLiteral("<b>%1</b>: %2").arg(preset->name, preset->explanation)
                               : tr("<b>%1</b>: %2. <b>%3</b>: %4.")
                                     .arg(q(fusion), fusionExplanation(fusion), q(comm),
                                          communicationExplanation(comm)));

  const TokenCentricSpec& t = shown.scheme.token_centric;
  partition_->setPartition({t.dispatch_sms, t.gemm1_sms, t.gemm2_sms, t.combine_sms}, shown.gpu.sms,
                           automaticSplit(shown));
  const bool partitionSwept = std::any_of(std::begin(kGroupKeys), std::end(kGroupKeys),
                                          [&](const char* k) { return sweptValue(k) != nullptr; });
  partition_->setEnabled(!partitionSwept);
  partitionBox_->setEnabled(shown.scheme.fusion == MoeFusion::TokenCentric);
  trackerBox_->setEnabled(shown.scheme.fusion == MoeFusion::TokenCentric);
  persistentBox_->setEnabled(shown.scheme.fusion == MoeFusion::Persistent);
}

QString FusionEditor::explanation() const { return explanation_->text(); }
QString FusionEditor::errorText() const { return error_->isHidden() ? QString() : error_->text(); }
bool FusionEditor::noticeVisible() const { return stack_->currentIndex() == 0; }
QString FusionEditor::noticeText() const { return notice_->text(); }
QString FusionEditor::sweepNoteText() const { return sweepNote_->isHidden() ? QString() : sweepNote_->text(); }

void FusionEditor::showError(const QString& message) {
  error_->setText(message);
  error_->show();
}

void FusionEditor::clearError() {
  error_->clear();
  error_->hide();
}

}  // namespace fl::gui
