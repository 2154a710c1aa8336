// Per-body contact materials: the World entry points and the particle -> body map the velocity pass reads.
#include "world/body_materials.h"

#include <algorithm>

#include "world/world_state.h"

namespace pbd {

uint32_t World::bodyCount() const { return uint32_t(impl_->bodies.size()); }

void World::setBodyMaterial(uint32_t body, const ContactMaterial& material) {
  const char* fn = "setBodyMaterial";
  check::index(fn, "body", body, impl_->bodies.size());
  check::contactMaterial(fn, "", material);
  impl_->bodyMaterials[body] = material;
}

const ContactMaterial& World::bodyMaterial(uint32_t body) const {
  check::index("bodyMaterial", "body", body, impl_->bodies.size());
  return impl_->bodyMaterials[body];
}

/// Bodies tile the particles in order (appendParticles adds one per call), so each particle has exactly one.
void World::Impl::rebuildParticleBodies() {
  particleBody.assign(count(), 0);
  for (uint32_t b = 0; b < bodies.size(); ++b) {
    std::fill(particleBody.begin() + bodies[b].begin, particleBody.begin() + bodies[b].end, b);
  }
}

}  // namespace pbd
