// The C++-only rows of the input-validation table (docs/validation.md, test column `native`): inputs that the JS
// binding cannot produce (enum values outside the enum, null pointers, sizes above the limits, functions JS does not
// expose). Each row names a case below; the call must throw pbd::InvalidArgument whose message contains the row's
// fragment and leave the world exactly as it was. A native row without a case, or a case without a row, fails.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "pbd/embedding.h"
#include "pbd/errors.h"
#include "pbd/world.h"
#include "scenes/scenes.h"
#include "solvers/projective_dynamics.h"

using namespace pbd;

namespace {

const Real kNaN = std::numeric_limits<Real>::quiet_NaN();
const Real kInf = std::numeric_limits<Real>::infinity();

struct Row {
  std::string key, fragment, test;
};

/// The table rows of docs/validation.md: | `key` | call | `fragment` | test |. (The wasm build under Node reads the
/// checkout through NODERAWFS.)
std::vector<Row> tableRows() {
  const std::string path = PBD_SOURCE_DIR "/docs/validation.md";
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  const std::regex row(R"(^\|\s*`([^`]+)`\s*\|.*\|\s*`([^`]+)`\s*\|\s*(\w+)\s*\|\s*$)");
  std::vector<Row> rows;
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, row)) rows.push_back({m[1], m[2], m[3]});
  }
  return rows;
}

/// The world every case runs against: a 4x4 hanging cloth (two corners pinned) with one attachment, stepped once.
struct Fixture {
  World world;
  Fixture() {
    scenes::hangingCloth(world, 4);
    AttachmentDef a;
    a.particle = 5;
    a.target = Vec3(0, 1, 0);
    world.addAttachment(a);
    world.step(1.0f / 60);
  }
};

struct Snapshot {
  uint64_t hash;
  uint32_t particles, constraints, colliders, dihedrals;
  int substeps, iterations;
  Method method;
  Solver solver;
  Integrator integrator;
  DistanceSweep distanceSweep;
  bool operator==(const Snapshot&) const = default;
};

Snapshot snapshot(const World& w) {
  const SolverSettings& s = w.settings();
  return {scenes::stateHash(w), w.particleCount(), w.constraintCount(), w.colliderCount(), w.dihedralConstraintCount(),
          s.substeps, s.iterations, s.method, s.solver, s.integrator, s.distanceSweep};
}

ClothDef smallCloth() {
  ClothDef c;
  c.columns = c.rows = 3;
  c.pinned = {0};
  return c;
}

TriangleMeshDef oneTriangle() {
  TriangleMeshDef d;
  d.positions = {0, 0, 0, 1, 0, 0, 0, 0, 1};
  d.triangles = {0, 1, 2};
  d.pinned = {0};
  return d;
}

using Case = std::function<void(World&)>;

