// An API-sequence fuzzer: each input is a program of World calls. Per call, one opcode byte (% kOps) and then its
// arguments (fuzz_input.h encodings: reals include NaN, ±Inf and huge values; indices are often out of range).
// After every call that throws pbd::InvalidArgument the world must be exactly as before (worldHash); after every
// step every position and velocity must be finite. Valid sizes are bounded (<= kMaxParticles particles, <= 16
// substeps x iterations, <= kMaxSteps steps) so that each input runs in milliseconds; sizes the library must reject
// (negative, overflowing, above its limits) are still passed.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_input.h"
#include "pbd/errors.h"
#include "pbd/world.h"
#include "world_check.h"

namespace {

using pbd::Real;
using pbd::Vec3;
using pbd::fuzz::Input;

constexpr int64_t kMaxParticles = 300;
constexpr int kMaxSteps = 8;

/// A request for `n` new particles that is valid for the library but too big for a fast fuzz run is skipped.
bool affordable(const pbd::World& w, int64_t n) {
  if (n <= 0 || n > int64_t(pbd::kMaxParticles)) return true;  // must be rejected: cheap
  return w.particleCount() + n <= kMaxParticles;
}

int loopCount(Input& in) {  // substeps, iterations: bad values pass through, valid ones are kept small
  const int n = in.smallInt(1, 6);
  return n > 16 && n <= 1000 ? 16 : n;
}

pbd::Quat quat(Input& in) {
  if (in.byte() < 64) return pbd::Quat::Identity();
  const Real x = in.real(), y = in.real(), z = in.real(), w = in.real();
  return pbd::Quat(w, x, y, z);
}

pbd::GroundSettings ground(Input& in) {
  pbd::GroundSettings g;
  const uint8_t mask = in.byte();
  g.enabled = !(mask & 0x80);
  if (mask & 0x01) g.height = in.real();
  if (mask & 0x02) g.thickness = in.real();
  if (mask & 0x04) g.friction = in.real();
  if (mask & 0x08) g.restitution = in.real();
  if (mask & 0x10) g.restitutionThreshold = in.real();
  return g;
}

pbd::SelfCollisionSettings selfCollision(Input& in) {
  pbd::SelfCollisionSettings s;
  s.enabled = in.flag();
  s.radius = in.real();
  return s;
}

std::vector<uint32_t> pins(Input& in, uint32_t n) {
  std::vector<uint32_t> p(in.byte() % 4);
  for (uint32_t& i : p) i = in.index(n);
  return p;
}

std::vector<pbd::PinRegion> regions(Input& in) {
  std::vector<pbd::PinRegion> r(in.byte() % 3);
  for (auto& region : r) region = pbd::fuzz::pinRegion(in);
  return r;
}

class Interpreter {
 public:
  explicit Interpreter(Input& in) : in_(in) {}

  void run() {
    while (!in_.empty()) {
      const uint8_t op = in_.byte();
      const uint64_t before = pbd::fuzz::worldHash(w_);
      bool stepped = false;
      try {
        stepped = call(op);
      } catch (const pbd::InvalidArgument&) {
        PBD_FUZZ_CHECK(pbd::fuzz::worldHash(w_) == before);
        continue;
      }
      if (stepped) {
        pbd::fuzz::checkFinite(w_);
        const pbd::StepReport& r = w_.lastStepReport();
        if (r.rolledBack) PBD_FUZZ_CHECK(r.nonFiniteCount > 0 && r.particle < w_.particleCount());
      }
    }
  }

 private:
  static constexpr int kOps = 36;

  uint32_t particle() { return in_.index(w_.particleCount()); }

