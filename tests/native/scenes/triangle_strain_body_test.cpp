// Cloth and meshes with strain triangles (ClothModel::StrainTriangles) in a world: they replace the stretch and shear
// edges, a hanging cloth barely stretches when stretch is rigid, stretch and shear strengths act separately, a strip
// under an axial load settles at the strain its compliance predicts, rest stays at rest, the internal constraints
// carry no momentum, and bad input is rejected naming the field.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "constraints/triangle_strain.h"
#include "native/expect_error.h"
#include "pbd/world.h"
#include "scenes/free_space.h"
#include "native/long_scene.h"

using namespace pbd;

namespace {

/// A flat cloth in the XZ plane (axisU = x, axisV = z) in strain-triangle mode, with dihedral bending, which does
/// not act on a flat sheet deformed in its plane (skip-one bend edges would resist stretching).
ClothDef strainCloth(int columns, int rows, Real spacing, const Strength& stretch, const Strength& shear) {
  ClothDef c;
  c.columns = columns;
  c.rows = rows;
  c.spacing = spacing;
  c.model = ClothModel::StrainTriangles;
  c.stretch = stretch;
  c.shear = shear;
  c.bendModel = BendModel::Dihedral;
  return c;
}

/// The cloth's render triangles as the builder splits each cell, with particle indices offset by `first`.
std::vector<std::array<uint32_t, 3>> clothTriangles(const ClothDef& c, uint32_t first) {
  std::vector<std::array<uint32_t, 3>> out;
  const auto id = [&](int col, int row) { return first + uint32_t(row * c.columns + col); };
  for (int r = 0; r + 1 < c.rows; ++r) {
    for (int k = 0; k + 1 < c.columns; ++k) {
      out.push_back({id(k, r), id(k + 1, r), id(k, r + 1)});
      out.push_back({id(k + 1, r), id(k + 1, r + 1), id(k, r + 1)});
    }
  }
  return out;
}

Vec3 restPosition(const ClothDef& c, uint32_t local) {
  const Real col = Real(local % uint32_t(c.columns)), row = Real(local / uint32_t(c.columns));
  return c.origin + col * c.spacing * c.axisU.normalized() + row * c.spacing * c.axisV.normalized();
}

struct StrainStats {
  double maxStretch = 0;   ///< max |C_xx|, |C_yy| over the triangles.
  double meanStretch = 0;  ///< mean (|C_xx| + |C_yy|) / 2.
  double meanShear = 0;    ///< mean |C_xy| (the cosine of the angle between the deformed axes).
};

/// The three strains of every triangle of the cloth, evaluated by the kernel against the rest grid.
StrainStats strains(const World& w, const ClothDef& c, const BodyRange& r) {
  StrainStats s;
  const auto triangles = clothTriangles(c, 0);
  for (const auto& t : triangles) {
    Vec3 X[3], x[3];
    for (int k = 0; k < 3; ++k) X[k] = restPosition(c, t[k]), x[k] = scenes::positionOf(w, r.firstParticle + t[k]);
    Mat2 restInverse;
    Real area;
    EXPECT_TRUE(restTriangleFrame(X, restInverse, area, c.axisU));
    const Vec3* q[3] = {&x[0], &x[1], &x[2]};
    Real C[3] = {0, 0, 0};
    Vec3 grad[3];
    for (int k = 0; k < 3; ++k) EXPECT_TRUE(triangleStrain(q, restInverse, TriangleStrain(k), C[k], grad));
    s.maxStretch = std::max({s.maxStretch, double(std::abs(C[0])), double(std::abs(C[1]))});
    s.meanStretch += (std::abs(C[0]) + std::abs(C[1])) / 2;
    s.meanShear += std::abs(C[2]);
  }
  s.meanStretch /= double(triangles.size());
  s.meanShear /= double(triangles.size());
  return s;
}

}  // namespace

