#include "moe/routing.h"

#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "engine/random.h"
#include "moe/routing_trace.h"
#include "scenario/validate.h"

namespace fl {
namespace {

void normalise(std::vector<double>& v) {
  const double sum = std::accumulate(v.begin(), v.end(), 0.0);
  for (double& x : v) x /= sum;
}

// Fisher-Yates over all of `order`.
void shuffle(std::vector<std::int32_t>& order, RandomStream& rng) {
  for (std::size_t i = order.size(); i > 1; --i)
    std::swap(order[i - 1], order[static_cast<std::size_t>(rng.uniformInt(0, static_cast<std::int64_t>(i) - 1))]);
}

// k distinct experts uniformly: a partial Fisher-Yates step per pick. `pool` holds every
// expert in some order; each pick is uniform over the not yet picked, whatever the order.
void pickUniform(std::vector<std::int32_t>& pool, int k, RandomStream& rng, std::int32_t* out) {
  const auto n = static_cast<std::int64_t>(pool.size());
  for (int j = 0; j < k; ++j) {
    const auto r = static_cast<std::size_t>(rng.uniformInt(j, n - 1));
    std::swap(pool[static_cast<std::size_t>(j)], pool[r]);
    out[j] = pool[static_cast<std::size_t>(j)];
  }
}

// Systematic sampling: lay the experts' inclusion probabilities end to end in a random
// order and take the experts under k equally spaced points with a random offset. An
// interval of length pi <= spacing holds at most one point, so the picks are distinct
// and expert e is picked with probability pi_e.
void pickSystematic(const std::vector<double>& pi, double total, std::vector<std::int32_t>& order, int k,
                    RandomStream& rng, std::int32_t* out) {
  shuffle(order, rng);
  const double step = total / k;
  double point = rng.uniform01() * step, acc = 0;
  int n = 0;
  for (std::int32_t e : order) {
    acc += pi[static_cast<std::size_t>(e)];
    if (n < k && point < acc) {
      out[n++] = e;
      point += step;
    }
  }
  // Rounding can leave the last point past the sum: fill up with the first unpicked
  // experts that can be picked at all (a 1e-16 event).
  for (std::int32_t e = 0; n < k && e < static_cast<std::int32_t>(pi.size()); ++e)
    if (pi[static_cast<std::size_t>(e)] > 0 && std::find(out, out + n, e) == out + n) out[n++] = e;
}

}  // namespace

RoutingParams routingParams(const Scenario& s) {
  RoutingParams p;
  const MoeSpec& m = s.workload.moe;
  p.gpus = endpointCount(s.topology);
  p.tokens_per_gpu = m.tokens_per_gpu;
  p.experts = m.experts;
  p.top_k = m.top_k;
  p.distribution = m.routing.distribution;
  p.sigma = m.routing.sigma;
  p.alpha = m.routing.alpha;
  p.trace = m.routing.trace;
  p.seed = s.run.seed;
  return p;
}

std::vector<double> expertPopularity(const RoutingParams& p) {
  const auto E = static_cast<std::size_t>(p.experts);
  std::vector<double> share(E, 1.0 / p.experts);
  RandomStream rng(p.seed, kPopularityStream);
  if (p.distribution == RoutingDistribution::Normal) {
    // N(1/E, sigma) per expert, clipped at 0. When sigma is large against 1/E (e.g. 0.032
    // with E = 256), many experts clip to 0 and the realised spread is below sigma.
    boost::random::normal_distribution<double> z(0.0, 1.0);
    std::size_t positive = 0;
    for (double& s : share) {
      s = std::max(0.0, 1.0 / p.experts + p.sigma * z(rng.engine()));
      positive += s > 0;
    }
    if (positive < static_cast<std::size_t>(p.top_k))  // keep k distinct picks possible
      for (double& s : share) s = std::max(s, 1e-9 / p.experts);
    normalise(share);
  } else if (p.distribution == RoutingDistribution::PowerLaw) {
    std::vector<std::int32_t> rankToExpert(E);
    std::iota(rankToExpert.begin(), rankToExpert.end(), 0);
    shuffle(rankToExpert, rng);
    for (std::size_t r = 0; r < E; ++r)
      share[static_cast<std::size_t>(rankToExpert[r])] = std::pow(static_cast<double>(r + 1), -p.alpha);
    normalise(share);
  }
  return share;
}

std::vector<double> inclusionProbabilities(const std::vector<double>& shares, int topK) {
  std::vector<double> pi(shares.size());
  std::vector<bool> capped(shares.size(), false);
  int nCapped = 0;
  for (bool again = true; again;) {
    again = false;
    double free = 0;
    for (std::size_t e = 0; e < shares.size(); ++e)
      if (!capped[e]) free += shares[e];
    if (free <= 0) throw std::invalid_argument("fewer experts with a positive share than top_k");
    for (std::size_t e = 0; e < shares.size(); ++e) {
      pi[e] = capped[e] ? 1.0 : (topK - nCapped) * shares[e] / free;
      if (!capped[e] && pi[e] > 1.0) capped[e] = again = true, ++nCapped;
    }
  }
  return pi;
}

Routing generateRouting(const RoutingParams& p) {
  Routing r;
  r.gpus = p.gpus, r.tokens_per_gpu = p.tokens_per_gpu, r.experts = p.experts, r.top_k = p.top_k;
  const auto k = static_cast<std::size_t>(p.top_k);
  const std::size_t tokens = static_cast<std::size_t>(p.gpus) * static_cast<std::size_t>(p.tokens_per_gpu);
  r.choices.resize(tokens * k);

  if (p.distribution == RoutingDistribution::Trace) {
    const RoutingTrace t = loadRoutingTrace(p.trace, p.experts, p.top_k);
    for (std::size_t i = 0; i < tokens; ++i)
      std::copy_n(t.row(i % t.rows()).data(), k, r.choices.data() + i * k);
    std::vector<double> counts(static_cast<std::size_t>(p.experts), 0.0);
    for (std::int32_t e : r.choices) counts[static_cast<std::size_t>(e)] += 1;
    normalise(counts);
    r.popularity = std::move(counts);
    return r;
  }

  r.popularity = expertPopularity(p);
  const bool uniform = p.distribution == RoutingDistribution::Uniform;
  const std::vector<double> pi = uniform ? std::vector<double>{} : inclusionProbabilities(r.popularity, p.top_k);
  const double total = std::accumulate(pi.begin(), pi.end(), 0.0);
  std::vector<std::int32_t> order(static_cast<std::size_t>(p.experts));
  for (int g = 0; g < p.gpus; ++g) {
    RandomStream rng(p.seed, tokenStream(g));
    std::iota(order.begin(), order.end(), 0);  // each GPU starts from the same state
    for (int t = 0; t < p.tokens_per_gpu; ++t) {
      std::int32_t* out = r.choices.data() + (static_cast<std::size_t>(g) * p.tokens_per_gpu + t) * k;
      if (uniform)
        pickUniform(order, p.top_k, rng, out);
      else
        pickSystematic(pi, total, order, p.top_k, rng, out);
    }
  }
  return r;
}

}  // namespace fl
