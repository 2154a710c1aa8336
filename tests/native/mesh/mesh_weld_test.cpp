// Vertex welding: a three.js-style UV sphere (duplicated seam column and poles) welds into a closed manifold;
// tolerance 0 merges exact duplicates only; the grid gives the same answer as a brute-force search; bad input is
// rejected naming the argument.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "native/expect_error.h"
#include "pbd/errors.h"
#include "pbd/mesh_weld.h"
#include "scenes/sphere_meshes.h"

using namespace pbd;

namespace {

// Every directed edge once and its reverse once: a closed, consistently oriented 2-manifold.
void expectClosedManifold(const WeldResult& r) {
  std::map<std::pair<uint32_t, uint32_t>, int> directed;
  for (size_t t = 0; t < r.triangles.size(); t += 3) {
    for (int e = 0; e < 3; ++e) ++directed[{r.triangles[t + e], r.triangles[t + (e + 1) % 3]}];
  }
  for (const auto& [edge, count] : directed) {
    EXPECT_EQ(count, 1) << edge.first << "->" << edge.second;
    EXPECT_EQ(directed.count({edge.second, edge.first}), 1u) << "open edge " << edge.first << "-" << edge.second;
  }
  const size_t V = r.positions.size() / 3, E = directed.size() / 2, F = r.triangles.size() / 3;
  EXPECT_EQ(V + F, E + 2) << "Euler characteristic of a sphere";
}

// The documented rule, by brute force.
std::vector<uint32_t> referenceWeld(const std::vector<float>& p, float tolerance) {
  std::vector<uint32_t> map, firstOf;
  for (size_t v = 0; v < p.size() / 3; ++v) {
    uint32_t particle = static_cast<uint32_t>(firstOf.size());
    for (uint32_t q = 0; q < firstOf.size(); ++q) {
      double d2 = 0;
      for (int a = 0; a < 3; ++a) d2 += std::pow(double(p[3 * v + a]) - p[3 * firstOf[q] + a], 2);
      if (d2 <= double(tolerance) * tolerance) {
        particle = q;
        break;
      }
    }
    if (particle == firstOf.size()) firstOf.push_back(static_cast<uint32_t>(v));
    map.push_back(particle);
  }
  return map;
}

void expectWeldRejected(std::vector<float> p, std::vector<uint32_t> t, float tolerance,
                    std::initializer_list<const char*> fragments) {
  expectError([&] { weldVertices(p, t, tolerance); }, fragments);
}

}  // namespace

TEST(Weld, UvSphereWeldsToClosedManifold) {
  const int W = 24, H = 12;
  const scenes::UvSphere s = scenes::uvSphere(W, H);
  const WeldResult r = weldVertices(s.positions, s.triangles, 1e-5f);
  EXPECT_EQ(r.positions.size() / 3, size_t(W * (H - 1) + 2));
  EXPECT_EQ(r.removedTriangles, 0u);  // three.js leaves out the triangles that would collapse at the poles
  EXPECT_EQ(r.triangles.size(), s.triangles.size());
  expectClosedManifold(r);

  ASSERT_EQ(r.renderToParticle.size(), s.positions.size() / 3);
  for (int iy = 0; iy <= H; ++iy) {
    EXPECT_EQ(r.renderToParticle[s.grid[iy][0]], r.renderToParticle[s.grid[iy][W]]) << "seam row " << iy;
  }
  for (int row : {0, H}) {
    for (int ix = 0; ix <= W; ++ix) EXPECT_EQ(r.renderToParticle[s.grid[row][ix]], r.renderToParticle[s.grid[row][0]]);
  }
  // Each particle sits exactly at the first input vertex mapped to it, and every vertex is within tolerance.
  std::vector<bool> seen(r.positions.size() / 3);
  for (size_t v = 0; v < r.renderToParticle.size(); ++v) {
    const uint32_t q = r.renderToParticle[v];
    for (int a = 0; a < 3; ++a) {
      if (!seen[q]) {
        EXPECT_EQ(r.positions[3 * q + a], s.positions[3 * v + a]);
      }
      EXPECT_NEAR(r.positions[3 * q + a], s.positions[3 * v + a], 1e-5f);
    }
    EXPECT_TRUE(seen[q] || q == 0 || seen[q - 1]) << "particles are numbered in input order";
    seen[q] = true;
  }
}

TEST(Weld, CollapsedPoleTrianglesAreRemoved) {
  const int W = 16, H = 8;
  const scenes::UvSphere s = scenes::uvSphere(W, H, /*skipPoleTriangles=*/false);
  const WeldResult r = weldVertices(s.positions, s.triangles, 1e-5f);
  EXPECT_EQ(r.removedTriangles, size_t(2 * W));
  EXPECT_EQ(r.triangles.size(), s.triangles.size() - 3 * 2 * W);
  expectClosedManifold(r);
}

