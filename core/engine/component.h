// A simulated component (switch, endpoint, workload agent). It lives in exactly one
// partition and talks to others only by scheduling events; an event for a component
// of another partition must be at least one lookahead in the future (links guarantee
// it), and may carry a small trivially-copyable payload (a packet) that the receiver
// imports into its own partition's storage.
#pragma once
#include <cstddef>
#include <cstdint>

#include "engine/event.h"
#include "engine/partition.h"

namespace fl {

class Simulator;

class Component {
 public:
  virtual ~Component() = default;
  virtual void handle(const Event& e) = 0;
  // A hint, called for an event about to be handled soon: start loading the memory it
  // will touch (a packet, a port) so that its cache misses overlap the current events'
  // work; runs are memory-bound. Called twice per event: a few events ahead (`near`
  // false: what the event itself names) and just before (`near` true: what that memory
  // leads to, now likely cached). A hint must not change any state.
  virtual void prefetch(const Event&, bool /*near*/) const {}
  // Between the two: for what the far hint loaded and the near one will need.
  virtual void prefetchMid(const Event&) const {}
  // Called when an event crossed partitions with a payload: store it locally and return
  // the handle that replaces Event::arg.
  virtual std::uint64_t importPayload(const std::byte* data, std::uint32_t size);
  // Receives an event sent with postDirect(): called when this component's partition
  // takes in the last window's events, before it handles any event at or after that
  // window's end (so before `e.time`).
  virtual void receiveDirect(const Event& e);

  ComponentId id() const { return id_; }
  Partition& partition() const { return *partition_; }
  Time now() const { return partition_->now(); }  // inline: asked several times per event

 protected:
  // Inline: two or three per packet hop, and a call's overhead was a fifth of each.
  void schedule(Time at, ComponentId target, std::uint32_t kind, std::uint32_t arg32 = 0,
                std::uint64_t arg = 0) {
    const Event e(at, eventOrder(id_, sequence_++), target, kind, arg32, arg);
    if (partition_->owns(target))
      partition_->push(e);
    else
      postRemote(e, nullptr, 0);
  }
  // Schedules an event whose `arg` is a local handle of `payload`. Returns true when the
  // target is in another partition: the payload was copied and the caller must release
  // its local handle.
  bool scheduleWithPayload(Time at, ComponentId target, std::uint32_t kind, std::uint32_t arg32,
                           std::uint64_t localHandle, const void* payload, std::uint32_t size) {
    const Event e(at, eventOrder(id_, sequence_++), target, kind, arg32, localHandle);
    if (partition_->owns(target)) {
      partition_->push(e);
      return false;
    }
    postRemote(e, payload, size);
    return true;
  }
  bool isLocal(ComponentId target) const;
  // For a component of another partition: an event handed to its receiveDirect() at the
  // window's barrier instead of queued (e.g. a credit the receiver settles lazily), with
  // its place in the total order taken now as schedule() would. `at` obeys the lookahead.
  void postDirect(Time at, ComponentId target, std::uint32_t kind, std::uint32_t arg32, std::uint64_t arg) {
    postRemote(Event(at, eventOrder(id_, sequence_++), target, kind, arg32, arg), nullptr, kDirectPost);
  }
  // An event may be decided on later than it is caused (a credit on its way back only
  // needs delivering if the sender is then waiting for it): its place in the total order
  // is taken now, as schedule() would, and the event, if any, is pushed later with it.
  std::uint64_t reserveOrder() { return eventOrder(id_, sequence_++); }
  // Schedules a local event with an order reserved by reserveOrder() (of any component).
  void scheduleReserved(Time at, std::uint64_t order, ComponentId target, std::uint32_t kind,
                        std::uint32_t arg32, std::uint64_t arg) {
    partition_->push(Event(at, order, target, kind, arg32, arg));
  }
  // Order key of the event being handled.
  std::uint64_t currentOrder() const { return partition_->currentOrder(); }

 private:
  friend class Simulator;
  // An event for another partition, with `size` bytes of payload (0: none).
  void postRemote(const Event& e, const void* payload, std::uint32_t size);
  ComponentId id_ = 0;
  Partition* partition_ = nullptr;
  std::uint64_t sequence_ = 0;
};

}  // namespace fl
