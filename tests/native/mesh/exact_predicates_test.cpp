// Exact orient3d / insphere on lattice points: zero on exactly coplanar / co-spherical points (where a double
// evaluation is unreliable), the right sign for the smallest possible perturbation, antisymmetry, and agreement with
// a double evaluation wherever the double evaluation is certain.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "mesh/delaunay.h"
#include "mesh/exact_predicates.h"

using namespace pbd::mesh;

namespace {

constexpr int64_t kMax = kLatticeLimit;  // coordinates in [-2^20, 2^20]

LatticePoint add(const LatticePoint& a, const LatticePoint& b, int64_t s = 1) {
  return {a.x + s * b.x, a.y + s * b.y, a.z + s * b.z};
}

/// All integer points (x, y, z) with x² + y² + z² = r².
std::vector<LatticePoint> latticeSpherePoints(int64_t r) {
  std::vector<LatticePoint> s;
  for (int64_t x = -r; x <= r; ++x)
    for (int64_t y = -r; y <= r; ++y)
      for (int64_t z = -r; z <= r; ++z)
        if (x * x + y * y + z * z == r * r) s.push_back({x, y, z});
  return s;
}

/// orient3d in double, with a certainty flag: Shewchuk's static error bound for orient3d (7ε + 56ε²)·permanent.
int orientDouble(const LatticePoint& a, const LatticePoint& b, const LatticePoint& c, const LatticePoint& d,
                 bool& certain) {
  const double bx = double(b.x - a.x), by = double(b.y - a.y), bz = double(b.z - a.z);
  const double cx = double(c.x - a.x), cy = double(c.y - a.y), cz = double(c.z - a.z);
  const double dx = double(d.x - a.x), dy = double(d.y - a.y), dz = double(d.z - a.z);
  const double det = bx * (cy * dz - cz * dy) + by * (cz * dx - cx * dz) + bz * (cx * dy - cy * dx);
  const double perm = std::abs(bx) * (std::abs(cy * dz) + std::abs(cz * dy)) +
                      std::abs(by) * (std::abs(cz * dx) + std::abs(cx * dz)) +
                      std::abs(bz) * (std::abs(cx * dy) + std::abs(cy * dx));
  certain = std::abs(det) > 1e-14 * perm;
  return (det > 0) - (det < 0);
}

/// e inside the circumsphere of (a, b, c, d), by the circumcentre in long double; certain when the distances
/// differ by far more than the rounding.
int insphereGeometric(const LatticePoint& a, const LatticePoint& b, const LatticePoint& c, const LatticePoint& d,
                      const LatticePoint& e, bool& certain) {
  using LD = long double;
  const LD bx = b.x - a.x, by = b.y - a.y, bz = b.z - a.z, cx = c.x - a.x, cy = c.y - a.y, cz = c.z - a.z;
  const LD dx = d.x - a.x, dy = d.y - a.y, dz = d.z - a.z;
  const LD lb = bx * bx + by * by + bz * bz, lc = cx * cx + cy * cy + cz * cz, ld = dx * dx + dy * dy + dz * dz;
  const LD det = bx * (cy * dz - cz * dy) + by * (cz * dx - cx * dz) + bz * (cx * dy - cy * dx);
  // centre o (relative to a) = (lb (c×d) + lc (d×b) + ld (b×c)) / (2 det)
  const LD ox = (lb * (cy * dz - cz * dy) + lc * (dy * bz - dz * by) + ld * (by * cz - bz * cy)) / (2 * det);
  const LD oy = (lb * (cz * dx - cx * dz) + lc * (dz * bx - dx * bz) + ld * (bz * cx - bx * cz)) / (2 * det);
  const LD oz = (lb * (cx * dy - cy * dx) + lc * (dx * by - dy * bx) + ld * (bx * cy - by * cx)) / (2 * det);
  const LD r2 = ox * ox + oy * oy + oz * oz;
  const LD ex = e.x - a.x - ox, ey = e.y - a.y - oy, ez = e.z - a.z - oz;
  const LD e2 = ex * ex + ey * ey + ez * ez;
  certain = std::abs(double(e2 - r2)) > 1e-6 * double(r2) && std::abs(double(det)) > 1e-3 * std::pow(double(lb + lc + ld), 1.5);
  return (e2 < r2) - (e2 > r2);
}

}  // namespace

