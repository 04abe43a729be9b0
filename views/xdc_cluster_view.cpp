#include "views/xdc_cluster_view.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolButton>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "results/results.h"
#include "views/format_units.h"
#include "views/run_model.h"
#include "xdc/domain_partition.h"
#include "xdc/stream_model.h"

namespace fl::views {

namespace {

constexpr double kPi = 3.14159265358979323846;
const QColor kAgColour(0x00, 0x9e, 0x73);   // experts: all-gather
const QColor kA2aColour(0xd5, 0x5e, 0x00);  // tokens: all-to-all
constexpr int kLegendHeight = 58;

QPen agPen(double width) { return QPen(kAgColour, width, Qt::SolidLine, Qt::FlatCap); }
QPen a2aPen(double width) {
  QPen p(kA2aColour, width, Qt::DashLine, Qt::FlatCap);
  return p;
}

// A point at `degrees` clockwise from 12 o'clock, `radius` from `c`.
QPointF polar(QPointF c, double radius, double degrees) {
  const double a = degrees * kPi / 180;
  return {c.x() + radius * std::sin(a), c.y() - radius * std::cos(a)};
}

QRectF circleRect(QPointF c, double r) { return {c.x() - r, c.y() - r, 2 * r, 2 * r}; }

// An arc from `from` degrees spanning `span` degrees clockwise (Qt: counter-clockwise from 3 o'clock).
void drawArcCw(QPainter& p, QPointF c, double r, double from, double span) {
  p.drawArc(circleRect(c, r), int(std::lround((90 - from) * 16)), -int(std::lround(span * 16)));
}

}  // namespace

XdcClusterView::XdcClusterView(RunModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  setFocusPolicy(Qt::ClickFocus);
  setMouseTracking(false);
  back_ = new QToolButton(this);
  back_->setObjectName(QStringLiteral("xdcBackToDcs"));
  back_->setText(tr("◀ All DCs"));
  back_->setToolTip(tr("Back to the datacenter ring (Escape)"));
  back_->move(4, 4);
  back_->hide();
  connect(back_, &QToolButton::clicked, this, &XdcClusterView::zoomOut);
  connect(model_, &RunModel::resultsChanged, this, &XdcClusterView::reload);
  reload();
}

void XdcClusterView::reload() {
  workers_.clear();
  domains_.clear();
  a2aBytes_[0] = a2aBytes_[1] = agBytes_[0] = agBytes_[1] = 0;
  const Results* r = model_->results();
  if (r && r->hybridep && !r->hybridep->levels.empty()) {
    const HybridEpResults& h = *r->hybridep;
    for (const HybridEpLevel& l : h.levels) {
      workers_.push_back(l.workers);
      domains_.push_back(l.domain_size);
    }
    // Closed forms per level (spec 2.2), times GPUs and layers: the same bytes the run sent.
    const double gpus = double(xdc::gpuCount(workers_));
    double expert = h.compression_ratio > 0 ? h.expert_bytes / h.compression_ratio : h.expert_bytes;
    for (std::size_t l = 0; l < workers_.size(); ++l) {
      const int side = l == 0 ? 0 : 1;
      a2aBytes_[side] += 2 * xdc::a2aBytesPerGpu(workers_[l], domains_[l], h.data_bytes) * gpus * h.layers;
      agBytes_[side] += xdc::agBytesPerGpu(domains_[l], expert) * gpus * h.layers;
      expert *= domains_[l];
    }
  }
  if (zoomed_ >= dcCount()) zoomed_ = -1;
  back_->setVisible(zoomed_ >= 0);
  update();
}

int XdcClusterView::dcCount() const { return workers_.empty() ? 0 : workers_.front(); }

int XdcClusterView::gpusPerDc() const {
  int n = 1;
  for (std::size_t l = 1; l < workers_.size(); ++l) n *= workers_[l];
  return n;
}

int XdcClusterView::domainOf(int dc) const { return domains_.empty() ? 0 : dc / domains_.front(); }

QColor XdcClusterView::domainColour(int domain) {
  const double hue = std::fmod(domain * 137.508 + 200, 360.0);
  const int value = domain % 2 == 0 ? 225 : 185;  // neighbours also differ in brightness
  return QColor::fromHsv(int(hue), 150, value);
}

QColor XdcClusterView::dcColour(int dc) const { return domainColour(domainOf(dc)); }

int XdcClusterView::a2aChordCount() const {
  if (domains_.empty()) return 0;
  const int d = dcCount() / domains_.front();
  return d > 1 && d <= kMaxChordDomains ? d * (d - 1) / 2 : 0;
}

bool XdcClusterView::a2aHub() const { return !domains_.empty() && dcCount() / domains_.front() > kMaxChordDomains; }

XdcClusterView::Ring XdcClusterView::ring() const {
  Ring r;
  const double h = std::max(60, height() - legendHeight());
  r.centre = QPointF(width() / 2.0, h / 2.0 + 2);
  r.outer = std::max(20.0, std::min(width(), int(h)) / 2.0 - 10);
  r.inner = r.outer * (dcCount() > 64 ? 0.86 : 0.78);
  return r;
}

double XdcClusterView::angleOf(int dc) const { return dcCount() > 0 ? 360.0 * dc / dcCount() : 0; }

int XdcClusterView::dcAt(QPointF p) const {
  if (zoomed_ >= 0 || dcCount() == 0) return -1;
  const Ring r = ring();
  const QPointF d = p - r.centre;
  const double dist = std::hypot(d.x(), d.y());
  if (dist < r.inner || dist > r.outer) return -1;
  double deg = std::atan2(d.x(), -d.y()) * 180 / kPi;
  if (deg < 0) deg += 360;
  return std::min(dcCount() - 1, int(deg / (360.0 / dcCount())));
}

QPointF XdcClusterView::dcCentre(int dc) const {
  const Ring r = ring();
  return polar(r.centre, (r.outer + r.inner) / 2, angleOf(dc) + 180.0 / std::max(1, dcCount()));
}

void XdcClusterView::zoomInto(int dc) {
  if (dc < 0 || dc >= dcCount()) return;
  zoomed_ = dc;
  back_->show();
  update();
  emit zoomChanged(dc);
}

void XdcClusterView::zoomOut() {
  zoomed_ = -1;
  back_->hide();
  update();
  emit zoomChanged(-1);
}

int XdcClusterView::innerDomainOf(int local) const {
  int index = 0, rest = local, scale = 1;
  std::vector<int> digits(workers_.size(), 0);
  for (std::size_t l = workers_.size(); l-- > 1;) {
    digits[l] = rest % workers_[l];
    rest /= workers_[l];
  }
  for (std::size_t l = workers_.size(); l-- > 1;) {
    index += digits[l] / domains_[l] * scale;
    scale *= workers_[l] / domains_[l];
  }
  return index;
}

QColor XdcClusterView::gpuColour(int local) const { return domainColour(innerDomainOf(local)); }

std::vector<XdcClusterView::Pair> XdcClusterView::gpuPairs() const {
  std::vector<Pair> out;
  const int k = gpusPerDc();
  if (zoomed_ < 0 || k > kMaxPairGpus) return out;
  const std::int64_t base = std::int64_t(zoomed_) * k;
  for (int a = 0; a < k; ++a)
    for (int b = a + 1; b < k; ++b)
      for (int l = 1; l < int(workers_.size()); ++l) {
        const xdc::PairKind kind = xdc::classifyPair(base + a, base + b, l, workers_, domains_);
        if (kind == xdc::PairKind::None) continue;
        out.push_back({a, b, kind == xdc::PairKind::AllGather});
        break;
      }
  return out;
}

QPointF XdcClusterView::gpuPoint(int local) const {
  const Ring r = ring();
  const int k = std::max(1, gpusPerDc());
  if (k == 1) return r.centre;
  return polar(r.centre, r.outer * 0.72, 360.0 * local / k);
}

void XdcClusterView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), palette().base());
  if (!hasCluster()) {
    p.setPen(palette().color(QPalette::Disabled, QPalette::Text));
    p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
               tr("Run a cross_dc_moe scenario to see its datacenters and expert domains."));
    return;
  }
  if (zoomed_ >= 0) paintDc(p);
  else paintOverview(p);
}

