// step() never allocates: every buffer it uses is reserved when particles and constraints are added. Checked with a
// counting global operator new, on a world that exercises every stage and every solver, serial and threaded.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>

#include "pbd/task_system.h"
#include "pbd/world.h"
#include "native/world_internals.h"
#include "scenes/icosphere.h"
#include "scenes/every_kind.h"
#include "scenes/numbered_cloth.h"
#include "scenes/scenes.h"
#include "scenes/shuffle.h"
#include "scenes/tet_cube.h"
#include "native/long_scene.h"

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
}  // namespace

// These replace the global operators as a pair: the deletes free what this new took from malloc. GCC cannot see the
// pairing once it inlines them and warns of a mismatch (-Wmismatched-new-delete).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(std::size_t size) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

using namespace pbd;

TEST(NoAllocation, StepNeverAllocates) {
  PBD_LONG_SCENE();
  for (unsigned workers : {0u, 1u}) {
    ThreadPool pool(workers);
    World world(&pool);
    SolverSettings s;
    s.ground.height = 0.5f;
    s.ground.restitution = 0.3f;
    s.ground.staticFriction = 0.6f;  // a static coefficient apart from the dynamic one (the static friction hold)
    s.linearDamping = 0.1f;
    s.rigidDamping = 0.2f;
    s.maxSpeed = 1.5f;  // the velocity clamp's loop, clamping the falling rope
    world.setSettings(s);
    ClothDef c;
    c.columns = c.rows = 80;  // 6400 particles: the batched loops split across threads
    c.spacing = 0.02f;
    c.origin = Vec3(-0.8f, 1, 0);
    c.pinned = {0, 79};
    c.tethers = TetherMode::Geodesic;
    c.contact = {0.3f, 0.2f};  // per-body materials in the velocity pass
    world.addCloth(c);
    RopeDef r;
    r.segments = 20;
    r.start = Vec3(1, 1.5f, 0);
    world.addRope(r);
    world.setBodyMaterial(1, {0.8f, 0.5f, 1.1f});  // with its own static coefficient
    ClothDef strain;  // strain triangles and a shape matching cluster: their stages run on reserved buffers too
    strain.columns = strain.rows = 8;
    strain.origin = Vec3(-2, 1.5f, 0);
    strain.model = ClothModel::StrainTriangles;
    const BodyRange strainCloth = world.addCloth(strain);
    ShapeMatchingDef cluster;
    for (uint32_t i = 0; i < 16; ++i) cluster.particles.push_back(strainCloth.firstParticle + i);
    world.addShapeMatching(cluster);
    AttachmentDef a;
    a.particle = 3000;
    const uint32_t grab = world.addAttachment(a);
    world.setRecordResiduals(true);
    for (Solver solver : scenes::everySolver()) {
      world.setSolver(solver);
      world.step(1.0f / 60);  // first step after a change may rebuild the schedule (the HPBD hierarchy, the PD factor)
      allocations = 0;
      counting = true;
      size_t contactsSeen = 0;  // the rope stands on the ground and bounces: contacts in some substeps, not in all
      for (int f = 0; f < 20; ++f) {
        world.setAttachmentTarget(grab, Vec3(0, 1, 0.01f * f));
        if (f == 10) {  // a change of the solve: the next step settles first (step.cpp, settle), on the same buffers
          counting = false;  // the setter's validation builds its argument names as strings
          world.setJacobiRelaxation(world.settings().jacobiRelaxation == 1 ? 0.9f : 1);
          counting = true;
        }
        world.step(1.0f / 60);
        contactsSeen = std::max<size_t>(contactsSeen, world.contactCount());
      }
      counting = false;
      EXPECT_EQ(allocations.load(), 0) << "workers " << workers << " solver " << int(solver);
      EXPECT_GT(contactsSeen, 0u) << "workers " << workers << " solver " << int(solver);  // the ground stage ran
    }
  }
}

