// loadSnapshot on damaged blobs. The input edits a valid snapshot of a world with every kind of state (built once:
// tests/scenes/every_kind.h, plus a triangle-mesh collider): each 5 input bytes XOR one byte (u32 offset, u8 mask),
// and an input of length 5k + 1 first truncates the blob to data[0]/256 of its length. The checksum is then
// recomputed, so the edits reach the section parser and the value checks instead of stopping at the checksum.
// Invariants: a refused blob throws pbd::SnapshotError (anything else escapes and is reported) and leaves the world
// exactly as it was; an accepted one steps without carrying NaN and saves to a blob that loads again.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "io/byte_stream.h"
#include "pbd/errors.h"
#include "pbd/world.h"
#include "scenes/every_kind.h"
#include "scenes/icosphere.h"
#include "world_check.h"

using namespace pbd;

namespace {

std::vector<uint8_t> gBlob;

void broken(const char* what) {
  std::fprintf(stderr, "FUZZ INVARIANT BROKEN: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  World world;
  const scenes::EveryKind kinds = scenes::buildEveryKind(world);
  static const scenes::IcosphereMesh ball = scenes::icosphere(1, 0.2);
  ColliderDef mesh;
  mesh.shape = ColliderShape::TriangleMesh;
  mesh.meshPositions = ball.positions;
  mesh.meshTriangles = ball.triangles;
  mesh.position = Vec3(3, 0.3f, 0);
  world.addCollider(mesh);
  for (int f = 0; f < 5; ++f) {
    scenes::driveEveryKind(world, kinds, f);
    world.step(1.0f / 60);
  }
  gBlob = world.saveSnapshot();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> blob = gBlob;
  size_t k = 0;
  if (size % 5 == 1) {
    blob.resize(blob.size() * data[0] / 256);
    k = 1;
  }
  for (; k + 5 <= size && !blob.empty(); k += 5) {
    uint32_t offset;
    std::memcpy(&offset, data + k, 4);
    blob[offset % blob.size()] ^= data[k + 4];
  }
  if (blob.size() >= 28) {
    const uint64_t h = io::fnv1a64(blob.data(), blob.size() - 8);
    std::memcpy(&blob[blob.size() - 8], &h, 8);
  }
  World world;
  world.addParticle(Vec3(0, 1, 0), 1);
  const uint64_t before = fuzz::worldHash(world);
  try {
    world.loadSnapshot(blob.data(), blob.size());
  } catch (const SnapshotError&) {
    if (fuzz::worldHash(world) != before) broken("a refused snapshot changed the world");
    return 0;
  }
  for (int f = 0; f < 3; ++f) world.step(1.0f / 60);
  const Real* x = world.positions();
  for (size_t i = 0; i < 3 * size_t(world.particleCount()); ++i) {
    if (!std::isfinite(x[i])) broken("a loaded snapshot stepped into NaN or Inf");
  }
  const std::vector<uint8_t> again = world.saveSnapshot();
  World reloaded;
  reloaded.loadSnapshot(again.data(), again.size());   // must not throw: it came from saveSnapshot
  return 0;
}
