// Run-time strengths (World::setConstraintStrength) and Neo-Hookean materials (World::setSoftBodyMaterial): each
// changes the physics in the direction mechanics predicts (stiffer bending sags less, a softer volume compliance
// compresses more, a higher Young's modulus sags less, rest stays at rest), setting the values a body was built with
// is bit-identical to not setting them, snapshots carry the set values, Projective Dynamics refactors only on a real
// change, and bad input throws naming the argument with the world unchanged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "native/expect_error.h"
#include "pbd/world.h"
#include "scenes/every_kind.h"
#include "scenes/scenes.h"
#include "scenes/tet_cube.h"

using namespace pbd;

namespace {

using Blob = std::vector<uint8_t>;

/// A buildEveryKind world whose strain cloth (the last body) is stretched by a kick to one corner: it falls flat
/// and lands flat otherwise, and no strain would ever show.
scenes::EveryKind buildStrained(World& world) {
  const scenes::EveryKind kinds = scenes::buildEveryKind(world);
  world.setVelocity(world.particleCount() - 1, Vec3(3, 0, 3));
  return kinds;
}

void runFrames(World& world, int frames) {
  for (int f = 0; f < frames; ++f) world.step(Real(1) / 60);
}

void runEveryKind(World& world, const scenes::EveryKind& kinds, int from, int frames) {
  for (int f = from; f < from + frames; ++f) {
    scenes::driveEveryKind(world, kinds, f);
    world.step(Real(1) / 60);
  }
}

/// A horizontal 8 x 8 plate clamped along its first two rows (a cantilever), bent only by dihedral constraints of
/// strength `bend`; edges rigid. Returns the world's lowest y after 2 s (the free edge's sag below y = 1).
struct Plate {
  World world;
  explicit Plate(const Strength& bend) {
    SolverSettings s;
    s.substeps = 10;
    s.iterations = 2;
    s.linearDamping = 1;
    s.ground.enabled = false;
    world.setSettings(s);
    ClothDef def;
    def.columns = def.rows = 8;
    def.spacing = 0.05f;
    def.origin = Vec3(0, 1, 0);
    for (uint32_t c = 0; c < 16; ++c) def.pinned.push_back(c);  // rows 0 and 1: a clamped edge, not a hinge
    def.bendModel = BendModel::Dihedral;
    def.bend = bend;
    def.mass = 0.1f;
    world.addCloth(def);
  }
  Real lowestY() const {
    Real y = 1e9f;
    for (uint32_t i = 0; i < world.particleCount(); ++i) y = std::min(y, world.positions()[3 * i + 1]);
    return y;
  }
};

/// A 2 x 2 x 2 tet cube of edge 0.2 m on the ground, volume material, with compliant edges, so the volume
/// constraints carry its weight.
struct Block {
  World world;
  SoftBodyDef def = scenes::tetCube(2, 0.2f, Vec3(0, 0, 0));
  explicit Block(const Strength& volume) {
    SolverSettings s;
    s.substeps = 10;
    s.iterations = 2;
    s.linearDamping = 2;
    world.setSettings(s);
    def.edges = Strength{1e-3f, 1};
    def.volume = volume;
    def.density = 1000;
    world.addSoftBody(def);
  }
  double volume() const { return scenes::meshVolume(world, def, 0); }
};

/// A Neo-Hookean bar 0.8 x 0.1 x 0.1 m along x, its x = 0 face pinned, sagging under gravity.
struct Bar {
  World world;
  BodyRange range;
  std::vector<uint32_t> tip;  // the free end's vertices (x = 0.8 at rest)
  explicit Bar(Real youngsModulus, bool gravity = true) {
    SolverSettings s;
    s.substeps = 20;
    s.iterations = 1;
    s.linearDamping = 2;
    s.ground.enabled = false;
    if (!gravity) s.gravity = Vec3::Zero();
    world.setSettings(s);
    const int cells[3] = {8, 1, 1};
    SoftBodyDef def = scenes::tetBox(cells, Vec3(0.8f, 0.1f, 0.1f), Vec3(0, 1, 0));
    def.material = SoftMaterial::NeoHookean;
    def.youngsModulus = youngsModulus;
    def.poissonRatio = 0.3f;
    def.edgeConstraints = false;
    PinRegion start;
    start.centre = Vec3(0, 1, 0);
    start.halfExtents = Vec3(1e-4f, 1, 1);
    def.pinRegions = {start};
    range = world.addSoftBody(def);
    for (uint32_t i = 0; i < range.particleCount; ++i) if (def.positions[3 * i] > Real(0.75)) tip.push_back(i);
  }
  Real tipY() const {  // mean y of the free end's vertices (centre 1.05 m at rest)
    Real sum = 0;
    for (uint32_t i : tip) sum += world.positions()[3 * (range.firstParticle + i) + 1];
    return sum / Real(tip.size());
  }
};

/// Sets every strength of a buildEveryKind world to the values it was built with (scenes/every_kind.h).
void setEveryKindAsBuilt(World& world) {
  for (uint32_t k = 0; k < world.distanceConstraintCount(); ++k) {
    world.setConstraintStrength(ConstraintKind::Distance, k, 1, world.distanceConstraint(k).strength);
  }
  world.setConstraintStrength(ConstraintKind::Dihedral, 0, world.dihedralConstraintCount(), Strength{1e-4f, 0.5f});
  world.setConstraintStrength(ConstraintKind::TetVolume, 0, world.tetVolumeCount(), Strength{1e-6f, 0.9f});
  world.setConstraintStrength(ConstraintKind::TriangleStretch, 0, world.triangleStrainCount(), Strength{1e-3f, 0.9f});
  world.setConstraintStrength(ConstraintKind::TriangleShear, 0, world.triangleStrainCount(), Strength{1e-2f, 0.5f});
  world.setConstraintStrength(ConstraintKind::ShapeMatching, 0, world.shapeMatchingCount(), Strength{1e-3f, 0.5f});
  world.setConstraintStrength(ConstraintKind::SurfaceVolume, 0, world.surfaceVolumeCount(), Strength{0, 1});
  world.setSoftBodyMaterial(3, 2e4f, 0.35f, 1);  // body 3: the Neo-Hookean cube
}

}  // namespace

