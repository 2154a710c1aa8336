// World snapshots: a world loaded from saveSnapshot() continues bit-identically to the one that saved it (into a new
// world and into the original after it ran on; every solver, both integrators, serial and threaded), the blob
// round-trips byte for byte, and every corrupt, truncated, newer or invalid blob is refused with a SnapshotError that
// names the problem while the world stays exactly as it was.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "constraints/dihedral.h"
#include "constraints/distance.h"
#include "constraints/surface_volume.h"
#include "constraints/neo_hookean.h"
#include "constraints/shape_matching.h"
#include "constraints/tet_volume.h"
#include "constraints/tether.h"
#include "constraints/triangle_strain.h"
#include "io/byte_stream.h"
#include "pbd/errors.h"
#include "pbd/task_system.h"
#include "pbd/world.h"
#include "scenes/ball_and_floor_meshes.h"
#include "scenes/every_kind.h"
#include "scenes/scenes.h"
#include "world/world_state.h"

using namespace pbd;

namespace {

using Blob = std::vector<uint8_t>;

void stepEveryKind(World& world, const scenes::EveryKind& kinds, int from, int frames) {
  for (int f = from; f < from + frames; ++f) {
    scenes::driveEveryKind(world, kinds, f);
    world.step(1.0f / 60);
  }
}

/// Expects loadSnapshot(blob) to throw a SnapshotError whose message contains `needle`, and the world to be unchanged
/// (same state hash and same snapshot bytes).
void expectRefused(World& world, const Blob& blob, const std::string& needle, const std::string& label) {
  const uint64_t hash = scenes::stateHash(world);
  const Blob before = world.saveSnapshot();
  try {
    world.loadSnapshot(blob.data(), blob.size());
    ADD_FAILURE() << label << ": loaded";
  } catch (const SnapshotError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << label << ": " << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("loadSnapshot: ", 0), 0u) << e.what();
  }
  EXPECT_EQ(scenes::stateHash(world), hash) << label;
  EXPECT_TRUE(world.saveSnapshot() == before) << label;
}

/// Offset of the body of the section with tag `name` (after its u32 tag and u64 length), or 0.
size_t sectionBody(const Blob& blob, const char (&name)[5]) {
  size_t at = 20;
  while (at + 12 <= blob.size() - 8) {
    uint64_t length = 0;
    std::memcpy(&length, &blob[at + 4], 8);  // the tests run on little-endian hosts (x86-64, wasm)
    if (std::memcmp(&blob[at], name, 4) == 0) return at + 12;
    at += 12 + size_t(length);
  }
  return 0;
}

/// Recomputes the trailing checksum after an edit, so that only the value checks can catch it.
void reseal(Blob& blob) {
  const uint64_t h = io::fnv1a64(blob.data(), blob.size() - 8);
  std::memcpy(&blob[blob.size() - 8], &h, 8);
}

/// A small world (rope, collider, attachments) for the byte-by-byte tests.
void smallWorld(World& world) {
  RopeDef rope;
  rope.segments = 2;
  rope.start = Vec3(0, 1, 0);
  rope.pinned = {0};
  world.addRope(rope);
  world.addCollider(ColliderDef{});
  AttachmentDef a;
  a.particle = 2;
  world.removeAttachment(world.addAttachment(a));
  world.addAttachment(a);
  world.step(1.0f / 60);
}

}  // namespace

