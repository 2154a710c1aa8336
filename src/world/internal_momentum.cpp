// The angular momentum guard of internal constraints.
//
// Why. Internal constraints (distances, bending, volumes, strain, shape matching) conserve momentum: each projection's
// correction Δp satisfies Σ m_i Δp_i = 0 and Σ m_i q_i × Δp_i = 0 at the positions q it was computed from. But the
// velocity the substep ends with measures from the start of the substep: v = (p − x)/h (implicit Euler), so
//   L = Σ m_i p_i × v_i = (1/h) Σ m_i x_i × p_i,   and a correction changes it by (1/h) Σ m_i (x_i − q_i) × Δp_i,
// zero only when q = x. Gauss–Seidel projects each constraint from positions the earlier ones moved, so constraints
// that fight every substep (a skin stretched over a rigid volume: an inflated balloon) leave a torque each time, and
// the spin it makes feeds it: a weightless balloon at rest spun up to |L| = 0.04 kg m²/s in 2 s. Under BDF2,
// v = (3/2 p − 2x + 1/2 x⁻)/h, and the same holds with the lever ℓ = (4x − x⁻)/3 in place of x.
//
// What. Per island (bodies joined by internal constraints; of their particles, those some internal constraint holds:
// a particle nothing holds gets no internal force, so it is never rotated) with no pinned particle, around each iteration's internal
// projections (and HPBD's coarse pre-pass):
//   c = Σ m_i ℓ_i / Σ m_i,   a_i = ℓ_i − c,   I = Σ m_i (|a_i|² 1 − a_i a_iᵀ)         (once per substep)
//   T = Σ m_i a_i × (p_i − c)   before (T⁰) and after (T¹) the projections
//   θ = I⁺ (T⁰ − T¹),   p_i += θ × a_i
// Then Σ m_i a_i × Δp_i = I θ cancels what the projections added (on I's range), and Σ m_i θ × a_i = 0 adds no
// linear momentum. θ × a_i is an infinitesimal rotation of the lever shape; it strains the body by O(|θ| h |v|), far
// below the projections' own error. Islands with a pinned particle are left alone: a pin legitimately takes torque.
// Contacts, attachments, tethers and self-contacts are outside the bracket: they exchange momentum with the world.
#include <numeric>

#include "math/inertia.h"
#include "world/world_state.h"

