// mesh/tear_topology.h on a grid cloth's triangulation: which vertices split, and where the grid's constraints go
// (edges along an opening on both sides, shear and bending across it broken, the untouched ones as they were).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "mesh/tear_topology.h"

using namespace pbd::mesh;

namespace {

/// The grid cloth's triangulation (ClothDef): cell (c, r) into (c,r)(c+1,r)(c,r+1) and (c+1,r)(c+1,r+1)(c,r+1).
TornMesh grid(uint32_t columns, uint32_t rows) {
  TornMesh m;
  auto id = [&](uint32_t c, uint32_t r) { return r * columns + c; };
  for (uint32_t r = 0; r + 1 < rows; ++r)
    for (uint32_t c = 0; c + 1 < columns; ++c) {
      m.triangles.insert(m.triangles.end(), {id(c, r), id(c + 1, r), id(c, r + 1)});
      m.triangles.insert(m.triangles.end(), {id(c + 1, r), id(c + 1, r + 1), id(c, r + 1)});
    }
  m.tornSides.assign(m.triangles.size() / 3, 0);
  for (uint32_t v = 0; v < columns * rows; ++v) m.origin.push_back(v);
  return m;
}

/// The horizontal edges of row r from column c0 to c1 (pairs).
std::vector<uint32_t> rowEdges(uint32_t columns, uint32_t r, uint32_t c0, uint32_t c1) {
  std::vector<uint32_t> e;
  for (uint32_t c = c0; c < c1; ++c) e.insert(e.end(), {r * columns + c, r * columns + c + 1});
  return e;
}

size_t distinct(const std::vector<uint32_t>& v) { return std::set<uint32_t>(v.begin(), v.end()).size(); }

}  // namespace

TEST(TearTopology, OneInteriorEdgeSplitsNothing) {
  TornMesh m = grid(4, 4);
  const std::vector<uint32_t> e = rowEdges(4, 1, 1, 2);  // (5, 6): both ends inside
  EXPECT_EQ(markTorn(m, e), 1u);
  EXPECT_TRUE(splitVertices(m).empty());
  EXPECT_EQ(distinct(TearPatches(m, {}).pieces()), 1u);
}

TEST(TearTopology, AnEdgeFromTheBorderSplitsItsBorderVertex) {
  TornMesh m = grid(4, 4);
  const std::vector<uint32_t> e = rowEdges(4, 1, 0, 1);  // (4, 5): 4 is on the left border
  ASSERT_EQ(markTorn(m, e), 1u);
  const std::vector<uint32_t> sources = splitVertices(m);
  ASSERT_EQ(sources, std::vector<uint32_t>{4});
  EXPECT_EQ(m.origin.size(), 17u);
  EXPECT_EQ(m.origin[16], 4u);
  // The triangles below the edge keep 4, those above take 16.
  EXPECT_EQ(m.triangles[0 * 3 + 2], 4u);   // cell (0,0)'s first triangle, corner (0,1)
  EXPECT_EQ(m.triangles[6 * 3 + 0], 16u);  // cell (0,1)'s first triangle, corner (0,1)
}

