// HybridEP's stream-based model (seed 004 §III, spec 1.2-1.4 and 1.8): one GPU's
// computation stream (pre-expert compute Lat_PE) and communication stream (one expert
// all-gather, two token all-to-alls), overlapped as Eq. 7-8 say:
//   Lat(S) = max(Lat_PE, Lat_AG) + 2 Lat_A2A,  Lat_AG = P_E (S-1) / B,
//   Lat_A2A = D (G-S) / (G B),                p(S) = (G-S) / (G-1).
// Expert compute drops out (assumed hidden under communication, Eq. 7). The model is
// solved level by level; candidates are the expert-domain sizes S dividing G.
#pragma once
#include <string>
#include <vector>

namespace fl::xdc {

enum class ModelCase { Case1, Case2_1, Case2_2 };
double caseNumber(ModelCase c);  // 1, 2.1, 2.2 (the paper's labels)

// One level as the model sees it: G workers joined by bandwidth B (bytes/s a GPU gets
// towards that level's peers).
struct ModelLevel {
  int workers = 1;
  double bandwidth = 0;
};

struct ModelInput {
  double data = 0;        // D: bytes one GPU dispatches in one all-to-all
  double expert = 0;      // P_E: expert bytes one GPU contributes to an all-gather (compressed)
  double preExpert = 0;   // Lat_PE, seconds
  std::vector<ModelLevel> levels;  // outermost first
};

struct CurvePoint {
  int domainSize = 1;
  double p = 1;
  double ag = 0, a2a = 0;  // seconds: the all-gather, one all-to-all pass
  double lat = 0;          // seconds: Lat(S) of this level alone
};

struct LevelPrediction {
  int workers = 1;
  int domainSize = 1;
  double p = 1;
  ModelCase modelCase = ModelCase::Case1;
  double expert = 0;     // effective P_E at this level (spec 1.8)
  double threshold = 0;  // thr = 1 - B Lat_PE / (P_E (G-1)): Lat_PE >= Lat_AG(p) iff p >= thr
  std::vector<CurvePoint> curve;  // every divisor of `workers`, ascending
};

struct Prediction {
  std::vector<LevelPrediction> levels;
  double lat = 0;    // the composed per-layer latency for the chosen domains (seconds)
  double epLat = 0;  // the same for plain EP (every S = 1)
};

// p(S) = (G-S)/(G-1), the exact mapping (spec 1.5). Table IV labels S = 2 of G = 8 as
// p = 0.75 (= 1 - S/G), off Definition 1's k/(G-1) grid; we keep the exact value. G = 1: 1.
double proportion(int workers, int domainSize);

// Lat(S) of one level (spec 2.3), seconds.
CurvePoint evaluate(int workers, int domainSize, double data, double expert, double bandwidth,
                    double preExpert);

// The continuous analysis of §III-E: the case and the threshold. 2D - G P_E >= 0 is
// Case 2.2 (p* = 0, AG only); otherwise thr <= 0 (all of AG hides under Lat_PE even at
// p = 0, so p* = 0) is Case 1 and thr > 0 is Case 2.1 (p* = thr, mixed).
ModelCase classify(int workers, double data, double expert, double bandwidth, double preExpert,
                   double* threshold = nullptr);

// The model's choice for one level: argmin of Lat(S) over the divisors of G; exact ties
// go to the larger domain (the paper's "configure the minimum p").
LevelPrediction solveLevel(int workers, double data, double expert, double bandwidth,
                           double preExpert);

// Composition over levels (spec 1.8; the paper does not say how levels compose). Level 0
// (between DCs) runs first, and an inner level all-gathers what the outer ones gathered,
// so level l sees P_E x prod_{j<l} S^j. `auto` (fixed empty) solves each level alone
// with the full Lat_PE, the hypothesis that reproduces all six Table VI choices; a
// non-empty `fixed` imposes the domain sizes. The composed latency puts every level's
// AG and A2A on the one communication stream in order:
//   Lat = max(Lat_PE, sum_l AG^l) + 2 sum_l A2A^l,
// which is Eq. 8 for one level. (Per-level choices are not always optimal for this
// composed form when an outer AG already exceeds Lat_PE; we keep the paper's rule.)
Prediction predict(const ModelInput& in, const std::vector<int>& fixed = {});

// Per-GPU traffic of one MoE layer at one level (spec 2.2): bytes sent in one A2A pass,
// D (G-S)/G, and bytes received in the AG, P (S-1).
double a2aBytesPerGpu(int workers, int domainSize, double data);
double agBytesPerGpu(int domainSize, double expert);

}  // namespace fl::xdc
