// fabriclab-cli: run, validate and list scenarios without the GUI.
//
//   fabriclab-cli run SCENARIO [--set key.path=value]... [--sweep key.path=v1,v2,...]... [--point N]
//                              [--json FILE] [--csv DIR]
//                              [--report FILE.html] [--trace FILE.json] [--seed N] [--threads N]
//                              [--quiet]
//   fabriclab-cli validate SCENARIO [--set key.path=value]... [--sweep key.path=v1,v2,...]... [--point N]
//
// --set on a key a sweep axis sets replaces the axis with that one value (a note on
// stderr says so); --sweep adds an axis or replaces the file's axis over the key.
//   fabriclab-cli list [--dir DIR]
//
// SCENARIO is a file, or the name of a bundled scenario as `list` shows it (with or without
// .yaml), found from any directory.
//
// Exit status: 0 success, 1 internal error, 2 bad input (usage, scenario, overrides,
// unwritable outputs), 130 interrupted (Ctrl-C: the run stops cooperatively, the summary
// of what was simulated is printed, no output file is written).
//
// --trace writes a Chrome trace (Perfetto, chrome://tracing: GPU task spans, phases,
// uplink/downlink counters). A sweep writes one per point, the point index inserted
// before the extension: t.json -> t-point-000.json, t-point-001.json, ...
#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <ctime>
#include <string>
#include <vector>

#include "cli/list_command.h"
#if FABRICLAB_MPI
#include "cli/mpi_sweep.h"
#endif
#include "cli/progress_bar.h"
#include "cli/summary.h"
#include "engine/huge_pages.h"
#include "results/atomic_file.h"
#include "results/chrome_trace.h"
#include "results/csv_writer.h"
#include "results/json_writer.h"
#include "report/html_report.h"
#include "scenario/follow_selector.h"
#include "scenario/data_dirs.h"
#include "scenario/input_error.h"
#include "scenario/scenario_io.h"
#include "scenario/sweep.h"
#include "scenario/validate.h"
#include "sim/memory_estimate.h"
#include "sim/run.h"
#include "sim/sweep_overrides.h"
#include "sim/sweep_runner.h"
#include "topology/topology.h"

namespace fs = std::filesystem;

namespace {

constexpr const char* kProgram = "fabriclab-cli";
constexpr int kExitOk = 0, kExitInternal = 1, kExitBadInput = 2, kExitInterrupted = 130;

// ---------------------------------------------------------------------------------------
// Ctrl-C: the first SIGINT asks the run to stop cooperatively; a second one quits at once.

std::atomic<bool> gCancel{false};
bool gPrintNotes = true;  // false on MPI ranks other than 0 (rank 0 prints them once)
#if FABRICLAB_MPI
fl::cli::MpiSession* gMpi = nullptr;
#endif
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void onSigint(int) {
  if (gCancel.exchange(true)) ::_exit(kExitInterrupted);
}

class SigintGuard {
 public:
  SigintGuard() {
    struct sigaction sa {};
    sa.sa_handler = onSigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &sa, &old_);
  }
  ~SigintGuard() { ::sigaction(SIGINT, &old_, nullptr); }
  SigintGuard(const SigintGuard&) = delete;
  SigintGuard& operator=(const SigintGuard&) = delete;

 private:
  struct sigaction old_ {};
};

// ---------------------------------------------------------------------------------------
// Scenario preparation shared by run and validate.

struct ScenarioOptions {
  std::string path;
  std::vector<std::string> sets;
  std::vector<std::string> sweeps;  // --sweep key=v1,v2,...
  std::string point;                // --point N: one point of the sweep
  std::string seed, threads;        // shorthands for --set run.seed= / run.threads=
  std::vector<std::string> follow;  // --follow SELECTOR (repeatable): --set run.follow=SEL1; SEL2
};

void requireReadableFile(const std::string& path) { fl::requireReadableScenarioFile(path, "SCENARIO"); }

// Applies `key=value` for a shorthand option, reporting errors against the option.
void applyShorthand(fl::Scenario& s, const std::string& option, const std::string& key,
                    const std::string& value) {
  try {
    fl::applyOverride(s, key + "=" + value);
  } catch (const fl::InputError& e) {
    throw fl::InputError({option, 0, 0}, e.keyPath().empty() ? key : e.keyPath(), e.expected(),
                         e.found(), e.hint());
  }
}

