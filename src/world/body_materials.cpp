// Per-body contact materials: the World entry points and the particle -> body map the velocity pass reads.
#include "world/body_materials.h"

#include <algorithm>

#include "world/world_state.h"

namespace pbd {

uint32_t World::bodyCount() const { return uint32_t(impl_->particles.bodies.size()); }

void World::setBodyMaterial(uint32_t body, const ContactMaterial& material) {
  const char* fn = "setBodyMaterial";
  check::index(fn, "body", body, impl_->particles.bodies.size());
  check::contactMaterial(fn, "", material);
  impl_->particles.bodyMaterials[body] = material;
}

const ContactMaterial& World::bodyMaterial(uint32_t body) const {
  check::index("bodyMaterial", "body", body, impl_->particles.bodies.size());
  return impl_->particles.bodyMaterials[body];
}

/// Bodies tile the particles in order (appendParticles adds one per call; loadSnapshot checks it), so the body of a
/// particle is the last one that begins at or before it: a binary search, derived from `bodies` alone.
uint32_t World::Impl::bodyOf(uint32_t particle) const {
  const auto after = std::upper_bound(particles.bodies.begin(), particles.bodies.end(), particle,
                                      [](uint32_t i, const ParticleRange& r) { return i < r.begin; });
  return uint32_t(after - particles.bodies.begin()) - 1;
}

}  // namespace pbd
