#include "cli/list_command.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <vector>

#include "scenario/data_dirs.h"
#include "scenario/input_error.h"
#include "scenario/scenario_io.h"

namespace fs = std::filesystem;

namespace fl::cli {

namespace {

std::string firstLine(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  const auto b = line.find_first_not_of(" \t\r");
  const auto e = line.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : line.substr(b, e - b + 1);
}

}  // namespace

int listScenarios(const std::string& dirOption) {
  const fs::path dir = dirOption.empty() ? fl::bundledScenarioDir() : fs::path(dirOption);
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw fl::InputError({dir.string(), 0, 0}, dirOption.empty() ? "" : "--dir",
                         "a directory of scenarios", "no such directory");
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const auto ext = entry.path().extension();
    if (entry.is_regular_file(ec) && (ext == ".yaml" || ext == ".yml")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::cerr << "fabriclab-cli: no scenarios in " << dir.string() << '\n';
    return 0;
  }
  std::size_t width = 0;
  for (const fs::path& f : files) width = std::max(width, f.filename().string().size());
  for (const fs::path& f : files) {
    std::string text;
    try {
      const fl::Scenario s = fl::loadScenario(f.string());
      text = firstLine(s.description);
      if (text.empty()) text = s.name;
    } catch (const std::exception& e) {
      text = std::string("(invalid: ") + e.what() + ")";
    }
    const std::string name = f.filename().string();
    std::cout << name << std::string(width - name.size() + 2, ' ') << text << '\n';
  }
  std::cout << "(" << files.size() << " scenarios in " << dir.string() << ")\n";
  return 0;
}

}  // namespace fl::cli
