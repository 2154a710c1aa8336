// Distance constraint kernel (Müller et al. 2006, section 3.3; the min/max form is the usual unilateral extension).
//
//   d = |p1 - p2|,  C(p1, p2) = d - clamp(d, Lmin, Lmax)
//   ∇_p1 C = n = (p1 - p2) / d,   ∇_p2 C = -n
//   Δλ from constraints/multiplier.h,   Δp1 = +Δλ w1 n,   Δp2 = -Δλ w2 n
// With Lmin == Lmax == L it is the bilateral C = d - L. C is 0 (inactive) while d lies inside [Lmin, Lmax], and a C
// within the rounding of d is taken for 0 (kDistanceResolutionSquared).
//
// The projection is written once, as a template over the lane type: `float` for one constraint, `Float4` for four
// independent constraints of one colour. Both run the same IEEE operations in the same order, without branches,
// so a constraint gets the same bits whichever path projects it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "constraints/multiplier.h"
#include "math/wide_float.h"
#include "pbd/real.h"

namespace pbd {

/// A distance constraint as the solvers store it: one array of these per world (and per colour schedule).
struct DistanceConstraint {
  uint32_t i, j;     ///< Particle indices.
  Real minLength;    ///< m.
  Real maxLength;    ///< m, >= minLength; equal = bilateral.
  Real compliance;   ///< XPBD α, m/N.
  Real stiffness;    ///< PBD k in [0,1].
  Real kPrime;       ///< 1 - (1-k)^(1/iterations), refreshed when iterations change.
};

/// The inputs and outputs of one projection, per lane.
template <class T>
struct DistanceLanes {
  T p1x, p1y, p1z, p2x, p2y, p2z;  ///< In: positions; out: corrected positions.
  T w1, w2;                         ///< Inverse masses.
  T minLength, maxLength;
  T kPrime;                         ///< PBD corrected stiffness.
  T alphaTilde;                     ///< XPBD α / h².
  T lambda;                         ///< XPBD multiplier so far this substep.
};

/// How far apart two computed distances may be by rounding alone, squared and relative to d²: d = √((dx² + dy²) +
/// dz²) in float carries a relative error under 3 · 2⁻²⁴ (three rounded products and two sums, halved by the root,
/// and the root's own), so |C| = |d - L| at or below d · 2⁻²² cannot be told from 0.
inline constexpr float kDistanceResolutionSquared = 0x1p-44f;

/// Projects every lane; returns Δλ per lane (0 where inactive: inside the slack, C within d's rounding, coincident, or
/// both pinned).
template <class T>
T projectDistanceLanes(DistanceLanes<T>& l, bool xpbd) {
  using std::sqrt;
  const T dx = l.p1x - l.p2x, dy = l.p1y - l.p2y, dz = l.p1z - l.p2z;
  const T dSquared = (dx * dx + dy * dy) + dz * dz;
  const T d = sqrt(dSquared);
  const T zero = lanes<T>(0);
  const T epsilon = lanes<T>(1e-9f);
  const auto valid = d > epsilon;
  // clamp(d, Lmin, Lmax) as pmax(pmin(d, Lmax), Lmin): one instruction each instead of a compare and a select; the
  // same value as "d < Lmin ? Lmin : d > Lmax ? Lmax : d" for Lmin <= Lmax, NaN included.
  const T target = pmax(pmin(d, l.maxLength), l.minLength);
  const T C = d - target;
  const T wSum = l.w1 + l.w2;
  // A C within d's rounding (kDistanceResolutionSquared) is noise: a satisfied constraint projected again (the next
  // iteration, a sweep back) would take it for an error, and the corrections it left had a bias that slowed a
  // pendulum's swing.
  const auto active = valid & (C * C > dSquared * lanes<T>(kDistanceResolutionSquared)) & (wSum > zero);
  const T numerator = xpbd ? (-C - l.alphaTilde * l.lambda) : -(l.kPrime * C);
  const T denominator = xpbd ? (wSum + l.alphaTilde) : wSum;
  // Δλ n = (numerator / denominator) (p1 - p2) / d, as one quotient s = numerator / (denominator d) times p1 - p2:
  // one division instead of two on the kernel's critical path. Δλ = s d. An inactive lane's quotient (perhaps of a
  // zero denominator: no trap, an inf or NaN) is masked to +0.
  const T s = selectOrZero(active, numerator / (denominator * d));
  const T s1 = s * l.w1, s2 = s * l.w2;
  l.p1x = l.p1x + s1 * dx;
  l.p1y = l.p1y + s1 * dy;
  l.p1z = l.p1z + s1 * dz;
  l.p2x = l.p2x - s2 * dx;
  l.p2y = l.p2y - s2 * dy;
  l.p2z = l.p2z - s2 * dz;
  return s * d;
}

/// The value and the unit gradient direction of the distance constraint. Returns false when the constraint is
/// inactive or the particles coincide (the gradient is undefined there; no correction is the safe choice).
inline bool evalDistance(const Vec3& p1, const Vec3& p2, Real minLength, Real maxLength, Real& C, Vec3& n) {
  const Vec3 delta = p1 - p2;
  const Real d = std::sqrt((delta.x() * delta.x() + delta.y() * delta.y()) + delta.z() * delta.z());
  if (!(d > Real(1e-9))) return false;
  const Real target = d < minLength ? minLength : (d > maxLength ? maxLength : d);
  C = d - target;
  if (C == 0) return false;
  n = delta * (Real(1) / d);
  return true;
}

/// Projects one distance constraint in place; returns the multiplier step Δλ (0 when nothing was done).
inline Real projectDistance(Vec3& p1, Vec3& p2, Real w1, Real w2, Real minLength, Real maxLength, bool xpbd,
                            Real kPrime, Real alphaTilde, Real lambda) {
  DistanceLanes<float> l{p1.x(), p1.y(), p1.z(), p2.x(), p2.y(), p2.z(), w1, w2,
                         minLength, maxLength, kPrime, alphaTilde, lambda};
  const Real dLambda = projectDistanceLanes(l, xpbd);
  p1 = Vec3(l.p1x, l.p1y, l.p1z);
  p2 = Vec3(l.p2x, l.p2y, l.p2z);
  return dLambda;
}

/// Four distance constraints of one colour (they share no particle), packed lane by lane so that the batched pass
/// loads each field with one vector load instead of four scalar ones: the part every method reads, one 64-byte cache
/// line. Built from the colour schedule; a colour's last batch fills its spare lanes with the padding particle
/// (i = j = the particle count, inverse mass 0), which the kernel leaves where it is.
struct DistanceBatch {
  uint32_t i[4], j[4];   ///< Particle indices per lane.
  Real minLength[4];     ///< m.
  Real maxLength[4];     ///< m.
};

/// The strengths of the same four constraints, in an array parallel to the batches: read by PBD and by XPBD's
/// compliant batches, skipped by rigid ones, which then stream half the bytes.
struct DistanceBatchStrength {
  Real kPrime[4];        ///< PBD corrected stiffness.
  Real compliance[4];    ///< XPBD α, m/N.
};

/// Packs `count` constraints that share no particle into (count + 3) / 4 batches at `out` and their strengths at
/// `strengthOut`, lanes in order; spare lanes of the last batch point at `paddingParticle`. The constraints are
/// cs[0 .. count), or cs[picks[0]], cs[picks[1]], ... when `picks` is given.
void packDistanceBatches(const DistanceConstraint* cs, size_t count, uint32_t paddingParticle, DistanceBatch* out,
                         DistanceBatchStrength* strengthOut, const uint32_t* picks = nullptr);

/// The batched pass works on positions padded to four floats per particle, x y z and the inverse mass w, so that
/// one vector load fetches a particle. xyzw[4i..4i+3] = (xyz[3i..3i+2], w[i]) for i in [begin, end), and back.
void padPositions(const Real* xyz, const Real* inverseMasses, size_t begin, size_t end, Real* xyzw);
void unpadPositions(const Real* xyzw, size_t begin, size_t end, Real* xyz);
/// The same in another order, where xyzw place rank[i] holds particle i (order[r] the particle at place r): places
/// [begin, end) filled from their particles, and particles [begin, end) copied back from their places. Each writes
/// a contiguous range, so that threads on neighbouring ranges never write one cache line.
void padPositionsInOrder(const Real* xyz, const Real* inverseMasses, const uint32_t* order, size_t begin, size_t end,
                         Real* xyzw);
void unpadPositionsInOrder(const Real* xyzw, const uint32_t* rank, size_t begin, size_t end, Real* xyz);

/// Which projection a range of batches gets.
enum class BatchMethod : uint8_t {
  Pbd,        ///< k' C form; reads kPrime; the multipliers are neither read nor written (PBD has none).
  Xpbd,       ///< Reads compliance and the multipliers, and accumulates them.
  RigidXpbd,  ///< XPBD for batches whose four compliances are 0: reads neither strengths nor multipliers. With
              ///< α̃ = 0 the XPBD step −(C + α̃λ)/(w1 + w2 + α̃) does not depend on λ and equals PBD's with k' = 1,
              ///< so the positions get the same bits as Xpbd gives them; nothing reads a rigid constraint's λ.
};

/// Projects batches [begin, end) of independent constraints (one colour) in place on padded positions `xyzw`;
/// `lambda` holds 4 multipliers per batch, lane by lane, batch k's at lambda[4k .. 4k+3] (Xpbd only; a padding lane's
/// is read and written back unchanged). Bit-identical to calling projectDistance on each constraint in turn
/// (positions always, multipliers under Xpbd).
void projectDistanceBatches(const DistanceBatch* batches, const DistanceBatchStrength* strengths, size_t begin,
                            size_t end, Real* lambda, Real* xyzw, BatchMethod method, Real invH2);

/// The same on positions in the band layout (math/band_layout.h), for batches whose lane L has both particles in
/// band L and at the same blocks as lane 0's (i[L] = i[0] + L m, j[L] = j[0] + L m; i[0], j[0] < m): each end is then
/// one block, loaded and stored as whole vectors. With `shift` 1, lane L's second particle is in band L + 1 instead
/// (j[L] = j[3] + (L + 1) m for L < 3, j[3] < m; lane 3 must be a filler): its block's vectors are rotated a lane
/// on load and back on store. A lane with minLength 0 and maxLength +∞ is never active (C = 0),
/// so it leaves its particles where they are (adding a zero correction: a -0 coordinate may become +0): the filler of
/// a batch with fewer than four translates.
void projectBandedDistanceBatches(const DistanceBatch* batches, const DistanceBatchStrength* strengths, size_t begin,
                                  size_t end, Real* lambda, Real* bands, BatchMethod method, Real invH2,
                                  uint32_t shift = 0);

/// The residual of the convergence record per lane: r = C + α̃λ (XPBD; pass α̃λ = 0 for PBD's r = C), with C as the
/// kernel computes it from p1 - p2 = (dx, dy, dz), and C = 0 where the particles coincide (as evalDistance).
template <class T>
T distanceResidual(T dx, T dy, T dz, T minLength, T maxLength, T alphaTildeLambda) {
  using std::sqrt;
  const T d = sqrt((dx * dx + dy * dy) + dz * dz);
  const T C = d - pmax(pmin(d, maxLength), minLength);
  return select(d > lanes<T>(1e-9f), C, lanes<T>(0)) + alphaTildeLambda;
}

/// A residual's running maximum |r| and sum of r², over constraints. The sum is four running sums, one per lane of
/// the four-wide passes: one running sum made every add wait for the one before (a chain of double adds that was
/// most of the record's time). Which sum a constraint adds into depends on its place in the passes' order only, so
/// the result is the same on every run and thread count.
struct ResidualSums {
  double maxAbs = 0;                  ///< max |r|; a NaN r leaves it unchanged.
  double laneSumSq[4] = {0, 0, 0, 0};  ///< Σ r² over the constraints added into each lane.
  void add(Real r, unsigned lane) {
    maxAbs = std::max(maxAbs, double(std::abs(r)));
    laneSumSq[lane] += double(r * r);
  }
  /// Adds another's constraints, lane by lane (after this one's in each lane).
  void merge(const ResidualSums& other) {
    maxAbs = std::max(maxAbs, other.maxAbs);
    for (int lane = 0; lane < 4; ++lane) laneSumSq[lane] += other.laneSumSq[lane];
  }
  /// Σ r² over every constraint added.
  double sumSq() const { return (laneSumSq[0] + laneSumSq[1]) + (laneSumSq[2] + laneSumSq[3]); }
};

/// Adds the residuals r (distanceResidual) of the lanes of batches [begin, end) to `sums`, at positions xyz (3
/// floats per particle, n particles): α̃ = compliance · invH2 and λ from `lambda`, 4 per batch as
/// projectDistanceBatches keeps them (XPBD only). Lanes whose particle index is n or more (the padding particle, which
/// only padded positions have) count as r = 0. Lane L of each batch adds into sums' lane L, batch after batch.
void addDistanceBatchResiduals(const DistanceBatch* batches, const DistanceBatchStrength* strengths,
                               const Real* lambda, size_t begin, size_t end, const Real* xyz, uint32_t n, bool xpbd,
                               Real invH2, ResidualSums& sums);

/// The same for constraints cs[begin, end) with their multipliers lambda[begin, end) (XPBD only), in order:
/// cs[k] adds into lane (k - begin) mod 4.
void addDistanceResiduals(const DistanceConstraint* cs, const Real* lambda, size_t begin, size_t end,
                          const Real* xyz, bool xpbd, Real invH2, ResidualSums& sums);

}  // namespace pbd
