#include "results/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "scenario/input_error.h"

namespace fl {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& keyPath, int err) {
  std::string found = std::strerror(err);
  if (!found.empty() && found[0] >= 'A' && found[0] <= 'Z' && found.size() > 1 && found[1] >= 'a')
    found[0] = static_cast<char>(found[0] - 'A' + 'a');  // "no such file or directory"
  throw InputError(InputLocation{path, 0, 0}, keyPath, "a writable file path", found);
}

// "<dir>/.<name>.tmp.<pid>.<counter><time>": unique within this process by the counter
// and across processes by the pid; O_EXCL guards against anything else.
std::string tempName(const std::string& path, unsigned attempt) {
  static std::atomic<unsigned long> counter{0};
  const std::filesystem::path p(path);
  const auto stamp = static_cast<unsigned long long>(
      std::chrono::steady_clock::now().time_since_epoch().count());
  std::string name = ".";
  name += p.filename().string();
  name += ".tmp.";
  name += std::to_string(::getpid());
  name += '.';
  name += std::to_string(counter.fetch_add(1));
  name += '.';
  name += std::to_string((stamp + attempt) % 1000000007ull);
  return (p.parent_path() / name).string();
}

// Where the content of an output named `path` goes, and how (see atomic_file.h).
struct Target {
  std::string path;
  bool stream = false;  // a device or FIFO: written in place
};

bool underProc(const std::string& p) { return p.rfind("/proc/", 0) == 0; }

Target resolveTarget(const std::string& path, const std::string& keyPath) {
  if (path.empty()) throw InputError(InputLocation{path, 0, 0}, keyPath, "a writable file path", "an empty path");
  namespace fs = std::filesystem;
  std::error_code ec;
  const bool link = fs::is_symlink(fs::symlink_status(path, ec));
  // Through a symbolic link, the file it names; /dev/stdout and its kind lead into
  // /proc (a process's descriptors), which is never renamed over.
  std::string resolved = path;
  bool viaProc = underProc(path);
  if (link) {  // followed link by link, so that a dangling one leads to the file to create
    fs::path p = path;
    for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
      const fs::path next = fs::read_symlink(p, ec);
      if (ec) break;
      p = next.is_absolute() ? next : p.parent_path() / next;
      viaProc = viaProc || underProc(p.string());
    }
    const fs::path canonical = fs::weakly_canonical(p, ec);
    resolved = ec ? p.string() : canonical.string();
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {  // follows links
    if (S_ISDIR(st.st_mode)) fail(path, keyPath, EISDIR);
    // /dev/stdout redirected to a file is still the process's descriptor: written in place.
    if (!S_ISREG(st.st_mode) || viaProc) return {path, true};
  } else if (viaProc) {
    fail(path, keyPath, errno);
  }
  return {resolved, false};
}

// Creates a fresh temporary file next to `target`; returns its descriptor and name.
// Errors name `path`, what the user wrote.
int createTemp(const std::string& target, const std::string& path, const std::string& keyPath, std::string& tmp) {
  for (unsigned attempt = 0; attempt < 100; ++attempt) {
    tmp = tempName(target, attempt);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    if (errno != EEXIST) fail(path, keyPath, errno);
  }
  fail(path, keyPath, EEXIST);
}

// Writes all of `content` to `fd`; false (errno set) on failure.
bool writeAll(int fd, std::string_view content) {
  const char* data = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

OutputFiles::~OutputFiles() {
  for (const Staged& f : staged_)
    if (!f.temp.empty()) ::unlink(f.temp.c_str());
}

void OutputFiles::stage(const std::string& path, std::string_view content, const std::string& keyPathForErrors) {
  const Target target = resolveTarget(path, keyPathForErrors);
  Staged f{target.path, {}, {}, keyPathForErrors, target.stream};
  if (target.stream) {
    f.content.assign(content);
    staged_.push_back(std::move(f));
    return;
  }
  const int fd = createTemp(target.path, path, keyPathForErrors, f.temp);
  if (!writeAll(fd, content)) {
    const int err = errno;
    ::close(fd);
    ::unlink(f.temp.c_str());
    fail(path, keyPathForErrors, err);
  }
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(f.temp.c_str());
    fail(path, keyPathForErrors, err);
  }
  staged_.push_back(std::move(f));
}

void OutputFiles::commit() {
  // Files first (a rename hardly fails once its temporary file is written), then devices
  // and FIFOs, whose writes may (a full device, a closed pipe).
  for (Staged& f : staged_) {
    if (f.stream) continue;
    if (std::rename(f.temp.c_str(), f.target.c_str()) != 0) fail(f.target, f.keyPath, errno);
    f.temp.clear();
  }
  std::vector<Staged> streams;
  streams.swap(staged_);
  for (const Staged& f : streams) {
    if (!f.stream) continue;
    const int fd = ::open(f.target.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) fail(f.target, f.keyPath, errno);
    const bool ok = writeAll(fd, f.content);
    const int err = errno;
    if (::close(fd) != 0 && ok) fail(f.target, f.keyPath, errno);
    if (!ok) fail(f.target, f.keyPath, err);
  }
}

void writeFileAtomically(const std::string& path, std::string_view content,
                         const std::string& keyPathForErrors) {
  OutputFiles files;
  files.stage(path, content, keyPathForErrors);
  files.commit();
}

void replaceWithFile(const std::string& temp, const std::string& path, const std::string& keyPathForErrors) {
  std::ifstream in(temp, std::ios::binary);
  std::stringstream content;
  content << in.rdbuf();
  const bool read = static_cast<bool>(in);
  in.close();
  ::unlink(temp.c_str());
  if (!read) fail(path, keyPathForErrors, EIO);
  writeFileAtomically(path, content.view(), keyPathForErrors);
}

void checkFileWritable(const std::string& path, const std::string& keyPathForErrors) {
  const Target target = resolveTarget(path, keyPathForErrors);
  if (target.stream) {
    if (::access(target.path.c_str(), W_OK) != 0) fail(path, keyPathForErrors, errno);
    return;
  }
  std::string tmp;
  const int fd = createTemp(target.path, path, keyPathForErrors, tmp);
  ::close(fd);
  ::unlink(tmp.c_str());
}

}  // namespace fl
