// Welding by a hash grid of particles: each input vertex, in index order, looks for an existing particle in the
// 8 cells around it and joins the lowest-index one within tolerance. Only particles are stored in the grid, and
// particles sharing a cell are more than `tolerance` apart, so each lookup sees a bounded number of candidates.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "mesh/mesh_checks.h"
#include "pbd/errors.h"
#include "pbd/mesh_weld.h"

namespace pbd {
namespace {

constexpr const char* kWeld = "weldVertices";
constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

void validate(std::span<const float> positions, std::span<const uint32_t> triangles, float tolerance) {
  check::positions(kWeld, "positions", positions);
  if (positions.size() / 3 >= kNone) check::fail(kWeld, "positions.size() / 3", "is too large", positions.size() / 3);
  check::elements(kWeld, "triangles", triangles, 3, positions.size() / 3);
  if (!std::isfinite(tolerance) || tolerance < 0) check::fail(kWeld, "tolerance", "must be finite and >= 0", tolerance);
}

uint64_t mix(uint64_t x) {  // splitmix64 finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Integer cell coordinates per axis. tolerance 0 uses the exact float bits (with -0 as +0), so only identical
// points share a cell. Otherwise cells are a little over twice the tolerance, so the tolerance ball around a point
// meets at most two cells per axis -- its own and the neighbour on the side of the nearer face -- even after the
// rounding of x / cell; and at least 2^-40 of the largest coordinate, so that the quotient stays exact in a double.
class CellGrid {
 public:
  CellGrid(std::span<const float> positions, float tolerance) : exact_(tolerance == 0) {
    float largest = 0;
    for (float p : positions) largest = std::max(largest, std::abs(p));
    cell_ = std::max(2 * double(tolerance), std::ldexp(double(largest), -40)) * 1.01;
  }

  /// The cells to search around x on one axis, own cell first; returns how many (1 or 2).
  int cells(float x, int64_t out[2]) const {
    if (exact_) {
      const float normalized = x + 0.0f;  // -0 + 0 = +0
      uint32_t bits;
      std::memcpy(&bits, &normalized, sizeof bits);
      out[0] = bits;
      return 1;
    }
    const double q = double(x) / cell_, c = std::floor(q);
    out[0] = static_cast<int64_t>(c);
    out[1] = q - c < 0.5 ? out[0] - 1 : out[0] + 1;
    return 2;
  }

  static uint64_t key(int64_t x, int64_t y, int64_t z) {
    // Distinct cells may share a key; that only adds candidates, which the distance test then rejects.
    return mix(uint64_t(x) + mix(uint64_t(y) + mix(uint64_t(z))));
  }

 private:
  bool exact_;
  double cell_ = 0;
};

// Cell key -> first particle of the cell's list. Open addressing with linear probing, sized once for `entries`
// keys at load <= 1/2: no rehashing and no allocation per cell (a node-based map was 10x slower on 1M vertices).
class CellTable {
 public:
  explicit CellTable(size_t entries) {
    size_t capacity = 16;
    while (capacity < 2 * entries) capacity *= 2;
    keys_.resize(capacity);
    heads_.assign(capacity, kNone);
    mask_ = capacity - 1;
  }

  uint32_t find(uint64_t key) const {
    for (size_t i = key & mask_;; i = (i + 1) & mask_) {
      if (heads_[i] == kNone || keys_[i] == key) return heads_[i];
    }
  }

  /// The head of `key`'s list, created empty (kNone) if missing.
  uint32_t& head(uint64_t key) {
    size_t i = key & mask_;
    while (heads_[i] != kNone && keys_[i] != key) i = (i + 1) & mask_;
    keys_[i] = key;
    return heads_[i];
  }

 private:
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> heads_;  // kNone = free slot (a used slot always heads a non-empty list)
  size_t mask_ = 0;
};

}  // namespace

WeldResult weldVertices(std::span<const float> positions, std::span<const uint32_t> triangles, float tolerance) {
  validate(positions, triangles, tolerance);
  const size_t n = positions.size() / 3;
  const CellGrid grid(positions, tolerance);
  const double tolerance2 = double(tolerance) * tolerance;

  WeldResult r;
  r.renderToParticle.resize(n);
  std::vector<uint32_t> inputOf;     // per particle, the input vertex it was created from
  std::vector<uint32_t> nextInCell;  // per particle, the next particle in its cell's list
  CellTable cells(n);
  for (uint32_t v = 0; v < n; ++v) {
    const float* p = &positions[3 * size_t(v)];
    int64_t cx[2], cy[2], cz[2];
    const int nx = grid.cells(p[0], cx), ny = grid.cells(p[1], cy), nz = grid.cells(p[2], cz);
    uint32_t best = kNone;
    for (int k = 0; k < nz; ++k) {
      for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
          for (uint32_t q = cells.find(CellGrid::key(cx[i], cy[j], cz[k])); q != kNone; q = nextInCell[q]) {
            if (q >= best) continue;
            const float* s = &positions[3 * size_t(inputOf[q])];
            const double ex = double(p[0]) - s[0], ey = double(p[1]) - s[1], ez = double(p[2]) - s[2];
            if (ex * ex + ey * ey + ez * ez <= tolerance2) best = q;
          }
        }
      }
    }
    if (best == kNone) {
      best = static_cast<uint32_t>(inputOf.size());
      inputOf.push_back(v);
      uint32_t& head = cells.head(CellGrid::key(cx[0], cy[0], cz[0]));
      nextInCell.push_back(head);
      head = best;
      r.positions.insert(r.positions.end(), p, p + 3);
    }
    r.renderToParticle[v] = best;
  }

  r.triangles.reserve(triangles.size());
  for (size_t t = 0; t < triangles.size(); t += 3) {
    const uint32_t a = r.renderToParticle[triangles[t]], b = r.renderToParticle[triangles[t + 1]],
                   c = r.renderToParticle[triangles[t + 2]];
    if (a == b || b == c || c == a) {
      ++r.removedTriangles;
    } else {
      r.triangles.insert(r.triangles.end(), {a, b, c});
    }
  }
  return r;
}

}  // namespace pbd
