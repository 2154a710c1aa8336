// Value checks of the structs read from a world snapshot: the same rules the add* functions and builders enforce
// (indices in range, finite values, strengths in range), so that a blob which passes the checksum but carries a NaN
// or a bad index is still refused. Fast path: plain comparisons; on failure the check:: helpers build the message,
// e.g. "loadSnapshot: distances[3].i is out of range [0, 4) (got 7)". Only src/world/snapshot.cpp includes this.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "base/checks.h"
#include "world/world_state.h"

namespace pbd::snapshot {

/// Checks of element k of a saved array; the message names it only when a check fails.
class ElementCheck {
 public:
  ElementCheck(const char* array, size_t k) : array_(array), k_(k) {}

  void index(const char* field, uint64_t v, uint64_t count) const {
    if (v >= count) check::index(kFn, name(field), v, count);
  }
  void finite(const char* field, Real v) const {
    if (!std::isfinite(v)) check::finite(kFn, name(field), v);
  }
  template <class Matrix> void finiteAll(const char* field, const Matrix& m) const {
    for (int k = 0; k < int(m.size()); ++k) finite(field, m.data()[k]);
  }
  void atLeast(const char* field, Real v, Real min) const {
    if (!(std::isfinite(v) && v >= min)) check::atLeast(kFn, name(field), v, min);
  }
  /// v >= min, +∞ allowed (compliances that mean "no resistance"); NaN and -∞ refused.
  void atLeastOrInfinite(const char* field, Real v, Real min) const {
    if (!(v >= min)) check::fail(kFn, name(field), ("must be >= " + check::bound(min) + " or +inf").c_str(), v);
  }
  void positive(const char* field, Real v) const {
    if (!(std::isfinite(v) && v > 0)) check::positive(kFn, name(field), v);
  }
  void inRange(const char* field, Real v, Real lo, Real hi) const {
    if (!(v >= lo && v <= hi)) check::inRange(kFn, name(field), v, lo, hi);
  }
  /// A strength as checkStrength accepts it, plus its cached k' (in [0, 1] like any PBD stiffness).
  void strength(Real compliance, Real stiffness, Real kPrime) const {
    atLeast("compliance", compliance, 0);
    stiffnessAndKPrime("stiffness", stiffness, "kPrime", kPrime);
  }
  void stiffnessAndKPrime(const char* stiffnessName, Real stiffness, const char* kPrimeName, Real kPrime) const {
    inRange(stiffnessName, stiffness, 0, 1);
    inRange(kPrimeName, kPrime, 0, 1);
  }
  /// n particle indices, each < count and all different.
  void particles(const char* field, const uint32_t* p, int n, uint32_t count) const {
    for (int a = 0; a < n; ++a) {
      index(field, p[a], count);
      for (int b = 0; b < a; ++b)
        if (p[a] == p[b]) check::fail(kFn, name(field), "repeats a particle", p[a]);
    }
  }
  template <class T> [[noreturn]] void fail(const char* field, const char* reason, const T& got) const {
    check::fail(kFn, name(field), reason, got);
  }

