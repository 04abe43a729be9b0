// What the view tests share: loading a recorded run into a RunModel, saving a widget's
// grab as a PNG under <build>/artefacts/ for people to look at, and the MoE layer on
// GH200 NVL32 (128 tokens per GPU) swept over the four communication schemes.
#pragma once
#include <QCoreApplication>
#include <QDir>
#include <QString>
#include <QWidget>
#include <QtTest>
#include <qcustomplot.h>

#include <map>

#include "recorded_runs.h"
#include "views/run_model.h"

namespace fl::test {

inline void load(views::RunModel& model, const RecordedRun& r) {
  model.setTopology(r.topology);
  model.setResults(r.results, true);
}

inline void saveArtefact(QWidget& w, const QString& name, QSize size) {
  w.resize(size);
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QCoreApplication::processEvents();
  for (auto* plot : w.findChildren<QCustomPlot*>()) plot->replot();
  const QString dir = QCoreApplication::applicationDirPath() + "/../artefacts";
  QDir().mkpath(dir);
  QVERIFY(w.grab().save(dir + "/" + name + ".png"));
}

// DeepSeek-V3, 128 tokens per GPU, on GH200 NVL32 at 4 KiB packets, swept over the four
// communication schemes (sequential).
inline constexpr const char* kMoeSchemesYaml = R"(fabriclab: 1
name: moe views test
topology: {preset: gh200-nvl32}
network: {packet_payload: 4 KiB, vc_depth_flits: 1024, switch: {reduction_buffer: 64 KiB}}
workload: {kind: moe_layer, moe: {model: deepseek-v3, tokens_per_gpu: 128}}
scheme: {communication: dysharp, fusion: sequential}
sweep:
  - {key: scheme.communication, values: [deepep, nvls_static, dysharp, explicit]}
)";

// scheme -> run of kMoeSchemesYaml, one sweep per test executable.
inline const std::map<QString, RecordedRun>& moeSchemeRuns() {
  static const std::map<QString, RecordedRun> runs = [] {
    const Scenario s = parseScenario(kMoeSchemesYaml, "moe.yaml");
    std::shared_ptr<const topo::Topology> t(topo::buildTopology(s.topology));
    std::map<QString, RecordedRun> out;
    for (auto& p : runSweep(s))
      out[QString::fromStdString(p.settings.at(0).second)] = {t, std::make_shared<Results>(std::move(p.results))};
    return out;
  }();
  return runs;
}

}  // namespace fl::test