  // Returns true when the call was a step.
  bool call(uint8_t op) {
    switch (op % kOps) {
      case 0: w_.setGravity(in_.vec3()); break;
      case 1: w_.setMethod(in_.enumValue<pbd::Method>(2)); break;
      case 2: w_.setSubsteps(loopCount(in_)); break;
      case 3: w_.setIterations(loopCount(in_)); break;
      case 4: w_.setLinearDamping(in_.real()); break;
      case 5: w_.setRigidDamping(in_.real()); break;
      case 6: w_.setGround(ground(in_)); break;
      case 7: w_.setSolver(in_.enumValue<pbd::Solver>(3)); break;
      case 8: w_.setIntegrator(in_.enumValue<pbd::Integrator>(2)); break;
      case 9: w_.setSelfCollision(selfCollision(in_)); break;
      case 10: w_.setJacobiRelaxation(in_.real()); break;
      case 11: w_.setRecordResiduals(in_.flag()); break;
      case 12: setSettings(); break;
      case 13: {
        const Vec3 x = in_.vec3();
        const Real invMass = in_.real();
        const Vec3 v = in_.vec3();
        if (affordable(w_, 1)) w_.addParticle(x, invMass, v);
        break;
      }
      case 14: addParticles(); break;
      case 15: {
        const uint32_t i = particle();
        w_.setInverseMass(i, in_.real());
        break;
      }
      case 16: {
        const uint32_t i = particle();
        w_.setVelocity(i, in_.vec3());
        break;
      }
      case 17: {
        const uint32_t i = particle();
        w_.setPosition(i, in_.vec3());
        break;
      }
      case 18: {
        const uint32_t i = particle();
        w_.setExternalForce(i, in_.vec3());
        break;
      }
      case 19: {
        pbd::DistanceConstraintDef d;
        d.i = particle();
        d.j = particle();
        d.minLength = in_.real();
        d.maxLength = in_.real();
        d.strength = pbd::fuzz::strength(in_);
        const uint32_t k = w_.addDistanceConstraint(d);
        PBD_FUZZ_CHECK(k + 1 == w_.distanceConstraintCount());
        break;
      }
      case 20: {
        const uint32_t first = in_.index(w_.distanceConstraintCount());
        const uint32_t count = in_.index(w_.distanceConstraintCount() + 1);
        w_.setDistanceStrength(first, count, pbd::fuzz::strength(in_));
        break;
      }
      case 21: {
        pbd::DihedralConstraintDef d;
        d.p0 = particle(), d.p1 = particle(), d.p2 = particle(), d.p3 = particle();
        if (in_.flag()) d.restAngle = in_.real();
        d.strength = pbd::fuzz::strength(in_);
        w_.addDihedralConstraint(d);
        break;
      }
      case 22: {
        pbd::AttachmentDef a;
        a.particle = particle();
        a.target = in_.vec3();
        a.strength = pbd::fuzz::strength(in_);
        const uint32_t h = w_.addAttachment(a);
        if (h + 1 > attachmentHandles_) attachmentHandles_ = h + 1;
        break;
      }
      case 23: {
        const uint32_t h = in_.index(attachmentHandles_);
        w_.setAttachmentTarget(h, in_.vec3());
        break;
      }
      case 24: w_.removeAttachment(in_.index(attachmentHandles_)); break;
      case 25: addCollider(); break;
      case 26: {
        const uint32_t c = in_.index(w_.colliderCount());
        const Vec3 x = in_.vec3();
        w_.setColliderPose(c, x, quat(in_));
        break;
      }
      case 27: addCloth(); break;
      case 28: addRope(); break;
      case 29: addSoftBody(); break;
      case 30: addTriangleMesh(); break;
      case 31: {
        pbd::ShapeMatchingDef d;
        d.particles.resize(in_.byte() % 7);
        for (uint32_t& i : d.particles) i = particle();
        d.strength = pbd::fuzz::strength(in_);
        const uint32_t before = w_.shapeMatchingCount();
        PBD_FUZZ_CHECK(w_.addShapeMatching(d) == before);
        break;
      }
      case 32: case 33: {
        const Real dt = in_.byte() < 224 ? Real(1) / 60 : in_.real();
        if (steps_ >= kMaxSteps) break;
        ++steps_;
        w_.step(dt);
        return true;
      }
      case 34: w_.removeCollider(in_.index(w_.colliderCount() + 1)); break;  // one past the end: refused
      default: queries(); break;
    }
    return false;
  }

