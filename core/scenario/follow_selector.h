// What to follow, in the workload's own words: the `run.follow` key, the `follow` action
// of a story step and the CLI's --follow all take one selector, e.g.
//
//   gpu 3, token 17          MoE layer: token 17 of GPU 3 (dispatch, combine, all pieces)
//   chunk 2, piece 0         ring collective: chunk 2 as it goes round the ring
//   gpu 5, piece 3           NVLS collective: GPU 5's chunk (ld_reduce, reads, result, multimem.st)
//   gpu 1 to gpu 6           direct all-to-all: GPU 1's message to GPU 6
//   gpu 2, tag 7             any other packet workload: GPU 2's packets of tag 7
//   none                     nothing (the default)
//
// run.follow may also list several selectors (a YAML list, or ';' between them, as
// --follow given more than once writes it), e.g. two tokens to compare their ways; each
// keeps its own colour in the views and its number in the outputs. Commas are optional; `piece N` picks one packet-sized piece of the message (default 0,
// so the recording stays small), `every piece` all of them. sim/follow_run.h turns a
// selector into the packets it names.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scenario/input_error.h"
#include "scenario/scenario.h"

namespace fl {

struct FollowSelector {
  enum class Item { None, Token, Chunk, To, Tag };
  std::int64_t gpu = -1;    // -1: not named
  Item item = Item::None;   // which numbered thing the selector names
  std::int64_t number = -1; // the item's number (token, chunk, destination GPU or tag)
  std::int64_t piece = 0;   // -1: every piece
  bool pieceNamed = false;
  bool none() const { return gpu < 0 && item == Item::None; }
  bool operator==(const FollowSelector&) const = default;
};

struct FollowProblem {
  std::string expected, found, hint;
};

// The selector `text` names, or what is wrong with its grammar.
std::optional<FollowSelector> parseFollowSelector(const std::string& text, FollowProblem* problem = nullptr);

// run.follow's list: the selectors of `text` split at ';' (one element for a single
// selector or "none"), joined back with "; ", and the first of them ("none" if none).
inline constexpr std::size_t kMaxFollowSelectors = 8;  // distinct colours in the views
std::vector<std::string> splitFollowList(const std::string& text);
std::string joinFollowList(const std::vector<std::string>& selectors);
std::string firstFollowSelector(const std::string& text);
// Every selector of the list, or what is wrong (`index`, when given, says which one;
// "none" may not stand in a list of several).
std::optional<std::vector<FollowSelector>> parseFollowSelectors(const std::string& text, FollowProblem* problem = nullptr,
                                                                std::size_t* index = nullptr);

// What is wrong with following `sel` in `s` (the workload's words, numbers in range), or
// nothing. A selector of "none" always fits.
std::optional<FollowProblem> followMisfit(const Scenario& s, const FollowSelector& sel);

// run.follow against the scenario, each selector of its list: a single run must fit it; a
// sweep, in at least one point (a ring-vs-NVLS sweep can follow an NVLS chunk: the ring point records nothing).
// Throws InputError at run.follow (no location) when nothing fits; returns a note for
// each point that records nothing.
std::vector<std::string> checkRunFollow(const Scenario& s);

// Both checks; throws InputError at `path` (located at `at`).
FollowSelector readFollowSelector(const Scenario& s, const std::string& text, const std::string& path,
                                  const InputLocation& at);

// The (gpu, item, piece) of sim/follow_run.h's followSpecFor and describeFollow.
struct FollowChoice {
  int gpu = 0, item = 0, piece = 0;
};
FollowChoice followChoice(const FollowSelector& sel);

// The grammar, for docs and error messages.
inline constexpr const char* kFollowGrammar =
    "none, or what to follow: 'gpu G, token T' (MoE), 'chunk C' (ring), 'gpu G' (NVLS), "
    "'gpu G to gpu H' (direct), 'gpu G, tag T' (others), optionally with 'piece P' or 'every piece'";

}  // namespace fl
