// A run never leaves a view saying it has no results (issue 21): after a small run of
// each workload kind (and a sweep), every dock the window shows has data, and the docks
// without any are hidden by the applicability table (gui/dock_applicability.h). A view
// says it is empty with a notice label made by views::makeNoticeLabel (greyed, centred,
// word-wrapped: the signature is read from a label that function makes), with a "no
// results yet" text, or, for views that paint their own, with nothing in the figures
// checked here one by one (the bandwidth plot's curve, the datacenter ring, migrations,
// story steps, the skew histogram).
#include <QDockWidget>
#include <QLabel>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

#include "gui/main_window.h"
#include "gui/story_dock.h"
#include "gui_test_util.h"
#include "main_window_fixture.h"
#include "results/results.h"
#include "views/arrival_skew_histogram.h"
#include "views/format_units.h"
#include "views/migration_panel.h"
#include "views/plots_panel.h"
#include "views/run_model.h"
#include "views/traffic_breakdown_bars.h"
#include "views/xdc_cluster_view.h"

using fl::gui::MainWindow;
namespace t = fl::gui::test;

namespace {

const QByteArray kCollective =
    "fabriclab: 1\nname: nvls\ntopology: {preset: dgx-h100}\nnetwork: {packet_payload: 4 KiB, vc_depth_flits: 1024}\n"
    "workload:\n  kind: collective\n  collective: {op: all_reduce, algorithm: nvls, size: 1 MiB}\nrun: {bin: 1 us}\n";
const QByteArray kTraffic =
    "fabriclab: 1\nname: traffic\ntopology:\n  kind: mesh\n  rows: 3\n  cols: 3\n  link: {bandwidth: 4 TB/s, latency: 10 ns}\n"
    "workload:\n  kind: traffic\n  traffic: {pattern: uniform, load: 30 %, duration: 2 us, warmup: 200 ns}\nrun: {bin: 100 ns}\n";
const QByteArray kMoe =
    "fabriclab: 1\nname: moe\ntopology: {preset: gh200-nvl32}\n"
    "network: {packet_payload: 4 KiB, vc_depth_flits: 1024, switch: {reduction_buffer: 64 KiB}}\n"
    "workload: {kind: moe_layer, moe: {model: deepseek-v3, tokens_per_gpu: 128}}\n"
    "scheme: {communication: dysharp, fusion: sequential}\n";
const QByteArray kTp =
    "fabriclab: 1\nname: tp\ntopology:\n  kind: nvswitch\n  gpus: 4\n  switches: 4\n  links_per_gpu: 18\n"
    "  switch_ports: 64\nnetwork:\n  packet_payload: 1 KiB\n  switch:\n    merge_table: 4 KiB\n"
    "    merge_timeout: 10 us\nworkload:\n  kind: tp_layer\n  tp:\n    model: custom\n    hidden: 512\n"
    "    ffn_hidden: 2048\n    heads: 8\n    seq_len: 512\n    batch: 1\n    layers: 2\nscheme:\n  tp: cais_base\n"
    "run:\n  bin: 1 us\n";
const QByteArray kWafer =
    "fabriclab: 1\nname: wafer\ntopology: {preset: wsc-4x4}\ngpu: {preset: b200}\nnetwork: {model: analytical}\n"
    "workload: {kind: wsc_inference, wsc: {model: qwen3-235b, tp: 4, tokens_per_group: 256, iterations: 24}}\n"
    "mapping: {kind: er}\nbalancer: {kind: greedy, load: single, zipf_s: 1.0}\nrun: {bin: 100 ns}\n";
const QByteArray kCaisCollective =
    "fabriclab: 1\nname: cais collective\ntopology:\n  kind: nvswitch\n  gpus: 4\n  switches: 4\n"
    "  links_per_gpu: 4\n  switch_ports: 64\nnetwork:\n  packet_payload: 1 KiB\n  switch:\n    merge_table: 4 KiB\n"
    "workload:\n  kind: collective\n  collective: {op: reduce_scatter, algorithm: cais, size: 64 KiB}\nrun:\n  bin: 1 us\n";
const QByteArray kXdc =
    "fabriclab: 1\nname: xdc\ntopology: {preset: cluster-m}\n"
    "workload:\n  kind: cross_dc_moe\n  xdc: {model: custom, data_bytes: 4 MB, expert_bytes: 2 MB, layers: 2, "
    "pre_expert_ns: 1 ms}\nnetwork: {model: flow}\nrun: {bin: 1 ms}\n";

// Whether `label` is a notice as views::makeNoticeLabel makes them.
bool isNotice(const QLabel* label) {
  static QLabel* const reference = fl::views::makeNoticeLabel(nullptr);
  return label->wordWrap() == reference->wordWrap() && label->alignment() == reference->alignment() &&
         label->isEnabled() == reference->isEnabled();
}

}  // namespace

