// Runs a program to its end and collects its output without QProcess, for the tests that
// start fabriclab-cli in ThreadSanitizer builds (packaging/setup.sh tsan). Qt 6.4 starts a
// child with clone(CLONE_VM | CLONE_VFORK), which Clang 14's TSan runtime intercepts and
// then stops in the child (CHECK failed in ForkAfter). posix_spawn uses glibc's internal
// clone, which TSan neither sees nor needs to: the child execs at once.
#pragma once
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QByteArray>
#include <QDeadlineTimer>
#include <QProcessEnvironment>
#include <QStringList>
#include <string>
#include <vector>

namespace fl::test {

struct SpawnResult {
  bool started = false, finished = false;  // finished: before the timeout
  int exitCode = -1;                       // -1 when killed by a signal
  QByteArray out, err;
};

inline SpawnResult spawnAndWait(const QString& program, const QStringList& args, const QProcessEnvironment& env,
                                int timeoutMs) {
  SpawnResult r;
  int outPipe[2], errPipe[2];
  if (pipe2(outPipe, O_CLOEXEC) != 0) return r;
  if (pipe2(errPipe, O_CLOEXEC) != 0) {
    close(outPipe[0]), close(outPipe[1]);
    return r;
  }
  std::vector<std::string> argStrings{program.toStdString()}, envStrings;
  for (const QString& a : args) argStrings.push_back(a.toStdString());
  for (const QString& e : env.toStringList()) envStrings.push_back(e.toStdString());
  std::vector<char*> argv, envp;
  for (std::string& a : argStrings) argv.push_back(a.data());
  for (std::string& e : envStrings) envp.push_back(e.data());
  argv.push_back(nullptr), envp.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2);
  pid_t pid = -1;
  r.started = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data()) == 0;
  posix_spawn_file_actions_destroy(&actions);
  close(outPipe[1]), close(errPipe[1]);
  // Both pipes until the child closes them (it exits) or the time is up.
  const QDeadlineTimer deadline(timeoutMs);
  pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
  QByteArray* sinks[2] = {&r.out, &r.err};
  bool timedOut = false;
  while (r.started && (fds[0].fd >= 0 || fds[1].fd >= 0)) {
    const int left = static_cast<int>(deadline.remainingTime());
    if (left == 0) {
      timedOut = true;
      break;
    }
    if (poll(fds, 2, left) < 0) continue;  // EINTR
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buffer[65536];
      const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) sinks[i]->append(buffer, n);
      else if (n == 0) fds[i].fd = -1;  // poll ignores negative descriptors
    }
  }
  close(outPipe[0]), close(errPipe[0]);
  if (!r.started) return r;
  if (timedOut) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.finished = !timedOut;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace fl::test
