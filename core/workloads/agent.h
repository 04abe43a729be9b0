// A workload's per-endpoint actor: posts messages to its endpoint, hears about every
// delivery, keeps its own counters (so partitions never share state) and records when
// it finished and the phases it went through.
#pragma once
#include <string>
#include <vector>

#include "engine/component.h"
#include "network/endpoint_node.h"
#include "results/results.h"

namespace fl::work {

enum AgentEvent : std::uint32_t { kStart = 100, kTimer = 101 };

class Agent : public Component, public net::EndpointAgent {
 public:
  explicit Agent(net::EndpointNode& endpoint) : endpoint_(endpoint) { endpoint.setAgent(this); }

  void handle(const Event& e) override {
    if (e.kind == kStart) start();
    else onTimer(e.arg);
  }
  virtual void start() = 0;
  virtual void onTimer(std::uint64_t) {}

  Time finishedAt() const { return finishedAt_; }
  bool finished() const { return finishedAt_ >= 0; }
  const std::vector<PhaseMark>& phases() const { return phases_; }
  // Bytes this agent has received and expects in all; for progress reporting.
  std::int64_t receivedBytes() const { return received_; }
  std::int64_t expectedBytes() const { return expected_; }

 protected:
  void post(const net::Message& m) { endpoint_.post(m); }
  void finish() { if (finishedAt_ < 0) finishedAt_ = now(); }
  void beginPhase(const std::string& name) { phases_.push_back({name, now(), now()}); }
  void endPhase() { if (!phases_.empty()) phases_.back().end = now(); }
  void endPhase(const std::string& name) {
    for (auto& p : phases_)
      if (p.name == name) p.end = now();
  }
  void wakeAt(Time t, std::uint64_t arg = 0) { schedule(t, id(), kTimer, 0, arg); }

  net::EndpointNode& endpoint_;
  std::int64_t received_ = 0;
  std::int64_t expected_ = 0;

 private:
  Time finishedAt_ = -1;
  std::vector<PhaseMark> phases_;
};

}  // namespace fl::work
