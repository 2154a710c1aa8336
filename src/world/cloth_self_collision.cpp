// Continuous cloth self-collision, per substep for each body that has it on:
//   broad phase  the body's triangle BVH (built once on the rest shape) is refitted with every triangle's box swept
//                from x to p and grown by the thickness, and walked against itself for overlapping triangle pairs;
//                their points, triangles and edges give the candidate pairs. While no vertex moves further than a
//                reach from where the step's candidate list was made (self_candidate_list.h), the substep filters
//                that list with its own boxes instead;
//   narrow phase continuous point–triangle and edge–edge tests over the substep (collision/continuous_contact.h),
//                batch by batch, in parallel when the world has threads;
//   solve        each contact found is a SelfContact (constraints/self_contact.h), projected with the other
//                constraints every iteration, serially in the order found (the tree walk's), so the result is
//                deterministic and the same for any thread count.
// The BVH refit was chosen over the spatial hash: a hash of triangle centres needs a query radius of the largest
// swept triangle, which one fast particle makes as large as its whole path for every query. The pair walk replaced
// a query per vertex and per edge, which descended the tree 4 times per particle (docs/performance.md, "Tuned constants").
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>

#include "collision/continuous_contact.h"
#include "world/collider_motion.h"
#include "bodies/body_builders.h"
#include "world/fold_free_cull.h"
#include "world/self_candidate_list.h"
#include "world/self_candidate_walk.h"
#include "world/world_state.h"

