// Embedded render meshes: inside points get weights in [0, 1] that reproduce them; any affine motion of the tet
// mesh moves bound points (inside or outside) by the same map; outside points bind to the nearest tet; the
// binding of 100k points to 10k tets is fast; bad input is rejected naming the argument.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "mesh/embedding_search.h"
#include "native/expect_error.h"
#include "pbd/embedding.h"
#include "pbd/errors.h"
#include "pbd/real.h"

using namespace pbd;

namespace {

struct TetMesh {
  std::vector<float> positions;
  std::vector<uint32_t> tets;
};

// An n^3 block of unit cubes spanning [0, n]^3, each split into 6 tets around its main diagonal, with the inner
// nodes jittered so that cell and tet boundaries do not line up.
TetMesh block(int n, float jitter = 0.2f) {
  TetMesh m;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-jitter, jitter);
  auto id = [n](int x, int y, int z) { return uint32_t((z * (n + 1) + y) * (n + 1) + x); };
  for (int z = 0; z <= n; ++z) {
    for (int y = 0; y <= n; ++y) {
      for (int x = 0; x <= n; ++x) {
        const bool inner = x > 0 && x < n && y > 0 && y < n && z > 0 && z < n;
        m.positions.insert(m.positions.end(), {x + (inner ? u(rng) : 0), y + (inner ? u(rng) : 0),
                                               z + (inner ? u(rng) : 0)});
      }
    }
  }
  // Kuhn's 6 tets of the cube: every path from corner 000 to 111 stepping one axis at a time.
  const int paths[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (int z = 0; z < n; ++z) {
    for (int y = 0; y < n; ++y) {
      for (int x = 0; x < n; ++x) {
        for (const auto& path : paths) {
          int c[3] = {x, y, z};
          m.tets.push_back(id(c[0], c[1], c[2]));
          for (int axis : path) {
            ++c[axis];
            m.tets.push_back(id(c[0], c[1], c[2]));
          }
        }
      }
    }
  }
  return m;
}

std::vector<float> randomPoints(size_t count, float lo, float hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> p(3 * count);
  for (float& x : p) x = u(rng);
  return p;
}

Vec3 vertexAt(const std::vector<float>& p, size_t i) { return Vec3(p[3 * i], p[3 * i + 1], p[3 * i + 2]); }

// Reference distance from p to a solid tet, independent of the library's: inside by sign tests, otherwise the
// smallest distance to a face (plane projection if it falls in the face, else the nearest edge).
double segmentDistance(const Eigen::Vector3d& p, const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  const double t = std::clamp((p - a).dot(b - a) / (b - a).squaredNorm(), 0.0, 1.0);
  return (p - (a + t * (b - a))).norm();
}

double referenceDistance(const TetMesh& m, size_t t, const Vec3& pf) {
  const Eigen::Vector3d p = pf.cast<double>();
  Eigen::Vector3d x[4];
  for (int k = 0; k < 4; ++k) x[k] = vertexAt(m.positions, m.tets[4 * t + k]).cast<double>();
  double best = std::numeric_limits<double>::max();
  bool inside = true;
  for (int k = 0; k < 4; ++k) {
    const Eigen::Vector3d &a = x[(k + 1) % 4], &b = x[(k + 2) % 4], &c = x[(k + 3) % 4];
    const Eigen::Vector3d normal = (b - a).cross(c - a).normalized();
    const double side = normal.dot(p - a), opposite = normal.dot(x[k] - a);
    if (side * opposite >= 0) continue;  // p is on the tet's side of this face
    inside = false;
    const Eigen::Vector3d q = p - side * normal;
    const bool inFace = (b - a).cross(q - a).dot(normal) >= 0 && (c - b).cross(q - b).dot(normal) >= 0 &&
                        (a - c).cross(q - c).dot(normal) >= 0;
    best = std::min(best, inFace ? std::abs(side)
                                 : std::min({segmentDistance(p, a, b), segmentDistance(p, b, c),
                                             segmentDistance(p, c, a)}));
  }
  return inside ? 0 : best;
}

std::vector<float> apply(const TetEmbedding& e, const TetMesh& m, const std::vector<float>& simPositions) {
  std::vector<float> out(3 * e.tet.size(), std::numeric_limits<float>::quiet_NaN());
  applyEmbedding(e, m.tets, simPositions.data(), out.data());
  return out;
}

}  // namespace

