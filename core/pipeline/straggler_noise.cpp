#include "pipeline/straggler_noise.h"

#include <boost/random/normal_distribution.hpp>
#include <cmath>

namespace fl {

double sampleNoise(NoiseDistribution d, double mean, RandomStream& rng) {
  if (mean <= 0) return 0;
  switch (d) {
    case NoiseDistribution::None: return 0;
    case NoiseDistribution::Exponential: return rng.exponential(mean);
    case NoiseDistribution::Lognormal: {
      constexpr double sigma = 1.0;  // E[exp(mu + sigma Z)] = exp(mu + sigma^2 / 2) = mean
      const double mu = std::log(mean) - sigma * sigma / 2;
      return std::exp(mu + sigma * boost::random::normal_distribution<double>(0.0, 1.0)(rng.engine()));
    }
  }
  return 0;
}

}  // namespace fl
