// Free flits in a downstream buffer, per virtual channel, for one output port. Read on
// every injection and arbitration: with the usual few VCs the counts sit inside the
// port itself (a std::vector put them one dependent cache miss further away); many VCs
// (up to 64) go to the heap.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

namespace fl::net {

class VcCredits {
 public:
  void assign(std::size_t vcs, std::int32_t flits) {
    size_ = static_cast<std::uint32_t>(vcs);
    heap_.reset(vcs > kInline ? new std::int32_t[vcs] : nullptr);
    std::int32_t* d = data();
    for (std::size_t v = 0; v < vcs; ++v) d[v] = flits;
  }
  std::size_t size() const { return size_; }
  std::int32_t* data() { return size_ <= kInline ? inline_ : heap_.get(); }
  const std::int32_t* data() const { return size_ <= kInline ? inline_ : heap_.get(); }
  std::int32_t& operator[](std::size_t vc) { return data()[vc]; }
  std::int32_t operator[](std::size_t vc) const { return data()[vc]; }

 private:
  static constexpr std::size_t kInline = 4;
  std::int32_t inline_[kInline] = {};
  std::unique_ptr<std::int32_t[]> heap_;
  std::uint32_t size_ = 0;
};

}  // namespace fl::net
