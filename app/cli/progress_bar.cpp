#include "cli/progress_bar.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace fl::cli {
namespace {

int terminalColumns() {
  winsize ws{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

std::string seconds(double s) {
  char buf[32];
  if (s < 9.95)
    std::snprintf(buf, sizeof buf, "%.1fs", s);
  else if (s < 60)
    std::snprintf(buf, sizeof buf, "%.0fs", s);
  else if (s < 3600)
    std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  else
    std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(s) / 3600, static_cast<int>(s) / 60 % 60);
  return buf;
}

}  // namespace

ProgressBar::ProgressBar(bool enabled, std::string label, Clock::duration delay,
                         Clock::duration interval)
    : enabled_(enabled), label_(std::move(label)), start_(Clock::now()), delay_(delay), interval_(interval) {}

ProgressBar::~ProgressBar() { finish(); }

bool ProgressBar::stderrIsTerminal() { return ::isatty(STDERR_FILENO) == 1; }

std::string ProgressBar::frame(const std::string& label, double fraction, double elapsed,
                               const std::string& note, int columns) {
  fraction = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0);
  char pct[16];
  std::snprintf(pct, sizeof pct, "%3.0f%%", std::floor(fraction * 100));
  std::string tail = std::string(" ") + pct + "  " + seconds(elapsed);
  if (!note.empty())
    tail += "  " + note;
  else if (fraction > 0.01 && fraction < 1)
    tail += ", ~" + seconds(elapsed * (1 - fraction) / fraction) + " left";
  const std::string head = label + " [";
  int barWidth = columns - 1 - static_cast<int>(head.size() + tail.size() + 1);
  barWidth = std::min(barWidth, 50);
  if (barWidth < 5) return std::string(pct) + (note.empty() ? "" : " " + note);
  const int filled = static_cast<int>(std::floor(fraction * barWidth));
  std::string bar(static_cast<std::size_t>(filled), '=');
  if (filled < barWidth) bar += '>';
  bar.resize(static_cast<std::size_t>(barWidth), ' ');
  return head + bar + "]" + tail;
}

void ProgressBar::update(double fraction) {
  if (!enabled_) return;
  const auto now = Clock::now();
  std::lock_guard lock(mutex_);
  lastFraction_ = fraction;
  if (finished_ || now - start_ < delay_ || (drawn_ && now - lastDraw_ < interval_)) return;
  draw(fraction, now);
}

void ProgressBar::update(double fraction, std::string label) {
  if (!enabled_) return;
  {
    std::lock_guard lock(mutex_);
    label_ = std::move(label);
  }
  update(fraction);
}

void ProgressBar::setNote(std::string note) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  note_ = std::move(note);
  // Redraw at once if the bar is already visible, so the note shows without waiting.
  if (drawn_ && !finished_) draw(lastFraction_, Clock::now());
}

void ProgressBar::draw(double fraction, Clock::time_point now) {
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const std::string text = frame(label_, fraction, elapsed, note_, terminalColumns());
  std::fprintf(stderr, "\r%s\033[K", text.c_str());
  std::fflush(stderr);
  drawn_ = true;
  lastDraw_ = now;
}

void ProgressBar::finish() {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  if (finished_) return;
  finished_ = true;
  if (drawn_) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }
}

}  // namespace fl::cli
