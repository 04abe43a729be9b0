#include "scenario/input_error.h"

namespace fl {

std::string formatInputError(const InputLocation& where, const std::string& keyPath,
                             const std::string& expected, const std::string& found,
                             const std::string& hint) {
  std::string s;
  if (!where.file.empty()) s += where.file;
  if (where.line > 0) {
    s.append(s.empty() ? "line " : ":").append(std::to_string(where.line));
    if (where.column > 0) s.append(":").append(std::to_string(where.column));
  }
  if (!s.empty()) s += ": ";
  if (!keyPath.empty()) s += keyPath + ": ";
  s += "expected " + expected + ", found " + found;
  if (!hint.empty()) s.append(" (").append(hint).append(")");
  return s;
}

InputError::InputError(InputLocation where, std::string keyPath, std::string expected,
                       std::string found, std::string hint)
    : std::runtime_error(formatInputError(where, keyPath, expected, found, hint)),
      where_(std::move(where)),
      keyPath_(std::move(keyPath)),
      expected_(std::move(expected)),
      found_(std::move(found)),
      hint_(std::move(hint)) {}

}  // namespace fl