TEST(StrengthSetter, StifferBendingMakesAClampedPlateSagLess) {
  Plate soft(Strength{100, 0.01f});
  Plate stiffened(Strength{100, 0.01f});
  stiffened.world.setConstraintStrength(ConstraintKind::Dihedral, 0, stiffened.world.dihedralConstraintCount(),
                                        Strength{1e-5f, 1});
  runFrames(soft.world, 120);
  runFrames(stiffened.world, 120);
  const Real sagSoft = 1 - soft.lowestY(), sagStiff = 1 - stiffened.lowestY();
  EXPECT_GT(sagSoft, Real(0.2)) << "a limp plate hangs down";
  EXPECT_LT(sagStiff, sagSoft / 3) << "the stiffened plate sags " << sagStiff << " m, the soft one " << sagSoft;

  // Built stiff or set stiff before the first step: the same world, bit for bit.
  Plate built(Strength{1e-5f, 1});
  runFrames(built.world, 120);
  EXPECT_EQ(scenes::stateHash(built.world), scenes::stateHash(stiffened.world));
}

TEST(StrengthSetter, PbdStiffnessOfBendingActsToo) {
  Plate soft(Strength{1, 0.001f});
  Plate stiffened(Strength{1, 0.001f});
  soft.world.setMethod(Method::Pbd);
  stiffened.world.setMethod(Method::Pbd);
  stiffened.world.setConstraintStrength(ConstraintKind::Dihedral, 0, stiffened.world.dihedralConstraintCount(),
                                        Strength{1, 1});
  runFrames(soft.world, 120);
  runFrames(stiffened.world, 120);
  EXPECT_LT(1 - stiffened.lowestY(), (1 - soft.lowestY()) / 2);
}

TEST(StrengthSetter, SofterVolumeComplianceLetsALoadedBlockCompressMore) {
  Block rigid(Strength{0, 1});
  Block softened(Strength{0, 1});
  softened.world.setConstraintStrength(ConstraintKind::TetVolume, 0, softened.world.tetVolumeCount(),
                                       Strength{1e-6f, 1});
  const double rest = rigid.volume();
  runFrames(rigid.world, 120);
  runFrames(softened.world, 120);
  const double lossRigid = 1 - rigid.volume() / rest, lossSoft = 1 - softened.volume() / rest;
  EXPECT_LT(std::abs(lossRigid), 0.01) << "incompressible tets keep their volume under the block's weight";
  EXPECT_GT(lossSoft, std::max(0.02, 10 * lossRigid)) << "soft " << lossSoft << " vs rigid " << lossRigid;
}