TEST(Snapshot, ContinuesBitIdenticallyForEverySolverAndIntegrator) {
  ThreadPool pool(1);  // two threads: the caller and one worker
  for (Solver solver : {Solver::GaussSeidel, Solver::Jacobi, Solver::ColouredGaussSeidel, Solver::Hierarchical,
                        Solver::VertexBlockDescent}) {
    for (Integrator integrator : {Integrator::ImplicitEuler, Integrator::Bdf2}) {
      const std::string label = "solver " + std::to_string(int(solver)) + " integrator " + std::to_string(int(integrator));
      World original;
      const scenes::EveryKind kinds = scenes::buildEveryKind(original);
      original.setSolver(solver);
      original.setIntegrator(integrator);
      // A small external force on every particle: a loaded world must apply it too.
      for (uint32_t i = 0; i < original.particleCount(); ++i) original.setExternalForce(i, Vec3(0.02f, 0, 0.01f));
      stepEveryKind(original, kinds, 0, 6);  // BDF2 is mid-run: its history is valid and matters
      const Blob blob = original.saveSnapshot();
      const uint64_t saved = scenes::stateHash(original);
      size_t touching = 0;  // contacts and self-collision pairs over the continued frames: they must be restored too
      for (int f = 6; f < 12; ++f) {
        stepEveryKind(original, kinds, f, 1);
        touching += original.selfCollisionPairCount() + original.contactCount();
      }
      const uint64_t expected = scenes::stateHash(original);
      ASSERT_NE(expected, saved) << label << ": the world must have moved";
      EXPECT_GT(touching, 0u) << label;

      World fresh;
      fresh.loadSnapshot(blob.data(), blob.size());
      EXPECT_EQ(scenes::stateHash(fresh), saved) << label;
      EXPECT_TRUE(fresh.saveSnapshot() == blob) << label << ": the loaded world saves the same bytes";
      stepEveryKind(fresh, kinds, 6, 6);
      EXPECT_EQ(scenes::stateHash(fresh), expected) << label << ": new world";

      original.loadSnapshot(blob.data(), blob.size());  // the original, which ran on since
      stepEveryKind(original, kinds, 6, 6);
      EXPECT_EQ(scenes::stateHash(original), expected) << label << ": original world";

      World threaded(&pool);
      threaded.loadSnapshot(blob.data(), blob.size());
      stepEveryKind(threaded, kinds, 6, 6);
      EXPECT_EQ(scenes::stateHash(threaded), expected) << label << ": 2 threads";
    }
  }
}

// A blob saved before strain triangles were VBD's elements has penalties for every element but them (section VBDP
// one strain triangle's count short): it loads, its penalties start over. Any other length is refused.
TEST(Snapshot, LoadsVbdPenaltiesFromBeforeStrainTrianglesWereElements) {
  World world;
  world.setSolver(Solver::VertexBlockDescent);
  ClothDef c = scenes::pinnedSquareCloth(4, Vec3(0, 1, 0), Vec3(0, 0, 1));
  c.model = ClothModel::StrainTriangles;
  world.addCloth(c);
  world.step(1.0f / 60);
  const uint32_t triangles = world.triangleStrainCount();
  ASSERT_GT(triangles, 0u);
  const Blob blob = world.saveSnapshot();
  const size_t body = sectionBody(blob, "VBDP");
  ASSERT_NE(body, 0u);
  uint64_t count = 0;
  std::memcpy(&count, &blob[body], 8);
  ASSERT_GT(count, triangles);
  // Drop `dropped` penalties from the end of the vector, shortening the section and the payload to match.
  auto shortened = [&](uint64_t dropped) {
    Blob old(blob.begin(), blob.begin() + long(body + 8 + 4 * (count - dropped)));
    old.insert(old.end(), blob.begin() + long(body + 8 + 4 * count), blob.end());
    const uint64_t n = count - dropped;
    std::memcpy(&old[body], &n, 8);
    uint64_t sectionLength = 0, payload = 0;
    std::memcpy(&sectionLength, &old[body - 8], 8);
    sectionLength -= 4 * dropped;
    std::memcpy(&old[body - 8], &sectionLength, 8);
    std::memcpy(&payload, &old[12], 8);
    payload -= 4 * dropped;
    std::memcpy(&old[12], &payload, 8);
    reseal(old);
    return old;
  };
  const Blob old = shortened(triangles);
  World loaded;
  loaded.loadSnapshot(old.data(), old.size());
  EXPECT_EQ(scenes::stateHash(loaded), scenes::stateHash(world));
  loaded.step(1.0f / 60);
  EXPECT_TRUE(std::isfinite(loaded.positions()[0]));
  World refused;
  expectRefused(refused, shortened(1), "vbdPenalties", "one penalty short");
}

