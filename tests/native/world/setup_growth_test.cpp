// Building a world one call at a time costs O(1) per call, amortized: adding n particles, distance constraints,
// attachments or dihedral constraints one by one reallocates each array O(log n) times (each time by half as much
// again), not once per call, which copied everything so far on every call (a 128² cloth's constraints added one by
// one took seconds).
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "pbd/world.h"
#include "native/world_internals.h"

using namespace pbd;

namespace {

/// Distinct capacities a vector went through: one per allocation.
template <class V>
struct Growths {
  const V& v;
  std::set<size_t> seen;
  void note() { seen.insert(v.capacity()); }
};

}  // namespace

TEST(SetupGrowth, ParticlesAndConstraintsAddedOneAtATimeReallocateLogarithmicallyOften) {
  constexpr int kCount = 20000;
  World world;
  ColliderDef sphere;  // contacts' room grows with the particles times the colliders
  sphere.position = Vec3(0, -5, 0);
  world.addCollider(sphere);
  const WorldImpl& m = WorldInternals::of(world);
  Growths<std::vector<Real>> x{m.particles.x, {}};
  Growths<std::vector<ParticleRange>> bodies{m.particles.bodies, {}};
  Growths<std::vector<Contact>> contacts{m.collision.contacts, {}};
  for (int i = 0; i < kCount; ++i) {
    world.addParticle(Vec3(Real(i) * 0.01f, 1, 0), 1);
    x.note(), bodies.note(), contacts.note();
  }
  Growths<std::vector<DistanceConstraint>> distances{m.constraints.distances, {}};
  Growths<std::vector<Real>> lambda{m.constraints.distanceLambda, {}};
  for (int i = 0; i + 1 < kCount; ++i) {
    world.addDistanceConstraint({uint32_t(i), uint32_t(i + 1), -1, -1, {}});
    distances.note(), lambda.note();
  }
  Growths<std::vector<Attachment>> attachments{m.constraints.attachments, {}};
  Growths<std::vector<DihedralConstraint>> dihedrals{m.constraints.dihedrals, {}};
  for (int i = 0; i + 3 < kCount; i += 2) {
    world.addAttachment({uint32_t(i), Vec3(Real(i) * 0.01f, 1, 0), {}});
    world.addDihedralConstraint({uint32_t(i), uint32_t(i + 3), uint32_t(i + 1), uint32_t(i + 2), 0, {}});
    attachments.note(), dihedrals.note();
  }
  // 1.5 ^ 25 > 20000: at most about 25 growths each (a few more from the first, tiny capacities).
  for (size_t n : {x.seen.size(), bodies.seen.size(), contacts.seen.size(), distances.seen.size(), lambda.seen.size(),
                   attachments.seen.size(), dihedrals.seen.size()}) {
    EXPECT_LE(n, 32u);
  }
  EXPECT_EQ(world.particleCount(), uint32_t(kCount));
  EXPECT_EQ(world.distanceConstraintCount(), uint32_t(kCount - 1));
  world.step(1.0f / 60);  // and it steps: everything the step needs was reserved
  EXPECT_TRUE(std::isfinite(world.positions()[3 * (kCount - 1) + 1]));
}