TEST(TriangleStrainBody, StrainTrianglesReplaceTheStretchAndShearEdges) {
  ClothDef edges;
  edges.columns = 5;
  edges.rows = 4;
  edges.pinned = {0};
  edges.tethers = TetherMode::Geodesic;
  ClothDef strain = edges;
  strain.model = ClothModel::StrainTriangles;
  World a, b;
  const BodyRange ra = a.addCloth(edges), rb = b.addCloth(strain);
  const uint32_t stretchAndShear = 4 * 4 + 5 * 3 + 2 * 4 * 3;  // grid edges, then both diagonals of 12 cells
  EXPECT_EQ(rb.constraintCount, ra.constraintCount - stretchAndShear);  // the skip-one bend edges stay
  EXPECT_EQ(b.triangleStrainCount(), 2u * 4 * 3);
  EXPECT_EQ(a.triangleStrainCount(), 0u);
  EXPECT_EQ(rb.tetherCount, ra.tetherCount);  // geodesic tethers still walk the cloth's edges
  EXPECT_EQ(b.tetherCount(), a.tetherCount());
}

TEST(TriangleStrainBody, HangingClothStaysBoundedAndStretchesNoMoreThanAnEdgeCloth) {
  PBD_LONG_SCENE();
  // A 1 m cloth of 20 x 20 hanging from two corners under gravity, at the default 10 substeps x 1 iteration. With
  // rigid stretch, what strain is left is the solver's iteration error, so the reference is the same cloth made of
  // rigid edge constraints (measured: mean triangle stretch ~0.02 for both; the corner triangles at the pins carry
  // a point load and stretch most). A compliant stretch (modulus 500 N/m) shows that the measure sees real stretch.
  struct Hang {
    StrainStats strain;
    double lowest = 1e30, farthest = 0;
  };
  auto hang = [](ClothModel model, const Strength& stretch) {
    World w;
    SolverSettings s;
    s.ground.enabled = false;
    s.linearDamping = 1;  // the swing dies down, so the last frame is close to hanging at rest
    w.setSettings(s);
    ClothDef c = strainCloth(20, 20, 1.0f / 19, stretch, Strength{});
    c.model = model;
    c.origin = Vec3(-0.5f, 1, 0);
    c.pinned = {0, 19};
    const BodyRange r = w.addCloth(c);
    Hang h;
    for (int f = 0; f < 240; ++f) {
      w.step(1.0f / 60);
      EXPECT_FALSE(w.lastStepReport().rolledBack);
      for (uint32_t i = 0; i < r.particleCount; ++i) {
        const Vec3 x = scenes::positionOf(w, r.firstParticle + i);
        h.lowest = std::min(h.lowest, double(x.y()));
        h.farthest = std::max(h.farthest, double(x.norm()));
      }
    }
    h.strain = strains(w, c, r);
    std::printf("%s, stretch compliance %g: max stretch %.4f, mean %.4f, lowest y %.3f\n",
                model == ClothModel::Edges ? "edges" : "strain triangles", double(stretch.compliance),
                h.strain.maxStretch, h.strain.meanStretch, h.lowest);
    return h;
  };
  const Hang edges = hang(ClothModel::Edges, Strength{0, 1});
  const Hang rigid = hang(ClothModel::StrainTriangles, Strength{0, 1});
  const Hang soft = hang(ClothModel::StrainTriangles, Strength{1.0f / 500, 1});
  EXPECT_LT(rigid.farthest, 3.0);
  // No particle hangs further below the pins (y = 1) than its rest distance to the nearer pin, 1.12 m at most (the
  // middle of the far edge), stretched by a few per cent.
  EXPECT_GT(rigid.lowest, 1 - 1.12 * 1.1);
  EXPECT_LT(rigid.strain.meanStretch, 1.5 * edges.strain.meanStretch);
  EXPECT_LT(rigid.strain.meanStretch, 0.05);
  EXPECT_GT(soft.strain.meanStretch, 2 * rigid.strain.meanStretch);
  EXPECT_LT(soft.lowest, rigid.lowest - 0.05);
}