// A setting that is part of the state a continuation needs: the every-kind world with `set` applied continues from its
// snapshot to the same bits (the loaded world's settings satisfying `kept`), and the same blob with `unset` applied
// after loading takes another path (the change also makes the next step settle, so this shows that the state
// differs, not that the setting alone made the difference).
template <class Set, class Unset, class Kept>
void expectTheSnapshotKeepsASetting(Set set, Unset unset, Kept kept) {
  World original;
  const scenes::EveryKind kinds = scenes::buildEveryKind(original);
  set(original);
  stepEveryKind(original, kinds, 0, 6);
  const Blob blob = original.saveSnapshot();
  stepEveryKind(original, kinds, 6, 6);
  const uint64_t expected = scenes::stateHash(original);

  World fresh;
  fresh.loadSnapshot(blob.data(), blob.size());
  EXPECT_TRUE(kept(fresh.settings()));
  stepEveryKind(fresh, kinds, 6, 6);
  EXPECT_EQ(scenes::stateHash(fresh), expected);

  World lost;
  lost.loadSnapshot(blob.data(), blob.size());
  unset(lost);
  stepEveryKind(lost, kinds, 6, 6);
  EXPECT_NE(scenes::stateHash(lost), expected);
}

// VBD's Chebyshev ρ (section CHEB), in a world of 4 iterations with ρ = 0.6.
TEST(Snapshot, KeepsTheChebyshevRho) {
  expectTheSnapshotKeepsASetting(
      [](World& w) {
        w.setSolver(Solver::VertexBlockDescent);
        w.setIterations(4);
        w.setChebyshevRho(0.6f);
      },
      [](World& w) { w.setChebyshevRho(0); }, [](const SolverSettings& s) { return s.chebyshevRho == 0.6f; });
}

// Gauss-Seidel's order over the distances (section DSWP), in a world that sweeps them symmetrically.
TEST(Snapshot, KeepsTheDistanceSweep) {
  expectTheSnapshotKeepsASetting([](World& w) { w.setDistanceSweep(DistanceSweep::Symmetric); },
                                 [](World& w) { w.setDistanceSweep(DistanceSweep::Forward); },
                                 [](const SolverSettings& s) { return s.distanceSweep == DistanceSweep::Symmetric; });
}

// A world loaded from a snapshot that carries external forces applies them, in the particle pass's fused form (the
// small world has no damping and no speed clamp) as in the other (buildEveryKind, above).
TEST(Snapshot, ALoadedWorldAppliesTheForcesItCarries) {
  World original;
  smallWorld(original);
  for (uint32_t i = 0; i < original.particleCount(); ++i) original.setExternalForce(i, Vec3(0.5f, 0, 0.25f));
  const Blob blob = original.saveSnapshot();
  World fresh;
  fresh.loadSnapshot(blob.data(), blob.size());
  for (int f = 0; f < 3; ++f) original.step(1.0f / 60), fresh.step(1.0f / 60);
  EXPECT_EQ(scenes::stateHash(fresh), scenes::stateHash(original));
  World unforced;  // and the forces do move it: without them the state differs
  smallWorld(unforced);
  for (int f = 0; f < 3; ++f) unforced.step(1.0f / 60);
  EXPECT_NE(scenes::stateHash(unforced), scenes::stateHash(original));
}

TEST(Snapshot, HashSeesASingleUlpSoTheComparisonsCanFail) {
  World original;
  const scenes::EveryKind kinds = scenes::buildEveryKind(original);
  stepEveryKind(original, kinds, 0, 3);
  const Blob blob = original.saveSnapshot();
  stepEveryKind(original, kinds, 3, 3);
  World nudged;
  nudged.loadSnapshot(blob.data(), blob.size());
  // A free particle of the cloth (one a contact or skinned constraint holds may be set back where it was).
  const Vec3 x(nudged.positions() + 3 * 20);
  nudged.setPosition(20, Vec3(std::nextafter(x[0], 1.0f), x[1], x[2]));
  stepEveryKind(nudged, kinds, 3, 3);
  EXPECT_NE(scenes::stateHash(nudged), scenes::stateHash(original));
}

