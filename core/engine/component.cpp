#include "engine/component.h"

#include <cstring>
#include <stdexcept>

#include "engine/partition.h"

namespace fl {

std::uint64_t Component::importPayload(const std::byte*, std::uint32_t) {
  throw std::logic_error("component received a cross-partition payload it cannot import");
}

void Component::receiveDirect(const Event&) {
  throw std::logic_error("component received a direct cross-partition event it cannot take");
}

bool Component::isLocal(ComponentId target) const { return partition_->owns(target); }

void Component::postRemote(const Event& e, const void* payload, std::uint32_t size) {
  if (size > kMaxCrossPayload && size != kDirectPost) throw std::logic_error("cross-partition payload too large");
  partition_->post(e, payload, size);
}

}  // namespace fl