double XdcClusterView::centreRadius() const {
  const Ring r = ring();
  return a2aHub() ? std::max(18.0, r.inner * 0.2) : std::max(0.0, r.inner - 16);
}

// The longest wording, then shorter ones, each at the font size and down to 70 % of it,
// until the plate's corners lie inside the circle the centre leaves (inside the hub, or
// inside the all-gather arcs): in a small dock the words never cross the ring.
XdcClusterView::CentreLabel XdcClusterView::centreLabel() const {
  const int n = dcCount(), s = domains_.empty() ? 1 : domains_.front(), domains = n / std::max(1, s);
  const QString plural = domains == 1 ? QString() : QStringLiteral("s");
  QStringList wordings;
  if (a2aHub()) {
    wordings << tr("A2A hub:\nevery domain\nwith every other\n(%1 domains)").arg(domains)
             << tr("A2A hub\n%1 domains").arg(domains) << tr("A2A\nhub");
  } else {
    wordings << tr("%1 DCs × %2 GPUs\nS_ED = %3: %4 domain%5").arg(n).arg(gpusPerDc()).arg(s).arg(domains).arg(plural)
             << tr("%1 × %2 GPUs\nS_ED = %3").arg(n).arg(gpusPerDc()).arg(s) << tr("S_ED = %1").arg(s)
             << tr("S=%1").arg(s);
  }
  const QPointF c = ring().centre;
  const double radius = centreRadius();
  const double scales[] = {a2aHub() ? 0.85 : 1.0, 0.8, 0.7};
  for (const QString& text : wordings)
    for (double scale : scales) {
      QFont f = font();
      f.setPointSizeF(f.pointSizeF() * scale);
      const QRectF box = QFontMetricsF(f).boundingRect(QRectF(0, 0, 4 * radius + 400, 400), Qt::AlignCenter, text);
      const QRectF plate = box.translated(c - box.center()).adjusted(-4, -2, 4, 2);
      if (std::hypot(plate.width() / 2, plate.height() / 2) <= radius) return {text, f, plate};
    }
  return {};
}