TEST(Snapshot, KeepsHandlesAndCountsAndLetsTheWorldGrow) {
  World original;
  const scenes::EveryKind kinds = scenes::buildEveryKind(original);
  stepEveryKind(original, kinds, 0, 2);
  const Blob blob = original.saveSnapshot();
  World loaded;
  loaded.loadSnapshot(blob.data(), blob.size());
  EXPECT_EQ(loaded.particleCount(), original.particleCount());
  EXPECT_EQ(loaded.constraintCount(), original.constraintCount());
  EXPECT_EQ(loaded.colliderCount(), 3u);
  EXPECT_EQ(loaded.surfaceVolumeCount(), 1u);
  EXPECT_EQ(loaded.surfaceRestVolume(0), original.surfaceRestVolume(0));
  for (uint32_t c = 0; c < original.distanceConstraintCount(); ++c) {
    ASSERT_EQ(loaded.distanceConstraintColour(c), original.distanceConstraintColour(c)) << c;
  }
  // The removed handle is handed out again first, in both; the colouring continues identically.
  EXPECT_THROW(loaded.setAttachmentTarget(kinds.removed, Vec3::Zero()), InvalidArgument);  // still removed
  AttachmentDef a;
  a.particle = 3;
  EXPECT_EQ(loaded.addAttachment(a), kinds.removed);
  EXPECT_EQ(original.addAttachment(a), kinds.removed);
  const DistanceConstraintDef d{1, 7, -1, -1, Strength{}};
  EXPECT_EQ(loaded.distanceConstraintColour(loaded.addDistanceConstraint(d)),
            original.distanceConstraintColour(original.addDistanceConstraint(d)));
  stepEveryKind(original, kinds, 2, 3);
  stepEveryKind(loaded, kinds, 2, 3);
  EXPECT_EQ(scenes::stateHash(loaded), scenes::stateHash(original));
}

TEST(Snapshot, EmptyWorldRoundTrips) {
  World empty;
  const Blob blob = empty.saveSnapshot();
  World world;
  scenes::buildEveryKind(world);
  world.loadSnapshot(blob.data(), blob.size());
  EXPECT_EQ(world.particleCount(), 0u);
  EXPECT_EQ(world.constraintCount(), 0u);
  EXPECT_EQ(world.colliderCount(), 0u);
  EXPECT_TRUE(world.saveSnapshot() == blob);
  world.step(1.0f / 60);
  world.addParticle(Vec3(0, 1, 0), 1);  // and it grows as any new world does
  world.step(0.1f);
  EXPECT_LT(world.positions()[1], 1.0f);
}

TEST(Snapshot, EveryCorruptedByteIsRefusedAndTheWorldUnchanged) {
  World source;
  smallWorld(source);
  const Blob blob = source.saveSnapshot();
  World target;
  scenes::buildEveryKind(target);
  for (size_t k = 0; k < blob.size(); ++k) {
    for (uint8_t flip : {uint8_t(0x01), uint8_t(0x80)}) {
      Blob bad = blob;
      bad[k] ^= flip;
      expectRefused(target, bad, "", "byte " + std::to_string(k) + " ^ " + std::to_string(flip));
    }
  }
  Blob payloadByte = blob;
  payloadByte[40] ^= 1;
  expectRefused(target, payloadByte, "checksum mismatch", "payload byte");
}

TEST(Snapshot, EveryTruncationIsRefused) {
  World source;
  smallWorld(source);
  const Blob blob = source.saveSnapshot();
  World target;
  smallWorld(target);
  target.step(1.0f / 60);
  for (size_t n = 0; n < blob.size(); ++n) {
    expectRefused(target, Blob(blob.begin(), blob.begin() + n), "truncated blob", "length " + std::to_string(n));
  }
  Blob longer = blob;
  longer.push_back(0);
  expectRefused(target, longer, "1 trailing bytes", "one byte too many");
  EXPECT_THROW(target.loadSnapshot(nullptr, 4), SnapshotError);
}

TEST(Snapshot, HeaderProblemsAreNamed) {
  World source;
  smallWorld(source);
  const Blob blob = source.saveSnapshot();
  World target;
  Blob magic = blob;
  magic[0] = 'X';
  expectRefused(target, magic, "bad magic", "magic");
  Blob newer = blob;
  newer[4] = 7;
  expectRefused(target, newer, "format version 7 is newer than this library's 1", "version");
  Blob flags = blob;
  flags[8] = 2;
  expectRefused(target, flags, "unknown flags 0x2", "flags");
  expectRefused(target, Blob(blob.begin(), blob.begin() + 30), "truncated blob (payload and checksum needs", "cut");
}

