#include "scenario/data_dirs.h"

#include <cstdlib>

#include "scenario/input_error.h"

namespace fs = std::filesystem;

namespace fl {

fs::path bundledScenarioDir() {
  if (const char* env = std::getenv("FABRICLAB_DATA_DIR"); env && *env) return fs::path(env) / "scenarios";
  std::error_code ec;
  fs::path installed;
  // Linux: the running executable, symbolic links resolved, so that /usr/bin/fabriclab
  // and <root>/usr/bin/fabriclab both find their own share/.
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    installed = exe.parent_path().parent_path() / "share" / "fabriclab" / "scenarios";
    if (fs::is_directory(installed, ec)) return installed;
  }
  const fs::path source = fs::path(FABRICLAB_SOURCE_DIR) / "scenarios";
  if (fs::is_directory(source, ec) || installed.empty()) return source;
  return installed;
}

std::string resolveScenarioArgument(const std::string& argument, const std::string& keyPath) {
  std::error_code ec;
  if (argument.empty() || argument.find('/') != std::string::npos || fs::exists(argument, ec)) return argument;
  const fs::path dir = bundledScenarioDir();
  for (const char* suffix : {"", ".yaml", ".yml"}) {
    const fs::path candidate = dir / (argument + suffix);
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
  }
  throw InputError({argument, 0, 0}, keyPath, "a scenario file or the name of a bundled scenario",
                   "no such file here, and no " + argument + "(.yaml) in " + dir.string(),
                   "'fabriclab-cli list' shows the bundled scenarios");
}

}  // namespace fl
