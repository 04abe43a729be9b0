#include "mapping/her_mapping.h"

#include "mapping/mapping.h"
#include "mapping/tiling.h"

namespace fl::mapping {

std::vector<std::vector<int>> waferDomains(const Mapping& m) {
  const int wafers = (m.rows / m.waferRows) * (m.cols / m.waferCols);
  std::vector<std::vector<int>> domains(static_cast<std::size_t>(wafers));
  for (int d = 0; d < m.dies(); ++d) domains[static_cast<std::size_t>(m.wafer(d))].push_back(d);
  return domains;
}

std::vector<int> counterparts(const Mapping& m, int die) {
  const int lr = m.row(die) % m.waferRows, lc = m.col(die) % m.waferCols;
  const int WR = m.rows / m.waferRows, WC = m.cols / m.waferCols;
  // Ring over the wafers: the canonical cycle where the wafer grid has one (1 x 2, 2 x 2),
  // so every step crosses one border; row-major otherwise.
  std::vector<std::pair<int, int>> order;
  if (chooseTile(WR, WC, WR * WC)) {
    order = canonicalCycle(WR, WC);
  } else {
    for (int wr = 0; wr < WR; ++wr)
      for (int wc = 0; wc < WC; ++wc) order.emplace_back(wr, wc);
  }
  std::vector<int> out;
  for (auto [wr, wc] : order) out.push_back((wr * m.waferRows + lr) * m.cols + wc * m.waferCols + lc);
  return out;
}

}  // namespace fl::mapping