  void setSettings() {
    pbd::SolverSettings s = w_.settings();
    const unsigned mask = in_.byte() | unsigned(in_.byte()) << 8;
    if (mask & 0x0001) s.method = in_.enumValue<pbd::Method>(2);
    if (mask & 0x0002) s.solver = in_.enumValue<pbd::Solver>(3);
    if (mask & 0x0004) s.integrator = in_.enumValue<pbd::Integrator>(2);
    if (mask & 0x0008) s.jacobiRelaxation = in_.real();
    if (mask & 0x0010) s.substeps = loopCount(in_);
    if (mask & 0x0020) s.iterations = loopCount(in_);
    if (mask & 0x0040) s.gravity = in_.vec3();
    if (mask & 0x0080) s.linearDamping = in_.real();
    if (mask & 0x0100) s.rigidDamping = in_.real();
    if (mask & 0x0200) s.ground = ground(in_);
    if (mask & 0x0400) s.selfCollision = selfCollision(in_);
    w_.setSettings(s);
  }

  void addParticles() {
    const uint8_t b = in_.byte();
    const size_t n = b % 9;  // 0 must be rejected
    std::vector<Real> xyz(3 * n), invMass(n);
    for (Real& x : xyz) x = in_.real();
    const bool masses = b & 0x10;
    if (masses) {
      for (Real& m : invMass) m = in_.real();
    }
    if (!affordable(w_, int64_t(n))) return;
    const uint32_t count = w_.particleCount();
    const uint32_t first = w_.addParticles((b & 0x20) ? nullptr : xyz.data(), masses ? invMass.data() : nullptr, n);
    PBD_FUZZ_CHECK(first == count && w_.particleCount() == count + n);
  }

  void addCollider() {
    pbd::ColliderDef c;
    const uint8_t mask = in_.byte();
    c.shape = in_.enumValue<pbd::ColliderShape>(5);  // TriangleMesh without arrays: refused
    c.position = in_.vec3();
    if (mask & 0x01) c.rotation = quat(in_);
    if (mask & 0x02) c.radius = in_.real();
    if (mask & 0x04) c.halfHeight = in_.real();
    if (mask & 0x08) c.halfExtents = in_.vec3();
    if (mask & 0x10) c.thickness = in_.real();
    if (mask & 0x20) c.friction = in_.real();
    if (mask & 0x40) c.restitution = in_.real();
    const uint32_t before = w_.colliderCount();
    PBD_FUZZ_CHECK(w_.addCollider(c) == before);
  }

  void addCloth() {
    pbd::ClothDef d;
    d.columns = in_.smallInt(2, 12);
    d.rows = in_.smallInt(2, 12);
    const unsigned mask = in_.byte() | unsigned(in_.byte()) << 8;
    if (mask & 0x0001) d.spacing = in_.real();
    if (mask & 0x0002) d.origin = in_.vec3();
    if (mask & 0x0004) d.axisU = in_.vec3();
    if (mask & 0x0008) d.axisV = in_.vec3();
    if (mask & 0x0010) d.mass = in_.real();
    if (mask & 0x0020) d.pinned = pins(in_, 144);
    if (mask & 0x0040) d.pinRegions = regions(in_);
    if (mask & 0x0080) d.model = in_.enumValue<pbd::ClothModel>(2);
    if (mask & 0x0100) d.stretch = pbd::fuzz::strength(in_);
    if (mask & 0x0200) d.shear = pbd::fuzz::strength(in_);
    if (mask & 0x0400) d.bend = pbd::fuzz::strength(in_);
    if (mask & 0x0800) d.bendModel = in_.enumValue<pbd::BendModel>(2);
    if (mask & 0x1000) d.tethers = in_.enumValue<pbd::TetherMode>(3);
    if (mask & 0x2000) d.tetherSlack = in_.real();
    if (d.columns >= 2 && d.rows >= 2 && !affordable(w_, int64_t(d.columns) * d.rows)) return;
    checkRange(w_.addCloth(d));
  }