bool isUnsigned(const std::string& v, std::uint64_t& out) {
  if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos) return false;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  return ec == std::errc() && p == v.data() + v.size();
}

fl::Scenario prepareScenario(const ScenarioOptions& o) {
  requireReadableFile(o.path);
  fl::Scenario s = fl::loadScenario(o.path);  // validated
  const std::string follow = fl::joinFollowList(o.follow);  // several --follow: run.follow's list
  std::vector<std::string> assignments = o.sets;
  std::uint64_t n = 0;
  std::uint64_t point = 0;
  if (!o.point.empty() && !isUnsigned(o.point, point))
    throw fl::InputError({"--point", 0, 0}, "", "a point index (a non-negative integer)", "'" + o.point + "'");
  if (!o.seed.empty() && !isUnsigned(o.seed, n))
    throw fl::InputError({"--seed", 0, 0}, "run.seed", "a non-negative integer below 2^64", "'" + o.seed + "'");
  if (!o.threads.empty() && (!isUnsigned(o.threads, n) || n < 1))
    throw fl::InputError({"--threads", 0, 0}, "run.threads", "a thread count of at least 1",
                         "'" + o.threads + "'");
  // A --set (or --seed) on a swept key replaces that axis with its one value (before the
  // assignments, which may not set a swept key); --sweep axes come after them, so that
  // they are checked against the scenario as set (a --set topology.kind, say).
  std::vector<std::string> whole = o.sets;
  if (!o.seed.empty()) whole.push_back("run.seed=" + o.seed);
  if (!o.threads.empty()) whole.push_back("run.threads=" + o.threads);
  if (!follow.empty()) whole.push_back("run.follow=" + follow);
  for (const std::string& note : fl::dropAxesSetByOverrides(s, whole))
    if (gPrintNotes) std::cerr << kProgram << ": note: " << note << '\n';
  // The shorthands are tried first so that their errors (e.g. above run.threads' maximum)
  // name the option, and applied again after the --set flags so that they win.
  if (!o.seed.empty()) applyShorthand(s, "--seed", "run.seed", o.seed);
  if (!o.threads.empty()) applyShorthand(s, "--threads", "run.threads", o.threads);
  if (!follow.empty()) applyShorthand(s, "--follow", "run.follow", follow);
  if (!assignments.empty() || !o.seed.empty() || !o.threads.empty() || !follow.empty()) {
    if (!o.seed.empty()) assignments.push_back("run.seed=" + o.seed);
    if (!o.threads.empty()) assignments.push_back("run.threads=" + o.threads);
    if (!follow.empty()) assignments.push_back("run.follow=" + follow);
    fl::applyOverrides(s, assignments);  // every flag in order, then cross-field checks
  }
  for (const std::string& note : fl::applySweepFlags(s, o.sweeps))
    if (gPrintNotes) std::cerr << kProgram << ": note: " << note << '\n';
  if (!o.point.empty()) s = fl::keepSweepPoint(s, static_cast<std::size_t>(point));
  try {
    for (const std::string& note : fl::checkRunFollow(s))
      if (gPrintNotes) std::cerr << kProgram << ": note: " << note << '\n';
  } catch (const fl::InputError& e) {
    throw fl::InputError({!follow.empty() ? "--follow" : !o.sets.empty() ? "--set" : o.path, 0, 0}, e.keyPath(), e.expected(), e.found(), e.hint());
  }
  return s;
}

std::string topologyOneLine(const fl::Scenario& s) {
  const auto topology = fl::topo::buildTopology(s.topology);
  if (!topology->description.empty()) return topology->description;
  return topology->kind + ": " + std::to_string(topology->endpointCount()) + " endpoints, " +
         std::to_string(topology->nodes().size()) + " nodes, " +
         std::to_string(topology->links().size()) + " links";
}

// ---------------------------------------------------------------------------------------
// Subcommands.