TEST(Weld, ToleranceZeroWeldsExactDuplicatesOnly) {
  const float tiny = std::nextafter(1.0f, 2.0f) - 1.0f;
  const std::vector<float> p = {0, 0, 0, 1, 0, 0, 0, 1, 0, /*exact copy of 1*/ 1, 0, 0,
                                /*one ulp off*/ 1 + tiny, 0, 0, /*-0 equals +0*/ -0.0f, 0, -0.0f};
  const WeldResult r = weldVertices(p, std::vector<uint32_t>{0, 1, 2, 5, 3, 2, 0, 4, 2}, 0);
  EXPECT_EQ(r.renderToParticle, (std::vector<uint32_t>{0, 1, 2, 1, 3, 0}));
  EXPECT_EQ(r.positions.size(), 12u);
  EXPECT_EQ(r.triangles, (std::vector<uint32_t>{0, 1, 2, 0, 1, 2, 0, 3, 2}));
  EXPECT_EQ(r.removedTriangles, 0u);
}

TEST(Weld, JoinsTheLowestParticleAndDoesNotChain) {
  // Tolerance 1. x = 0, 0.6, 1.2, 1.8: 0.6 joins 0; 1.2 is 1.2 from particle 0 -> new; 1.8 joins it. Then 0.75
  // is within 1 of both particles and joins the lower one although it is nearer to the other.
  const std::vector<float> p = {0, 0, 0, 0.6f, 0, 0, 1.2f, 0, 0, 1.8f, 0, 0, 0.75f, 0, 0};
  const WeldResult r = weldVertices(p, std::vector<uint32_t>{}, 1);
  EXPECT_EQ(r.renderToParticle, (std::vector<uint32_t>{0, 0, 1, 1, 0}));
  EXPECT_EQ(r.positions, (std::vector<float>{0, 0, 0, 1.2f, 0, 0}));
}

TEST(Weld, GridAgreesWithBruteForce) {
  // Coordinates on a lattice of half the tolerance: many pairs exactly at the tolerance or across cell borders.
  std::mt19937 rng(7);
  for (float tolerance : {0.0f, 0.25f, 1.0f, 3.0f}) {
    std::vector<float> p;
    for (int k = 0; k < 3 * 600; ++k) p.push_back(float(int(rng() % 21) - 10) * (tolerance > 0 ? tolerance : 1) / 2);
    const WeldResult r = weldVertices(p, std::vector<uint32_t>{}, tolerance);
    EXPECT_EQ(r.renderToParticle, referenceWeld(p, tolerance)) << "tolerance " << tolerance;
  }
}

TEST(Weld, LargeCoordinatesAndTinyTolerance) {
  const std::vector<float> p = {1e30f, 0, 0, 1e30f, 0, 0, -1e30f, 1, 0, 1e-30f, 0, 0, 0, 0, 0};
  const WeldResult r = weldVertices(p, std::vector<uint32_t>{}, 1e-20f);
  EXPECT_EQ(r.renderToParticle, (std::vector<uint32_t>{0, 0, 1, 2, 2}));
}

TEST(Weld, RejectsBadInputNamingTheArgument) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> p = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  expectWeldRejected({0, 0, 0, 1}, {}, 0, {"weldVertices: positions.size() must be a multiple of 3 (got 4)"});
  expectWeldRejected({0, 0, 0, 1, nan, 0}, {}, 0, {"weldVertices: positions[4] must be finite (got nan)"});
  expectWeldRejected(p, {0, 1}, 0, {"triangles.size() must be a multiple of 3"});
  expectWeldRejected(p, {0, 1, 2, 2, 1, 3}, 0, {"weldVertices: triangles[5] is out of range [0, 3) (got 3)"});
  expectWeldRejected(p, {0, 1, 2}, -1, {"tolerance must be finite and >= 0 (got -1)"});
  expectWeldRejected(p, {0, 1, 2}, nan, {"tolerance"});
  expectWeldRejected(p, {0, 1, 2}, std::numeric_limits<float>::infinity(), {"tolerance"});
}

TEST(Weld, EmptyInputGivesEmptyResult) {
  const WeldResult r = weldVertices(std::vector<float>{}, std::vector<uint32_t>{}, 0.1f);
  EXPECT_TRUE(r.positions.empty() && r.triangles.empty() && r.renderToParticle.empty());
}