namespace pbd {

SelfCollidingSurface makeSelfCollidingSurface(const char* fn, uint32_t body, std::span<const Real> restXyz,
                                              std::vector<uint32_t> triangles, const ContinuousSelfCollision& settings) {
  const size_t count = restXyz.size() / 3;
  for (size_t k = 0; k < triangles.size(); ++k) {
    if (triangles[k] >= count) check::index(fn, "triangles[" + std::to_string(k) + "]", triangles[k], count);
  }
  SelfCollidingSurface s;
  s.body = body;
  s.settings = settings;
  s.triangles = std::move(triangles);
  if (settings.enabled) buildSelfCollisionIndex(s, restXyz);
  return s;
}

void buildSelfCollisionIndex(SelfCollidingSurface& s, std::span<const Real> restXyz) {
  const size_t count = restXyz.size() / 3;
  std::vector<std::pair<uint32_t, uint32_t>> edges;  // (edge, triangle) pairs sorted: owners are the first of each
  std::vector<std::pair<std::pair<uint32_t, uint32_t>, uint32_t>> corners;
  corners.reserve(s.triangles.size());
  for (uint32_t t = 0; 3 * size_t(t) < s.triangles.size(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const uint32_t i = s.triangles[3 * size_t(t) + k], j = s.triangles[3 * size_t(t) + (k + 1) % 3];
      corners.push_back({{std::min(i, j), std::max(i, j)}, t});
    }
  }
  std::vector<std::pair<std::pair<uint32_t, uint32_t>, uint32_t>> sorted = corners;
  std::sort(sorted.begin(), sorted.end());
  // An element's owner is the lowest triangle having it: the broad phase takes each point–triangle and edge–edge pair
  // from its elements' owners' pair only, so each is tested once (TriangleRecord's owned bits).
  std::vector<uint32_t> edgeOwner;
  for (const auto& [edge, t] : sorted) {
    if (!edges.empty() && edges.back() == edge) continue;
    edges.push_back(edge);
    s.edges.insert(s.edges.end(), {edge.first, edge.second});
    edgeOwner.push_back(t);
  }
  s.triangleEdges.reserve(corners.size());
  for (const auto& [edge, t] : corners) {
    s.triangleEdges.push_back(uint32_t(std::lower_bound(edges.begin(), edges.end(), edge) - edges.begin()));
  }
  s.sweptLo.resize(count);
  s.sweptHi.resize(count);
  std::vector<uint32_t> vertexOwner(count, TriangleBvh::kNone);
  for (uint32_t k = uint32_t(s.triangles.size()); k-- > 0;) vertexOwner[s.triangles[k]] = uint32_t(k / 3);
  const size_t triangleCount = s.triangles.size() / 3;
  s.records.resize(triangleCount);
  for (uint32_t t = 0; t < triangleCount; ++t) {
    SelfCollidingSurface::TriangleRecord& r = s.records[t];
    r.ownedCorners = r.ownedEdges = 0;
    for (int k = 0; k < 3; ++k) {
      r.corner[k] = s.triangles[3 * size_t(t) + k];
      r.edge[k] = s.triangleEdges[3 * size_t(t) + k];
      r.ownedCorners |= uint8_t(vertexOwner[r.corner[k]] == t) << k;
      r.ownedEdges |= uint8_t(edgeOwner[r.edge[k]] == t) << k;
    }
  }
  s.edgeLo.resize(edges.size());
  s.edgeHi.resize(edges.size());
  s.triangleLo.resize(triangleCount);
  s.triangleHi.resize(triangleCount);
  std::vector<Point3d> rest(count);
  for (size_t i = 0; i < count; ++i) rest[i] = Point3d(restXyz[3 * i], restXyz[3 * i + 1], restXyz[3 * i + 2]);
  s.bvh = TriangleBvh(std::move(rest), s.triangles);
  buildFoldFreeIndex(s);
  s.walkParts.resize(kMaxWalkParts);
  s.walkScratch.resize(kMaxWalkParts);
  s.walkPartPairs.resize(kMaxWalkParts);
  s.walkPairs.resize(std::max(kMinWalkPairs, kWalkPairsPerTriangle * triangleCount));
  s.listedPairs.reserve(kListedPairsPerTriangle * triangleCount);
  s.listAnchor.resize(count);
  s.frozenInRound.assign(count, 0);
  s.nodeFrozen.assign(s.bvh.nodes().size(), 0);
}

void checkSelfCollisionThickness(const char* fn, const std::string& arg, const ContinuousSelfCollision& settings,
                                 std::span<const uint32_t> triangles, std::span<const Real> restXyz) {
  if (!settings.enabled) return;
  double shortest = std::numeric_limits<double>::infinity();
  for (size_t t = 0; t + 2 < triangles.size(); t += 3) {
    for (int k = 0; k < 3; ++k) {
      const uint32_t i = triangles[t + k], j = triangles[t + (k + 1) % 3];
      double squared = 0;
      for (int a = 0; a < 3; ++a) squared += std::pow(double(restXyz[3 * size_t(i) + a]) - restXyz[3 * size_t(j) + a], 2);
      shortest = std::min(shortest, std::sqrt(squared));
    }
  }
  const double bound = shortest / std::sqrt(2.0);
  if (!(double(settings.thickness) < bound)) {
    std::ostringstream reason;
    reason << "must be < the shortest rest edge / sqrt(2) = " << bound;
    check::fail(fn, arg.empty() ? "thickness" : arg + ".thickness", reason.str().c_str(), settings.thickness);
  }
}

SelfCollidingSurface* World::Impl::selfSurfaceOf(uint32_t body) {
  const auto it = std::lower_bound(selfCollision.selfSurfaces.begin(), selfCollision.selfSurfaces.end(), body,
                                   [](const SelfCollidingSurface& s, uint32_t b) { return s.body < b; });
  return it != selfCollision.selfSurfaces.end() && it->body == body ? &*it : nullptr;
}

void World::Impl::reserveSelfSurface(const SelfCollidingSurface& surface) {
  selfCollision.selfSurfaces.reserve(selfCollision.selfSurfaces.size() + 1);
  reserveSelfContacts(surface);
}

// Only a surface that self-collides needs room for contacts: at 4 per element this is most of a cloth's memory
// (12.6 MB of 28 MB for a 128 x 128 cloth), so a surface switched off has none until it is switched on.
void World::Impl::reserveSelfContacts(const SelfCollidingSurface& surface) {
  if (!surface.settings.enabled) return;
  const size_t elements = surface.bvh.vertices().size() + surface.edges.size() / 2;
  selfCollision.selfContacts.reserve(selfCollision.selfContacts.capacity() + kSelfContactsPerElement * elements);
  selfCollision.selfCandidates.reserve(kSelfCandidateBlock);
  selfCollision.selfCandidateContacts.resize(kSelfCandidateBlock);
  selfCollision.selfCandidateHit.resize(kSelfCandidateBlock);
}

void World::Impl::appendSelfSurface(SelfCollidingSurface&& surface) {
  selfCollision.selfSurfaces.push_back(std::move(surface));
}

BodyRange World::Impl::appendSurfaceBody(const char* fn, const BodyBlueprint& b, const ContactMaterial& contact,
                                         const ContinuousSelfCollision& self, const Tearing& tearing) {
  check::continuousSelfCollision(fn, "continuousSelfCollision", self);
  std::optional<TearableSurface> tearable = makeTearableSurface(fn, b, tearing);
  if (tearable) this->tearing.surfaces.reserve(this->tearing.surfaces.size() + 1);
  SelfCollidingSurface surface =
      makeSelfCollidingSurface(fn, uint32_t(particles.bodies.size()), b.positions, b.triangles, self);
  checkSelfCollisionThickness(fn, "continuousSelfCollision", self, surface.triangles, b.positions);
  reserveSelfSurface(surface);
  const BodyRange range = appendBody(fn, b, contact);
  appendSelfSurface(std::move(surface));
  if (tearable) this->tearing.surfaces.push_back(std::move(*tearable));
  return range;
}

void fitTriangleSweptBoxes(SelfCollidingSurface& s) {
  for (size_t t = 0; t < s.records.size(); ++t) {
    const uint32_t* c = s.records[t].corner;
    s.triangleLo[t] = s.sweptLo[c[0]].cwiseMin(s.sweptLo[c[1]]).cwiseMin(s.sweptLo[c[2]]);
    s.triangleHi[t] = s.sweptHi[c[0]].cwiseMax(s.sweptHi[c[1]]).cwiseMax(s.sweptHi[c[2]]);
  }
}

void sweepVertices(SelfCollidingSurface& s, std::span<const Real> x, std::span<const Real> p, uint32_t first,
                   Real pad) {
  const uint32_t n = uint32_t(s.sweptLo.size());
  for (uint32_t i = 0; i < n; ++i) {
    const size_t k = 3 * size_t(first + i);
    const Vec3 a(x[k], x[k + 1], x[k + 2]), b(p[k], p[k + 1], p[k + 2]);
    s.sweptLo[i] = a.cwiseMin(b).array() - pad;
    s.sweptHi[i] = a.cwiseMax(b).array() + pad;
  }
}

void refitSweptTree(SelfCollidingSurface& s, std::span<const Real> x, std::span<const Real> p, uint32_t first,
                    TaskSystem& tasks, double cosWidest) {
  for (size_t e = 0; e < s.edgeLo.size(); ++e) {
    const uint32_t i = s.edges[2 * e], j = s.edges[2 * e + 1];
    s.edgeLo[e] = s.sweptLo[i].cwiseMin(s.sweptLo[j]);
    s.edgeHi[e] = s.sweptHi[i].cwiseMax(s.sweptHi[j]);
  }
  fitTriangleSweptBoxes(s);
  s.bvh.refitTriangleBoxes(s.triangleLo, s.triangleHi);
  fitNormalCones(s, x, p, first, tasks, cosWidest);
}

namespace {

/// Half the thickness, rounded up a little so that the float boxes stay conservative.
Real halfPad(Real thickness) { return thickness * Real(0.5) * (1 + Real(1e-5)) + Real(1e-9); }

/// The failsafe's separation, as a fraction of the thickness: a pair the solve left closer than this (and closer
/// than it started) is frozen. Half: the contacts keep the full thickness, so a pair resting in contact is never
/// frozen, while a pair that came within half of it (or through) is one the solve failed.
constexpr double kFailsafeFraction = 0.5;

/// Freezing rounds before the failsafe freezes the whole body: each round freezes at least one more particle, and a
/// round finds nothing in practice after two or three.
constexpr int kFailsafeRounds = 8;

/// Refits the surface's BVH to every element's path from x to p, boxed and grown by `pad`, and its normal cones.
void sweepSurface(SelfCollidingSurface& s, const std::vector<Real>& x, const std::vector<Real>& p, uint32_t first, Real pad,
                  TaskSystem& tasks) {
  sweepVertices(s, x, p, first, pad);
  refitSweptTree(s, x, p, first, tasks, kSelfCullCosHalfAngle);
}

/// s.nodeFrozen: whether each BVH node holds a triangle with a corner frozen in failsafe round `round - 1`.
/// Children have larger ids than their parents, so one backward pass merges them.
void markNodesWithFrozenParticles(SelfCollidingSurface& s, uint8_t round) {
  const std::vector<TriangleBvh::Node>& nodes = s.bvh.nodes();
  for (size_t k = nodes.size(); k-- > 0;) {
    const TriangleBvh::Node& node = nodes[k];
    if (node.left >= 0) {
      s.nodeFrozen[k] = s.nodeFrozen[size_t(node.left)] | s.nodeFrozen[size_t(node.right)];
      continue;
    }
    uint8_t any = 0;
    for (uint32_t j = node.first; j < node.first + node.count; ++j) {
      for (uint32_t corner : s.records[s.bvh.triangleAt(j)].corner) any |= s.frozenInRound[corner] == round;
    }
    s.nodeFrozen[k] = any;
  }
}

}  // namespace

void World::Impl::forgetSelfCandidateLists() {
  for (SelfCollidingSurface& s : selfCollision.selfSurfaces) forgetCandidateList(s);
}

// Broad phase: each vertex's path over the substep is boxed and grown by half the thickness, so any two elements
// that can come within the thickness have overlapping boxes, and so have their triangles. The BVH, refitted with
// those triangle boxes, is walked against itself for overlapping triangle pairs; each point–triangle and edge–edge
// pair is taken from the pair of its elements' owner triangles only (once), after the test of its own two boxes.
// The walk skips every node pair that is one patch whose swept normals keep within π/3 (kSelfCullCosHalfAngle) of an axis
// (fold_free_cull.h): such a patch cannot fold onto itself, so a flat or gently draped cloth enumerates only the
// pairs across its folds. The narrow phase runs on batches of candidates (testSelfCandidates). The walk is made
// once for the step's candidate list, and again only when a vertex leaves the list's reach (the list is then made
// anew) or when a list cannot be made (a vertex moves further than the reach within the substep, or the list does
// not fit): then the substep walks as described, without a list.
void World::Impl::findContinuousSelfContacts() {
  selfCollision.selfContacts.clear();
  for (SelfCollidingSurface& s : selfCollision.selfSurfaces) {
    if (!s.settings.enabled) continue;
    const uint32_t first = particles.bodies[s.body].begin;
    const Real pad = halfPad(s.settings.thickness);
    auto gather = [&](uint32_t a, uint32_t b, uint32_t c, uint32_t d, bool pointTriangle) {
      if (particles.w[first + a] == 0 && particles.w[first + b] == 0 && particles.w[first + c] == 0 &&
          particles.w[first + d] == 0)
        return;
      if (selfCollision.selfCandidates.size() == selfCollision.selfCandidates.capacity()) testSelfCandidates();
      selfCollision.selfCandidates.push_back(
          {{first + a, first + b, first + c, first + d}, s.settings.thickness, pointTriangle});
    };
    bool listed = listHolds(s, particles.x, particles.p, first);
    if (!listed && makeCandidateList(s, particles.x, particles.p, first, pad, *tasks))
      listed = true, ++diagnostics.report.selfCandidateLists;
    if (listed) {
      sweepVertices(s, particles.x, particles.p, first, pad);
      forEachListedCandidate(s, gather);
    } else {
      ++diagnostics.report.selfTreeWalks;
      sweepSurface(s, particles.x, particles.p, first, pad, *tasks);
      forEachSelfCandidate(s, *tasks, gather, [&](int32_t a, int32_t b) { return foldFree(s, a, b); });
    }
    testSelfCandidates();
  }
}

/// Runs test(k, start, end) for every gathered candidate k with its four points' paths over the substep (double
/// precision), in parallel ranges when there are threads; each writes its own slot k.
template <class Test>
void World::Impl::testGatheredSelfCandidates(Test test) {
  auto range = [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) {
      Point3d start[4], finish[4];
      for (int j = 0; j < 4; ++j) {
        start[j] = particleAt(particles.x, selfCollision.selfCandidates[k].particle[j]).cast<double>();
        finish[j] = particleAt(particles.p, selfCollision.selfCandidates[k].particle[j]).cast<double>();
      }
      test(k, start, finish);
    }
  };
  tasks->parallelFor(selfCollision.selfCandidates.size(), kSelfCandidatesPerTask, range);
}