int cmdValidate(const ScenarioOptions& o, bool quiet) {
  const fl::Scenario s = prepareScenario(o);
  std::vector<std::int64_t> estimates;
  try {
    (void)fl::prepareSweepPoints(s, &estimates);  // every point, and whether it fits in run.memory_limit
  } catch (const fl::InputError& e) {
    if (!e.where().file.empty()) throw;
    throw fl::InputError({o.path, 0, 0}, e.keyPath(), e.expected(), e.found(), e.hint());
  }
  std::string line = o.path + ": ok (" + topologyOneLine(s) + ", " + fl::cli::workloadOneLine(s);
  if (!s.sweep.empty()) {
    std::size_t points = 1;
    for (const fl::SweepAxis& a : s.sweep) points *= a.values.size();
    line += ", sweep of " + std::to_string(points) + (points == 1 ? " point" : " points");
  }
  if (!estimates.empty())
    line += ", estimated peak memory " +
            fl::formatApproxBytes(*std::max_element(estimates.begin(), estimates.end()) + fl::kProcessBaseBytes) +
            (estimates.size() > 1 ? " per point" : "") + " of " + fl::formatApproxBytes(fl::memoryLimitBytes(s));
  if (!quiet) std::cout << line << ")\n";
  return kExitOk;
}

struct RunOptions {
  ScenarioOptions scenario;
  std::string json, csv, report, trace;
  std::string commandLine;  // for the report's provenance
  bool quiet = false;
  int jobs = 0;  // --jobs: sweep points at once (0: run.jobs, then one per core)
};

// The command as typed, quoting arguments the shell would split or expand.
std::string commandLineText(int argc, char** argv) {
  std::string text = kProgram;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool plain = !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                         "0123456789-_./=:,+@%") == std::string::npos;
    std::string quoted = "'";
    for (char c : a) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    text += " " + (plain ? a : quoted + "'");
  }
  return text;
}

std::string utcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
  return buf;
}

// --trace FILE for a single run; FILE with the point index inserted for each sweep point.
std::string tracePath(const fl::Scenario& s, const std::string& path, std::size_t point) {
  return s.sweep.empty() ? path : fl::sweepPointTracePath(path, point);
}

// The file a path names, for telling two names of one file apart (symbolic links and
// "dir/../" resolved where they exist).
std::string fileIdentity(const std::string& path) {
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  return ec ? path : p.string();
}

// Every output must be a file of its own: not the scenario (nor its routing trace), which a
// run would replace with its results, and not another output's.
void checkOutputsDistinct(const RunOptions& o, const fl::Scenario& s, std::size_t points) {
  std::vector<std::pair<std::string, std::string>> inputs = {{o.scenario.path, "the scenario file"}};
  if (!s.workload.moe.routing.trace.empty())
    inputs.emplace_back(s.workload.moe.routing.trace, "the routing trace (workload.moe.routing.trace)");
  std::vector<std::pair<std::string, std::string>> outputs;  // option, path
  if (!o.json.empty() && o.json != "-") outputs.emplace_back("--json", o.json);
  if (!o.report.empty()) outputs.emplace_back("--report", o.report);
  for (std::size_t i = 0; !o.trace.empty() && i < points; ++i) outputs.emplace_back("--trace", tracePath(s, o.trace, i));
  if (!o.csv.empty()) outputs.emplace_back("--csv", o.csv);
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const std::string id = fileIdentity(outputs[i].second);
    for (const auto& [path, what] : inputs)
      if (id == fileIdentity(path))
        throw fl::InputError({outputs[i].second, 0, 0}, outputs[i].first, "an output path other than " + what,
                             what + " itself", "the run would replace it with its results");
    for (std::size_t j = 0; j < i; ++j)
      if (id == fileIdentity(outputs[j].second))
        throw fl::InputError({outputs[i].second, 0, 0}, outputs[i].first,
                             "a path of its own", "the same path as " + outputs[j].first,
                             "one output would replace the other");
  }
}

