// Writing output files so that readers never see a half-written one: the content goes
// to a uniquely named temporary file in the destination's directory, which is then
// renamed over the destination (atomic on POSIX file systems).
//
// What the destination is decides how: a regular file (or a new one) is replaced by
// rename; a symbolic link has its target replaced, the link stays; a device, FIFO or
// terminal (/dev/null, /dev/stdout, a pipe) is written in place, since renaming over it
// would replace the device itself (and running as root nothing would stop that).
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace fl {

// A set of output files written together (a run's JSON, report, CSV tables and traces):
// stage() writes each one's content to its temporary file; commit() renames them all into
// place once every one is staged. A failure while staging (a full disk, a read-only
// directory) leaves every existing file as it was: the destructor of an uncommitted set
// removes its temporary files.
class OutputFiles {
 public:
  OutputFiles() = default;
  ~OutputFiles();
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;

  // Throws fl::InputError with location {path}, key path `keyPathForErrors` (e.g.
  // "--json"), expected "a writable file path" and the operating system's error text.
  void stage(const std::string& path, std::string_view content, const std::string& keyPathForErrors);
  // Renames (or, for devices and FIFOs, writes) every staged file; throws like stage().
  void commit();

 private:
  struct Staged {
    std::string target;   // where the content ends up (a symbolic link resolved)
    std::string temp;     // its temporary file; empty for a device or FIFO
    std::string content;  // kept for a device or FIFO, written at commit()
    std::string keyPath;
    bool stream = false;  // a device or FIFO
  };
  std::vector<Staged> staged_;
};

// Writes `content` to `path` atomically (a set of one). On failure nothing is left behind
// and fl::InputError is thrown as by OutputFiles::stage().
void writeFileAtomically(const std::string& path, std::string_view content,
                         const std::string& keyPathForErrors);

// For libraries that can only write a file of their own (a PDF printer, an image
// writer): puts the finished `temp` in place of `path` exactly as writeFileAtomically
// would (a link kept, a device written in place), and removes `temp` whatever happens.
void replaceWithFile(const std::string& temp, const std::string& path, const std::string& keyPathForErrors);

// Checks, without leaving anything behind, that `path` could be written: a file created
// in the directory that would hold it (the directory must exist), or a device or FIFO
// opened for writing. Throws like writeFileAtomically. Lets a command fail before a long
// run rather than after it.
void checkFileWritable(const std::string& path, const std::string& keyPathForErrors);

}  // namespace fl
