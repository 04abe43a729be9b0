#include "sim/partitioner.h"

#include <algorithm>
#include <numeric>

namespace fl {

namespace {

constexpr int kAutomaticPartitions = 16;
// A dealt split replaces the contiguous one only when that one's busiest partition has
// this much more weight: on meshes the two balance alike and contiguous cuts fewer links.
constexpr double kDealtWhenBusier = 1.25;

int findRoot(std::vector<int>& parent, int x) {
  while (parent[static_cast<std::size_t>(x)] != x) {
    parent[static_cast<std::size_t>(x)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
    x = parent[static_cast<std::size_t>(x)];
  }
  return x;
}

// Atoms: root node of each node's zero-latency group.
std::vector<int> atomRoots(const topo::Topology& t) {
  const auto n = t.nodes().size();
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  for (const topo::Link& l : t.links())
    if (l.latency <= 0) parent[static_cast<std::size_t>(findRoot(parent, l.a))] = findRoot(parent, l.b);
  std::vector<int> root(n);
  for (std::size_t i = 0; i < n; ++i) root[i] = findRoot(parent, static_cast<int>(i));
  return root;
}

// Walks nodes in id order, opening a new partition each time the running count passes
// the next share, never splitting an atom (its first node decides).
std::vector<int> contiguous(const std::vector<int>& root, int wanted) {
  const auto n = root.size();
  std::vector<int> partOf(n), atomPart(n, -1);
  const double share = static_cast<double>(n) / wanted;
  for (std::size_t i = 0; i < n; ++i) {
    const auto r = static_cast<std::size_t>(root[i]);
    if (atomPart[r] < 0) atomPart[r] = std::min(wanted - 1, static_cast<int>(static_cast<double>(i) / share));
    partOf[i] = atomPart[r];
  }
  return partOf;
}

// Atoms by weight, heaviest first (ties: lowest id), each to the lightest partition
// (ties: lowest index): longest-processing-time-first scheduling.
std::vector<int> dealt(const std::vector<int>& root, const std::vector<double>& weight, int wanted) {
  const auto n = root.size();
  std::vector<double> atomWeight(n, 0);
  for (std::size_t i = 0; i < n; ++i) atomWeight[static_cast<std::size_t>(root[i])] += weight[i];
  std::vector<int> atoms;
  for (std::size_t i = 0; i < n; ++i)
    if (root[i] == static_cast<int>(i)) atoms.push_back(static_cast<int>(i));
  std::stable_sort(atoms.begin(), atoms.end(), [&](int a, int b) {
    return atomWeight[static_cast<std::size_t>(a)] > atomWeight[static_cast<std::size_t>(b)];
  });
  std::vector<double> load(static_cast<std::size_t>(wanted), 0);
  std::vector<int> atomPart(n, -1);
  for (int a : atoms) {
    const auto p = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    atomPart[static_cast<std::size_t>(a)] = static_cast<int>(p);
    load[p] += atomWeight[static_cast<std::size_t>(a)];
  }
  std::vector<int> partOf(n);
  for (std::size_t i = 0; i < n; ++i) partOf[i] = atomPart[static_cast<std::size_t>(root[i])];
  return partOf;
}

double busiest(const std::vector<int>& partOf, const std::vector<double>& weight, int wanted) {
  std::vector<double> load(static_cast<std::size_t>(wanted), 0);
  for (std::size_t i = 0; i < partOf.size(); ++i) load[static_cast<std::size_t>(partOf[i])] += weight[i];
  return *std::max_element(load.begin(), load.end());
}

Time lookaheadOf(const topo::Topology& t, const std::vector<int>& partOf) {
  Time lookahead = kTimeNever;
  for (const topo::Link& l : t.links())
    if (partOf[static_cast<std::size_t>(l.a)] != partOf[static_cast<std::size_t>(l.b)])
      lookahead = std::min(lookahead, l.latency);
  return lookahead;
}

}  // namespace

Partitioning partitionTopology(const topo::Topology& t, int wanted) {
  const auto n = t.nodes().size();
  Partitioning p;
  p.partitionOf.assign(n, 0);
  if (wanted <= 1 || n < 2) return p;

  const std::vector<int> root = atomRoots(t);
  // A node's work grows with the links it serves: weight = ports + 1.
  std::vector<double> weight(n);
  for (std::size_t i = 0; i < n; ++i) weight[i] = 1.0 + static_cast<double>(t.ports(static_cast<topo::NodeId>(i)).size());
  p.partitionOf = contiguous(root, wanted);
  p.lookahead = lookaheadOf(t, p.partitionOf);
  std::vector<int> other = dealt(root, weight, wanted);
  const Time otherLookahead = lookaheadOf(t, other);
  if (otherLookahead >= p.lookahead &&
      busiest(p.partitionOf, weight, wanted) > kDealtWhenBusier * busiest(other, weight, wanted)) {
    p.partitionOf = std::move(other);
    p.lookahead = otherLookahead;
  }
  // Number the partitions used 0, 1, ... in order of first appearance.
  std::vector<int> renumber(static_cast<std::size_t>(wanted), -1);
  int used = 0;
  for (int& q : p.partitionOf) {
    int& r = renumber[static_cast<std::size_t>(q)];
    if (r < 0) r = used++;
    q = r;
  }
  p.parts = used;
  if (p.parts == 1 || p.lookahead <= 0) {
    p.parts = 1;
    std::fill(p.partitionOf.begin(), p.partitionOf.end(), 0);
    p.lookahead = kTimeNever;
  }
  return p;
}

int automaticPartitions(const topo::Topology& t) {
  const std::vector<int> root = atomRoots(t);
  int atoms = 0;
  for (std::size_t i = 0; i < root.size(); ++i) atoms += root[i] == static_cast<int>(i) ? 1 : 0;
  return std::clamp(atoms / 2, 1, kAutomaticPartitions);
}

}  // namespace fl
