// The mesh-to-body builders on fuzzed meshes and options. First byte % 4 picks the target:
//   0 World::addTriangleMesh, 1 World::addSoftBody, 2 pbd::weldVertices, 3 pbd::bindToTets + applyEmbedding.
// Then (fuzz_input.h encodings): vertex count byte (<= 100), 3 reals per vertex, element count byte, 3 or 4 index
// bytes per element, then a 2-byte mask of the options to fuzz (the rest keep their defaults), then those options.
// A world call either succeeds (consistent ranges, finite state after a step) or throws pbd::InvalidArgument and
// leaves the world as it was. weldVertices is checked against a brute-force weld; bindToTets against its sizes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_input.h"
#include "pbd/embedding.h"
#include "pbd/errors.h"
#include "pbd/mesh_weld.h"
#include "pbd/world.h"
#include "world_check.h"

namespace {

using pbd::Real;
using pbd::fuzz::Input;

constexpr size_t kMaxVertices = 100;

struct Mesh {
  std::vector<Real> positions;
  std::vector<uint32_t> elements;
};

Mesh readMesh(Input& in, int corners) {
  Mesh m;
  const size_t n = std::min<size_t>(in.byte(), kMaxVertices);
  m.positions.resize(3 * n);
  for (Real& x : m.positions) x = in.real();
  m.elements.resize(size_t(corners) * in.byte());
  for (uint32_t& i : m.elements) i = in.index(uint32_t(n));
  return m;
}

std::vector<uint32_t> pinned(Input& in, size_t n) {
  std::vector<uint32_t> p(in.byte() % 4);
  for (uint32_t& i : p) i = in.index(uint32_t(n));
  return p;
}

std::vector<pbd::PinRegion> pinRegions(Input& in) {
  std::vector<pbd::PinRegion> r(in.byte() % 3);
  for (auto& region : r) region = pbd::fuzz::pinRegion(in);
  return r;
}

// Runs a world call; on InvalidArgument checks that the world is unchanged. Returns whether it succeeded.
template <class F>
bool guarded(pbd::World& world, F&& call) {
  const uint64_t before = pbd::fuzz::worldHash(world);
  try {
    call();
    return true;
  } catch (const pbd::InvalidArgument&) {
    PBD_FUZZ_CHECK(pbd::fuzz::worldHash(world) == before);
    return false;
  }
}

void checkBody(pbd::World& world, uint32_t particlesBefore, const pbd::BodyRange& r) {
  PBD_FUZZ_CHECK(r.firstParticle == particlesBefore && r.particleCount > 0);
  PBD_FUZZ_CHECK(world.particleCount() == particlesBefore + r.particleCount);
  PBD_FUZZ_CHECK(r.firstConstraint + r.constraintCount == world.distanceConstraintCount());
  PBD_FUZZ_CHECK(r.firstDihedral + r.dihedralCount == world.dihedralConstraintCount());
  PBD_FUZZ_CHECK(r.firstVolume + r.volumeCount == world.tetVolumeCount());
  pbd::fuzz::checkFinite(world);
  for (int k = 0; k < 2; ++k) {
    world.step(Real(1) / 60);
    pbd::fuzz::checkFinite(world);
  }
}

void triangleMesh(Input& in) {
  pbd::World world;
  pbd::RopeDef rope;  // some particles first, so that the body's indices are offset
  rope.segments = 2;
  world.addRope(rope);
  const Mesh m = readMesh(in, 3);
  pbd::TriangleMeshDef def;
  def.positions = m.positions;
  def.triangles = m.elements;
  const unsigned mask = in.byte() | unsigned(in.byte()) << 8;
  const size_t n = m.positions.size() / 3;
  if (mask & 0x0001) def.weldTolerance = (mask & 0x8000) ? Real(-1) : in.real();
  if (mask & 0x0002) def.mass = in.real();
  if (mask & 0x0004) def.pinned = pinned(in, n);
  if (mask & 0x0008) def.pinRegions = pinRegions(in);
  if (mask & 0x0010) def.model = in.enumValue<pbd::ClothModel>(2);
  if (mask & 0x0020) def.stretch = pbd::fuzz::strength(in);
  if (mask & 0x0040) def.shear = pbd::fuzz::strength(in);
  if (mask & 0x0080) def.bending = in.flag();
  if (mask & 0x0100) def.bend = pbd::fuzz::strength(in);
  if (mask & 0x0200) def.tethers = in.enumValue<pbd::TetherMode>(3);
  if (mask & 0x0400) def.tetherSlack = in.real();
  if (mask & 0x0800) def.pressure = in.real();
  if (mask & 0x1000) def.volume = pbd::fuzz::strength(in);
  const uint32_t before = world.particleCount();
  pbd::MeshBody body;
  if (!guarded(world, [&] { body = world.addTriangleMesh(def); })) return;
  PBD_FUZZ_CHECK(body.renderToParticle.size() == n);
  for (uint32_t p : body.renderToParticle) {
    PBD_FUZZ_CHECK(p >= body.range.firstParticle && p < body.range.firstParticle + body.range.particleCount);
  }
  checkBody(world, before, body.range);
}

void softBody(Input& in) {
  pbd::World world;
  pbd::RopeDef rope;
  rope.segments = 2;
  world.addRope(rope);
  const Mesh m = readMesh(in, 4);
  pbd::SoftBodyDef def;
  def.positions = m.positions;
  def.tets = m.elements;
  const unsigned mask = in.byte() | unsigned(in.byte()) << 8;
  const size_t n = m.positions.size() / 3;
  if (mask & 0x0001) def.density = in.real();
  if (mask & 0x0002) def.pinned = pinned(in, n);
  if (mask & 0x0004) def.pinRegions = pinRegions(in);
  if (mask & 0x0008) def.edgeConstraints = in.flag();
  if (mask & 0x0010) def.edges = pbd::fuzz::strength(in);
  if (mask & 0x0020) def.material = in.enumValue<pbd::SoftMaterial>(2);
  if (mask & 0x0040) def.volume = pbd::fuzz::strength(in);
  if (mask & 0x0080) def.volumeOnlyResistsCompression = in.flag();
  if (mask & 0x0100) def.youngsModulus = in.real();
  if (mask & 0x0200) def.poissonRatio = in.real();
  if (mask & 0x0400) def.materialStiffness = in.real();
  if (mask & 0x0800) def.shapeMatching = in.flag();
  if (mask & 0x1000) def.shapeMatchingStrength = pbd::fuzz::strength(in);
  if (mask & 0x2000) world.setMethod(pbd::Method::Pbd);
  const uint32_t before = world.particleCount();
  pbd::BodyRange range;
  if (!guarded(world, [&] { range = world.addSoftBody(def); })) return;
  PBD_FUZZ_CHECK(range.particleCount == n);
  checkBody(world, before, range);
}

void weld(Input& in) {
  Mesh m = readMesh(in, 3);
  const uint8_t options = in.byte();
  const float tolerance = in.real();
  if ((options & 1) && !m.positions.empty()) m.positions.pop_back();  // not a multiple of 3
  pbd::WeldResult r;
  try {
    r = pbd::weldVertices(m.positions, m.elements, tolerance);
  } catch (const pbd::InvalidArgument&) {
    return;
  }
  // Oracle: each vertex joins the lowest-index earlier particle within tolerance, or starts a new one.
  const size_t n = m.positions.size() / 3;
  auto dist2 = [&](size_t a, size_t b) {
    const float* p = &m.positions[3 * a];
    const float* s = &m.positions[3 * b];
    const double ex = double(p[0]) - s[0], ey = double(p[1]) - s[1], ez = double(p[2]) - s[2];
    return ex * ex + ey * ey + ez * ez;
  };
  std::vector<uint32_t> source;  // per particle, its input vertex
  PBD_FUZZ_CHECK(r.renderToParticle.size() == n);
  for (size_t v = 0; v < n; ++v) {
    uint32_t expected = uint32_t(source.size());
    for (uint32_t q = 0; q < source.size(); ++q) {
      if (dist2(v, source[q]) <= double(tolerance) * tolerance) {
        expected = q;
        break;
      }
    }
    if (expected == source.size()) source.push_back(uint32_t(v));
    PBD_FUZZ_CHECK(r.renderToParticle[v] == expected);
  }
  PBD_FUZZ_CHECK(r.positions.size() == 3 * source.size());
  for (size_t q = 0; q < source.size(); ++q) {
    PBD_FUZZ_CHECK(std::memcmp(&r.positions[3 * q], &m.positions[3 * size_t(source[q])], 3 * sizeof(float)) == 0);
  }
  PBD_FUZZ_CHECK(r.triangles.size() % 3 == 0);
  PBD_FUZZ_CHECK(r.triangles.size() + 3 * r.removedTriangles == m.elements.size());
  for (uint32_t i : r.triangles) PBD_FUZZ_CHECK(i < source.size());
}

void bind(Input& in) {
  Mesh m = readMesh(in, 4);
  std::vector<float> render(3 * size_t(in.byte() % 33));
  for (float& x : render) x = in.real();
  const uint8_t options = in.byte();
  if ((options & 1) && !render.empty()) render.pop_back();
  if ((options & 2) && !m.positions.empty()) m.positions.pop_back();
  if ((options & 4) && !m.elements.empty()) m.elements.pop_back();
  pbd::TetEmbedding e;
  try {
    e = pbd::bindToTets(m.positions, m.elements, render);
  } catch (const pbd::InvalidArgument&) {
    return;
  }
  const size_t renderCount = render.size() / 3;
  PBD_FUZZ_CHECK(e.tet.size() == renderCount && e.bary.size() == 4 * renderCount);
  for (uint32_t t : e.tet) PBD_FUZZ_CHECK(t < m.elements.size() / 4);
  PBD_FUZZ_CHECK(pbd::fuzz::allFinite(e.bary.data(), e.bary.size()));
  std::vector<float> out(render.size());
  pbd::applyEmbedding(e, m.elements, m.positions.data(), out.data());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in(data, size);
  switch (in.byte() % 4) {
    case 0: triangleMesh(in); break;
    case 1: softBody(in); break;
    case 2: weld(in); break;
    default: bind(in); break;
  }
  return 0;
}
