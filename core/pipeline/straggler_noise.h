// Straggler noise (seed 001 §3.1): kernel-start jitter and task-duration noise drawn from
// a configurable distribution with a given mean. Lognormal uses sigma = 1 of the
// underlying normal (a heavy right tail, as profiled kernel delays have) scaled to the
// same mean, so switching distributions changes the shape, not the average.
#pragma once
#include "engine/random.h"
#include "scenario/scenario.h"

namespace fl {

// A non-negative sample with expectation `mean` (0 for None or mean <= 0).
double sampleNoise(NoiseDistribution d, double mean, RandomStream& rng);

}  // namespace fl
