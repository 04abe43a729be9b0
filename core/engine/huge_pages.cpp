#include "engine/huge_pages.h"

#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
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

std::optional<std::string> hugePageTunables(const char* current, const char* optOut, const char* preload,
                                            std::string_view kernelMode) {
  if (optOut != nullptr) {  // the usual spellings of "off", in any case
    std::string off = optOut;
    for (char& c : off) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (off == "0" || off == "off" || off == "false" || off == "no") return std::nullopt;
  }
  // Valgrind preloads its core and runs an exec'd program natively (or, given a path it
  // resolves itself, not at all): a tool's user wants this process, as it is.
  if (preload != nullptr && std::string_view(preload).find("vgpreload") != std::string_view::npos) return std::nullopt;
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
      hugePageTunables(current, std::getenv("FABRICLAB_HUGE_PAGES"), std::getenv("LD_PRELOAD"), kernelHugePageMode());
  if (!tunables) return;
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return;
  const std::string before = current != nullptr ? current : "";
  const bool hadTunables = current != nullptr;
  if (setenv("GLIBC_TUNABLES", tunables->c_str(), 1) != 0 || setenv(kRestarted, "1", 1) != 0) return;
  execv(self.c_str(), argv);
  // Still here: the exec failed. Run on with normal pages and leave the environment as it was.
  if (hadTunables) setenv("GLIBC_TUNABLES", before.c_str(), 1);
  else unsetenv("GLIBC_TUNABLES");
  unsetenv(kRestarted);
}

}  // namespace fl
