// The scenario tree: edits through the model go through undo commands and the CLI's
// validation. Expected values are written out by hand (canonical spellings from
// docs/scenario.md) or taken from the CLI's own override path, never from the tree.
#include <QSignalSpy>
#include <QtTest>

#include "gui/scenario_document.h"
#include "gui/scenario_tree_model.h"
#include "gui_test_util.h"
#include "scenario/input_error.h"
#include "scenario/scenario_io.h"
#include "scenario/schema.h"

using fl::gui::ScenarioDocument;
using fl::gui::ScenarioTreeModel;

namespace {
const QString kDefault = QStringLiteral(FABRICLAB_SCENARIOS "/default.yaml");

QString shown(const ScenarioTreeModel& m, const QString& path) {
  return m.data(m.indexOfPath(path), Qt::DisplayRole).toString();
}
}  // namespace

class TestScenarioTreeModel : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { fl::gui::test::isolateSettings(); }

  void sectionsFromSchema() {
    ScenarioDocument doc;
    doc.load(kDefault);
    ScenarioTreeModel m(&doc);
    QStringList sections;
    for (int r = 0; r < m.rowCount(); ++r) sections << m.index(r, 0).data().toString();
    // One section per first key-path component, in schema order, top-level keys first.
    QStringList expected{"scenario"};
    for (const fl::ParamSpec& p : fl::schema()) {
      const auto dot = p.path.find('.');
      if (dot == std::string::npos) continue;
      const QString first = QString::fromStdString(p.path.substr(0, dot));
      if (!expected.contains(first)) expected << first;
    }
    QVERIFY(expected.contains("topology") && expected.contains("run"));
    QCOMPARE(sections, expected);
    // Every schema key has exactly one row.
    for (const fl::ParamSpec& p : fl::schema())
      QVERIFY2(m.indexOfPath(QString::fromStdString(p.path)).isValid(), p.path.c_str());
    const QModelIndex bw = m.indexOfPath("topology.link.bandwidth");
    QCOMPARE(bw.data().toString(), QString("25 GB/s"));  // dgx-h100 preset: NVLink 4
    QCOMPARE(m.index(bw.row(), ScenarioTreeModel::DefaultColumn, bw.parent()).data().toString(), QString("25 GB/s"));
    const QString tip = bw.data(Qt::ToolTipRole).toString();
    QVERIFY(tip.contains("B/s") && tip.contains("from 1 Mb/s to 1000 TB/s") && tip.contains("hardware.md"));
    QCOMPARE(m.indexOfPath("topology.kind").data(ScenarioTreeModel::ChoicesRole).toStringList(),
             (QStringList{"nvswitch", "mesh", "hierarchy"}));
    QVERIFY(m.flags(bw) & Qt::ItemIsEditable);
    QVERIFY(!(m.flags(m.index(bw.row(), 0, bw.parent())) & Qt::ItemIsEditable));
    // Mesh keys do not apply to an NVSwitch fabric and are shown as such.
    QVERIFY(!m.indexOfPath("topology.rows").data(ScenarioTreeModel::AppliesRole).toBool());
    QVERIFY(bw.data(ScenarioTreeModel::AppliesRole).toBool());
    // The swept key says so; editing still starts from its own value.
    const QModelIndex algorithm = m.indexOfPath("workload.collective.algorithm");
    QCOMPARE(algorithm.data(Qt::DisplayRole).toString(), QString("ring (swept: ring, nvls)"));
    QCOMPARE(algorithm.data(Qt::EditRole).toString(), QString("ring"));
    // A 0 that means "no limit" says so in the value and default columns; editing starts
    // from the bare value, and a real value shows bare.
    const QModelIndex smComm = m.indexOfPath("gpu.sm_comm_bandwidth");
    QCOMPARE(smComm.data(Qt::DisplayRole).toString(), QString("0 B/s (no limit)"));
    QCOMPARE(smComm.data(Qt::EditRole).toString(), QString("0 B/s"));
    QCOMPARE(m.index(smComm.row(), ScenarioTreeModel::DefaultColumn, smComm.parent()).data().toString(),
             QString("0 B/s (no limit)"));
    QVERIFY(m.setData(smComm, "14 GB/s", Qt::EditRole));
    QCOMPARE(smComm.data(Qt::DisplayRole).toString(), QString("14 GB/s"));
  }

  void editUndoRedo_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("canonical");  // as docs/scenario.md spells it
    QTest::addColumn<QString>("display");    // as the tree shows it: microseconds as µs
    QTest::addColumn<QString>("displayBefore");  // default.yaml's value as shown; "": as in the file
    QTest::newRow("bandwidth") << "topology.link.bandwidth" << "50GB/s" << "50 GB/s" << "50 GB/s" << "";
    QTest::newRow("bandwidth in bits") << "topology.link.bandwidth" << "400 Gb/s" << "50 GB/s" << "50 GB/s" << "";
    QTest::newRow("latency") << "topology.link.latency" << "300ns" << "300 ns" << "300 ns" << "";
    QTest::newRow("efficiency %") << "topology.link.efficiency" << "95 %" << "0.95" << "0.95" << "";
    QTest::newRow("packet payload") << "network.packet_payload" << "8 KiB" << "8 KiB" << "8 KiB" << "";
    QTest::newRow("collective size") << "workload.collective.size" << "1 GiB" << "1 GiB" << "1 GiB" << "";
    QTest::newRow("bin") << "run.bin" << "2500 ns" << "2.5 us" << "2.5 µs" << "5 µs";
    QTest::newRow("bin typed in µs") << "run.bin" << "3 µs" << "3 us" << "3 µs" << "5 µs";
    QTest::newRow("enum") << "workload.collective.op" << "reduce_scatter" << "reduce_scatter" << "reduce_scatter" << "";
    QTest::newRow("bool") << "network.acknowledged_writes" << "true" << "true" << "true" << "";
    QTest::newRow("name") << "name" << "my fabric" << "my fabric" << "my fabric" << "";
  }

  void editUndoRedo() {
    QFETCH(QString, path);
    QFETCH(QString, text);
    QFETCH(QString, canonical);
    QFETCH(QString, display);
    QFETCH(QString, displayBefore);
    ScenarioDocument doc;
    doc.load(kDefault);
    ScenarioTreeModel m(&doc);
    const fl::Scenario before = doc.scenario();
    const std::string key = path.toStdString();
    const QString beforeText = QString::fromStdString(fl::getValue(before, key));

    QVERIFY(m.setData(m.indexOfPath(path), text, Qt::EditRole));
    const fl::Scenario after = doc.scenario();
    QCOMPARE(QString::fromStdString(fl::getValue(after, key)), canonical);
    QCOMPARE(shown(m, path), display);
    QVERIFY(doc.isModified());
    QCOMPARE(doc.undoStack()->count(), 1);
    // Only that key changed: putting the old value back gives the original scenario.
    fl::Scenario restored = after;
    fl::setValue(restored, key, beforeText.toStdString());
    QVERIFY(restored == before);

    doc.undoStack()->undo();
    QVERIFY(doc.scenario() == before);
    QCOMPARE(QString::fromStdString(fl::getValue(doc.scenario(), key)), beforeText);
    QCOMPARE(shown(m, path), displayBefore.isEmpty() ? beforeText : displayBefore);
    QVERIFY(!doc.isModified());

    doc.undoStack()->redo();
    QVERIFY(doc.scenario() == after);
    QCOMPARE(shown(m, path), display);
  }

  // The brief's case spelled out on the fields themselves.
  void bandwidthFieldsExact() {
    ScenarioDocument doc;
    doc.load(kDefault);
    ScenarioTreeModel m(&doc);
    QCOMPARE(doc.scenario().topology.link_bandwidth, 25e9);
    QVERIFY(m.setData(m.indexOfPath("topology.link.bandwidth"), "37.5 GB/s", Qt::EditRole));
    QCOMPARE(doc.scenario().topology.link_bandwidth, 37.5e9);
    doc.undoStack()->undo();
    QCOMPARE(doc.scenario().topology.link_bandwidth, 25e9);
    doc.undoStack()->redo();
    QCOMPARE(doc.scenario().topology.link_bandwidth, 37.5e9);
  }

  void invalidEditRejected_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("sameAsCli");   // compare with fabriclab-cli --set's message
    QTest::addColumn<QString>("namedKey");
    QTest::newRow("no unit") << "topology.link.bandwidth" << "450" << true << "topology.link.bandwidth";
    QTest::newRow("time for bandwidth") << "topology.link.bandwidth" << "5 ns" << true << "topology.link.bandwidth";
    QTest::newRow("negative") << "topology.link.latency" << "-1 ns" << true << "topology.link.latency";
    QTest::newRow("not an int") << "topology.gpus" << "eight" << true << "topology.gpus";
    QTest::newRow("bad enum") << "workload.collective.op" << "allreduce" << true << "workload.collective.op";
    QTest::newRow("more links than ports") << "topology.links_per_gpu" << "100" << true << "topology.links_per_gpu";
    QTest::newRow("ring for all_to_all") << "workload.collective.op" << "all_to_all" << true << "workload.collective.op";
    QTest::newRow("nvls point on a mesh") << "topology.kind" << "mesh" << false << "nvls";
    QTest::newRow("sweep unknown key") << "sweep" << "[{key: topology.bandwith, values: [1]}]" << false
                                       << "topology.link.bandwidth";
    QTest::newRow("level of a non-hierarchy") << "topology.levels" << "[{name: a}]" << false << "topology.levels";
  }

  void invalidEditRejected() {
    QFETCH(QString, path);
    QFETCH(QString, text);
    QFETCH(bool, sameAsCli);
    QFETCH(QString, namedKey);
    ScenarioDocument doc;
    doc.load(kDefault);
    ScenarioTreeModel m(&doc);
    QSignalSpy rejected(&m, &ScenarioTreeModel::editRejected);
    const fl::Scenario before = doc.scenario();

    QVERIFY(!m.setData(m.indexOfPath(path), text, Qt::EditRole));
    QCOMPARE(rejected.count(), 1);
    const QString message = rejected.first().first().toString();
    QVERIFY2(message.contains(namedKey), qPrintable(message));
    QVERIFY(message.contains("expected"));
    QVERIFY(doc.scenario() == before);
    QCOMPARE(doc.undoStack()->count(), 0);
    QVERIFY(!doc.isModified());
    if (!sameAsCli) return;
    // The CLI's --set path (applyOverrides: the key's checks, then the combinations).
    fl::Scenario cli = before;
    QString cliMessage;
    try {
      fl::applyOverrides(cli, {path.toStdString() + "=" + text.toStdString()});
    } catch (const fl::InputError& e) {
      cliMessage = QString::fromStdString(fl::formatInputError({}, e.keyPath(), e.expected(), e.found(), e.hint()));
    }
    QCOMPARE(message, cliMessage);  // the same words, without the "--set:" location
  }

  void presetSwitchUndoesWholeTopology() {
    ScenarioDocument doc;
    doc.load(kDefault);
    ScenarioTreeModel m(&doc);
    const fl::TopologySpec before = doc.scenario().topology;
    // Explicit keys survive a preset switch, so give one first.
    QVERIFY(m.setData(m.indexOfPath("topology.link.latency"), "300 ns", Qt::EditRole));
    const fl::TopologySpec edited = doc.scenario().topology;
    QVERIFY(m.setData(m.indexOfPath("topology.preset"), "gh200-nvl32", Qt::EditRole));
    const fl::TopologySpec& t = doc.scenario().topology;
    QCOMPARE(t.gpus, 32);      // GH200 NVL32: 32 GPUs, 9 NVSwitch chips (docs/scenario.md)
    QCOMPARE(t.switches, 9);
    QCOMPARE(t.link_latency, fl::Time(300'000));  // the explicit edit is kept
    doc.undoStack()->undo();
    QVERIFY(doc.scenario().topology == edited);
    doc.undoStack()->undo();
    QVERIFY(doc.scenario().topology == before);
  }

  void topologyKindSwitch_data() {
    QTest::addColumn<QString>("kind");
    QTest::newRow("mesh") << "mesh";
    QTest::newRow("hierarchy") << "hierarchy";
  }

  void topologyKindSwitch() {
    QFETCH(QString, kind);
    QTemporaryDir dir;
    ScenarioDocument doc;
    doc.load(fl::gui::test::writeFile(dir, "p.yaml", fl::gui::test::nvswitchScenario("dgx-h100")));
    ScenarioTreeModel m(&doc);
    const fl::Scenario before = doc.scenario();
    QVERIFY(m.setData(m.indexOfPath("topology.kind"), kind, Qt::EditRole));
    QCOMPARE(QString::fromStdString(fl::getValue(doc.scenario(), "topology.kind")), kind);
    QVERIFY(doc.scenario().topology.preset.empty());  // presets describe NVSwitch systems
    if (kind == "hierarchy") QVERIFY(!doc.scenario().topology.levels.empty());
    doc.undoStack()->undo();
    QVERIFY(doc.scenario() == before);
  }

  void levelsEdits() {
    QTemporaryDir dir;
    ScenarioDocument doc;
    doc.load(fl::gui::test::writeFile(dir, "h.yaml", fl::gui::test::hierarchyScenario(2, 2, 2)));
    ScenarioTreeModel m(&doc);
    const fl::Scenario before = doc.scenario();
    const QModelIndex levels = m.indexOfPath("topology.levels", 0);
    QCOMPARE(m.rowCount(levels), 3);

    // One field of one level.
    QVERIFY(m.setData(m.indexOfPath("topology.levels[1].count"), "3", Qt::EditRole));
    QCOMPARE(doc.scenario().topology.levels[1].count, 3);
    QCOMPARE(shown(m, "topology.levels[1].count"), QString("3"));

    // The whole list: rows follow once the model has reset.
    QVERIFY(m.setData(m.indexOfPath("topology.levels"),
                      "[{name: node, count: 4, bandwidth: 50 GB/s, latency: 1 us},"
                      " {name: gpu, count: 8, bandwidth: 25 GB/s, latency: 250 ns}]",
                      Qt::EditRole));
    QCOMPARE(doc.scenario().topology.levels.size(), size_t(2));
    QCOMPARE(doc.scenario().topology.levels[0].bandwidth, 50e9);
    QTRY_COMPARE(m.rowCount(m.indexOfPath("topology.levels", 0)), 2);
    QCOMPARE(shown(m, "topology.levels[1].name"), QString("gpu"));

    doc.undoStack()->undo();
    doc.undoStack()->undo();
    QVERIFY(doc.scenario() == before);
    QTRY_COMPARE(m.rowCount(m.indexOfPath("topology.levels", 0)), 3);
  }

  void sweepEdits() {
    ScenarioDocument doc;
    doc.load(kDefault);
    ScenarioTreeModel m(&doc);
    const fl::Scenario before = doc.scenario();
    QVERIFY(m.setData(m.indexOfPath("sweep"), "[{key: workload.collective.size, values: [1 MiB, 4 MiB, 16 MiB]}]",
                      Qt::EditRole));
    const auto& sweep = doc.scenario().sweep;
    QCOMPARE(sweep.size(), size_t(1));
    QCOMPARE(sweep[0].key, std::string("workload.collective.size"));
    QCOMPARE(sweep[0].values, (std::vector<std::string>{"1 MiB", "4 MiB", "16 MiB"}));
    QVERIFY(m.setData(m.indexOfPath("sweep"), "", Qt::EditRole));  // empty text: no sweep
    QVERIFY(doc.scenario().sweep.empty());
    doc.undoStack()->undo();
    doc.undoStack()->undo();
    QVERIFY(doc.scenario() == before);
  }

  void sameValueIsNoEdit() {
    ScenarioDocument doc;
    doc.load(kDefault);
    ScenarioTreeModel m(&doc);
    QVERIFY(m.setData(m.indexOfPath("topology.link.bandwidth"), "25GB/s", Qt::EditRole));
    QCOMPARE(doc.undoStack()->count(), 0);
    QVERIFY(!doc.isModified());
  }
};

QTEST_MAIN(TestScenarioTreeModel)
#include "test_scenario_tree_model.moc"
