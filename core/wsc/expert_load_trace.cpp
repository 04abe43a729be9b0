#include "wsc/expert_load_trace.h"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <set>
#include <sstream>
#include <tuple>

#include "scenario/input_error.h"

namespace fl::wsc {

namespace {

const char* kKey = "workload.wsc.trace";
const char* kColumns[] = {"iteration", "layer", "expert", "tokens"};

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

}  // namespace

std::vector<double> ExpertLoadTrace::shares(int iteration) const {
  std::vector<double> s = tokens.at(static_cast<std::size_t>(iteration));
  const double sum = std::accumulate(s.begin(), s.end(), 0.0);
  for (double& x : s) x = sum > 0 ? x / sum : 0;
  return s;
}

ExpertLoadTrace parseExpertLoadTrace(std::string_view text, const std::string& file, int experts) {
  ExpertLoadTrace t;
  std::set<std::tuple<long long, long long, long long>> seen;
  int lineNo = 0;
  bool first = true, any = false;
  const std::string row = "a row 'iteration,layer,expert,tokens' such as '0,0,5,120'";
  for (std::size_t at = 0; at <= text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    ++lineNo;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::size_t lead = line.find_first_not_of(" \t");
    if (lead == std::string_view::npos || line[lead] == '#') continue;
    if (first && line.find("iteration") != std::string_view::npos) {  // header
      first = false;
      continue;
    }
    first = false;
    long long v[4] = {};
    std::size_t b = 0;
    for (int f = 0; f < 4; ++f) {
      std::size_t e = f < 3 ? line.find(',', b) : line.size();
      if (e == std::string_view::npos)
        throw InputError({file, lineNo, static_cast<int>(line.size()) + 1}, kKey, row,
                         std::to_string(f + 1) + (f == 0 ? " field" : " fields"), "columns are separated by commas");
      if (f == 3 && line.find(',', b) != std::string_view::npos)
        throw InputError({file, lineNo, static_cast<int>(line.find(',', b)) + 2}, kKey, row, "a fifth field");
      std::size_t fb = b, fe = e;
      while (fb < fe && (line[fb] == ' ' || line[fb] == '\t')) ++fb;
      while (fe > fb && (line[fe - 1] == ' ' || line[fe - 1] == '\t')) --fe;
      const std::string_view cell = line.substr(fb, fe - fb);
      const auto r = std::from_chars(cell.data(), cell.data() + cell.size(), v[f]);
      const int column = static_cast<int>(fb) + 1;
      if (cell.empty() || r.ec != std::errc() || r.ptr != cell.data() + cell.size())
        throw InputError({file, lineNo, column}, kKey, std::string("an integer in column ") + kColumns[f], quoted(cell));
      if (v[f] < 0)
        throw InputError({file, lineNo, column}, kKey, std::string("a ") + kColumns[f] + " >= 0", quoted(cell));
      if (f == 0 && v[f] > 1'000'000)
        throw InputError({file, lineNo, column}, kKey, "an iteration up to 1000000", quoted(cell));
      if (f == 2 && v[f] >= experts)
        throw InputError({file, lineNo, column}, kKey, "an expert id below " + std::to_string(experts) +
                                                           " (workload.wsc.experts)", quoted(cell));
      b = e + 1;
    }
    if (!seen.insert({v[0], v[1], v[2]}).second)
      throw InputError({file, lineNo, 1}, kKey, "one row per iteration, layer and expert",
                       "iteration " + std::to_string(v[0]) + ", layer " + std::to_string(v[1]) + ", expert " +
                           std::to_string(v[2]) + " twice");
    any = true;
    if (v[1] != 0) continue;  // one layer is modelled
    if (t.tokens.size() <= static_cast<std::size_t>(v[0])) t.tokens.resize(static_cast<std::size_t>(v[0]) + 1);
    auto& it = t.tokens[static_cast<std::size_t>(v[0])];
    if (it.empty()) it.assign(static_cast<std::size_t>(experts), 0);
    it[static_cast<std::size_t>(v[2])] = static_cast<double>(v[3]);
  }
  if (!any) throw InputError({file, 0, 0}, kKey, "at least one row 'iteration,layer,expert,tokens'", "no rows");
  return t;
}

ExpertLoadTrace loadExpertLoadTrace(const std::string& path, int experts) {
  std::error_code ec;
  if (path.empty()) throw InputError({}, kKey, "an expert load trace (CSV iteration,layer,expert,tokens)", "no path");
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError({path, 0, 0}, kKey, "a readable expert load trace (CSV iteration,layer,expert,tokens)",
                     std::filesystem::exists(path, ec) ? "not a regular file" : "no such file");
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) throw InputError({path, 0, 0}, kKey, "a readable expert load trace", "a file that cannot be read");
  return parseExpertLoadTrace(text.str(), path, experts);
}

void checkTraceCovers(const ExpertLoadTrace& trace, const std::string& file, int iterations) {
  for (int i = 0; i < iterations; ++i) {
    const auto& v = static_cast<std::size_t>(i) < trace.tokens.size() ? trace.tokens[static_cast<std::size_t>(i)]
                                                                      : std::vector<double>{};
    if (std::accumulate(v.begin(), v.end(), 0.0) <= 0)
      throw InputError({file, 0, 0}, kKey,
                       "layer-0 tokens for every iteration of the run (0 to " + std::to_string(iterations - 1) +
                           ", workload.wsc.iterations)",
                       "none for iteration " + std::to_string(i));
  }
}

}  // namespace fl::wsc
