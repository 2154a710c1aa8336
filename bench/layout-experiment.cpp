// What the distance kernel would gain from another layout of the padded positions (issue #8's single-threaded
// target), measured on the 128² benchmark cloth's constraints without the world around them. Not part of the engine:
// a standalone program, built and run by bench/layout-experiment.sh (wasm SIMD under Node), printing ns per
// projection for three ways to run the same coloured Gauss–Seidel passes (10 passes, median of 7 runs):
//   xyzw     the engine's way: a particle per 16 bytes, batches of four constraints loaded with a 4x4 transpose per
//            end and stored with another (constraints/distance_batch.cpp);
//   aligned  four particles per 64-byte block, x x x x y y y y z z z z w w w w, with particle p in lane p / m of
//            block p mod m (m = n / 4, so the four lanes are four bands of the cloth, translates of each other). Four
//            constraints that are translates of one another by m then read and write whole vectors: no transposes.
//   gathered the same blocks, but batches of any four constraints, each lane loaded on its own (what a mesh with no
//            such translation symmetry would get).
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <unordered_map>
#include <vector>

#include "constraints/distance.h"
#include "schedule/graph_colouring.h"

using namespace pbd;

namespace {

constexpr int kPasses = 10;

template <class Pass>
double medianMs(Pass pass) {
  std::vector<double> ms;
  for (int run = 0; run < 7; ++run) {
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < kPasses; ++k) pass();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

/// Constraints grouped by a greedy colouring (`units` of them, each touching particles first and second).
template <class Ends>
std::vector<std::vector<uint32_t>> colour(size_t units, uint32_t particles, Ends ends) {
  GraphColouring colouring;
  colouring.resizeParticles(particles);
  std::vector<std::vector<uint32_t>> byColour(GraphColouring::kColours + 1);
  for (uint32_t u = 0; u < units; ++u) {
    const auto [a, b] = ends(u);
    byColour[colouring.add(a, b)].push_back(u);
  }
  return byColour;
}

}  // namespace

int main() {
  const uint32_t side = 128, n = side * side, m = n / 4;
  std::vector<DistanceConstraint> cs;
  std::vector<Real> xyz(3 * n), w(n, Real(n));
  w[0] = w[side - 1] = 0;
  for (uint32_t p = 0; p < n; ++p) {  // a flat grid with a little noise, so that every constraint is active
    xyz[3 * p] = Real(p % side) / (side - 1) + 1e-4f * Real((p * 7919) % 13);
    xyz[3 * p + 1] = -Real(p / side) / (side - 1);
    xyz[3 * p + 2] = 1e-4f * Real((p * 104729) % 17);
  }
  auto link = [&](uint32_t r, uint32_t c, uint32_t r2, uint32_t c2) {
    if (r2 >= side || c2 >= side) return;
    const Real dx = (Real(c2) - Real(c)) / (side - 1), dy = (Real(r2) - Real(r)) / (side - 1);
    const Real length = std::sqrt(dx * dx + dy * dy);
    cs.push_back({r * side + c, r2 * side + c2, length, length, 0, 1, 1});
  };
  for (uint32_t r = 0; r < side; ++r) {
    for (uint32_t c = 0; c < side; ++c) {  // stretch, shear and skip-one bend, as the benchmark cloth
      link(r, c, r, c + 1), link(r, c, r + 1, c), link(r, c, r + 1, c + 1), link(r, c, r, c + 2), link(r, c, r + 2, c);
      if (c + 1 < side) link(r, c + 1, r + 1, c);
    }
  }
  std::printf("128x128 cloth, %zu rigid distance constraints, %d coloured Gauss-Seidel passes, median of 7 runs\n",
              cs.size(), kPasses);

  {  // xyzw: the engine's batches and kernel
    const auto byColour = colour(cs.size(), n, [&](uint32_t k) { return std::pair{cs[k].i, cs[k].j}; });
    std::vector<DistanceBatch> batches;
    std::vector<DistanceBatchStrength> strengths;
    std::vector<std::pair<size_t, size_t>> ranges;
    for (const auto& members : byColour) {
      const size_t begin = batches.size();
      batches.resize(begin + (members.size() + 3) / 4);
      strengths.resize(batches.size());
      packDistanceBatches(cs.data(), members.size(), n, batches.data() + begin, strengths.data() + begin,
                          members.data());
      ranges.push_back({begin, batches.size()});
    }
    std::vector<Real> xyzw(4 * (n + 1), 0);
    padPositions(xyz.data(), w.data(), 0, n, xyzw.data());
    const double ms = medianMs([&] {
      for (const auto& [begin, end] : ranges) {
        projectDistanceBatches(batches.data(), strengths.data(), begin, end, nullptr, xyzw.data(),
                               BatchMethod::RigidXpbd, 1);
      }
    });
    std::printf("xyzw      %.2f ns per projection (%.3f ms)\n", ms * 1e6 / (kPasses * double(cs.size())), ms);
  }

  std::vector<Real> blocks(16 * size_t(m + 1), 0);  // the 64-byte blocks, and a spare one (inverse masses 0)
  auto offsetOf = [&](uint32_t p) { return 16 * (p % m) + p / m; };  // of x; y, z, w at +4, +8, +12
  for (uint32_t p = 0; p < n; ++p) {
    for (int a = 0; a < 3; ++a) blocks[offsetOf(p) + 4 * a] = xyz[3 * p + a];
    blocks[offsetOf(p) + 12] = w[p];
  }
  Real* X = blocks.data();

  {  // aligned: the constraints of band 0 whose three translates exist, four lanes to a batch
    std::unordered_map<uint64_t, uint32_t> index;
    for (uint32_t k = 0; k < cs.size(); ++k) index[uint64_t(cs[k].i) << 32 | cs[k].j] = k;
    std::vector<std::array<uint32_t, 4>> groups;
    for (uint32_t k = 0; k < cs.size(); ++k) {
      if (cs[k].i >= m || cs[k].j >= m) continue;
      std::array<uint32_t, 4> group{k, 0, 0, 0};
      bool whole = true;
      for (uint32_t lane = 1; lane < 4 && whole; ++lane) {
        const auto it = index.find(uint64_t(cs[k].i + lane * m) << 32 | (cs[k].j + lane * m));
        whole = it != index.end();
        if (whole) group[lane] = it->second;
      }
      if (whole) groups.push_back(group);
    }
    const auto byColour = colour(groups.size(), m, [&](uint32_t g) { return std::pair{cs[groups[g][0]].i, cs[groups[g][0]].j}; });
    struct AlignedBatch {
      uint32_t a, b;  // float offsets of the two blocks
      Real minLength[4], maxLength[4];
    };
    std::vector<AlignedBatch> batches;
    for (const auto& members : byColour) {
      for (uint32_t g : members) {
        AlignedBatch batch{16 * cs[groups[g][0]].i, 16 * cs[groups[g][0]].j, {}, {}};
        for (int lane = 0; lane < 4; ++lane) {
          batch.minLength[lane] = cs[groups[g][lane]].minLength, batch.maxLength[lane] = cs[groups[g][lane]].maxLength;
        }
        batches.push_back(batch);
      }
    }
    const double ms = medianMs([&] {
      for (const AlignedBatch& b : batches) {
        Real *p = X + b.a, *q = X + b.b;
        DistanceLanes<Float4> l{Float4::load(p), Float4::load(p + 4), Float4::load(p + 8), Float4::load(q),
                                Float4::load(q + 4), Float4::load(q + 8), Float4::load(p + 12), Float4::load(q + 12),
                                Float4::load(b.minLength), Float4::load(b.maxLength), Float4::splat(1),
                                Float4::splat(0), Float4::splat(0)};
        projectDistanceLanes(l, true);
        l.p1x.store(p), l.p1y.store(p + 4), l.p1z.store(p + 8), l.p2x.store(q), l.p2y.store(q + 4), l.p2z.store(q + 8);
      }
    });
    const size_t projected = 4 * groups.size();
    std::printf("aligned   %.2f ns per projection (%zu of the constraints in %zu whole groups)\n",
                ms * 1e6 / (kPasses * double(projected)), projected, groups.size());
  }

  {  // gathered: every constraint, any four of a colour to a batch, lane by lane in the blocks
    const auto byColour = colour(cs.size(), n, [&](uint32_t k) { return std::pair{cs[k].i, cs[k].j}; });
    struct GatheredBatch {
      uint32_t a[4], b[4];  // float offsets of each lane's two particles
      Real minLength[4], maxLength[4];
    };
    std::vector<GatheredBatch> batches;
    const uint32_t spare = 16 * m;  // the spare block's lane 0: both ends of a padding lane, so d = 0 and no move
    for (const auto& members : byColour) {
      for (size_t at = 0; at < members.size(); at += 4) {
        GatheredBatch batch{};
        for (size_t lane = 0; lane < 4; ++lane) {
          const bool real = at + lane < members.size();
          const DistanceConstraint& c = cs[members[real ? at + lane : at]];
          batch.a[lane] = real ? offsetOf(c.i) : spare, batch.b[lane] = real ? offsetOf(c.j) : spare;
          batch.minLength[lane] = c.minLength, batch.maxLength[lane] = c.maxLength;
        }
        batches.push_back(batch);
      }
    }
    auto gather = [&](const uint32_t* o, int component) {
      return Float4::gather(X + o[0] + 4 * component, X + o[1] + 4 * component, X + o[2] + 4 * component,
                            X + o[3] + 4 * component);
    };
    auto scatter = [&](Float4 v, const uint32_t* o, int component) {
      v.scatter(X + o[0] + 4 * component, X + o[1] + 4 * component, X + o[2] + 4 * component, X + o[3] + 4 * component);
    };
    const double ms = medianMs([&] {
      for (const GatheredBatch& b : batches) {
        DistanceLanes<Float4> l{gather(b.a, 0), gather(b.a, 1), gather(b.a, 2), gather(b.b, 0),
                                gather(b.b, 1), gather(b.b, 2), gather(b.a, 3), gather(b.b, 3),
                                Float4::load(b.minLength), Float4::load(b.maxLength), Float4::splat(1),
                                Float4::splat(0), Float4::splat(0)};
        projectDistanceLanes(l, true);
        scatter(l.p1x, b.a, 0), scatter(l.p1y, b.a, 1), scatter(l.p1z, b.a, 2);
        scatter(l.p2x, b.b, 0), scatter(l.p2y, b.b, 1), scatter(l.p2z, b.b, 2);
      }
    });
    std::printf("gathered  %.2f ns per projection (%.3f ms)\n", ms * 1e6 / (kPasses * double(cs.size())), ms);
  }
}