TEST(Snapshot, ValuesThatPassTheChecksumAreStillValidated) {
  World source;
  scenes::buildEveryKind(source);
  source.step(1.0f / 60);
  const Blob blob = source.saveSnapshot();
  World target;
  smallWorld(target);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto edit = [&](const char (&section)[5], size_t offset, const void* value, size_t n) {
    Blob bad = blob;
    const size_t body = sectionBody(bad, section);
    EXPECT_NE(body, 0u) << section;
    std::memcpy(&bad[body + offset], value, n);
    reseal(bad);
    return bad;
  };
  // particles: u64 count of x, then x[0]
  expectRefused(target, edit("PART", 8, &nan, 4), "positions[0] must be finite", "NaN position");
  // distances: u64 count, then distances[0].i
  const uint32_t far = 100000;
  expectRefused(target, edit("DIST", 8, &far, 4), "distances[0].i/j is out of range", "distance index");
  // settings: method, solver, integrator, then jacobiRelaxation
  const float omega = 5;
  expectRefused(target, edit("SETT", 12, &omega, 4), "jacobiRelaxation must be in (0, 2)", "settings");
  const uint32_t shape = 9;  // colliders: u64 count, then colliders[0].def.shape
  expectRefused(target, edit("COLL", 8, &shape, 4), "colliders[0]: addCollider: shape is unknown", "collider shape");
  const uint8_t flag = 3;  // history: historyValid first
  expectRefused(target, edit("HIST", 0, &flag, 1), "flag byte 3", "bool");
  expectRefused(target, edit("TETH", 8 + 8, &nan, 4), "tethers[0].maxLength", "tether length");
  const uint32_t bogus = 0x4b4e5558;  // 'XUNK': an unknown required section
  Blob unknown = blob;
  std::memcpy(&unknown[sectionBody(unknown, "TETH") - 12], &bogus, 4);
  reseal(unknown);
  expectRefused(target, unknown, "unknown required section 'XUNK'", "unknown tag");
  // The tethers section twice: insert a copy of it right after itself.
  Blob twice = blob;
  const size_t tethers = sectionBody(twice, "TETH") - 12;
  uint64_t length = 0;
  std::memcpy(&length, &twice[tethers + 4], 8);
  const Blob copy(twice.begin() + tethers, twice.begin() + tethers + 12 + length);
  twice.insert(twice.begin() + tethers, copy.begin(), copy.end());
  uint64_t payload = 0;
  std::memcpy(&payload, &twice[12], 8);
  payload += copy.size();
  std::memcpy(&twice[12], &payload, 8);
  reseal(twice);
  expectRefused(target, twice, "section 'tethers' appears twice", "duplicate");
}

TEST(Snapshot, UnknownOptionalSectionsAreSkipped) {
  World source;
  smallWorld(source);
  Blob blob = source.saveSnapshot();
  // Append an optional section (tag bit 31 set) of 3 bytes before the checksum, and fix the payload length.
  const uint8_t extra[15] = {'O', 'P', 'T', 'X' | 0x80, 3, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3};
  blob.insert(blob.end() - 8, extra, extra + 15);
  uint64_t payload = 0;
  std::memcpy(&payload, &blob[12], 8);
  payload += 15;
  std::memcpy(&blob[12], &payload, 8);
  reseal(blob);
  World target;
  target.loadSnapshot(blob.data(), blob.size());
  EXPECT_EQ(scenes::stateHash(target), scenes::stateHash(source));
}

TEST(SnapshotFormat, KnowsEveryField) {
  // A new field in any of these structs must be added to its describe() in src/world/snapshot_codec.h (and the
  // format version bumped if old blobs can no longer be read the same way); then update the size here.
  // (Collider is left out: its def holds spans, whose size differs between native and wasm32.)
  // maxSpeed (the last 4 bytes) is saved in the contactMaterials section, ground.staticFriction in the
  // staticFriction section (SFRC), chebyshevRho and distanceSweep in their own (CHEB, DSWP), so blobs of format 1
  // still load.
  EXPECT_EQ(sizeof(SolverSettings), 104u) << "SolverSettings changed: save the new field in the snapshot";
  // Attachment's collider and anchor (the last 16 bytes) are saved in the attachmentLinks section (ATCC).
  EXPECT_EQ(sizeof(Attachment), 60u) << "Attachment changed";
  EXPECT_EQ(sizeof(AttachmentLink), 16u);
  EXPECT_EQ(sizeof(SkinnedConstraint), 64u);
  EXPECT_EQ(sizeof(DistanceConstraint), 28u);
  EXPECT_EQ(sizeof(DihedralConstraint), 32u);
  EXPECT_EQ(sizeof(TetVolumeConstraint), 36u);
  EXPECT_EQ(sizeof(Tether), 12u);
  EXPECT_EQ(sizeof(NeoHookeanTet), 84u);
  EXPECT_EQ(sizeof(SurfaceVolumeConstraint), 40u);
  EXPECT_EQ(sizeof(TriangleStrainConstraint), 56u);
  EXPECT_EQ(sizeof(ShapeMatchingCluster), 20u);
}

