// Embind layer: the only C++ that includes Emscripten. It converts JS values to the core's types, turns every C++
// exception into a JS Error carrying the core's message, and hands out zero-copy views of the particle arrays.
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <cmath>
#include <string>

#include "module_tasks.h"
#include "pbd/errors.h"
#include "pbd/world.h"
#include "wasm_values.h"

using emscripten::val;
using namespace pbd;

namespace {

using namespace pbd::js;

/// Bytes currently allocated by malloc: lets JS tests check that create/step/delete cycles do not leak.
double heapBytesInUse() { return double(mallinfo().uordblks); }

// --- The World as JS sees it -------------------------------------------------------------------------------------

Method parseMethod(const std::string& name) {
  if (name == "pbd") return Method::Pbd;
  if (name == "xpbd") return Method::Xpbd;
  throw InvalidArgument("setMethod: method must be 'pbd' or 'xpbd' (got '" + name + "')");
}

Solver parseSolver(const std::string& name) {
  if (name == "gauss-seidel") return Solver::GaussSeidel;
  if (name == "jacobi") return Solver::Jacobi;
  if (name == "coloured-gauss-seidel") return Solver::ColouredGaussSeidel;
  throw InvalidArgument("setSolver: solver must be 'gauss-seidel', 'jacobi' or 'coloured-gauss-seidel' (got '" + name +
                        "')");
}

std::string solverName(Solver s) {
  switch (s) {
    case Solver::GaussSeidel: return "gauss-seidel";
    case Solver::Jacobi: return "jacobi";
    case Solver::ColouredGaussSeidel: break;
  }
  return "coloured-gauss-seidel";
}

class JsWorld {
 public:
  JsWorld() : world_(&moduleTasks()) {}

  void setGravity(double x, double y, double z) {
    guarded("setGravity", [&] { world_.setGravity(Vec3(Real(x), Real(y), Real(z))); });
  }
  val getGravity() const {
    const Vec3& g = world_.settings().gravity;
    val a = val::array();
    for (int k = 0; k < 3; ++k) a.call<void>("push", g[k]);
    return a;
  }
  void setMethod(std::string m) { guarded("setMethod", [&] { world_.setMethod(parseMethod(m)); }); }
  std::string getMethod() const { return world_.settings().method == Method::Pbd ? "pbd" : "xpbd"; }
  void setSubsteps(double n) { guarded("setSubsteps", [&] { world_.setSubsteps(toInt("setSubsteps", "substeps", n)); }); }
  int getSubsteps() const { return world_.settings().substeps; }
  void setIterations(double n) {
    guarded("setIterations", [&] { world_.setIterations(toInt("setIterations", "iterations", n)); });
  }
  int getIterations() const { return world_.settings().iterations; }
  void setIntegrator(std::string name) {
    guarded("setIntegrator", [&] {
      if (name == "implicit-euler") world_.setIntegrator(Integrator::ImplicitEuler);
      else if (name == "bdf2") world_.setIntegrator(Integrator::Bdf2);
      else throw InvalidArgument("setIntegrator: integrator must be 'implicit-euler' or 'bdf2' (got '" + name + "')");
    });
  }
  std::string getIntegrator() const {
    return world_.settings().integrator == Integrator::Bdf2 ? "bdf2" : "implicit-euler";
  }
  void setSolver(std::string name) { guarded("setSolver", [&] { world_.setSolver(parseSolver(name)); }); }
  std::string getSolver() const { return solverName(world_.settings().solver); }
  void setJacobiRelaxation(double omega) {
    guarded("setJacobiRelaxation", [&] { world_.setJacobiRelaxation(Real(omega)); });
  }
  double getJacobiRelaxation() const { return world_.settings().jacobiRelaxation; }
  void setRecordResiduals(bool on) { guarded("setRecordResiduals", [&] { world_.setRecordResiduals(on); }); }
  /// (max, rms) per projection pass of the last step; a view, valid until the next step.
  val residuals() const { return view(world_.residuals(), 2 * size_t(world_.residualCount())); }
  void setLinearDamping(double d) { guarded("setLinearDamping", [&] { world_.setLinearDamping(Real(d)); }); }
  double getLinearDamping() const { return world_.settings().linearDamping; }
  void setRigidDamping(double k) { guarded("setRigidDamping", [&] { world_.setRigidDamping(Real(k)); }); }
  double getRigidDamping() const { return world_.settings().rigidDamping; }

