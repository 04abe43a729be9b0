// Independent XY walks for mesh tests (row first: along the columns, then the rows), written
// here so expected link loads never come from the routing code under test.
#pragma once
#include <regex>
#include <string>
#include <utility>
#include <vector>

// Directed die-to-die steps (from, to) of an XY walk from die a to die b on a grid `cols` wide.
inline std::vector<std::pair<int, int>> xyWalk(int a, int b, int cols) {
  std::vector<std::pair<int, int>> out;
  int r = a / cols, c = a % cols;
  const int rb = b / cols, cb = b % cols;
  while (c != cb) {
    const int nc = c + (cb > c ? 1 : -1);
    out.emplace_back(r * cols + c, r * cols + nc);
    c = nc;
  }
  while (r != rb) {
    const int nr = r + (rb > r ? 1 : -1);
    out.emplace_back(r * cols + c, nr * cols + c);
    r = nr;
  }
  return out;
}

// "router(r,c)" (a mesh router's node name) -> die id on a grid `cols` wide; -1 for other nodes.
inline int routerDie(const std::string& name, int cols) {
  static const std::regex re(R"(router\((\d+),(\d+)\))");
  std::smatch m;
  if (!std::regex_match(name, m, re)) return -1;
  return std::stoi(m[1]) * cols + std::stoi(m[2]);
}
