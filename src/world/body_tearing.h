// World::tearEdges' edit of a parsed snapshot (snapshot.cpp), as body_removal.h's is for removeBody: the torn
// body's vertices split (mesh/tear_topology.h), the new particles go in at the body's end and everything after
// moves up, and the body's own constraints are replaced by their instances on the pieces. snapshot.cpp builds the
// world from the result, so colours, schedules and capacities are made as for any world.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "base/checks.h"
#include "mesh/tear_topology.h"
#include "pbd/bodies.h"

namespace pbd::body_tearing {

/// Inserts `count` values per particle for the new particles at particle `at` of an array of `width` values per
/// particle, each copied from its source particle and scaled by `scale` (1 when null).
template <class T>
void insertParticles(std::vector<T>& a, size_t width, uint32_t at, const std::vector<uint32_t>& sources,
                     const std::vector<Real>* scale = nullptr) {
  if (a.size() < width * at) return;  // an optional array left empty
  std::vector<T> added;
  added.reserve(width * sources.size());
  for (size_t k = 0; k < sources.size(); ++k)
    for (size_t c = 0; c < width; ++c) added.push_back(T(a[width * sources[k] + c] * (scale ? (*scale)[k] : 1)));
  a.insert(a.begin() + ptrdiff_t(width * at), added.begin(), added.end());
}

/// Every particle index a constraint of any kind, attachment or rod holds, at or after `at`, moves up by `count`.
template <class M>
void shiftParticleIndices(M& s, uint32_t at, uint32_t count) {
  auto up = [&](uint32_t& i) { if (i >= at) i += count; };
  for (auto& c : s.constraints.distances) up(c.i), up(c.j);
  for (auto& d : s.constraints.dihedrals) up(d.p0), up(d.p1), up(d.p2), up(d.p3);
  for (auto& t : s.constraints.volumes) for (uint32_t& i : t.p) up(i);
  for (auto& t : s.constraints.neoHookeans) for (uint32_t& i : t.p) up(i);
  for (auto& t : s.constraints.triangleStrains) for (uint32_t& i : t.p) up(i);
  for (uint32_t& i : s.constraints.surfaceVertices) up(i);
  for (uint32_t& i : s.constraints.shapeMatchingMembers) up(i);
  for (auto& t : s.constraints.tethers) up(t.particle), up(t.anchor);
  for (auto& a : s.constraints.attachments) if (a.active) up(a.particle);
  for (auto& c : s.constraints.skinned) up(c.particle);
  for (auto& r : s.rods.segments) up(r.p0), up(r.p1);
}

/// Replaces each element of `v` whose particles (particlesOf(e): a span-like list of body-local indices, or empty
/// when it is not the body's own) by its instances (instancesOf(e, out) appends them, returns how many), built by
/// make(e, instance); records (old index, new count) for every count other than 1 in `edits`.
template <class T, class Local, class Instances, class Make>
void replaceByInstances(std::vector<T>& v, Local local, Instances instancesOf, Make make, std::vector<uint32_t>& edits) {
  std::vector<T> out;
  out.reserve(v.size());
  std::vector<std::array<uint32_t, 4>> instances;
  for (size_t k = 0; k < v.size(); ++k) {
    if (!local(v[k])) {
      out.push_back(v[k]);
      continue;
    }
    instances.clear();
    const size_t n = instancesOf(v[k], instances);
    for (const auto& instance : instances) out.push_back(make(v[k], instance));
    if (n != 1) edits.insert(edits.end(), {uint32_t(k), uint32_t(n)});
  }
  v = std::move(out);
}

/// Tears the edges (pairs of world particle indices, checked to lie in the body) of tearable body `body` in the
/// staged world `s` (World::Impl) and the loader's scratch. Throws InvalidArgument naming "<fn>: edges[2k]" for a
/// pair that is no edge of the body's triangles.
template <class M, class Scratch>
TearReport tearBody(const char* fn, M& s, Scratch& scratch, uint32_t body, std::span<const uint32_t> edges) {
  auto& surface = *s.tearing.find(body);
  mesh::TornMesh& torn = surface.mesh;
  const uint32_t begin = s.particles.bodies[body].begin, at = s.particles.bodies[body].end;
  std::vector<uint32_t> local(edges.begin(), edges.end());
  for (uint32_t& i : local) i -= begin;
  const std::vector<uint8_t> sidesBefore = torn.tornSides;
  const std::vector<uint32_t> cornersBefore = torn.triangles;
  const size_t bad = mesh::markTorn(torn, local);
  if (bad < local.size() / 2) {
    check::fail(fn, "edges[" + std::to_string(2 * bad) + "]", "and the next particle are no edge of the body's triangles",
                edges[2 * bad]);
  }
  const std::vector<uint32_t> sources = mesh::splitVertices(torn);
  const uint32_t added = uint32_t(sources.size());
  mesh::TearPatches patches(torn, sources);
  auto sourceOf = [&](uint32_t i) { return patches.lineage(i); };  // the vertex before the split

  // Mass: a split vertex's mass is shared among its copies by the rest areas of their triangles (by their counts
  // where the areas vanish); each copy keeps the velocity, so the momentum is kept too.
  const uint32_t oldCount = at - begin;
  std::vector<double> area(oldCount + added, 0.0), triangles(oldCount + added, 0.0);
  auto rest = [&](uint32_t i) {
    const Real* r = s.particles.restX.data() + 3 * size_t(begin + sourceOf(i));
    return Vec3(r[0], r[1], r[2]);
  };
  for (size_t t = 0; 3 * t < torn.triangles.size(); ++t) {
    const uint32_t* c = torn.triangles.data() + 3 * t;
    const double a = 0.5 * double((rest(c[1]) - rest(c[0])).cross(rest(c[2]) - rest(c[0])).norm());
    for (int k = 0; k < 3; ++k) area[c[k]] += a, triangles[c[k]] += 1;
  }
  std::vector<double> familyArea(oldCount, 0.0), familyTriangles(oldCount, 0.0);
  for (uint32_t i = 0; i < oldCount + added; ++i) familyArea[sourceOf(i)] += area[i], familyTriangles[sourceOf(i)] += triangles[i];
  std::vector<Real> share(oldCount + added, 1);  // of its source's mass
  for (uint32_t i = 0; i < oldCount + added; ++i) {
    const uint32_t f = sourceOf(i);
    if (familyTriangles[f] == triangles[i]) continue;  // not split
    share[i] = Real(familyArea[f] > 0 ? area[i] / familyArea[f] : triangles[i] / familyTriangles[f]);
  }
  std::vector<uint32_t> globalSources(sources);
  for (uint32_t& i : globalSources) i += begin;
  const std::vector<Real> newShares(share.begin() + oldCount, share.end());
  std::vector<Real> newInverse(added);
  for (uint32_t k = 0; k < added; ++k) newInverse[k] = s.particles.w[globalSources[k]] / newShares[k];
  for (uint32_t i = 0; i < oldCount; ++i) {
    if (share[i] != 1) {
      s.particles.w[begin + i] /= share[i];
      for (int c = 0; c < 3; ++c) s.particles.force[3 * size_t(begin + i) + c] *= share[i];
    }
  }
  for (std::vector<Real>* a : {&s.particles.x, &s.particles.v, &s.particles.restX, &s.particles.xPrev,
                               &s.particles.vPrev})
    insertParticles(*a, 3, at, globalSources);
  insertParticles(s.particles.force, 3, at, globalSources, &newShares);
  s.particles.w.insert(s.particles.w.begin() + at, newInverse.begin(), newInverse.end());
  for (auto& mesh : scratch.meshes) insertParticles(mesh.inside, 1, at, globalSources);
  s.particles.bodies[body].end += added;
  for (size_t b = body + 1; b < s.particles.bodies.size(); ++b)
    s.particles.bodies[b].begin += added, s.particles.bodies[b].end += added;
  shiftParticleIndices(s, at, added);

  // The body's own constraints: those with every particle in it before the split.
  TearReport report;
  report.body = body;
  report.firstParticle = at;
  report.particleCount = added;
  report.sourceParticles = globalSources;
  std::vector<uint32_t> changed;  // triangles whose torn sides or corners this tear changed
  for (uint32_t t = 0; 3 * size_t(t) < torn.triangles.size(); ++t) {
    const bool moved = !std::equal(torn.triangles.begin() + 3 * ptrdiff_t(t), torn.triangles.begin() + 3 * ptrdiff_t(t) + 3,
                                   cornersBefore.begin() + 3 * ptrdiff_t(t));
    if (moved || torn.tornSides[t] != sidesBefore[t]) changed.push_back(t);
  }
  patches.limitTo(changed);
  auto mine = [&](std::initializer_list<uint32_t> p) {
    return std::all_of(p.begin(), p.end(), [&](uint32_t i) { return i >= begin && i < at; });
  };
  auto instancesOf = [&](std::initializer_list<uint32_t> p, std::vector<std::array<uint32_t, 4>>& out) {
    std::array<uint32_t, 4> q{};
    size_t n = 0;
    for (uint32_t i : p) q[n++] = i - begin;
    const size_t count = patches.instances(std::span<const uint32_t>(q.data(), n), out);
    for (size_t k = out.size() - count; k < out.size(); ++k)
      for (size_t m = 0; m < n; ++m) out[k][m] += begin;
    return count;
  };
  auto& c = s.constraints;
  replaceByInstances(
      c.distances, [&](const auto& d) { return mine({d.i, d.j}); },
      [&](const auto& d, auto& out) { return instancesOf({d.i, d.j}, out); },
      [](auto d, const auto& q) { return d.i = q[0], d.j = q[1], d; }, report.distanceEdits);
  replaceByInstances(
      c.dihedrals, [&](const auto& d) { return mine({d.p0, d.p1, d.p2, d.p3}); },
      [&](const auto& d, auto& out) { return instancesOf({d.p0, d.p1, d.p2, d.p3}, out); },
      [](auto d, const auto& q) { return d.p0 = q[0], d.p1 = q[1], d.p2 = q[2], d.p3 = q[3], d; },
      report.dihedralEdits);
  // A strain triangle lives on its own triangle: it follows that triangle's corners.
  for (auto& t : c.triangleStrains) {
    if (!mine({t.p[0], t.p[1], t.p[2]})) continue;
    const std::array<uint32_t, 3> q{t.p[0] - begin, t.p[1] - begin, t.p[2] - begin};
    const uint32_t host = patches.triangleOf(q);
    if (host == ~0u) continue;  // on no triangle of the body: not the body's own
    for (int k = 0; k < 3; ++k)
      for (int r = 0; r < 3; ++r)
        if (patches.lineage(torn.triangles[3 * size_t(host) + r]) == q[k]) t.p[k] = begin + torn.triangles[3 * size_t(host) + r];
  }
  // A tether holds each copy of its particle that still hangs, through the body's triangles, from a copy of its pin.
  const std::vector<uint32_t> piece = patches.pieces();
  std::vector<std::vector<uint32_t>> copies(oldCount);  // per vertex before the split: it and its new copies
  for (uint32_t v = 0; v < oldCount + added; ++v) copies[sourceOf(v)].push_back(v);
  replaceByInstances(
      c.tethers, [&](const auto& t) { return mine({t.particle, t.anchor}); },
      [&](const auto& t, auto& out) {
        size_t n = 0;
        for (uint32_t v : copies[t.particle - begin]) {
          for (uint32_t a : copies[t.anchor - begin]) {
            if (piece[a] == piece[v]) {
              out.push_back({begin + v, begin + a, 0, 0}), ++n;
              break;
            }
          }
        }
        return n;
      },
      [](auto t, const auto& q) { return t.particle = q[0], t.anchor = q[1], t; }, report.tetherEdits);

  c.distanceColour.clear();     // the greedy colouring is replayed over the new constraints
  scratch.vbdPenalties.clear();  // numbered over every element kind: VBD's penalties start over
  for (auto& self : s.selfCollision.selfSurfaces)
    if (self.body == body) self.triangles = torn.triangles;
  return report;
}

}  // namespace pbd::body_tearing