// Triangle-mesh colliders: the saved blob holds each mesh as deformed last and who is inside it, and the world
// continues bit-identically (a cloth sliding over a moving icosphere mesh and an open, deformed floor mesh).
TEST(Snapshot, TriangleMeshCollidersContinueBitIdentically) {
  const scenes::BallAndFloorMeshes meshes{scenes::icosphere(2, 0.3)};
  const scenes::IcosphereMesh& sphere = meshes.ball;
  const std::vector<float>& floorXyz = meshes.floorXyz;
  auto build = [&] {
    World w;
    scenes::addBallAndFloorMeshes(w, meshes, Vec3(0, 0.4f, 0), 0.01f);
    ClothDef cloth;
    cloth.columns = cloth.rows = 12;
    cloth.spacing = 0.9f / 11;
    cloth.origin = Vec3(-0.45f, 0.9f, -0.45f);
    w.addCloth(cloth);
    return w;
  };
  auto drive = [&](World& w, int frame) {
    // The ball sweeps sideways (friction drags the cloth), and the floor mesh sags in its middle.
    w.setColliderPose(0, Vec3(0.004f * float(frame), 0.4f, 0), Quat::Identity());
    std::vector<float> sag = floorXyz;
    for (size_t k = 1; k < sag.size(); k += 3) sag[k] = -0.001f * float(frame % 7);
    w.setColliderMeshVertices(1, sag);
    w.step(1.0f / 60);
  };
  World original = build();
  for (int f = 0; f < 60; ++f) drive(original, f);   // the cloth lies on the ball by now
  const Blob blob = original.saveSnapshot();
  World copy = build();
  copy.loadSnapshot(blob.data(), blob.size());
  EXPECT_TRUE(copy.saveSnapshot() == blob);
  for (int f = 60; f < 120; ++f) drive(original, f), drive(copy, f);
  EXPECT_EQ(scenes::stateHash(copy), scenes::stateHash(original));
  EXPECT_GT(original.contactCount(), 0u);   // the comparison covered contacts with the meshes
  // A blob whose mesh triangles name a vertex out of range is refused by addCollider's own check.
  Blob bad = blob;
  const size_t mesh = sectionBody(bad, "MESH");
  ASSERT_GT(mesh, 0u);
  const size_t firstTriangle = mesh + 4 + 8 + 4 * sphere.positions.size() + 8;
  const uint32_t outOfRange = 1u << 30;
  std::memcpy(&bad[firstTriangle], &outOfRange, 4);
  reseal(bad);
  expectRefused(copy, bad, "colliders[0]", "mesh triangle out of range");
}

// A rod's section (RODS): segments, joints, then the frames; each value checked as addRod would have made it.
TEST(Snapshot, RodValuesAreValidated) {
  World source;
  RodDef rod;
  for (int k = 0; k <= 3; ++k) rod.points.insert(rod.points.end(), {0.1f * Real(k), 1, 0});
  source.addRod(rod);
  source.step(1.0f / 60);
  const Blob blob = source.saveSnapshot();
  World target;
  smallWorld(target);
  auto edit = [&](size_t offset, const void* value, size_t n) {
    Blob bad = blob;
    const size_t body = sectionBody(bad, "RODS");
    EXPECT_NE(body, 0u);
    std::memcpy(&bad[body + offset], value, n);
    reseal(bad);
    return bad;
  };
  constexpr size_t kSegment = 4 + 4 + 4 + 4 + 12, kJoint = 4 + 12 + 12;  // their encoded sizes
  const uint32_t far = 3;
  expectRefused(target, edit(8 + 4, &far, 4), "rods[0].p1 must be p0 + 1", "segment particles");
  const float zero = 0;
  expectRefused(target, edit(8 + 8, &zero, 4), "rods[0].restLength must be > 0", "rest length");
  const uint32_t wrongJoint = 2;
  expectRefused(target, edit(8 + 3 * kSegment + 8, &wrongJoint, 4), "rodJoints[0].segment must join", "joint order");
  const float two = 2;
  expectRefused(target, edit(8 + 3 * kSegment + 8 + 2 * kJoint + 8, &two, 4), "rods[0].orientation must be a unit",
                "orientation");
}
