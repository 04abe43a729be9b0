#include "xdc/stream_model.h"

#include <algorithm>
#include <stdexcept>

namespace fl::xdc {

double caseNumber(ModelCase c) {
  switch (c) {
    case ModelCase::Case1: return 1;
    case ModelCase::Case2_1: return 2.1;
    case ModelCase::Case2_2: return 2.2;
  }
  return 0;
}

double proportion(int workers, int domainSize) {
  return workers > 1 ? double(workers - domainSize) / double(workers - 1) : 1.0;
}

double a2aBytesPerGpu(int workers, int domainSize, double data) {
  return data * double(workers - domainSize) / double(workers);
}

double agBytesPerGpu(int domainSize, double expert) { return expert * double(domainSize - 1); }

CurvePoint evaluate(int workers, int domainSize, double data, double expert, double bandwidth,
                    double preExpert) {
  CurvePoint c;
  c.domainSize = domainSize;
  c.p = proportion(workers, domainSize);
  c.ag = agBytesPerGpu(domainSize, expert) / bandwidth;
  c.a2a = a2aBytesPerGpu(workers, domainSize, data) / bandwidth;
  c.lat = std::max(preExpert, c.ag) + 2 * c.a2a;
  return c;
}

ModelCase classify(int workers, double data, double expert, double bandwidth, double preExpert,
                   double* threshold) {
  const double g = workers;
  const double thr = workers > 1 && expert > 0 ? 1 - bandwidth * preExpert / (expert * (g - 1)) : 0;
  if (threshold) *threshold = thr;
  // Table IV labels its AG-only rows 2.2 although their AG hides under Lat_PE (thr < 0):
  // the sign of 2D - G P_E decides first, and Case 1 is what is left when AG hides.
  if (2 * data - g * expert >= 0) return ModelCase::Case2_2;
  return thr <= 0 ? ModelCase::Case1 : ModelCase::Case2_1;
}

LevelPrediction solveLevel(int workers, double data, double expert, double bandwidth,
                           double preExpert) {
  if (workers < 1 || !(bandwidth > 0)) throw std::invalid_argument("stream model: bad level");
  LevelPrediction l;
  l.workers = workers;
  l.expert = expert;
  l.modelCase = classify(workers, data, expert, bandwidth, preExpert, &l.threshold);
  for (int s = 1; s <= workers; ++s)
    if (workers % s == 0) l.curve.push_back(evaluate(workers, s, data, expert, bandwidth, preExpert));
  const CurvePoint* best = &l.curve.front();
  for (const CurvePoint& c : l.curve)  // ascending S: <= lets a tie move to the larger domain
    if (c.lat <= best->lat * (1 + 1e-12)) best = &c;
  l.domainSize = best->domainSize;
  l.p = best->p;
  return l;
}

Prediction predict(const ModelInput& in, const std::vector<int>& fixed) {
  Prediction out;
  double expert = in.expert, ag = 0, a2a = 0, epA2a = 0;
  for (std::size_t i = 0; i < in.levels.size(); ++i) {
    const ModelLevel& ml = in.levels[i];
    LevelPrediction l = solveLevel(ml.workers, in.data, expert, ml.bandwidth, in.preExpert);
    if (!fixed.empty()) {
      const int s = fixed[i];
      if (s < 1 || ml.workers % s != 0) throw std::invalid_argument("stream model: domain must divide workers");
      l.domainSize = s;
      l.p = proportion(ml.workers, s);
    }
    const CurvePoint c = evaluate(ml.workers, l.domainSize, in.data, expert, ml.bandwidth, in.preExpert);
    ag += c.ag;
    a2a += c.a2a;
    epA2a += a2aBytesPerGpu(ml.workers, 1, in.data) / ml.bandwidth;
    expert *= l.domainSize;
    out.levels.push_back(std::move(l));
  }
  out.lat = std::max(in.preExpert, ag) + 2 * a2a;
  out.epLat = in.preExpert + 2 * epA2a;
  return out;
}

}  // namespace fl::xdc