  void setGround(val o) {
    guarded("setGround", [&] {
      const char* fn = "setGround";
      requireObject(fn, "settings", o);
      GroundSettings g = world_.settings().ground;
      if (has(o, "enabled")) g.enabled = o["enabled"].as<bool>();
      g.height = Real(numberField(fn, o, "height", g.height));
      g.thickness = Real(numberField(fn, o, "thickness", g.thickness));
      g.friction = Real(numberField(fn, o, "friction", g.friction));
      g.restitution = Real(numberField(fn, o, "restitution", g.restitution));
      g.restitutionThreshold = Real(numberField(fn, o, "restitutionThreshold", g.restitutionThreshold));
      world_.setGround(g);
    });
  }
  val getGround() const {
    const GroundSettings& g = world_.settings().ground;
    val o = val::object();
    o.set("enabled", g.enabled);
    o.set("height", g.height);
    o.set("thickness", g.thickness);
    o.set("friction", g.friction);
    o.set("restitution", g.restitution);
    o.set("restitutionThreshold", g.restitutionThreshold);
    return o;
  }

  void setSelfCollision(val o) {
    guarded("setSelfCollision", [&] {
      const char* fn = "setSelfCollision";
      requireObject(fn, "settings", o);
      SelfCollisionSettings sc = world_.settings().selfCollision;
      if (has(o, "enabled")) sc.enabled = o["enabled"].as<bool>();
      sc.radius = Real(numberField(fn, o, "radius", sc.radius));
      world_.setSelfCollision(sc);
    });
  }
  val getSelfCollision() const {
    val o = val::object();
    o.set("enabled", world_.settings().selfCollision.enabled);
    o.set("radius", world_.settings().selfCollision.radius);
    return o;
  }
  uint32_t selfCollisionPairCount() const { return world_.selfCollisionPairCount(); }

  uint32_t addParticle(double x, double y, double z, double inverseMass) {
    return guarded("addParticle", [&] { return world_.addParticle(Vec3(Real(x), Real(y), Real(z)), Real(inverseMass)); });
  }
  uint32_t addParticles(val positions, val inverseMasses) {
    return guarded("addParticles", [&] {
      const char* fn = "addParticles";
      const std::vector<Real> xyz = floatArray(fn, "positions", positions);
      if (xyz.size() % 3 != 0) {
        throw InvalidArgument("addParticles: positions length must be a multiple of 3 (got " +
                              std::to_string(xyz.size()) + ")");
      }
      const size_t n = xyz.size() / 3;
      if (inverseMasses.isUndefined()) return world_.addParticles(xyz.data(), nullptr, n);
      const std::vector<Real> w = floatArray(fn, "inverseMasses", inverseMasses);
      if (w.size() != n) {
        throw InvalidArgument("addParticles: inverseMasses length must equal the particle count " + std::to_string(n) +
                              " (got " + std::to_string(w.size()) + ")");
      }
      return world_.addParticles(xyz.data(), w.data(), n);
    });
  }
  void setInverseMass(double i, double w) {
    guarded("setInverseMass", [&] { world_.setInverseMass(toIndex("setInverseMass", "particle", i), Real(w)); });
  }
  void setVelocity(double i, double x, double y, double z) {
    guarded("setVelocity", [&] { world_.setVelocity(toIndex("setVelocity", "particle", i), Vec3(Real(x), Real(y), Real(z))); });
  }
  void setPosition(double i, double x, double y, double z) {
    guarded("setPosition", [&] { world_.setPosition(toIndex("setPosition", "particle", i), Vec3(Real(x), Real(y), Real(z))); });
  }
  void setExternalForce(double i, double x, double y, double z) {
    guarded("setExternalForce", [&] {
      world_.setExternalForce(toIndex("setExternalForce", "particle", i), Vec3(Real(x), Real(y), Real(z)));
    });
  }