void XdcClusterView::paintOverview(QPainter& p) const {
  const Ring r = ring();
  const int n = dcCount(), s = domains_.front(), domains = n / s;
  const double span = 360.0 / n, mid = (r.outer + r.inner) / 2;
  // The DC wedges, coloured by domain.
  for (int dc = 0; dc < n; ++dc) {
    p.setPen(QPen(dcColour(dc), r.outer - r.inner, Qt::SolidLine, Qt::FlatCap));
    drawArcCw(p, r.centre, mid, angleOf(dc), span);
  }
  // Boundaries: thin between DCs while they are wide enough, darker between domains.
  const QColor base = palette().color(QPalette::Base);
  if (n <= 128) {
    p.setPen(QPen(base, 1));
    for (int dc = 0; dc < n; ++dc) p.drawLine(polar(r.centre, r.inner, angleOf(dc)), polar(r.centre, r.outer, angleOf(dc)));
  }
  if (domains > 1 && domains <= 256) {
    p.setPen(QPen(palette().color(QPalette::Text), domains <= 32 ? 2 : 1));
    for (int d = 0; d < domains; ++d)
      p.drawLine(polar(r.centre, r.inner - 2, angleOf(d * s)), polar(r.centre, r.outer + 2, angleOf(d * s)));
  }
  // DC labels where a wedge has room for them.
  const QFontMetrics fm = p.fontMetrics();
  if (2 * kPi * mid / n > fm.horizontalAdvance(QStringLiteral("DC 00")) + 4) {
    p.setPen(Qt::black);
    for (int dc = 0; dc < n; ++dc) {
      const QPointF c = dcCentre(dc);
      const QString t = tr("DC %1").arg(dc);
      p.drawText(QRectF(c.x() - 40, c.y() - 10, 80, 20), Qt::AlignCenter, t);
    }
  }
  // All-gather inside each domain: an arc along it.
  const double agRadius = r.inner - 7;
  if (s > 1) {
    p.setPen(agPen(3));
    for (int d = 0; d < domains; ++d) drawArcCw(p, r.centre, agRadius, angleOf(d * s) + span * 0.15, span * (s - 0.3));
  }
  // All-to-all across domains: chords, or spokes to a hub.
  const double chordRadius = r.inner - 14;
  p.setBrush(Qt::NoBrush);
  if (a2aHub()) {
    const double hub = std::max(18.0, r.inner * 0.2);
    QColor spoke = kA2aColour;
    spoke.setAlpha(domains > 200 ? 70 : 140);
    p.setPen(QPen(spoke, domains > 200 ? 0.6 : 1.0));
    for (int d = 0; d < domains; ++d) {
      const double a = angleOf(d * s) + span * s / 2;
      p.drawLine(polar(r.centre, chordRadius, a), polar(r.centre, hub, a));
    }
    p.setPen(a2aPen(2));
    p.setBrush(palette().color(QPalette::Base));
    p.drawEllipse(circleRect(r.centre, hub));
    p.setBrush(Qt::NoBrush);
  } else if (domains > 1) {
    p.setPen(a2aPen(domains > 8 ? 1 : 1.8));
    for (int i = 0; i < domains; ++i)
      for (int j = i + 1; j < domains; ++j) {
        const QPointF a = polar(r.centre, chordRadius, angleOf(i * s) + span * s / 2);
        const QPointF b = polar(r.centre, chordRadius, angleOf(j * s) + span * s / 2);
        QPainterPath path(a);
        path.quadTo((r.centre * 2 + a + b) / 4, b);
        p.drawPath(path);
      }
  }
  const CentreLabel label = centreLabel();
  if (label.text.isEmpty()) {
    paintLegend(p);
    return;
  }
  p.setPen(palette().color(QPalette::Text));
  p.save();
  p.setFont(label.font);
  const QRectF& plate = label.plate;
  if (!a2aHub()) {
    QColor fill = palette().color(QPalette::Base);
    fill.setAlpha(225);
    p.setPen(Qt::NoPen);
    p.setBrush(fill);
    p.drawRoundedRect(plate, 4, 4);
    p.setBrush(Qt::NoBrush);
    p.setPen(palette().color(QPalette::Text));
  }
  p.drawText(plate, Qt::AlignCenter, label.text);
  p.restore();
  paintLegend(p);
}

