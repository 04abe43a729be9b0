// A hash map from 64-bit keys to small values for the per-packet paths (reduction
// buffers, the AL TLB, pending reductions): open addressing with linear probing in one
// flat array, so a lookup is a multiply, a shift and usually one cache line, and
// inserting or erasing allocates nothing once the table has grown to its peak size
// (std::unordered_map allocates a node per entry). Nothing iterates over it, so its
// internal order never reaches a result.
#pragma once
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

namespace fl {

template <class Value>
class FlatMap {
 public:
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  Value* find(std::uint64_t key) {
    if (size_ == 0) return nullptr;
    for (std::size_t i = home(key);; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (!s.used) return nullptr;
      if (s.key == key) return &s.value;
    }
  }
  const Value* find(std::uint64_t key) const { return const_cast<FlatMap*>(this)->find(key); }
  // Starts loading the slot where a lookup of `key` begins (a cache hint).
  void prefetch(std::uint64_t key) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[home(key)]);
  }
  bool contains(std::uint64_t key) const { return find(key) != nullptr; }

  // The value for `key`, inserted as `fresh` when absent; `inserted` tells which.
  Value& findOrInsert(std::uint64_t key, const Value& fresh, bool& inserted) {
    if ((size_ + 1) * 2 > slots_.size()) grow();  // at most half full: short probe runs
    std::size_t i = home(key);
    for (;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (!s.used) break;
      if (s.key == key) {
        inserted = false;
        return s.value;
      }
    }
    slots_[i] = Slot{key, fresh, true};
    ++size_;
    inserted = true;
    return slots_[i].value;
  }
  Value& operator[](std::uint64_t key) {
    bool inserted = false;
    return findOrInsert(key, Value{}, inserted);
  }

  // Backward-shift deletion: later members of the probe run move up into the hole, so
  // no tombstones accumulate and lookups stay as short as after a fresh insert.
  bool erase(std::uint64_t key) {
    if (size_ == 0) return false;
    std::size_t hole = home(key);
    for (;; hole = (hole + 1) & mask_) {
      if (!slots_[hole].used) return false;
      if (slots_[hole].key == key) break;
    }
    for (std::size_t j = (hole + 1) & mask_; slots_[j].used; j = (j + 1) & mask_) {
      // Slot j may fill the hole when its home is not cyclically within (hole, j].
      const std::size_t h = home(slots_[j].key);
      if (((j - h) & mask_) >= ((j - hole) & mask_)) {
        slots_[hole] = slots_[j];
        hole = j;
      }
    }
    slots_[hole].used = false;
    --size_;
    return true;
  }

  void clear() {
    for (Slot& s : slots_) s.used = false;
    size_ = 0;
  }

 private:
  struct Slot {
    std::uint64_t key = 0;
    Value value{};
    bool used = false;
  };

  std::size_t home(std::uint64_t key) const {
    // Fibonacci hashing: keys are often (node << 32 | sequence), so mix the high bits in.
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    const std::size_t n = old.empty() ? 16 : old.size() * 2;
    slots_.assign(n, Slot{});
    mask_ = n - 1;
    shift_ = 64 - std::countr_zero(n);
    size_ = 0;
    bool inserted = false;
    for (const Slot& s : old)
      if (s.used) findOrInsert(s.key, s.value, inserted);
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  int shift_ = 64;
  std::size_t size_ = 0;
};

}  // namespace fl