// A change between steps acts from the next step as on a world just loaded from a snapshot (which derives everything
// anew): the volume sweep reads a packed copy of the strengths and k' (PackedTetVolumes), which must follow a strength
// set, and k' when the iteration count changes, after the world has stepped.
TEST(StrengthSetter, AVolumeStrengthOrIterationCountSetBetweenStepsActsAsOnALoadedWorld) {
  for (Method method : {Method::Xpbd, Method::Pbd}) {
    Block stepped(Strength{0, 1});
    stepped.world.setMethod(method);
    runFrames(stepped.world, 20);
    World loaded;
    const std::vector<uint8_t> blob = stepped.world.saveSnapshot();
    loaded.loadSnapshot(blob.data(), blob.size());
    for (World* w : {&stepped.world, &loaded}) {
      w->setConstraintStrength(ConstraintKind::TetVolume, 0, w->tetVolumeCount(), Strength{1e-5f, 0.3f});
      runFrames(*w, 20);
      w->setIterations(5);
      runFrames(*w, 20);
    }
    EXPECT_EQ(scenes::stateHash(stepped.world), scenes::stateHash(loaded)) << "method " << int(method);
  }
}

TEST(StrengthSetter, HigherYoungsModulusSagsLessAndRestStaysAtRest) {
  Bar soft(1e5f), stiffened(1e5f);
  stiffened.world.setSoftBodyMaterial(stiffened.range.body, 1e6f, 0.3f, 1);
  runFrames(soft.world, 120);
  runFrames(stiffened.world, 120);
  const Real sagSoft = 1.05f - soft.tipY(), sagStiff = 1.05f - stiffened.tipY();
  EXPECT_GT(sagSoft, Real(0.05));
  EXPECT_LT(sagStiff, sagSoft / 2) << "E x10: sag " << sagStiff << " m against " << sagSoft << " m";

  Bar built(1e6f);
  runFrames(built.world, 120);
  EXPECT_EQ(scenes::stateHash(built.world), scenes::stateHash(stiffened.world)) << "set = built, bit for bit";

  Bar still(1e5f, false);  // no gravity: rest is an equilibrium for any material
  const std::vector<Real> x0(still.world.positions(), still.world.positions() + 3 * still.world.particleCount());
  still.world.setSoftBodyMaterial(still.range.body, 3e6f, 0.45f, 1);
  runFrames(still.world, 60);
  for (size_t k = 0; k < x0.size(); ++k) ASSERT_NEAR(still.world.positions()[k], x0[k], 1e-5) << k;
}

TEST(StrengthSetter, BuiltValuesChangeNothingBitForBitAndOtherValuesDo) {
  World control, set, changed;
  const scenes::EveryKind kinds = buildStrained(control);
  buildStrained(set);
  buildStrained(changed);
  for (World* w : {&control, &set, &changed}) runEveryKind(*w, kinds, 0, 20);
  setEveryKindAsBuilt(set);
  setEveryKindAsBuilt(changed);
  changed.setConstraintStrength(ConstraintKind::TriangleShear, 0, changed.triangleStrainCount(), Strength{0, 1});
  for (World* w : {&control, &set, &changed}) runEveryKind(*w, kinds, 20, 20);
  EXPECT_EQ(scenes::stateHash(set), scenes::stateHash(control));
  EXPECT_TRUE(set.saveSnapshot() == control.saveSnapshot()) << "every stored strength and k' as built";
  EXPECT_NE(scenes::stateHash(changed), scenes::stateHash(control)) << "a different value must show";
}

TEST(StrengthSetter, EachKindAndTheMaterialChangeTheMotion) {
  World control;
  const scenes::EveryKind kinds = buildStrained(control);
  runEveryKind(control, kinds, 0, 30);
  const uint64_t reference = scenes::stateHash(control);
  const std::vector<std::pair<const char*, void (*)(World&)>> changes = {
      {"distance", [](World& w) { w.setConstraintStrength(ConstraintKind::Distance, 0, w.distanceConstraintCount(), {1e-3f, 0.5f}); }},
      {"dihedral", [](World& w) { w.setConstraintStrength(ConstraintKind::Dihedral, 0, w.dihedralConstraintCount(), {1e-1f, 0.1f}); }},
      {"volume", [](World& w) { w.setConstraintStrength(ConstraintKind::TetVolume, 0, w.tetVolumeCount(), {1e-3f, 0.2f}); }},
      {"stretch", [](World& w) { w.setConstraintStrength(ConstraintKind::TriangleStretch, 0, w.triangleStrainCount(), {0, 1}); }},
      {"shape", [](World& w) { w.setConstraintStrength(ConstraintKind::ShapeMatching, 0, w.shapeMatchingCount(), {1e-1f, 0.1f}); }},
      {"surface", [](World& w) { w.setConstraintStrength(ConstraintKind::SurfaceVolume, 0, w.surfaceVolumeCount(), {1e-2f, 0.2f}); }},
      {"material", [](World& w) { w.setSoftBodyMaterial(3, 1e3f, 0.1f, 0.3f); }},
  };
  for (const auto& [name, change] : changes) {
    World w;
    buildStrained(w);
    change(w);
    runEveryKind(w, kinds, 0, 30);
    EXPECT_NE(scenes::stateHash(w), reference) << name;
  }
}