TEST(Embed, InsidePointsGetWeightsInUnitRangeThatReproduceThem) {
  const TetMesh m = block(4);
  const std::vector<float> render = randomPoints(2000, 0.001f, 3.999f, 1);
  const TetEmbedding e = bindToTets(m.positions, m.tets, render);
  ASSERT_EQ(e.tet.size(), 2000u);
  ASSERT_EQ(e.bary.size(), 8000u);
  for (size_t v = 0; v < e.tet.size(); ++v) {
    float sum = 0;
    for (int k = 0; k < 4; ++k) {
      const float w = e.bary[4 * v + k];
      EXPECT_GE(w, -1e-6f);
      EXPECT_LE(w, 1 + 1e-6f);
      sum += w;
    }
    EXPECT_NEAR(sum, 1, 1e-6f);
  }
  const std::vector<float> out = apply(e, m, m.positions);
  for (size_t i = 0; i < render.size(); ++i) EXPECT_NEAR(out[i], render[i], 4e-6f) << i;
}

TEST(Embed, AffineMotionMovesInsideAndOutsidePointsAffinely) {
  const TetMesh m = block(3);
  std::vector<float> render = randomPoints(1000, 0.01f, 2.99f, 2);
  const std::vector<float> outside = randomPoints(1000, -1.5f, 4.5f, 3);  // mostly outside [0, 3]^3
  render.insert(render.end(), outside.begin(), outside.end());
  const TetEmbedding e = bindToTets(m.positions, m.tets, render);

  Mat3 A;
  A << 1.2f, 0.3f, -0.1f, -0.2f, 0.9f, 0.4f, 0.1f, -0.3f, 1.1f;  // rotation, shear and scale
  const Vec3 shift(5, -2, 0.5f);
  std::vector<float> moved(m.positions.size());
  for (size_t i = 0; i < m.positions.size() / 3; ++i) {
    const Vec3 y = A * vertexAt(m.positions, i) + shift;
    for (int a = 0; a < 3; ++a) moved[3 * i + a] = y[a];
  }
  const std::vector<float> out = apply(e, m, moved);
  for (size_t v = 0; v < render.size() / 3; ++v) {
    const Vec3 expected = A * vertexAt(render, v) + shift;
    EXPECT_LT((vertexAt(out, v) - expected).norm(), 2e-5f) << "vertex " << v;
  }
}

TEST(Embed, OutsidePointsBindToTheNearestTet) {
  const TetMesh m = block(3, 0.3f);
  const std::vector<float> render = randomPoints(500, -2, 5, 4);
  const TetEmbedding e = bindToTets(m.positions, m.tets, render);
  for (size_t v = 0; v < render.size() / 3; ++v) {
    double nearest = std::numeric_limits<double>::max();
    for (size_t t = 0; t < m.tets.size() / 4; ++t)
      nearest = std::min(nearest, referenceDistance(m, t, vertexAt(render, v)));
    EXPECT_NEAR(referenceDistance(m, e.tet[v], vertexAt(render, v)), nearest, 1e-9) << "vertex " << v;
  }
}

TEST(Embed, FarPointAndPointsOnSharedFacesBindDeterministically) {
  const TetMesh m = block(2, 0);
  // A point far away, one on a face shared by two tets (x = y inside a cube), one on a grid node.
  const std::vector<float> render = {100, -50, 20, 0.5f, 0.5f, 0.2f, 1, 1, 1};
  const TetEmbedding a = bindToTets(m.positions, m.tets, render), b = bindToTets(m.positions, m.tets, render);
  EXPECT_EQ(a.tet, b.tet);
  EXPECT_EQ(a.bary, b.bary);
  const std::vector<float> out = apply(a, m, m.positions);
  for (size_t i = 0; i < render.size(); ++i) {
    EXPECT_NEAR(out[i], render[i], 1e-4f * std::max(1.0f, std::abs(render[i])));
  }
}

// Vertices far outside the tet mesh (a render mesh 10 m to 1 km off, as a unit or frame mistake leaves it) bind to
// their nearest tet by evaluating the few tets around it: the search's bound on the unvisited cells is a 3D distance
// (embedding.cpp, unvisitedDistance). Measured along one axis only, as it was, that bound let such a vertex evaluate
// most of the tets (docs/performance.md and CHANGELOG give the figures).
TEST(Embed, AVertexFarOutsideEvaluatesOnlyTheTetsNearItsNearestPoint) {
  const TetMesh m = block(12);
  const size_t tetCount = m.tets.size() / 4;
  std::vector<float> render;
  const float offsets[][3] = {{10, 3, 4}, {-20, 5, 6}, {6, 1000, 2}, {4, 7, -300}, {50, 60, 70}, {-9, -8, -7}};
  for (const auto& o : offsets) {
    for (int k = 0; k < 8; ++k) render.insert(render.end(), {o[0] + 0.37f * k, o[1] + 0.21f * k, o[2] - 0.13f * k});
  }
  BindStats stats;
  const TetEmbedding e = bindToTets(m.positions, m.tets, render, stats);
  const size_t vertices = render.size() / 3;
  for (size_t v = 0; v < vertices; ++v) {
    double nearest = std::numeric_limits<double>::max();
    for (size_t t = 0; t < tetCount; ++t) nearest = std::min(nearest, referenceDistance(m, t, vertexAt(render, v)));
    EXPECT_NEAR(referenceDistance(m, e.tet[v], vertexAt(render, v)), nearest, 1e-9 * nearest) << "vertex " << v;
  }
  EXPECT_LT(stats.tetsEvaluated, vertices * tetCount / 50) << stats.tetsEvaluated / vertices << " tets a vertex";
}

