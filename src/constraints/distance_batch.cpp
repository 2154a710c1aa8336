#include "constraints/distance.h"

#include <algorithm>

namespace pbd {

void packDistanceBatches(const DistanceConstraint* cs, size_t count, uint32_t paddingParticle, DistanceBatch* out,
                         DistanceBatchStrength* strengthOut, const uint32_t* picks) {
  for (size_t b = 0; 4 * b < count; ++b) {
    DistanceBatch& batch = out[b];
    DistanceBatchStrength& strength = strengthOut[b];
    for (size_t lane = 0; lane < 4; ++lane) {
      const size_t k = 4 * b + lane;
      const DistanceConstraint pad{paddingParticle, paddingParticle, 0, 0, 0, 0, 0};
      const DistanceConstraint& c = k < count ? cs[picks ? picks[k] : k] : pad;
      batch.i[lane] = c.i, batch.j[lane] = c.j;
      batch.minLength[lane] = c.minLength, batch.maxLength[lane] = c.maxLength;
      strength.kPrime[lane] = c.kPrime, strength.compliance[lane] = c.compliance;
    }
  }
}

void padPositions(const Real* xyz, const Real* w, size_t begin, size_t end, Real* xyzw) {
  padRange(xyz, w, begin, end, xyzw);
}

void unpadPositions(const Real* xyzw, size_t begin, size_t end, Real* xyz) { unpadRange(xyzw, begin, end, xyz); }

void padPositionsInOrder(const Real* xyz, const Real* w, const uint32_t* order, size_t begin, size_t end,
                         Real* xyzw) {
  for (size_t r = begin; r < end; ++r) padParticle(xyz + 3 * size_t(order[r]), w + order[r], xyzw + 4 * r);
}

void unpadPositionsInOrder(const Real* xyzw, const uint32_t* rank, size_t begin, size_t end, Real* xyz) {
  for (size_t i = begin; i < end; ++i) unpadParticle(xyzw + 4 * size_t(rank[i]), xyz + 3 * i);
}

namespace {

// One batch's particles as loaded: their addresses and, after the transposes, x y z w per lane.
// The same loads as two PaddedLanes (math/wide_float.h), written out: V8 ran the PaddedLanes form slower
// (docs/performance.md, "Tried and dropped").
struct LoadedBatch {
  Real *a[4], *b[4];      // xyzw of each lane's first and second particle
  Float4 x1, y1, z1, w1;  // first particles, one per lane
  Float4 x2, y2, z2, w2;  // second particles

  static LoadedBatch load(const DistanceBatch& batch, Real* xyzw) {
    LoadedBatch l;
    for (int lane = 0; lane < 4; ++lane) {
      l.a[lane] = xyzw + 4 * size_t(batch.i[lane]);
      l.b[lane] = xyzw + 4 * size_t(batch.j[lane]);
    }
    // A particle per vector load, then a 4x4 transpose into x, y, z, w lanes: loading lane by lane cost a load and
    // an insert per value, more than the arithmetic it feeds.
    l.x1 = Float4::load(l.a[0]), l.y1 = Float4::load(l.a[1]), l.z1 = Float4::load(l.a[2]), l.w1 = Float4::load(l.a[3]);
    l.x2 = Float4::load(l.b[0]), l.y2 = Float4::load(l.b[1]), l.z2 = Float4::load(l.b[2]), l.w2 = Float4::load(l.b[3]);
    transpose(l.x1, l.y1, l.z1, l.w1);
    transpose(l.x2, l.y2, l.z2, l.w2);
    return l;
  }

  // Back to one particle per vector; w rides along unchanged. The lanes share no particle (but the padding one,
  // which keeps its value), so the store order does not matter.
  void store(Float4 p1x, Float4 p1y, Float4 p1z, Float4 p2x, Float4 p2y, Float4 p2z) {
    transpose(p1x, p1y, p1z, w1);
    transpose(p2x, p2y, p2z, w2);
    p1x.store(a[0]), p1y.store(a[1]), p1z.store(a[2]), w1.store(a[3]);
    p2x.store(b[0]), p2y.store(b[1]), p2z.store(b[2]), w2.store(b[3]);
  }
};

// One batch of four translated constraints in the band layout (math/band_layout.h): lane L's first particle is in
// band L, so each end is one block and each coordinate one vector. Lane 0's first particle is in band 0, where a
// particle's index is its block's. kShifted: lane L's second particle is in band L + 1 (across a band's edge), so
// the second block's vectors are rotated down a lane on load and back on store; lane 3 then pairs band 3 with band
// 0, a filler, which never acts, and whose second particle (band 0) has its block's index.
template <bool kShifted>
struct BandedBatch {
  Real *a, *b;            // the blocks of the lanes' first and second particles
  Float4 x1, y1, z1, w1;  // first particles, one per lane
  Float4 x2, y2, z2, w2;  // second particles