// Narrow phase of one batch: every candidate is tested on its own (in parallel ranges when there are threads), then
// the contacts are appended in candidate order, so the result does not depend on the thread count. When the room
// reserved for contacts is full the rest are counted in the step report and dropped.
void World::Impl::testSelfCandidates() {
  diagnostics.clock.lap(diagnostics.timings.broadPhaseMs);
  testGatheredSelfCandidates([&](size_t k, const Point3d* start, const Point3d* finish) {
    const SelfContactCandidate& c = selfCollision.selfCandidates[k];
    const std::optional<ContinuousContact> hit = c.pointTriangle ? pointTriangleContact(start, finish, c.thickness)
                                                                      : edgeEdgeContact(start, finish, c.thickness);
    selfCollision.selfCandidateHit[k] = hit.has_value();
    if (!hit) return;
    SelfContact& contact = selfCollision.selfCandidateContacts[k];
    contact = SelfContact{{c.particle[0], c.particle[1], c.particle[2], c.particle[3]}, {}, hit->normal.cast<Real>(),
                          c.thickness};
    for (int j = 0; j < 4; ++j) contact.weight[j] = Real(hit->weight[j]);
  });
  diagnostics.report.selfCandidates += uint32_t(selfCollision.selfCandidates.size());
  for (size_t k = 0; k < selfCollision.selfCandidates.size(); ++k) {
    if (!selfCollision.selfCandidateHit[k]) continue;
    ++diagnostics.report.selfContactsFound;
    if (selfCollision.selfContacts.size() < selfCollision.selfContacts.capacity())
      selfCollision.selfContacts.push_back(selfCollision.selfCandidateContacts[k]);
    else
      ++diagnostics.report.droppedSelfContacts;
  }
  selfCollision.selfCandidates.clear();
  diagnostics.clock.lap(diagnostics.timings.narrowPhaseMs);
}

