// The allocation-free structures on the per-packet paths, each driven by random
// operations and checked step by step against a brute-force model built from a plain
// vector: the flat hash map, the switch reduction buffer's LRU eviction, the AL TLB's
// LRU hits and misses, and a switch output's round-robin grants over its input slots
// (within strict VC priority levels: the model grants level by level, one scan each).
#include <QtTest>

#include <algorithm>
#include <random>
#include <vector>

#include "engine/flat_map.h"
#include "gpu/al_tlb.h"
#include "network/reduction_buffer.h"
#include "network/virtual_output_queue.h"

using namespace fl;

class TestLruStructures : public QObject {
  Q_OBJECT
 private slots:
  void flatMapMatchesLinearSearch_data();
  void flatMapMatchesLinearSearch();
  void reductionBufferEvictsLeastRecentlyUsed_data();
  void reductionBufferEvictsLeastRecentlyUsed();
  void alTlbCountsLikeAnLruList_data();
  void alTlbCountsLikeAnLruList();
  void outputQueueGrantsRoundRobin_data();
  void outputQueueGrantsRoundRobin();
  void outputQueueGrantsByPriority_data();
  void outputQueueGrantsByPriority();
};

void TestLruStructures::flatMapMatchesLinearSearch_data() {
  QTest::addColumn<int>("keySpace");
  QTest::addColumn<int>("operations");
  QTest::newRow("few keys, many collisions of operations") << 20 << 5000;
  QTest::newRow("many keys, growth") << 5000 << 20000;
  QTest::newRow("wide keys") << 0 << 20000;  // 0: full 64-bit random keys
}

void TestLruStructures::flatMapMatchesLinearSearch() {
  QFETCH(int, keySpace);
  QFETCH(int, operations);
  std::mt19937_64 rng(7);
  FlatMap<int> map;
  std::vector<std::pair<std::uint64_t, int>> model;
  std::vector<std::uint64_t> seen;
  const auto modelFind = [&](std::uint64_t k) {
    return std::find_if(model.begin(), model.end(), [k](const auto& kv) { return kv.first == k; });
  };
  for (int i = 0; i < operations; ++i) {
    std::uint64_t key;
    if (keySpace > 0) {
      // (node << 32 | sequence)-like keys, as the simulator makes them
      const std::uint64_t r = rng() % static_cast<std::uint64_t>(keySpace);
      key = ((r % 7) << 32) | (r / 7);
    } else if (!seen.empty() && rng() % 2 == 0) {
      key = seen[rng() % seen.size()];
    } else {
      key = rng();
      seen.push_back(key);
    }
    switch (rng() % 3) {
      case 0: {  // insert or add
        map[key] += 3;
        auto it = modelFind(key);
        if (it == model.end())
          model.push_back({key, 3});
        else
          it->second += 3;
        break;
      }
      case 1: {
        const bool erased = map.erase(key);
        auto it = modelFind(key);
        QCOMPARE(erased, it != model.end());
        if (it != model.end()) model.erase(it);
        break;
      }
      default: {
        const int* v = map.find(key);
        auto it = modelFind(key);
        QCOMPARE(v != nullptr, it != model.end());
        if (v) QCOMPARE(*v, it->second);
      }
    }
    QCOMPARE(map.size(), model.size());
  }
  for (const auto& [k, v] : model) {
    QVERIFY(map.find(k) != nullptr);
    QCOMPARE(*map.find(k), v);
  }
}

void TestLruStructures::reductionBufferEvictsLeastRecentlyUsed_data() {
  QTest::addColumn<int>("capacity");
  QTest::addColumn<int>("keySpace");
  QTest::newRow("tight: evictions on most inserts") << 1024 << 64;
  QTest::newRow("roomy: hits") << 16384 << 40;
  QTest::newRow("entries larger than the buffer") << 100 << 30;
}