TEST(ExactPredicates, Orient3dIsZeroOnCoplanarLatticePointsAndSignsTheSmallestPerturbation) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int64_t> coord(-kMax / 4, kMax / 4), small(-300, 300);
  int checked = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    // o + i u + j v for integer i, j: exactly coplanar, coordinates up to ~2^20.
    const LatticePoint o{coord(rng), coord(rng), coord(rng)};
    const LatticePoint u{small(rng), small(rng), small(rng)}, v{small(rng), small(rng), small(rng)};
    const int64_t nx = u.y * v.z - u.z * v.y, ny = u.z * v.x - u.x * v.z, nz = u.x * v.y - u.y * v.x;
    if (nx == 0 && ny == 0 && nz == 0) continue;
    auto at = [&](int64_t i, int64_t j) { return add(add(o, u, i), v, j); };
    const LatticePoint a = at(0, 0), b = at(700, 3), c = at(-5, 650), d = at(400, -800);
    ASSERT_EQ(orient3d(a, b, c, d), 0) << "trial " << trial;
    // Move d by one lattice step along an axis the plane's normal has a component on: orient3d becomes
    // ± sign(n · step) · (the orientation of (b-a, c-a) in the plane), which we read off from n·((b-a)×(c-a)).
    const int axis = nx != 0 ? 0 : (ny != 0 ? 1 : 2);
    const int64_t nAxis = axis == 0 ? nx : (axis == 1 ? ny : nz);
    LatticePoint up = d;
    (axis == 0 ? up.x : axis == 1 ? up.y : up.z) += 1;
    LatticePoint down = d;
    (axis == 0 ? down.x : axis == 1 ? down.y : down.z) -= 1;
    // (b-a)×(c-a) = (700·(-5)... ) is a positive multiple of n iff 700·650 - 3·(-5) > 0, which holds.
    const int expectedUp = nAxis > 0 ? 1 : -1;
    EXPECT_EQ(orient3d(a, b, c, up), expectedUp) << "trial " << trial;
    EXPECT_EQ(orient3d(a, b, c, down), -expectedUp) << "trial " << trial;
    ++checked;
  }
  EXPECT_GT(checked, 1500);
}

TEST(ExactPredicates, InsphereIsZeroOnCosphericalLatticePointsAndSignsTheSmallestPerturbation) {
  std::mt19937_64 rng(11);
  // Pythagorean quadruples scaled up to the lattice bound: x² + y² + z² = (3k)² with (x,y,z) ∈ k·perm(±1,±2,±2),
  // and all integer points of the sphere of radius 9, which mixes several quadruples.
  std::vector<std::pair<std::vector<LatticePoint>, LatticePoint>> spheres;
  for (int64_t k : {1, 1000, 340000}) {
    std::vector<LatticePoint> s;
    for (const LatticePoint& p : latticeSpherePoints(3)) s.push_back({k * p.x, k * p.y, k * p.z});
    spheres.push_back({s, {0, 0, 0}});
  }
  spheres.push_back({latticeSpherePoints(9), {12345, -777, 4}});
  for (auto& [s, centre] : spheres)
    for (LatticePoint& p : s) p = add(p, centre);
  int checked = 0;
  for (const auto& [s, centre] : spheres) {
    std::uniform_int_distribution<size_t> pick(0, s.size() - 1);
    for (int trial = 0; trial < 500; ++trial) {
      LatticePoint a = s[pick(rng)], b = s[pick(rng)], c = s[pick(rng)], d = s[pick(rng)];
      const LatticePoint e = s[pick(rng)];
      const int o = orient3d(a, b, c, d);
      if (o == 0) continue;
      if (o < 0) std::swap(c, d);
      ASSERT_EQ(insphere(a, b, c, d, e), 0);
      // One lattice step towards the centre along the largest component goes inside, away goes outside
      // (|e - c|² changes by ∓2|x| + 1).
      LatticePoint in = e, out = e;
      const int64_t rx = e.x - centre.x, ry = e.y - centre.y, rz = e.z - centre.z;
      const int64_t m = std::max({std::abs(rx), std::abs(ry), std::abs(rz)});
      int64_t& ic = std::abs(rx) == m ? in.x : (std::abs(ry) == m ? in.y : in.z);
      int64_t& oc = std::abs(rx) == m ? out.x : (std::abs(ry) == m ? out.y : out.z);
      const int64_t toward = (std::abs(rx) == m ? rx : (std::abs(ry) == m ? ry : rz)) > 0 ? -1 : 1;
      ic += toward;
      oc -= toward;
      EXPECT_EQ(insphere(a, b, c, d, in), 1);
      EXPECT_EQ(insphere(a, b, c, d, out), -1);
      // The centre is strictly inside, a far point strictly outside.
      EXPECT_EQ(insphere(a, b, c, d, centre), 1);
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);
}

TEST(ExactPredicates, SwappingTwoPointsFlipsTheSign) {
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<int64_t> coord(-kMax, kMax), tiny(-2, 2);
  for (int trial = 0; trial < 3000; ++trial) {
    // Half of the trials on a 5×5×5 block, where zeros are frequent.
    auto gen = [&] {
      return trial % 2 ? LatticePoint{coord(rng), coord(rng), coord(rng)} : LatticePoint{tiny(rng), tiny(rng), tiny(rng)};
    };
    std::array<LatticePoint, 5> p = {gen(), gen(), gen(), gen(), gen()};
    const int o = orient3d(p[0], p[1], p[2], p[3]);
    EXPECT_EQ(orient3d(p[1], p[0], p[2], p[3]), -o);
    EXPECT_EQ(orient3d(p[0], p[2], p[1], p[3]), -o);
    EXPECT_EQ(orient3d(p[0], p[1], p[3], p[2]), -o);
    EXPECT_EQ(orient3d(p[1], p[2], p[0], p[3]), o);  // even permutation
    const int s = insphere(p[0], p[1], p[2], p[3], p[4]);
    EXPECT_EQ(insphere(p[1], p[0], p[2], p[3], p[4]), -s);
    EXPECT_EQ(insphere(p[0], p[1], p[3], p[2], p[4]), -s);
    EXPECT_EQ(insphere(p[2], p[3], p[0], p[1], p[4]), s);  // even permutation
    // Translation invariance (exact arithmetic): shift everything by one lattice vector.
    const LatticePoint t{tiny(rng), tiny(rng), tiny(rng)};
    if (trial % 2 == 0) {
      EXPECT_EQ(orient3d(add(p[0], t), add(p[1], t), add(p[2], t), add(p[3], t)), o);
      EXPECT_EQ(insphere(add(p[0], t), add(p[1], t), add(p[2], t), add(p[3], t), add(p[4], t)), s);
    }
  }
}

TEST(ExactPredicates, AgreeWithDoubleEvaluationOnWellSeparatedRandomPoints) {
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<int64_t> coord(-kMax, kMax);
  int orientChecked = 0, insphereChecked = 0, inside = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::array<LatticePoint, 5> p;
    for (LatticePoint& q : p) q = {coord(rng), coord(rng), coord(rng)};
    bool certain = false;
    const int od = orientDouble(p[0], p[1], p[2], p[3], certain);
    if (certain) {
      EXPECT_EQ(orient3d(p[0], p[1], p[2], p[3]), od) << "trial " << trial;
      ++orientChecked;
    }
    if (orient3d(p[0], p[1], p[2], p[3]) < 0) std::swap(p[2], p[3]);
    const int sd = insphereGeometric(p[0], p[1], p[2], p[3], p[4], certain);
    if (certain) {
      EXPECT_EQ(insphere(p[0], p[1], p[2], p[3], p[4]), sd) << "trial " << trial;
      ++insphereChecked;
      inside += sd > 0;
    }
  }
  EXPECT_GT(orientChecked, 19000);
  EXPECT_GT(insphereChecked, 15000);
  EXPECT_GT(inside, 1000);  // both signs were exercised
  EXPECT_LT(inside, insphereChecked - 1000);
}