int cmdRun(const RunOptions& o) {
#if FABRICLAB_MPI
  if (gMpi && gMpi->active() && gMpi->rank() != 0) {
    // A worker: the same scenario, then the points rank 0 hands out; rank 0 reports a
    // scenario that cannot be prepared.
    gPrintNotes = false;
    std::optional<fl::Scenario> s;
    try {
      s = prepareScenario(o.scenario);
    } catch (const fl::InputError&) {
    }
    fl::cli::servePoints(s ? &*s : nullptr);
    return kExitOk;
  }
  if (gMpi && gMpi->active()) fl::cli::workersServe();
#endif
  const fl::Scenario s = prepareScenario(o.scenario);
  const std::string topology = topologyOneLine(s);
  const bool jsonToStdout = o.json == "-";
  checkOutputsDistinct(o, s, s.sweep.empty() ? 1 : fl::sweepPointCount(s));
  // Fail before a possibly long run, not after it; the files are written at the end.
  if (!o.json.empty() && !jsonToStdout) fl::checkFileWritable(o.json, "--json");
  if (!o.csv.empty()) fl::checkCsvDirectory(o.csv);
  if (!o.report.empty()) {
    // HTML whatever the name: a .pdf would be an HTML file that no PDF reader opens.
    std::string suffix = std::filesystem::path(o.report).extension().string();
    std::transform(suffix.begin(), suffix.end(), suffix.begin(), [](unsigned char c) { return std::tolower(c); });
    if (suffix == ".pdf")
      throw fl::InputError({o.report, 0, 0}, "--report", "an .html file name (the CLI writes HTML reports)",
                           "a .pdf name", "for a PDF: fabriclab --open SCENARIO --report FILE.pdf, "
                           "headless with QT_QPA_PLATFORM=offscreen");
    fl::checkFileWritable(o.report, "--report");
  }
  // Sweep points share the directory, so checking the first path covers them all.
  if (!o.trace.empty()) fl::checkFileWritable(tracePath(s, o.trace, 0), "--trace");

  const bool quiet = o.quiet || jsonToStdout;
  std::vector<fl::SweepPoint> points;
  bool interrupted = false;
  {
    SigintGuard sigint;
    const std::string label = s.name.empty() ? "running" : s.name;
    fl::cli::ProgressBar bar(!o.quiet && fl::cli::ProgressBar::stderrIsTerminal(), label);
    bool noted = false;
    fl::RunControl control;
    control.cancel = &gCancel;
    control.progress = [&](double fraction) {
      if (gCancel.load(std::memory_order_relaxed) && !noted) {
        noted = true;
        bar.setNote("stopping... (Ctrl-C again to quit at once)");
      }
      bar.update(fraction);
    };
    fl::SweepOptions so;
    so.cancel = &gCancel;
    so.jobs = o.jobs;
    const bool sweep = !s.sweep.empty();
    so.progress = [&](const fl::SweepProgress& p) {
      if (!sweep) return control.progress(p.fraction);
      if (gCancel.load(std::memory_order_relaxed) && !noted) {
        noted = true;
        bar.setNote("stopping... (Ctrl-C again to quit at once)");
      }
      bar.update(p.fraction, label + ": " + std::to_string(p.done) + "/" + std::to_string(p.total) + " points done, " +
                                 std::to_string(p.running) + " running");
    };
    try {
#if FABRICLAB_MPI
      if (gMpi && gMpi->active())
        points = fl::cli::runSweepOverMpi(s, so);
      else
#endif
        points = fl::runSweepPoints(s, so);
    } catch (const fl::InputError& e) {
      bar.finish();
      // Found while running (e.g. more time bins than memory allows): the scenario's.
      if (!e.where().file.empty()) throw;
      throw fl::InputError({o.scenario.path, 0, 0}, e.keyPath(), e.expected(), e.found(), e.hint());
    } catch (...) {
      bar.finish();
      // A run stopped by Ctrl-C may end in an exception rather than partial results.
      if (!gCancel.load()) throw;
      interrupted = true;
    }
    bar.finish();
  }
  interrupted = interrupted || gCancel.load();
  for (const fl::SweepPoint& p : points) interrupted = interrupted || p.results.cancelled;

  if (!quiet && !points.empty()) {
    if (points.size() == 1 && points.front().settings.empty())
      fl::cli::printRunSummary(std::cout, s, topology, points.front().results);
    else
      fl::cli::printSweepTable(std::cout, s, topology, points);
    std::cout.flush();
  }
  if (interrupted) {
    std::cerr << kProgram << ": interrupted";
    if (!o.json.empty() || !o.csv.empty() || !o.report.empty() || !o.trace.empty())
      std::cerr << "; no output file written";
    std::cerr << '\n';
    return kExitInterrupted;
  }
  for (const fl::SweepPoint& p : points)
    if (p.results.time_limit_reached && p.results.agents_unfinished != 0) {
      std::cerr << kProgram << ": warning: the run stopped at run.time_limit before its work was done\n";
      break;
    }
  for (const fl::SweepPoint& p : points)
    if (p.results.buffer_overflows != 0)
      std::cerr << kProgram << ": warning: " << p.results.buffer_overflows
                << " buffer overflows in the simulated network (a simulator bug)\n";

  // Every file is staged first and all are renamed into place together: a failure
  // (a full disk, say) leaves the previous outputs as they were.
  fl::OutputFiles files;
  std::string jsonForStdout;
  if (!o.json.empty()) {
    std::string text = fl::jsonText(fl::sweepToJson(points, s));
    if (jsonToStdout)
      jsonForStdout = std::move(text);
    else
      files.stage(o.json, text, "--json");
  }
  if (!o.csv.empty()) fl::stageCsvSweep(files, o.csv, points);
  if (!o.report.empty()) {
    const auto topology = fl::topo::buildTopology(s.topology);
    fl::report::ReportOptions ro;
    ro.commandLine = o.commandLine;
    ro.date = utcNow();
    ro.scenarioFile = o.scenario.path;
    files.stage(o.report, fl::report::renderHtmlReport(s, points, *topology, ro), "--report");
  }
  for (std::size_t i = 0; !o.trace.empty() && i < points.size(); ++i)
    files.stage(tracePath(s, o.trace, i), fl::chromeTraceText(points[i].results, s), "--trace");
  files.commit();
  std::cout << jsonForStdout << std::flush;
  return kExitOk;
}

