#include "scenario/did_you_mean.h"

#include <algorithm>
#include <cctype>

namespace fl {

int editDistance(std::string_view a, std::string_view b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = static_cast<int>(i);
  for (size_t j = 0; j <= m; ++j) d[0][j] = static_cast<int>(j);
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

namespace {
std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}
}  // namespace

std::optional<std::string> didYouMean(std::string_view word,
                                      const std::vector<std::string>& candidates) {
  const int limit = std::max<int>(1, static_cast<int>(word.size()) / 3);
  std::optional<std::string> best;
  int bestDistance = limit + 1;
  for (const std::string& c : candidates) {
    // The distance is at least the length gap: a long unknown word (fuzzer: a 1 KB --set
    // key, hundreds of candidates) skips the quadratic table instead of taking seconds.
    const size_t gap = c.size() > word.size() ? c.size() - word.size() : word.size() - c.size();
    if (gap >= static_cast<size_t>(bestDistance)) continue;
    // Case-only differences ("GB/S", "NVLS") count as the closest possible match.
    int dist = lower(c) == lower(word) ? 0 : editDistance(word, c);
    if (dist < bestDistance) bestDistance = dist, best = c;
  }
  return best;
}

std::string closeMatchHint(std::string_view word, const std::vector<std::string>& candidates) {
  if (auto s = didYouMean(word, candidates)) return "did you mean '" + *s + "'?";
  return {};
}

std::string suggestionHint(std::string_view word, const std::vector<std::string>& candidates,
                           std::string_view what) {
  std::string hint = closeMatchHint(word, candidates);
  return hint.empty() ? "valid " + std::string(what) + ": " + joinList(candidates) : hint;
}

std::string joinList(const std::vector<std::string>& items, std::string_view sep) {
  std::string s;
  for (const std::string& item : items) {
    if (!s.empty()) s += sep;
    s += item;
  }
  return s;
}

}  // namespace fl
