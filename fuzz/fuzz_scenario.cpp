// libFuzzer target: a scenario file and --set overrides, as `fabriclab-cli
// validate` reads them (and estimates the run's memory). The input is split at NUL
// bytes: the YAML text, then one override (key.path=value) per part. Bad input must end in fl::InputError;
// anything else (another exception, a crash, a hang, a sanitizer report) is a
// finding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "scenario/input_error.h"
#include "scenario/scenario_io.h"
#include "sim/memory_estimate.h"
#include "topology/topology.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> parts;
  for (std::size_t b = 0;;) {
    const std::size_t nul = input.find('\0', b);
    parts.push_back(input.substr(b, nul == std::string::npos ? std::string::npos : nul - b));
    if (nul == std::string::npos || parts.size() > 8) break;
    b = nul + 1;
  }
  try {
    fl::Scenario s = fl::parseScenario(parts[0], "fuzz.yaml");
    if (parts.size() > 1) fl::applyOverrides(s, {parts.begin() + 1, parts.end()});
    (void)fl::saveScenarioText(s);  // the GUI's Save and the recovery file
    const auto topology = fl::topo::buildTopology(s.topology);  // validate prints its summary
    (void)fl::estimateRunMemory(s, *topology);  // and checks the run fits in run.memory_limit
  } catch (const fl::InputError&) {
  }
  return 0;
}
