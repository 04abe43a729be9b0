#include "netmodel/flow_solver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace fl::netmodel {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPs = 1e-12;
// Flows whose last byte leaves within this relative distance of the earliest one end in
// the same batch: symmetric flows differ only by rounding, and one recompute serves all.
constexpr double kSameInstant = 1e-12;
}  // namespace

FlowSolver::FlowSolver(std::vector<double> capacity, std::vector<Time> latency, Time bin)
    : capacity_(std::move(capacity)), latency_(std::move(latency)), binSeconds_(double(bin) * kPs) {
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
  unfrozen_.assign(n, 0);
  stamp_.assign(n, 0);
  linkFlowBegin_.assign(n, 0);
}

std::int64_t FlowSolver::addFlow(std::span<const std::int32_t> route, std::int64_t bytes, Time start,
                                 std::uint64_t tag) {
  if (bytes < 0) throw std::invalid_argument("FlowSolver: negative bytes");
  if (route.size() > 0xffff) throw std::invalid_argument("FlowSolver: route too long");
  if (deadRouteInts_ > (1u << 20) && deadRouteInts_ * 2 > routes_.size()) compactRoutes();
  std::int32_t slot;
  if (!freeSlots_.empty()) {
    slot = freeSlots_.back();
    freeSlots_.pop_back();
  } else {
    slot = static_cast<std::int32_t>(flows_.size());
    flows_.emplace_back();
  }
  Flow& f = flows_[static_cast<std::size_t>(slot)];
  f = Flow{};
  f.id = nextId_++;
  f.tag = tag;
  f.bytes = bytes;
  f.start = double(start) * kPs;
  f.routeOff = static_cast<std::uint32_t>(routes_.size());
  f.hops = static_cast<std::uint16_t>(route.size());
  f.live = true;
  for (std::int32_t l : route) {
    if (l < 0 || static_cast<std::size_t>(l) >= capacity_.size()) throw std::invalid_argument("FlowSolver: bad link id");
    routes_.push_back(l);
    f.latency += latency_[static_cast<std::size_t>(l)];
  }
  // Starts due now skip the heap: a batch of a million flows costs a push and a pop less each.
  if (f.start <= since_) startNow_.push_back(slot);
  else events_.push({f.start, 1, f.id, slot});
  return f.id;
}

void FlowSolver::release(std::int32_t slot) {
  Flow& f = flows_[static_cast<std::size_t>(slot)];
  f.live = false;
  deadRouteInts_ += f.hops;
  freeSlots_.push_back(slot);
}

void FlowSolver::compactRoutes() {
  std::vector<std::int32_t> pool;
  pool.reserve(routes_.size() - deadRouteInts_);
  for (Flow& f : flows_) {
    if (!f.live) continue;
    const auto r = route(f);
    f.routeOff = static_cast<std::uint32_t>(pool.size());
    pool.insert(pool.end(), r.begin(), r.end());
  }
  routes_.swap(pool);
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

  // The links the active flows cross, their flow counts and a CSR list of their flows.
  ++epoch_;
  std::vector<std::int32_t>& touched = busyLinks_;
  for (std::int32_t s : active_)
    for (std::int32_t l : route(flows_[static_cast<std::size_t>(s)])) {
      const auto li = static_cast<std::size_t>(l);
      if (stamp_[li] != epoch_) {
        stamp_[li] = epoch_;
        unfrozen_[li] = 0;
        residual_[li] = capacity_[li];
        touched.push_back(l);
      }
      ++unfrozen_[li];
    }
  std::int32_t offset = 0;
  for (std::int32_t l : touched) {
    linkFlowBegin_[static_cast<std::size_t>(l)] = offset;
    offset += unfrozen_[static_cast<std::size_t>(l)];
  }
  linkFlows_.resize(static_cast<std::size_t>(offset));
  for (std::int32_t s : active_)
    for (std::int32_t l : route(flows_[static_cast<std::size_t>(s)]))
      linkFlows_[static_cast<std::size_t>(linkFlowBegin_[static_cast<std::size_t>(l)]++)] = s;
  for (std::int32_t l : touched)  // back to the start of each link's range
    linkFlowBegin_[static_cast<std::size_t>(l)] -= unfrozen_[static_cast<std::size_t>(l)];

  // Progressive filling: the link with the smallest fair share fixes the rate of its
  // unfrozen flows; their other links lose that much capacity and one flow each. Freezing
  // at the smallest share never lowers another link's share ((R - m s)/(n - m) >= R/n when
  // s <= R/n), so a link's heap entry can only be too low: when popped it is refreshed
  // and pushed again if its share grew. One entry per link, however often it changes.
  using Entry = std::pair<double, std::int32_t>;
  std::vector<Entry> heapStore;
  heapStore.reserve(touched.size());
  for (std::int32_t l : touched) {
    const auto li = static_cast<std::size_t>(l);
    heapStore.push_back({residual_[li] / unfrozen_[li], l});
  }
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap(std::greater<Entry>(),
                                                                            std::move(heapStore));
  while (!heap.empty()) {
    const auto [popped, l] = heap.top();
    heap.pop();
    const auto li = static_cast<std::size_t>(l);
    if (unfrozen_[li] == 0) continue;
    const double share = residual_[li] / unfrozen_[li];
    if (share > popped * (1 + 1e-12)) {
      heap.push({share, l});
      continue;
    }
    for (std::int32_t i = linkFlowBegin_[li]; unfrozen_[li] > 0; ++i) {
      Flow& f = flows_[static_cast<std::size_t>(linkFlows_[static_cast<std::size_t>(i)])];
      if (f.frozen) continue;
      f.frozen = true;
      f.rate = share;
      for (std::int32_t k : route(f)) {
        const auto ki = static_cast<std::size_t>(k);
        residual_[ki] = std::max(0.0, residual_[ki] - share);
        --unfrozen_[ki];
      }
    }
  }

  nextFinish_ = kInf;
  for (std::int32_t s : active_) {
    Flow& f = flows_[static_cast<std::size_t>(s)];
    f.finish = now + f.rem / f.rate;
    nextFinish_ = std::min(nextFinish_, f.finish);
    for (std::int32_t k : route(f)) rateSum_[static_cast<std::size_t>(k)] += f.rate;
  }
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
        for (std::int32_t k : route(f)) stats_[static_cast<std::size_t>(k)].bytes += f.bytes;
        deliverAt(t + double(f.latency) * kPs, s);
      }
      active_.resize(keep);
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
