// Surface volume constraints of closed surfaces (balloons, shells that keep their volume): storage and projection.
#include <algorithm>

#include "bodies/body_builders.h"
#include "world/world_state.h"

namespace pbd {

/// The body's surface (local particle indices) becomes one constraint: its distinct particles as a slice of
/// surfaceVertices, its triangles re-indexed into that slice. The caller reserved the arrays.
void World::Impl::appendSurfaceVolume(const BodyBlueprint& b, uint32_t first) {
  if (b.surface.empty()) return;
  std::vector<uint32_t> local(b.surface);  // sorted distinct local particles of the surface
  std::sort(local.begin(), local.end());
  local.erase(std::unique(local.begin(), local.end()), local.end());
  SurfaceVolumeConstraint g{};
  g.firstVertex = uint32_t(constraints.surfaceVertices.size());
  g.vertexCount = uint32_t(local.size());
  g.firstTriangle = uint32_t(constraints.surfaceTriangles.size() / 3);
  g.triangleCount = uint32_t(b.surface.size() / 3);
  for (uint32_t i : local) constraints.surfaceVertices.push_back(first + i);
  for (uint32_t i : b.surface)
    constraints.surfaceTriangles.push_back(uint32_t(std::lower_bound(local.begin(), local.end(), i) - local.begin()));
  const std::span<const uint32_t> vertices(constraints.surfaceVertices.data() + g.firstVertex, g.vertexCount);
  const std::span<const uint32_t> triangles(constraints.surfaceTriangles.data() + 3 * size_t(g.firstTriangle),
                                            3 * size_t(g.triangleCount));
  g.restVolume = pbd::surfaceVolume(vertices, triangles, asVec3(particles.x));
  g.pressure = b.pressure;
  g.compliance = b.surfaceVolume.compliance;
  g.stiffness = b.surfaceVolume.stiffness;
  g.kPrime = correctedStiffness(g.stiffness, settings.iterations);
  g.unilateral = b.surfaceVolumeUnilateral;
  constraints.surfaceVolumes.push_back(g);
  constraints.surfaceVolumeLambda.push_back(0);
  if (constraints.volumeGradient.size() < g.vertexCount) constraints.volumeGradient.resize(g.vertexCount);
}

/// Serially: one surface's gradient touches all of its particles.
void World::Impl::projectSurfaceVolumes(bool xpbd, Real invH2) {
  Vec3* P = asVec3(particles.p);
  for (size_t k = 0; k < constraints.surfaceVolumes.size(); ++k) {
    const SurfaceVolumeConstraint& g = constraints.surfaceVolumes[k];
    const std::span<const uint32_t> vertices(constraints.surfaceVertices.data() + g.firstVertex, g.vertexCount);
    const std::span<const uint32_t> triangles(constraints.surfaceTriangles.data() + 3 * size_t(g.firstTriangle),
                                              3 * size_t(g.triangleCount));
    constraints.surfaceVolumeLambda[k] += projectSurfaceVolume(
        vertices, triangles, constraints.volumeGradient, P, particles.w.data(), g.restVolume, g.pressure, g.unilateral,
        xpbd, g.kPrime, g.compliance * invH2, constraints.surfaceVolumeLambda[k]);
  }
}

}  // namespace pbd