const std::map<std::string, Case>& cases() {
  static const std::map<std::string, Case> table = {
      {"native-set-method-enum", [](World& w) { w.setMethod(Method(7)); }},
      {"native-set-solver-enum", [](World& w) { w.setSolver(Solver(99)); }},
      {"native-set-integrator-enum", [](World& w) { w.setIntegrator(Integrator(9)); }},
      {"native-set-distance-sweep-enum", [](World& w) { w.setDistanceSweep(DistanceSweep(4)); }},
      {"native-set-pool-use-enum", [](World& w) { w.setPoolUse(PoolUse(5)); }},
      {"native-settings-iterations", [](World& w) {
         SolverSettings s;
         s.iterations = 0;
         w.setSettings(s);
       }},
      {"native-settings-gravity", [](World& w) {
         SolverSettings s;
         s.gravity.x() = kNaN;
         w.setSettings(s);
       }},
      {"native-settings-hierarchy", [](World& w) {
         SolverSettings s;
         s.hierarchyLevels = 0;
         w.setSettings(s);
       }},
      {"native-settings-jacobi", [](World& w) {
         SolverSettings s;
         s.jacobiRelaxation = 3;
         w.setSettings(s);
       }},
      {"native-particle-velocity", [](World& w) { w.addParticle(Vec3::Zero(), 1, Vec3(0, 0, kInf)); }},
      {"native-particles-null", [](World& w) { w.addParticles(nullptr, nullptr, 2); }},
      {"native-particles-limit", [](World& w) {
         const Real xyz[3] = {0, 0, 0};  // never read: the count is rejected first
         w.addParticles(xyz, nullptr, size_t(kMaxParticles) + 1);
       }},
      {"native-distance-constraint-index", [](World& w) { w.distanceConstraint(1u << 30); }},
      {"native-distance-colour-index", [](World& w) { w.distanceConstraintColour(1u << 30); }},
      {"native-collider-shape-enum", [](World& w) {
         ColliderDef d;
         d.shape = ColliderShape(9);
         w.addCollider(d);
       }},
      {"native-cloth-tethers-enum", [](World& w) {
         ClothDef c = smallCloth();
         c.tethers = TetherMode(5);
         w.addCloth(c);
       }},
      {"native-cloth-bend-model-enum", [](World& w) {
         ClothDef c = smallCloth();
         c.bendModel = BendModel(3);
         w.addCloth(c);
       }},
      {"native-cloth-model-enum", [](World& w) {
         ClothDef c = smallCloth();
         c.model = ClothModel(7);
         w.addCloth(c);
       }},
      {"native-pin-region-shape-enum", [](World& w) {
         ClothDef c = smallCloth();
         PinRegion r;
         r.shape = PinRegion::Shape(4);
         c.pinRegions = {r};
         w.addCloth(c);
       }},
      {"native-soft-material-enum", [](World& w) {
         SoftBodyDef d;
         d.positions = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
         d.tets = {0, 1, 2, 3};
         d.material = SoftMaterial(5);
         w.addSoftBody(d);
       }},
      {"native-mesh-tethers-enum", [](World& w) {
         TriangleMeshDef d = oneTriangle();
         d.tethers = TetherMode(5);  // was accepted (and built as geodesic) before the table found it
         w.addTriangleMesh(d);
       }},
      {"native-step-hierarchy-too-small", [](World&) {
         World tiny;  // a pinned particle and two links: level 1 would keep 2 of 3 particles
         tiny.addParticle(Vec3::Zero(), 0);
         for (uint32_t i = 1; i < 3; ++i) {
           tiny.addParticle(Vec3(Real(0.1f * i), 0, 0), 1);
           DistanceConstraintDef d;
           d.i = i - 1, d.j = i;
           tiny.addDistanceConstraint(d);
         }
         tiny.setSolver(Solver::Hierarchical);
         tiny.setHierarchy(3, 2, 2);
         tiny.step(1.0f / 60);
       }},
      {"native-pd-not-positive-definite", [](World&) {
         const std::vector<Real> inverseMasses = {1, 1};
         DistanceConstraint d{0, 1, 1, 1, 1e-30f, 1, 1};
         PdElement e;
         pdEdgeElement(d, 0, inverseMasses.data(), e);
         e.massScale = 1e200;  // no cap: w = 1e30 swamps the 1 kg masses (3600 + 1e30 rounds to 1e30)
         ProjectiveSystem system;
         system.scratch().assign(1, e);
         system.update(inverseMasses);
         system.prepare(true, 3600);
       }},
      {"native-apply-embedding-sizes", [](World&) {
         TetEmbedding e;
         e.tet = {0};
         e.bary = {1, 0, 0};
         const uint32_t tets[4] = {0, 1, 2, 3};
         float sim[12] = {}, out[3];
         applyEmbedding(e, tets, sim, out);
       }},
      {"native-apply-embedding-tet", [](World&) {
         TetEmbedding e;
         e.tet = {1};
         e.bary = {1, 0, 0, 0};
         const uint32_t tets[4] = {0, 1, 2, 3};
         float sim[12] = {}, out[3];
         applyEmbedding(e, tets, sim, out);
       }},
      {"native-apply-embedding-null", [](World&) {
         TetEmbedding e;
         e.tet = {0};
         e.bary = {1, 0, 0, 0};
         const uint32_t tets[4] = {0, 1, 2, 3};
         applyEmbedding(e, tets, nullptr, nullptr);
       }},
  };
  return table;
}

std::vector<Row> nativeRows() {
  std::vector<Row> out;
  for (const Row& r : tableRows()) {
    if (r.test == "native") out.push_back(r);
  }
  return out;
}

}  // namespace

TEST(ValidationTable, EveryNativeRowHasACaseAndEveryCaseARow) {
  const std::vector<Row> rows = nativeRows();
  EXPECT_GE(rows.size(), cases().size());
  for (const Row& r : rows) EXPECT_TRUE(cases().count(r.key)) << "row without a case: " << r.key;
  for (const auto& [key, call] : cases()) {
    bool found = false;
    for (const Row& r : rows) found = found || r.key == key;
    EXPECT_TRUE(found) << "case without a native row: " << key;
  }
}

TEST(ValidationTable, EveryNativeRowIsRejectedByNameAndLeavesTheWorldUnchanged) {
  const std::vector<Row> rows = nativeRows();
  ASSERT_FALSE(rows.empty());
  for (const Row& r : rows) {
    const auto it = cases().find(r.key);
    if (it == cases().end()) continue;  // reported by the test above
    Fixture f;
    const Snapshot before = snapshot(f.world);
    try {
      it->second(f.world);
      ADD_FAILURE() << r.key << ": no exception; expected one containing \"" << r.fragment << '"';
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(r.fragment), std::string::npos) << r.key << ": " << e.what();
    }
    EXPECT_TRUE(snapshot(f.world) == before) << r.key << ": the world changed";
    f.world.step(1.0f / 60);  // and it still steps to a finite state
    for (uint32_t k = 0; k < 3 * f.world.particleCount(); ++k) ASSERT_TRUE(std::isfinite(f.world.positions()[k])) << r.key;
  }
}
