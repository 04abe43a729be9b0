#include "netmodel/flow_solver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <tuple>

#include "network/channel.h"

namespace fl::netmodel {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPs = 1e-12;
// Flows whose last byte leaves within this relative distance of the earliest one end in
// the same batch: symmetric flows differ only by rounding, and one recompute serves all.
constexpr double kSameInstant = 1e-12;
}  // namespace

FlowSolver::FlowSolver(std::vector<double> capacity, std::vector<Time> latency, Time bin, std::int64_t maxBinsPerLink)
    : capacity_(std::move(capacity)),
      latency_(std::move(latency)),
      bin_(bin),
      binSeconds_(double(bin) * kPs),
      maxBins_(maxBinsPerLink) {
  if (capacity_.size() != latency_.size()) throw std::invalid_argument("FlowSolver: capacity/latency sizes differ");
  if (bin <= 0) throw std::invalid_argument("FlowSolver: bin must be positive");
  for (double c : capacity_)
    if (!(c > 0)) throw std::invalid_argument("FlowSolver: link capacity must be positive");
  const std::size_t n = capacity_.size();
  stats_.resize(n);
  rateSum_.assign(n, 0);
  residual_.assign(n, 0);
  binned_.assign(n, 0);
  emitted_.assign(n, 0);
  busyBins_.assign(n, 0);
  lastBusyBin_.assign(n, -1);
  unfrozen_.assign(n, 0);
  members_.assign(n, 0);
  entries_.assign(n, 0);
  linkFlowBegin_.assign(n, 0);
}

std::int32_t FlowSolver::takeSlot() {
  if (deadRouteInts_ > (1u << 20) && deadRouteInts_ * 2 > routes_.size()) compactRoutes();
  std::int32_t slot;
  if (!freeSlots_.empty()) {
    slot = freeSlots_.back();
    freeSlots_.pop_back();
  } else {
    slot = static_cast<std::int32_t>(flows_.size());
    flows_.emplace_back();
  }
  flows_[static_cast<std::size_t>(slot)] = Flow{};
  return slot;
}

void FlowSolver::schedule(std::int32_t slot) {
  Flow& f = flows_[static_cast<std::size_t>(slot)];
  f.live = true;
  // Starts due now skip the heap: a batch of a million flows costs a push and a pop less each.
  if (f.start <= since_) startNow_.push_back(slot);
  else events_.push({f.start, 1, f.id, slot});
}

std::int64_t FlowSolver::addFlow(std::span<const std::int32_t> route, std::int64_t bytes, Time start,
                                 std::uint64_t tag) {
  return add(route, {}, bytes, routeLatency(route), start, tag);
}

std::int64_t FlowSolver::addBundle(std::span<const std::int32_t> route, std::span<const std::uint32_t> counts,
                                   std::int64_t bytes, Time latency, Time start, std::uint64_t tag) {
  if (counts.size() != route.size()) throw std::invalid_argument("FlowSolver: one count per route entry");
  for (std::uint32_t c : counts)
    if (c == 0) throw std::invalid_argument("FlowSolver: a bundle route entry without members");
  return add(route, counts, bytes, latency, start, tag);
}

std::int32_t FlowSolver::newFlow(std::int64_t bytes, Time latency, Time start, std::uint64_t tag) {
  if (bytes < 0) throw std::invalid_argument("FlowSolver: negative bytes");
  const std::int32_t slot = takeSlot();
  Flow& f = flows_[static_cast<std::size_t>(slot)];
  f.id = nextId_++;
  f.tag = tag;
  f.bytes = bytes;
  f.start = double(start) * kPs;
  f.latency = latency;
  return slot;
}

std::int64_t FlowSolver::add(std::span<const std::int32_t> route, std::span<const std::uint32_t> counts,
                             std::int64_t bytes, Time latency, Time start, std::uint64_t tag) {
  for (std::int32_t l : route)
    if (l < 0 || static_cast<std::size_t>(l) >= capacity_.size()) throw std::invalid_argument("FlowSolver: bad link id");
  const std::int32_t slot = newFlow(bytes, latency, start, tag);
  Flow& f = flows_[static_cast<std::size_t>(slot)];
  f.routeOff = static_cast<std::uint32_t>(routes_.size());
  f.hops = static_cast<std::uint32_t>(route.size());
  routes_.insert(routes_.end(), route.begin(), route.end());
  if (counts.empty()) counts_.resize(routes_.size(), 1);  // a plain flow: one member
  else counts_.insert(counts_.end(), counts.begin(), counts.end());
  schedule(slot);
  return f.id;
}

