// step() never allocates: every buffer it uses is reserved when particles and constraints are added. Checked with a
// counting global operator new, on a world that exercises every stage and every solver, serial and threaded.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "pbd/task_system.h"
#include "pbd/world.h"

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
}  // namespace

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

using namespace pbd;

TEST(NoAllocation, StepNeverAllocates) {
  for (unsigned workers : {0u, 1u}) {
    ThreadPool pool(workers);
    World world(&pool);
    SolverSettings s;
    s.ground.height = 0.5f;
    s.ground.restitution = 0.3f;
    s.linearDamping = 0.1f;
    s.rigidDamping = 0.2f;
    world.setSettings(s);
    ClothDef c;
    c.columns = c.rows = 80;  // 6400 particles: the batched loops split across threads
    c.spacing = 0.02f;
    c.origin = Vec3(-0.8f, 1, 0);
    c.pinned = {0, 79};
    c.tethers = TetherMode::Geodesic;
    world.addCloth(c);
    RopeDef r;
    r.segments = 20;
    r.start = Vec3(1, 1.5f, 0);
    world.addRope(r);
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
    for (Solver solver : {Solver::ColouredGaussSeidel, Solver::GaussSeidel, Solver::Jacobi}) {
      world.setSolver(solver);
      world.step(1.0f / 60);  // first step after a change may rebuild the schedule (into reserved buffers)
      allocations = 0;
      counting = true;
      for (int f = 0; f < 20; ++f) {
        world.setAttachmentTarget(grab, Vec3(0, 1, 0.01f * f));
        world.step(1.0f / 60);
      }
      counting = false;
      EXPECT_EQ(allocations.load(), 0) << "workers " << workers << " solver " << int(solver);
      EXPECT_GT(world.contactCount(), 0u);  // the ground stage ran too
    }
  }
}