TEST(TriangleStrainBody, StretchAndShearStrengthsActSeparately) {
  PBD_LONG_SCENE();
  // A 0.5 m square pinned along its first row and loaded on its last row with 2 N along axisV (a pull) and 1 N along
  // axisU (sideways). Compliances are per unit area: c = 1/(100 N/m).
  //  - Compliant stretch, rigid shear: the pull stretches the sheet uniformly by ε = (F_v / W) c = 0.04, so the
  //    loaded row moves ε L = 0.02 m along axisV (the sideways load bends the sheet in its plane, by stretching
  //    too, which leaves the mean pull displacement alone); the triangles keep their right angles.
  //  - Rigid stretch, compliant shear: the sheet shears by C_xy = sin γ = (F_u / W) c = 0.02 (shear stress over
  //    the shear modulus), so the loaded row moves L sin γ = 0.01 m sideways; no triangle stretches. The free sides
  //    carry no shear, so the panel is a little stiffer than pure shear (measured: 4 %).
  // Rigid constraints mixed with compliant ones need iterations to converge (at 2, the rigid shear is still 0.01;
  // at 10, 6e-4).
  struct Deformation {
    StrainStats strain;
    Vec3 loadedRow;  ///< Mean displacement of the loaded row.
  };
  auto deform = [](const Strength& stretch, const Strength& shear) {
    World w;
    SolverSettings s = scenes::freeSpace(Method::Xpbd, 10, 10);
    s.linearDamping = 4;
    w.setSettings(s);
    ClothDef c = strainCloth(11, 11, 0.05f, stretch, shear);
    for (uint32_t k = 0; k < 11; ++k) c.pinned.push_back(k);
    const BodyRange r = w.addCloth(c);
    for (uint32_t k = 110; k < 121; ++k) w.setExternalForce(r.firstParticle + k, Vec3(1, 0, 2) / 11);
    for (int f = 0; f < 180; ++f) w.step(1.0f / 60);
    Deformation d{strains(w, c, r), Vec3::Zero()};
    for (uint32_t k = 110; k < 121; ++k) d.loadedRow += (scenes::positionOf(w, r.firstParticle + k) - restPosition(c, k)) / 11;
    std::printf("stretch α %g, shear α %g: mean stretch %.5f, mean shear %.5f, loaded row moved (%.4f, %.4f, %.4f)\n",
                double(stretch.compliance), double(shear.compliance), d.strain.meanStretch, d.strain.meanShear,
                d.loadedRow.x(), d.loadedRow.y(), d.loadedRow.z());
    return d;
  };
  const Deformation stretchy = deform(Strength{0.01f, 1}, Strength{0, 1});
  const Deformation shearable = deform(Strength{0, 1}, Strength{0.01f, 1});
  EXPECT_NEAR(stretchy.loadedRow.z(), 0.02, 0.002);
  EXPECT_NEAR(shearable.loadedRow.x(), 0.01, 0.001);
  EXPECT_LT(std::abs(shearable.loadedRow.z()), 0.001);
  EXPECT_GT(stretchy.strain.meanStretch, 100 * shearable.strain.meanStretch);
  EXPECT_GT(shearable.strain.meanShear, 20 * stretchy.strain.meanShear);
}

namespace {

constexpr int kStripCells = 10;
constexpr Real kCell = 0.05f, kStripLength = kStripCells * kCell, kStripWidth = kCell;

/// The mean x displacement of the free end of a strip of strain triangles, one row of 10 cells (0.5 m x 0.05 m),
/// pinned at x = 0 and pulled along x at x = 0.5 by a total force `force` (half on each end particle), divided by
/// the length: the measured axial strain. As a ClothDef, or as a TriangleMeshDef of the same triangles.
double stripStrain(bool asMesh, Real stretchCompliance, Real force, Solver solver = Solver::ColouredGaussSeidel) {
  World w;
  SolverSettings s = scenes::freeSpace(Method::Xpbd, 20, 5);
  s.linearDamping = 5;
  s.solver = solver;
  w.setSettings(s);
  ClothDef c = strainCloth(kStripCells + 1, 2, kCell, Strength{stretchCompliance, 1}, Strength{stretchCompliance, 1});
  // Not too heavy: at rest each substep's load displacement h² w f must be far above the float32 spacing of the
  // positions (6e-8 m at 0.5 m), or the solve stalls wherever rounding leaves it (at 10 kg: 11 % off). At 0.3 kg it
  // is ~6e-6 m.
  c.mass = 0.3f;
  const uint32_t columns = kStripCells + 1;
  std::vector<uint32_t> pinned = {0, columns}, loaded = {columns - 1, 2 * columns - 1};  // local grid indices
  std::vector<uint32_t> particle(2 * columns);
  if (asMesh) {
    TriangleMeshDef m;
    for (uint32_t i = 0; i < 2 * columns; ++i) {
      const Vec3 x = restPosition(c, i);
      m.positions.insert(m.positions.end(), {x.x(), x.y(), x.z()});
    }
    for (const auto& t : clothTriangles(c, 0)) m.triangles.insert(m.triangles.end(), t.begin(), t.end());
    m.model = ClothModel::StrainTriangles;
    m.stretch = m.shear = c.stretch;
    m.mass = c.mass;
    m.pinned = pinned;
    const MeshBody body = w.addTriangleMesh(m);
    particle = body.renderToParticle;
  } else {
    c.pinned = pinned;
    const BodyRange r = w.addCloth(c);
    for (uint32_t i = 0; i < 2 * columns; ++i) particle[i] = r.firstParticle + i;
  }
  EXPECT_EQ(w.distanceConstraintCount(), 0u);  // the strain triangles alone carry the load
  for (uint32_t i : loaded) w.setExternalForce(particle[i], Vec3(force / 2, 0, 0));
  const auto endStrain = [&] {
    const Real end = (scenes::positionOf(w, particle[loaded[0]]).x() + scenes::positionOf(w, particle[loaded[1]]).x()) / 2;
    return double(end - kStripLength) / kStripLength;
  };
  return scenes::settledMean(w, 300, 120, endStrain);
}

}  // namespace