namespace pbd {

namespace {

using Vec3d = Eigen::Vector3d;

constexpr double kMaxGuardAngle = 0.01;  // rad per iteration; an inflating balloon's largest is 4e-4

Vec3d load3d(const std::vector<Real>& a, uint32_t i) { return Vec3d(a[3 * i], a[3 * i + 1], a[3 * i + 2]); }

}  // namespace

void World::Impl::reserveIslands(size_t bodyCount, size_t particleCount) {
  islandConstrained.reserve(particleCount);
  const size_t n = bodyCount;
  islandBodies.reserve(n);
  islandBegin.reserve(n + 1);
  islandScratch.reserve(n);
  islandFrames.reserve(n);
}

/// Union-find over bodies: every internal constraint joins the bodies of its particles. Islands are numbered in the
/// order of their first body, and list their bodies in order, so the guard's sums run in a fixed order.
void World::Impl::refreshIslands() {
  if (!islandsDirty) return;
  islandsDirty = false;
  const uint32_t nBodies = uint32_t(bodies.size());
  std::vector<uint32_t>& parent = islandScratch;
  parent.resize(nBodies);
  std::iota(parent.begin(), parent.end(), 0u);
  auto root = [&](uint32_t b) {
    while (parent[b] != b) b = parent[b] = parent[parent[b]];
    return b;
  };
  islandConstrained.assign(count(), 0);
  auto join = [&](uint32_t i, uint32_t j) {
    islandConstrained[i] = islandConstrained[j] = 1;
    const uint32_t a = root(bodyOf(i)), b = root(bodyOf(j));
    if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the root is the island's first body
  };
  for (const DistanceConstraint& d : distances) join(d.i, d.j);
  for (const DihedralConstraint& d : dihedrals) join(d.p0, d.p1), join(d.p0, d.p2), join(d.p0, d.p3);
  for (const TetVolumeConstraint& t : volumes) join(t.p[0], t.p[1]), join(t.p[0], t.p[2]), join(t.p[0], t.p[3]);
  for (const NeoHookeanTet& e : neoHookeans) join(e.p[0], e.p[1]), join(e.p[0], e.p[2]), join(e.p[0], e.p[3]);
  for (const TriangleStrainConstraint& t : triangleStrains) join(t.p[0], t.p[1]), join(t.p[0], t.p[2]);
  for (const GlobalVolumeConstraint& g : globalVolumes)
    for (uint32_t k = 1; k < g.vertexCount; ++k)
      join(surfaceVertices[g.firstVertex], surfaceVertices[g.firstVertex + k]);
  for (const ShapeMatchingCluster& c : shapeMatchings)
    for (uint32_t k = 1; k < c.memberCount; ++k)
      join(shapeMatchingMembers[c.firstMember], shapeMatchingMembers[c.firstMember + k]);
  // Number the islands (a root precedes its members), then list the bodies by island: a counting sort.
  for (uint32_t b = 0; b < nBodies; ++b) parent[b] = root(b);
  uint32_t islands = 0;
  islandBegin.assign(1, 0);
  for (uint32_t b = 0; b < nBodies; ++b) {
    if (parent[b] == b) {  // a root: the island's first body
      parent[b] = islands++;
      islandBegin.push_back(0);
    } else {
      parent[b] = parent[parent[b]];  // the root, an earlier body, already holds its island's number
    }
    ++islandBegin[parent[b] + 1];
  }
  for (uint32_t k = 0; k < islands; ++k) islandBegin[k + 1] += islandBegin[k];
  islandBodies.resize(nBodies);
  islandFrames.resize(islands);
  for (uint32_t k = 0; k < islands; ++k) islandFrames[k].next = islandBegin[k];
  for (uint32_t b = 0; b < nBodies; ++b) islandBodies[islandFrames[parent[b]].next++] = b;
}

/// Once per substep: which islands are free (no pinned particle, at least two particles), and their lever frames.
void World::Impl::prepareIslandFrames(bool bdf2) {
  anyFreeIsland = false;
  for (uint32_t k = 0; k + 1 < islandBegin.size(); ++k) {
    IslandFrame& f = islandFrames[k];
    f.free = false;
    if (islandHasPin(k)) continue;
    double mass = 0;
    Vec3d centre = Vec3d::Zero();
    uint32_t particles = 0;
    forEachIslandParticle(k, [&](uint32_t i) {
      const double m = 1.0 / w[i];
      mass += m;
      centre += m * lever(i, bdf2);
      ++particles;
    });
    if (particles < 2) continue;
    f.centre = centre / mass;
    Eigen::Matrix3d I = Eigen::Matrix3d::Zero();
    forEachIslandParticle(k, [&](uint32_t i) { I += particleInertia(1.0 / w[i], lever(i, bdf2) - f.centre); });
    f.inverseInertia = inverseOnRange(I);
    f.bdf2 = bdf2;
    f.free = anyFreeIsland = true;
  }
}

/// Stops at the first pinned particle: a pinned cloth's island is told apart at its corner, not after a walk.
bool World::Impl::islandHasPin(uint32_t k) const {
  for (uint32_t n = islandBegin[k]; n < islandBegin[k + 1]; ++n)
    for (uint32_t i = bodies[islandBodies[n]].begin; i < bodies[islandBodies[n]].end; ++i)
      if (islandConstrained[i] && w[i] == 0) return true;
  return false;
}

Vec3d World::Impl::lever(uint32_t i, bool bdf2) const {
  return bdf2 ? (4.0 * load3d(x, i) - load3d(xPrev, i)) / 3.0 : load3d(x, i);
}

Vec3d World::Impl::islandTorqueSum(uint32_t k) const {
  const IslandFrame& f = islandFrames[k];
  Vec3d T = Vec3d::Zero();
  forEachIslandParticle(k, [&](uint32_t i) {
    T += (1.0 / w[i]) * (lever(i, f.bdf2) - f.centre).cross(load3d(p, i) - f.centre);
  });
  return T;
}

void World::Impl::beginInternalProjections() {
  if (!anyFreeIsland) return;
  for (uint32_t k = 0; k < islandFrames.size(); ++k)
    if (islandFrames[k].free) islandFrames[k].before = islandTorqueSum(k);
}

void World::Impl::endInternalProjections() {
  if (!anyFreeIsland) return;
  for (uint32_t k = 0; k < islandFrames.size(); ++k) {
    const IslandFrame& f = islandFrames[k];
    if (!f.free) continue;
    const Vec3d theta = f.inverseInertia * (f.before - islandTorqueSum(k));
    // A rotation of more than kMaxGuardAngle in one iteration is no round-off of the sweep's order: the body is being
    // torn apart (or is non-finite, for the step's guard to roll back), and a linearized rotation that large would
    // stretch it further. Left alone.
    if (!(theta.norm() <= kMaxGuardAngle)) continue;
    forEachIslandParticle(k, [&](uint32_t i) {
      const Vec3d d = theta.cross(lever(i, f.bdf2) - f.centre);
      for (int a = 0; a < 3; ++a) p[3 * i + a] += Real(d[a]);
    });
  }
}

/// After the settle (step.cpp): the positions moved from x⁰ to x under the velocities the step found, which changes
/// Σ m x × v by Σ m (x − x⁰) × v. Per free island, a rigid rotation added to the velocities puts it back:
///   L⁰ = Σ m (x⁰ − c) × v,   L¹ = Σ m (x − c) × v,   ω = I⁺ (L⁰ − L¹),   v_i += ω × (x_i − c)
/// with c and I of the settled positions (prepareIslandFrames); Σ m ω × (x − c) = 0 adds no linear momentum. Islands
/// with a pin are left alone, as the guard leaves them.
void World::Impl::keepIslandAngularMomenta(const std::vector<Real>& x0) {
  prepareIslandFrames(false);
  if (!anyFreeIsland) return;
  for (uint32_t k = 0; k < islandFrames.size(); ++k) {
    const IslandFrame& f = islandFrames[k];
    if (!f.free) continue;
    Vec3d change = Vec3d::Zero();  // L⁰ − L¹ = Σ m (x⁰ − x) × v
    forEachIslandParticle(k, [&](uint32_t i) {
      change += (1.0 / w[i]) * (load3d(x0, i) - load3d(x, i)).cross(load3d(v, i));
    });
    const Vec3d omega = f.inverseInertia * change;
    forEachIslandParticle(k, [&](uint32_t i) {
      const Vec3d dv = omega.cross(load3d(x, i) - f.centre);
      for (int a = 0; a < 3; ++a) v[3 * i + a] += Real(dv[a]);
    });
  }
}

}  // namespace pbd
