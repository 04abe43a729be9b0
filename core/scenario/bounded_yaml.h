// Every YAML text FabricLab reads (scenario files, the GUI's Open and recovery,
// --set values, sweep values) goes through loadBoundedYaml: yaml-cpp 0.7 loops
// forever on some malformed texts (a line starting with ',': yaml-cpp issue
// 1040, in LoadAll), overflows its stack on deep nesting (issue 459) and
// expands alias bombs on every walk, so the text is first checked with
// libyaml's event parser, which is iterative and built for hostile input,
// against fixed limits. yaml-cpp then only sees texts that are one well-formed
// document of bounded size, depth and expanded node count.
#pragma once
#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <string>

namespace fl {

struct YamlLimits {
  std::size_t maxBytes = 8u << 20;   // 8 MiB: bundled scenarios are a few KiB
  int maxDepth = 64;                 // nested lists and maps; scenarios use 5
  std::size_t maxNodes = 1'000'000;  // values with aliases expanded (what the loader may walk)
};

// A text refused before yaml-cpp saw it. A YAML::ParserException (callers
// already catch those) whose mark is the 0-based line and column of the problem
// (line -1: none) and whose msg says what was found; expected() and hint()
// complete an InputError.
class BoundedYamlError : public YAML::ParserException {
 public:
  BoundedYamlError(int line, int column, std::string expected, const std::string& found, std::string hint = {});
  const std::string& expected() const { return expected_; }
  const std::string& hint() const { return hint_; }

 private:
  std::string expected_, hint_;
};

// The first document of `text` (a null node when there is none). Throws
// BoundedYamlError for a text over the limits, with a syntax error, or holding
// a second non-empty document, and YAML::Exception for what yaml-cpp itself
// rejects (an unknown alias).
YAML::Node loadBoundedYaml(const std::string& text, const YamlLimits& limits = {});

}  // namespace fl