TEST(NoAllocation, StepAfterLoadingASnapshotNeverAllocates) {
  // loadSnapshot may allocate; the steps after it, from the very first (which rebuilds the colour schedule from the
  // replayed colouring), must not: the load reserves what the add functions would have.
  ThreadPool pool(1);
  for (Solver solver : {Solver::ColouredGaussSeidel, Solver::GaussSeidel, Solver::Jacobi}) {
    for (Integrator integrator : {Integrator::ImplicitEuler, Integrator::Bdf2}) {
      World original(&pool);
      const scenes::EveryKind kinds = scenes::buildEveryKind(original);
      original.setSolver(solver);
      original.setIntegrator(integrator);
      original.setRecordResiduals(true);
      for (int f = 0; f < 3; ++f) scenes::driveEveryKind(original, kinds, f), original.step(1.0f / 60);
      const std::vector<uint8_t> blob = original.saveSnapshot();
      World loaded(&pool);
      loaded.loadSnapshot(blob.data(), blob.size());
      long during = 0;
      for (int f = 3; f < 13; ++f) {
        scenes::driveEveryKind(loaded, kinds, f);  // outside the count: only step() is promised
        allocations = 0;
        counting = true;
        loaded.step(1.0f / 60);
        counting = false;
        during += allocations.load();
      }
      EXPECT_EQ(during, 0) << "solver " << int(solver) << " integrator " << int(integrator);
      EXPECT_GT(loaded.contactCount() + loaded.selfCollisionPairCount(), 0u);
    }
  }
}

TEST(NoAllocation, RemovingDistanceConstraintsNeverAllocates) {
  PBD_LONG_SCENE();
  // removeDistanceConstraint frees colours in place, and the step after it regroups the schedule into the buffers
  // reserved when the constraints were added: neither allocates, serial or threaded.
  for (unsigned workers : {0u, 1u}) {
    ThreadPool pool(workers);
    for (Solver solver : {Solver::ColouredGaussSeidel, Solver::GaussSeidel, Solver::Jacobi}) {
      World world(&pool);
      world.setSolver(solver);
      ClothDef c;
      c.columns = c.rows = 96;  // banded (schedule/block_schedule.h): its units lose lanes to fillers as edges go
      c.spacing = 0.02f;
      c.pinned = {0, 95};
      world.addCloth(c);
      world.step(1.0f / 60);
      const uint32_t before = world.distanceConstraintCount();
      allocations = 0;
      counting = true;
      for (int f = 0; f < 10; ++f) {
        for (uint32_t k = 0; k < 50; ++k) world.removeDistanceConstraint((k * 97 + uint32_t(f) * 13) % world.distanceConstraintCount());
        world.step(1.0f / 60);
      }
      counting = false;
      EXPECT_EQ(allocations.load(), 0) << "workers " << workers << " solver " << int(solver);
      EXPECT_EQ(world.distanceConstraintCount(), before - 500);
      EXPECT_TRUE(WorldInternals::of(world).solverData.schedule.blocks.banded) << "solver " << int(solver);
    }
  }
}

TEST(NoAllocation, MeshColliderStepsNeverAllocate) {
  // Triangle-mesh colliders: continuous contacts, the late pass, inside flags recomputed by winding numbers after a
  // teleport, a kinematic pose change every frame; plus particles added after the collider (flags grow with them).
  const scenes::IcosphereMesh ico = scenes::icosphere(2, 0.4);
  World world;
  ColliderDef d;
  d.shape = ColliderShape::TriangleMesh;
  d.meshPositions = ico.positions;
  d.meshTriangles = ico.triangles;
  d.thickness = 0.01f;
  d.restitution = 0.2f;
  const uint32_t ball = world.addCollider(d);
  ClothDef c;
  c.columns = c.rows = 16;
  c.spacing = 0.06f;
  c.origin = Vec3(-0.45f, 0.5f, -0.45f);
  c.axisV = Vec3(0, 0, 1);
  world.addCloth(c);
  const uint32_t inside = world.addParticle(Vec3(0, 0, 0), 1);
  for (int f = 0; f < 5; ++f) world.step(1.0f / 60);
  allocations = 0;
  for (int f = 0; f < 30; ++f) {
    // Only step() is counted: the setters may allocate while validating (their argument names are std::strings,
    // and wasm32's libc++ keeps only 10 characters inline where native libstdc++ keeps 15).
    world.setColliderPose(ball, Vec3(0.002f * f, 0, 0), Quat::Identity());
    if (f == 10) world.setPosition(inside, Vec3(0.05f, 0.01f, 0));  // teleported inside again
    counting = true;
    world.step(1.0f / 60);
    counting = false;
  }
  EXPECT_EQ(allocations.load(), 0);
  EXPECT_GT(world.contactCount(), 0u);
}

