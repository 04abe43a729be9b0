// One error type for every kind of bad input (scenario files, --set overrides, GUI
// edits, trace files). It always names where (file, line, column), which key path,
// what was expected and what was found, so the CLI, the GUI and tests print the same.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace fl {

struct InputLocation {
  std::string file;  // "" when not from a file (e.g. "--set")
  int line = 0;      // 1-based; 0 when unknown
  int column = 0;    // 1-based; 0 when unknown
};

// What a message may quote of the input: control characters and bytes that are not
// UTF-8 escaped as \xNN (a NUL would end what()), and, when `text` is quoted ('...'),
// its inside cut to kMaxQuotedChars characters with '…'.
constexpr std::size_t kMaxQuotedChars = 80;
std::string printableFound(std::string_view text);

// Found-text for a file that could not be opened or examined, from its errno:
// "no such file", "permission denied", else the system's message in lower case.
std::string fileErrorText(int errorNumber);

class InputError : public std::runtime_error {
 public:
  // `found` is kept as printableFound(found); the key path is escaped in the message.
  InputError(InputLocation where, std::string keyPath, std::string expected, std::string found,
             std::string hint = {});

  const InputLocation& where() const { return where_; }
  const std::string& keyPath() const { return keyPath_; }
  const std::string& expected() const { return expected_; }
  const std::string& found() const { return found_; }
  const std::string& hint() const { return hint_; }

 private:
  InputLocation where_;
  std::string keyPath_, expected_, found_, hint_;
};

// "file:line:col: key.path: expected X, found Y (hint)"
std::string formatInputError(const InputLocation& where, const std::string& keyPath,
                             const std::string& expected, const std::string& found,
                             const std::string& hint);

}  // namespace fl