// Found by tests/fuzz/mesh_body_fuzz (corpus crash-elongated-tet-grid): a tet ~3e38 long and ~5 wide asked the
// binding grid for ~1e20 cells along x, and the conversion of that count to int64_t was undefined behaviour.
TEST(Embed, ExtremelyElongatedTetMeshBinds) {
  const float huge = std::numeric_limits<float>::max();
  const std::vector<float> nodes = {0, 1, 0, huge, -4.1875f, 0, 1, 0, -4, -2, 0, 0};
  const std::vector<uint32_t> tets = {0, 1, 2, 3};
  const std::vector<float> render = {0, 0, 0, 1e30f, 0, -1, -5, 5, 5};
  const TetEmbedding e = bindToTets(nodes, tets, render);
  ASSERT_EQ(e.tet.size(), 3u);
  for (uint32_t t : e.tet) EXPECT_EQ(t, 0u);
  for (float w : e.bary) EXPECT_TRUE(std::isfinite(w));
}

// Found by tests/fuzz/mesh_body_fuzz (corpus crash-bary-overflow): a finite render vertex at y = FLT_MAX bound to
// a tet a few units wide got weights of +-inf (then NaN positions from applyEmbedding); it is now refused.
TEST(Embed, RejectsAVertexWhoseWeightsOverflowFloat) {
  const std::vector<float> nodes = {-4.1875f, 0, 0, 0, 1, -5.8125f, 0, 0, 1, -1.625f, 1, 0};
  const std::vector<uint32_t> tets = {2, 3, 1, 0};
  const float huge = std::numeric_limits<float>::max();
  expectError([&] { bindToTets(nodes, tets, std::vector<float>{0, 0, 0, 0, huge, 0}); },
              {"bindToTets: renderPositions[3..5] is too far from the tet mesh (its weights overflow float)"});
  const TetEmbedding e = bindToTets(nodes, tets, std::vector<float>{0, 1e30f, 0});  // far, but representable
  for (float w : e.bary) EXPECT_TRUE(std::isfinite(w));
}

TEST(Embed, RejectsBadInputNamingTheArgument) {
  const std::vector<float> nodes = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0};
  const std::vector<float> point = {0.1f, 0.1f, 0.1f};
  auto bind = [](std::vector<float> p, std::vector<uint32_t> t, std::vector<float> r) {
    return [=] { bindToTets(p, t, r); };
  };
  expectError(bind(nodes, {0, 1, 2, 4}, point), {"bindToTets: tets[0..3] has zero volume"});
  expectError(bind(nodes, {0, 1, 2, 3, 1, 2, 3, 3}, point), {"tets[4..7] has zero volume"});
  expectError(bind(nodes, {0, 1, 2, 3, 0, 1, 9, 3}, point), {"bindToTets: tets[6] is out of range [0, 5) (got 9)"});
  expectError(bind(nodes, {0, 1, 2}, point), {"tets.size() must be a multiple of 4"});
  expectError(bind(nodes, {}, point), {"tets.size() must be > 0"});
  expectError(bind({0, 0, 0, 1}, {0, 0, 0, 0}, point), {"tetPositions.size() must be a multiple of 3"});
  expectError(bind(nodes, {0, 1, 2, 3}, {0, std::numeric_limits<float>::quiet_NaN(), 0}),
                 {"renderPositions[1] must be finite"});
  expectError(bind({0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, std::numeric_limits<float>::infinity()}, {0, 1, 2, 3}, point),
                 {"tetPositions[11] must be finite"});

  TetEmbedding e = bindToTets(nodes, std::vector<uint32_t>{0, 1, 2, 3}, point);
  std::vector<float> out(3);
  const std::vector<uint32_t> tets = {0, 1, 2, 3};
  e.tet[0] = 1;
  expectError([&] { applyEmbedding(e, tets, nodes.data(), out.data()); },
                 {"applyEmbedding: embedding.tet[0] is out of range [0, 1) (got 1)"});
  e.tet[0] = 0;
  e.bary.pop_back();
  expectError([&] { applyEmbedding(e, tets, nodes.data(), out.data()); }, {"embedding.bary.size()"});
}