TEST(StrengthSetter, SnapshotCarriesTheSetValues) {
  World original;
  const scenes::EveryKind kinds = scenes::buildEveryKind(original);
  runEveryKind(original, kinds, 0, 10);
  original.setConstraintStrength(ConstraintKind::Dihedral, 0, original.dihedralConstraintCount(), {1e-2f, 0.3f});
  original.setConstraintStrength(ConstraintKind::TriangleStretch, 0, original.triangleStrainCount(), {5e-3f, 0.7f});
  original.setConstraintStrength(ConstraintKind::SurfaceVolume, 0, 1, {1e-4f, 0.6f});
  original.setSoftBodyMaterial(3, 5e4f, 0.2f, 0.8f);
  const Blob blob = original.saveSnapshot();
  World loaded;
  loaded.loadSnapshot(blob.data(), blob.size());
  runEveryKind(original, kinds, 10, 20);
  runEveryKind(loaded, kinds, 10, 20);
  EXPECT_EQ(scenes::stateHash(loaded), scenes::stateHash(original));
}

TEST(StrengthSetter, ProjectiveDynamicsRefactorsOnlyWhenAValueChanges) {
  Plate plate(Strength{1e-3f, 0.5f});
  World& w = plate.world;
  w.setSolver(Solver::ProjectiveDynamics);
  runFrames(w, 2);
  const uint64_t factored = w.projectiveFactorizationCount();
  EXPECT_GE(factored, 1u);
  w.setConstraintStrength(ConstraintKind::Dihedral, 0, w.dihedralConstraintCount(), Strength{1e-3f, 0.5f});
  runFrames(w, 2);
  EXPECT_EQ(w.projectiveFactorizationCount(), factored) << "the same values: no refactor";
  const Real before = plate.lowestY();
  w.setConstraintStrength(ConstraintKind::Dihedral, 0, w.dihedralConstraintCount(), Strength{1, 0.5f});
  runFrames(w, 2);
  EXPECT_EQ(w.projectiveFactorizationCount(), factored + 1) << "a new bending compliance: one refactor";
  runFrames(w, 60);
  EXPECT_LT(plate.lowestY(), before - Real(0.05)) << "and the softer plate sags further";

  Bar bar(1e5f);
  bar.world.setSolver(Solver::ProjectiveDynamics);
  runFrames(bar.world, 2);
  const uint64_t barFactored = bar.world.projectiveFactorizationCount();
  bar.world.setSoftBodyMaterial(bar.range.body, 1e5f, 0.3f, 1);
  runFrames(bar.world, 1);
  EXPECT_EQ(bar.world.projectiveFactorizationCount(), barFactored);
  bar.world.setSoftBodyMaterial(bar.range.body, 2e5f, 0.3f, 1);
  runFrames(bar.world, 1);
  EXPECT_EQ(bar.world.projectiveFactorizationCount(), barFactored + 1);
}

