// fabriclab-cli end to end: what test_cli and test_cli_sweeps share (QProcess on the
// built executable, small scenarios written to a temporary directory, JSON helpers).
#pragma once
#include <nlohmann/json.hpp>

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "engine/thread_sanitizer.h"
#include "json_contract.h"
#include "spawn_process.h"

namespace fl::test {


struct CliRun {
  int exitCode = -1;
  bool finished = false;
  QByteArray out, err;
};

const char* const kSmallScenario = R"(fabriclab: 1
name: small
description: |
  Small ring all-reduce on a DGX-H100.
  Second line of the description.
topology:
  kind: nvswitch
  preset: dgx-h100
workload:
  kind: collective
  collective:
    op: all_reduce
    algorithm: ring
    size: 256 KiB
)";

const char* const kMeshTrafficScenario = R"(fabriclab: 1
name: mesh-traffic
description: Uniform random traffic on a 4x4 mesh
topology:
  kind: mesh
  rows: 4
  cols: 4
workload:
  kind: traffic
  traffic:
    pattern: uniform
    load: 0.3
    duration: 2 us
    warmup: 500 ns
run:
  seed: 7
)";

const char* const kSweepScenario = R"(fabriclab: 1
name: sweep
topology:
  kind: nvswitch
  preset: dgx-h100
workload:
  kind: collective
  collective:
    op: all_reduce
    algorithm: ring
    size: 64 KiB
sweep:
  - key: workload.collective.size
    values: [64 KiB, 128 KiB]
  - key: workload.collective.algorithm
    values: [ring, nvls]
)";

// A sweep over run.seed, which --seed and --set run.seed would set in vain.
const char* const kSeedSweepScenario = R"(fabriclab: 1
name: seed-sweep
topology: {preset: dgx-h100}
workload:
  kind: collective
  collective: {op: all_reduce, algorithm: ring, size: 64 KiB}
sweep:
  - key: run.seed
    values: [1, 2]
)";

// A sweep over a whole list (the hierarchy's levels).
const char* const kLevelSweepScenario = R"(fabriclab: 1
name: level-sweep
topology:
  kind: hierarchy
  levels: [{count: 2, bandwidth: 100 GB/s, latency: 100 ns}, {count: 2, bandwidth: 50 GB/s, latency: 200 ns}]
workload:
  kind: collective
  collective: {op: all_reduce, algorithm: ring, size: 64 KiB}
sweep:
  - key: topology.levels
    values:
      - [{count: 2, bandwidth: 100 GB/s, latency: 100 ns}, {count: 2, bandwidth: 50 GB/s, latency: 200 ns}]
      - [{count: 4, bandwidth: 100 GB/s, latency: 100 ns}, {count: 2, bandwidth: 50 GB/s, latency: 200 ns}]
)";

// Long enough (seconds) to be interrupted.
const char* const kLongScenario = R"(fabriclab: 1
name: long
topology:
  kind: nvswitch
  preset: dgx-h100
workload:
  kind: collective
  collective:
    op: all_reduce
    algorithm: ring
    size: 256 MiB
)";

inline Json parseJson(const QByteArray& text) { return Json::parse(text.constData(), text.constData() + text.size()); }

inline QByteArray readAll(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.readAll();
}


// The temporary directory, the scenarios written into it, and running the CLI.
class CliFixture {
 protected:
  QTemporaryDir tmp_;
  QString small_, mesh_, sweep_, seedSweep_, levelSweep_, long_;

  QString cliPath() const { return QStringLiteral(FABRICLAB_CLI); }
  QString tmpPath(const QString& name) const { return tmp_.filePath(name); }

  QString writeFile(const QString& name, const char* text) {
    const QString path = tmpPath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return {};
    f.write(text);
    return path;
  }

  CliRun cli(const QStringList& args, int timeoutMs = 300000) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("FABRICLAB_DATA_DIR");  // the bundled scenarios: the source tree's
    p.setProcessEnvironment(env);
    if constexpr (kThreadSanitizer) {  // QProcess's clone() stops TSan's runtime (spawn_process.h)
      const SpawnResult s = spawnAndWait(cliPath(), args, env, timeoutMs);
      return {s.started ? s.exitCode : -1, s.finished, s.out, s.err};
    }
    p.start(cliPath(), args);
    CliRun r;
    if (!p.waitForStarted(30000)) return r;
    r.finished = p.waitForFinished(timeoutMs);
    if (!r.finished) {
      p.kill();
      p.waitForFinished();
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
  }

  // Replaces @SMALL@, @MESH@, @SEEDSWEEP@ and @TMP@ in arguments.
  QStringList expand(QStringList args) const {
    for (QString& a : args) {
      a.replace("@SMALL@", small_);
      a.replace("@MESH@", mesh_);
      a.replace("@SEEDSWEEP@", seedSweep_);
      a.replace("@LEVELSWEEP@", levelSweep_);
      a.replace("@TMP@", tmp_.path());
      a.replace("@SWEEP@", sweep_);
    }
    return args;
  }

  // Writes the scenarios; false when a file could not be written.
  bool writeScenarios() {
    if (!QFileInfo(cliPath()).isExecutable()) return false;
    if (!tmp_.isValid()) return false;
    small_ = writeFile("small.yaml", kSmallScenario);
    mesh_ = writeFile("mesh.yaml", kMeshTrafficScenario);
    sweep_ = writeFile("sweep.yaml", kSweepScenario);
    seedSweep_ = writeFile("seed-sweep.yaml", kSeedSweepScenario);
    levelSweep_ = writeFile("level-sweep.yaml", kLevelSweepScenario);
    long_ = writeFile("long.yaml", kLongScenario);
    return !small_.isEmpty() && !mesh_.isEmpty() && !sweep_.isEmpty() && !seedSweep_.isEmpty() && !long_.isEmpty();
  }
};

}  // namespace fl::test