TEST(TriangleStrainBody, StripUnderAxialLoadSettlesAtTheComplianceStrain) {
  PBD_LONG_SCENE();
  // Expected strain from the constraint energy. A triangle of rest area A with per-area compliance c (m/N) has
  // α = c / A (1/J) and energy ½ C²/α = ½ C² A / c for each of C_xx, C_yy (same compliance) and C_xy. Stretch the
  // strip uniformly along x by ε: every triangle's F = diag(1 + ε, 1) in its rest frame (x along the strip; for the
  // mesh, whose frames follow each first edge, x and y swap in half the triangles, with the same compliance), so
  // C_xx = ε (|f0| - 1 is exactly the engineering strain), C_yy = 0, C_xy = 0, and the energy is
  //   E(ε) = Σ ½ ε² A_t / c = ½ ε² L W / c.
  // The load does work F ε L. A uniform strain is an equilibrium of the discrete strip (constant stress: the
  // interior nodes' forces cancel, the free sides carry no traction since C_yy = C_xy = 0, and each end node takes
  // half the end force), so dE/dε = F L gives
  //   ε = F c / W,
  // exactly, with no small-strain approximation. XPBD at rest satisfies ∇E = f_ext up to the iteration error of
  // Gauss-Seidel, small here because α̃ = c/(A h²) ≈ 1.2e6 is well above Σ w|∇C|² ≈ 2 w/cell² ≈ 6e4.
  // Vertex Block Descent minimizes the same energy (the triangles are its elements): the same strain.
  const Real compliance = 1e-3f;  // stretch modulus 1000 N/m
  for (Solver solver : {Solver::ColouredGaussSeidel, Solver::VertexBlockDescent}) {
    for (bool asMesh : {false, true}) {
      for (Real force : {0.25f, 0.5f}) {  // strains of 0.5 % and 1 %
        const double expected = force * compliance / kStripWidth;
        const double measured = stripStrain(asMesh, compliance, force, solver);
        EXPECT_NEAR(measured, expected, 0.02 * expected)
            << (asMesh ? "mesh" : "cloth") << ", force " << force << ", solver " << int(solver);
      }
    }
  }
}

TEST(TriangleStrainBody, RestStaysAtRest) {
  PBD_LONG_SCENE();
  for (Solver solver : {Solver::ColouredGaussSeidel, Solver::VertexBlockDescent}) {
    for (Method method : {Method::Xpbd, Method::Pbd}) {
      if (solver == Solver::VertexBlockDescent && method == Method::Pbd) continue;  // VBD maps both to one energy
      World w;
      SolverSettings s = scenes::freeSpace(method);
      s.solver = solver;
      w.setSettings(s);
      ClothDef c = strainCloth(12, 12, 0.05f, Strength{0, 1}, Strength{1e-3f, 0.5f});
      c.origin = Vec3(-0.3f, 0.2f, -0.3f);
      w.addCloth(c);
      const std::vector<Real> rest = scenes::positionsOf(w);
      for (int f = 0; f < (solver == Solver::VertexBlockDescent ? 60 : 300); ++f) w.step(1.0f / 60);
      EXPECT_LT(scenes::maxDisplacement(w, rest), 1e-6)
          << (method == Method::Xpbd ? "xpbd" : "pbd") << ", solver " << int(solver);
    }
  }
}