void TestLruStructures::reductionBufferEvictsLeastRecentlyUsed() {
  QFETCH(int, capacity);
  QFETCH(int, keySpace);
  std::mt19937 rng(11);
  net::ReductionBuffer buf(capacity);
  std::vector<net::ReductionEntry> model;  // oldest first
  std::int64_t evictions = 0;
  std::vector<net::ReductionEntry> evicted;
  for (int i = 0; i < 20000; ++i) {
    const auto key = static_cast<std::uint64_t>(rng() % static_cast<unsigned>(keySpace));
    auto it = std::find_if(model.begin(), model.end(), [key](const auto& e) { return e.key == key; });
    net::ReductionEntry* found = buf.find(key);
    QCOMPARE(found != nullptr, it != model.end());
    const unsigned action = rng() % 3;
    if (found == nullptr) {
      net::ReductionEntry e;
      e.key = key;
      e.bytes = 64 * (1 + rng() % 4);
      e.piece = static_cast<std::uint32_t>(i);
      evicted.clear();
      buf.insert(e, evicted);
      // Model: evict from the front while the new entry does not fit.
      std::vector<net::ReductionEntry> expected;
      std::int64_t used = 0;
      for (const auto& m : model) used += m.bytes;
      while (!model.empty() && used + e.bytes > capacity) {
        used -= model.front().bytes;
        expected.push_back(model.front());
        model.erase(model.begin());
      }
      model.push_back(e);
      evictions += static_cast<std::int64_t>(expected.size());
      QCOMPARE(evicted.size(), expected.size());
      for (std::size_t k = 0; k < expected.size(); ++k) {
        QCOMPARE(evicted[k].key, expected[k].key);
        QCOMPARE(evicted[k].piece, expected[k].piece);
      }
    } else if (action == 0) {
      QCOMPARE(found->piece, it->piece);
      buf.erase(key);
      model.erase(it);
    } else {
      buf.touch(key);
      const auto e = *it;
      model.erase(it);
      model.push_back(e);
    }
    QCOMPARE(buf.entries(), static_cast<std::int64_t>(model.size()));
    QCOMPARE(buf.evictions(), evictions);
  }
  const auto contents = buf.contents();
  QCOMPARE(contents.size(), model.size());
  for (std::size_t k = 0; k < model.size(); ++k) QCOMPARE(contents[k].key, model[k].key);
}

void TestLruStructures::alTlbCountsLikeAnLruList_data() {
  QTest::addColumn<int>("entries");
  QTest::addColumn<int>("blocks");
  QTest::addColumn<bool>("dense");  // the AL Table as a dense array over 3 sources
  QTest::newRow("no TLB") << 0 << 50 << false;
  QTest::newRow("one entry") << 1 << 5 << false;
  QTest::newRow("small TLB, thrashing") << 8 << 40 << false;
  QTest::newRow("TLB larger than the working set") << 64 << 40 << false;
  QTest::newRow("dense table, no TLB") << 0 << 50 << true;
  QTest::newRow("dense table, small TLB") << 8 << 20 << true;
  QTest::newRow("dense table, TLB larger than the working set") << 128 << 30 << true;
}

void TestLruStructures::alTlbCountsLikeAnLruList() {
  QFETCH(int, entries);
  QFETCH(int, blocks);
  QFETCH(bool, dense);
  std::mt19937 rng(3);
  AlTlb tlb = dense ? AlTlb(entries, 3, static_cast<std::uint32_t>(blocks)) : AlTlb(entries);
  std::vector<std::uint64_t> lru;  // oldest first
  std::vector<std::uint64_t> allocated;
  std::int64_t hits = 0, misses = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t source = dense ? rng() % 3 : 256;  // block = source << 32 | index
    const std::uint64_t block = (source << 32) + rng() % static_cast<unsigned>(blocks);
    const int accesses = 1 + static_cast<int>(rng() % 3);
    const bool dispatch = rng() % 2 == 0;
    auto it = std::find(lru.begin(), lru.end(), block);
    const bool expectHit = it != lru.end();
    if (expectHit) lru.erase(it);
    else if (entries > 0 && static_cast<int>(lru.size()) >= entries) lru.erase(lru.begin());
    if (expectHit || entries > 0) lru.push_back(block);
    hits += (expectHit ? 1 : 0) + accesses - 1;
    misses += expectHit ? 0 : 1;
    if (dispatch && std::find(allocated.begin(), allocated.end(), block) == allocated.end())
      allocated.push_back(block);
    const bool hit = dispatch ? tlb.dispatch(block, accesses) : tlb.combine(block, accesses);
    QCOMPARE(hit, expectHit);
  }
  QCOMPARE(tlb.hits(), hits);
  QCOMPARE(tlb.misses(), misses);
  QCOMPARE(tlb.allocatedBlocks(), static_cast<std::int64_t>(allocated.size()));
}

// Model: a FIFO per slot; a grant takes the head of the first slot, from the one after
// the last grant on and wrapping round, whose head is eligible.
void TestLruStructures::outputQueueGrantsRoundRobin_data() {
  QTest::addColumn<int>("slotCount");
  QTest::addColumn<int>("vcs");
  QTest::newRow("one word of slots") << 40 << 2;
  QTest::newRow("NVL32 switch: 65 inputs x 2 VCs, three words") << 130 << 2;
  QTest::newRow("a word boundary at the end") << 128 << 4;
  QTest::newRow("more than 64 words (no word bitmask)") << 65 * 64 + 3 << 64;
  QTest::newRow("NVL32 preset: 65 inputs x 16 VCs") << 65 * 16 << 16;
  QTest::newRow("6 VCs (not a power of two)") << 65 * 6 << 6;
}