  uint32_t addDistanceConstraint(double i, double j, val options) {
    return guarded("addDistanceConstraint", [&] {
      const char* fn = "addDistanceConstraint";
      DistanceConstraintDef d;
      d.i = toIndex(fn, "i", i);
      d.j = toIndex(fn, "j", j);
      if (!options.isUndefined()) {
        const double rest = numberField(fn, options, "restLength", -1);
        d.minLength = Real(numberField(fn, options, "minLength", rest));
        d.maxLength = Real(numberField(fn, options, "maxLength", rest));
        d.strength = strengthOf(fn, options, d.strength);
      }
      return world_.addDistanceConstraint(d);
    });
  }
  uint32_t addDihedralConstraint(double p0, double p1, double p2, double p3, val options) {
    return guarded("addDihedralConstraint", [&] {
      const char* fn = "addDihedralConstraint";
      DihedralConstraintDef d;
      d.p0 = toIndex(fn, "p0", p0);
      d.p1 = toIndex(fn, "p1", p1);
      d.p2 = toIndex(fn, "p2", p2);
      d.p3 = toIndex(fn, "p3", p3);
      if (!options.isUndefined()) {
        d.restAngle = Real(numberField(fn, options, "restAngle", d.restAngle));
        d.strength = strengthOf(fn, options, d.strength);
      }
      return world_.addDihedralConstraint(d);
    });
  }
  uint32_t dihedralConstraintCount() const { return world_.dihedralConstraintCount(); }
  void setDistanceStrength(double first, double count, double compliance, double stiffness) {
    guarded("setDistanceStrength", [&] {
      const char* fn = "setDistanceStrength";
      world_.setDistanceStrength(toIndex(fn, "first", first), toIndex(fn, "count", count),
                                 Strength{Real(compliance), Real(stiffness)});
    });
  }
  uint32_t addAttachment(double particle, double x, double y, double z, val options) {
    return guarded("addAttachment", [&] {
      const char* fn = "addAttachment";
      AttachmentDef a;
      a.particle = toIndex(fn, "particle", particle);
      a.target = Vec3(Real(x), Real(y), Real(z));
      if (!options.isUndefined()) {
        a.strength = strengthOf(fn, options, a.strength);
      }
      return world_.addAttachment(a);
    });
  }
  void setAttachmentTarget(double handle, double x, double y, double z) {
    guarded("setAttachmentTarget", [&] {
      world_.setAttachmentTarget(toIndex("setAttachmentTarget", "attachment", handle), Vec3(Real(x), Real(y), Real(z)));
    });
  }
  void removeAttachment(double handle) {
    guarded("removeAttachment", [&] { world_.removeAttachment(toIndex("removeAttachment", "attachment", handle)); });
  }

  val addCloth(val o) {
    const BodyRange r = guarded("addCloth", [&] {
      const char* fn = "addCloth";
      requireObject(fn, "options", o);
      ClothDef c;
      c.columns = toInt(fn, "columns", numberField(fn, o, "columns", NAN));
      c.rows = toInt(fn, "rows", numberField(fn, o, "rows", NAN));
      c.spacing = Real(numberField(fn, o, "spacing", c.spacing));
      c.origin = vec3Field(fn, o, "origin", c.origin);
      c.axisU = vec3Field(fn, o, "axisU", c.axisU);
      c.axisV = vec3Field(fn, o, "axisV", c.axisV);
      c.mass = Real(numberField(fn, o, "mass", c.mass));
      c.pinned = indexArrayField(fn, o, "pinned");
      c.stretch = strengthField(fn, o, "stretch", c.stretch);
      c.shear = strengthField(fn, o, "shear", c.shear);
      c.bend = strengthField(fn, o, "bend", c.bend);
      if (has(o, "tethers")) {
        if (!o["tethers"].isString()) throw InvalidArgument("addCloth: tethers must be 'none', 'euclidean' or 'geodesic'");
        const std::string mode = o["tethers"].as<std::string>();
        if (mode == "none") c.tethers = TetherMode::None;
        else if (mode == "euclidean") c.tethers = TetherMode::Euclidean;
        else if (mode == "geodesic") c.tethers = TetherMode::Geodesic;
        else throw InvalidArgument("addCloth: tethers must be 'none', 'euclidean' or 'geodesic' (got '" + mode + "')");
      }
      c.tetherSlack = Real(numberField(fn, o, "tetherSlack", c.tetherSlack));
      if (has(o, "bendModel")) {
        const std::string model = o["bendModel"].isString() ? o["bendModel"].as<std::string>() : "";
        if (model == "skip-one") c.bendModel = BendModel::SkipOne;
        else if (model == "dihedral") c.bendModel = BendModel::Dihedral;
        else throw InvalidArgument("addCloth: bendModel must be 'skip-one' or 'dihedral' (got '" + model + "')");
      }
      return world_.addCloth(c);
    });
    return bodyRangeToJs(r);
  }
  val addRope(val o) {
    const BodyRange r = guarded("addRope", [&] {
      const char* fn = "addRope";
      requireObject(fn, "options", o);
      RopeDef d;
      d.segments = toInt(fn, "segments", numberField(fn, o, "segments", NAN));
      d.start = vec3Field(fn, o, "start", d.start);
      d.end = vec3Field(fn, o, "end", d.end);
      d.mass = Real(numberField(fn, o, "mass", d.mass));
      d.pinned = indexArrayField(fn, o, "pinned");
      d.stretch = strengthField(fn, o, "stretch", d.stretch);
      d.bend = strengthField(fn, o, "bend", d.bend);
      return world_.addRope(d);
    });
    return bodyRangeToJs(r);
  }

