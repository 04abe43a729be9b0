#include "results/chrome_trace.h"

#include "results/atomic_file.h"

namespace fl {

// Placeholder body until the writer lands: an empty but valid trace.
std::string chromeTraceText(const Results&, const Scenario&) { return "{\"traceEvents\":[]}\n"; }

void writeChromeTrace(const std::string& path, const Results& r, const Scenario& s,
                      const std::string& keyPathForErrors) {
  writeFileAtomically(path, chromeTraceText(r, s), keyPathForErrors);
}

}  // namespace fl
