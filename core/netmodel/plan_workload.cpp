#include "netmodel/plan_workload.h"

#include <algorithm>

#include "network/network.h"
#include "network/packet.h"

namespace fl::netmodel {

class PlanAgent : public work::Agent {
 public:
  PlanAgent(net::EndpointNode& ep, PlanWorkload& w, int endpoint) : Agent(ep), w_(w), me_(endpoint) {
    const auto& items = w_.plan_->items;
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (items[i].src == me_) mine_.push_back(static_cast<std::int32_t>(i));
      if (items[i].dst == me_ && !items[i].isTask()) expected_ += items[i].bytes;
      if (items[i].dst == me_) ++endingHere_;
    }
  }

  void start() override {
    maybeFinish();
    for (std::int32_t i : mine_)
      if (w_.pending_[static_cast<std::size_t>(i)] == 0) launch(i);
  }

  void onDelivered(const net::Packet& p) override {
    if (p.op != net::Op::Write) return;
    const auto i = static_cast<std::size_t>(p.tag);
    received_ += p.payload();
    w_.received_[i] += p.payload();
    if (w_.received_[i] >= w_.plan_->items[i].bytes) ended(static_cast<std::int32_t>(i));
  }

  void onTimer(std::uint64_t arg) override { ended(static_cast<std::int32_t>(arg)); }

 private:
  void launch(std::int32_t i) {
    const PlanItem& it = w_.plan_->items[static_cast<std::size_t>(i)];
    w_.timing_.start[static_cast<std::size_t>(i)] = now();
    if (it.isTask()) {
      ++launched_;
      wakeAt(now() + it.duration, static_cast<std::uint64_t>(i));
      return;
    }
    net::Message m;
    m.op = net::Op::Write;
    m.destination = w_.nodes_[static_cast<std::size_t>(it.dst)];
    m.bytes = it.bytes;
    m.tag = static_cast<std::uint64_t>(i);
    m.inOrder = it.lane > 0;
    m.background = it.background;
    m.phase = it.phase + 1 < net::kTrafficPhases ? static_cast<std::uint8_t>(it.phase + 1) : 0;
    post(m);
    ++launched_;
    maybeFinish();
  }

  void maybeFinish() {
    if (ended_ == endingHere_ && launched_ == static_cast<int>(mine_.size())) finish();
  }

  void ended(std::int32_t i) {
    w_.timing_.end[static_cast<std::size_t>(i)] = now();
    for (std::int32_t d : w_.dependents_[static_cast<std::size_t>(i)])
      if (--w_.pending_[static_cast<std::size_t>(d)] == 0) launch(d);
    ++ended_;
    maybeFinish();
  }

  PlanWorkload& w_;
  int me_;
  std::vector<std::int32_t> mine_;
  int endingHere_ = 0, ended_ = 0, launched_ = 0;
};

PlanWorkload::PlanWorkload(std::shared_ptr<const MessagePlan> plan, net::Network& net, Simulator& sim)
    : plan_(std::move(plan)) {
  checkPlan(*plan_);
  const std::size_t n = plan_->items.size();
  for (std::size_t i = 0; i < n; ++i)
    if (!plan_->items[i].isTask() && plan_->items[i].bytes <= 0)
      throw std::logic_error("plan transfer without bytes");
  dependents_.resize(n);
  pending_.assign(n, 0);
  received_.assign(n, 0);
  timing_.start.assign(n, 0);
  timing_.end.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::int32_t d : plan_->items[i].deps) {
      dependents_[static_cast<std::size_t>(d)].push_back(static_cast<std::int32_t>(i));
      ++pending_[i];
    }
  if (std::any_of(plan_->items.begin(), plan_->items.end(), [](const PlanItem& it) { return it.background; }))
    net.enableBackgroundClass();
  for (int e = 0; e < net.endpointCount(); ++e) nodes_.push_back(net.topology().endpointNode(e));
  int index = 0;
  createAgents(net, sim, [&](net::EndpointNode& ep) { return std::make_unique<PlanAgent>(ep, *this, index++); });
}

double PlanWorkload::progress() const {
  std::int64_t got = 0, want = 0;
  for (const auto& a : agents_) got += a->receivedBytes(), want += a->expectedBytes();
  return want > 0 ? static_cast<double>(got) / static_cast<double>(want) : 1.0;
}

Time PlanWorkload::makespan() const { return timing_.makespan(); }

}  // namespace fl::netmodel