// The failsafe after the solve (Bridson et al. 2002 end theirs with rigid impact zones; this freezes instead). The
// contacts are found on the predicted paths x -> p, but the solve moves p on: with few iterations a rigid cloth's
// corrections can exceed the thickness (a 64² cloth crumpling on the ground: 1 cm in one substep), and carry an
// element through one that no contact was made for. So the final paths are checked with the same broad phase
// (padded by the failsafe's separation only), and every particle of a failed pair (failsafeViolation) is frozen:
// p = x, where it was intersection-free, so that pair cannot have crossed. Freezing changes paths, so this repeats
// until a round freezes nothing; after kFailsafeRounds the whole body is frozen for the substep. A frozen path lies
// inside its box, so the later rounds keep the boxes and walk only the nodes holding a particle frozen in the round
// before. Pairs that cannot move (every particle pinned or frozen) are left alone, so a pair that started too close
// is not held there forever.
void World::Impl::freezeFailedSelfContacts() {
  selfCollision.selfFrozeThisSubstep = false;
  for (SelfCollidingSurface& s : selfCollision.selfSurfaces) {
    if (!s.settings.enabled) continue;
    const ParticleRange body = particles.bodies[s.body];
    const double separation = kFailsafeFraction * double(s.settings.thickness);
    auto moving = [&](uint32_t i) {
      return particles.w[i] != 0 && particleAt(particles.p, i) != particleAt(particles.x, i);
    };
    // Puts particle i back where the substep began; stamp: 1 + the round (kFailsafeRounds + 1: the whole body).
    auto freeze = [&](uint32_t i, int stamp) {
      std::copy_n(&particles.x[3 * size_t(i)], 3, &particles.p[3 * size_t(i)]);
      s.frozenInRound[i - body.begin] = uint8_t(stamp);
      ++diagnostics.report.selfFrozenParticles;
      selfCollision.selfFrozeThisSubstep = true;
    };
    std::fill(s.frozenInRound.begin(), s.frozenInRound.end(), uint8_t(0));
    // The step's candidate list, while the paths stay within its reach: the solve's, then each round's (a frozen
    // particle's p = x moves the mean displacement of p, which the reach is counted from). Otherwise the tree, fitted
    // to the paths in the first round that walks.
    bool listed = listHolds(s, particles.x, particles.p, body.begin), fitted = false;
    bool settled = false;
    for (int round = 0; round < kFailsafeRounds && !settled; ++round) {
      uint32_t frozen = 0;
      auto freezeFailed = [&] {
        diagnostics.clock.lap(diagnostics.timings.broadPhaseMs);
        testGatheredSelfCandidates([&](size_t k, const Point3d* start, const Point3d* finish) {
          selfCollision.selfCandidateHit[k] =
              failsafeViolation(start, finish, selfCollision.selfCandidates[k].pointTriangle, separation);
        });
        for (size_t k = 0; k < selfCollision.selfCandidates.size(); ++k) {  // in order: the same for any thread count
          if (!selfCollision.selfCandidateHit[k]) continue;
          for (uint32_t i : selfCollision.selfCandidates[k].particle) {
            if (!moving(i)) continue;
            freeze(i, round + 1);
            ++frozen;
          }
        }
        selfCollision.selfCandidates.clear();
        diagnostics.clock.lap(diagnostics.timings.narrowPhaseMs);
      };
      // Round 0 takes every pair; a later one only pairs with a particle the round before froze.
      auto recent = [&](uint32_t local) { return round == 0 || s.frozenInRound[local] == round; };
      if (round > 0 && listed) listed = listHolds(s, particles.x, particles.p, body.begin);
      if (round == 0 && listed) {
        sweepVertices(s, particles.x, particles.p, body.begin, halfPad(Real(separation)));
      } else if (!listed && !fitted) {
        sweepSurface(s, particles.x, particles.p, body.begin, halfPad(Real(separation)), *tasks);
        fitted = true;
        if (round > 0) markNodesWithFrozenParticles(s, uint8_t(round));
      } else if (!listed) {
        fitNormalCones(s, particles.x, particles.p, body.begin, *tasks);  // the frozen triangles turned
        markNodesWithFrozenParticles(s, uint8_t(round));
      }
      auto visit = [&](uint32_t a, uint32_t b, uint32_t c, uint32_t d, bool pointTriangle) {
        if (!recent(a) && !recent(b) && !recent(c) && !recent(d)) return;
        const uint32_t q[4] = {body.begin + a, body.begin + b, body.begin + c, body.begin + d};
        if (!moving(q[0]) && !moving(q[1]) && !moving(q[2]) && !moving(q[3])) return;
        if (selfCollision.selfCandidates.size() == selfCollision.selfCandidates.capacity()) freezeFailed();
        selfCollision.selfCandidates.push_back({{q[0], q[1], q[2], q[3]}, Real(separation), pointTriangle});
      };
      if (listed) {
        forEachListedCandidate(s, visit);
      } else {
        ++diagnostics.report.selfTreeWalks;
        forEachSelfCandidate(s, *tasks, visit, [&](int32_t na, int32_t nb) {
          return (round > 0 && !s.nodeFrozen[size_t(na)] && !s.nodeFrozen[size_t(nb)]) || foldFree(s, na, nb);
        });
      }
      freezeFailed();
      settled = frozen == 0;
    }
    if (settled) continue;
    for (uint32_t i = body.begin; i < body.end; ++i) {
      if (moving(i)) freeze(i, kFailsafeRounds + 1);
    }
    diagnostics.clock.lap(diagnostics.timings.narrowPhaseMs);
  }
}

