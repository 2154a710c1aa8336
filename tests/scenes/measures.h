// Physical quantities measured on a world, for the invariant tests.
#pragma once

#include <algorithm>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "pbd/world.h"

namespace pbd::scenes {

struct Momenta {
  Eigen::Vector3d linear;   ///< Σ m v, kg m/s, over particles with finite mass.
  Eigen::Vector3d angular;  ///< Σ m x × v about the origin.
};

/// The largest particle speed, m/s.
inline Real largestSpeed(const World& w) {
  Real fastest = 0;
  for (uint32_t i = 0; i < w.particleCount(); ++i) fastest = std::max(fastest, Vec3(w.velocities() + 3 * i).norm());
  return fastest;
}

/// The largest relative stretch |x_a - x_b| / spacing - 1 over the grid edges (rows and columns) of a cloth of
/// `columns` x `rows` particles from `first`, built `spacing` m apart.
inline double largestGridStretch(const World& w, uint32_t first, int columns, int rows, Real spacing) {
  double worst = 0;
  auto at = [&](int c, int r) { return Vec3(w.positions() + 3 * (first + uint32_t(r * columns + c))); };
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < columns; ++c) {
      if (c + 1 < columns) worst = std::max(worst, double((at(c + 1, r) - at(c, r)).norm() / spacing) - 1);
      if (r + 1 < rows) worst = std::max(worst, double((at(c, r + 1) - at(c, r)).norm() / spacing) - 1);
    }
  }
  return worst;
}

/// Momenta of particles [begin, end); end = UINT32_MAX: to the last particle.
inline Momenta momenta(const World& w, uint32_t begin = 0, uint32_t end = UINT32_MAX) {
  Momenta m{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
  for (uint32_t i = begin; i < std::min(end, w.particleCount()); ++i) {
    if (w.inverseMasses()[i] == 0) continue;
    const double mass = 1.0 / w.inverseMasses()[i];
    const Eigen::Vector3d x(w.positions()[3 * i], w.positions()[3 * i + 1], w.positions()[3 * i + 2]);
    const Eigen::Vector3d v(w.velocities()[3 * i], w.velocities()[3 * i + 1], w.velocities()[3 * i + 2]);
    m.linear += mass * v;
    m.angular += mass * x.cross(v);
  }
  return m;
}

/// The particles' momenta plus those of dynamic collider `collider` of isotropic inertia `moment` (its m v and, about
/// the origin, c × m v + I ω), as colliderBody and colliderDef have it after the step.
inline Momenta momentaWithBody(const World& w, uint32_t collider, Real mass, Real moment) {
  Momenta m = momenta(w);
  const ColliderBody b = w.colliderBody(collider);
  const Eigen::Vector3d p = (mass * b.linearVelocity).cast<double>();
  m.linear += p;
  m.angular += w.colliderDef(collider).position.cast<double>().cross(p) + (moment * b.angularVelocity).cast<double>();
  return m;
}

/// Σ ½ m |v|² + Σ m (-g)·x over the particles with finite mass, J: what a conservative system keeps and a stable
/// dissipative one never exceeds (the constraints' own elastic energy is left out, so at rest it is the lower bound).
inline double mechanicalEnergy(const World& w) {
  const Eigen::Vector3d g = w.settings().gravity.cast<double>();
  double energy = 0;
  for (uint32_t i = 0; i < w.particleCount(); ++i) {
    if (w.inverseMasses()[i] == 0) continue;
    const double mass = 1.0 / w.inverseMasses()[i];
    const Eigen::Vector3d x(w.positions()[3 * i], w.positions()[3 * i + 1], w.positions()[3 * i + 2]);
    const Eigen::Vector3d v(w.velocities()[3 * i], w.velocities()[3 * i + 1], w.velocities()[3 * i + 2]);
    energy += 0.5 * mass * v.squaredNorm() - mass * g.dot(x);
  }
  return energy;
}

/// Steps `frames` frames of 1/60 s and returns the largest mechanicalEnergy seen, the start included.
inline double peakEnergyOver(World& w, int frames) {
  double peak = mechanicalEnergy(w);
  for (int f = 0; f < frames; ++f) {
    w.step(1.0f / 60);
    peak = std::max(peak, mechanicalEnergy(w));
  }
  return peak;
}

}  // namespace pbd::scenes