void XdcClusterView::paintDc(QPainter& p) const {
  const Ring r = ring();
  const int k = gpusPerDc(), dc = zoomed_, s = domains_.front();
  const int first = domainOf(dc) * s;
  p.setPen(palette().color(QPalette::Text));
  p.drawText(QRectF(back_->geometry().right() + 8, 4, width() - back_->geometry().right() - 12, 24),
             Qt::AlignLeft | Qt::AlignVCenter,
             tr("DC %1: %2 GPU%3, expert domain %4 (DCs %5–%6)")
                 .arg(dc)
                 .arg(k)
                 .arg(k == 1 ? QString() : QStringLiteral("s"))
                 .arg(domainOf(dc))
                 .arg(first)
                 .arg(first + s - 1));
  for (const Pair& pair : gpuPairs()) {
    p.setPen(pair.allGather ? agPen(2) : a2aPen(1.6));
    p.drawLine(gpuPoint(pair.a), gpuPoint(pair.b));
  }
  const double radius = k == 1 ? 26 : std::clamp(r.outer * 2.2 / k, 5.0, 22.0);
  for (int g = 0; g < k; ++g) {
    const QPointF c = gpuPoint(g);
    p.setPen(QPen(palette().color(QPalette::Text), 1));
    p.setBrush(gpuColour(g));
    p.drawEllipse(circleRect(c, radius));
    if (radius >= 10) {
      p.setPen(Qt::black);
      p.drawText(circleRect(c, radius), Qt::AlignCenter, QString::number(g));
    }
  }
  p.setBrush(Qt::NoBrush);
  paintLegend(p);
}

