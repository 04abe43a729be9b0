#include "gui/welcome_dialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QPushButton>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QVBoxLayout>
#include <memory>

#include "layout/topology_layout.h"
#include "report/svg_topology.h"
#include "scenario/input_error.h"
#include "scenario/scenario_io.h"
#include "topology/topology.h"

namespace fl::gui {

namespace {

QString seedName(const QString& comments) {
  static const char* const names[] = {"DySHARP", "FlashDMoE", "CAIS", "MoEntwine", "HybridEP"};
  static const QRegularExpression seed(QStringLiteral("seed (00[0-4])"));
  const auto m = seed.match(comments);
  if (!m.hasMatch()) return {};
  return QStringLiteral("%1 (seed %2)").arg(QLatin1String(names[m.captured(1).toInt()]), m.captured(1));
}

}  // namespace

QString bundledScenarioDirectory() {
  const QString env = qEnvironmentVariable("FABRICLAB_SCENARIOS_DIR");
  return env.isEmpty() ? QStringLiteral(FABRICLAB_SOURCE_DIR "/scenarios") : env;
}

QList<GalleryEntry> galleryEntries(const QString& directory) {
  QList<GalleryEntry> out;
  QStringList files = QDir(directory).entryList({"*.yaml", "*.yml"}, QDir::Files, QDir::Name);
  if (files.removeOne(QStringLiteral("default.yaml"))) files.prepend(QStringLiteral("default.yaml"));
  for (const QString& f : files) {
    GalleryEntry e;
    e.path = QDir(directory).filePath(f);
    try {
      const Scenario s = loadScenario(e.path.toStdString());
      e.name = QString::fromStdString(s.name.empty() ? f.toStdString() : s.name);
      e.description = QString::fromStdString(s.description);
      const std::unique_ptr<topo::Topology> t = topo::buildTopology(s.topology);
      e.system = QString::fromStdString(t->description);
    } catch (const std::exception&) {
      continue;  // the gallery shows what opens
    }
    QFile file(e.path);
    if (file.open(QIODevice::ReadOnly)) e.seed = seedName(QString::fromUtf8(file.read(8192)));
    out << e;
  }
  return out;
}

WelcomeDialog::WelcomeDialog(const QList<GalleryEntry>& entries, QWidget* parent)
    : QDialog(parent), entries_(entries) {
  setWindowTitle(tr("Welcome to FabricLab"));
  setObjectName(QStringLiteral("WelcomeDialog"));
  auto* layout = new QVBoxLayout(this);
  auto* intro = new QLabel(
      tr("<h2>FabricLab</h2><p>A packet-level lab for GPU fabrics: NVSwitch systems with in-switch "
         "computing, wafer-scale meshes and datacenter hierarchies. Pick a scenario to start; each one "
         "runs at once, and those with a <b>Story</b> walk you through what to look at.</p>"),
      this);
  intro->setWordWrap(true);
  layout->addWidget(intro);
  auto* row = new QHBoxLayout;
  list_ = new QListWidget(this);
  list_->setObjectName(QStringLiteral("scenarioGallery"));
  list_->setWordWrap(true);
  list_->setSpacing(2);
  for (const GalleryEntry& e : entries_) {
    auto* item = new QListWidgetItem(QStringLiteral("%1\n%2").arg(e.name, e.description), list_);
    item->setToolTip(e.path);
  }
  row->addWidget(list_, 3);
  auto* side = new QVBoxLayout;
  picture_ = new QLabel(this);
  picture_->setObjectName(QStringLiteral("galleryPicture"));
  picture_->setMinimumSize(360, 240);
  picture_->setAlignment(Qt::AlignCenter);
  picture_->setStyleSheet(QStringLiteral("QLabel { background: #1c1f24; border-radius: 6px; }"));
  details_ = new QLabel(this);
  details_->setWordWrap(true);
  details_->setObjectName(QStringLiteral("galleryDetails"));
  side->addWidget(picture_);
  side->addWidget(details_);
  side->addStretch(1);
  row->addLayout(side, 4);
  layout->addLayout(row, 1);
  auto* buttons = new QDialogButtonBox(this);
  open_ = buttons->addButton(tr("Open"), QDialogButtonBox::AcceptRole);
  buttons->addButton(QDialogButtonBox::Close);
  layout->addWidget(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(list_, &QListWidget::currentRowChanged, this, &WelcomeDialog::showEntry);
  connect(list_, &QListWidget::itemDoubleClicked, this, &QDialog::accept);
  open_->setEnabled(false);
  if (!entries_.isEmpty()) list_->setCurrentRow(0);
  resize(980, 620);
}

QString WelcomeDialog::chosenPath() const {
  const int row = list_->currentRow();
  return row >= 0 && row < entries_.size() ? entries_[row].path : QString();
}

// The fabric as the report draws it (idle lanes), scaled into the picture box.
void WelcomeDialog::showEntry(int row) {
  open_->setEnabled(row >= 0 && row < entries_.size());
  if (row < 0 || row >= entries_.size()) return;
  const GalleryEntry& e = entries_[row];
  details_->setText(QStringLiteral("<b>%1</b><br>%2<br><br><b>%3</b> %4<br><b>%5</b> %6<br><br><small>%7</small>")
                        .arg(e.name.toHtmlEscaped(), e.description.toHtmlEscaped(), tr("System:"),
                             e.system.toHtmlEscaped(), tr("Seed:"),
                             e.seed.isEmpty() ? tr("—") : e.seed.toHtmlEscaped(), QDir::toNativeSeparators(e.path)));
  QPixmap pixmap(picture_->minimumSize() * 1.4);
  pixmap.fill(QColor(28, 31, 36));
  try {
    const Scenario s = loadScenario(e.path.toStdString());
    const std::unique_ptr<topo::Topology> t = topo::buildTopology(s.topology);
    const layout::TopologyLayout l = layout::layoutTopology(*t);
    report::TopologyPictureOptions o;
    o.labelNodeLimit = 48;
    const report::TopologyPicture pic = renderTopologySvg(*t, l, {}, o);
    QSvgRenderer svg(QByteArray::fromStdString(pic.svg));
    QPainter p(&pixmap);
    QSizeF size = svg.defaultSize();
    size.scale(pixmap.size() - QSize(16, 16), Qt::KeepAspectRatio);
    svg.render(&p, QRectF(QPointF((pixmap.width() - size.width()) / 2, (pixmap.height() - size.height()) / 2), size));
  } catch (const std::exception&) {
  }
  picture_->setPixmap(pixmap);
}

}  // namespace fl::gui