// A frozen particle stays where the substep began, and stops: BDF2's velocity carries the history (it would be
// about -(x - x_prev)/(2h), a bounce back), and Euler's commit, v += (p - inertial)/h, would keep a rounding.
void World::Impl::stopFrozenParticles() {
  if (!selfCollision.selfFrozeThisSubstep) return;
  for (const SelfCollidingSurface& s : selfCollision.selfSurfaces) {
    if (!s.settings.enabled) continue;
    const uint32_t first = particles.bodies[s.body].begin;
    for (uint32_t i = 0; i < s.frozenInRound.size(); ++i) {
      if (s.frozenInRound[i]) std::fill_n(&particles.v[3 * size_t(first + i)], 3, Real(0));
    }
  }
}

void World::Impl::projectContinuousSelfContacts() {
  Vec3* P = asVec3(particles.p);
  for (const SelfContact& c : selfCollision.selfContacts) {
    Vec3* const xs[4] = {&P[c.particle[0]], &P[c.particle[1]], &P[c.particle[2]], &P[c.particle[3]]};
    const Real ws[4] = {particles.w[c.particle[0]], particles.w[c.particle[1]], particles.w[c.particle[2]],
                        particles.w[c.particle[3]]};
    projectSelfContact(xs, ws, c.weight, c.normal, c.thickness);
  }
}