std::int32_t FlowSolver::addSharedRoute(std::span<const std::int32_t> route, std::span<const std::uint32_t> counts) {
  if (counts.size() != route.size()) throw std::invalid_argument("FlowSolver: one count per route entry");
  for (std::size_t i = 0; i < route.size(); ++i) {
    if (route[i] < 0 || static_cast<std::size_t>(route[i]) >= capacity_.size())
      throw std::invalid_argument("FlowSolver: bad link id");
    if (counts[i] == 0) throw std::invalid_argument("FlowSolver: a bundle route entry without members");
  }
  sharedRoutes_.push_back({static_cast<std::uint32_t>(sharedLinks_.size()), static_cast<std::uint32_t>(route.size())});
  sharedLinks_.insert(sharedLinks_.end(), route.begin(), route.end());
  sharedCounts_.insert(sharedCounts_.end(), counts.begin(), counts.end());
  return static_cast<std::int32_t>(sharedRoutes_.size() - 1);
}

std::int64_t FlowSolver::addBundle(std::int32_t sharedRoute, std::int64_t bytes, Time latency, Time start,
                                   std::uint64_t tag) {
  if (sharedRoute < 0 || static_cast<std::size_t>(sharedRoute) >= sharedRoutes_.size())
    throw std::invalid_argument("FlowSolver: no such shared route");
  const std::int32_t slot = newFlow(bytes, latency, start, tag);
  Flow& f = flows_[static_cast<std::size_t>(slot)];
  std::tie(f.routeOff, f.hops) = sharedRoutes_[static_cast<std::size_t>(sharedRoute)];
  f.shared = true;
  schedule(slot);
  return f.id;
}

Time FlowSolver::routeLatency(std::span<const std::int32_t> route) const {
  Time t = 0;
  for (std::int32_t l : route) t += latency_[static_cast<std::size_t>(l)];
  return t;
}

void FlowSolver::release(std::int32_t slot) {
  Flow& f = flows_[static_cast<std::size_t>(slot)];
  f.live = false;
  if (!f.shared) deadRouteInts_ += f.hops;
  freeSlots_.push_back(slot);
}

void FlowSolver::compactRoutes() {
  std::vector<std::int32_t> pool;
  std::vector<std::uint32_t> countPool;
  pool.reserve(routes_.size() - deadRouteInts_);
  countPool.reserve(routes_.size() - deadRouteInts_);
  for (Flow& f : flows_) {
    if (!f.live || f.shared) continue;
    const auto r = route(f);
    const auto c = counts(f);
    f.routeOff = static_cast<std::uint32_t>(pool.size());
    pool.insert(pool.end(), r.begin(), r.end());
    countPool.insert(countPool.end(), c.begin(), c.end());
  }
  routes_.swap(pool);
  counts_.swap(countPool);
  deadRouteInts_ = 0;
}

void FlowSolver::advanceTo(double t) {
  if (t > since_) {
    for (std::int32_t l : busyLinks_) {
      const auto li = static_cast<std::size_t>(l);
      const double rate = rateSum_[li];
      double a = since_;
      auto bin = static_cast<std::int64_t>(std::floor(a / binSeconds_));
      while (a < t) {
        const double end = std::min(t, double(bin + 1) * binSeconds_);
        if (end > a) {
          // Busy across more bins than its share: the series (and this loop) would grow
          // without bound for a run.bin far below the run's length. Each bin counts once
          // (advanceTo visits it once per recompute); a rounding sliver at a flow's end
          // is no bin of its own.
          if (bin != lastBusyBin_[li] && end - a > binSeconds_ * 1e-9) {
            lastBusyBin_[li] = bin;
            if (++busyBins_[li] > maxBins_) net::throwTooManyBins(maxBins_, bin_, static_cast<Time>(end / kPs));
          }
          binned_[li] += rate * (end - a);
          const auto target = static_cast<std::int64_t>(std::llround(binned_[li]));
          if (target > emitted_[li]) {
            stats_[li].bins.add(static_cast<std::int32_t>(bin), target - emitted_[li]);
            emitted_[li] = target;
          }
          a = end;
        }
        ++bin;
      }
    }
  }
  since_ = std::max(since_, t);
}

