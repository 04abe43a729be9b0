#include "scenario/follow_selector.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

#include "scenario/did_you_mean.h"
#include "scenario/sweep.h"
#include "scenario/validate.h"

namespace fl {

namespace {

const std::vector<std::string> kWords = {"none", "gpu", "token", "chunk", "to", "tag", "piece", "every", "all"};

std::optional<FollowSelector> fail(FollowProblem* problem, std::string expected, std::string found,
                                   std::string hint = {}) {
  if (problem) *problem = {std::move(expected), std::move(found), std::move(hint)};
  return std::nullopt;
}

bool readNumber(const std::string& word, std::int64_t& out) {
  if (word.empty() || word.size() > 9 || word.find_first_not_of("0123456789") != std::string::npos) return false;
  out = std::stoll(word);
  return true;
}

// How the workload's packets are told apart (sim/follow_run.cpp's followSpecFor).
enum class Words { Moe, Ring, Nvls, Direct, Tagged, NoPackets };

Words wordsOf(const Scenario& s) {
  if (s.network.model == NetworkModel::Analytical || s.network.model == NetworkModel::Flow) return Words::NoPackets;
  if (s.workload.kind == WorkloadKind::MoeLayer) return Words::Moe;
  if (s.workload.kind == WorkloadKind::Collective) switch (s.workload.collective.algorithm) {
      case CollectiveAlgorithm::Ring: return Words::Ring;
      case CollectiveAlgorithm::Nvls: return Words::Nvls;
      case CollectiveAlgorithm::Direct: return Words::Direct;
      default: break;
    }
  return Words::Tagged;
}

const char* itemName(FollowSelector::Item i) {
  switch (i) {
    case FollowSelector::Item::Token: return "token";
    case FollowSelector::Item::Chunk: return "chunk";
    case FollowSelector::Item::To: return "to gpu";
    case FollowSelector::Item::Tag: return "tag";
    default: return "nothing";
  }
}

}  // namespace

std::optional<FollowSelector> parseFollowSelector(const std::string& text, FollowProblem* problem) {
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return c == ',' ? ' ' : std::tolower(c); });
  std::vector<std::string> w;
  std::istringstream in(lower);
  for (std::string word; in >> word;) w.push_back(word);
  FollowSelector sel;
  if (w.empty()) return fail(problem, kFollowGrammar, "an empty selector");
  if (w.size() == 1 && w[0] == "none") return sel;
  const auto quoted = [&] { return "'" + text + "'"; };
  for (size_t i = 0; i < w.size();) {
    const std::string& word = w[i];
    std::int64_t n = -1;
    const auto numberAfter = [&](size_t at, const std::string& what) -> bool {
      if (at < w.size() && readNumber(w[at], n)) return true;
      fail(problem, "a number after '" + what + "'",
           at < w.size() ? "'" + w[at] + "' in " + quoted() : "nothing after it in " + quoted());
      return false;
    };
    if (word == "gpu") {
      if (sel.gpu >= 0) return fail(problem, "one 'gpu G' (the GPU the packets work for)", "a second 'gpu' in " + quoted(),
                                    "to follow a GPU's message to another GPU: 'gpu G to gpu H'");
      if (!numberAfter(i + 1, "gpu")) return std::nullopt;
      sel.gpu = n;
      i += 2;
    } else if (word == "token" || word == "chunk" || word == "tag" || word == "to") {
      if (sel.item != FollowSelector::Item::None)
        return fail(problem, "one of token, chunk, to gpu or tag", "'" + word + "' after '" + itemName(sel.item) + "' in " + quoted());
      size_t at = i + 1;
      if (word == "to" && at < w.size() && w[at] == "gpu") ++at;
      if (!numberAfter(at, word)) return std::nullopt;
      sel.item = word == "token" ? FollowSelector::Item::Token
                 : word == "chunk" ? FollowSelector::Item::Chunk
                 : word == "tag"   ? FollowSelector::Item::Tag
                                   : FollowSelector::Item::To;
      sel.number = n;
      i = at + 1;
    } else if (word == "piece" || word == "every" || word == "all") {
      if (sel.pieceNamed) return fail(problem, "one piece clause", "a second '" + word + "' in " + quoted());
      sel.pieceNamed = true;
      if (word == "piece" && i + 1 < w.size() && (w[i + 1] == "all" || w[i + 1] == "every")) {
        sel.piece = -1;
        i += 2;
      } else if (word == "piece") {
        if (!numberAfter(i + 1, "piece")) return std::nullopt;
        sel.piece = n;
        i += 2;
      } else {
        const std::string next = i + 1 < w.size() ? w[i + 1] : std::string();
        if (next != "piece" && next != "pieces")
          return fail(problem, "'every piece' or 'all pieces'", "'" + word + (next.empty() ? "" : " " + next) + "' in " + quoted());
        sel.piece = -1;
        i += 2;
      }
    } else {
      return fail(problem, kFollowGrammar, "'" + word + "' in " + quoted(), closeMatchHint(word, kWords));
    }
  }
  if (sel.gpu < 0 && sel.item == FollowSelector::Item::None)
    return fail(problem, "a GPU or a chunk to follow", quoted(), "e.g. 'gpu 0, token 3' or 'chunk 2'");
  return sel;
}