TEST(NoAllocation, ContinuousClothSelfCollisionStepsNeverAllocate) {
  // One mesh body of two 12x12 sheets, the upper one thrown down onto the lower: the swept BVH refit, both narrow
  // phases and the self-contact projection run on reserved buffers; also after a snapshot round trip.
  TriangleMeshDef def;
  constexpr uint32_t kN = 12;
  for (int layer = 0; layer < 2; ++layer) {
    const uint32_t first = uint32_t(def.positions.size() / 3);
    for (uint32_t r = 0; r < kN; ++r) {
      for (uint32_t c = 0; c < kN; ++c) {
        def.positions.insert(def.positions.end(), {0.05f * c + 0.013f * layer, 1 + 0.05f * layer, 0.05f * r + 0.021f * layer});
      }
    }
    for (uint32_t r = 0; r + 1 < kN; ++r) {
      for (uint32_t c = 0; c + 1 < kN; ++c) {
        const uint32_t i = first + r * kN + c;
        def.triangles.insert(def.triangles.end(), {i, i + 1, i + kN, i + 1, i + kN + 1, i + kN});
      }
    }
  }
  def.pinned = {0, kN - 1};
  def.continuousSelfCollision = {true, 0.004f};
  World original;
  const MeshBody body = original.addTriangleMesh(def);
  for (uint32_t k = kN * kN; k < 2 * kN * kN; ++k) original.setVelocity(body.renderToParticle[k], Vec3(0, -5, 0));
  original.step(1.0f / 60);
  const std::vector<uint8_t> blob = original.saveSnapshot();
  World loaded;
  loaded.loadSnapshot(blob.data(), blob.size());
  loaded.setStepTimings(true);  // the clock laps per candidate batch: no allocation either
  for (World* world : {&original, &loaded}) {
    uint32_t contacts = 0;
    allocations = 0;
    for (int f = 0; f < 20; ++f) {
      counting = true;
      world->step(1.0f / 60);
      counting = false;
      contacts += world->continuousSelfContactCount();
    }
    EXPECT_EQ(allocations.load(), 0) << (world == &loaded ? "loaded" : "original");
    EXPECT_GT(contacts, 0u);
  }
}

TEST(NoAllocation, StrengthSettersAndTheStepsAfterThemNeverAllocate) {
  // The setters write in place (their argument checks may build a message string: they are not the step); the step
  // after a distance change regroups the schedule in the buffers reserved at build time. Left out, as for
  // removeDistanceConstraint: Hierarchical rebuilds its levels after any distance change and Projective Dynamics
  // refactors after a strength change, both allocating by design (once per change, not per step).
  for (Solver solver : {Solver::ColouredGaussSeidel, Solver::GaussSeidel, Solver::Jacobi}) {
    World world;
    const scenes::EveryKind kinds = scenes::buildEveryKind(world);
    world.setSolver(solver);
    scenes::driveEveryKind(world, kinds, 0);
    world.step(1.0f / 60);
    allocations = 0;
    for (int f = 1; f <= 5; ++f) {
      const Strength s{Real(f) * 1e-4f, 1 - Real(f) * 0.1f};
      for (uint32_t k = 0; k < kConstraintKindCount; ++k) {
        const ConstraintKind kind = ConstraintKind(k);
        const uint32_t n = kind == ConstraintKind::Distance ? world.distanceConstraintCount()
                           : kind == ConstraintKind::Dihedral ? world.dihedralConstraintCount()
                           : kind == ConstraintKind::TetVolume ? world.tetVolumeCount()
                           : kind == ConstraintKind::ShapeMatching ? world.shapeMatchingCount()
                           : kind == ConstraintKind::SurfaceVolume ? world.surfaceVolumeCount()
                                                                    : world.triangleStrainCount();
        world.setConstraintStrength(kind, 0, n, s);
      }
      world.setSoftBodyMaterial(3, Real(f) * 1e4f, 0.3f, 1);  // body 3: the Neo-Hookean cube
      scenes::driveEveryKind(world, kinds, f);
      counting = true;
      world.step(1.0f / 60);
      counting = false;
    }
    EXPECT_EQ(allocations.load(), 0) << "solver " << int(solver);
  }
}