TEST(TearTopology, ACutAcrossMakesTwoPiecesWithEdgesOnBothSides) {
  const uint32_t C = 5, R = 5;
  TornMesh m = grid(C, R);
  const std::vector<uint32_t> cut = rowEdges(C, 2, 0, C - 1);
  ASSERT_EQ(markTorn(m, cut), cut.size() / 2);
  const std::vector<uint32_t> sources = splitVertices(m);
  EXPECT_EQ(sources.size(), C);  // every vertex of row 2 splits in two
  TearPatches patches(m, sources);
  const std::vector<uint32_t> piece = patches.pieces();
  EXPECT_EQ(distinct(piece), 2u);
  std::vector<std::array<uint32_t, 4>> out;
  // An edge along the cut: once on each side, on different copies.
  const uint32_t a = 2 * C + 1, b = 2 * C + 2;
  ASSERT_EQ(patches.instances(std::vector<uint32_t>{a, b}, out), 2u);
  EXPECT_NE(out[0][0], out[1][0]);
  EXPECT_NE(piece[out[0][0]], piece[out[1][0]]);
  EXPECT_EQ(piece[out[0][0]], piece[out[0][1]]);
  // A vertical edge through the cut's row, from row 1 to row 2: one instance, on the copy of row 2's vertex below.
  out.clear();
  ASSERT_EQ(patches.instances(std::vector<uint32_t>{C + 1, 2 * C + 1}, out), 1u);
  EXPECT_EQ(piece[out[0][0]], piece[out[0][1]]);
  // A skip-one vertical bend edge across the cut (rows 1 to 3) breaks.
  out.clear();
  EXPECT_EQ(patches.instances(std::vector<uint32_t>{C + 1, 3 * C + 1}, out), 0u);
  // A hinge across the cut (wings in rows 1 and 3 of a cell pair sharing a row-2 edge) breaks.
  out.clear();
  EXPECT_EQ(patches.instances(std::vector<uint32_t>{C + 1, 3 * C + 1, 2 * C + 2, 2 * C + 1}, out), 0u);
  // Far from the cut, a shear diagonal and a skip-one bend edge stay as they are.
  out.clear();
  ASSERT_EQ(patches.instances(std::vector<uint32_t>{0, C + 1}, out), 1u);
  EXPECT_EQ(out[0][0], 0u);
  EXPECT_EQ(out[0][1], C + 1);
  out.clear();
  ASSERT_EQ(patches.instances(std::vector<uint32_t>{4 * C, 4 * C + 2}, out), 1u);
  EXPECT_EQ(out[0][0], 4 * C);
  EXPECT_EQ(out[0][1], 4 * C + 2);
}

TEST(TearTopology, AShearDiagonalAcrossATornCellSideBreaks) {
  TornMesh m = grid(4, 4);
  // Cell (1,1)'s shared side runs from (2,1) = 6 to (1,2) = 9; its other diagonal joins (1,1) = 5 and (2,2) = 10.
  const std::vector<uint32_t> side = {6, 9};
  ASSERT_EQ(markTorn(m, side), 1u);
  const std::vector<uint32_t> sources = splitVertices(m);
  EXPECT_TRUE(sources.empty());
  TearPatches patches(m, sources);
  std::vector<std::array<uint32_t, 4>> out;
  EXPECT_EQ(patches.instances(std::vector<uint32_t>{5, 10}, out), 0u);
  // The torn side's own edge lives on: both triangles still share its vertices.
  EXPECT_EQ(patches.instances(std::vector<uint32_t>{6, 9}, out), 1u);
  // The cell's strain triangles are found by their corners.
  EXPECT_NE(patches.triangleOf(std::array<uint32_t, 3>{5, 6, 9}), ~0u);
  EXPECT_EQ(patches.triangleOf(std::array<uint32_t, 3>{5, 6, 10}), ~0u);
}

TEST(TearTopology, TearingAgainKeepsWhatAnEarlierTearSplit) {
  const uint32_t C = 5, R = 5;
  TornMesh m = grid(C, R);
  ASSERT_EQ(markTorn(m, rowEdges(C, 2, 0, 2)), 2u);
  const std::vector<uint32_t> first = splitVertices(m);
  ASSERT_EQ(first, (std::vector<uint32_t>{2 * C, 2 * C + 1}));  // (0,2) and (1,2); (2,2) is the tip
  // Row 1's cells come first: they keep 10 and 11, row 2's take the new 25 and 26.
  // The edge (0,2)-(1,2) now exists twice, once on each copy pair; a second tear elsewhere leaves both single.
  ASSERT_EQ(markTorn(m, rowEdges(C, 4, 0, 1)), 1u);  // on the bottom border: splits nothing
  const std::vector<uint32_t> second = splitVertices(m);
  EXPECT_TRUE(second.empty());
  TearPatches patches(m, second);
  std::vector<std::array<uint32_t, 4>> out;
  ASSERT_EQ(patches.instances(std::vector<uint32_t>{2 * C, 2 * C + 1}, out), 1u);
  ASSERT_EQ(patches.instances(std::vector<uint32_t>{C * R, C * R + 1}, out), 1u);
  EXPECT_EQ(out[0][0], 2 * C);
  EXPECT_EQ(out[0][1], 2 * C + 1);
  EXPECT_EQ(out[1][0], C * R);
  EXPECT_EQ(out[1][1], C * R + 1);
}

