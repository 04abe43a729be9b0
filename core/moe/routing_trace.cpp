#include "moe/routing_trace.h"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "scenario/input_error.h"

namespace fl {
namespace {

const char* kKey = "workload.moe.routing.trace";

bool isSpace(char c) { return c == ' ' || c == '\t'; }

class RowParser {
 public:
  RowParser(const std::string& file, int line, std::string_view text, int experts, int topK)
      : file_(file), line_(line), text_(text), experts_(experts), topK_(topK) {}

  // Appends the row's experts to `out`; `expectedToken` is the row index.
  void parse(std::int64_t expectedToken, std::vector<std::int32_t>& out) {
    const size_t comma = text_.find(',');
    if (comma == std::string_view::npos)
      fail(1, "a row 'token,experts' such as '0,3 17 42'", quoted(text_), "the token and its experts are separated by a comma");
    size_t b = 0, e = comma;
    trim(b, e);
    std::int64_t token = 0;
    if (!toInt(text_.substr(b, e - b), token))
      fail(static_cast<int>(b) + 1, "a token number", quoted(text_.substr(b, e - b)));
    if (token != expectedToken)
      fail(static_cast<int>(b) + 1, "token " + std::to_string(expectedToken) + " (rows in order from 0)",
           quoted(text_.substr(b, e - b)));
    b = comma + 1, e = text_.size();
    trim(b, e);
    if (e - b >= 2 && text_[b] == '"' && text_[e - 1] == '"') ++b, --e;  // a quoted CSV field
    const size_t first = out.size();
    const int fieldColumn = static_cast<int>(b) + 1;
    while (b < e) {
      if (isSpace(text_[b]) || text_[b] == ';') {
        ++b;
        continue;
      }
      size_t end = b;
      while (end < e && !isSpace(text_[end]) && text_[end] != ';') ++end;
      const std::string_view word = text_.substr(b, end - b);
      const int column = static_cast<int>(b) + 1;
      std::int64_t id = 0;
      if (!toInt(word, id))
        fail(column, "an expert id (integer)", quoted(word), "separate experts with spaces or semicolons");
      if (id < 0 || id >= experts_)
        fail(column, "an expert id below " + std::to_string(experts_), quoted(word));
      for (size_t i = first; i < out.size(); ++i)
        if (out[i] == id) fail(column, "distinct experts per token", "expert " + std::string(word) + " twice");
      if (static_cast<int>(out.size() - first) == topK_)
        fail(column, std::to_string(topK_) + " experts per token (top_k)", "expert number " + std::to_string(topK_ + 1),
             "workload.moe.top_k is " + std::to_string(topK_));
      out.push_back(static_cast<std::int32_t>(id));
      b = end;
    }
    const int n = static_cast<int>(out.size() - first);
    if (n != topK_)
      fail(fieldColumn, std::to_string(topK_) + " experts per token (top_k)", std::to_string(n),
           "workload.moe.top_k is " + std::to_string(topK_));
  }

 private:
  void trim(size_t& b, size_t& e) const {
    while (b < e && isSpace(text_[b])) ++b;
    while (e > b && isSpace(text_[e - 1])) --e;
  }
  static bool toInt(std::string_view s, std::int64_t& v) {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && ec == std::errc() && p == s.data() + s.size();
  }
  static std::string quoted(std::string_view s) {
    std::string q(1, '\'');  // built by appending: GCC 12 warns (-Wrestrict) on "'" + string
    q.append(s);
    q += '\'';
    return q;
  }
  [[noreturn]] void fail(int column, std::string expected, std::string found, std::string hint = {}) const {
    throw InputError({file_, line_, column}, kKey, std::move(expected), found.empty() ? "nothing" : std::move(found),
                     std::move(hint));
  }

  const std::string& file_;
  int line_;
  std::string_view text_;
  int experts_, topK_;
};

bool isHeader(std::string_view line) {
  std::string s;
  for (char c : line)
    if (!isSpace(c)) s += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s == "token,experts";
}

}  // namespace

RoutingTrace parseRoutingTrace(std::string_view text, const std::string& file, int experts, int topK) {
  RoutingTrace t;
  t.top_k = topK;
  std::int64_t token = 0;
  int lineNo = 0;
  bool first = true;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++lineNo;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    size_t b = 0;
    while (b < line.size() && isSpace(line[b])) ++b;
    if (b == line.size() || line[b] == '#') continue;
    if (first && isHeader(line)) {
      first = false;
      continue;
    }
    first = false;
    RowParser(file, lineNo, line, experts, topK).parse(token++, t.experts);
  }
  if (t.experts.empty())
    throw InputError({file, 0, 0}, kKey, "at least one row 'token,experts'", "no rows");
  return t;
}

RoutingTrace loadRoutingTrace(const std::string& path, int experts, int topK) {
  std::error_code ec;
  if (path.empty()) throw InputError({}, kKey, "a routing trace file (CSV token,experts)", "no path");
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError({path, 0, 0}, kKey, "a readable routing trace file (CSV token,experts)",
                     std::filesystem::exists(path, ec) ? "not a regular file" : "no such file");
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) throw InputError({path, 0, 0}, kKey, "a readable routing trace file", "a file that cannot be read");
  return parseRoutingTrace(text.str(), path, experts, topK);
}

std::string resolveTracePath(const std::string& path, const std::string& scenarioFile) {
  namespace fs = std::filesystem;
  if (path.empty()) return path;
  fs::path p(path);
  if (p.is_relative() && !scenarioFile.empty()) {
    std::error_code ec;
    if (fs::is_regular_file(scenarioFile, ec)) p = fs::path(scenarioFile).parent_path() / p;
  }
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec);
  return (ec ? p : abs).lexically_normal().string();
}

}  // namespace fl