 private:
  static constexpr const char* kFn = "loadSnapshot";
  std::string name(const char* field) const {
    return std::string(array_) + "[" + std::to_string(k_) + "]" + (field[0] ? "." : "") + field;
  }
  const char* array_;
  size_t k_;
};

inline void checkElement(const ElementCheck& c, const ParticleRange& r, uint32_t n) {
  if (r.end > n) c.fail("end", ("must be <= the particle count " + std::to_string(n)).c_str(), r.end);
  if (r.begin >= r.end) c.fail("begin", "must be < end", r.begin);
}
inline void checkElement(const ElementCheck& c, const DistanceConstraint& d, uint32_t n) {
  const uint32_t ij[2] = {d.i, d.j};
  c.particles("i/j", ij, 2, n);
  c.atLeast("minLength", d.minLength, 0);
  c.atLeast("maxLength", d.maxLength, d.minLength);
  c.strength(d.compliance, d.stiffness, d.kPrime);
}
inline void checkElement(const ElementCheck& c, const DihedralConstraint& d, uint32_t n) {
  const uint32_t p[4] = {d.p0, d.p1, d.p2, d.p3};
  c.particles("p", p, 4, n);
  const Real pi = Real(M_PI);  // rest angles come from atan2 in float: up to float(π), a hair above π
  c.inRange("restAngle", d.restAngle, -pi, pi);
  c.strength(d.compliance, d.stiffness, d.kPrime);
}
inline void checkElement(const ElementCheck& c, const TetVolumeConstraint& t, uint32_t n) {
  c.particles("p", t.p, 4, n);
  c.positive("restVolume", t.restVolume);
  c.strength(t.compliance, t.stiffness, t.kPrime);
}
inline void checkElement(const ElementCheck& c, const Tether& t, uint32_t n) {
  c.index("particle", t.particle, n);
  c.index("anchor", t.anchor, n);
  c.atLeast("maxLength", t.maxLength, 0);
}
inline void checkElement(const ElementCheck& c, const NeoHookeanTet& e, uint32_t n) {
  c.particles("p", e.p, 4, n);
  c.finiteAll("restInverse", e.restInverse);
  c.positive("restVolume", e.restVolume);
  c.atLeast("gamma", e.gamma, 1);
  c.atLeastOrInfinite("deviatoricCompliance", e.deviatoricCompliance, 0);
  c.atLeastOrInfinite("hydrostaticCompliance", e.hydrostaticCompliance, 0);
  c.stiffnessAndKPrime("deviatoricStiffness", e.deviatoricStiffness, "deviatoricKPrime", e.deviatoricKPrime);
  c.stiffnessAndKPrime("hydrostaticStiffness", e.hydrostaticStiffness, "hydrostaticKPrime", e.hydrostaticKPrime);
}
inline void checkElement(const ElementCheck& c, const TriangleStrainConstraint& t, uint32_t n) {
  c.particles("p", t.p, 3, n);
  c.finiteAll("restInverse", t.restInverse);
  c.positive("restArea", t.restArea);
  c.atLeastOrInfinite("stretchCompliance", t.stretchCompliance, 0);
  c.atLeastOrInfinite("shearCompliance", t.shearCompliance, 0);
  c.stiffnessAndKPrime("stretchStiffness", t.stretchStiffness, "stretchKPrime", t.stretchKPrime);
  c.stiffnessAndKPrime("shearStiffness", t.shearStiffness, "shearKPrime", t.shearKPrime);
}
inline void checkElement(const ElementCheck& c, const Attachment& a, uint32_t n) {
  c.index("particle", a.particle, n);
  c.finiteAll("target", a.target);
  c.finiteAll("startTarget", a.startTarget);
  c.strength(a.compliance, a.stiffness, a.kPrime);
}
inline void checkElement(const ElementCheck& c, const SkinnedConstraint& k, uint32_t n) {
  c.index("particle", k.particle, n);
  c.atLeast("maxDistance", k.maxDistance, 0);
  if (k.backstopDistance != -1) c.atLeast("backstopDistance", k.backstopDistance, 0);
  c.atLeast("backstopRadius", k.backstopRadius, 0);
  c.finiteAll("target", k.target);
  c.finiteAll("startTarget", k.startTarget);
  c.finiteAll("normal", k.normal);
  c.finiteAll("startNormal", k.startNormal);
}
inline void checkElement(const ElementCheck& c, const RodSegment& r, uint32_t n) {
  c.index("p0", r.p0, n);
  if (r.p1 != r.p0 + 1) c.fail("p1", "must be p0 + 1", r.p1);
  c.positive("restLength", r.restLength);
  c.atLeast("inverseInertia", r.inverseInertia, 0);
  c.finite("inverseInertia", r.inverseInertia);
  for (int a = 0; a < 3; ++a) c.atLeast("compliance", r.compliance[a], 0), c.finite("compliance", r.compliance[a]);
}
/// A unit quaternion within float round-off (the world normalizes every rotation it is given).
inline void checkRotation(const ElementCheck& c, const char* field, const Quat& q) {
  c.finiteAll(field, q.coeffs());
  if (!(std::abs(q.norm() - 1) < Real(1e-4))) c.fail(field, "must be a unit quaternion (norm)", q.norm());
}
/// The collider's shape and material are checked by addCollider; these are its poses.
inline void checkPoses(const ElementCheck& c, const Collider& col) {
  checkRotation(c, "rotation", col.def.rotation);
  c.finiteAll("startPosition", col.startPosition);
  checkRotation(c, "startRotation", col.startRotation);
  c.finiteAll("subStartPosition", col.subStartPosition);
  c.finiteAll("subEndPosition", col.subEndPosition);
  checkRotation(c, "subStartRotation", col.subStartRotation);
  checkRotation(c, "subEndRotation", col.subEndRotation);
}

/// Runs checkElement on every element of `v`.
template <class T> void checkAll(const char* array, const std::vector<T>& v, uint32_t particleCount) {
  for (size_t k = 0; k < v.size(); ++k) checkElement(ElementCheck(array, k), v[k], particleCount);
}

}  // namespace pbd::snapshot
