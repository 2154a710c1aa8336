// The momentum guard of internal constraints.
//
// Why (angular). Internal constraints (distances, bending, volumes, strain, shape matching) conserve momentum: each
// projection's correction Δp satisfies Σ m_i Δp_i = 0 and Σ m_i q_i × Δp_i = 0 at the positions q it was computed
// from. But the velocity the substep ends with measures from the start of the substep: v = (p − x)/h (implicit
// Euler), so
//   L = Σ m_i p_i × v_i = (1/h) Σ m_i x_i × p_i,   and a correction changes it by (1/h) Σ m_i (x_i − q_i) × Δp_i,
// zero only when q = x. Gauss–Seidel projects each constraint from positions the earlier ones moved, so constraints
// that fight every substep (a skin stretched over a rigid volume: an inflated balloon) leave a torque each time, and
// the spin it makes feeds it: a weightless balloon at rest spun up to |L| = 0.04 kg m²/s in 2 s. Under BDF2,
// v = (3/2 p − 2x + 1/2 x⁻)/h = (3/(2h)) (p − ℓ), and the same holds with the lever ℓ (about (4x − x⁻)/3; see lever)
// in place of x.
//
// Why (round-off). p is float32: a correction Δp lands on p rounded to half an ulp of |p| (3e-8 m at 1 m), while
// the commit turns it into velocity divided by h. At h = 1/2400 s a cube of 125 particles lost 5.6e-2 of its linear
// momentum in 2 s (a random walk of roundings), and the guard's own rotation of p, often below half an ulp, rounded
// to nothing. The sums below are double: what the projections and the guard should have left (no change of Σ m p,
// no change of Σ m a × p) minus what they left is the momentum round-off took. It is kept per island and given back
// to the velocities, which carry it at their own scale (|v|, not |p|), before the next substep's solve and after
// the step's last.
//
// What. Per island (bodies joined by internal constraints; of their particles, those some internal constraint holds:
// a particle nothing holds gets no internal force, so it is never rotated) with no pinned particle, around each
// iteration's internal projections (and HPBD's coarse pre-pass):
//   c = Σ m_i ℓ_i / Σ m_i,   a_i = ℓ_i − c,   I = Σ m_i (|a_i|² 1 − a_i a_iᵀ)         (once per substep)
//   T = Σ m_i a_i × (p_i − c),   P = Σ m_i p_i   before (T⁰, P⁰) and after (T¹, P¹) the projections
//   θ = I⁺ (T⁰ − T¹),   p_i += θ × a_i   (realized as r_i after rounding)
//   lost P += P⁰ − P¹ − Σ m_i r_i,   lost T += T⁰ − T¹ − Σ m_i a_i × r_i
// Then Σ m_i a_i × Δp_i = I θ cancels what the projections added (on I's range), and Σ m_i θ × a_i = 0 adds no
// linear momentum. Under BDF2 the substep's first bracket aims at T* = (2h/3) (L − c × P) instead of its T⁰, the L
// and P of the substep's start (and the L round-off took in the one before): the substep then ends with L, where
// BDF2's prediction alone adds about (4/9) (ω h)² of a spinning body's L a substep. θ × a_i is an infinitesimal
// rotation of the lever shape; it strains the body by O(|θ| h |v|), far below the projections' own error. Given
// back as the velocity of the rigid motion d_i = lost P / M + (I⁺ lost T) × (x_i − c): v_i += s d_i, s = 1/h
// (Euler's commit) or 3/(2h) (BDF2's; its lost T goes into the next substep's T* instead, but at a step's end); and,
// under Euler, the lost translation to the positions once it is a few ulps (the centre of mass stays on its line).
// Under BDF2, whose recurrence carries every rounding of P on, the lost P and T also take what the float32 velocities
// did not take of the last give-back.
// Islands with a pinned particle are left alone: a pin legitimately takes torque. Contacts, attachments, tethers and
// self-contacts are outside the bracket: they exchange momentum with the world, and an island they touched in a
// substep gets nothing back for it. Nor for the substep after it (`slim`), whose round-off is therefore not counted:
// the guard still takes the projections' torque out, but its sums leave P out and its rotation is not followed
// through its rounding. The step's first substep always counts.
//
// Threads. Each pass runs over chunks of an island's members (GuardChunk, islands.h), the chunks' partial sums added
// in chunk order, so the bits do not depend on the thread count; a pass with a serial step in it (the centre before
// the levers, θ before the rotation) is one job of three phases. Serial, they held up a big free body's step on two
// threads; a big island's chunks are a multiple of four of equal length, so that two threads get as many members
// each.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <type_traits>

