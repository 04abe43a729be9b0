#include "engine/component.h"

#include <cstring>
#include <stdexcept>

#include "engine/partition.h"

namespace fl {

std::uint64_t Component::importPayload(const std::byte*, std::uint32_t) {
  throw std::logic_error("component received a cross-partition payload it cannot import");
}

void Component::scheduleReserved(Time at, std::uint64_t order, ComponentId target, std::uint32_t kind,
                                 std::uint32_t arg32, std::uint64_t arg) {
  partition_->push(Event(at, order, target, kind, arg32, arg));
}

bool Component::isLocal(ComponentId target) const { return partition_->owns(target); }

void Component::schedule(Time at, ComponentId target, std::uint32_t kind, std::uint32_t arg32,
                         std::uint64_t arg) {
  const Event e(at, eventOrder(id_, sequence_++), target, kind, arg32, arg);
  if (partition_->owns(target)) {
    partition_->push(e);
  } else {
    CrossEvent ce;
    ce.event = e;
    partition_->post(ce);
  }
}

bool Component::scheduleWithPayload(Time at, ComponentId target, std::uint32_t kind,
                                    std::uint32_t arg32, std::uint64_t localHandle,
                                    const void* payload, std::uint32_t size) {
  const Event e(at, eventOrder(id_, sequence_++), target, kind, arg32, localHandle);
  if (partition_->owns(target)) {
    partition_->push(e);
    return false;
  }
  if (size > kMaxCrossPayload) throw std::logic_error("cross-partition payload too large");
  CrossEvent ce;
  ce.event = e;
  ce.payloadSize = size;
  std::memcpy(ce.payload.data(), payload, size);
  partition_->post(ce);
  return true;
}

}  // namespace fl