void FlowSolver::recompute() {
  ++recomputes_;
  const double now = since_;
  for (std::int32_t s : active_) {
    Flow& f = flows_[static_cast<std::size_t>(s)];
    f.rem = std::max(0.0, f.rem - f.rate * (now - rateTime_));
    f.frozen = false;
  }
  rateTime_ = now;
  for (std::int32_t l : busyLinks_) rateSum_[static_cast<std::size_t>(l)] = 0;
  busyLinks_.clear();
  peakActive_ = std::max(peakActive_, active_.size());
  if (active_.empty()) {
    nextFinish_ = kInf;
    return;
  }

  // Every link an active flow crosses starts with its full capacity and all its members
  // unfrozen, and a CSR list of its flows in active_ order (the order freezing visits
  // them). The heap's pop order depends only on (share, link), not on usedLinks_'s order.
  std::int32_t offset = 0;
  for (std::int32_t l : usedLinks_) {
    const auto li = static_cast<std::size_t>(l);
    residual_[li] = capacity_[li];
    unfrozen_[li] = members_[li];
    linkFlowBegin_[li] = offset;
    offset += entries_[li];
  }
  linkFlows_.resize(static_cast<std::size_t>(offset));
  for (std::int32_t s : active_)
    for (std::int32_t l : route(flows_[static_cast<std::size_t>(s)]))
      linkFlows_[static_cast<std::size_t>(linkFlowBegin_[static_cast<std::size_t>(l)]++)] = s;
  for (std::int32_t l : usedLinks_)  // back to the start of each link's range
    linkFlowBegin_[static_cast<std::size_t>(l)] -= entries_[static_cast<std::size_t>(l)];
  busyLinks_.assign(usedLinks_.begin(), usedLinks_.end());

  // Progressive filling: the link with the smallest fair share (residual per unfrozen
  // member) fixes the rate of its unfrozen flows; their other links lose that much
  // capacity per member crossing them. Freezing at the smallest share never lowers
  // another link's share ((R - m s)/(n - m) >= R/n when s <= R/n), so a link's heap entry
  // can only be too low: when popped it is refreshed and pushed again if its share grew.
  // One entry per link, however often it changes.
  using Entry = std::pair<double, std::int32_t>;
  std::vector<Entry> heapStore;
  heapStore.reserve(usedLinks_.size());
  for (std::int32_t l : usedLinks_) {
    const auto li = static_cast<std::size_t>(l);
    heapStore.push_back({residual_[li] / double(unfrozen_[li]), l});
  }
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap(std::greater<Entry>(),
                                                                            std::move(heapStore));
  while (!heap.empty()) {
    const auto [popped, l] = heap.top();
    heap.pop();
    const auto li = static_cast<std::size_t>(l);
    if (unfrozen_[li] == 0) continue;
    const double share = residual_[li] / double(unfrozen_[li]);
    if (share > popped * (1 + 1e-12)) {
      heap.push({share, l});
      continue;
    }
    const std::int32_t end = linkFlowBegin_[li] + entries_[li];
    for (std::int32_t i = linkFlowBegin_[li]; i < end && unfrozen_[li] > 0; ++i) {
      Flow& f = flows_[static_cast<std::size_t>(linkFlows_[static_cast<std::size_t>(i)])];
      if (f.frozen) continue;
      f.frozen = true;
      f.rate = share;
      const std::int32_t* r = links(f);
      const std::uint32_t* c = members(f);
      for (std::uint32_t h = 0; h < f.hops; ++h) {
        const auto ki = static_cast<std::size_t>(r[h]);
        residual_[ki] = std::max(0.0, residual_[ki] - share * c[h]);
        unfrozen_[ki] -= c[h];
      }
    }
  }

  nextFinish_ = kInf;
  for (std::int32_t s : active_) {
    Flow& f = flows_[static_cast<std::size_t>(s)];
    f.finish = now + f.rem / f.rate;
    nextFinish_ = std::min(nextFinish_, f.finish);
    const std::int32_t* r = links(f);
    const std::uint32_t* c = members(f);
    for (std::uint32_t h = 0; h < f.hops; ++h) rateSum_[static_cast<std::size_t>(r[h])] += f.rate * c[h];
  }
}

void FlowSolver::attach(std::int32_t slot) {
  const Flow& f = flows_[static_cast<std::size_t>(slot)];
  const std::int32_t* r = links(f);
  const std::uint32_t* c = members(f);
  std::int32_t* e = entries_.data();
  std::int64_t* m = members_.data();
  for (std::uint32_t h = 0; h < f.hops; ++h) {
    const auto li = static_cast<std::size_t>(r[h]);
    if (e[li]++ == 0) usedLinks_.push_back(r[h]);
    m[li] += c[h];
  }
}

