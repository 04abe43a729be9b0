#include "sim/sweep_runner.h"

#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "engine/thread_sanitizer.h"
#include "scenario/input_error.h"
#include "scenario/sweep.h"
#include "sim/memory_estimate.h"
#include "topology/topology.h"

namespace fl {

std::string sweepPointName(std::size_t index, const std::vector<std::pair<std::string, std::string>>& settings) {
  std::string text = "sweep point " + std::to_string(index);
  if (settings.empty()) return text;
  text += " (";
  for (std::size_t i = 0; i < settings.size(); ++i) text += (i ? ", " : "") + settings[i].first + "=" + settings[i].second;
  return text + ")";
}

int sweepJobs(const Scenario& s, int requested, std::size_t points) {
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  int jobs = requested > 0 ? requested : s.run.jobs > 0 ? s.run.jobs : cores;
  // A point's engine may use run.threads threads (any axis may raise it): no more
  // threads in all than cores.
  int threads = std::max(1, s.run.threads);
  for (const SweepAxis& a : s.sweep)
    if (a.key == "run.threads")
      for (const std::string& v : a.values) threads = std::max(threads, std::atoi(v.c_str()));
  jobs = std::min(jobs, std::max(1, cores / threads));
  return std::max(1, std::min<int>(jobs, static_cast<int>(std::max<std::size_t>(1, points))));
}

void finishSweep(const Scenario& s, std::vector<SweepPoint>& points) {
  // A weak-scaling sweep (GPU count the only axis): overlap efficiency T(first) / T(N)
  // (seed 001 §6.4 uses T(2) / T(N)).
  if (s.sweep.size() == 1 && s.sweep[0].key == "topology.gpus" && !points.empty()) {
    const Time first = points.front().results.makespan;
    for (SweepPoint& p : points)
      if (p.results.pipeline && p.results.makespan > 0)
        p.results.pipeline->overlap_efficiency = static_cast<double>(first) / static_cast<double>(p.results.makespan);
  }
}

std::exception_ptr namedError(std::exception_ptr error, std::size_t index, const SweepSettings& settings) {
  if (settings.empty()) return error;
  try {
    std::rethrow_exception(error);
  } catch (const InputError& e) {
    const std::string at = "at " + sweepPointName(index, settings);
    return std::make_exception_ptr(
        InputError(e.where(), e.keyPath(), e.expected(), e.found(), e.hint().empty() ? at : e.hint() + "; " + at));
  } catch (...) {
    return std::current_exception();
  }
}

std::vector<Scenario> prepareSweepPoints(const Scenario& s, std::vector<std::int64_t>* estimates) {
  const std::vector<SweepSettings> settings = sweepPoints(s);
  const std::size_t n = settings.size();
  std::vector<Scenario> scenarios;
  scenarios.reserve(n);
  for (const SweepSettings& p : settings) scenarios.push_back(s.sweep.empty() ? s : sweepPointScenario(s, p));
  // Memory: every point must fit alone, and the results kept for the outputs together
  // (a single run checks itself as it starts).
  if (n == 1 && !estimates) return scenarios;
  const std::int64_t limit = memoryLimitBytes(s);
  std::int64_t kept = 0, largest = 0;
  std::optional<TopologySpec> spec;
  std::unique_ptr<topo::Topology> topology;
  for (std::size_t i = 0; i < n; ++i) {
    if (!spec || !(*spec == scenarios[i].topology)) {
      topology = topo::buildTopology(scenarios[i].topology);
      spec = scenarios[i].topology;
    }
    const MemoryEstimate e = estimateRunMemory(scenarios[i], *topology);
    requireFits(e, memoryLimitBytes(scenarios[i]), s.sweep.empty() ? "the run" : sweepPointName(i, settings[i]));
    if (estimates) estimates->push_back(e.total());
    kept += e.resultsBytes;
    largest = std::max(largest, e.total() - e.resultsBytes);
  }
  if (n > 1 && kept + largest + kProcessBaseBytes > limit) {
    MemoryEstimate all;
    all.parts.push_back({"results kept for the outputs", kept, "fewer sweep points, or a wider run.bin"});
    all.parts.push_back({"the largest point running", largest, ""});
    throwMemoryLimit(all, limit, "the sweep's " + std::to_string(n) + " points");
  }
  return scenarios;
}

std::vector<SweepPoint> runSweepPoints(const Scenario& s, const SweepOptions& o) {
  const std::vector<SweepSettings> settings = sweepPoints(s);
  const std::size_t n = settings.size();
  std::vector<std::int64_t> estimate;
  const std::vector<Scenario> scenarios = prepareSweepPoints(s, n > 1 ? &estimate : nullptr);
  estimate.resize(n, 0);
  const std::int64_t limit = memoryLimitBytes(s);

  const int jobs = sweepJobs(s, o.jobs, n);
  std::atomic<bool> stop{false};
  std::mutex mutex;  // guards everything below and serialises the callbacks
  std::condition_variable memoryFreed;
  std::int64_t memoryInUse = 0;
  std::size_t done = 0, running = 0;
  std::vector<double> fraction(n, 0.0);
  std::vector<std::optional<Results>> results(n);
  std::vector<std::exception_ptr> errors(n);
  const std::int64_t available = limit - kProcessBaseBytes;
  auto lastProgress = std::chrono::steady_clock::now();

  const auto report = [&](bool force) {  // with the lock held
    if (!o.progress) return;
    const auto now = std::chrono::steady_clock::now();
    if (!force && now - lastProgress < std::chrono::milliseconds(50)) return;
    lastProgress = now;
    double sum = 0;
    for (double f : fraction) sum += f;
    o.progress({done, running, n, n ? sum / static_cast<double>(n) : 1.0});
  };
  const auto userCancelled = [&] { return o.cancel && o.cancel->load(std::memory_order_relaxed); };

  const auto runPoint = [&](std::size_t i) {
    {
      std::unique_lock lock(mutex);
      // Wait until the point's estimate fits beside the points running (one runs alone
      // whatever it needs: it was checked against the limit above).
      memoryFreed.wait(lock, [&] { return running == 0 || memoryInUse + estimate[i] <= available || stop || userCancelled(); });
      if (stop || userCancelled()) return;
      memoryInUse += estimate[i];
      ++running;
      report(true);
    }
    RunControl control;
    if (o.configure) o.configure(i, control);
    control.cancel = &stop;
    control.progress = [&, i](double f) {
      if (userCancelled()) stop = true;
      std::lock_guard lock(mutex);
      fraction[i] = f;
      report(false);
    };
    std::optional<Results> r;
    std::exception_ptr error;
    try {
      r = runScenario(scenarios[i], control);
    } catch (...) {
      error = namedError(std::current_exception(), i, settings[i]);
    }
    if (userCancelled()) stop = true;
    std::lock_guard lock(mutex);
    memoryInUse -= estimate[i];
    --running;
    if (error) {
      errors[i] = error;
      stop = true;
    } else {
      fraction[i] = 1.0;
      ++done;
      results[i] = std::move(r);
      if (o.pointDone) o.pointDone(i, *results[i]);
    }
    report(true);
    memoryFreed.notify_all();
  };

  if (jobs <= 1 || n <= 1) {
    for (std::size_t i = 0; i < n && !stop; ++i) runPoint(i);
  } else {
    // `jobs` workers take the next point as they become free: points start in index
    // order, and a long point does not hold up the others.
    std::atomic<std::size_t> next{0};
    const auto worker = [&](int) {
      for (std::size_t i = next++; i < n && !stop; i = next++) runPoint(i);
    };
    if (kThreadSanitizer) {  // plain threads TSan sees start and join (thread_sanitizer.h)
      std::vector<std::thread> threads;
      for (int t = 0; t < jobs; ++t) threads.emplace_back(worker, t);
      for (std::thread& t : threads) t.join();
    } else {
      tbb::task_arena arena(jobs);
      arena.execute([&] { tbb::parallel_for(0, jobs, worker, tbb::simple_partitioner()); });
    }
  }
  return gatherSweepPoints(s, results, errors, userCancelled());
}

std::vector<SweepPoint> gatherSweepPoints(const Scenario& s, std::vector<std::optional<Results>>& results,
                                          const std::vector<std::exception_ptr>& errors, bool cancelled) {
  for (const std::exception_ptr& e : errors)
    if (e && !cancelled) std::rethrow_exception(e);
  const std::vector<SweepSettings> settings = sweepPoints(s);
  std::vector<SweepPoint> points;
  for (std::size_t i = 0; i < results.size(); ++i)
    if (results[i]) points.push_back({settings[i], std::move(*results[i])});
  if (points.size() == results.size()) finishSweep(s, points);
  return points;
}

}  // namespace fl
