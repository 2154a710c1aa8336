// Scene builders shared by the tests and the benchmarks, so both measure the same thing.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "pbd/world.h"

namespace pbd::scenes {

/// An n x n cloth 1 m wide from `origin`, its rows along x and its columns along `axisV`, pinned at the two corners
/// of its first row; the other fields at their defaults.
inline ClothDef pinnedSquareCloth(int n, const Vec3& origin, const Vec3& axisV) {
  ClothDef c;
  c.columns = c.rows = n;
  c.spacing = 1.0f / Real(n - 1);
  c.origin = origin;
  c.axisU = Vec3(1, 0, 0);
  c.axisV = axisV;
  c.pinned = {0, uint32_t(n - 1)};
  return c;
}

/// The Foundation issue's benchmark cloth: n x n particles, 1 m wide, 1 kg, two corners pinned, hanging in the
/// XY plane, rigid XPBD constraints, 10 substeps x 1 iteration; its stretch and shear as edges or strain triangles.
inline BodyRange hangingCloth(World& world, int n, ClothModel model = ClothModel::Edges) {
  SolverSettings s;
  s.method = Method::Xpbd;
  s.substeps = 10;
  s.iterations = 1;
  s.ground.height = -2;
  world.setSettings(s);
  ClothDef c = pinnedSquareCloth(n, Vec3(-0.5f, 1.0f, 0), Vec3(0, 0, 1));
  c.mass = 1;
  c.bend = Strength{0, 1};
  c.model = model;
  return world.addCloth(c);
}

/// An n x n cloth of the given spacing, flat in XZ from `origin`, with dihedral bending (default strengths) on every
/// interior edge, no pins.
inline ClothDef dihedralCloth(int n, Real spacing, const Vec3& origin) {
  ClothDef c;
  c.columns = c.rows = n;
  c.spacing = spacing;
  c.origin = origin;
  c.bendModel = BendModel::Dihedral;
  return c;
}

/// A bob hanging from a pinned particle at the origin by one distance constraint (a spring, or a rigid rod with
/// compliance 0): the pendulums and springs of the analytic tests. restLength -1 = the bob's distance from the
/// origin. Returns the bob's index.
inline uint32_t pinnedBob(World& world, const Vec3& bob, Real inverseMass, const Strength& strength = Strength{},
                          Real restLength = -1) {
  DistanceConstraintDef d;
  d.i = world.addParticle(Vec3(0, 0, 0), 0);
  d.j = world.addParticle(bob, inverseMass);
  d.minLength = d.maxLength = restLength;
  d.strength = strength;
  world.addDistanceConstraint(d);
  return d.j;
}

/// FNV-1a over the bytes of positions and velocities: equal hashes mean bit-identical states.
inline uint64_t stateHash(const World& world) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&h](const Real* data, size_t n) {
    const unsigned char* b = reinterpret_cast<const unsigned char*>(data);
    for (size_t k = 0; k < n * sizeof(Real); ++k) h = (h ^ b[k]) * 1099511628211ull;
  };
  mix(world.positions(), 3 * size_t(world.particleCount()));
  mix(world.velocities(), 3 * size_t(world.particleCount()));
  return h;
}

/// Every solver, in Solver's order.
inline std::vector<Solver> everySolver() {
  return {Solver::GaussSeidel,        Solver::Jacobi, Solver::ColouredGaussSeidel, Solver::Hierarchical,
          Solver::ProjectiveDynamics, Solver::VertexBlockDescent};
}

}  // namespace pbd::scenes