// ---------------------------------------------------------------------------------------

void addScenarioOptions(CLI::App& cmd, ScenarioOptions& o, bool shorthands) {
  cmd.add_option("SCENARIO", o.path, "Scenario file (YAML), or a bundled scenario's name as 'list' shows it")
      ->required();
  cmd.add_option("--set", o.sets,
                 "Override one setting, e.g. --set workload.collective.size=\"4 MiB\" (repeatable; "
                 "applied in order, same checks as the file)")
      ->type_name("KEY.PATH=VALUE")
      ->allow_extra_args(false);  // one value per --set, so SCENARIO may follow it
  cmd.add_option("--sweep", o.sweeps,
                 "Sweep a key over values, e.g. --sweep workload.collective.size=\"1 MiB, 4 MiB\" (adds an "
                 "axis, or replaces the file's axis over that key; repeatable)")
      ->type_name("KEY.PATH=V1,V2,...")
      ->allow_extra_args(false);
  cmd.add_option("--point", o.point, "Keep only point N of the sweep (0-based, in the order of the JSON)")
      ->type_name("N");
  if (shorthands) {
    cmd.add_option("--seed", o.seed, "Same as --set run.seed=N")->type_name("N");
    cmd.add_option("--threads", o.threads, "Same as --set run.threads=N (results never depend on it)")
        ->type_name("N");
    cmd.add_option("--follow", o.follow,
                   "Record the hops of the packets SELECTOR names into the JSON, CSV (follow.csv) and report, "
                   "e.g. --follow \"gpu 0, token 3\" (MoE), \"gpu 2, piece 0\" (NVLS), \"chunk 1\" (ring), "
                   "\"gpu 0 to gpu 5\" (direct); same as --set run.follow=SELECTOR. Give it again to follow "
                   "several (each in its own colour)")
        ->type_name("SELECTOR")
        ->allow_extra_args(false);  // one selector per --follow, so SCENARIO may follow it
  }
}

