// World::removeBody's edit of a parsed snapshot (snapshot.cpp): the body's particles go, and with them every
// constraint, surface, cluster, tether, attachment and skinned constraint that touches one. Everything after them moves down and keeps
// its order, so the world that snapshot.cpp builds from the result is the world as if the body had never been added
// (colours, which only need to stay a valid colouring, are kept).
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

#include "pbd/bodies.h"

namespace pbd::body_removal {

/// Keeps the elements of `v` for which keep(element, index) is true, in order; records the removed indices as runs
/// [begin, end) appended to `runs` (if not null).
template <class T, class Keep>
void keepIf(std::vector<T>& v, Keep keep, std::vector<uint32_t>* runs = nullptr) {
  size_t out = 0;
  for (size_t k = 0; k < v.size(); ++k) {
    if (keep(v[k], k)) {
      if (out != k) v[out] = std::move(v[k]);
      ++out;
    } else if (runs) {
      if (!runs->empty() && runs->back() == k) ++runs->back();
      else runs->insert(runs->end(), {uint32_t(k), uint32_t(k + 1)});
    }
  }
  v.resize(out);
}

/// Erases [begin, end) of `v` when `v` reaches that far (optional per-particle or per-body arrays may be empty).
template <class T>
void eraseRange(std::vector<T>& v, size_t begin, size_t end) {
  if (v.size() >= end) v.erase(v.begin() + ptrdiff_t(begin), v.begin() + ptrdiff_t(end));
}

/// Particle indices after the removal of [begin, end): those after move down; `gone` says which were removed.
struct ParticleMap {
  uint32_t begin, end;
  bool gone(uint32_t i) const { return i >= begin && i < end; }
  uint32_t operator()(uint32_t i) const { return i >= end ? i - (end - begin) : i; }
  /// Remaps every index of `p` (count of them); false, unchanged, if one of them was removed.
  bool remap(uint32_t* p, size_t count) const {
    for (size_t k = 0; k < count; ++k) {
      if (gone(p[k])) return false;
    }
    for (size_t k = 0; k < count; ++k) p[k] = (*this)(p[k]);
    return true;
  }
  /// remap over the named index fields of one element (a distance's i and j, a dihedral's four, a tether's two).
  template <class... Ids>
  bool remapFields(Ids&... ids) const {
    uint32_t p[] = {ids...};
    if (!remap(p, sizeof...(ids))) return false;
    size_t k = 0;
    ((ids = p[k++]), ...);
    return true;
  }
};

/// Element arrays whose particles are a fixed array `p` (tets, strain triangles): kept and remapped, or dropped.
template <class T>
void removeElements(std::vector<T>& v, const ParticleMap& map, std::vector<uint32_t>* runs = nullptr) {
  keepIf(v, [&](T& e, size_t) { return map.remap(e.p, std::size(e.p)); }, runs);
}

/// Closed surfaces (surface volume constraints): one with a removed vertex goes with its vertex and triangle
/// slices; the others are remapped and packed in order (triangles index their surface's vertices, so stay as they are).
template <class M>
void removeSurfaces(M& s, const ParticleMap& map) {
  std::vector<uint32_t> vertices, triangles;
  keepIf(s.constraints.surfaceVolumes, [&](auto& g, size_t) {
    std::vector<uint32_t> slice(s.constraints.surfaceVertices.begin() + g.firstVertex,
                                s.constraints.surfaceVertices.begin() + g.firstVertex + g.vertexCount);
    if (!map.remap(slice.data(), slice.size())) return false;
    const auto corners = s.constraints.surfaceTriangles.begin() + 3 * ptrdiff_t(g.firstTriangle);
    g.firstVertex = uint32_t(vertices.size());
    g.firstTriangle = uint32_t(triangles.size() / 3);
    vertices.insert(vertices.end(), slice.begin(), slice.end());
    triangles.insert(triangles.end(), corners, corners + 3 * ptrdiff_t(g.triangleCount));
    return true;
  });
  s.constraints.surfaceVertices = std::move(vertices);
  s.constraints.surfaceTriangles = std::move(triangles);
}

/// Shape matching clusters: one with a removed member goes with its slices of the three member arrays.
template <class M>
void removeClusters(M& s, const ParticleMap& map) {
  std::vector<uint32_t> members;
  std::vector<Vec3> offsets;
  std::vector<Real> masses;
  keepIf(s.constraints.shapeMatchings, [&](auto& c, size_t) {
    const ptrdiff_t f = c.firstMember, n = c.memberCount;
    std::vector<uint32_t> slice(s.constraints.shapeMatchingMembers.begin() + f,
                                s.constraints.shapeMatchingMembers.begin() + f + n);
    if (!map.remap(slice.data(), slice.size())) return false;
    c.firstMember = uint32_t(members.size());
    members.insert(members.end(), slice.begin(), slice.end());
    offsets.insert(offsets.end(), s.constraints.shapeMatchingRestOffsets.begin() + f,
                   s.constraints.shapeMatchingRestOffsets.begin() + f + n);
    masses.insert(masses.end(), s.constraints.shapeMatchingMasses.begin() + f,
                  s.constraints.shapeMatchingMasses.begin() + f + n);
    return true;
  });
  s.constraints.shapeMatchingMembers = std::move(members);
  s.constraints.shapeMatchingRestOffsets = std::move(offsets);
  s.constraints.shapeMatchingMasses = std::move(masses);
}

/// Attachments keep their handles: one on a removed particle becomes a free slot (its handle is handed out again),
/// the others follow their particle. With no particle left, no slot can name one: all go.
template <class M>
void removeAttachments(M& s, const ParticleMap& map, uint32_t particlesLeft) {
  for (size_t k = 0; k < s.constraints.attachments.size(); ++k) {
    auto& a = s.constraints.attachments[k];
    if (!map.gone(a.particle)) {
      a.particle = map(a.particle);
      continue;
    }
    a.particle = 0, a.collider = kNoCollider, a.anchor = Vec3::Zero();
    if (a.active) a.active = false, s.constraints.freeAttachments.push_back(uint32_t(k));
  }
  if (particlesLeft == 0) s.constraints.attachments.clear(), s.constraints.freeAttachments.clear();
}

/// A rod's segments go with its body (a segment's particles are of one body), its joints with them; the segments
/// after it move down, and the joints' segment numbers with them. The frames' state is parallel to the segments.
template <class Rods>
void removeRodSegments(Rods& rods, const ParticleMap& map, std::vector<uint32_t>& runs) {
  std::vector<uint32_t> newIndex(rods.segments.size(), ~0u);
  uint32_t kept = 0;
  for (size_t k = 0; k < rods.segments.size(); ++k)
    if (!map.gone(rods.segments[k].p0)) newIndex[k] = kept++;
  auto keepSegment = [&](auto&, size_t k) { return newIndex[k] != ~0u; };
  keepIf(rods.orientation, keepSegment);
  keepIf(rods.angularVelocity, keepSegment);
  keepIf(rods.torque, keepSegment);
  keepIf(rods.prevOrientation, keepSegment);
  keepIf(rods.prevAngularVelocity, keepSegment);
  keepIf(rods.segments, [&](auto& r, size_t) { return map.remapFields(r.p0, r.p1); }, &runs);
  keepIf(rods.joints, [&](auto& j, size_t) {
    if (newIndex[j.segment] == ~0u) return false;
    j.segment = newIndex[j.segment];
    return true;
  });
}

/// Removes body `body` from the staged world `s` (World::Impl) and the loader's scratch (snapshot.cpp's
/// LoaderScratch); returns what went.
template <class M, class Scratch>
BodyRemoval removeBody(M& s, Scratch& scratch, uint32_t body) {
  const ParticleMap map{s.particles.bodies[body].begin, s.particles.bodies[body].end};
  const uint32_t count = map.end - map.begin;
  BodyRemoval removed;
  removed.body = body;
  removed.firstParticle = map.begin;
  removed.particleCount = count;
  for (std::vector<Real>* a : {&s.particles.x, &s.particles.v, &s.particles.force, &s.particles.restX,
                               &s.particles.xPrev, &s.particles.vPrev}) {
    eraseRange(*a, 3 * size_t(map.begin), 3 * size_t(map.end));
  }
  eraseRange(s.particles.w, map.begin, map.end);
  for (auto& mesh : scratch.meshes) eraseRange(mesh.inside, map.begin, map.end);

  s.particles.bodies.erase(s.particles.bodies.begin() + body);
  for (size_t b = body; b < s.particles.bodies.size(); ++b)
    s.particles.bodies[b].begin -= count, s.particles.bodies[b].end -= count;
  eraseRange(s.particles.bodyMaterials, body, body + 1);
  eraseRange(scratch.bodyStaticFriction, body, body + 1);
  eraseRange(scratch.bodyThickness, body, body + 1);
  scratch.vbdPenalties.clear();  // numbered over every element kind: VBD's penalties start over
  auto renumber = [&](auto& surface, size_t) {
    if (surface.body == body) return false;
    if (surface.body > body) --surface.body;
    return true;
  };
  keepIf(s.selfCollision.selfSurfaces, renumber);
  keepIf(s.tearing.surfaces, renumber);

  // Distances and their colours (parallel): a subset of a colouring is a colouring.
  std::vector<uint8_t> keptDistance(s.constraints.distances.size(), 0);
  keepIf(
      s.constraints.distances,
      [&](auto& c, size_t k) {
        keptDistance[k] = map.remapFields(c.i, c.j);
        return keptDistance[k] != 0;
      },
      &removed.distanceRuns);
  keepIf(s.constraints.distanceColour, [&](auto&, size_t k) { return keptDistance[k] != 0; });
  keepIf(
      s.constraints.dihedrals, [&](auto& d, size_t) { return map.remapFields(d.p0, d.p1, d.p2, d.p3); },
      &removed.dihedralRuns);
  removeElements(s.constraints.volumes, map, &removed.volumeRuns);
  removeElements(s.constraints.neoHookeans, map);
  removeElements(s.constraints.triangleStrains, map);
  keepIf(s.constraints.tethers, [&](auto& t, size_t) { return map.remapFields(t.particle, t.anchor); });
  removeSurfaces(s, map);
  removeClusters(s, map);
  removeAttachments(s, map, uint32_t(s.particles.w.size()));
  keepIf(
      s.constraints.skinned, [&](auto& c, size_t) { return map.remapFields(c.particle); }, &removed.skinnedRuns);
  removeRodSegments(s.rods, map, removed.segmentRuns);
  return removed;
}

}  // namespace pbd::body_removal
