#include "engine/huge_pages.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace fl {

namespace {
constexpr const char* kRestarted = "FABRICLAB_HUGE_PAGES_EXEC";  // guards against exec loops

std::string kernelHugePageMode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  std::getline(in, mode);
  return mode;
}
}  // namespace

std::optional<std::string> hugePageTunables(const char* current, const char* optOut, std::string_view kernelMode) {
  if (optOut != nullptr && std::string_view(optOut) == "0") return std::nullopt;
  const std::string tunables = current != nullptr ? current : "";
  if (tunables.find("glibc.malloc.hugetlb") != std::string::npos) return std::nullopt;
  // "[madvise]": pages for memory that asks; "[always]": every process has them already;
  // "[never]": nobody does.
  if (kernelMode.find("[madvise]") == std::string_view::npos) return std::nullopt;
  constexpr const char* kTunable = "glibc.malloc.hugetlb=1";
  return tunables.empty() ? std::string(kTunable) : tunables + ':' + kTunable;
}

void reexecWithHugePages(char** argv) {
  if (std::getenv(kRestarted) != nullptr) return;
  const char* current = std::getenv("GLIBC_TUNABLES");
  const std::optional<std::string> tunables =
      hugePageTunables(current, std::getenv("FABRICLAB_HUGE_PAGES"), kernelHugePageMode());
  if (!tunables) return;
  const std::string before = current != nullptr ? current : "";
  const bool hadTunables = current != nullptr;
  if (setenv("GLIBC_TUNABLES", tunables->c_str(), 1) != 0 || setenv(kRestarted, "1", 1) != 0) return;
  execv("/proc/self/exe", argv);
  // Still here: the exec failed. Run on with normal pages and leave the environment as it was.
  if (hadTunables) setenv("GLIBC_TUNABLES", before.c_str(), 1);
  else unsetenv("GLIBC_TUNABLES");
  unsetenv(kRestarted);
}

}  // namespace fl