int realMain(int argc, char** argv) {
  CLI::App app{"FabricLab: simulate GPU interconnect fabrics (NVSwitch, meshes, hierarchies).",
               kProgram};
  app.set_version_flag("--version", std::string(kProgram) + " " + FABRICLAB_VERSION);
  app.require_subcommand(1);
  app.get_formatter()->column_width(34);
  app.footer(
      "Exit status: 0 success, 1 internal error, 2 bad input, 130 interrupted.\n"
      "Run 'fabriclab-cli COMMAND --help' for the options of a command.");

  RunOptions run;
  CLI::App* runCmd = app.add_subcommand("run", "Run a scenario (or its sweep) and report the results");
  addScenarioOptions(*runCmd, run.scenario, true);
  runCmd->add_option("--json", run.json, "Write the results as JSON to FILE ('-': standard output)")
      ->type_name("FILE");
  runCmd->add_option("--csv", run.csv, "Write links, link_bins, switches and phases CSV tables into DIR")
      ->type_name("DIR");
  runCmd->add_option("--report", run.report,
                     "Write a self-contained HTML report (topology, plots, tables) to FILE")
      ->type_name("FILE");
  runCmd->add_option("--trace", run.trace,
                     "Write a Chrome trace to FILE (open it in ui.perfetto.dev); a sweep writes one per "
                     "point: t.json -> t-point-000.json, ...")
      ->type_name("FILE");
  runCmd->add_flag("-q,--quiet", run.quiet, "Print no summary and no progress bar");
  std::string jobs;
  runCmd->add_option("--jobs", jobs,
                     "Sweep points run at once (default: run.jobs, else one per core; fewer when run.threads "
                     "or run.memory_limit demand). Results never depend on it")
      ->type_name("N");

  ScenarioOptions validate;
  CLI::App* validateCmd =
      app.add_subcommand("validate", "Check a scenario (and overrides) without running it");
  addScenarioOptions(*validateCmd, validate, false);
  bool validateQuiet = false;
  validateCmd->add_flag("-q,--quiet", validateQuiet, "Print nothing on success (errors still go to stderr)");

  std::string listDir;
  CLI::App* listCmd = app.add_subcommand("list", "List the bundled scenarios");
  listCmd->add_option("--dir", listDir, "List the scenarios of DIR instead")->type_name("DIR");

  // CLI11 reports a mistyped subcommand as an unexpected argument; name it properly.
  if (argc > 1 && argv[1][0] != '-') {
    const std::string cmd = argv[1];
    if (cmd != "run" && cmd != "validate" && cmd != "list") {
      std::cerr << kProgram << ": error: unknown command '" << cmd
                << "' (expected run, validate or list)\n"
                << "Run 'fabriclab-cli --help' for usage.\n";
      return kExitBadInput;
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
    std::cerr << kProgram << ": error: " << e.what() << '\n';
    std::string sub;
    for (const CLI::App* s : app.get_subcommands()) sub = " " + s->get_name();
    std::cerr << "Run 'fabriclab-cli" << sub << " --help' for usage.\n";
    return kExitBadInput;
  }

  run.commandLine = commandLineText(argc, argv);
  if (runCmd->parsed()) {
    // An output option given an empty path, or '-' where only --json can stream.
    for (const char* name : {"--json", "--csv", "--report", "--trace"}) {
      const CLI::Option* opt = runCmd->get_option(name);
      if (opt->count() == 0) continue;
      const std::string value = opt->as<std::string>();
      if (value.empty())
        throw fl::InputError({}, name, "a path", "an empty path");
      if (value == "-" && std::string(name) != "--json")
        throw fl::InputError({}, name, "a path", "'-'", "only --json writes to standard output");
    }
    if (!jobs.empty()) {
      std::uint64_t n = 0;
      if (!isUnsigned(jobs, n) || n < 1 || n > 1024)
        throw fl::InputError({"--jobs", 0, 0}, "run.jobs", "a job count from 1 to 1024", "'" + jobs + "'");
      run.jobs = static_cast<int>(n);
    }
    run.scenario.path = fl::resolveScenarioArgument(run.scenario.path, "SCENARIO");
    return cmdRun(run);
  }
#if FABRICLAB_MPI
  if (gMpi && gMpi->active() && gMpi->rank() != 0) return kExitOk;  // rank 0 answers
#endif
  if (validateCmd->parsed()) {
    validate.path = fl::resolveScenarioArgument(validate.path, "SCENARIO");
    return cmdValidate(validate, validateQuiet);
  }
  if (listCmd->parsed()) return fl::cli::listScenarios(listDir);
  return kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  fl::reexecWithHugePages(argv);
#if FABRICLAB_MPI
  fl::cli::MpiSession mpi(argc, argv);  // inactive unless started by mpirun/srun
  gMpi = &mpi;
#endif
  try {
    return realMain(argc, argv);
  } catch (const fl::InputError& e) {
    std::cerr << kProgram << ": error: " << e.what() << '\n';
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << kProgram << ": internal error: " << e.what() << '\n';
    return kExitInternal;
  } catch (...) {
    std::cerr << kProgram << ": internal error: unknown exception\n";
    return kExitInternal;
  }
}
