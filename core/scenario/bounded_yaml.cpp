// The libyaml pre-scan in front of yaml-cpp (why: bounded_yaml.h).
#include "scenario/bounded_yaml.h"

#include <yaml.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace fl {
namespace {

YAML::Mark markAt(int line, int column) {
  YAML::Mark m;
  m.line = line;
  m.column = column;
  return m;
}

// libyaml's parser and its current event, released on every path out.
struct EventParser {
  yaml_parser_t parser{};
  yaml_event_t event{};
  bool haveEvent = false;

  explicit EventParser(const std::string& text) {
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  }
  ~EventParser() {
    if (haveEvent) yaml_event_delete(&event);
    yaml_parser_delete(&parser);
  }
  EventParser(const EventParser&) = delete;
  EventParser& operator=(const EventParser&) = delete;

  bool next() {
    if (haveEvent) yaml_event_delete(&event);
    haveEvent = yaml_parser_parse(&parser, &event) != 0;
    return haveEvent;
  }
};

// The 0-based line of byte `offset` (libyaml's reader errors give only an
// offset).
int lineOfOffset(const std::string& text, size_t offset) {
  offset = std::min(offset, text.size());
  return static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

[[noreturn]] void syntaxError(const std::string& text, const yaml_parser_t& p) {
  std::string what = p.problem ? p.problem : "unreadable text";
  if (p.error == YAML_READER_ERROR) {
    throw BoundedYamlError(lineOfOffset(text, p.problem_offset), 0, "well-formed YAML",
                           "a syntax error (" + what + ")");
  }
  if (p.context) what += std::string(" ") + p.context;
  throw BoundedYamlError(static_cast<int>(p.problem_mark.line), static_cast<int>(p.problem_mark.column),
                         "well-formed YAML", "a syntax error (" + what + ")");
}

bool nullScalar(const yaml_event_t& e) {
  if (e.type != YAML_SCALAR_EVENT || e.data.scalar.tag || e.data.scalar.anchor) return false;
  const std::string v(reinterpret_cast<const char*>(e.data.scalar.value), e.data.scalar.length);
  return e.data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
         (v.empty() || v == "~" || v == "null" || v == "Null" || v == "NULL");
}

std::string anchorOf(const yaml_char_t* a) { return a ? reinterpret_cast<const char*>(a) : std::string(); }

// Walks the whole event stream, throwing at the first text over the limits.
void checkEvents(const std::string& text, const YamlLimits& limits) {
  struct Open {
    std::string anchor;
    std::size_t nodes = 1;  // this collection and everything in it, aliases expanded
  };
  EventParser ep(text);
  std::vector<Open> open;
  std::map<std::string, std::size_t> anchors;  // closed anchors and their expanded sizes
  std::size_t nodes = 0;
  int documents = 0;
  int documentLine = 0;
  bool rootPending = false;  // the next event is a document's root node
  const auto add = [&](std::size_t n, const yaml_mark_t& at, bool alias) {
    nodes += n;
    if (!open.empty()) open.back().nodes += n;
    if (nodes > limits.maxNodes)
      throw BoundedYamlError(static_cast<int>(at.line), static_cast<int>(at.column),
                             "at most " + std::to_string(limits.maxNodes) + " values (aliases expanded)",
                             (alias ? "an alias taking them past " : "more than ") + std::to_string(limits.maxNodes),
                             alias ? "an alias repeated inside aliases multiplies its values: write them out" : "");
  };
  for (;;) {
    if (!ep.next()) syntaxError(text, ep.parser);
    const yaml_event_t& e = ep.event;
    if (rootPending) {
      rootPending = false;
      if (documents > 1 && !nullScalar(e))
        throw BoundedYamlError(documentLine, 0, "one YAML document",
                               "a second one starting at line " + std::to_string(documentLine + 1),
                               "a scenario is one document: remove the '---' and what follows, or merge it");
    }
    switch (e.type) {
      case YAML_STREAM_END_EVENT:
        return;
      case YAML_DOCUMENT_START_EVENT:
        ++documents;
        documentLine = static_cast<int>(e.start_mark.line);
        rootPending = true;
        break;
      case YAML_SCALAR_EVENT:
        add(1, e.start_mark, false);
        if (e.data.scalar.anchor) anchors[anchorOf(e.data.scalar.anchor)] = 1;
        break;
      case YAML_ALIAS_EVENT: {
        const std::string name = anchorOf(e.data.alias.anchor);
        if (std::any_of(open.begin(), open.end(), [&](const Open& o) { return o.anchor == name; }))
          throw BoundedYamlError(static_cast<int>(e.start_mark.line), static_cast<int>(e.start_mark.column),
                                 "an alias to a finished value", "*" + name + " inside &" + name + " itself",
                                 "a value cannot contain itself");
        const auto it = anchors.find(name);
        add(it == anchors.end() ? 1 : it->second, e.start_mark, true);  // unknown: yaml-cpp says so
        break;
      }
      case YAML_SEQUENCE_START_EVENT:
      case YAML_MAPPING_START_EVENT: {
        const yaml_char_t* anchor =
            e.type == YAML_SEQUENCE_START_EVENT ? e.data.sequence_start.anchor : e.data.mapping_start.anchor;
        if (static_cast<int>(open.size()) >= limits.maxDepth)
          throw BoundedYamlError(static_cast<int>(e.start_mark.line), static_cast<int>(e.start_mark.column),
                                 "at most " + std::to_string(limits.maxDepth) + " levels of nested lists and maps",
                                 "nesting deeper than " + std::to_string(limits.maxDepth) + " levels");
        add(1, e.start_mark, false);
        open.push_back({anchorOf(anchor), 0});
        break;
      }
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT: {
        const Open done = open.back();  // libyaml pairs every end with its start
        open.pop_back();
        if (!open.empty()) open.back().nodes += done.nodes;
        if (!done.anchor.empty()) anchors[done.anchor] = done.nodes + 1;
        break;
      }
      default:
        break;
    }
  }
}

}  // namespace

BoundedYamlError::BoundedYamlError(int line, int column, std::string expected, const std::string& found,
                                   std::string hint)
    : YAML::ParserException(markAt(line, column), found), expected_(std::move(expected)), hint_(std::move(hint)) {}

YAML::Node loadBoundedYaml(const std::string& text, const YamlLimits& limits) {
  if (text.size() > limits.maxBytes)
    throw BoundedYamlError(-1, 0, "at most " + std::to_string(limits.maxBytes >> 20) + " MiB of YAML",
                           std::to_string(text.size()) + " bytes");
  checkEvents(text, limits);
  return YAML::Load(text);  // one document: Load, never LoadAll, stops after it
}

}  // namespace fl
