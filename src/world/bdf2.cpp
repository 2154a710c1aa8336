// BDF2, the second-order integrator: its prediction and its commit.
#include "world/bdf2.h"

#include "world/world_state.h"

namespace pbd {

/// BDF2's inertial prediction x̃ (bdf2.h) with a = g + w f; then, like advanceParticles' prediction, the particles'
/// boxes.
void World::Impl::predictBdf2(Real h) {
  const Vec3 g = settings.gravity;
  auto body = [&](size_t begin, size_t end, ParticleBox* boxes) {
    for (size_t i = begin; i < end; ++i) {
      for (int a = 0; a < 3; ++a) {
        const size_t k = 3 * i + a;
        const Real accel = particles.w[i] == 0 ? Real(0) : g[a] + particles.w[i] * particles.force[k];
        const Real predicted =
            bdf2Prediction(particles.x[k], particles.xPrev[k], particles.v[k], particles.vPrev[k], accel, h);
        particles.inertial[k] = particles.w[i] == 0 ? particles.x[k] + h * particles.v[k] : predicted;
        particles.p[k] = particles.inertial[k];
      }
    }
    if (boxes) boundParticles(particles.p.data(), begin, end, boxes);
  };
  forEachParticleRangeWithBoxes(scansParticles(), body);
}

/// BDF2's velocity vⁿ⁺¹ (bdf2.h); then the history moves on.
void World::Impl::commitBdf2(Real h) {
  const Vec3 g = settings.gravity;
  const Real invH = 1 / h;
  auto body = [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      for (int a = 0; a < 3; ++a) {
        const size_t k = 3 * i + a;
        const Real accel = particles.w[i] == 0 ? Real(0) : g[a] + particles.w[i] * particles.force[k];
        const Real vNew = particles.w[i] == 0
                              ? (particles.p[k] - particles.x[k]) * invH
                              : bdf2Velocity(particles.v[k], particles.vPrev[k], accel, particles.p[k],
                                             particles.inertial[k], h, invH);
        particles.xPrev[k] = particles.x[k];
        particles.vPrev[k] = particles.v[k];
        particles.v[k] = vNew;
        particles.x[k] = particles.p[k];
      }
    }
  };
  forEachParticleRange(body);
}

}  // namespace pbd