  uint32_t addCollider(val o) {
    return guarded("addCollider", [&] {
      const char* fn = "addCollider";
      requireObject(fn, "options", o);
      ColliderDef d;
      const std::string shape = has(o, "shape") && o["shape"].isString() ? o["shape"].as<std::string>() : "";
      if (shape == "sphere") d.shape = ColliderShape::Sphere;
      else if (shape == "capsule") d.shape = ColliderShape::Capsule;
      else if (shape == "box") d.shape = ColliderShape::Box;
      else throw InvalidArgument("addCollider: shape must be 'sphere', 'capsule' or 'box' (got '" + shape + "')");
      d.position = vec3Field(fn, o, "position", d.position);
      d.rotation = quatField(fn, o, "rotation", d.rotation);
      d.radius = Real(numberField(fn, o, "radius", d.radius));
      d.halfHeight = Real(numberField(fn, o, "halfHeight", d.halfHeight));
      d.halfExtents = vec3Field(fn, o, "halfExtents", d.halfExtents);
      d.thickness = Real(numberField(fn, o, "thickness", d.thickness));
      d.friction = Real(numberField(fn, o, "friction", d.friction));
      d.restitution = Real(numberField(fn, o, "restitution", d.restitution));
      return world_.addCollider(d);
    });
  }
  void setColliderPose(double k, double px, double py, double pz, double qx, double qy, double qz, double qw) {
    guarded("setColliderPose", [&] {
      world_.setColliderPose(toIndex("setColliderPose", "collider", k), Vec3(Real(px), Real(py), Real(pz)),
                             Quat(Real(qw), Real(qx), Real(qy), Real(qz)));
    });
  }
  uint32_t colliderCount() const { return world_.colliderCount(); }

  val addSoftBody(val o) {
    const BodyRange r = guarded("addSoftBody", [&] {
      const char* fn = "addSoftBody";
      requireObject(fn, "options", o);
      SoftBodyDef d;
      d.positions = floatArray(fn, "positions", o["positions"]);
      d.tets = indexArrayField(fn, o, "tets");
      d.density = Real(numberField(fn, o, "density", d.density));
      d.pinned = indexArrayField(fn, o, "pinned");
      d.edges = strengthField(fn, o, "edges", d.edges);
      d.volume = strengthField(fn, o, "volume", d.volume);
      if (has(o, "volumeOnlyResistsCompression")) d.volumeOnlyResistsCompression = o["volumeOnlyResistsCompression"].as<bool>();
      return world_.addSoftBody(d);
    });
    return bodyRangeToJs(r);
  }
  uint32_t volumeConstraintCount() const { return world_.volumeConstraintCount(); }

  void step(double dt) { guarded("step", [&] { world_.step(Real(dt)); }); }
  val lastStepReport() const {
    const StepReport& r = world_.lastStepReport();
    val o = val::object();
    o.set("rolledBack", r.rolledBack);
    o.set("nonFiniteCount", r.nonFiniteCount);
    o.set("particle", r.particle);
    o.set("body", r.body);
    return o;
  }

