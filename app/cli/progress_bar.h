// A one-line progress bar on stderr for long runs: shown only when stderr is a terminal
// and the run has lasted about a second, redrawn at most ~10 times a second, cleared
// at the end so that the summary starts on a clean line.
#pragma once
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>

namespace fl::cli {

class ProgressBar {
 public:
  using Clock = std::chrono::steady_clock;

  // `enabled` false makes every call a no-op (e.g. --quiet or stderr not a terminal).
  explicit ProgressBar(bool enabled, std::string label = "running",
                       Clock::duration delay = std::chrono::seconds(1),
                       Clock::duration interval = std::chrono::milliseconds(100));
  ~ProgressBar();

  // Thread-safe; callable from the simulation thread. fraction in [0, 1].
  void update(double fraction);
  // The same with a new label (a sweep's "3/8 points done, 2 running").
  void update(double fraction, std::string label);
  // Shown in place of the time estimate, e.g. "stopping..." after Ctrl-C.
  void setNote(std::string note);
  // Erases the bar if it was drawn. Idempotent.
  void finish();

  // The text of one frame (without "\r" and the erase sequence), `columns` wide at most.
  static std::string frame(const std::string& label, double fraction, double elapsedSeconds,
                           const std::string& note, int columns);

  static bool stderrIsTerminal();

 private:
  void draw(double fraction, Clock::time_point now);

  const bool enabled_;
  std::string label_;  // guarded by mutex_
  const Clock::time_point start_;
  const Clock::duration delay_, interval_;
  std::mutex mutex_;
  Clock::time_point lastDraw_{};
  double lastFraction_ = 0;
  std::string note_;
  bool drawn_ = false;
  bool finished_ = false;
};

}  // namespace fl::cli
