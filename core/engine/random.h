// Seeded random streams, one per component: a stream depends only on (run seed, stream
// id), never on call order elsewhere, so results do not depend on thread count.
// Boost.Random's engines and distributions are specified exactly (unlike std::'s
// distributions), so a seed gives the same numbers on every platform.
#pragma once
#include <boost/random/mersenne_twister.hpp>
#include <boost/random/exponential_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <cstdint>

namespace fl {

// SplitMix64 finaliser: decorrelates (seed, stream) pairs before seeding the engine.
inline std::uint64_t mixSeed(std::uint64_t seed, std::uint64_t stream) {
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ull * (stream + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

class RandomStream {
 public:
  RandomStream() = default;
  RandomStream(std::uint64_t seed, std::uint64_t stream) : engine_(mixSeed(seed, stream)) {}

  double uniform01() { return boost::random::uniform_01<double>()(engine_); }
  // Integer in [lo, hi].
  std::int64_t uniformInt(std::int64_t lo, std::int64_t hi) {
    return boost::random::uniform_int_distribution<std::int64_t>(lo, hi)(engine_);
  }
  double exponential(double mean) {
    return boost::random::exponential_distribution<double>(1.0 / mean)(engine_);
  }
  boost::random::mt19937_64& engine() { return engine_; }

 private:
  boost::random::mt19937_64 engine_;
};

}  // namespace fl
