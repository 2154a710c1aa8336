#include "constraints/tet_volume.h"

#include <type_traits>

namespace pbd {

void projectTetVolumesBatched(const TetVolumeConstraint* cs, const uint32_t* order, size_t begin, size_t end,
                              Real* lambda, Real* xyzw, bool xpbd, Real invH2) {
  constexpr Real kInf = std::numeric_limits<Real>::infinity();
  for (size_t n = begin; n < end; n += 4) {
    uint32_t k[4];
    batchOfFour(order, n, end, k);
    const TetVolumeConstraint *a = &cs[k[0]], *b = &cs[k[1]], *c = &cs[k[2]], *d = &cs[k[3]];
    PaddedLanes v[4];
    TetVolumeLanes<Float4> l;
    for (int q = 0; q < 4; ++q) {
      v[q] = loadPaddedLanes(xyzw, a->p[q], b->p[q], c->p[q], d->p[q]);
      l.x[q] = v[q].x, l.y[q] = v[q].y, l.z[q] = v[q].z, l.w[q] = v[q].w;
    }
    l.restVolume = Float4::make(a->restVolume, b->restVolume, c->restVolume, d->restVolume);
    l.maxC = Float4::make(a->unilateral ? 0 : kInf, b->unilateral ? 0 : kInf, c->unilateral ? 0 : kInf,
                          d->unilateral ? 0 : kInf);
    l.kPrime = Float4::make(a->kPrime, b->kPrime, c->kPrime, d->kPrime);
    l.alphaTilde = Float4::make(a->compliance, b->compliance, c->compliance, d->compliance) * Float4::splat(invH2);
    l.lambda = Float4::gather(lambda + k[0], lambda + k[1], lambda + k[2], lambda + k[3]);
    const Float4 dLambda = projectTetVolumeLanes(l, xpbd);
    (l.lambda + dLambda).scatter(lambda + k[0], lambda + k[1], lambda + k[2], lambda + k[3]);
    // The four tets share no particle (or are one tet repeated), so the store order does not matter.
    for (int q = 0; q < 4; ++q) storePaddedLanes(v[q], l.x[q], l.y[q], l.z[q]);
  }
}

void PackedTetVolumes::reserve(size_t count) {
  particles.reserve(4 * count);
  restVolume.reserve(count), maxC.reserve(count), kPrime.reserve(count), compliance.reserve(count);
  placed.reserve(count);
}

void PackedTetVolumes::pack(const TetVolumeConstraint* cs, const uint32_t* order, size_t count,
                            const uint32_t* placeOf) {
  particles.resize(4 * count);
  restVolume.resize(count), maxC.resize(count), kPrime.resize(count), compliance.resize(count);
  placed.clear();
  if (placeOf) {
    placed.assign(cs, cs + count);
    for (TetVolumeConstraint& t : placed)
      for (uint32_t& i : t.p) i = placeOf[i];
  }
  const TetVolumeConstraint* whole = tets(cs);
  rigid = true, anyUnilateral = false;
  for (size_t n = 0; n < count; ++n) {
    const TetVolumeConstraint& t = whole[order[n]];
    for (int q = 0; q < 4; ++q) particles[4 * n + q] = t.p[q];
    restVolume[n] = t.restVolume;
    maxC[n] = t.unilateral ? 0 : std::numeric_limits<Real>::infinity();
    kPrime[n] = t.kPrime, compliance[n] = t.compliance;
    rigid &= t.compliance == 0;
    anyUnilateral |= t.unilateral;
  }
}

namespace {

/// projectPackedTetVolumes' whole fours from `begin`, compiled per case: kRigidXpbd (XPBD, every compliance 0) reads
/// neither strengths nor multipliers (α̃ = 0: the step −(C + α̃λ)/(w∇C² + α̃) is −C/w∇C², the same bits), and
/// without kUnilateral C is not clamped (maxC = +inf leaves it as it is). Returns where the whole fours end.
template <bool kXpbd, bool kRigidXpbd, bool kUnilateral>
size_t projectWholeFours(const PackedTetVolumes& packed, const uint32_t* order, size_t begin, size_t end,
                         Real* lambda, Real* xyzw, Real invH2) {
  const Float4 zero = Float4::splat(0), invH2x4 = Float4::splat(invH2);
  size_t n = begin;
  for (; n + 4 <= end; n += 4) {
    const uint32_t* ids = packed.particles.data() + 4 * n;  // position n + lane's vertex q at ids[4 lane + q]
    PaddedLanes v[4];
    TetVolumeLanes<Float4> l;
    for (int q = 0; q < 4; ++q) {
      v[q] = loadPaddedLanes(xyzw, ids[q], ids[4 + q], ids[8 + q], ids[12 + q]);
      l.x[q] = v[q].x, l.y[q] = v[q].y, l.z[q] = v[q].z, l.w[q] = v[q].w;
    }
    l.restVolume = Float4::load(packed.restVolume.data() + n);
    if constexpr (kUnilateral) l.maxC = Float4::load(packed.maxC.data() + n);
    bool multipliers = false;
    if constexpr (kRigidXpbd) {
      l.alphaTilde = l.lambda = zero;
    } else {
      if constexpr (!kXpbd) l.kPrime = Float4::load(packed.kPrime.data() + n);
      const Float4 compliance = Float4::load(packed.compliance.data() + n);
      multipliers = kXpbd && !all(compliance == zero);
      l.alphaTilde = compliance * invH2x4;
      l.lambda = multipliers ? Float4::gather(lambda + order[n], lambda + order[n + 1], lambda + order[n + 2],
                                              lambda + order[n + 3])
                             : zero;
    }
    const Float4 dLambda = projectTetVolumeLanes<Float4, kUnilateral>(l, kXpbd);
    if (multipliers)
      (l.lambda + dLambda)
          .scatter(lambda + order[n], lambda + order[n + 1], lambda + order[n + 2], lambda + order[n + 3]);
    for (int q = 0; q < 4; ++q) storePaddedLanes(v[q], l.x[q], l.y[q], l.z[q]);
  }
  return n;
}

}  // namespace

void projectPackedTetVolumes(const PackedTetVolumes& packed, const TetVolumeConstraint* cs, const uint32_t* order,
                             size_t begin, size_t end, Real* lambda, Real* xyzw, bool xpbd, Real invH2) {
  auto fours = [&](auto unilateral) {
    constexpr bool kUnilateral = decltype(unilateral)::value;
    if (!xpbd) return projectWholeFours<false, false, kUnilateral>(packed, order, begin, end, lambda, xyzw, invH2);
    if (packed.rigid) return projectWholeFours<true, true, kUnilateral>(packed, order, begin, end, lambda, xyzw, invH2);
    return projectWholeFours<true, false, kUnilateral>(packed, order, begin, end, lambda, xyzw, invH2);
  };
  const size_t n = packed.anyUnilateral ? fours(std::true_type()) : fours(std::false_type());
  if (n < end) projectTetVolumesBatched(cs, order, n, end, lambda, xyzw, xpbd, invH2);
}

}  // namespace pbd