void FlowSolver::detachEnded() {
  bool emptied = false;
  std::int32_t* e = entries_.data();
  std::int64_t* m = members_.data();
  for (std::int32_t s : ended_) {
    const Flow& f = flows_[static_cast<std::size_t>(s)];
    const std::int32_t* r = links(f);
    const std::uint32_t* c = members(f);
    for (std::uint32_t h = 0; h < f.hops; ++h) {
      const auto li = static_cast<std::size_t>(r[h]);
      stats_[li].bytes += f.bytes * c[h];
      m[li] -= c[h];
      if (--e[li] == 0) emptied = true;
    }
  }
  if (emptied)
    std::erase_if(usedLinks_, [e](std::int32_t l) { return e[static_cast<std::size_t>(l)] == 0; });
  ended_.clear();
}

void FlowSolver::deliverAt(double t, std::int32_t slot) {
  // Flows ending together with equal latency share one bucket; the last one is cached.
  if (lastBucket_ == deliveries_.end() || lastBucket_->first != t) lastBucket_ = deliveries_.try_emplace(t).first;
  lastBucket_->second.push_back(slot);
}

void FlowSolver::run(const Delivered& delivered) {
  lastBucket_ = deliveries_.end();
  while (!events_.empty() || !active_.empty() || !startNow_.empty() || !deliveries_.empty()) {
    double t = std::min(events_.empty() ? kInf : events_.top().t, nextFinish_);
    if (!deliveries_.empty()) t = std::min(t, deliveries_.begin()->first);
    if (!startNow_.empty()) t = std::min(t, since_);
    advanceTo(t);
    bool dirty = false;
    if (nextFinish_ <= t) {
      const double limit = t + kSameInstant * t;
      std::size_t keep = 0;
      for (std::size_t i = 0; i < active_.size(); ++i) {
        const std::int32_t s = active_[i];
        Flow& f = flows_[static_cast<std::size_t>(s)];
        if (f.finish > limit) {
          active_[keep++] = s;
          continue;
        }
        f.finish = t;
        deliverAt(t + double(f.latency) * kPs, s);
        ended_.push_back(s);  // its link bytes are counted as it leaves its links' lists
      }
      active_.resize(keep);
      detachEnded();  // before any delivery below releases (and reuses) these slots
      dirty = true;
    }
    // Starts and deliveries due at t; a delivery may start flows (and zero-latency timers)
    // at t, which join the same batch.
    for (;;) {
      while (!events_.empty() && events_.top().t <= t) {
        startNow_.push_back(events_.top().slot);
        events_.pop();
      }
      if (!startNow_.empty()) {
        std::vector<std::int32_t> starting;
        starting.swap(startNow_);
        for (std::int32_t slot : starting) {
          Flow& f = flows_[static_cast<std::size_t>(slot)];
          if (f.bytes == 0 || f.hops == 0) {  // nothing to send: delivered after the hops' latency
            f.finish = t;
            deliverAt(t + double(f.latency) * kPs, slot);
          } else {
            f.rem = double(f.bytes);
            f.rate = 0;
            active_.push_back(slot);
            attach(slot);
            dirty = true;
          }
        }
        continue;
      }
      if (deliveries_.empty() || deliveries_.begin()->first > t) break;
      std::vector<std::int32_t> due = std::move(deliveries_.begin()->second);
      deliveries_.erase(deliveries_.begin());
      lastBucket_ = deliveries_.end();
      for (std::int32_t slot : due) {
        const Flow& f = flows_[static_cast<std::size_t>(slot)];
        const Time at = static_cast<Time>(std::llround(f.finish / kPs)) + f.latency;
        const std::int64_t id = f.id;
        const std::uint64_t tag = f.tag;
        last_ = std::max(last_, at);
        release(slot);  // before the callback, which may reuse the slot
        if (delivered) delivered(id, tag, at);
      }
    }
    if (dirty) recompute();
  }
  // Rounding in the bins: the last bin of each link takes the difference, so a link's
  // bins add up to its bytes exactly.
  for (std::size_t l = 0; l < stats_.size(); ++l) {
    FlowLinkStats& s = stats_[l];
    if (s.bytes == 0) continue;
    s.busy = transferTime(double(s.bytes), capacity_[l]);
    const std::int64_t diff = s.bytes - emitted_[l];
    if (diff != 0) {
      if (s.bins.bins.empty()) s.bins.add(0, diff);
      else s.bins.bytes.back() += diff;
      emitted_[l] = s.bytes;
    }
  }
}

}  // namespace fl::netmodel