QStringList XdcClusterView::legendTexts() const {
  QString note = tr("Colour: expert domain (level 0). Click a DC for its GPUs.");
  if (zoomed_ >= 0) {
    note = tr("Colour: inner-level expert domain; GPU numbers inside the DC.");
    if (gpusPerDc() > kMaxPairGpus) note += tr(" %1 GPUs: pairs not drawn.").arg(gpusPerDc());
  }
  return {tr("AG (experts): %1 across DCs, %2 in DCs").arg(formatBytes(agBytes_[0]), formatBytes(agBytes_[1])),
          tr("A2A (tokens): %1 across DCs, %2 in DCs").arg(formatBytes(a2aBytes_[0]), formatBytes(a2aBytes_[1])), note};
}

namespace {
constexpr int kKeyX = 8, kKeyText = 40;  // the key's left edge, its text after the pen sample
}  // namespace

int XdcClusterView::legendHeight() const {
  const QFontMetrics fm(font());
  const QStringList texts = legendTexts();
  int h = 8;
  for (int i = 0; i < texts.size(); ++i) {
    const int w = std::max(40, width() - (i < 2 ? kKeyText : 2 * kKeyX) - kKeyX);
    h += fm.boundingRect(QRect(0, 0, w, 10000), Qt::TextWordWrap, texts[i]).height() + 2;
  }
  return std::max(kLegendHeight, h);
}

void XdcClusterView::paintLegend(QPainter& p) const {
  p.setFont(font());  // as legendHeight() measured it
  const QFontMetrics fm(font());
  const QStringList texts = legendTexts();
  int y = height() - legendHeight() + 6;
  for (int i = 0; i < texts.size(); ++i) {
    const int left = i < 2 ? kKeyX + kKeyText - 8 : kKeyX;
    const QRect box(left, y, std::max(40, width() - left - kKeyX), 10000);
    const QRect used = fm.boundingRect(box, Qt::TextWordWrap, texts[i]);
    if (i < 2) {
      p.setPen(i == 0 ? agPen(3) : a2aPen(2));
      const double mid = y + fm.height() / 2.0 + 1;
      p.drawLine(QPointF(kKeyX, mid), QPointF(kKeyX + 26, mid));
      p.setPen(palette().color(QPalette::Text));
    } else {
      p.setPen(palette().color(QPalette::Disabled, QPalette::Text));
    }
    p.drawText(box, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, texts[i]);
    y += used.height() + 2;
  }
}

void XdcClusterView::mousePressEvent(QMouseEvent* e) {
  if (e->button() == Qt::RightButton && zoomed_ >= 0) {
    zoomOut();
    return;
  }
  if (e->button() == Qt::LeftButton && zoomed_ < 0) {
    const int dc = dcAt(e->position());
    if (dc >= 0) zoomInto(dc);
  }
}

void XdcClusterView::keyPressEvent(QKeyEvent* e) {
  if (e->key() == Qt::Key_Escape && zoomed_ >= 0) zoomOut();
  else QWidget::keyPressEvent(e);
}

bool XdcClusterView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip && hasCluster()) {
    auto* help = static_cast<QHelpEvent*>(e);
    QString text;
    if (zoomed_ < 0) {
      const int dc = dcAt(help->pos());
      if (dc >= 0) {
        const int s = domains_.front(), d = domainOf(dc);
        text = tr("DC %1: expert domain %2 (DCs %3–%4)").arg(dc).arg(d).arg(d * s).arg(d * s + s - 1);
      }
    } else {
      const int k = gpusPerDc();
      for (int g = 0; g < k; ++g)
        if (QLineF(gpuPoint(g), help->pos()).length() < 12) {
          text = tr("GPU %1 (rank %2), inner domain %3").arg(g).arg(std::int64_t(zoomed_) * k + g).arg(innerDomainOf(g));
          break;
        }
    }
    if (text.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(help->globalPos(), text, this);
    return true;
  }
  return QWidget::event(e);
}

}  // namespace fl::views