#include "math/inertia.h"
#include "world/bdf2.h"
#include "world/world_state.h"

namespace pbd {

namespace {

using Vec3d = Eigen::Vector3d;

constexpr double kMaxGuardAngle = 0.01;  // rad per iteration; an inflating balloon's largest is 4e-4

/// The velocity that gives a particle (lever a about its island's centre) back what its corrections lost: what the
/// commit would have made of the displacement. Always inlined: it runs per particle, and a call's returned vector
/// stalled on its way back through memory.
[[gnu::always_inline]] inline Vec3d givenBackVelocity(const LostMotion& lost, const Vec3d& a) {
  return lost.velocityPerPosition * (lost.translation + lost.rotation.cross(a));
}

/// v += dv in float32 (v: a particle's three components); returns what each component took of dv, in double. Always
/// inlined for the same reason as givenBackVelocity.
[[gnu::always_inline]] inline Vec3d addToVelocity(Real* v, const Vec3d& dv) {
  Vec3d took;
  for (int a = 0; a < 3; ++a) {
    const Real was = v[a];
    v[a] += Real(dv[a]);
    took[a] = double(v[a]) - double(was);
  }
  return took;
}

Vec3d load3d(const std::vector<Real>& a, uint32_t i) { return Vec3d(a[3 * i], a[3 * i + 1], a[3 * i + 2]); }

}  // namespace

void World::Impl::reserveIslands(size_t bodyCount, size_t particleCount) {
  islands.islandConstrained.reserve(particleCount);
  islands.members.reserve(particleCount);
  islands.islandMass.reserve(particleCount);
  islands.islandLever.reserve(particleCount);
  const size_t n = bodyCount;
  islands.memberBegin.reserve(n + 1);
  islands.islandBodies.reserve(n);
  islands.islandBegin.reserve(n + 1);
  islands.islandOfBody.reserve(n);
  islands.islandFrames.reserve(n);
  islands.islandPinned.reserve(n);
  islands.chunks.reserve((kGuardChunkGroups + 1) * n + particleCount / kGuardChunkMembers);  // parts below
  islands.chunkBegin.reserve(n + 1);
}

/// Union-find over bodies: every internal constraint joins the bodies of its particles. Islands are numbered in the
/// order of their first body, and list their bodies in order, so the guard's sums run in a fixed order.
void World::Impl::refreshIslands() {
  if (!islands.islandsDirty) return;
  islands.islandsDirty = false;
  const uint32_t nBodies = uint32_t(particles.bodies.size());
  std::vector<uint32_t>& parent = islands.islandOfBody;  // union-find parents, then each body's island
  parent.resize(nBodies);
  std::iota(parent.begin(), parent.end(), 0u);
  auto root = [&](uint32_t b) {
    while (parent[b] != b) b = parent[b] = parent[parent[b]];
    return b;
  };
  islands.islandConstrained.assign(count(), 0);
  auto join = [&](uint32_t i, uint32_t j) {
    islands.islandConstrained[i] = islands.islandConstrained[j] = 1;
    const uint32_t a = root(bodyOf(i)), b = root(bodyOf(j));
    if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the root is the island's first body
  };
  for (const DistanceConstraint& d : constraints.distances) join(d.i, d.j);
  for (const DihedralConstraint& d : constraints.dihedrals) join(d.p0, d.p1), join(d.p0, d.p2), join(d.p0, d.p3);
  for (const TetVolumeConstraint& t : constraints.volumes)
    join(t.p[0], t.p[1]), join(t.p[0], t.p[2]), join(t.p[0], t.p[3]);
  for (const NeoHookeanTet& e : constraints.neoHookeans)
    join(e.p[0], e.p[1]), join(e.p[0], e.p[2]), join(e.p[0], e.p[3]);
  for (const TriangleStrainConstraint& t : constraints.triangleStrains) join(t.p[0], t.p[1]), join(t.p[0], t.p[2]);
  for (const SurfaceVolumeConstraint& g : constraints.surfaceVolumes)
    for (uint32_t k = 1; k < g.vertexCount; ++k)
      join(constraints.surfaceVertices[g.firstVertex], constraints.surfaceVertices[g.firstVertex + k]);
  for (const ShapeMatchingCluster& c : constraints.shapeMatchings)
    for (uint32_t k = 1; k < c.memberCount; ++k)
      join(constraints.shapeMatchingMembers[c.firstMember], constraints.shapeMatchingMembers[c.firstMember + k]);
  // Number the islands (a root precedes its members), then list the bodies by island: a counting sort.
  for (uint32_t b = 0; b < nBodies; ++b) parent[b] = root(b);
  uint32_t islandCount = 0;
  islands.islandBegin.assign(1, 0);
  for (uint32_t b = 0; b < nBodies; ++b) {
    if (parent[b] == b) {  // a root: the island's first body
      parent[b] = islandCount++;
      islands.islandBegin.push_back(0);
    } else {
      parent[b] = parent[parent[b]];  // the root, an earlier body, already holds its island's number
    }
    ++islands.islandBegin[parent[b] + 1];
  }
  for (uint32_t k = 0; k < islandCount; ++k) islands.islandBegin[k + 1] += islands.islandBegin[k];
  islands.islandBodies.resize(nBodies);
  islands.islandFrames.resize(islandCount);
  islands.islandPinned.resize(islandCount);
  islands.massesStale = true;
  for (uint32_t k = 0; k < islandCount; ++k) islands.islandFrames[k].next = islands.islandBegin[k];
  for (uint32_t b = 0; b < nBodies; ++b) islands.islandBodies[islands.islandFrames[parent[b]].next++] = b;
  islands.members.clear();
  islands.memberBegin.assign(1, 0);
  for (uint32_t k = 0; k < islandCount; ++k) {
    for (uint32_t n = islands.islandBegin[k]; n < islands.islandBegin[k + 1]; ++n) {
      const ParticleRange& body = particles.bodies[islands.islandBodies[n]];
      for (uint32_t i = body.begin; i < body.end; ++i)
        if (islands.islandConstrained[i]) islands.members.push_back(i);
    }
    islands.memberBegin.push_back(uint32_t(islands.members.size()));
  }
  islands.islandMass.assign(islands.members.size(), 0.0);
  islands.islandLever.assign(islands.members.size(), Vec3d::Zero());
  islands.chunks.clear();
  islands.chunkBegin.assign(1, 0);
  for (uint32_t k = 0; k < islandCount; ++k) {
    // An island of more than one chunk: a multiple of kGuardChunkGroups chunks of (nearly) equal length.
    const uint32_t first = islands.memberBegin[k], members = islands.memberBegin[k + 1] - first;
    uint32_t parts = (members + kGuardChunkMembers - 1) / kGuardChunkMembers;
    if (parts > 1) parts = (parts + kGuardChunkGroups - 1) / kGuardChunkGroups * kGuardChunkGroups;
    for (uint32_t q = 0; q < parts; ++q) {
      GuardChunk c;
      c.island = k, c.begin = first + uint32_t(uint64_t(members) * q / parts);
      c.end = first + uint32_t(uint64_t(members) * (q + 1) / parts);
      islands.chunks.push_back(c);
    }
    islands.chunkBegin.push_back(uint32_t(islands.chunks.size()));
  }
}

/// Once per substep: which islands are free (no pinned particle, at least two particles), and their lever frames.
/// What round-off took from an island in the last substep goes back here (givenBackVelocity), about the new centre
/// (no linear momentum added) with the last frame's I⁺ (it changes by O(h |ω|) a substep; what is given back is
/// round-off, so the error of that is round-off of round-off).
void World::Impl::prepareIslandFrames(bool bdf2, Real h) {
  islands.anyFreeIsland = false;
  islands.freeMembers = 0;
  const bool readMasses = islands.massesStale;
  islands.massesStale = false;
  for (uint32_t k = 0; k + 1 < islands.islandBegin.size(); ++k) {
    IslandFrame& f = islands.islandFrames[k];
    f.lost = takeLostMotion(f, bdf2);
    f.slim = f.touched;
    f.free = f.touched = false;
    if (readMasses) islands.islandPinned[k] = islandHasPin(k);
    if (islands.islandPinned[k] || islands.memberBegin[k + 1] - islands.memberBegin[k] < 2) continue;
    f.free = islands.anyFreeIsland = true;
    islands.freeMembers += islands.memberBegin[k + 1] - islands.memberBegin[k];
  }
  if (!islands.anyFreeIsland) return;
  // Per chunk: the masses and the levers about the origin (the centre is not known yet).
  // The sums run in locals, written to the chunk once (as sumChunk's): the chunk may alias the arrays the loops write,
  // so sums kept in it went through memory at every member.
  // The loops below are compiled twice: for the plain case (implicit Euler, nothing given back or shifted), whose
  // only test per member is whether this substep reads the masses, and for the rest.
  auto masses = [&](GuardChunk& c) {
    const bool needsReach = islands.islandFrames[c.island].lost.shiftsPositions;
    double mass = 0, reach = 0, mx = 0, my = 0, mz = 0;  // Σ m, Σ m ℓ
    IslandMomenta momenta{Vec3d::Zero(), Vec3d::Zero()};
    auto run = [&](auto plain) {
      for (uint32_t s = c.begin; s < c.end; ++s) {
        const uint32_t i = islands.members[s];
        const double m = readMasses ? (islands.islandMass[s] = 1.0 / particles.w[i]) : islands.islandMass[s];
        const Vec3d l = !plain && bdf2 ? lever(i, true, h) : load3d(particles.x, i);  // Euler's lever, inline
        islands.islandLever[s] = l;
        mass += m;
        mx += m * l.x(), my += m * l.y(), mz += m * l.z();
        if constexpr (plain) continue;
        if (bdf2) {
          const Vec3d v = load3d(particles.v, i);
          momenta.angular += m * load3d(particles.x, i).cross(v), momenta.linear += m * v;
        }
        if (needsReach) reach = std::max(reach, load3d(particles.x, i).cwiseAbs().maxCoeff());
      }
    };
    if (!bdf2 && !needsReach) run(std::true_type());
    else run(std::false_type());
    c.mass = mass, c.reach = reach, c.moment = Vec3d(mx, my, mz), c.momenta = momenta;
  };
  // Per island: the centre, and the translation the positions get back.
  auto centres = [&] {
    for (uint32_t k = 0; k < islands.islandFrames.size(); ++k) {
      IslandFrame& f = islands.islandFrames[k];
      if (!f.free) continue;
      double reach = 0;
      for (uint32_t q = islands.chunkBegin[k]; q < islands.chunkBegin[k + 1]; ++q)
        reach = std::max(reach, islands.chunks[q].reach);
      f.centre = chunkTotal(k, [](const GuardChunk& c) { return c.moment; }) /
                 chunkTotal(k, [](const GuardChunk& c) { return c.mass; });
      // The prediction ran with the velocities short by d / h, so the positions lag by twice the translation of d.
      f.shift = f.lost.shiftsPositions ? shiftToGiveBack(f, 2.0 * f.lost.translation, reach) : Vec3d::Zero();
    }
  };
  // Per chunk: the levers about the centre, their inertia, and what is given back.
  auto levers = [&](GuardChunk& c) {
    const IslandFrame& f = islands.islandFrames[c.island];
    InertiaSum inertia;
    c.pendingShift = c.begin == islands.memberBegin[c.island] ? f.pendingShift : Vec3d::Zero();
    // What the velocities do not take of the give-back, in locals (c may alias what the loop writes).
    double lx = 0, ly = 0, lz = 0, ax = 0, ay = 0, az = 0;
    const Vec3d centre = f.centre;  // in a local: the loop's stores of doubles might alias it
    auto run = [&](auto plain) {
      for (uint32_t s = c.begin; s < c.end; ++s) {
        const Vec3d a = islands.islandLever[s] - centre;
        islands.islandLever[s] = a;
        const double m = islands.islandMass[s];
        inertia.add(m, a);
        if constexpr (plain) continue;
        const uint32_t i = islands.members[s];
        if (f.lost.any) {
          const Vec3d dv = givenBackVelocity(f.lost, a), took = addToVelocity(&particles.v[3 * size_t(i)], dv);
          if (bdf2) {
            const Vec3d missed = m * (dv - took);  // what the float32 velocity did not take
            lx += missed[0], ly += missed[1], lz += missed[2];
            ax += a.y() * missed[2] - a.z() * missed[1], ay += a.z() * missed[0] - a.x() * missed[2];
            az += a.x() * missed[1] - a.y() * missed[0];
          }
        }
        if (f.shift != Vec3d::Zero())
          c.pendingShift -= m * shiftParticle(i, f.shift, {&particles.p, &particles.inertial});
      }
    };
    if (!f.lost.any && f.shift == Vec3d::Zero()) run(std::true_type());
    else run(std::false_type());
    c.inertia = inertia.matrix();
    c.lostLinear = Vec3d(lx, ly, lz), c.lostAngular = Vec3d(ax, ay, az);
  };
  forFreeChunks(masses, centres, levers);
  for (uint32_t k = 0; k < islands.islandFrames.size(); ++k) {
    IslandFrame& f = islands.islandFrames[k];
    if (!f.free) continue;
    if (f.shift != Vec3d::Zero()) f.pendingShift = chunkTotal(k, [](const GuardChunk& c) { return c.pendingShift; });
    // What the float32 velocities did not take of the give-back goes back with this substep's round-off. Under
    // BDF2 only: its recurrence carries each rounding on, where implicit Euler keeps P within 1e-6 without this
    // (and keeps its bits, the goldens').
    if (bdf2 && f.lost.any) {
      f.lostLinear += (2.0 * double(h) / 3.0) * chunkTotal(k, [](const GuardChunk& c) { return c.lostLinear; });
      f.lostAngular += (2.0 * double(h) / 3.0) * chunkTotal(k, [](const GuardChunk& c) { return c.lostAngular; });
    }
    f.inverseInertia = inverseOnRange(chunkTotal(k, [](const GuardChunk& c) { return c.inertia; }));
    f.mass = chunkTotal(k, [](const GuardChunk& c) { return c.mass; });
    f.velocityPerPosition = (bdf2 ? 1.5 : 1.0) / double(h);
    f.bdf2 = bdf2;
    // BDF2's velocity is (3/(2h)) (p − ℓ), so the substep ends with L = (3/(2h)) T + c × P: T* keeps L and P. Its
    // prediction alone does not (for a spinning body it adds about (4/9) (ω h)² of L a substep), and the
    // projections' torque about ℓ, which the guard takes out, was what made up for it.
    f.aimsAtTarget = bdf2;
    if (bdf2) {
      const Vec3d L = chunkTotal(k, [](const GuardChunk& c) { return c.momenta.angular; }) + f.lost.angularMomentum;
      const Vec3d P = chunkTotal(k, [](const GuardChunk& c) { return c.momenta.linear; });
      f.torqueTarget = (2.0 * double(h) / 3.0) * (L - f.centre.cross(P));
    }
  }
}

/// The rigid displacement that gives back what round-off took from island frame `f` in its substep (and clears it).
/// Between two BDF2 substeps (`bdf2Next`) the angular part goes into the next one's torqueTarget instead: BDF2's
/// commit would carry a velocity given back now 4/3 times.
LostMotion World::Impl::takeLostMotion(IslandFrame& f, bool bdf2Next) const {
  LostMotion lost;
  lost.any = f.free && !f.touched && !f.slim && (f.lostLinear != Vec3d::Zero() || f.lostAngular != Vec3d::Zero());
  if (f.touched) f.pendingShift.setZero();  // a contact sets where it is
  if (lost.any) {
    lost.translation = f.lostLinear / f.mass;
    const bool intoTarget = f.bdf2 && bdf2Next;
    lost.rotation = intoTarget ? Vec3d::Zero() : Vec3d(f.inverseInertia * f.lostAngular);
    if (intoTarget) lost.angularMomentum = f.velocityPerPosition * f.lostAngular;
    lost.velocityPerPosition = f.velocityPerPosition;
    lost.shiftsPositions = !f.bdf2;  // BDF2's prediction reads the position history: a moved x is a velocity there
  }
  f.lostLinear.setZero(), f.lostAngular.setZero();
  return lost;
}

/// The translation the island's positions get back (its centre of mass lags by what round-off took): kept in
/// `pendingShift` until it is 4 ulps of the island's largest coordinate (`reach`, m), then moved as a whole. A
/// smaller one would land only on the particles whose ulp is finer, which is no rigid motion (moved so, a cloth at
/// rest crept by 3e-6 m in 5 s). Zero while pending.
Eigen::Vector3d World::Impl::shiftToGiveBack(IslandFrame& f, const Vec3d& lag, double reach) {
  f.pendingShift += f.mass * lag;
  const Vec3d shift = f.pendingShift / f.mass;
  const double ulp = double(std::nextafter(Real(reach), Real(INFINITY))) - double(Real(reach));
  return shift.cwiseAbs().maxCoeff() >= 4 * ulp ? shift : Vec3d::Zero();
}

/// Moves particle i by `shift` in every array given (equal there, so rounded alike); returns the move it made.
Eigen::Vector3d World::Impl::shiftParticle(uint32_t i, const Vec3d& shift,
                                           std::initializer_list<std::vector<Real>*> positions) {
  Vec3d moved;
  for (int c = 0; c < 3; ++c) {
    const Real was = (**positions.begin())[3 * i + c];
    for (std::vector<Real>* q : positions) (*q)[3 * i + c] += Real(shift[c]);
    moved[c] = double((**positions.begin())[3 * i + c]) - double(was);
  }
  return moved;
}

/// After the contacts of a substep: the free islands that a contact, an attachment or a self-contact touched exchanged
/// momentum with the world or were stopped by the failsafe, which sets theirs; what round-off took from them in it is
/// not given back (a body at rest on the ground would end the step with the round-off's velocity, which no contact
/// pass removes).
void World::Impl::markTouchedIslands() {
  if (!islands.anyFreeIsland) return;
  forEachHeldParticle([&](uint32_t i) { islands.islandFrames[islands.islandOfBody[bodyOf(i)]].touched = true; });
  // Self-contacts are outside the bracket too, and the failsafe stops the particles it freezes.
  for (const SelfCollisionPair& c : selfCollision.selfCollisionPairs)
    islands.islandFrames[islands.islandOfBody[bodyOf(c.i)]].touched = true;
  for (const SelfContact& c : selfCollision.selfContacts)
    islands.islandFrames[islands.islandOfBody[bodyOf(c.particle[0])]].touched = true;
}

/// After the step's last substep (committed: x = p): what round-off took in it, given back about the islands'
/// present centres. Nothing is kept for the next step: a step depends on the state alone, as a snapshot has it.
void World::Impl::giveBackLostMomenta() {
  for (uint32_t k = 0; k < islands.islandFrames.size(); ++k) {
    IslandFrame& f = islands.islandFrames[k];
    const LostMotion lost = takeLostMotion(f, false);
    if (!lost.any) continue;
    Vec3d centre = Vec3d::Zero();
    double reach = 0;
    forEachIslandMember(k, [&](uint32_t, uint32_t i) {
      centre += (1.0 / particles.w[i]) * load3d(particles.x, i);
      reach = std::max(reach, load3d(particles.x, i).cwiseAbs().maxCoeff());
    });
    centre /= f.mass;
    // No prediction since the commit: the positions lag by the translation once.
    const Vec3d shift = lost.shiftsPositions ? shiftToGiveBack(f, lost.translation, reach) : Vec3d::Zero();
    forEachIslandMember(k, [&](uint32_t, uint32_t i) {
      addVelocity(i, givenBackVelocity(lost, load3d(particles.x, i) - centre));
      if (shift != Vec3d::Zero()) shiftParticle(i, shift, {&particles.x});
    });
  }
  forgetLostMomenta();  // what is still pending is below 4 ulps: a step depends on the state alone
}

/// The settle's substeps run from rest and their velocities are dropped: so is what round-off took in them.
void World::Impl::forgetLostMomenta() {
  for (IslandFrame& f : islands.islandFrames) {
    f.lostLinear.setZero(), f.lostAngular.setZero(), f.pendingShift.setZero();
    f.touched = false;  // so that the next step's first substep counts (`slim` is within a step)
  }
}

void World::Impl::addVelocity(uint32_t i, const Vec3d& dv) { addToVelocity(&particles.v[3 * size_t(i)], dv); }

/// Stops at the first pinned particle: a pinned cloth's island is told apart at its corner, not after a walk.
bool World::Impl::islandHasPin(uint32_t k) const {
  for (uint32_t s = islands.memberBegin[k]; s < islands.memberBegin[k + 1]; ++s)
    if (particles.w[islands.members[s]] == 0) return true;
  return false;
}

/// Euler: x. BDF2: ℓ = x̃ − (2/3) h (4/3 v − 1/3 v⁻ + 2/3 h a), so that the commit's velocity, 4/3 v − 1/3 v⁻ +
/// 2/3 h a + 3/2 (p − x̃) / h, is (3/(2h)) (p − ℓ) with x̃ as it was rounded: (4x − x⁻)/3, the same in exact
/// arithmetic, missed the prediction's rounding, a random torque each substep.
Vec3d World::Impl::lever(uint32_t i, bool bdf2, Real h) const {
  if (!bdf2) return load3d(particles.x, i);
  const Vec3d accel = settings.gravity.cast<double>() + double(particles.w[i]) * load3d(particles.force, i);
  return bdf2Lever<Vec3d>(load3d(particles.inertial, i), load3d(particles.v, i), load3d(particles.vPrev, i), accel, h);
}

// The guard's two passes of every iteration (the sums, the rotation in endInternalProjections) keep their sums in
// local doubles and write a component at a time: written with Eigen vectors, the sums went through memory and stalled
// on store forwarding (a free tet cube of 16³ cells, natively: 14 % of its step in the two, 7 % written so). The
// operations and their order are those of the vector forms, T += m (a × (q − c)), P += m q: the same bits.
void World::Impl::sumChunk(GuardChunk& c) const {
  const IslandFrame& f = islands.islandFrames[c.island];
  const double cx = f.centre.x(), cy = f.centre.y(), cz = f.centre.z();
  double tx = 0, ty = 0, tz = 0, px = 0, py = 0, pz = 0;
  const Real* p = particles.p.data();
  auto sum = [&](auto counted) {
    for (uint32_t s = c.begin; s < c.end; ++s) {
      const double m = islands.islandMass[s];
      const Vec3d& a = islands.islandLever[s];
      const Real* q = p + 3 * size_t(islands.members[s]);
      const double qx = q[0], qy = q[1], qz = q[2];
      const double dx = qx - cx, dy = qy - cy, dz = qz - cz;
      tx += m * (a.y() * dz - a.z() * dy), ty += m * (a.z() * dx - a.x() * dz), tz += m * (a.x() * dy - a.y() * dx);
      if (counted) px += m * qx, py += m * qy, pz += m * qz;
    }
  };
  if (f.slim) sum(std::false_type());  // P is for the round-off's count only
  else sum(std::true_type());
  c.sums = {Vec3d(tx, ty, tz), Vec3d(px, py, pz)};
}

IslandSums World::Impl::islandSums(uint32_t k) const {
  return {chunkTotal(k, [](const GuardChunk& c) { return c.sums.torque; }),
          chunkTotal(k, [](const GuardChunk& c) { return c.sums.linear; })};
}

void World::Impl::beginInternalProjections() {
  if (!islands.anyFreeIsland) return;
  auto sums = [&](GuardChunk& c) { sumChunk(c); };
  forFreeChunks(sums);
  for (uint32_t k = 0; k < islands.islandFrames.size(); ++k) {
    IslandFrame& f = islands.islandFrames[k];
    if (!f.free) continue;
    f.before = islandSums(k);
    if (f.aimsAtTarget) f.before.torque = f.torqueTarget, f.aimsAtTarget = false;
  }
}

void World::Impl::endInternalProjections() {
  if (!islands.anyFreeIsland) return;
  auto sums = [&](GuardChunk& c) { sumChunk(c); };
  // Per island: the rotation θ that takes out the torque the projections added.
  auto rotations = [&] {
    for (uint32_t k = 0; k < islands.islandFrames.size(); ++k) {
      IslandFrame& f = islands.islandFrames[k];
      f.rotates = false;
      if (!f.free) continue;
      const IslandSums after = islandSums(k);
      if (!f.slim) f.lostLinear += f.before.linear - after.linear;
      const Vec3d theta = f.inverseInertia * (f.before.torque - after.torque);
      // A rotation of more than kMaxGuardAngle in one iteration is no round-off of the sweep's order: the body is
      // being torn apart (or is non-finite, for the step's guard to roll back), and a linearized rotation that large
      // would stretch it further. Left alone, and no angular momentum is given back for it.
      if (!(theta.norm() <= kMaxGuardAngle)) continue;
      if (!f.slim) f.lostAngular += f.before.torque - after.torque;
      f.theta = theta;
      f.rotates = true;
    }
  };
  auto rotate = [&](GuardChunk& c) {
    const IslandFrame& f = islands.islandFrames[c.island];
    if (!f.rotates) return;
    const double thx = f.theta.x(), thy = f.theta.y(), thz = f.theta.z();
    // What round-off takes of the rotation: the island's first chunk carries on from the island's sums.
    const bool first = c.begin == islands.memberBegin[c.island];
    const Vec3d ll = first ? f.lostLinear : Vec3d::Zero(), la = first ? f.lostAngular : Vec3d::Zero();
    double llx = ll.x(), lly = ll.y(), llz = ll.z();
    double lax = la.x(), lay = la.y(), laz = la.z();
    Real* p = particles.p.data();
    auto move = [&](auto counted) {  // a slim substep's is the move alone, its rounding not followed
      for (uint32_t s = c.begin; s < c.end; ++s) {
        const Vec3d& a = islands.islandLever[s];
        const double ax = a.x(), ay = a.y(), az = a.z();
        const double d[3] = {thy * az - thz * ay, thz * ax - thx * az, thx * ay - thy * ax};  // θ × a
        Real* q = p + 3 * size_t(islands.members[s]);
        double r[3];  // the move realized after rounding
        for (int i = 0; i < 3; ++i) {
          const Real was = q[i];
          q[i] = was + Real(d[i]);
          r[i] = double(q[i]) - double(was);
        }
        if (!counted) continue;
        const double m = islands.islandMass[s];
        llx -= m * r[0], lly -= m * r[1], llz -= m * r[2];
        lax -= m * (ay * r[2] - az * r[1]), lay -= m * (az * r[0] - ax * r[2]), laz -= m * (ax * r[1] - ay * r[0]);
      }
    };
    if (f.slim) return move(std::false_type());
    move(std::true_type());
    c.lostLinear = Vec3d(llx, lly, llz), c.lostAngular = Vec3d(lax, lay, laz);
  };
  forFreeChunks(sums, rotations, rotate);
  for (uint32_t k = 0; k < islands.islandFrames.size(); ++k) {
    IslandFrame& f = islands.islandFrames[k];
    if (!f.rotates || f.slim) continue;
    f.lostLinear = chunkTotal(k, [](const GuardChunk& c) { return c.lostLinear; });
    f.lostAngular = chunkTotal(k, [](const GuardChunk& c) { return c.lostAngular; });
  }
}

/// After the settle (step.cpp): the positions moved from x⁰ to x under the velocities the step found, which changes
/// Σ m x × v by Σ m (x − x⁰) × v. Per free island, a rigid rotation added to the velocities puts it back:
///   L⁰ = Σ m (x⁰ − c) × v,   L¹ = Σ m (x − c) × v,   ω = I⁺ (L⁰ − L¹),   v_i += ω × (x_i − c)
/// with c and I of the settled positions (prepareIslandFrames); Σ m ω × (x − c) = 0 adds no linear momentum. Islands
/// with a pin are left alone, as the guard leaves them.
void World::Impl::keepIslandAngularMomenta(const std::vector<Real>& x0, Real h) {
  prepareIslandFrames(false, h);
  if (!islands.anyFreeIsland) return;
  for (uint32_t k = 0; k < islands.islandFrames.size(); ++k) {
    const IslandFrame& f = islands.islandFrames[k];
    if (!f.free) continue;
    Vec3d change = Vec3d::Zero();  // L⁰ − L¹ = Σ m (x⁰ − x) × v
    forEachIslandMember(k, [&](uint32_t, uint32_t i) {
      change += (1.0 / particles.w[i]) * (load3d(x0, i) - load3d(particles.x, i)).cross(load3d(particles.v, i));
    });
    const Vec3d omega = f.inverseInertia * change;
    forEachIslandMember(k,
                        [&](uint32_t, uint32_t i) { addVelocity(i, omega.cross(load3d(particles.x, i) - f.centre)); });
  }
}

}  // namespace pbd
