// Writing output files so that readers never see a half-written one: the content goes
// to a uniquely named temporary file in the destination's directory, which is then
// renamed over the destination (atomic on POSIX file systems).
#pragma once
#include <string>
#include <string_view>

namespace fl {

// Writes `content` to `path` atomically. On failure nothing is left behind (the
// temporary file is removed) and fl::InputError is thrown with location {path}, key
// path `keyPathForErrors` (e.g. "--json"), expected "a writable file path" and the
// operating system's error text as what was found.
void writeFileAtomically(const std::string& path, std::string_view content,
                         const std::string& keyPathForErrors);

// Checks, without leaving anything behind, that a file could be created in the
// directory that would hold `path` (the directory must exist). Throws like
// writeFileAtomically. Lets a command fail before a long run rather than after it.
void checkFileWritable(const std::string& path, const std::string& keyPathForErrors);

}  // namespace fl
