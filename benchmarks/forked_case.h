// One benchmark case in a forked child process, so that its peak RSS is its own and not
// the high-water mark of the cases before it. Shared by the bench_* programs.
#pragma once
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>

#include "results/results.h"

namespace fl::bench {

struct CaseCost {
  double wall_s = 0, cpu_s = 0, peak_rss_mib = 0;
};

// Runs `run()` (returning Results) in a child unless `only` is set and not part of
// `label`; the child prints with `print(results, cost)` and exits.
template <class Run, class Print>
void forkedCase(const char* label, const char* only, Run run, Print print) {
  if (only != nullptr && std::strstr(label, only) == nullptr) return;
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid != 0) {
    waitpid(pid, nullptr, 0);
    return;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const Results r = run();
  CaseCost c;
  c.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  c.cpu_s = u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec * 1e-6;
  c.peak_rss_mib = u.ru_maxrss / 1024.0;
  print(r, c);
  std::fflush(stdout);
  _exit(0);
}

}  // namespace fl::bench