class TestDocksShowData : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { t::isolateSettings(); }

  void noEmptyView_data() {
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<QStringList>("shown");  // docks that must be there (with data)
    QTest::newRow("collective (NVLS)") << kCollective << QStringList{"PlotsDock", "SwitchTablesDock"};
    QTest::newRow("traffic") << kTraffic << QStringList{"PlotsDock"};
    QTest::newRow("MoE layer (DySHARP)") << kMoe
                                         << QStringList{"BreakdownDock", "AlTlbDock", "PipelineDock", "SwitchTablesDock"};
    QTest::newRow("CAIS collective") << kCaisCollective << QStringList{"MergeTableDock", "PlotsDock"};
    QTest::newRow("tensor parallel (CAIS)") << kTp << QStringList{"MergeTableDock", "CaisCompareDock", "CaisControlsDock"};
    QTest::newRow("wafer-scale inference") << kWafer << QStringList{"MappingDock", "HotColdDock", "MigrationsDock"};
    QTest::newRow("cross-DC MoE") << kXdc << QStringList{"XdcClusterDock", "XdcCurveDock", "XdcStreamsDock"};
    QTest::newRow("a sweep") << kCollective + "sweep:\n  - {key: workload.collective.size, values: [256 KiB, 1 MiB]}\n"
                             << QStringList{"SweepDock", "PlotsDock"};
    // Bundled (quick ones; cais-4gpu takes minutes here): the first point of each sweep.
    QTest::newRow("bundled default") << QByteArray("@default.yaml")
                                     << QStringList{"SweepDock", "StoryDock", "SwitchTablesDock"};
    QTest::newRow("bundled wafer") << QByteArray("@wsc-4x4-paper.yaml") << QStringList{"HotColdDock", "MappingDock"};
    QTest::newRow("bundled cross-DC") << QByteArray("@xdc-ablation-24-8.yaml") << QStringList{"XdcClusterDock", "SweepDock"};
  }

  void noEmptyView() {
    QFETCH(QByteArray, yaml);
    QFETCH(QStringList, shown);
    QTemporaryDir dir;
    auto w = t::makeWindow();
    w->resize(1280, 800);
    const QString file = yaml.startsWith('@') ? QStringLiteral(FABRICLAB_SCENARIOS "/") + QString::fromUtf8(yaml.mid(1))
                                              : t::writeFile(dir, "s.yaml", yaml);
    QCOMPARE(w->openFile(file), QString());
    QVERIFY(t::waitIdle(*w, 120000));
    QTest::qWait(100);
    const fl::Results* r = w->runModel()->results();
    QVERIFY(r);
    for (const QString& name : shown) {
      auto* d = w->findChild<QDockWidget*>(name);
      QVERIFY2(d && !d->isHidden(), qPrintable(name + " hidden"));
    }
    int checked = 0;
    for (QDockWidget* d : w->findChildren<QDockWidget*>()) {
      if (d->isHidden()) continue;
      ++checked;
      const QString name = d->objectName();
      // The inspector's "Nothing selected" invites a click on the canvas: not an empty
      // view (its "No results yet" is checked below with the others).
      const bool prompt = name == QLatin1String("InspectorDock");
      for (const QLabel* l : d->findChildren<QLabel*>()) {
        if (!l->isVisibleTo(d) || l->text().isEmpty()) continue;
        // In a sweep, a view of a point without its data names the points that have it.
        const bool pointsElsewhere = l->text().contains("Sweep points with");
        QVERIFY2(prompt || pointsElsewhere || !isNotice(l), qPrintable(name + " says: " + l->text()));
        QVERIFY2(!l->text().contains("no results yet", Qt::CaseInsensitive), qPrintable(name + " says: " + l->text()));
      }
      if (auto* bars = d->findChild<fl::views::TrafficBreakdownBars*>()) QVERIFY2(!bars->noticeVisible(), qPrintable(name));
      if (auto* plots = d->findChild<fl::views::PlotsPanel*>()) {
        QVERIFY(plots->bandwidthPlot()->graph(0)->dataCount() > 0);
        QCOMPARE(plots->tabs()->isTabVisible(2), plots->hasLatencyData());
      }
      if (auto* ring = d->findChild<fl::views::XdcClusterView*>()) QVERIFY(ring->dcCount() > 0);
      if (d->findChild<fl::views::MigrationPanel*>()) QVERIFY(r->wsc && !r->wsc->migrations.empty());
      if (auto* skew = d->findChild<fl::views::ArrivalSkewHistogram*>()) QVERIFY(!skew->plotted().isEmpty());
      if (auto* story = qobject_cast<fl::gui::StoryDock*>(d)) QVERIFY(story->stepCount() > 0);
    }
    QVERIFY(checked >= 4);  // scenario, inspector, heat, plots at least
  }
};

QTEST_MAIN(TestDocksShowData)
#include "test_docks_show_data.moc"
