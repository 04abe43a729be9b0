#include "scenario/input_error.h"

#include <cctype>
#include <cerrno>
#include <cstring>

namespace fl {
namespace {

// Length of the UTF-8 sequence starting at text[i], or 0 when it is not valid UTF-8.
std::size_t utf8Length(std::string_view text, std::size_t i) {
  const auto c = static_cast<unsigned char>(text[i]);
  std::size_t n = 0;
  if (c < 0x80) n = 1;
  else if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c >= 0xE0 && c <= 0xEF) n = 3;
  else if (c >= 0xF0 && c <= 0xF4) n = 4;
  if (n == 0 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 0;
  return n;
}

// Escapes control characters and invalid bytes; stops after `maxChars` characters and
// tells whether it did.
std::string escaped(std::string_view text, std::size_t maxChars, bool& cut) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  std::size_t chars = 0, i = 0;
  for (; i < text.size() && chars < maxChars; ++chars) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = utf8Length(text, i);
    if (n == 0 || c < 0x20 || c == 0x7F) {
      out.append("\\x").append(1, hex[c >> 4]).append(1, hex[c & 15]);
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  cut = i < text.size();
  return out;
}

}  // namespace

std::string fileErrorText(int errorNumber) {
  if (errorNumber == ENOENT) return "no such file";
  if (errorNumber == EACCES || errorNumber == EPERM) return "permission denied";
  std::string text = std::strerror(errorNumber);
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string printableFound(std::string_view text) {
  bool cut = false;
  const bool quoted = text.size() >= 2 && text.front() == '\'' && text.back() == '\'';
  if (!quoted) return escaped(text, std::string_view::npos, cut);
  std::string inside = escaped(text.substr(1, text.size() - 2), kMaxQuotedChars, cut);
  return "'" + inside + (cut ? "\xE2\x80\xA6'" : "'");
}

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
  bool cut = false;
  if (!keyPath.empty()) s += escaped(keyPath, std::string_view::npos, cut) + ": ";
  s += "expected " + expected + ", found " + found;
  if (!hint.empty()) s.append(" (").append(hint).append(")");
  return s;
}

InputError::InputError(InputLocation where, std::string keyPath, std::string expected,
                       std::string found, std::string hint)
    : std::runtime_error(formatInputError(where, keyPath, expected, printableFound(found), hint)),
      where_(std::move(where)),
      keyPath_(std::move(keyPath)),
      expected_(std::move(expected)),
      found_(printableFound(found)),
      hint_(std::move(hint)) {}

}  // namespace fl