TEST(ExactPredicates, ExtremeCoordinatesDoNotOverflow) {
  // Differences of ±2^21 in every component: the largest magnitudes the bounds allow.
  const LatticePoint a{-kMax, -kMax, -kMax}, b{kMax, -kMax, -kMax}, c{-kMax, kMax, -kMax}, d{-kMax, -kMax, kMax};
  EXPECT_EQ(orient3d(a, b, c, d), 1);
  EXPECT_EQ(orient3d(a, c, b, d), -1);
  EXPECT_EQ(insphere(a, b, c, d, {kMax, kMax, -kMax}), 0);  // a cube corner: on the cube's circumsphere
  EXPECT_EQ(insphere(a, b, c, d, {kMax, kMax, kMax}), 0);
  EXPECT_EQ(insphere(a, b, c, d, {kMax - 1, kMax, kMax}), 1);
  EXPECT_EQ(insphere(a, b, c, d, {0, 0, 0}), 1);
  EXPECT_EQ(insphere(a, b, c, d, {kMax, kMax, kMax - 1}), 1);
  // A smaller sphere through three of the corners, with the largest possible |e - x|² terms.
  const LatticePoint m{0, 0, -kMax};
  EXPECT_EQ(orient3d(a, b, c, m), 0);  // m is on the face plane z = -2^20
  const LatticePoint top{0, 0, kMax};
  ASSERT_EQ(orient3d(a, b, c, top), 1);
  EXPECT_EQ(insphere(a, b, c, top, {kMax, kMax, -kMax}), 0);  // the 4th corner of the bottom face: co-circular
  EXPECT_EQ(insphere(a, b, c, top, {kMax, kMax, kMax}), -1);
  EXPECT_EQ(insphere(a, b, c, top, m), 1);
}

TEST(ExactPredicates, LatticeMapsTheBoundingBoxOntoZeroTo2Pow20) {
  const std::vector<float> xyz = {-1.5f, 2, 0.25f, 0.5f, 3, 0.75f, -0.5f, 2.5f, 1.25f};
  const Lattice l = Lattice::fit(xyz);
  EXPECT_EQ(l(-1.5, 2, 0.25), (LatticePoint{0, 0, 0}));
  EXPECT_EQ(l(0.5, 3, 0.75).x, int64_t(1) << 20);  // x has the longest side (2): it spans the whole lattice
  EXPECT_EQ(l(0.5, 3, 0.75).y, int64_t(1) << 19);  // one scale for all axes: y (side 1) spans half
  EXPECT_EQ(l(-0.5, 2.5, 1.25), (LatticePoint{int64_t(1) << 19, int64_t(1) << 18, int64_t(1) << 19}));
}