  void addRope() {
    pbd::RopeDef d;
    d.segments = in_.smallInt(1, 30);
    const uint8_t mask = in_.byte();
    if (mask & 0x01) d.start = in_.vec3();
    if (mask & 0x02) d.end = in_.vec3();
    if (mask & 0x04) d.mass = in_.real();
    if (mask & 0x08) d.pinned = pins(in_, 31);
    if (mask & 0x10) d.pinRegions = regions(in_);
    if (mask & 0x20) d.stretch = pbd::fuzz::strength(in_);
    if (mask & 0x40) d.bend = pbd::fuzz::strength(in_);
    if (d.segments >= 1 && !affordable(w_, int64_t(d.segments) + 1)) return;
    checkRange(w_.addRope(d));
  }

  // A tet (4 vertices) or a cube of 5 tets (8 vertices), scaled and moved, corners optionally fuzzed one by one.
  void addSoftBody() {
    static const Real kCube[24] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1};
    static const uint32_t kCubeTets[20] = {0, 1, 2, 4, 1, 3, 2, 7, 1, 2, 4, 7, 1, 5, 7, 4, 2, 4, 7, 6};
    pbd::SoftBodyDef d;
    const uint8_t shape = in_.byte();
    const Real scale = in_.real();
    const Vec3 offset = in_.vec3();
    const bool cube = shape & 1;
    const size_t n = cube ? 8 : 5;  // the tet: cube corners 0, 1, 2 and 4 (corner 3 is dropped below)
    d.positions.assign(kCube, kCube + 3 * n);
    for (size_t i = 0; i < 3 * n; ++i) d.positions[i] = d.positions[i] * scale + offset[i % 3];
    if (!cube) d.positions.erase(d.positions.begin() + 9, d.positions.begin() + 12);
    if (cube) d.tets.assign(kCubeTets, kCubeTets + 20);
    else d.tets = {0, 1, 2, 3};
    if (shape & 2) {
      for (Real& x : d.positions) {
        if (in_.byte() >= 128) x = in_.real();
      }
    }
    const unsigned mask = in_.byte() | unsigned(in_.byte()) << 8;
    const uint32_t verts = uint32_t(d.positions.size() / 3);
    if (mask & 0x0001) d.density = in_.real();
    if (mask & 0x0002) d.pinned = pins(in_, verts);
    if (mask & 0x0004) d.pinRegions = regions(in_);
    if (mask & 0x0008) d.edgeConstraints = in_.flag();
    if (mask & 0x0010) d.edges = pbd::fuzz::strength(in_);
    if (mask & 0x0020) d.material = in_.enumValue<pbd::SoftMaterial>(2);
    if (mask & 0x0040) d.volume = pbd::fuzz::strength(in_);
    if (mask & 0x0080) d.volumeOnlyResistsCompression = in_.flag();
    if (mask & 0x0100) d.youngsModulus = in_.real();
    if (mask & 0x0200) d.poissonRatio = in_.real();
    if (mask & 0x0400) d.materialStiffness = in_.real();
    if (mask & 0x0800) d.shapeMatching = in_.flag();
    if (mask & 0x1000) d.shapeMatchingStrength = pbd::fuzz::strength(in_);
    if (!affordable(w_, verts)) return;
    checkRange(w_.addSoftBody(d));
  }

