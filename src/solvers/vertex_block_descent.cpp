#include "solvers/vertex_block_descent.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>

#include "constraints/energy_contact.h"
#include "constraints/energy_dihedral.h"
#include "constraints/energy_neo_hookean.h"
#include "constraints/energy_spring.h"
#include "constraints/energy_tet_volume.h"
#include "constraints/energy_triangle_strain.h"
#include "constraints/vertex_block.h"
#include "math/wide_double.h"

namespace pbd {
namespace {

/// Vertices per range when a colour is solved in parallel; fixed, so the split never depends on the threads.
constexpr size_t kVerticesPerTask = 256;
constexpr size_t kGroupsPerTask = kVerticesPerTask / 4;
constexpr size_t kElementsPerTask = 2048;
/// stiffness_ (or bulk_) of a rigid element, which uses its penalty instead.
constexpr double kRigid = -1;

enum class Kind { Spring, Dihedral, Volume, NeoHookean, Triangle, Attachment };

struct Element {
  Kind kind;
  uint32_t index;     // in its own array
  uint32_t count;     // particles: 1, 2, 3 or 4
  uint32_t ids[4];
};

Element element(const VbdElements& e, uint32_t g) {
  if (g < e.springCount) return {Kind::Spring, g, 2, {e.springs[g].i, e.springs[g].j, 0, 0}};
  g -= e.springCount;
  if (g < e.dihedralCount) {
    const DihedralConstraint& d = e.dihedrals[g];
    return {Kind::Dihedral, g, 4, {d.p0, d.p1, d.p2, d.p3}};
  }
  g -= e.dihedralCount;
  if (g < e.volumeCount) {
    const TetVolumeConstraint& t = e.volumes[g];
    return {Kind::Volume, g, 4, {t.p[0], t.p[1], t.p[2], t.p[3]}};
  }
  g -= e.volumeCount;
  if (g < e.neoHookeanCount) {
    const NeoHookeanTet& t = e.neoHookeans[g];
    return {Kind::NeoHookean, g, 4, {t.p[0], t.p[1], t.p[2], t.p[3]}};
  }
  g -= e.neoHookeanCount;
  if (g < e.triangleCount) {
    const TriangleStrainConstraint& t = e.triangles[g];
    return {Kind::Triangle, g, 3, {t.p[0], t.p[1], t.p[2], 0}};
  }
  g -= e.triangleCount;
  return {Kind::Attachment, g, 1, {e.attachments[g].particle, 0, 0, 0}};
}

Eigen::Vector3d load(const Real* p, uint32_t i) {
  return {double(p[3 * i]), double(p[3 * i + 1]), double(p[3 * i + 2])};
}

Eigen::Vector3d vec(const Real (&a)[3]) { return {double(a[0]), double(a[1]), double(a[2])}; }

/// A contact's normal stiffness k (N/m) for a particle of inverse mass w.
double contactStiffness(Real w, double invH2) { return kVbdContactStiffnessRatio * invH2 / double(w); }

/// The vertex step H⁻¹ g of `block` with the contacts [c, end) of the particle at x added (energy_contact.h), and
/// each contact's `push` from the result. The energy is one-sided, so it enters by an active set: first the contacts
/// x is inside of, then, while a step changes the set (at most four rounds), those its result is inside of. False
/// where a block does not solve.
bool contactStep(const VertexBlock& block, VbdContact* c, VbdContact* end, const Eigen::Vector3d& x, double k,
                 double invH2, Real w, double step[3]) {
  constexpr size_t kMaxTracked = 32;  // a particle's contacts past these enter only while x is inside them
  uint32_t active = 0;                // bit j: contact c + j's quadratic ½ k s² is in the step
  for (const VbdContact* it = c; it != end && size_t(it - c) < kMaxTracked; ++it)
    if (contactSeparation(x, vec(it->point), vec(it->normal)) < 0) active |= 1u << size_t(it - c);
  Eigen::Vector3d result = x;
  for (int round = 0; round < 4; ++round) {
    VertexBlock withContacts = block;
    for (const VbdContact* it = c; it != end; ++it) {
      const size_t j = size_t(it - c);
      if (j < kMaxTracked && !(active >> j & 1u)) continue;
      Eigen::Vector3d g = Eigen::Vector3d::Zero();
      Eigen::Matrix3d h = Eigen::Matrix3d::Zero();
      addContactDerivatives(x, vec(it->point), vec(it->normal), k, j < kMaxTracked, g, h);
      withContacts.add(g, h);
    }
    if (!solveVertexBlock(withContacts, step)) return false;
    result = x - Eigen::Vector3d(step[0], step[1], step[2]);
    uint32_t next = 0;
    for (const VbdContact* it = c; it != end && size_t(it - c) < kMaxTracked; ++it)
      if (contactSeparation(result, vec(it->point), vec(it->normal)) < 0) next |= 1u << size_t(it - c);
    if (next == active) break;
    active = next;
  }
  // λ h²/m: in double, from the unrounded result (k d is far above m g where d is a fraction of a float's step).
  for (VbdContact* it = c; it != end; ++it) {
    const double depth = std::max(0.0, -contactSeparation(result, vec(it->point), vec(it->normal)));
    it->push = Real(k * depth * double(w) / invH2);
  }
  return true;
}

/// XPBD compliance and PBD stiffness of an element with one of each (Neo-Hookean tets are handled apart; a strain
/// triangle's stretch here, its shear in shearStrengthsOf).
struct Strengths {
  double compliance, stiffness;
};
Strengths strengthsOf(const VbdElements& e, const Element& el) {
  switch (el.kind) {
    case Kind::Spring: return {e.springs[el.index].compliance, e.springs[el.index].stiffness};
    case Kind::Dihedral: return {e.dihedrals[el.index].compliance, e.dihedrals[el.index].stiffness};
    case Kind::Volume: return {e.volumes[el.index].compliance, e.volumes[el.index].stiffness};
    case Kind::Attachment: return {e.attachments[el.index].compliance, e.attachments[el.index].stiffness};
    case Kind::Triangle: return {e.triangles[el.index].stretchCompliance, e.triangles[el.index].stretchStiffness};
    case Kind::NeoHookean: break;
  }
  return {0, 1};
}

Strengths shearStrengthsOf(const TriangleStrainConstraint& t) { return {t.shearCompliance, t.shearStiffness}; }

/// The mean |∇_v C|² over the element's particles in the shape x (a spring's is 1).
double meanGain(const VbdElements& e, const Element& el, const Eigen::Vector3d* x) {
  double sum = 0;
  Eigen::Vector3d g;
  for (uint32_t v = 0; v < el.count; ++v) {
    switch (el.kind) {
      case Kind::Spring:
      case Kind::Attachment: return 1;
      case Kind::Dihedral: {
        double phi;
        if (!dihedralAngleDerivatives(x, int(v), phi, g, nullptr)) return 1;
        break;
      }
      case Kind::Volume: tetVolumeAndGradientDouble(x, int(v), g); break;
      case Kind::NeoHookean: g = tetShapeGradient(e.neoHookeans[el.index].restInverse, int(v)); break;
      case Kind::Triangle: {  // the stretches' |∇_v C|² averaged: (a_v[0]² + a_v[1]²)/2
        TriangleStrainFrame t;
        if (!t.set(x, e.triangles[el.index].restInverse)) return 1;
        g = {t.a[v][0], t.a[v][1], 0};
        sum += orderedDot(g, g) / 2;
        continue;
      }
    }
    sum += orderedDot(g, g);
  }
  return sum > 0 ? sum / el.count : 1;
}

/// The xyz lanes of the four particles at[0..3] from padded positions (loadLanesOf: a vector load each and a
/// transpose).
void loadLanes(const float* padded, const uint32_t* at, Float4 (&x)[3]) {
  Float4 w;
  loadLanesOf(padded, at[0], at[1], at[2], at[3], x[0], x[1], x[2], w);
}

/// The vertex steps of the four vertices v[0..3] (one colour) whose elements are all springs and that have no
/// contacts: solveVertex's arithmetic for them, lane by lane in double pairs (the same bits), from their positions x
/// and inverse masses w (padded lanes) and their springs' sums g and h. Writes the results of lanes [0, lanes) where
/// a step solves (not a pinned vertex's).
void springVertexSteps(const uint32_t* v, uint32_t lanes, const Float4 (&x)[3], Float4 w, const Float4 (&g)[3],
                       const Float4 (&h)[6], const Real* inertial, double invH2, Real* p, float* padded) {
  Float4 y[3];
  for (size_t a = 0; a < 3; ++a)
    y[a] = Float4::gather(inertial + 3 * size_t(v[0]) + a, inertial + 3 * size_t(v[1]) + a,
                          inertial + 3 * size_t(v[2]) + a, inertial + 3 * size_t(v[3]) + a);
  Double2 result[2][3];
  unsigned solved = 0;
  for (int half = 0; half < 2; ++half) {
    auto wide = [half](Float4 f) { return half ? Double2::high(f) : Double2::low(f); };
    const Double2 inertia = Double2(invH2) / wide(w);
    Double2 bg[3], bh[6], step[3], bx[3], by[3];
    for (int a = 0; a < 3; ++a) bg[a] = wide(g[a]), bx[a] = wide(x[a]), by[a] = wide(y[a]);
    for (int a = 0; a < 6; ++a) bh[a] = wide(h[a]);
    addVertexInertia(inertia, bx, by, bg, bh);
    solved |= (solveVertexBlockLanes(bh, bg, step) & (wide(w) > Double2(0))).bits() << (2 * half);
    for (int a = 0; a < 3; ++a) result[half][a] = bx[a] - step[a];
  }
  float out[3][4];
  for (int a = 0; a < 3; ++a) toFloat4(result[0][a], result[1][a]).store(out[a]);
  for (uint32_t l = 0; l < lanes; ++l) {
    if (!(solved >> l & 1u)) continue;
    for (size_t a = 0; a < 3; ++a) p[3 * size_t(v[l]) + a] = padded[4 * size_t(v[l]) + a] = out[a][l];
  }
}

/// A rigid spring's penalty at the next substep, in float, four lanes or one: max(γ k, k_start s_e); 0 (not rigid)
/// stays 0.
template <class T>
T decayedSpringPenalty(T penalty, T inertia) {
  const T decayed =
      pmax(penalty * lanes<T>(float(kVbdWarmStartDecay)), lanes<T>(float(kVbdStartPenaltyRatio)) * inertia);
  return selectOrZero(penalty != lanes<T>(0), decayed);
}

/// The springs [begin, end) four at a time: fn(e, pen) with pen the penalties of springs e .. e + 3, in place, or for
/// a shorter tail (the penalties that follow are other elements') a copy padded with zeros (not rigid: untouched).
template <class Fn>
void forSpringLanes(size_t begin, size_t end, Real* penalty, Fn fn) {
  size_t e = begin;
  for (; e + 4 <= end; e += 4) fn(e, penalty + e);
  if (e == end) return;
  float tail[4] = {0, 0, 0, 0};
  std::copy(penalty + e, penalty + end, tail);
  fn(e, tail);
  std::copy(tail, tail + (end - e), penalty + e);
}

}  // namespace

void VertexBlockDescent::build(const VbdElements& elements, const Real* restX, size_t particleCount) {
  const uint32_t count = elements.count();
  incidenceBegin_.assign(particleCount + 1, 0);
  for (uint32_t g = 0; g < count; ++g) {
    const Element el = element(elements, g);
    for (uint32_t v = 0; v < el.count; ++v) ++incidenceBegin_[el.ids[v] + 1];
  }
  for (size_t i = 0; i < particleCount; ++i) incidenceBegin_[i + 1] += incidenceBegin_[i];
  incidences_.resize(incidenceBegin_[particleCount]);
  std::vector<uint32_t> next(incidenceBegin_.begin(), incidenceBegin_.end() - 1);
  restGain_.resize(count);
  for (uint32_t g = 0; g < count; ++g) {
    const Element el = element(elements, g);
    Eigen::Vector3d x[4];
    for (uint32_t v = 0; v < el.count; ++v) {
      incidences_[next[el.ids[v]]++] = {g, el.kind == Kind::Spring ? el.ids[1 - v] : v};
      x[v] = load(restX, el.ids[v]);
    }
    restGain_[g] = meanGain(elements, el, x);
  }
  // Greedy colouring in index order: the lowest colour that no coloured particle sharing an element has.
  // `seen[c] == i + 1` marks colour c as taken for particle i, so the marks need no clearing.
  constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
  std::vector<uint32_t> colour(particleCount, kNone), seen;
  uint32_t colours = 0;
  for (uint32_t i = 0; i < particleCount; ++i) {
    if (incidenceBegin_[i] == incidenceBegin_[i + 1]) continue;
    for (uint32_t k = incidenceBegin_[i]; k < incidenceBegin_[i + 1]; ++k) {
      const Element el = element(elements, incidences_[k].element);
      for (uint32_t v = 0; v < el.count; ++v) {
        const uint32_t c = colour[el.ids[v]];
        if (c != kNone) seen[c] = i + 1;
      }
    }
    uint32_t c = 0;
    while (c < colours && seen[c] == i + 1) ++c;
    if (c == colours) ++colours, seen.push_back(0);
    colour[i] = c;
  }
  colourBegin_.assign(colours + 1, 0);
  for (uint32_t i = 0; i < particleCount; ++i)
    if (colour[i] != kNone) ++colourBegin_[colour[i] + 1];
  for (uint32_t c = 0; c < colours; ++c) colourBegin_[c + 1] += colourBegin_[c];
  order_.resize(colourBegin_[colours]);
  std::vector<uint32_t> at(colourBegin_.begin(), colourBegin_.end() - 1);
  for (uint32_t i = 0; i < particleCount; ++i)
    if (colour[i] != kNone) order_[at[colour[i]]++] = i;
  buildGroups(elements);
  if (penalty_.size() != count) penalty_.assign(count, Real(0));
  stiffness_.resize(count), inertia_.resize(count), bulk_.resize(elements.neoHookeanCount);
  shear_.resize(elements.triangleCount);
  phases_.reserve(colours + 4), phaseSizes_.resize(colours + 4), phaseMinRanges_.resize(colours + 4);
  iterate_.assign(3 * particleCount, Real(0)), olderIterate_.assign(3 * particleCount, Real(0));
  padded_.assign(4 * particleCount, 0.0f);
  stiffnessMasses_.assign(particleCount, std::numeric_limits<Real>::quiet_NaN());  // equal to no mass
  stiffnessValid_ = false;
  dirty = false;
}

void VertexBlockDescent::buildGroups(const VbdElements& elements) {
  const size_t particles = incidenceBegin_.size() - 1;
  firstNonSpring_.resize(particles);
  for (size_t i = 0; i < particles; ++i) {
    uint32_t k = incidenceBegin_[i];
    while (k < incidenceBegin_[i + 1] && incidences_[k].element < elements.springCount) ++k;  // springs come first
    firstNonSpring_[i] = k;
  }
  groupBegin_.assign(1, 0), groupVertex_.clear(), groupLanes_.clear(), groupSpringsOnly_.clear();
  groupFixedLengths_.clear();
  slotBegin_.assign(1, 0);
  slotOther_.clear(), slotSpring_.clear(), slotMin_.clear(), slotMax_.clear();
  for (size_t c = 0; c < colourCount(); ++c) {
    for (uint32_t first = colourBegin_[c]; first < colourBegin_[c + 1]; first += 4) {
      const uint32_t lanes = std::min(4u, colourBegin_[c + 1] - first);
      uint32_t slots = 0;
      for (uint32_t l = 0; l < lanes; ++l) {
        const uint32_t i = order_[first + l];
        slots = std::max(slots, firstNonSpring_[i] - incidenceBegin_[i]);
      }
      for (uint32_t l = 0; l < 4; ++l) groupVertex_.push_back(order_[first + (l < lanes ? l : 0)]);
      groupLanes_.push_back(uint8_t(lanes));
      bool springsOnly = true;
      for (uint32_t l = 0; l < lanes; ++l) {
        const uint32_t i = order_[first + l];
        springsOnly = springsOnly && firstNonSpring_[i] == incidenceBegin_[i + 1];
      }
      groupSpringsOnly_.push_back(springsOnly);
      for (uint32_t s = 0; s < slots; ++s) {
        for (uint32_t l = 0; l < 4; ++l) {
          const uint32_t i = order_[first + (l < lanes ? l : 0)], k = incidenceBegin_[i] + s;
          const bool spring = l < lanes && k < firstNonSpring_[i];
          const DistanceConstraint* d = spring ? &elements.springs[incidences_[k].element] : nullptr;
          slotOther_.push_back(spring ? incidences_[k].other : i);
          slotSpring_.push_back(spring ? incidences_[k].element : 0);
          slotMin_.push_back(spring ? d->minLength : 0), slotMax_.push_back(spring ? d->maxLength : 0);
        }
      }
      slotBegin_.push_back(slotBegin_.back() + slots);
      groupFixedLengths_.push_back(std::equal(slotMin_.end() - 4 * slots, slotMin_.end(), slotMax_.end() - 4 * slots));
    }
    groupBegin_.push_back(uint32_t(groupLanes_.size()));
  }
  // Padded to whole lanes with springs of one particle (0) and no stiffness.
  Springs& sp = springs_;
  const size_t lanes = (size_t(elements.springCount) + 3) / 4 * 4;
  for (std::vector<float>* a : {&sp.stiffness, &sp.inertia, &sp.minLength, &sp.maxLength, &sp.invScale})
    a->assign(lanes, 0.0f);
  sp.i.assign(lanes, 0), sp.j.assign(lanes, 0);
  for (uint32_t e = 0; e < elements.springCount; ++e) {
    const DistanceConstraint& d = elements.springs[e];
    sp.i[e] = d.i, sp.j[e] = d.j, sp.minLength[e] = d.minLength, sp.maxLength[e] = d.maxLength;
    sp.invScale[e] = 1 / std::max(d.maxLength, 1e-6f);
  }
}

void VertexBlockDescent::resetPenalties() {
  std::fill(penalty_.begin(), penalty_.end(), Real(0));
  stiffnessValid_ = false;  // the refresh gives the rigid elements their starting penalty again
}

void VertexBlockDescent::beginStep(const Real* w) {
  if (std::equal(stiffnessMasses_.begin(), stiffnessMasses_.end(), w)) return;
  std::copy(w, w + stiffnessMasses_.size(), stiffnessMasses_.begin());
  stiffnessValid_ = false;
}

void VertexBlockDescent::beginSubstep(const VbdElements& elements, const Real* w, bool xpbd, double invH2,
                                      double rho, TaskSystem& tasks) {
  rho_ = rho, omega_ = 1, iteration_ = 0;
  if (stiffnessValid_ && invH2 == stiffnessInvH2_ && xpbd == stiffnessXpbd_) {  // only the warm start's decay
    const size_t springLanes = (size_t(elements.springCount) + 3) / 4;
    auto decay = [&](size_t b, size_t e) {
      if (b < springLanes)
        decaySpringPenalties(4 * b, std::min<size_t>(4 * std::min(e, springLanes), elements.springCount));
      for (size_t k = std::max(b, springLanes); k < e; ++k) {
        const size_t g = k - springLanes + elements.springCount;
        if (penalty_[g] == 0) continue;  // not rigid
        penalty_[g] = Real(std::max(penalty_[g] * kVbdWarmStartDecay, kVbdStartPenaltyRatio * inertia_[g]));
      }
    };
    tasks.parallelFor(springLanes + penalty_.size() - elements.springCount, kElementsPerTask / 4, decay);
    return;
  }
  stiffnessValid_ = true, stiffnessInvH2_ = invH2, stiffnessXpbd_ = xpbd;
  auto refresh = [&](size_t b, size_t e) {
    for (size_t g = b; g < e; ++g) refreshStiffness(uint32_t(g), elements, w, xpbd, invH2);
  };
  tasks.parallelFor(stiffness_.size(), kElementsPerTask, refresh);
}

void VertexBlockDescent::refreshStiffness(uint32_t g, const VbdElements& elements, const Real* w, bool xpbd,
                                          double invH2) {
  const Element el = element(elements, g);
  double massSum = 0;
  uint32_t free = 0;
  for (uint32_t v = 0; v < el.count; ++v)
    if (w[el.ids[v]] > 0) massSum += 1 / double(w[el.ids[v]]), ++free;
  // s_e: the mean mass of the free particles over h² ḡ (an element of pins only does nothing; any scale).
  const double inertia = (free > 0 ? massSum / free : 1) * invH2 / restGain_[g];
  const double cap = kVbdMaxStiffnessRatio * inertia;
  inertia_[g] = inertia;
  const double kept = std::isfinite(penalty_[g]) ? penalty_[g] * kVbdWarmStartDecay : 0;
  Real penalty = Real(std::clamp(kept, kVbdStartPenaltyRatio * inertia, cap));
  if (g < elements.springCount && penalty_[g] != 0 && std::isfinite(penalty_[g])) {
    // decaySpringPenalties' decay: a refresh that changes nothing continues as if it had not run (a world loaded
    // from a snapshot refreshes at its first step; the one it was saved from may not).
    penalty = decayedSpringPenalty(penalty_[g], float(inertia));
  }
  if (el.kind == Kind::NeoHookean) {
    const NeoHookeanTet& t = elements.neoHookeans[el.index];
    const double v0 = t.restVolume;
    // μ = 1/(α_D V0) (α_D = +∞: none); λ' = 1/(α_H V0), or the penalty's for an incompressible tet (α_H = 0).
    stiffness_[g] = t.deviatoricCompliance < std::numeric_limits<Real>::infinity()
                        ? std::min(1 / (double(t.deviatoricCompliance) * v0), cap / v0)
                        : 0;
    const bool incompressible = !(t.hydrostaticCompliance > 0);
    bulk_[el.index] = incompressible ? kRigid : std::min(1 / (double(t.hydrostaticCompliance) * v0), cap / v0);
    penalty_[g] = incompressible ? penalty : 0;
    return;
  }
  // k for this method, or kRigid.
  auto stiffnessFor = [&](const Strengths& s) {
    if (xpbd ? !(s.compliance > 0) : s.stiffness >= 1) return kRigid;
    if (xpbd) return std::min(1 / s.compliance, cap);
    const double k = s.stiffness > 0 ? s.stiffness : 0;
    return std::min(k / (1 - k), kVbdMaxStiffnessRatio) * inertia;
  };
  stiffness_[g] = stiffnessFor(strengthsOf(elements, el));
  bool rigid = stiffness_[g] == kRigid;
  if (el.kind == Kind::Triangle) {
    shear_[el.index] = stiffnessFor(shearStrengthsOf(elements.triangles[el.index]));
    rigid = rigid || shear_[el.index] == kRigid;
  }
  penalty_[g] = rigid ? penalty : 0;
  if (g < elements.springCount) {
    springs_.stiffness[g] = rigid ? penalty_[g] : float(stiffness_[g]);
    springs_.inertia[g] = float(inertia);
  }
}

void VertexBlockDescent::solveGroup(uint32_t q, Real* p, float* padded, const Real* inertial, const Real* w,
                                    const VbdElements& elements, const VbdContacts& contacts, double invH2) const {
  const uint32_t* v = &groupVertex_[4 * size_t(q)];
  Float4 x[3], g[3], h[6], inverseMass;
  loadLanesOf(padded, v[0], v[1], v[2], v[3], x[0], x[1], x[2], inverseMass);
  for (Float4& a : g) a = Float4::splat(0);
  for (Float4& a : h) a = Float4::splat(0);
  const float* k = springs_.stiffness.data();
  auto springs = [&](auto add) {
    for (size_t s = slotBegin_[q]; s < slotBegin_[q + 1]; ++s) {
      const uint32_t* spring = &slotSpring_[4 * s];
      Float4 xo[3];
      loadLanes(padded, &slotOther_[4 * s], xo);
      add(s, xo, Float4::gather(k + spring[0], k + spring[1], k + spring[2], k + spring[3]));
    }
  };
  if (groupFixedLengths_[q]) {
    springs([&](size_t s, const Float4(&xo)[3], Float4 stiffness) {
      addFixedSpringVertexBlockLanes(x, xo, Float4::load(&slotMax_[4 * s]), stiffness, g, h);
    });
  } else {
    springs([&](size_t s, const Float4(&xo)[3], Float4 stiffness) {
      addSpringVertexBlockLanes(x, xo, Float4::load(&slotMin_[4 * s]), Float4::load(&slotMax_[4 * s]), stiffness, g, h);
    });
  }
  const uint32_t lanes = groupLanes_[q];
  bool springsOnly = groupSpringsOnly_[q];
  for (uint32_t l = 0; l < lanes && springsOnly && contacts.begin; ++l)
    springsOnly = contacts.begin[v[l]] == contacts.begin[v[l] + 1];
  if (springsOnly) return springVertexSteps(v, lanes, x, inverseMass, g, h, inertial, invH2, p, padded);
  float gs[3][4], hs[6][4];
  for (int a = 0; a < 3; ++a) g[a].store(gs[a]);
  for (int a = 0; a < 6; ++a) h[a].store(hs[a]);
  for (uint32_t l = 0; l < lanes; ++l) {
    const float springG[3] = {gs[0][l], gs[1][l], gs[2][l]};
    const float springH[6] = {hs[0][l], hs[1][l], hs[2][l], hs[3][l], hs[4][l], hs[5][l]};
    solveVertex(v[l], springG, springH, p, padded, inertial, w, elements, contacts, invH2);
  }
}

void VertexBlockDescent::solveVertex(uint32_t i, const float springG[3], const float springH[6], Real* p,
                                     float* padded, const Real* inertial, const Real* w,
                                     const VbdElements& elements, const VbdContacts& contacts, double invH2) const {
  if (!(w[i] > 0)) return;  // pinned
  const double inertia = invH2 / double(w[i]);
  const Eigen::Vector3d x = load(p, i), y = load(inertial, i);
  VertexBlock block;
  for (int a = 0; a < 3; ++a) block.g[a] = double(springG[a]);
  for (int a = 0; a < 6; ++a) block.h[a] = double(springH[a]);
  addVertexInertia(inertia, x.data(), y.data(), block.g, block.h);
  Eigen::Vector3d g;
  Eigen::Matrix3d h;
  for (uint32_t k = firstNonSpring_[i]; k < incidenceBegin_[i + 1]; ++k) {
    const uint32_t e = incidences_[k].element;
    const double stiffness = stiffness_[e] == kRigid ? penalty_[e] : stiffness_[e];
    const int corner = int(incidences_[k].other);
    const Element el = element(elements, e);
    if (el.kind == Kind::Attachment) {  // ½ k |x - t|²: k (x - t) and k I
      const VbdAttachment& at = elements.attachments[el.index];
      if (!at.active) continue;
      for (int a = 0; a < 3; ++a) block.g[a] += stiffness * (x[a] - double(at.target[a]));
      block.h[0] += stiffness, block.h[3] += stiffness, block.h[5] += stiffness;
      continue;
    }
    Eigen::Vector3d xs[4];
    for (uint32_t v = 0; v < el.count; ++v) xs[v] = el.ids[v] == i ? x : load(p, el.ids[v]);
    switch (el.kind) {
      case Kind::Dihedral:
        dihedralVertexDerivatives(xs, elements.dihedrals[el.index].restAngle, stiffness, corner, true, g, h);
        break;
      case Kind::Volume: {
        const TetVolumeConstraint& t = elements.volumes[el.index];
        tetVolumeVertexDerivatives(xs, t.restVolume, stiffness, t.unilateral, corner, true, g, h);
        break;
      }
      case Kind::NeoHookean: {
        const NeoHookeanTet& t = elements.neoHookeans[el.index];
        const double bulk = bulk_[el.index] == kRigid ? penalty_[e] / double(t.restVolume) : bulk_[el.index];
        neoHookeanVertexDerivatives(xs, t.restInverse, t.restVolume, stiffness_[e], bulk, corner, true, g, h);
        break;
      }
      case Kind::Triangle: {
        const double shear = shear_[el.index] == kRigid ? penalty_[e] : shear_[el.index];
        triangleStrainVertexDerivatives(xs, elements.triangles[el.index].restInverse, stiffness, shear, corner, true,
                                        g, h);
        break;
      }
      case Kind::Spring:
      case Kind::Attachment: break;
    }
    block.add(g, h);
  }
  // H is SPD (m/h² I plus PSD blocks); a failed solve (a non-finite block) moves nothing.
  double step[3];
  const uint32_t first = contacts.begin ? contacts.begin[i] : 0, last = contacts.begin ? contacts.begin[i + 1] : 0;
  const bool solved = first == last ? solveVertexBlock(block, step)
                                    : contactStep(block, contacts.contacts + first, contacts.contacts + last, x,
                                                  contactStiffness(w[i], invH2), invH2, w[i], step);
  if (!solved) return;
  for (int a = 0; a < 3; ++a) p[3 * i + a] = padded[4 * size_t(i) + a] = Real(x[a] - step[a]);
}

/// A rigid element's penalty after an iteration, as growSpringPenalties does for the springs.
void VertexBlockDescent::growPenalty(uint32_t e, const Real* p, const VbdElements& elements) {
  if (penalty_[e] == 0) return;  // not rigid
  double violation = 0, scale = 1;  // C and C_ref
  const Element el = element(elements, e);
  Eigen::Vector3d xs[4], unused;
  for (uint32_t v = 0; v < el.count; ++v) xs[v] = load(p, el.ids[v]);
  switch (el.kind) {
    case Kind::Dihedral: {
      double phi;
      if (dihedralAngleDerivatives(xs, 0, phi, unused, nullptr))
        violation = wrapAngleDouble(phi - elements.dihedrals[el.index].restAngle);
      break;
    }
    case Kind::Volume: {
      const TetVolumeConstraint& t = elements.volumes[el.index];
      violation = tetVolumeAndGradientDouble(xs, 1, unused) - t.restVolume;  // v = 1: the fewest divisions
      if (t.unilateral) violation = std::min(violation, 0.0);
      scale = t.restVolume;
      break;
    }
    case Kind::NeoHookean: {
      const NeoHookeanTet& t = elements.neoHookeans[el.index];
      violation = orderedDeterminant(tetDeformationGradientDouble(xs, t.restInverse)) -
                  neoHookeanEnergyGamma(stiffness_[e], penalty_[e] / double(t.restVolume));
      break;
    }
    case Kind::Triangle: {  // the largest |C| of its rigid constraints
      TriangleStrainFrame t;
      if (!t.set(xs, elements.triangles[el.index].restInverse)) break;
      if (stiffness_[e] == kRigid) violation = std::max(std::abs(t.l[0] - 1), std::abs(t.l[1] - 1));
      if (shear_[el.index] == kRigid) violation = std::max(violation, std::abs(t.shear()));
      break;
    }
    case Kind::Attachment: {
      const VbdAttachment& at = elements.attachments[el.index];
      if (at.active) {
        const Eigen::Vector3d d = xs[0] - Eigen::Vector3d(at.target[0], at.target[1], at.target[2]);
        violation = std::sqrt(orderedDot(d, d));
      }
      break;
    }
    case Kind::Spring: break;
  }
  penalty_[e] = Real(std::min(penalty_[e] + kVbdPenaltyGrowth * inertia_[e] * std::abs(violation) / scale,
                              kVbdMaxStiffnessRatio * inertia_[e]));
}

void VertexBlockDescent::decaySpringPenalties(size_t begin, size_t end) {
  forSpringLanes(begin, end, penalty_.data(), [&](size_t e, float* pen) {
    const Float4 old = Float4::load(pen);
    const Mask4 rigid = old != Float4::splat(0);
    if (!any(rigid)) return;  // no rigid spring: nothing decays
    const Float4 next = decayedSpringPenalty(old, Float4::load(&springs_.inertia[e]));
    next.store(pen);
    select(rigid, next, Float4::load(&springs_.stiffness[e])).store(&springs_.stiffness[e]);
  });
}

/// A rigid spring's penalty after an iteration (the top of the header): k += β s_e |C|/C_ref, up to the cap.
void VertexBlockDescent::growSpringPenalties(size_t begin, size_t end, const float* padded) {
  const Springs& sp = springs_;
  const Float4 zero = Float4::splat(0), growth = Float4::splat(float(kVbdPenaltyGrowth));
  const Float4 cap = Float4::splat(float(kVbdMaxStiffnessRatio));
  forSpringLanes(begin, end, penalty_.data(), [&](size_t e, float* pen) {
    const Float4 old = Float4::load(pen);
    const Mask4 rigid = old != zero;
    if (!any(rigid)) return;  // no rigid spring: nothing grows, the stiffnesses stay
    Float4 xi[3], xj[3];
    loadLanes(padded, &sp.i[e], xi), loadLanes(padded, &sp.j[e], xj);
    const Float4 d[3] = {xi[0] - xj[0], xi[1] - xj[1], xi[2] - xj[2]};
    const Float4 l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    const Float4 c = l - pmin(pmax(l, Float4::load(&sp.minLength[e])), Float4::load(&sp.maxLength[e]));
    const Float4 absC = absLanes(c), s = Float4::load(&sp.inertia[e]);
    const Float4 next = selectOrZero(rigid, pmin(old + growth * s * absC * Float4::load(&sp.invScale[e]), cap * s));
    next.store(pen);
    select(rigid, next, Float4::load(&sp.stiffness[e])).store(&springs_.stiffness[e]);
  });
}

void VertexBlockDescent::iterate(Real* p, const Real* inertial, const Real* w, const VbdElements& elements,
                                 const VbdContacts& contacts, double invH2, TaskSystem& tasks) {
  // Chebyshev's ω_1 = 1, ω_2 = 2/(2 - ρ²), ω_n = 4/(4 - ρ² ω_{n-1}) (Chen et al. 2024, §3.8).
  ++iteration_;
  const bool accelerate = rho_ > 0;
  const double rho2 = rho_ * rho_;
  omega_ = iteration_ == 1 ? 1 : iteration_ == 2 ? 2 / (2 - rho2) : 4 / (4 - rho2 * omega_);
  const size_t vertices = order_.size();
  phases_.clear();
  auto add = [&](PhaseKind kind, uint32_t colour, size_t size, size_t minRange) {
    phaseSizes_[phases_.size()] = size, phaseMinRanges_[phases_.size()] = minRange;
    phases_.push_back({kind, colour});
  };
  add(PhaseKind::Pad, 0, incidenceBegin_.size() - 1, kElementsPerTask);
  if (accelerate) {
    std::swap(iterate_, olderIterate_);  // x_{n-2}: the last iteration's start
    add(PhaseKind::SaveIterate, 0, vertices, kVerticesPerTask);
  }
  for (uint32_t c = 0; c < colourCount(); ++c)
    add(PhaseKind::Colour, c, groupBegin_[c + 1] - groupBegin_[c], kGroupsPerTask);
  if (accelerate && iteration_ >= 2) add(PhaseKind::Extrapolate, 0, vertices, kVerticesPerTask);
  // The penalties' units: the springs four at a time (whole lanes, whatever the ranges), then the other elements.
  const size_t springLanes = (size_t(elements.springCount) + 3) / 4;
  add(PhaseKind::Penalties, 0, springLanes + penalty_.size() - elements.springCount, kElementsPerTask / 4);
  auto body = [&](size_t phase, size_t b, size_t e) {
    const Phase& ph = phases_[phase];
    switch (ph.kind) {
      case PhaseKind::Pad: padRange(p, w, b, e, padded_.data()); break;
      case PhaseKind::SaveIterate:
        for (size_t k = b; k < e; ++k)
          for (size_t a = 3 * size_t(order_[k]); a < 3 * size_t(order_[k]) + 3; ++a) iterate_[a] = p[a];
        break;
      case PhaseKind::Colour:
        for (size_t q = groupBegin_[ph.colour] + b; q < groupBegin_[ph.colour] + e; ++q)
          solveGroup(uint32_t(q), p, padded_.data(), inertial, w, elements, contacts, invH2);
        break;
      case PhaseKind::Extrapolate:  // x_n = ω (x̄_n - x_{n-2}) + x_{n-2}; a pinned particle stays where it is
        for (size_t k = b; k < e; ++k) {
          if (!(w[order_[k]] > 0)) continue;
          for (size_t a = 0; a < 3; ++a) {
            const size_t at = 3 * size_t(order_[k]) + a;
            p[at] = Real(omega_ * (double(p[at]) - double(olderIterate_[at])) + double(olderIterate_[at]));
            padded_[4 * size_t(order_[k]) + a] = p[at];
          }
        }
        break;
      case PhaseKind::Penalties:
        if (b < springLanes)
          growSpringPenalties(4 * b, std::min<size_t>(4 * std::min(e, springLanes), elements.springCount),
                              padded_.data());
        for (size_t k = std::max(b, springLanes); k < e; ++k)
          growPenalty(uint32_t(k - springLanes + elements.springCount), p, elements);
        break;
    }
  };
  // At most kMaxPhases a call; more colours (a dense tet mesh) run as several calls, in the same order.
  for (size_t first = 0; first < phases_.size(); first += TaskSystem::kMaxPhases) {
    const size_t n = std::min(TaskSystem::kMaxPhases, phases_.size() - first);
    auto shifted = [&](size_t phase, size_t b, size_t e) { body(first + phase, b, e); };
    tasks.parallelPhases(n, phaseSizes_.data() + first, phaseMinRanges_.data() + first, shifted);
  }
}

}  // namespace pbd