TEST(TriangleStrainBody, InternalConstraintsConserveLinearAndAngularMomentum) {
  PBD_LONG_SCENE();
  // A free cloth with uneven masses, drifting, spinning and shaking. Each strain constraint depends on the vertices
  // only through FᵀF, so its corrections sum to zero and have no moment about any point. What is left is float32
  // round-off and the first-order error of position projection on a rotating body (momentum_test.cpp). The same
  // scene with edge constraints measures |ΔP|/|P| ~ 5e-4 and |ΔL|/|L| ~ 3e-3; strain triangles ~ 1.5e-3 and 3.5e-3
  // (a random walk, not a trend). A leak, e.g. a vertex gradient that does not sum to zero, is O(1).
  for (const auto& [method, solver] : {std::pair{Method::Xpbd, Solver::ColouredGaussSeidel},
                                      std::pair{Method::Pbd, Solver::ColouredGaussSeidel},
                                      std::pair{Method::Xpbd, Solver::VertexBlockDescent}}) {
    World w;
    SolverSettings s = scenes::freeSpace(method, 20, 2);
    s.solver = solver;
    w.setSettings(s);
    ClothDef c = strainCloth(12, 12, 0.1f, Strength{1e-3f, 0.9f}, Strength{1e-2f, 0.7f});
    c.origin = Vec3(-0.55f, 0.3f, -0.55f);
    c.bendModel = BendModel::SkipOne;
    w.addCloth(c);
    std::mt19937 rng(5);
    std::uniform_real_distribution<Real> m(0.005f, 0.025f);
    for (uint32_t i = 0; i < w.particleCount(); ++i) w.setInverseMass(i, 1 / m(rng));
    scenes::randomVelocities(w, 7, 0.3f, Vec3(0.4f, -0.2f, 0.1f), Vec3(0.3f, 2.0f, -0.5f));
    const scenes::MomentumDrift drift = scenes::momentumDrift(w, 60);
    std::printf("%s, solver %d: |dP|/|P| = %.2e, |dL|/|L| = %.2e\n", method == Method::Xpbd ? "xpbd" : "pbd",
                int(solver), drift.linear, drift.angular);
    EXPECT_LT(drift.linear, 5e-3);
    EXPECT_LT(drift.angular, 1e-2);
  }
}

TEST(TriangleStrainBody, BadInputIsRejectedNamingTheFieldAndTheWorldIsUnchanged) {
  World world;
  world.addParticle(Vec3::Zero(), 1);
  const auto unchanged = [&] {
    EXPECT_EQ(world.particleCount(), 1u);
    EXPECT_EQ(world.constraintCount(), 0u);
    EXPECT_EQ(world.triangleStrainCount(), 0u);
  };
  ClothDef cloth = strainCloth(3, 3, 0.1f, Strength{}, Strength{});
  cloth.model = ClothModel(7);
  expectError([&] { world.addCloth(cloth); }, {"addCloth: model"});
  unchanged();
  cloth.model = ClothModel::StrainTriangles;
  cloth.shear.compliance = std::nanf("");
  expectError([&] { world.addCloth(cloth); }, {"addCloth: shear.compliance"});
  unchanged();

  TriangleMeshDef mesh;
  mesh.positions = {0, 0, 0, 1, 0, 0, 0, 0, 1, 2, 0, 0};
  mesh.triangles = {0, 1, 2, 0, 1, 3};  // the second is flat: its vertices are on one line
  mesh.model = ClothModel::StrainTriangles;
  expectError([&] { world.addTriangleMesh(mesh); }, {"addTriangleMesh: triangles[1]", "degenerate"});
  unchanged();
  mesh.triangles = {0, 1, 2};
  mesh.shear.stiffness = 2;
  expectError([&] { world.addTriangleMesh(mesh); }, {"addTriangleMesh: shear.stiffness"});
  unchanged();
  mesh.shear.stiffness = 1;
  mesh.model = ClothModel(-1);
  expectError([&] { world.addTriangleMesh(mesh); }, {"addTriangleMesh: model"});
  unchanged();
}
