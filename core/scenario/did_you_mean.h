// Suggestions for misspelt keys, enum values and preset names, so every "unknown X"
// error can say what was probably meant.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fl {

// Optimal-string-alignment distance (Levenshtein plus adjacent transpositions).
int editDistance(std::string_view a, std::string_view b);

// The closest candidate if it is close enough to be a likely typo (distance at most a
// third of the word's length, at least 1, or a case-only difference); ties go to the
// first candidate.
std::optional<std::string> didYouMean(std::string_view word,
                                      const std::vector<std::string>& candidates);

// "did you mean 'bandwidth'?" or, with no close candidate, "valid keys: a, b, c"
// (`what` names the list, e.g. "keys", "values", "presets").
std::string suggestionHint(std::string_view word, const std::vector<std::string>& candidates,
                           std::string_view what);
// "did you mean 'h200'?", or empty: for messages whose "expected" already lists the
// candidates.
std::string closeMatchHint(std::string_view word, const std::vector<std::string>& candidates);

// "a, b, c" for messages.
std::string joinList(const std::vector<std::string>& items, std::string_view sep = ", ");

}  // namespace fl
