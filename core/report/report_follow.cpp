#include "report/report_follow.h"

#include "report/html_util.h"
#include "report/report_format.h"

namespace fl::report {

std::string followSection(const Results& r, const std::string& idPrefix, int headingLevel) {
  if (!r.follow) return {};
  const std::vector<NamedHop> hops = namedHops(r);
  std::string body = "<p class=\"note\">" +
                     htmlEscape("The hops of " + r.follow->what + " (run.follow): " + formatCount(std::int64_t(hops.size())) +
                                (hops.size() == 1 ? " hop" : " hops") +
                                (r.follow->truncated ? ", cut at the recording's bound per node" : "") +
                                ". Times are when the packet starts leaving a node and when its last bit arrives.") +
                     "</p>\n";
  if (hops.empty()) return htmlSection(idPrefix + "follow", "Followed packets", body + "<p>No packet matched.</p>\n", headingLevel);
  HtmlTable t(htmlAttr("class", "follow"));
  t.header({{"#"}, {"leaves"}, {"arrives"}, {"from"}, {"to"}, {"op"}, {"piece"}, {"operands"}});
  for (std::size_t i = 0; i < hops.size() && i < kMaxReportedHops; ++i) {
    const FollowedHop& h = *hops[i].hop;
    t.row({numCell(std::to_string(i + 1)), numCell(formatDuration(h.start)), numCell(formatDuration(h.arrive)),
           {hops[i].from}, {hops[i].to}, {hops[i].op}, numCell(std::to_string(h.piece)),
           numCell(h.contributions ? std::to_string(h.contributions) : std::string())});
  }
  body += t.html();
  if (hops.size() > kMaxReportedHops)
    body += "<p class=\"note\">" +
            htmlEscape("The first " + std::to_string(kMaxReportedHops) + " of " + formatCount(std::int64_t(hops.size())) +
                       " hops; the JSON (follow.hops) and CSV (follow.csv) outputs list them all.") +
            "</p>\n";
  return htmlSection(idPrefix + "follow", "Followed packets", body, headingLevel);
}

}  // namespace fl::report
