// Reading typed values out of YAML nodes for the schema (internal to core/scenario).
// Each reader checks the node's shape, parses the text, checks the ParamSpec's range
// and throws InputError naming `path` at the node's location.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "scenario/schema.h"

namespace fl::detail {

// "a map", "a list", "nothing", or the scalar quoted: "'abc'".
std::string describeNode(const YAML::Node& node);

// Gives a bandwidth key its range: kMinBandwidth to kMaxBandwidth, and 0 when
// `zeroAllowed` (the key documents what 0 stands for).
void bandwidthRange(ParamSpec& p, bool zeroAllowed);

// A one-line text key (ParamSpec::oneLine) whose value spans `lines` lines (more than 1)
// is an error at `at`: an unclosed quote takes in the lines after it.
void requireOneLine(int lines, const std::string& path, const InputLocation& at);

// The node's scalar text, or an InputError "expected <expected>, found a map".
std::string scalarText(const YAML::Node& node, const std::string& path, const ValueSource& src,
                       const std::string& expected);

std::int64_t readInteger(const YAML::Node& node, const std::string& path,
                         const ParamSpec& rules, const ValueSource& src);
std::uint64_t readUnsigned(const YAML::Node& node, const std::string& path,
                           const ParamSpec& rules, const ValueSource& src);
double readReal(const YAML::Node& node, const std::string& path, const ParamSpec& rules,
                const ValueSource& src);  // "float" or a Fraction quantity
bool readBool(const YAML::Node& node, const std::string& path, const ValueSource& src);
std::string readChoice(const YAML::Node& node, const std::string& path, const ParamSpec& rules,
                       const ValueSource& src);
// Bytes, Bandwidth or Time per rules.quantity; Bytes and Time are exact integers.
double readQuantity(const YAML::Node& node, const std::string& path, const ParamSpec& rules,
                    const ValueSource& src);

std::vector<int> readIntList(const YAML::Node& node, const std::string& path,
                             const ParamSpec& rules, const ValueSource& src);
std::vector<LevelSpec> readLevels(const YAML::Node& node, const std::string& path,
                                  const ValueSource& src);
std::vector<std::vector<std::int64_t>> readMatrix(const YAML::Node& node, const std::string& path,
                                                  const ValueSource& src);

// The rules of one field of a levels entry (name, count, bandwidth, latency, uplinks), for the
// reader, for element paths "topology.levels[i].<field>" and for the docs.
const std::vector<ParamSpec>& levelFieldSpecs();
void setLevelField(LevelSpec& level, const std::string& field, const YAML::Node& node,
                   const std::string& path, const ValueSource& src);
std::string getLevelField(const LevelSpec& level, const std::string& field);
// Every field a level may have, in docs order; and the ones written for `level` (optional
// fields only when they differ from their default, so older files save unchanged).
std::vector<std::string> levelFieldNames();
std::vector<std::string> levelFieldNames(const LevelSpec& level);

// YAML flow text of list values, readable back by the readers above.
std::string intListText(const std::vector<int>& v);
std::string levelsText(const std::vector<LevelSpec>& levels);
std::string matrixText(const std::vector<std::vector<std::int64_t>>& m);

}  // namespace fl::detail