std::vector<std::string> splitFollowList(const std::string& text) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (;;) {
    const std::size_t at = text.find(';', from);
    std::string part = text.substr(from, at == std::string::npos ? std::string::npos : at - from);
    const std::size_t b = part.find_first_not_of(" \t"), e = part.find_last_not_of(" \t");
    out.push_back(b == std::string::npos ? std::string() : part.substr(b, e - b + 1));
    if (at == std::string::npos) return out;
    from = at + 1;
  }
}

std::string joinFollowList(const std::vector<std::string>& selectors) {
  std::string out;
  for (const std::string& s : selectors) out += (out.empty() ? "" : "; ") + s;
  return out;
}

std::string firstFollowSelector(const std::string& text) {
  const std::string first = splitFollowList(text).front();
  return first.empty() ? std::string("none") : first;
}

std::optional<std::vector<FollowSelector>> parseFollowSelectors(const std::string& text, FollowProblem* problem,
                                                                std::size_t* index) {
  const std::vector<std::string> parts = splitFollowList(text);
  std::vector<FollowSelector> out;
  if (parts.size() > kMaxFollowSelectors) {
    if (problem) *problem = {"at most " + std::to_string(kMaxFollowSelectors) + " selectors to follow",
                             std::to_string(parts.size()) + " in '" + text + "'", "follow fewer packets at once"};
    if (index) *index = kMaxFollowSelectors;
    return std::nullopt;
  }
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (index) *index = i;
    std::optional<FollowSelector> sel = parseFollowSelector(parts[i], problem);
    if (!sel) {
      if (problem && parts.size() > 1) problem->found += " (selector " + std::to_string(i + 1) + " of " + std::to_string(parts.size()) + ")";
      return std::nullopt;
    }
    if (sel->none() && parts.size() > 1) {
      if (problem) *problem = {"a selector in each place of the list", "'none' in '" + text + "'",
                               "'none' stands alone: leave it out of the list"};
      return std::nullopt;
    }
    out.push_back(*sel);
  }
  return out;
}

