// pbd::tetrahedralize on a small fuzzed surface. Bytes (see fuzz_input.h for real/index encodings):
//   resolution byte (b % 9, or b >= 240: -1, 257, INT_MAX), option flags byte, [minQuality real], [surfaceMargin
//   real], [extra point count byte % 8, its reals], vertex count byte (<= 200), 3 reals per vertex, triangle count
//   byte (<= 255 triangles... times 2 when flag 0x20), 3 index bytes per triangle (byte < 255: the index itself;
//   255: 4 raw bytes).
// Either a valid result (every tet with positive volume, indices in range, the documented counts, and a soft body
// that World::addSoftBody accepts) or pbd::InvalidArgument, or pbd::Cancelled when the fuzzed progress callback says
// stop. Anything else aborts.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

#include "fuzz_input.h"
#include "pbd/errors.h"
#include "pbd/tetrahedralize.h"
#include "pbd/world.h"

namespace {

using pbd::Real;
using pbd::Vec3;

constexpr size_t kMaxVertices = 200;

Vec3 at(const std::vector<Real>& p, uint32_t i) { return Vec3(p[3 * size_t(i)], p[3 * size_t(i) + 1], p[3 * size_t(i) + 2]); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pbd::fuzz::Input in(data, size);
  pbd::TetrahedralizeOptions options;
  const uint8_t res = in.byte();
  options.resolution = res < 240 ? res % 9 : (res % 3 == 0 ? -1 : res % 3 == 1 ? 257 : 0x7fffffff);
  const uint8_t flags = in.byte();
  if (flags & 0x01) options.minQuality = in.real();
  if (flags & 0x02) options.surfaceMargin = in.real();
  if (flags & 0x04) options.keepOutside = true;
  if (flags & 0x08) {
    const int n = in.byte() % 8;
    const bool ragged = flags & 0x40;  // a size that is not a multiple of 3
    for (int k = 0; k < 3 * n + (ragged ? 1 : 0); ++k) options.extraPoints.push_back(in.real());
  }
  int progressCalls = 0;
  double lastFraction = -1;
  const int cancelAfter = (flags & 0x10) ? in.byte() : -1;
  if (flags & 0x10) {
    options.progress = [&](double fraction) {
      PBD_FUZZ_CHECK(fraction >= 0 && fraction <= 1 && fraction >= lastFraction);
      lastFraction = fraction;
      return progressCalls++ < cancelAfter;
    };
  }

  const size_t vertices = std::min<size_t>(in.byte(), kMaxVertices);
  std::vector<Real> positions(3 * vertices);
  for (Real& x : positions) x = in.real();
  if ((flags & 0x80) && !positions.empty()) positions.pop_back();  // not a multiple of 3
  size_t triangleCount = in.byte();
  if (flags & 0x20) triangleCount *= 2;
  std::vector<uint32_t> triangles(3 * triangleCount);
  for (uint32_t& t : triangles) {
    const uint8_t b = in.byte();
    t = b < 255 ? b : in.rawU32();
  }

  pbd::TetrahedralizeResult r;
  try {
    r = pbd::tetrahedralize(positions, triangles, options);
  } catch (const pbd::InvalidArgument& e) {
    PBD_FUZZ_CHECK(std::string_view(e.what()).starts_with("tetrahedralize: "));
    return 0;
  } catch (const pbd::Cancelled&) {
    PBD_FUZZ_CHECK(cancelAfter >= 0 && progressCalls == cancelAfter + 1);
    return 0;
  }
  if (flags & 0x10) PBD_FUZZ_CHECK(lastFraction == 1);

  PBD_FUZZ_CHECK(r.positions.size() % 3 == 0 && r.tets.size() % 4 == 0 && r.surfaceTriangles.size() % 3 == 0);
  const size_t n = r.positions.size() / 3;
  PBD_FUZZ_CHECK(r.surfaceVertexCount == vertices);
  PBD_FUZZ_CHECK(n == size_t(r.surfaceVertexCount) + r.gridPointCount + r.extraPointCount);
  PBD_FUZZ_CHECK(pbd::fuzz::allFinite(r.positions.data(), r.positions.size()));
  // The input vertices come first, bit-identical.
  PBD_FUZZ_CHECK(std::memcmp(r.positions.data(), positions.data(), positions.size() * sizeof(Real)) == 0);
  PBD_FUZZ_CHECK(r.extraPointVertex.size() == options.extraPoints.size() / 3);
  for (int32_t v : r.extraPointVertex) PBD_FUZZ_CHECK(v >= -1 && v < int64_t(n));
  for (uint32_t i : r.tets) PBD_FUZZ_CHECK(i < n);
  for (size_t t = 0; t < r.tets.size(); t += 4) {
    const Vec3 p0 = at(r.positions, r.tets[t]), p1 = at(r.positions, r.tets[t + 1]);
    const Vec3 p2 = at(r.positions, r.tets[t + 2]), p3 = at(r.positions, r.tets[t + 3]);
    const Real volume = (p1 - p0).dot((p2 - p0).cross(p3 - p0)) / 6;
    PBD_FUZZ_CHECK(volume > 0);
  }
  if (!options.keepOutside && options.minQuality > 0) {
    for (size_t t = 0; t < r.tets.size(); t += 4) {
      const double q = pbd::tetQuality(at(r.positions, r.tets[t]), at(r.positions, r.tets[t + 1]),
                                       at(r.positions, r.tets[t + 2]), at(r.positions, r.tets[t + 3]));
      PBD_FUZZ_CHECK(q >= options.minQuality);
    }
  }
  // The boundary of a set of tets is closed: every edge is used by as many boundary faces one way as the other.
  std::map<std::pair<uint32_t, uint32_t>, int> edges;
  for (size_t t = 0; t < r.surfaceTriangles.size(); t += 3) {
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = r.surfaceTriangles[t + k], b = r.surfaceTriangles[t + (k + 1) % 3];
      PBD_FUZZ_CHECK(a < n && b < n && a != b);
      edges[{std::min(a, b), std::max(a, b)}] += a < b ? 1 : -1;
    }
  }
  for (const auto& [edge, balance] : edges) PBD_FUZZ_CHECK(balance == 0);
  // Every accepted output builds a soft body: each tet passes addSoftBody's test. The only vertices in no tet are
  // the documented unused surface vertices, which addSoftBody would refuse ("is in no tet"): leave them out.
  if (!r.tets.empty()) {
    pbd::SoftBodyDef def;
    def.totalMass = 1;  // masses independent of the fuzzed scale
    std::vector<uint32_t> index(n, std::numeric_limits<uint32_t>::max());
    for (const uint32_t i : r.tets) {
      if (index[i] == std::numeric_limits<uint32_t>::max()) {
        index[i] = uint32_t(def.positions.size() / 3);
        const auto xyz = r.positions.begin() + 3 * long(i);
        def.positions.insert(def.positions.end(), xyz, xyz + 3);
      }
      def.tets.push_back(index[i]);
    }
    PBD_FUZZ_CHECK(n - def.positions.size() / 3 == r.unusedSurfaceVertices);
    pbd::World world;
    bool accepted = true;
    try {
      world.addSoftBody(def);
    } catch (const pbd::InvalidArgument&) {
      accepted = false;
    }
    PBD_FUZZ_CHECK(accepted);
  }
  return 0;
}
