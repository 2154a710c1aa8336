// BDF2, the second-order integrator: its prediction and its commit.
#include "world/world_state.h"

namespace pbd {

/// BDF2's inertial prediction x̃ = 4/3 xⁿ - 1/3 xⁿ⁻¹ + 8/9 h vⁿ - 2/9 h vⁿ⁻¹ + 4/9 h² (g + w f); then, like
/// advanceParticles' prediction, the particles' boxes. 4/3 x - 1/3 x⁻ is computed as x + (x - x⁻)/3: the float32
/// constants 4/3 and 1/3 differ by 1 + 3e-8, which pushed every position away from the origin by 3e-8 |x| a substep,
/// a force of 3e-8 |x| / h² (0.17 m/s² at 1 m and 40 substeps: a pendulum's period 0.8 % long).
void World::Impl::predictBdf2(Real h) {
  const Vec3 g = settings.gravity;
  auto body = [&](size_t begin, size_t end, ParticleBox* boxes) {
    for (size_t i = begin; i < end; ++i) {
      for (int a = 0; a < 3; ++a) {
        const size_t k = 3 * i + a;
        const Real accel = particles.w[i] == 0 ? Real(0) : g[a] + particles.w[i] * particles.force[k];
        const Real predicted = particles.x[k] + (particles.x[k] - particles.xPrev[k]) / 3 +
                               Real(8) / 9 * h * particles.v[k] - Real(2) / 9 * h * particles.vPrev[k] +
                               Real(4) / 9 * h * h * accel;
        particles.inertial[k] = particles.w[i] == 0 ? particles.x[k] + h * particles.v[k] : predicted;
        particles.p[k] = particles.inertial[k];
      }
    }
    if (boxes) boundParticles(particles.p.data(), begin, end, boxes);
  };
  forEachParticleRangeWithBoxes(scansParticles(), body);
}

/// BDF2's velocity vⁿ⁺¹ = (3/2 xⁿ⁺¹ - 2 xⁿ + 1/2 xⁿ⁻¹) / h, written (by substituting x̃) as
/// 4/3 vⁿ - 1/3 vⁿ⁻¹ + 2/3 h a + 3/2 (xⁿ⁺¹ - x̃) / h: the same value without the cancellation of three float32
/// positions, which would otherwise put ulp(x)/h of noise into v every substep (and 4/3 v - 1/3 v⁻ as
/// v + (v - v⁻)/3, as the prediction does). Then the history moves on.
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
                              : particles.v[k] + (particles.v[k] - particles.vPrev[k]) / 3 + Real(2) / 3 * h * accel +
                                    Real(1.5) * (particles.p[k] - particles.inertial[k]) * invH;
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