  // Zero-copy views into the wasm heap: valid until the next call that may allocate (adding particles or bodies).
  val positions() const { return view(world_.positions(), 3 * size_t(world_.particleCount())); }
  val velocities() const { return view(world_.velocities(), 3 * size_t(world_.particleCount())); }
  val inverseMasses() const { return view(world_.inverseMasses(), world_.particleCount()); }
  uint32_t particleCount() const { return world_.particleCount(); }
  uint32_t constraintCount() const { return world_.constraintCount(); }
  uint32_t tetherCount() const { return world_.tetherCount(); }
  uint32_t contactCount() const { return world_.contactCount(); }

 private:
  static val view(const Real* data, size_t n) { return val(emscripten::typed_memory_view(n, data)); }
  World world_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(pbd) {
  using emscripten::class_;
  using emscripten::function;
  function("configureThreads", &configureThreads);
  function("threadCount", &threadCount);
  function("isThreadedBuild", &isThreadedBuild);
  function("heapBytesInUse", &heapBytesInUse);

  class_<JsWorld>("World")
      .constructor<>()
      .function("setGravity", &JsWorld::setGravity)
      .function("getGravity", &JsWorld::getGravity)
      .function("setMethod", &JsWorld::setMethod)
      .function("getMethod", &JsWorld::getMethod)
      .function("setSubsteps", &JsWorld::setSubsteps)
      .function("getSubsteps", &JsWorld::getSubsteps)
      .function("setIterations", &JsWorld::setIterations)
      .function("getIterations", &JsWorld::getIterations)
      .function("setIntegrator", &JsWorld::setIntegrator)
      .function("getIntegrator", &JsWorld::getIntegrator)
      .function("setSolver", &JsWorld::setSolver)
      .function("getSolver", &JsWorld::getSolver)
      .function("setJacobiRelaxation", &JsWorld::setJacobiRelaxation)
      .function("getJacobiRelaxation", &JsWorld::getJacobiRelaxation)
      .function("setRecordResiduals", &JsWorld::setRecordResiduals)
      .function("residuals", &JsWorld::residuals)
      .function("setLinearDamping", &JsWorld::setLinearDamping)
      .function("getLinearDamping", &JsWorld::getLinearDamping)
      .function("setRigidDamping", &JsWorld::setRigidDamping)
      .function("getRigidDamping", &JsWorld::getRigidDamping)
      .function("setGround", &JsWorld::setGround)
      .function("getGround", &JsWorld::getGround)
      .function("setSelfCollision", &JsWorld::setSelfCollision)
      .function("getSelfCollision", &JsWorld::getSelfCollision)
      .function("selfCollisionPairCount", &JsWorld::selfCollisionPairCount)
      .function("addParticle", &JsWorld::addParticle)
      .function("addParticles", &JsWorld::addParticles)
      .function("setInverseMass", &JsWorld::setInverseMass)
      .function("setVelocity", &JsWorld::setVelocity)
      .function("setPosition", &JsWorld::setPosition)
      .function("setExternalForce", &JsWorld::setExternalForce)
      .function("addDistanceConstraint", &JsWorld::addDistanceConstraint)
      .function("setDistanceStrength", &JsWorld::setDistanceStrength)
      .function("addDihedralConstraint", &JsWorld::addDihedralConstraint)
      .function("dihedralConstraintCount", &JsWorld::dihedralConstraintCount)
      .function("addAttachment", &JsWorld::addAttachment)
      .function("setAttachmentTarget", &JsWorld::setAttachmentTarget)
      .function("removeAttachment", &JsWorld::removeAttachment)
      .function("addCloth", &JsWorld::addCloth)
      .function("addRope", &JsWorld::addRope)
      .function("addSoftBody", &JsWorld::addSoftBody)
      .function("volumeConstraintCount", &JsWorld::volumeConstraintCount)
      .function("addCollider", &JsWorld::addCollider)
      .function("setColliderPose", &JsWorld::setColliderPose)
      .function("colliderCount", &JsWorld::colliderCount)
      .function("step", &JsWorld::step)
      .function("lastStepReport", &JsWorld::lastStepReport)
      .function("positions", &JsWorld::positions)
      .function("velocities", &JsWorld::velocities)
      .function("inverseMasses", &JsWorld::inverseMasses)
      .function("particleCount", &JsWorld::particleCount)
      .function("constraintCount", &JsWorld::constraintCount)
      .function("tetherCount", &JsWorld::tetherCount)
      .function("contactCount", &JsWorld::contactCount);
}