TEST(TearTopology, ANonEdgeIsNamed) {
  TornMesh m = grid(3, 3);
  const std::vector<uint32_t> pairs = {0, 1, 0, 8, 1, 2};
  EXPECT_EQ(markTorn(m, pairs), 1u);  // (0, 8) is no side
  EXPECT_TRUE(std::all_of(m.tornSides.begin(), m.tornSides.end(), [](uint8_t s) { return s == 0; }));
}

TEST(TearTopology, LookingOnlyNearTheChangeGivesWhatLookingEverywhereGives) {
  // A grid's edges, shear diagonals and skip-one bend edges, torn edge by edge at random: after every tear the
  // constraints mapped with limitTo are the ones mapped by looking at every constraint's patch.
  const uint32_t C = 12, R = 12;
  TornMesh mesh = grid(C, R);
  using Constraint = std::vector<uint32_t>;
  std::vector<Constraint> constraints;
  for (uint32_t r = 0; r < R; ++r)
    for (uint32_t c = 0; c < C; ++c) {
      const uint32_t v = r * C + c;
      if (c + 1 < C) constraints.push_back({v, v + 1});
      if (r + 1 < R) constraints.push_back({v, v + C});
      if (c + 1 < C && r + 1 < R) constraints.push_back({v, v + C + 1}), constraints.push_back({v + 1, v + C});
      if (c + 2 < C) constraints.push_back({v, v + 2});
      if (r + 2 < R) constraints.push_back({v, v + 2 * C});
    }
  std::vector<Constraint> limited = constraints;
  uint32_t seed = 12345;
  auto random = [&](uint32_t n) {
    seed = seed * 1664525u + 1013904223u;  // a linear congruential generator: the same tears on every machine
    return (seed >> 8) % n;
  };
  auto map = [](TearPatches& patches, const std::vector<Constraint>& in) {
    std::vector<Constraint> out;
    std::vector<std::array<uint32_t, 4>> instances;
    for (const Constraint& p : in) {
      instances.clear();
      patches.instances(p, instances);
      for (const auto& q : instances) out.push_back(Constraint(q.begin(), q.begin() + ptrdiff_t(p.size())));
    }
    return out;
  };
  for (int tear = 0; tear < 40; ++tear) {
    const uint32_t t = random(uint32_t(mesh.triangles.size() / 3)), k = random(3);
    const std::vector<uint32_t> side = {mesh.triangles[3 * t + k], mesh.triangles[3 * t + (k + 1) % 3]};
    const std::vector<uint8_t> sidesBefore = mesh.tornSides;
    const std::vector<uint32_t> cornersBefore = mesh.triangles;
    ASSERT_EQ(markTorn(mesh, side), 1u);
    const std::vector<uint32_t> sources = splitVertices(mesh);
    TearPatches everywhere(mesh, sources), near(mesh, sources);
    std::vector<uint32_t> changed;
    for (uint32_t u = 0; 3 * u < mesh.triangles.size(); ++u) {
      if (mesh.tornSides[u] != sidesBefore[u] ||
          !std::equal(mesh.triangles.begin() + 3 * u, mesh.triangles.begin() + 3 * u + 3, cornersBefore.begin() + 3 * u))
        changed.push_back(u);
    }
    near.limitTo(changed);
    constraints = map(everywhere, constraints);
    limited = map(near, limited);
    ASSERT_EQ(limited, constraints) << "after tear " << tear;
  }
  EXPECT_GT(mesh.origin.size(), C * R);  // some vertices split
}