void World::setContinuousSelfCollision(uint32_t body, const ContinuousSelfCollision& settings) {
  const char* fn = "setContinuousSelfCollision";
  check::index(fn, "body", body, impl_->particles.bodies.size());
  SelfCollidingSurface* s = impl_->selfSurfaceOf(body);
  if (!s) check::fail(fn, "body", "has no triangles (only cloth and triangle-mesh bodies self-collide)", body);
  check::continuousSelfCollision(fn, "", settings);
  const ParticleRange range = impl_->particles.bodies[body];
  const std::span<const Real> rest(impl_->particles.restX.data() + 3 * size_t(range.begin),
                                   3 * size_t(range.end - range.begin));
  checkSelfCollisionThickness(fn, "", settings, s->triangles, rest);
  if (settings.enabled && s->edges.empty()) {
    // Switched on for the first time: build the index and the contact room (may throw; nothing changed yet).
    SelfCollidingSurface built;
    built.body = s->body;
    built.settings = settings;
    built.triangles = s->triangles;
    built.identity = s->identity;
    buildSelfCollisionIndex(built, rest);
    impl_->reserveSelfContacts(built);
    *s = std::move(built);
  }
  s->settings = settings;
}

const ContinuousSelfCollision& World::continuousSelfCollision(uint32_t body) const {
  const char* fn = "continuousSelfCollision";
  check::index(fn, "body", body, impl_->particles.bodies.size());
  const SelfCollidingSurface* s = impl_->selfSurfaceOf(body);
  if (!s) check::fail(fn, "body", "has no triangles (only cloth and triangle-mesh bodies self-collide)", body);
  return s->settings;
}

uint32_t World::continuousSelfContactCount() const { return uint32_t(impl_->selfCollision.selfContacts.size()); }

}  // namespace pbd
