// Physical quantities measured on a world, for the invariant tests.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "pbd/world.h"

namespace pbd::scenes {

struct Momenta {
  Eigen::Vector3d linear;   ///< Σ m v, kg m/s, over particles with finite mass.
  Eigen::Vector3d angular;  ///< Σ m x × v about the origin.
};

inline Momenta momenta(const World& w) {
  Momenta m{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
  for (uint32_t i = 0; i < w.particleCount(); ++i) {
    if (w.inverseMasses()[i] == 0) continue;
    const double mass = 1.0 / w.inverseMasses()[i];
    const Eigen::Vector3d x(w.positions()[3 * i], w.positions()[3 * i + 1], w.positions()[3 * i + 2]);
    const Eigen::Vector3d v(w.velocities()[3 * i], w.velocities()[3 * i + 1], w.velocities()[3 * i + 2]);
    m.linear += mass * v;
    m.angular += mass * x.cross(v);
  }
  return m;
}

}  // namespace pbd::scenes