std::optional<FollowProblem> followMisfit(const Scenario& s, const FollowSelector& sel) {
  if (sel.none()) return std::nullopt;
  const std::int64_t n = endpointCount(s.topology);
  const auto problem = [](std::string e, std::string f, std::string h = {}) {
    return std::optional<FollowProblem>(FollowProblem{std::move(e), std::move(f), std::move(h)});
  };
  const Words words = wordsOf(s);
  const std::string given = sel.item == FollowSelector::Item::None ? std::string("no item") : std::string("'") + itemName(sel.item) + "'";
  if (words == Words::NoPackets)
    return problem("a packet-level run (network.model packet or auto)", "network.model without packets",
                   "only packets have hops to follow");
  if (sel.gpu >= n) return problem("a GPU from 0 to " + std::to_string(n - 1), "gpu " + std::to_string(sel.gpu));
  using I = FollowSelector::Item;
  switch (words) {
    case Words::Moe:
      if (sel.gpu < 0 || sel.item != I::Token)
        return problem("'gpu G, token T' for an MoE layer (a token's dispatch and combine)", given,
                       "e.g. 'gpu 0, token 3'");
      if (sel.number >= std::max(1, s.workload.moe.tokens_per_gpu))
        return problem("a token from 0 to " + std::to_string(std::max(1, s.workload.moe.tokens_per_gpu) - 1) +
                           " (workload.moe.tokens_per_gpu)",
                       "token " + std::to_string(sel.number));
      if (sel.pieceNamed) return problem("no piece: a token's pieces are followed together", "a piece clause");
      return std::nullopt;
    case Words::Ring:
      if (sel.gpu >= 0 || sel.item != I::Chunk)
        return problem("'chunk C' for a ring collective (the chunk goes round the ring, through every GPU)",
                       sel.gpu >= 0 ? "a GPU" : given, "e.g. 'chunk 0, piece 0'");
      if (sel.number >= n) return problem("a chunk from 0 to " + std::to_string(n - 1), "chunk " + std::to_string(sel.number));
      return std::nullopt;
    case Words::Nvls:
      if (sel.gpu < 0 || sel.item != I::None)
        return problem("'gpu G' for an NVLS collective (the GPU's own chunk through the switch)",
                       sel.gpu < 0 ? "no GPU" : given, "e.g. 'gpu 0, piece 0'");
      return std::nullopt;
    case Words::Direct:
      if (sel.gpu < 0 || sel.item != I::To)
        return problem("'gpu G to gpu H' for a direct collective (G's message to H)", sel.gpu < 0 ? "no GPU" : given,
                       "e.g. 'gpu 0 to gpu 5'");
      if (sel.number >= n || sel.number == sel.gpu)
        return problem("a destination GPU from 0 to " + std::to_string(n - 1) + " other than gpu " + std::to_string(sel.gpu),
                       "to gpu " + std::to_string(sel.number));
      return std::nullopt;
    default:
      if (sel.gpu < 0 || sel.item != I::Tag)
        return problem("'gpu G, tag T' for this workload (the GPU's packets of one tag)", sel.gpu < 0 ? "no GPU" : given,
                       "e.g. 'gpu 0, tag 0'");
      return std::nullopt;
  }
}

std::vector<std::string> checkRunFollow(const Scenario& s) {
  const std::optional<std::vector<FollowSelector>> sels = parseFollowSelectors(s.run.follow);
  if (!sels || sels->front().none()) return {};
  const std::vector<std::string> texts = splitFollowList(s.run.follow);
  const auto which = [&](std::size_t k, const std::string& found) {
    return texts.size() > 1 ? found + " (selector " + std::to_string(k + 1) + ", '" + texts[k] + "')" : found;
  };
  std::vector<std::string> notes;
  for (std::size_t k = 0; k < sels->size(); ++k) {
    const FollowSelector& sel = (*sels)[k];
    if (s.sweep.empty()) {
      if (const auto misfit = followMisfit(s, sel))
        throw InputError({}, "run.follow", misfit->expected, which(k, misfit->found), misfit->hint);
      continue;
    }
    std::optional<FollowProblem> first;
    std::size_t misfits = 0;
    const std::size_t n = std::min<std::size_t>(sweepPointCount(s), 4096);
    for (std::size_t i = 0; i < n; ++i) {
      const Scenario point = sweepPointScenario(s, sweepPoint(s, i));
      if (const auto misfit = followMisfit(point, sel)) {
        if (!first) first = misfit;
        ++misfits;
        notes.push_back("run.follow: point " + std::to_string(i) + " records no hops ('" + texts[k] + "' needs " +
                        misfit->expected + ")");
      }
    }
    if (misfits == n && first)
      throw InputError({}, "run.follow", first->expected + " in some sweep point", which(k, first->found + " in every point"),
                       first->hint);
  }
  return notes;
}

FollowSelector readFollowSelector(const Scenario& s, const std::string& text, const std::string& path,
                                  const InputLocation& at) {
  FollowProblem p;
  const std::optional<FollowSelector> sel = parseFollowSelector(text, &p);
  if (!sel) throw InputError(at, path, p.expected, p.found, p.hint);
  if (const auto misfit = followMisfit(s, *sel)) throw InputError(at, path, misfit->expected, misfit->found, misfit->hint);
  return *sel;
}

FollowChoice followChoice(const FollowSelector& sel) {
  FollowChoice c;
  c.gpu = static_cast<int>(std::max<std::int64_t>(0, sel.gpu));
  c.item = static_cast<int>(std::max<std::int64_t>(0, sel.number));
  c.piece = static_cast<int>(sel.piece);
  return c;
}

}  // namespace fl
