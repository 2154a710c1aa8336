// Helpers for the invariant tests of a constraint kind in a world: settings with only the internal constraints
// acting (no gravity, no ground), random velocities, and what must not change (rest state, momenta about the centre
// of mass).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <random>
#include <vector>

#include "pbd/world.h"

namespace pbd::scenes {

/// No gravity and no ground: only the internal constraints act.
inline SolverSettings freeSpace(Method method = Method::Xpbd, int substeps = 10, int iterations = 1) {
  SolverSettings s;
  s.method = method;
  s.substeps = substeps;
  s.iterations = iterations;
  s.gravity = Vec3::Zero();
  s.ground.enabled = false;
  return s;
}

inline Vec3 positionOf(const World& w, uint32_t i) {
  const Real* x = w.positions() + 3 * size_t(i);
  return Vec3(x[0], x[1], x[2]);
}

inline std::vector<Real> positionsOf(const World& w) {
  return std::vector<Real>(w.positions(), w.positions() + 3 * size_t(w.particleCount()));
}

/// The largest distance any particle has moved from `before` (positionsOf at an earlier time).
inline double maxDisplacement(const World& w, const std::vector<Real>& before) {
  double worst = 0;
  for (uint32_t i = 0; i < w.particleCount(); ++i) {
    const Vec3 x0(before[3 * i], before[3 * i + 1], before[3 * i + 2]);
    worst = std::max(worst, double((positionOf(w, i) - x0).norm()));
  }
  return worst;
}

/// Gives every free particle a random velocity (each component uniform in ±speed) plus a drift and a spin ω × x,
/// so that both momenta are far from zero.
inline void randomVelocities(World& w, uint32_t seed, Real speed, const Vec3& drift, const Vec3& omega) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(-1, 1);
  for (uint32_t i = 0; i < w.particleCount(); ++i) {
    w.setVelocity(i, speed * Vec3(u(rng), u(rng), u(rng)) + drift + omega.cross(positionOf(w, i)));
  }
}

struct CentreMomenta {
  Eigen::Vector3d linear;   ///< Σ m v, kg m/s, over the free particles.
  Eigen::Vector3d angular;  ///< Σ m (x - c) × v about their centre of mass c, kg m²/s.
};

inline CentreMomenta centreMomenta(const World& w) {
  double mass = 0;
  Eigen::Vector3d centre = Eigen::Vector3d::Zero(), linear = Eigen::Vector3d::Zero();
  for (uint32_t i = 0; i < w.particleCount(); ++i) {
    if (w.inverseMasses()[i] == 0) continue;
    const double m = 1.0 / w.inverseMasses()[i];
    mass += m;
    centre += m * positionOf(w, i).cast<double>();
    linear += m * Eigen::Vector3d(w.velocities()[3 * i], w.velocities()[3 * i + 1], w.velocities()[3 * i + 2]);
  }
  centre /= mass;
  Eigen::Vector3d angular = Eigen::Vector3d::Zero();
  for (uint32_t i = 0; i < w.particleCount(); ++i) {
    if (w.inverseMasses()[i] == 0) continue;
    const Eigen::Vector3d v(w.velocities()[3 * i], w.velocities()[3 * i + 1], w.velocities()[3 * i + 2]);
    angular += (1.0 / w.inverseMasses()[i]) * (positionOf(w, i).cast<double>() - centre).cross(v);
  }
  return {linear, angular};
}

/// A static answer under load: steps `settleFrames` frames with the world's damping, then switches damping off
/// (at rest it would scale the load by (1 - c h)) and returns the mean of sample() over `meanFrames` more frames
/// (what is left of the oscillation averages out).
template <class Sample>
double settledMean(World& w, int settleFrames, int meanFrames, Sample sample) {
  for (int f = 0; f < settleFrames; ++f) w.step(1.0f / 60);
  w.setLinearDamping(0);
  double sum = 0;
  for (int f = 0; f < meanFrames; ++f) {
    w.step(1.0f / 60);
    sum += sample();
  }
  return sum / meanFrames;
}

/// Relative changes |ΔP|/|P| and |ΔL|/|L| over `frames` steps of 1/60 s, after one step that lets the constraints
/// remove the part of the initial velocities that violates them.
struct MomentumDrift {
  double linear, angular;
};

inline MomentumDrift momentumDrift(World& w, int frames) {
  w.step(1.0f / 60);
  const CentreMomenta before = centreMomenta(w);
  for (int f = 0; f < frames; ++f) w.step(1.0f / 60);
  const CentreMomenta after = centreMomenta(w);
  return {(after.linear - before.linear).norm() / before.linear.norm(),
          (after.angular - before.angular).norm() / before.angular.norm()};
}

/// A world of free space (no gravity, no ground) for XPBD at `substeps`.
inline World weightless(int substeps) {
  World world;
  world.setSettings(freeSpace(Method::Xpbd, substeps));
  return world;
}

}  // namespace pbd::scenes