namespace {
// Random pushes and grants on a queue of `slotCount` slots and `vcs` VCs at `levels` (by
// VC; empty: all equal), each grant checked against the model's.
void checkGrants(int slotCount, int vcs, const std::vector<std::int8_t>& levels) {
  std::mt19937_64 rng(11);
  net::VirtualOutputQueue q(static_cast<std::uint32_t>(slotCount), static_cast<std::uint32_t>(vcs),
                            levels.empty() ? nullptr : levels.data());
  const auto levelOf = [&](int slot) { return levels.empty() ? 0 : levels[static_cast<std::size_t>(slot % vcs)]; };
  std::vector<std::vector<net::OutputRequest>> model(static_cast<std::size_t>(slotCount));
  int rr = 0;
  std::uint32_t handle = 0;
  std::size_t size = 0;
  // Few busy slots at a time (they cluster in a few words), so that the scan wraps.
  std::vector<int> hot(6);
  for (int i = 0; i < 30000; ++i) {
    if (i % 500 == 0)
      for (int& h : hot) h = static_cast<int>(rng() % static_cast<std::uint64_t>(slotCount));
    if (rng() % 2 == 0) {
      const int slot = hot[rng() % hot.size()];
      net::OutputRequest r;
      r.handle = ++handle;
      r.vc = static_cast<std::uint8_t>(slot % vcs);
      r.flits = 1 + static_cast<std::int32_t>(rng() % 8);
      q.push(static_cast<std::uint32_t>(slot), r);
      model[static_cast<std::size_t>(slot)].push_back(r);
      ++size;
      continue;
    }
    const std::int32_t credit = static_cast<std::int32_t>(rng() % 9);  // 0: nothing fits
    // Which VC a head is on matters (a slot's VC is slot % vcs): every third VC always fits.
    const auto eligible = [&](std::uint32_t vc, std::int32_t flits) { return vc % 3 == 0 || flits <= credit; };
    // Level by level from the highest, the first eligible head in round-robin order.
    int want = -1;
    for (int level = 1; level >= -1 && want < 0; --level)
      for (int k = 0; k < slotCount && want < 0; ++k) {
        const int s = (rr + k) % slotCount;
        const auto& f = model[static_cast<std::size_t>(s)];
        if (!f.empty() && levelOf(s) == level && eligible(static_cast<std::uint32_t>(s % vcs), f.front().flits))
          want = s;
      }
    net::OutputRequest got;
    QCOMPARE(q.grant(eligible, got), want >= 0);
    if (want < 0) continue;
    auto& f = model[static_cast<std::size_t>(want)];
    QCOMPARE(got.handle, f.front().handle);
    f.erase(f.begin());
    --size;
    rr = (want + 1) % slotCount;
    QCOMPARE(q.size(), size);
  }
}

}  // namespace

void TestLruStructures::outputQueueGrantsRoundRobin() {
  QFETCH(int, slotCount);
  QFETCH(int, vcs);
  checkGrants(slotCount, vcs, {});
}

// Levels as the network sets them (NetworkConfig::vcPriority) and mixed ones.
void TestLruStructures::outputQueueGrantsByPriority_data() {
  QTest::addColumn<int>("slotCount");
  QTest::addColumn<int>("vcs");
  QTest::addColumn<std::vector<std::int8_t>>("levels");
  QTest::newRow("CAIS control VC high (last of 16)")
      << 65 * 16 << 16 << std::vector<std::int8_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  QTest::newRow("background VC low (last request VC of 4)") << 40 << 4 << std::vector<std::int8_t>{0, -1, 0, 0};
  QTest::newRow("both, 8 VCs, three words") << 130 << 8 << std::vector<std::int8_t>{0, 0, 0, -1, 0, 0, 0, 1};
  QTest::newRow("every level twice, 6 VCs (not a power of two)")
      << 65 * 6 << 6 << std::vector<std::int8_t>{1, -1, 0, 1, 0, -1};
  QTest::newRow("more than 64 words, low and high only")
      << 65 * 64 + 3 << 64 << [] {
           std::vector<std::int8_t> l(64, -1);
           for (std::size_t v = 0; v < l.size(); v += 5) l[v] = 1;
           return l;
         }();
}

void TestLruStructures::outputQueueGrantsByPriority() {
  QFETCH(int, slotCount);
  QFETCH(int, vcs);
  QFETCH(std::vector<std::int8_t>, levels);
  checkGrants(slotCount, vcs, levels);
}

QTEST_GUILESS_MAIN(TestLruStructures)
#include "test_lru_structures.moc"
