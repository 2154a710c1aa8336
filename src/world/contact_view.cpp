// World::contacts: the last substep's contacts as points and normals for debug drawing (not used by the step).
#include "world/collider_motion.h"
#include "world/world_state.h"

namespace pbd {

/// Per contact: the surface point under the particle and the outward normal. Ground: the particle's foot on the
/// plane y = height. Shapes: q = x - φ(x) n(x), the closest surface point at the last substep's pose. Triangle
/// meshes: the contact plane's point the projection used (Contact::point).
void World::Impl::fillContactView() {
  diagnostics.contactView.resize(6 * collision.contacts.size());  // outside step(): may allocate
  for (size_t k = 0; k < collision.contacts.size(); ++k) {
    const Contact& c = collision.contacts[k];
    const Vec3 xi = particleAt(particles.x, c.particle);
    Vec3 point = c.point, normal = c.normal;
    if (c.collider == kGroundCollider) {
      point = Vec3(xi.x(), settings.ground.height, xi.z());
    } else if (collision.colliders[c.collider].mesh == kNoMesh) {
      const ShapeDistance d = worldDistance(collision.colliders[c.collider], xi);
      point = xi - d.phi * d.n;
      normal = d.n;
    }
    for (int a = 0; a < 3; ++a)
      diagnostics.contactView[6 * k + a] = point[a], diagnostics.contactView[6 * k + 3 + a] = normal[a];
  }
}

std::span<const Real> World::contacts() const {
  impl_->fillContactView();
  return impl_->diagnostics.contactView;
}

}  // namespace pbd
