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

#include "scenario/input_error.h"

namespace fl {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& keyPath, int err,
                       const char* what = nullptr) {
  std::string found = std::strerror(err);
  if (!found.empty() && found[0] >= 'A' && found[0] <= 'Z' && found.size() > 1 && found[1] >= 'a')
    found[0] = static_cast<char>(found[0] - 'A' + 'a');  // "no such file or directory"
  if (what) found = std::string(what) + ": " + found;
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

// Creates a fresh temporary file next to `path`; returns its descriptor and name.
int createTemp(const std::string& path, const std::string& keyPath, std::string& tmp) {
  if (path.empty()) fail(path, keyPath, ENOENT);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail(path, keyPath, EISDIR);
  for (unsigned attempt = 0; attempt < 100; ++attempt) {
    tmp = tempName(path, attempt);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    if (errno != EEXIST) fail(path, keyPath, errno);
  }
  fail(path, keyPath, EEXIST);
}

}  // namespace

void writeFileAtomically(const std::string& path, std::string_view content,
                         const std::string& keyPathForErrors) {
  std::string tmp;
  const int fd = createTemp(path, keyPathForErrors, tmp);
  const char* data = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      fail(path, keyPathForErrors, err);
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(path, keyPathForErrors, err);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(path, keyPathForErrors, err);
  }
}

void checkFileWritable(const std::string& path, const std::string& keyPathForErrors) {
  std::string tmp;
  const int fd = createTemp(path, keyPathForErrors, tmp);
  ::close(fd);
  ::unlink(tmp.c_str());
}

}  // namespace fl