namespace {

/// The first step lays out the schedule, into buffers reserved when the bodies were added: no allocation, serial and
/// on a 1-worker pool. `add` fills the world; `check` says the layout is the one meant.
template <class Add, class Check>
void expectTheFirstStepNeverAllocates(Add add, Check check) {
  for (unsigned workers : {0u, 1u}) {
    ThreadPool pool(workers);
    World world(&pool);
    add(world);
    allocations = 0;
    counting = true;
    world.step(1.0f / 60);
    counting = false;
    EXPECT_EQ(allocations.load(), 0) << "workers " << workers;
    EXPECT_TRUE(check(WorldInternals::of(world).solverData.schedule.blocks));
  }
}

}  // namespace

TEST(NoAllocation, TheFirstStepOfABandedClothNeverAllocates) {
  // A cloth big enough for the band layout: its units too.
  expectTheFirstStepNeverAllocates(
      [](World& world) {
        ClothDef c;
        c.columns = c.rows = 96;
        c.spacing = 0.02f;
        c.pinned = {0, 95};
        world.addCloth(c);
      },
      [](const BlockSchedule& blocks) { return blocks.banded; });
}

TEST(NoAllocation, TheFirstStepOfAShuffledBodyNeverAllocates) {
  // A body numbered at random: its particles ranked (schedule/locality_rank.h) and its blocks laid out in that order.
  expectTheFirstStepNeverAllocates(
      [](World& world) { world.addSoftBody(scenes::shuffledVertices(scenes::tetCube(12, 1.0f, Vec3(0, 1, 0)), 5)); },
      [](const BlockSchedule& blocks) { return blocks.ranked; });
}

TEST(NoAllocation, TheFirstStepOfAGridNumberedAtRandomNeverAllocates) {
  // A grid cloth numbered at random: banded on its row-major order (schedule/lattice_order.h), with its band slots.
  expectTheFirstStepNeverAllocates(
      [](World& world) { scenes::addNumberedCloth(world, 64, scenes::randomNumbering(64 * 64, 52)); },
      [](const BlockSchedule& blocks) { return blocks.latticeOrdered && blocks.bandSlotOfParticle() != nullptr; });
}

TEST(NoAllocation, RodStepsNeverAllocate) {
  // Two rods of different lengths (the direct solve's scratch is sized for the longer), one clamped and twisted, under
  // every solver; and a world loaded from a snapshot of them.
  World world;
  for (int rod = 0; rod < 2; ++rod) {
    RodDef def;
    const int segments = rod == 0 ? 30 : 12;
    for (int k = 0; k <= segments; ++k) def.points.insert(def.points.end(), {0.03f * Real(k), 1.5f, 0.2f * Real(rod)});
    if (rod == 0) def.pinned = {0, 1}, def.clampedSegments = {0};
    world.addRod(def);
  }
  world.setSegmentTorque(29, Vec3(0.001f, 0, 0));
  for (Solver solver : scenes::everySolver()) {
    world.setSolver(solver);
    world.step(1.0f / 60);
    allocations = 0;
    counting = true;
    for (int f = 0; f < 10; ++f) world.step(1.0f / 60);
    counting = false;
    EXPECT_EQ(allocations.load(), 0) << "solver " << int(solver);
  }
  world.setSolver(Solver::ColouredGaussSeidel);  // as StepAfterLoadingASnapshotNeverAllocates (VBD and PD build on
  world.step(1.0f / 60);                         // their first step after a load)
  const std::vector<uint8_t> blob = world.saveSnapshot();
  World loaded;
  loaded.loadSnapshot(blob.data(), blob.size());
  allocations = 0;
  counting = true;
  for (int f = 0; f < 10; ++f) loaded.step(1.0f / 60);
  counting = false;
  EXPECT_EQ(allocations.load(), 0) << "after loadSnapshot";
}
