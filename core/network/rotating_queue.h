// The round-robin queue of an endpoint's posted messages. Serving round-robin moves a
// message to the back after each packet, and lookahead removes one a few places from
// the front; with a deque of messages both moved ~100-byte jobs on every packet. Here
// items stay put in a slab and only a ring of 4-byte indices rotates: same order, same
// operations, O(1) rotation and O(i) removal at position i (i is at most the lookahead).
#pragma once
#include <cstdint>
#include <vector>

namespace fl::net {

template <class T>
class RotatingQueue {
 public:
  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_; }
  T& operator[](std::size_t i) { return items_[order_[(head_ + i) & mask_]]; }

  void push_back(const T& v) {
    std::uint32_t slot;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
      items_[slot] = v;
    } else {
      slot = static_cast<std::uint32_t>(items_.size());
      items_.push_back(v);
    }
    pushIndex(slot);
  }
  // Removes the item at position i (0: the front).
  void erase(std::size_t i) { free_.push_back(removeIndex(i)); }
  // Moves the item at position i to the back.
  void moveToBack(std::size_t i) { pushIndex(removeIndex(i)); }

 private:
  std::uint32_t removeIndex(std::size_t i) {
    const std::uint32_t slot = order_[(head_ + i) & mask_];
    for (std::size_t k = i; k > 0; --k) order_[(head_ + k) & mask_] = order_[(head_ + k - 1) & mask_];
    head_ = (head_ + 1) & mask_;
    --count_;
    return slot;
  }
  void pushIndex(std::uint32_t slot) {
    if (count_ == order_.size()) grow();
    order_[(head_ + count_) & mask_] = slot;
    ++count_;
  }
  void grow() {
    std::vector<std::uint32_t> bigger(order_.empty() ? 16 : 2 * order_.size());
    for (std::size_t k = 0; k < count_; ++k) bigger[k] = order_[(head_ + k) & mask_];
    order_.swap(bigger);
    head_ = 0;
    mask_ = order_.size() - 1;
  }

  std::vector<T> items_;               // slab; freed slots are reused
  std::vector<std::uint32_t> free_;
  std::vector<std::uint32_t> order_;   // ring of slab indices, capacity a power of two
  std::size_t head_ = 0, count_ = 0, mask_ = 0;
};

}  // namespace fl::net
