// World::Impl's islands for the momentum guard of internal constraints (internal_momentum.cpp): bodies joined by
// internal constraints, rebuilt before the next step when `islandsDirty` (bodies or constraints added, removed or
// loaded).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace pbd {

struct IslandSums {
  Eigen::Vector3d torque;  // T = Σ m a × (p − c), kg m²
  Eigen::Vector3d linear;  // P = Σ m p, kg m
};
struct IslandMomenta {  // about the origin
  Eigen::Vector3d angular;  // L = Σ m x × v, kg m²/s
  Eigen::Vector3d linear;   // P = Σ m v, kg m/s
};
struct LostMotion {  // what round-off took from an island in a substep, as a rigid displacement
  bool any = false;
  Eigen::Vector3d translation;     // m, to every particle of the island
  Eigen::Vector3d rotation;        // rad: rotation × (x − c) to each particle
  double velocityPerPosition = 0;  // the substep's IslandFrame::velocityPerPosition
  bool shiftsPositions = false;    // the substep was implicit Euler's: the positions get the translation back too
  Eigen::Vector3d angularMomentum = Eigen::Vector3d::Zero();  // BDF2: the L round-off took, kg m²/s
};
struct IslandFrame {
  bool free = false;               // no pinned particle and at least two particles: the guard acts this substep
  bool touched = false;            // a contact or attachment acted on it this substep: nothing is given back
  // Touched in the substep before (within the step): this substep's round-off goes uncounted (the sums leave P out,
  // the rotation is not followed through its rounding) and is not given back, as a touched substep's is not.
  bool slim = false;
  bool bdf2 = false;               // the lever is (4x − x⁻)/3 (BDF2's velocity) rather than x
  Eigen::Vector3d centre;          // c: the mass-weighted centre of the levers, m
  Eigen::Matrix3d inverseInertia;  // I⁺ of the levers about c, 1/(kg m²)
  double mass = 0;                 // M = Σ m of the particles the guard covers, kg
  double velocityPerPosition = 0;  // what the commit makes of a change of p in v: 1/h (Euler), 3/(2h) (BDF2), 1/s
  IslandSums before;               // T⁰, P⁰ before the internal projections
  // BDF2: the T the substep must end with to keep the island's momenta, T* = (2h/3) (L − c × P) for the L and P it
  // starts with (and the L round-off took in the substep before); the first bracket of the substep aims at it
  // instead of its T⁰ (prepareIslandFrames).
  Eigen::Vector3d torqueTarget = Eigen::Vector3d::Zero();
  bool aimsAtTarget = false;  // the next bracket's T⁰ is torqueTarget
  Eigen::Vector3d lostLinear = Eigen::Vector3d::Zero();    // Σ m Δp round-off took this substep, kg m
  Eigen::Vector3d lostAngular = Eigen::Vector3d::Zero();   // Σ m a × Δp round-off took this substep, kg m²
  Eigen::Vector3d pendingShift = Eigen::Vector3d::Zero();  // M × the translation the positions are still owed, kg m
  uint32_t next = 0;                                       // scratch while listing the bodies by island
  // Scratch of a substep's passes between their chunk phases: what is given back, the shift, the rotation θ (rad).
  LostMotion lost;
  Eigen::Vector3d shift = Eigen::Vector3d::Zero();
  Eigen::Vector3d theta = Eigen::Vector3d::Zero();
  bool rotates = false;  // this iteration's θ is applied (within kMaxGuardAngle)
};

/// The guard's passes run over chunks of an island's members, at most kGuardChunkMembers each: a chunk sums in member
/// order and its island adds the chunks' sums in chunk order, so the sums' order (and the bits) does not depend on
/// how many threads run the chunks. An island of at most kGuardChunkMembers members is one chunk, summed as one run.
inline constexpr uint32_t kGuardChunkMembers = 1024;
/// A bigger island's chunks are a multiple of this many, of equal length (internal_momentum.cpp).
inline constexpr uint32_t kGuardChunkGroups = 4;
/// A chunk and its partial sums for the pass running now (each written by the one thread that runs the chunk).
struct GuardChunk {
  uint32_t island = 0;
  uint32_t begin = 0, end = 0;  // members[begin, end)
  double mass = 0;              // Σ m, kg
  double reach = 0;             // max |x| coordinate, m
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();  // Σ m ℓ, kg m
  IslandMomenta momenta{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};  // BDF2: the chunk's L and P
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  // Σ m (|a|² 1 − a aᵀ), kg m²
  // The island's running sums, in parts: the island's first chunk carries on from the island's value, the others
  // start from zero, and the island adds them in chunk order. (The lost sums in prepareIslandFrames' pass under BDF2:
  // what the velocities did not take of the give-back, every chunk from zero.)
  Eigen::Vector3d pendingShift = Eigen::Vector3d::Zero();
  Eigen::Vector3d lostLinear = Eigen::Vector3d::Zero(), lostAngular = Eigen::Vector3d::Zero();
  IslandSums sums{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};  // T and P of the chunk's members
};

/// The islands and their per-substep frames.
struct IslandState {
  std::vector<uint32_t> islandBodies;      // body indices, grouped by island, islands in the order of their first body
  std::vector<uint32_t> islandBegin;       // island k is islandBodies[islandBegin[k], islandBegin[k + 1])
  std::vector<uint32_t> islandOfBody;      // each body's island (union-find parents while building)
  std::vector<IslandFrame> islandFrames;   // one per island
  std::vector<uint8_t> islandConstrained;  // per particle: 1 = some internal constraint holds it (the guard skips 0)
  // The particles the guard covers (those some internal constraint holds), island by island, each island's in the
  // order of its bodies: island k's are members[memberBegin[k], memberBegin[k + 1]). A list of its own, so that the
  // guard's passes of every iteration stream them (no walk over the bodies, no test per particle).
  std::vector<uint32_t> members;
  std::vector<uint32_t> memberBegin;
  // Per member of a free island, for the guard's passes of every iteration: the mass 1 / w (kg), read from w at a
  // step's first substep (`massesStale`: w changes only between steps), and the lever a = ℓ − c (m) about the
  // island's centre, set once a substep (prepareIslandFrames).
  std::vector<double> islandMass;
  std::vector<Eigen::Vector3d> islandLever;
  std::vector<uint8_t> islandPinned;  // per island: some member has w = 0 (read with the masses)
  bool massesStale = true;
  std::vector<GuardChunk> chunks;       // every island's members in chunks, islands in order
  std::vector<uint32_t> chunkBegin;     // island k's chunks are chunks[chunkBegin[k], chunkBegin[k + 1])
  bool islandsDirty = true;
  bool anyFreeIsland = false;  // some island is free this substep
  size_t freeMembers = 0;      // the members of this substep's free islands
};

}  // namespace pbd