  // An octahedron (closed, 6 vertices, 8 triangles) or a single triangle, scaled and moved.
  void addTriangleMesh() {
    static const Real kOcta[18] = {1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1};
    static const uint32_t kOctaTris[24] = {0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5};
    pbd::TriangleMeshDef d;
    const uint8_t shape = in_.byte();
    const Real scale = in_.real();
    const Vec3 offset = in_.vec3();
    const bool octa = !(shape & 1);
    const size_t n = octa ? 6 : 3;
    d.positions.assign(kOcta, kOcta + 3 * n);
    for (size_t i = 0; i < 3 * n; ++i) d.positions[i] = d.positions[i] * scale + offset[i % 3];
    if (octa) d.triangles.assign(kOctaTris, kOctaTris + 24);
    else d.triangles = {0, 2, 1};
    if (shape & 2) {
      for (Real& x : d.positions) {
        if (in_.byte() >= 128) x = in_.real();
      }
    }
    if (shape & 4) {
      for (uint32_t& t : d.triangles) {
        if (in_.byte() >= 192) t = in_.index(uint32_t(n));
      }
    }
    const unsigned mask = in_.byte() | unsigned(in_.byte()) << 8;
    if (mask & 0x0001) d.weldTolerance = (mask & 0x8000) ? Real(-1) : in_.real();
    if (mask & 0x0002) d.mass = in_.real();
    if (mask & 0x0004) d.pinned = pins(in_, uint32_t(n));
    if (mask & 0x0008) d.pinRegions = regions(in_);
    if (mask & 0x0010) d.model = in_.enumValue<pbd::ClothModel>(2);
    if (mask & 0x0020) d.stretch = pbd::fuzz::strength(in_);
    if (mask & 0x0040) d.shear = pbd::fuzz::strength(in_);
    if (mask & 0x0080) d.bending = in_.flag();
    if (mask & 0x0100) d.bend = pbd::fuzz::strength(in_);
    if (mask & 0x0200) d.tethers = in_.enumValue<pbd::TetherMode>(3);
    if (mask & 0x0400) d.tetherSlack = in_.real();
    if (mask & 0x0800) d.pressure = in_.real();
    if (mask & 0x1000) d.volume = pbd::fuzz::strength(in_);
    if (!affordable(w_, int64_t(n))) return;
    const pbd::MeshBody body = w_.addTriangleMesh(d);
    PBD_FUZZ_CHECK(body.renderToParticle.size() == n);
    checkRange(body.range);
  }

  void checkRange(const pbd::BodyRange& r) {
    PBD_FUZZ_CHECK(r.particleCount > 0 && r.firstParticle + r.particleCount == w_.particleCount());
    PBD_FUZZ_CHECK(r.firstConstraint + r.constraintCount == w_.distanceConstraintCount());
    pbd::fuzz::checkFinite(w_);
  }

  void queries() {
    const uint8_t which = in_.byte();
    const uint32_t k = in_.index(w_.distanceConstraintCount());
    switch (which % 4) {
      case 0: {
        const pbd::DistanceConstraintDef d = w_.distanceConstraint(k);
        PBD_FUZZ_CHECK(d.i < w_.particleCount() && d.j < w_.particleCount() && d.i != d.j);
        PBD_FUZZ_CHECK(d.minLength >= 0 && d.minLength <= d.maxLength);
        break;
      }
      case 1: PBD_FUZZ_CHECK(w_.distanceConstraintColour(k) <= 32); break;
      case 2: {
        const uint32_t g = in_.index(w_.surfaceVolumeCount());
        (void)w_.surfaceVolume(g);
        (void)w_.surfaceRestVolume(g);
        break;
      }
      default: {
        const uint32_t n = w_.residualCount();
        if (n) PBD_FUZZ_CHECK(w_.residuals() != nullptr);
        (void)w_.contactCount();
        (void)w_.selfCollisionPairCount();
        break;
      }
    }
  }

  Input& in_;
  pbd::World w_;
  uint32_t attachmentHandles_ = 0;
  int steps_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in(data, size);
  Interpreter(in).run();
  return 0;
}
