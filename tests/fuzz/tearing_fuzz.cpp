// Tearing (World::tearEdges and the step's own tears) on fuzzed meshes. The first byte picks the body: even, a grid
// cloth (columns, rows, model and bend from the next bytes); odd, a triangle soup read as mesh_body_fuzz reads one
// (vertex count byte, 3 reals each, triangle count byte, 3 index bytes each), welded or not. Both tear past a fuzzed
// strain and have a rope added before and after them. Then operations until the input ends, one byte each:
//   0 tear a side of a triangle (triangle index, side byte); 1 tear a fuzzed pair (usually no edge: it must throw
//   InvalidArgument and change nothing); 2 step (an attachment pulls a fuzzed particle to a fuzzed point first);
//   3 round-trip a snapshot (the same blob back, and the same positions after a step of both).
// After every tear: the total mass is kept, the particles stay finite, every body's triangles name its particles.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_input.h"
#include "pbd/errors.h"
#include "pbd/world.h"
#include "world_check.h"

namespace {

using pbd::Real;
using pbd::fuzz::Input;

double totalMass(const pbd::World& w) {
  double m = 0;
  for (uint32_t i = 0; i < w.particleCount(); ++i)
    if (w.inverseMasses()[i] > 0) m += 1.0 / w.inverseMasses()[i];
  return m;
}

/// The tearable body, built from the input, or false when the builder refused it.
bool addBody(pbd::World& world, Input& in, pbd::BodyRange& body) {
  const uint8_t kind = in.byte();
  pbd::Tearing tearing;
  tearing.enabled = true;
  tearing.strain = in.flag() ? std::numeric_limits<Real>::infinity() : in.real();
  try {
    if (kind % 2 == 0) {
      pbd::ClothDef def;
      def.columns = 2 + in.byte() % 10, def.rows = 2 + in.byte() % 10;
      def.model = in.enumValue<pbd::ClothModel>(2);
      def.bendModel = in.enumValue<pbd::BendModel>(2);
      def.pinned = {0};
      def.tethers = in.enumValue<pbd::TetherMode>(3);
      def.tearing = tearing;
      body = world.addCloth(def);
    } else {
      pbd::TriangleMeshDef def;
      const size_t n = std::min<size_t>(in.byte(), 60);
      def.positions.resize(3 * n);
      for (Real& x : def.positions) x = in.real();
      def.triangles.resize(3 * size_t(in.byte()));
      for (uint32_t& i : def.triangles) i = in.index(uint32_t(n));
      if (in.flag()) def.weldTolerance = -1;
      def.tearing = tearing;
      body = world.addTriangleMesh(def).range;
    }
  } catch (const pbd::InvalidArgument&) {
    return false;
  }
  return true;
}

/// The body's triangles name existing particles, three per triangle.
void checkTriangles(const pbd::World& world, uint32_t body) {
  const std::vector<uint32_t> t = world.bodyTriangles(body);
  PBD_FUZZ_CHECK(t.size() % 3 == 0);
  for (uint32_t v : t) PBD_FUZZ_CHECK(v < world.particleCount());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in(data, size);
  pbd::World world;
  pbd::RopeDef rope;
  rope.segments = 3;
  world.addRope(rope);
  pbd::BodyRange body;
  if (!addBody(world, in, body)) return 0;
  rope.start = pbd::Vec3(3, 1, 0), rope.end = pbd::Vec3(3, 0, 0);
  world.addRope(rope);
  uint32_t attachment = pbd::kNoCollider;
  for (int ops = 0; !in.empty() && ops < 64; ++ops) {
    const uint8_t op = in.byte() % 4;
    const double mass = totalMass(world);
    if (op == 0 || op == 1) {
      std::vector<uint32_t> edge(2);
      const std::vector<uint32_t> triangles = world.bodyTriangles(body.body);
      if (op == 0 && !triangles.empty()) {
        const uint32_t t = in.index(uint32_t(triangles.size() / 3)) % uint32_t(triangles.size() / 3), k = in.byte() % 3;
        edge = {triangles[3 * t + k], triangles[3 * t + (k + 1) % 3]};
      } else {
        edge = {in.index(world.particleCount()), in.index(world.particleCount())};
      }
      const uint64_t before = pbd::fuzz::worldHash(world);
      try {
        const pbd::TearReport report = world.tearEdges(body.body, edge);
        PBD_FUZZ_CHECK(report.sourceParticles.size() == report.particleCount);
        PBD_FUZZ_CHECK(std::abs(totalMass(world) - mass) <= 1e-4 * mass + 1e-6);
      } catch (const pbd::InvalidArgument&) {
        PBD_FUZZ_CHECK(pbd::fuzz::worldHash(world) == before);
      }
      checkTriangles(world, body.body);
    } else if (op == 2) {
      const uint32_t i = in.index(world.particleCount());
      const pbd::Vec3 target = in.vec3();
      try {
        if (attachment != pbd::kNoCollider) world.removeAttachment(attachment), attachment = pbd::kNoCollider;
        pbd::AttachmentDef a;
        a.particle = i, a.target = target;
        attachment = world.addAttachment(a);
      } catch (const pbd::InvalidArgument&) {
      }
      world.step(Real(1) / 60);
      pbd::fuzz::checkFinite(world);
      if (world.lastStepReport().rolledBack) continue;  // a fuzzed pull may blow a step up; it was undone
      PBD_FUZZ_CHECK(std::abs(totalMass(world) - mass) <= 1e-4 * mass + 1e-6);
      checkTriangles(world, body.body);
    } else {
      const std::vector<uint8_t> blob = world.saveSnapshot();
      pbd::World copy;
      copy.loadSnapshot(blob.data(), blob.size());
      PBD_FUZZ_CHECK(copy.saveSnapshot() == blob);
      PBD_FUZZ_CHECK(copy.bodyTriangles(body.body) == world.bodyTriangles(body.body));
    }
  }
  return 0;
}
