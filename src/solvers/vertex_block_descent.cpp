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

namespace pbd {
namespace {

/// Vertices per range when a colour is solved in parallel; fixed, so the split never depends on the threads.
constexpr size_t kVerticesPerTask = 256;
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
  if (penalty_.size() != count) penalty_.assign(count, Real(0));
  stiffness_.resize(count), inertia_.resize(count), bulk_.resize(elements.neoHookeanCount);
  shear_.resize(elements.triangleCount);
  phases_.reserve(colours + 3), phaseSizes_.resize(colours + 3), phaseMinRanges_.resize(colours + 3);
  iterate_.assign(3 * particleCount, Real(0)), olderIterate_.assign(3 * particleCount, Real(0));
  stiffnessValid_ = false;
  dirty = false;
}

void VertexBlockDescent::resetPenalties() { std::fill(penalty_.begin(), penalty_.end(), Real(0)); }

void VertexBlockDescent::beginSubstep(const VbdElements& elements, const Real* w, bool xpbd, double invH2,
                                      double rho) {
  rho_ = rho, omega_ = 1, iteration_ = 0;
  if (stiffnessValid_ && invH2 == stiffnessInvH2_ && xpbd == stiffnessXpbd_) {
    for (uint32_t g = 0; g < penalty_.size(); ++g) {  // only the warm start's decay
      if (penalty_[g] == 0) continue;                  // not rigid
      penalty_[g] = Real(std::max(penalty_[g] * kVbdWarmStartDecay, kVbdStartPenaltyRatio * inertia_[g]));
    }
    return;
  }
  stiffnessValid_ = true, stiffnessInvH2_ = invH2, stiffnessXpbd_ = xpbd;
  for (uint32_t g = 0; g < stiffness_.size(); ++g) {
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
    const Real penalty = Real(std::clamp(kept, kVbdStartPenaltyRatio * inertia, cap));
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
      continue;
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
  }
}

void VertexBlockDescent::solveVertex(uint32_t i, Real* p, const Real* inertial, const Real* w,
                                     const VbdElements& elements, const VbdContacts& contacts,
                                     double invH2) const {
  if (!(w[i] > 0)) return;  // pinned
  const double inertia = invH2 / double(w[i]);
  const Eigen::Vector3d x = load(p, i), y = load(inertial, i);
  VertexBlock block;
  for (int a = 0; a < 3; ++a) block.g[a] = inertia * (x[a] - y[a]);
  block.h[0] = block.h[3] = block.h[5] = inertia;
  Eigen::Vector3d g;
  Eigen::Matrix3d h;
  for (uint32_t k = incidenceBegin_[i]; k < incidenceBegin_[i + 1]; ++k) {
    const uint32_t e = incidences_[k].element;
    const double stiffness = stiffness_[e] == kRigid ? penalty_[e] : stiffness_[e];
    if (e < elements.springCount) {  // the common case, without decoding the element
      const DistanceConstraint& c = elements.springs[e];
      addSpringVertexBlock(x, load(p, incidences_[k].other), c.minLength, c.maxLength, stiffness, 0, block);
      continue;
    }
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
  for (int a = 0; a < 3; ++a) p[3 * i + a] = Real(x[a] - step[a]);
}

void VertexBlockDescent::growPenalty(uint32_t e, const Real* p, const VbdElements& elements) {
  if (penalty_[e] == 0) return;  // not rigid
  double violation = 0, scale = 1;  // C and C_ref
  if (e < elements.springCount) {  // the common case, without decoding the element
    const DistanceConstraint& c = elements.springs[e];
    violation = springConstraint(load(p, c.i), load(p, c.j), c.minLength, c.maxLength);
    scale = std::max(double(c.maxLength), 1e-6);
  } else {
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
        violation = tetVolumeAndGradientDouble(xs, 0, unused) - t.restVolume;
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
  }
  penalty_[e] = Real(std::min(penalty_[e] + kVbdPenaltyGrowth * inertia_[e] * std::abs(violation) / scale,
                              kVbdMaxStiffnessRatio * inertia_[e]));
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
  if (accelerate) {
    std::swap(iterate_, olderIterate_);  // x_{n-2}: the last iteration's start
    add(PhaseKind::SaveIterate, 0, vertices, kVerticesPerTask);
  }
  for (uint32_t c = 0; c < colourCount(); ++c)
    add(PhaseKind::Colour, c, colourBegin_[c + 1] - colourBegin_[c], kVerticesPerTask);
  if (accelerate && iteration_ >= 2) add(PhaseKind::Extrapolate, 0, vertices, kVerticesPerTask);
  add(PhaseKind::Penalties, 0, penalty_.size(), kElementsPerTask);
  auto body = [&](size_t phase, size_t b, size_t e) {
    const Phase& ph = phases_[phase];
    switch (ph.kind) {
      case PhaseKind::SaveIterate:
        for (size_t k = b; k < e; ++k)
          for (size_t a = 3 * size_t(order_[k]); a < 3 * size_t(order_[k]) + 3; ++a) iterate_[a] = p[a];
        break;
      case PhaseKind::Colour:
        for (size_t k = colourBegin_[ph.colour] + b; k < colourBegin_[ph.colour] + e; ++k)
          solveVertex(order_[k], p, inertial, w, elements, contacts, invH2);
        break;
      case PhaseKind::Extrapolate:  // x_n = ω (x̄_n - x_{n-2}) + x_{n-2}; a pinned particle stays where it is
        for (size_t k = b; k < e; ++k) {
          if (!(w[order_[k]] > 0)) continue;
          for (size_t a = 3 * size_t(order_[k]); a < 3 * size_t(order_[k]) + 3; ++a)
            p[a] = Real(omega_ * (double(p[a]) - double(olderIterate_[a])) + double(olderIterate_[a]));
        }
        break;
      case PhaseKind::Penalties:
        for (size_t k = b; k < e; ++k) growPenalty(uint32_t(k), p, elements);
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