// The getter returns what the builder took and what the setter set, per kind; strain triangles per unit area (the
// world stores α / rest area: a round trip through the area is exact to float rounding).
TEST(StrengthSetter, TheGetterReturnsTheBuiltAndTheSetValuesOfEveryKind) {
  World world;
  scenes::buildEveryKind(world);
  const ConstraintKind kinds[] = {ConstraintKind::Dihedral,        ConstraintKind::TetVolume,
                                  ConstraintKind::TriangleStretch, ConstraintKind::TriangleShear,
                                  ConstraintKind::ShapeMatching,   ConstraintKind::SurfaceVolume};
  const Strength built[] = {{1e-4f, 0.5f}, {1e-6f, 0.9f}, {1e-3f, 0.9f}, {1e-2f, 0.5f}, {1e-3f, 0.5f}, {0, 1}};
  const uint32_t counts[] = {world.dihedralConstraintCount(), world.tetVolumeCount(),
                             world.triangleStrainCount(),     world.triangleStrainCount(),
                             world.shapeMatchingCount(),      world.surfaceVolumeCount()};
  for (int k = 0; k < 6; ++k) {
    ASSERT_GT(counts[k], 0u) << "kind " << int(kinds[k]);
    const uint32_t last = counts[k] - 1;
    EXPECT_FLOAT_EQ(world.constraintStrength(kinds[k], last).compliance, built[k].compliance) << int(kinds[k]);
    EXPECT_EQ(world.constraintStrength(kinds[k], last).stiffness, built[k].stiffness) << int(kinds[k]);
    world.setConstraintStrength(kinds[k], last, 1, {0.25f, 0.75f});
    EXPECT_FLOAT_EQ(world.constraintStrength(kinds[k], last).compliance, 0.25f) << int(kinds[k]);
    EXPECT_EQ(world.constraintStrength(kinds[k], last).stiffness, 0.75f) << int(kinds[k]);
    if (last > 0) {
      EXPECT_EQ(world.constraintStrength(kinds[k], 0).stiffness, built[k].stiffness) << int(kinds[k]);
    }
  }
  const DistanceConstraintDef d = world.distanceConstraint(3);
  EXPECT_EQ(world.constraintStrength(ConstraintKind::Distance, 3).compliance, d.strength.compliance);
  EXPECT_EQ(world.constraintStrength(ConstraintKind::Distance, 3).stiffness, d.strength.stiffness);
  expectError([&] { (void)world.constraintStrength(ConstraintKind(7), 0); }, {"constraintStrength", "kind"});
  expectError([&] { (void)world.constraintStrength(ConstraintKind::TetVolume, world.tetVolumeCount()); },
              {"constraintStrength", "constraint"});
}

TEST(StrengthSetter, BadInputIsNamedAndLeavesTheWorldUnchanged) {
  World world;
  scenes::buildEveryKind(world);
  const Blob before = world.saveSnapshot();
  const Real nan = std::nanf("");
  const uint32_t volumes = world.tetVolumeCount();
  expectError([&] { world.setConstraintStrength(ConstraintKind(7), 0, 1, {}); }, {"setConstraintStrength", "kind"});
  expectError([&] { world.setConstraintStrength(ConstraintKind::TetVolume, volumes, 1, {}); },
              {"setConstraintStrength", "first+count"});
  expectError([&] { world.setConstraintStrength(ConstraintKind::TetVolume, 1, ~0u, {}); },
              {"setConstraintStrength", "first+count"});  // first + count wraps in 32 bits
  expectError([&] { world.setConstraintStrength(ConstraintKind::Dihedral, 0, 1, {nan, 1}); }, {"compliance"});
  expectError([&] { world.setConstraintStrength(ConstraintKind::Dihedral, 0, 1, {-1, 1}); }, {"compliance"});
  expectError([&] { world.setConstraintStrength(ConstraintKind::ShapeMatching, 0, 1, {0, 1.5f}); }, {"stiffness"});
  expectError([&] { world.setConstraintStrength(ConstraintKind::SurfaceVolume, 0, 1, {INFINITY, 1}); }, {"compliance"});
  expectError([&] { world.setDistanceStrength(0, 1, {0, nan}); }, {"setDistanceStrength", "stiffness"});
  expectError([&] { world.setSoftBodyMaterial(99, 1e5f, 0.3f, 1); }, {"setSoftBodyMaterial", "body"});
  expectError([&] { world.setSoftBodyMaterial(2, 1e5f, 0.3f, 1); }, {"body", "Neo-Hookean"});  // a volume body
  expectError([&] { world.setSoftBodyMaterial(3, 0, 0.3f, 1); }, {"youngsModulus"});
  expectError([&] { world.setSoftBodyMaterial(3, nan, 0.3f, 1); }, {"youngsModulus"});
  expectError([&] { world.setSoftBodyMaterial(3, 1e5f, 0.5f, 1); }, {"poissonRatio"});
  expectError([&] { world.setSoftBodyMaterial(3, 1e5f, -1, 1); }, {"poissonRatio"});
  expectError([&] { world.setSoftBodyMaterial(3, 1e5f, 0.3f, -0.1f); }, {"materialStiffness"});
  EXPECT_TRUE(world.saveSnapshot() == before);
  world.setConstraintStrength(ConstraintKind::TetVolume, volumes, 0, {});  // an empty range at the end is fine
  EXPECT_TRUE(world.saveSnapshot() == before);
}