  static Float4 in(Float4 v) { return kShifted ? v.rotatedDown() : v; }
  static Float4 out(Float4 v) { return kShifted ? v.rotatedUp() : v; }

  static BandedBatch load(const DistanceBatch& batch, Real* bands) {
    BandedBatch l;
    l.a = bands + 16 * size_t(batch.i[0]);
    l.b = bands + 16 * size_t(batch.j[kShifted ? 3 : 0]);
    l.x1 = Float4::load(l.a), l.y1 = Float4::load(l.a + 4), l.z1 = Float4::load(l.a + 8), l.w1 = Float4::load(l.a + 12);
    l.x2 = in(Float4::load(l.b)), l.y2 = in(Float4::load(l.b + 4));
    l.z2 = in(Float4::load(l.b + 8)), l.w2 = in(Float4::load(l.b + 12));
    return l;
  }

  void store(Float4 p1x, Float4 p1y, Float4 p1z, Float4 p2x, Float4 p2y, Float4 p2z) const {
    p1x.store(a), p1y.store(a + 4), p1z.store(a + 8);
    out(p2x).store(b), out(p2y).store(b + 4), out(p2z).store(b + 8);
  }
};

// The method as a template argument: the loop then carries neither the branch nor the unused method's loads.
// Written as load, project, store through the helpers above: in wasm under V8 this form ran faster than the same
// operations written out in one loop body, for the same bits (docs/performance.md, "Tuned constants").
template <BatchMethod kMethod, class Loaded>
void projectBatches(const DistanceBatch* batches, const DistanceBatchStrength* strengths, size_t begin, size_t end,
                    Real* lambda, Real* positions, Real invH2) {
  const Float4 invH2x4 = Float4::splat(invH2), zero = Float4::splat(0), one = Float4::splat(1);
  for (size_t k = begin; k < end; ++k) {
    const DistanceBatch& b = batches[k];
    Loaded u = Loaded::load(b, positions);
    const bool xpbd = kMethod == BatchMethod::Xpbd;
    DistanceLanes<Float4> l{u.x1,
                            u.y1,
                            u.z1,
                            u.x2,
                            u.y2,
                            u.z2,
                            u.w1,
                            u.w2,
                            Float4::load(b.minLength),
                            Float4::load(b.maxLength),
                            kMethod == BatchMethod::Pbd ? Float4::load(strengths[k].kPrime) : one,
                            xpbd ? Float4::load(strengths[k].compliance) * invH2x4 : zero,
                            xpbd ? Float4::load(lambda + 4 * k) : zero};
    const Float4 dLambda = projectDistanceLanes(l, xpbd);
    if (xpbd) (l.lambda + dLambda).store(lambda + 4 * k);
    u.store(l.p1x, l.p1y, l.p1z, l.p2x, l.p2y, l.p2z);
  }
}

template <class Loaded>
void projectBatchesBy(BatchMethod method, const DistanceBatch* batches, const DistanceBatchStrength* strengths,
                      size_t begin, size_t end, Real* lambda, Real* positions, Real invH2) {
  switch (method) {
    case BatchMethod::Pbd:
      return projectBatches<BatchMethod::Pbd, Loaded>(batches, strengths, begin, end, lambda, positions, invH2);
    case BatchMethod::Xpbd:
      return projectBatches<BatchMethod::Xpbd, Loaded>(batches, strengths, begin, end, lambda, positions, invH2);
    case BatchMethod::RigidXpbd:
      return projectBatches<BatchMethod::RigidXpbd, Loaded>(batches, strengths, begin, end, lambda, positions, invH2);
  }
}

// ResidualSums in registers for one call: the maximum as four lanes (max is exact in any order), and the four
// running sums as locals, which the compiler keeps out of memory.
struct LaneResidualSums {
  Float4 maxAbs = Float4::splat(0);
  double sumSq[4];
  explicit LaneResidualSums(const ResidualSums& s) : sumSq{s.laneSumSq[0], s.laneSumSq[1], s.laneSumSq[2], s.laneSumSq[3]} {}
  void add(Float4 r) {
    maxAbs = pmax(maxAbs, pmax(r, Float4::splat(0) - r));  // pmax(m, NaN) = m, as std::max(m, NaN)
    const Float4 squared = r * r;
    sumSq[0] += double(squared.lane<0>()), sumSq[1] += double(squared.lane<1>());
    sumSq[2] += double(squared.lane<2>()), sumSq[3] += double(squared.lane<3>());
  }
  void addTo(ResidualSums& s) const {
    s.maxAbs = std::max({s.maxAbs, double(maxAbs.lane<0>()), double(maxAbs.lane<1>()), double(maxAbs.lane<2>()),
                         double(maxAbs.lane<3>())});
    for (int lane = 0; lane < 4; ++lane) s.laneSumSq[lane] = sumSq[lane];
  }
};

// r of four constraints whose particles' xyz start at a[lane] and c[lane]: one lane load per coordinate.
Float4 laneResiduals(const Real* const a[4], const Real* const c[4], Float4 minLength, Float4 maxLength,
                     Float4 alphaTildeLambda) {
  auto coordinate = [&](int k) {
    return Float4::gather(a[0] + k, a[1] + k, a[2] + k, a[3] + k) -
           Float4::gather(c[0] + k, c[1] + k, c[2] + k, c[3] + k);
  };
  return distanceResidual(coordinate(0), coordinate(1), coordinate(2), minLength, maxLength, alphaTildeLambda);
}

}  // namespace

// Four lanes at a time from the unpadded positions (the solve's last writes are there, not in the padded copy): the
// residual record runs after every pass of every substep while the demo's convergence plot is on, and one
// evalDistance per constraint cost a third of the solver comparison's frame.
void addDistanceBatchResiduals(const DistanceBatch* batches, const DistanceBatchStrength* strengths,
                               const Real* lambda, size_t begin, size_t end, const Real* xyz, uint32_t n, bool xpbd,
                               Real invH2, ResidualSums& sums) {
  const Float4 zero = Float4::splat(0), invH2x4 = Float4::splat(invH2);
  LaneResidualSums laneSums(sums);
  for (size_t k = begin; k < end; ++k) {
    const DistanceBatch& b = batches[k];
    const Real* a[4];
    const Real* c[4];
    for (int lane = 0; lane < 4; ++lane) {
      const bool real = b.i[lane] < n && b.j[lane] < n;  // else the padding particle: both ends at particle 0
      a[lane] = xyz + 3 * size_t(real ? b.i[lane] : 0);
      c[lane] = xyz + 3 * size_t(real ? b.j[lane] : 0);
    }
    const Float4 alphaTildeLambda =
        xpbd ? Float4::load(strengths[k].compliance) * invH2x4 * Float4::load(lambda + 4 * k) : zero;
    laneSums.add(laneResiduals(a, c, Float4::load(b.minLength), Float4::load(b.maxLength), alphaTildeLambda));
  }
  laneSums.addTo(sums);
}

void addDistanceResiduals(const DistanceConstraint* cs, const Real* lambda, size_t begin, size_t end,
                          const Real* xyz, bool xpbd, Real invH2, ResidualSums& sums) {
  const Float4 invH2x4 = Float4::splat(invH2);
  LaneResidualSums laneSums(sums);
  size_t k = begin;
  for (; k + 4 <= end; k += 4) {
    const DistanceConstraint* q = cs + k;
    const Real* a[4] = {xyz + 3 * size_t(q[0].i), xyz + 3 * size_t(q[1].i), xyz + 3 * size_t(q[2].i),
                        xyz + 3 * size_t(q[3].i)};
    const Real* c[4] = {xyz + 3 * size_t(q[0].j), xyz + 3 * size_t(q[1].j), xyz + 3 * size_t(q[2].j),
                        xyz + 3 * size_t(q[3].j)};
    const Float4 alphaTildeLambda =
        xpbd ? Float4::make(q[0].compliance, q[1].compliance, q[2].compliance, q[3].compliance) * invH2x4 *
                   Float4::load(lambda + k)
             : Float4::splat(0);
    laneSums.add(laneResiduals(a, c, Float4::make(q[0].minLength, q[1].minLength, q[2].minLength, q[3].minLength),
                               Float4::make(q[0].maxLength, q[1].maxLength, q[2].maxLength, q[3].maxLength),
                               alphaTildeLambda));
  }
  laneSums.addTo(sums);
  for (; k < end; ++k) {
    const Real* a = xyz + 3 * size_t(cs[k].i);
    const Real* c = xyz + 3 * size_t(cs[k].j);
    sums.add(distanceResidual(a[0] - c[0], a[1] - c[1], a[2] - c[2], cs[k].minLength, cs[k].maxLength,
                              xpbd ? cs[k].compliance * invH2 * lambda[k] : Real(0)),
             unsigned(k - begin) % 4);
  }
}

void projectDistanceBatches(const DistanceBatch* batches, const DistanceBatchStrength* strengths, size_t begin,
                            size_t end, Real* lambda, Real* xyzw, BatchMethod method, Real invH2) {
  projectBatchesBy<LoadedBatch>(method, batches, strengths, begin, end, lambda, xyzw, invH2);
}

void projectBandedDistanceBatches(const DistanceBatch* batches, const DistanceBatchStrength* strengths, size_t begin,
                                  size_t end, Real* lambda, Real* bands, BatchMethod method, Real invH2,
                                  uint32_t shift) {
  if (shift) projectBatchesBy<BandedBatch<true>>(method, batches, strengths, begin, end, lambda, bands, invH2);
  else projectBatchesBy<BandedBatch<false>>(method, batches, strengths, begin, end, lambda, bands, invH2);
}

}  // namespace pbd
