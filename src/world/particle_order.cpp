// Hilbert-curve vertex orders for body definitions (see pbd/particle_order.h for why and what is kept).
#include "pbd/particle_order.h"

#include <algorithm>
#include <limits>
#include <span>
#include <string>
#include <utility>

#include "math/hilbert.h"
#include "mesh/mesh_checks.h"
#include "pbd/world.h"

namespace pbd {
namespace {

/// Grid resolution per axis of the quantized positions: 2^16 cells over the bounding cube is finer than any mesh
/// this engine simulates (kMaxParticles = 2^24 vertices fill only a 256^3 grid), so distinct vertices rarely share a
/// cell, and 3 x 16 = 48 key bits leave room in a uint64.
constexpr int kGridBits = 16;

/// localityOrder on validated input.
std::vector<uint32_t> hilbertRanks(const Real* xyz, size_t n) {
  if (n == 0) return {};
  double lo[3], hi[3];
  for (int a = 0; a < 3; ++a) lo[a] = hi[a] = xyz[a];
  for (size_t i = 1; i < n; ++i) {
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::min(lo[a], double(xyz[3 * i + a]));
      hi[a] = std::max(hi[a], double(xyz[3 * i + a]));
    }
  }
  // One scale for all axes (the bounding cube): cells stay cubes, so the curve's locality is the same along every
  // axis of a flat or long body. Doubles: a float range of up to 2 x FLT_MAX is exact enough and cannot overflow.
  const double extent = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
  const uint32_t last = (1u << kGridBits) - 1;
  const double scale = extent > 0 ? double(last) / extent : 0;
  std::vector<std::pair<uint64_t, uint32_t>> keyed(n);  // (Hilbert index, old vertex): unique, so sorting is total
  for (size_t i = 0; i < n; ++i) {
    uint32_t cell[3];
    for (int a = 0; a < 3; ++a) {
      cell[a] = std::min(last, uint32_t((double(xyz[3 * i + a]) - lo[a]) * scale));  // >= 0: truncation = floor
    }
    keyed[i] = {hilbertIndex3(cell[0], cell[1], cell[2], kGridBits), uint32_t(i)};
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<uint32_t> newIndexOf(n);
  for (size_t rank = 0; rank < n; ++rank) newIndexOf[keyed[rank].second] = uint32_t(rank);
  return newIndexOf;
}

/// Elements are dealt into this many interleaved streams (see remapElements).
constexpr size_t kElementStreams = 8;

/// Elements of `corners` vertex indices mapped through newIndexOf, each keeping its corner order (so orientation and
/// winding), in this order: sorted by their smallest new vertex (ties: by their mapped corners, then old position,
/// a total order on content, so reordering twice changes nothing), cut into kElementStreams contiguous chunks of
/// ceil(count / streams), and dealt round-robin: output = chunk 0's first, chunk 1's first, ..., chunk 0's second...
/// Why not plain sorted order: consecutive sorted tets share vertices, and the serial Gauss-Seidel sweep over tet
/// volumes then waits on every tet's written positions before the next can start. Interleaved, neighbours in the
/// sweep are far apart in the mesh and overlap in the CPU, while each stream still walks memory forwards (docs/performance.md, "Tuned constants").
std::vector<uint32_t> remapElements(const std::vector<uint32_t>& indices, size_t corners,
                                    const std::vector<uint32_t>& newIndexOf) {
  const size_t count = indices.size() / corners;
  std::vector<uint32_t> mapped(indices.size());
  for (size_t k = 0; k < indices.size(); ++k) mapped[k] = newIndexOf[indices[k]];
  std::vector<std::pair<uint32_t, size_t>> keyed(count);  // (smallest new vertex, old element)
  for (size_t e = 0; e < count; ++e) {
    keyed[e] = {*std::min_element(&mapped[corners * e], &mapped[corners * e] + corners), e};
  }
  std::sort(keyed.begin(), keyed.end(), [&](const auto& x, const auto& y) {
    if (x.first != y.first) return x.first < y.first;
    const uint32_t* cx = &mapped[corners * x.second];
    const uint32_t* cy = &mapped[corners * y.second];
    if (!std::equal(cx, cx + corners, cy)) return std::lexicographical_compare(cx, cx + corners, cy, cy + corners);
    return x.second < y.second;
  });
  const size_t chunk = (count + kElementStreams - 1) / kElementStreams;
  std::vector<uint32_t> out(indices.size());
  size_t next = 0;
  for (size_t i = 0; i < chunk; ++i) {
    for (size_t c = 0; c < kElementStreams; ++c) {
      const size_t rank = c * chunk + i;
      if (rank >= count) continue;  // the last chunk may be short
      std::copy_n(&mapped[corners * keyed[rank].second], corners, &out[corners * next++]);
    }
  }
  return out;
}

/// A def's reordered arrays, built aside so that the def is only touched (by swaps) once nothing can throw.
struct ReorderedMesh {
  std::vector<Real> positions;      ///< xyz per vertex, in the new order.
  std::vector<uint32_t> elements;   ///< Tets or triangles, new vertex indices, in remapElements' order.
  std::vector<uint32_t> pinned;     ///< The pinned list mapped entry by entry (same length and order).
  std::vector<uint32_t> newIndexOf; ///< particleOfVertex[oldVertex] = newVertex.
};

ReorderedMesh reorderMesh(const char* fn, const char* elementsArg, size_t corners, const std::vector<Real>& positions,
                          const std::vector<uint32_t>& elements, const std::vector<uint32_t>& pinned) {
  if (positions.empty() || positions.size() % 3 != 0) {
    check::fail(fn, "positions", "length must be a positive multiple of 3", positions.size());
  }
  const size_t n = positions.size() / 3;
  if (n > kMaxParticles) check::fail(fn, "positions", "exceed the particle limit", n);
  check::positions(fn, "positions", positions);
  if (elements.empty() || elements.size() % corners != 0) {
    check::fail(fn, elementsArg, ("length must be a positive multiple of " + std::to_string(corners)).c_str(),
                elements.size());
  }
  check::elements(fn, elementsArg, elements, corners, n);
  check::elements(fn, "pinned", pinned, 1, n);

  ReorderedMesh r;
  r.newIndexOf = hilbertRanks(positions.data(), n);
  r.positions.resize(positions.size());
  for (size_t old = 0; old < n; ++old) {
    for (int a = 0; a < 3; ++a) r.positions[3 * size_t(r.newIndexOf[old]) + a] = positions[3 * old + a];
  }
  r.elements = remapElements(elements, corners, r.newIndexOf);
  r.pinned.resize(pinned.size());
  for (size_t k = 0; k < pinned.size(); ++k) r.pinned[k] = r.newIndexOf[pinned[k]];
  return r;
}

}  // namespace

std::vector<uint32_t> localityOrder(const Real* xyz, size_t vertexCount) {
  const char* fn = "localityOrder";
  if (vertexCount >= std::numeric_limits<uint32_t>::max()) {
    check::fail(fn, "vertexCount", "must be below 2^32 - 1", vertexCount);
  }
  if (vertexCount > 0 && xyz == nullptr) check::fail(fn, "xyz", "must not be null", vertexCount);
  if (vertexCount > 0) check::positions(fn, "xyz", std::span<const Real>(xyz, 3 * vertexCount));
  return hilbertRanks(xyz, vertexCount);
}

std::vector<uint32_t> reorderSoftBody(SoftBodyDef& def) {
  ReorderedMesh r = reorderMesh("reorderSoftBody", "tets", 4, def.positions, def.tets, def.pinned);
  def.positions.swap(r.positions);
  def.tets.swap(r.elements);
  def.pinned.swap(r.pinned);
  return std::move(r.newIndexOf);
}

std::vector<uint32_t> reorderTriangleMesh(TriangleMeshDef& def) {
  ReorderedMesh r = reorderMesh("reorderTriangleMesh", "triangles", 3, def.positions, def.triangles, def.pinned);
  def.positions.swap(r.positions);
  def.triangles.swap(r.elements);
  def.pinned.swap(r.pinned);
  return std::move(r.newIndexOf);
}

}  // namespace pbd
