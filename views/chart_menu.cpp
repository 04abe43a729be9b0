#include "views/chart_menu.h"

#include <QApplication>
#include <QClipboard>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QMenu>
#include <QSaveFile>
#include <QSvgGenerator>
#include <qcustomplot.h>

#include "views/pipeline_bars.h"

namespace fl::views {

namespace {

QString field(QString s) {
  if (s.contains(',') || s.contains('"') || s.contains('\n')) s = '"' + s.replace('"', "\"\"") + '"';
  return s;
}

QString number(double v) { return QString::number(v, 'g', 12); }

QString seriesName(const QCPAbstractPlottable* p, int index) {
  return p->name().isEmpty() ? QStringLiteral("series %1").arg(index + 1) : p->name();
}

QString chartName(const QCustomPlot* plot) {
  for (const QWidget* w = plot; w; w = w->parentWidget())
    if (auto* dock = qobject_cast<const QDockWidget*>(w)) return dock->windowTitle();
  return QStringLiteral("chart");
}

}  // namespace

bool saveChartPng(QCustomPlot* plot, const QString& path) {
  return plot->savePng(path, plot->width(), plot->height(), 2.0);
}

bool saveChartSvg(QCustomPlot* plot, const QString& path) {
  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(plot->size());
  svg.setViewBox(QRect(QPoint(0, 0), plot->size()));
  svg.setTitle(chartName(plot));
  QCPPainter painter;
  if (!painter.begin(&svg)) return false;
  plot->toPainter(&painter, plot->width(), plot->height());
  return painter.end() && QFile::exists(path);
}

void copyChartImage(QCustomPlot* plot) { QApplication::clipboard()->setPixmap(plot->toPixmap(0, 0, 2.0)); }

QString chartCsv(QCustomPlot* plot) {
  QString out;
  const QString x = plot->xAxis ? plot->xAxis->label() : QString(), y = plot->yAxis ? plot->yAxis->label() : QString();
  bool gantt = false;
  for (int i = 0; i < plot->plottableCount(); ++i) gantt |= qobject_cast<PipelineBars*>(plot->plottable(i)) != nullptr;
  if (gantt) {
    out += QStringLiteral("kind,gpu,start_us,end_us,tokens\n");
    for (int i = 0; i < plot->plottableCount(); ++i) {
      auto* bars = qobject_cast<PipelineBars*>(plot->plottable(i));
      if (!bars || !bars->scene() || !bars->scene()->pipeline) continue;
      for (int t : bars->tasks()) {
        const PipelineTask& task = bars->scene()->pipeline->tasks[size_t(t)];
        out += QStringLiteral("%1,%2,%3,%4,%5\n")
                   .arg(field(pipelineKindLabel(task.kind)))
                   .arg(task.gpu)
                   .arg(number(toSeconds(task.start) * 1e6), number(toSeconds(task.end) * 1e6))
                   .arg(task.tokens);
      }
    }
    return out;
  }
  out += QStringLiteral("series,%1,%2\n").arg(field(x.isEmpty() ? QStringLiteral("x") : x),
                                                field(y.isEmpty() ? QStringLiteral("y") : y));
  for (int i = 0; i < plot->plottableCount(); ++i) {
    QCPAbstractPlottable* p = plot->plottable(i);
    const QString name = field(seriesName(p, i));
    if (auto* g = qobject_cast<QCPGraph*>(p)) {
      for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
        out += name + ',' + number(it->key) + ',' + number(it->value) + '\n';
    } else if (auto* b = qobject_cast<QCPBars*>(p)) {
      for (auto it = b->data()->constBegin(); it != b->data()->constEnd(); ++it)
        out += name + ',' + number(it->key) + ',' + number(it->value) + '\n';
    }
  }
  return out;
}

bool saveChartCsv(QCustomPlot* plot, const QString& path) {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Text)) return false;
  f.write(chartCsv(plot).toUtf8());
  return f.commit();
}

bool toggleChartMaximised(QCustomPlot* plot) {
  QDockWidget* dock = nullptr;
  for (QWidget* w = plot; w && !dock; w = w->parentWidget()) dock = qobject_cast<QDockWidget*>(w);
  if (!dock) return false;
  if (dock->isFloating() && dock->property("chartMaximised").toBool()) {
    dock->setProperty("chartMaximised", false);
    dock->setFloating(false);
  } else {
    dock->setProperty("chartMaximised", true);
    dock->setFloating(true);
    dock->showMaximized();
  }
  return true;
}

QMenu* chartMenu(QCustomPlot* plot, QWidget* parent) {
  auto* menu = new QMenu(parent);
  const QString base = chartName(plot).toLower().replace(' ', '-');
  auto add = [&](const char* name, const QString& text, auto fn) {
    QAction* a = menu->addAction(text);
    a->setObjectName(QLatin1String(name));
    QObject::connect(a, &QAction::triggered, plot, fn);
    return a;
  };
  add("chartSavePng", QObject::tr("Save Image as PNG…"), [plot, base] {
    const QString path = QFileDialog::getSaveFileName(plot, QObject::tr("Save chart"), base + ".png", "PNG (*.png)");
    if (!path.isEmpty()) saveChartPng(plot, path);
  });
  add("chartSaveSvg", QObject::tr("Save Image as SVG…"), [plot, base] {
    const QString path = QFileDialog::getSaveFileName(plot, QObject::tr("Save chart"), base + ".svg", "SVG (*.svg)");
    if (!path.isEmpty()) saveChartSvg(plot, path);
  });
  add("chartCopy", QObject::tr("Copy Image"), [plot] { copyChartImage(plot); });
  add("chartSaveCsv", QObject::tr("Save Data as CSV…"), [plot, base] {
    const QString path = QFileDialog::getSaveFileName(plot, QObject::tr("Save chart data"), base + ".csv", "CSV (*.csv)");
    if (!path.isEmpty()) saveChartCsv(plot, path);
  });
  menu->addSeparator();
  QAction* max = add("chartMaximise", QObject::tr("Maximise"), [plot] { toggleChartMaximised(plot); });
  QDockWidget* dock = nullptr;
  for (QWidget* w = plot; w && !dock; w = w->parentWidget()) dock = qobject_cast<QDockWidget*>(w);
  max->setEnabled(dock != nullptr);
  if (dock && dock->property("chartMaximised").toBool()) max->setText(QObject::tr("Restore"));
  return menu;
}

void installChartMenu(QCustomPlot* plot) {
  if (plot->property("chartMenu").toBool()) return;
  plot->setProperty("chartMenu", true);
  plot->setContextMenuPolicy(Qt::CustomContextMenu);
  QObject::connect(plot, &QWidget::customContextMenuRequested, plot, [plot](const QPoint& at) {
    QMenu* menu = chartMenu(plot, plot);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(plot->mapToGlobal(at));
  });
}

void installChartMenus(QWidget* root) {
  for (QCustomPlot* plot : root->findChildren<QCustomPlot*>()) installChartMenu(plot);
}

}  // namespace fl::views
