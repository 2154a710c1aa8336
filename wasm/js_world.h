// The World as JS sees it: every entry point converts its JS arguments, runs the core's call inside guarded() (so a
// C++ exception becomes a JS Error with the core's message) and converts the result back.
#pragma once

#include <emscripten/val.h>

#include <cctype>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "body_defs.h"
#include "module_tasks.h"
#include "pbd/errors.h"
#include "pbd/world.h"
#include "wasm_values.h"

namespace pbd::js {

inline constexpr const char* kMethodNames[] = {"pbd", "xpbd"};
inline constexpr Method kMethods[] = {Method::Pbd, Method::Xpbd};
inline constexpr const char* kBodyJointNames[] = {"none", "ball", "hinge"};
inline constexpr BodyJoint kBodyJoints[] = {BodyJoint::None, BodyJoint::Ball, BodyJoint::Hinge};
inline constexpr const char* kPoolUseNames[] = {"always", "measured"};
inline constexpr PoolUse kPoolUses[] = {PoolUse::Always, PoolUse::Measured};
inline constexpr const char* kSolverNames[] = {"gauss-seidel", "jacobi", "coloured-gauss-seidel", "hierarchical",
                                               "projective-dynamics", "vbd"};
inline constexpr Solver kSolvers[] = {Solver::GaussSeidel, Solver::Jacobi, Solver::ColouredGaussSeidel,
                                      Solver::Hierarchical, Solver::ProjectiveDynamics,
                                      Solver::VertexBlockDescent};
inline constexpr const char* kIntegratorNames[] = {"implicit-euler", "bdf2"};
inline constexpr Integrator kIntegrators[] = {Integrator::ImplicitEuler, Integrator::Bdf2};
inline constexpr const char* kDistanceSweepNames[] = {"forward", "symmetric"};
inline constexpr DistanceSweep kDistanceSweeps[] = {DistanceSweep::Forward, DistanceSweep::Symmetric};
inline constexpr const char* kConstraintKindNames[] = {"distance", "dihedral", "tet-volume", "triangle-stretch",
                                                       "triangle-shear", "shape-matching", "surface-volume"};
inline constexpr ConstraintKind kConstraintKinds[] = {
    ConstraintKind::Distance, ConstraintKind::Dihedral, ConstraintKind::TetVolume, ConstraintKind::TriangleStretch,
    ConstraintKind::TriangleShear, ConstraintKind::ShapeMatching, ConstraintKind::SurfaceVolume};

/// A core message about a mesh collider with the argument names JS callers use (positions, indices).
inline std::string jsMeshArgumentNames(std::string message) {
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"meshPositions", "positions"},
                                 {"meshTriangles", "indices"}, {"triangles[", "indices["}}) {
    for (size_t at = message.find(from); at != std::string::npos; at = message.find(from, at + to.size())) {
      message.replace(at, from.size(), to);
    }
  }
  return message;
}

/// A core message naming element k of `array` ("constraints[3].maxDistance") with the name a JS caller gave it
/// ("maxDistance[3]"; the particle field is the "particles" array).
inline std::string jsElementNames(std::string message, const std::string& array) {
  const size_t at = message.find(array + "[");
  if (at == std::string::npos) return message;
  const size_t close = message.find("].", at);
  if (close == std::string::npos) return message;
  size_t end = close + 2;
  while (end < message.size() && std::isalpha(static_cast<unsigned char>(message[end]))) ++end;
  std::string field = message.substr(close + 2, end - close - 2);
  if (field == "particle") field = "particles";
  const std::string index = message.substr(at + array.size(), close + 1 - at - array.size());  // "[3]"
  return message.replace(at, end - at, field + index);
}

/// Field `key` of options `o` into every def's `member`: a number for all, or an array of one per def.
template <class Def>
void perConstraint(const char* fn, const val& o, const char* key, std::vector<Def>& defs, Real Def::*member) {
  const val v = o[key];
  if (v.isUndefined()) return;
  if (v.isNumber()) {
    for (Def& d : defs) d.*member = Real(v.as<double>());
    return;
  }
  const std::vector<Real> values = floatArray(fn, key, v);
  if (values.size() != defs.size()) {
    throw InvalidArgument(std::string(fn) + ": " + key + " must be a number or one number per particle (got " +
                          std::to_string(values.size()) + " for " + std::to_string(defs.size()) + " particles)");
  }
  for (size_t k = 0; k < defs.size(); ++k) defs[k].*member = values[k];
}

class JsWorld {
 public:
  // The package owns its pool: each step runs on it or on this thread, whichever measures faster (PoolUse).
  JsWorld() : world_(&moduleTasks()) { world_.setPoolUse(PoolUse::Measured); }

  void setGravity(double x, double y, double z) {
    guarded("setGravity", [&] { world_.setGravity(Vec3(Real(x), Real(y), Real(z))); });
  }
  val getGravity() const {
    const Vec3& g = world_.settings().gravity;
    val a = val::array();
    for (int k = 0; k < 3; ++k) a.call<void>("push", g[k]);
    return a;
  }
  void setMethod(val m) {
    guarded("setMethod", [&] { world_.setMethod(enumValue("setMethod", "method", m, kMethodNames, kMethods)); });
  }
  std::string getMethod() const { return enumName(world_.settings().method, kMethodNames, kMethods); }
  void setSubsteps(double n) { guarded("setSubsteps", [&] { world_.setSubsteps(toInt("setSubsteps", "substeps", n)); }); }
  int getSubsteps() const { return world_.settings().substeps; }
  void setIterations(double n) {
    guarded("setIterations", [&] { world_.setIterations(toInt("setIterations", "iterations", n)); });
  }
  int getIterations() const { return world_.settings().iterations; }
  void setIntegrator(val name) {
    guarded("setIntegrator", [&] {
      world_.setIntegrator(enumValue("setIntegrator", "integrator", name, kIntegratorNames, kIntegrators));
    });
  }
  std::string getIntegrator() const { return enumName(world_.settings().integrator, kIntegratorNames, kIntegrators); }
  void setDistanceSweep(val name) {
    guarded("setDistanceSweep", [&] {
      world_.setDistanceSweep(
          enumValue("setDistanceSweep", "distanceSweep", name, kDistanceSweepNames, kDistanceSweeps));
    });
  }
  std::string getDistanceSweep() const {
    return enumName(world_.settings().distanceSweep, kDistanceSweepNames, kDistanceSweeps);
  }
  void setSolver(val name) {
    guarded("setSolver", [&] { world_.setSolver(enumValue("setSolver", "solver", name, kSolverNames, kSolvers)); });
  }
  std::string getSolver() const { return enumName(world_.settings().solver, kSolverNames, kSolvers); }
  void setJacobiRelaxation(double omega) {
    guarded("setJacobiRelaxation", [&] { world_.setJacobiRelaxation(Real(omega)); });
  }
  double getJacobiRelaxation() const { return world_.settings().jacobiRelaxation; }
  /// { levels, parents, coarseIterations }: missing fields keep their current values.
  void setHierarchy(val o) {
    guarded("setHierarchy", [&] {
      const char* fn = "setHierarchy";
      requireObject(fn, "settings", o);
      const SolverSettings& s = world_.settings();
      world_.setHierarchy(toInt(fn, "levels", numberField(fn, o, "levels", s.hierarchyLevels)),
                          toInt(fn, "parents", numberField(fn, o, "parents", s.hierarchyParents)),
                          toInt(fn, "coarseIterations", numberField(fn, o, "coarseIterations", s.coarseIterations)));
    });
  }
  val getHierarchy() const {
    const SolverSettings& s = world_.settings();
    val o = val::object();
    o.set("levels", s.hierarchyLevels);
    o.set("parents", s.hierarchyParents);
    o.set("coarseIterations", s.coarseIterations);
    return o;
  }
  void setRecordResiduals(bool on) { guarded("setRecordResiduals", [&] { world_.setRecordResiduals(on); }); }
  /// (max, rms) per projection pass of the last step; a view, valid until the next step.
  val residuals() const { return view(world_.residuals(), 2 * size_t(world_.residualCount())); }
  void setLinearDamping(double d) { guarded("setLinearDamping", [&] { world_.setLinearDamping(Real(d)); }); }
  double getLinearDamping() const { return world_.settings().linearDamping; }
  void setRigidDamping(double k) { guarded("setRigidDamping", [&] { world_.setRigidDamping(Real(k)); }); }
  double getRigidDamping() const { return world_.settings().rigidDamping; }
  void setChebyshevRho(double rho) { guarded("setChebyshevRho", [&] { world_.setChebyshevRho(Real(rho)); }); }
  double getChebyshevRho() const { return world_.settings().chebyshevRho; }

  void setGround(val o) {
    guarded("setGround", [&] {
      const char* fn = "setGround";
      requireObject(fn, "settings", o);
      GroundSettings g = world_.settings().ground;
      if (has(o, "enabled")) g.enabled = o["enabled"].as<bool>();
      g.height = Real(numberField(fn, o, "height", g.height));
      g.thickness = Real(numberField(fn, o, "thickness", g.thickness));
      g.friction = Real(numberField(fn, o, "friction", g.friction));
      g.staticFriction = Real(numberField(fn, o, "staticFriction", g.staticFriction));
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
    o.set("staticFriction", g.staticFriction);
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
  void setMaxSpeed(double v) { guarded("setMaxSpeed", [&] { world_.setMaxSpeed(Real(v)); }); }
  double getMaxSpeed() const { return world_.settings().maxSpeed; }

  uint32_t bodyCount() const { return world_.bodyCount(); }
  /// {friction, staticFriction, restitution, thickness}: absent fields keep the body's current values.
  void setBodyMaterial(double body, val o) {
    guarded("setBodyMaterial", [&] {
      const char* fn = "setBodyMaterial";
      const uint32_t b = toIndex(fn, "body", body);
      requireObject(fn, "material", o);
      const ContactMaterial current = b < world_.bodyCount() ? world_.bodyMaterial(b) : ContactMaterial{};
      world_.setBodyMaterial(b, contactMaterialOf(fn, o, current));
    });
  }
  /// {enabled, thickness} of a cloth or triangle-mesh body's continuous self-collision: absent fields keep its values.
  void setContinuousSelfCollision(double body, val o) {
    guarded("setContinuousSelfCollision", [&] {
      const char* fn = "setContinuousSelfCollision";
      const uint32_t b = toIndex(fn, "body", body);
      requireObject(fn, "settings", o);
      // An out-of-range or triangle-less body gets the core's error, with the JS defaults as the starting point.
      ContinuousSelfCollision current;
      try {
        current = world_.continuousSelfCollision(b);
      } catch (const InvalidArgument&) {
      }
      world_.setContinuousSelfCollision(b, continuousSelfCollisionOf(fn, o, current));
    });
  }
  val getContinuousSelfCollision(double body) const {
    return guarded("getContinuousSelfCollision", [&] {
      const ContinuousSelfCollision& s = world_.continuousSelfCollision(toIndex("getContinuousSelfCollision", "body", body));
      val o = val::object();
      o.set("enabled", s.enabled);
      o.set("thickness", s.thickness);
      return o;
    });
  }
  uint32_t continuousSelfContactCount() const { return world_.continuousSelfContactCount(); }
  val getBodyMaterial(double body) const {
    return guarded("getBodyMaterial", [&] {
      const ContactMaterial& m = world_.bodyMaterial(toIndex("getBodyMaterial", "body", body));
      val o = val::object();
      o.set("friction", m.friction);
      o.set("staticFriction", m.staticFriction);
      o.set("restitution", m.restitution);
      o.set("thickness", m.thickness);
      return o;
    });
  }

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
  /// pairs: 2 particle indices per constraint (array or typed array); options: {compliance, stiffness, restLengths}.
  uint32_t addDistanceConstraints(val pairs, val options) {
    return guarded("addDistanceConstraints", [&] {
      const char* fn = "addDistanceConstraints";
      const std::vector<uint32_t> indices = indexArray(fn, "pairs", pairs);
      std::vector<Real> rest;
      Strength strength;
      if (!options.isUndefined()) {
        requireObject(fn, "options", options);
        if (!options["restLengths"].isUndefined()) rest = floatArray(fn, "restLengths", options["restLengths"]);
        strength = strengthOf(fn, options, strength);
      }
      return world_.addDistanceConstraints(indices, rest, strength);
    });
  }
  /// tets: 4 particle indices per tet (array or typed array); options: {compliance, stiffness}.
  uint32_t addTetVolumeConstraints(val tets, val options) {
    return guarded("addTetVolumeConstraints", [&] {
      const char* fn = "addTetVolumeConstraints";
      const std::vector<uint32_t> indices = indexArray(fn, "tets", tets);
      Strength strength;
      if (!options.isUndefined()) {
        requireObject(fn, "options", options);
        strength = strengthOf(fn, options, strength);
      }
      return world_.addTetVolumeConstraints(indices, strength);
    });
  }
  /// options: {particles, maxDistance, backstopDistance, backstopRadius}, each distance one number for all or one per
  /// particle. The core names an element "constraints[k].field"; JS callers gave "field" (or "particles"), so the
  /// message names "field[k]".
  uint32_t addSkinnedConstraints(val o) {
    return guarded("addSkinnedConstraints", [&] {
      const char* fn = "addSkinnedConstraints";
      requireObject(fn, "options", o);
      const std::vector<uint32_t> particles = indexArray(fn, "particles", o["particles"]);
      std::vector<SkinnedConstraintDef> defs(particles.size());
      for (size_t k = 0; k < defs.size(); ++k) defs[k].particle = particles[k];
      perConstraint(fn, o, "maxDistance", defs, &SkinnedConstraintDef::maxDistance);
      perConstraint(fn, o, "backstopDistance", defs, &SkinnedConstraintDef::backstopDistance);
      perConstraint(fn, o, "backstopRadius", defs, &SkinnedConstraintDef::backstopRadius);
      try {
        return world_.addSkinnedConstraints(defs);
      } catch (const InvalidArgument& e) {
        throw InvalidArgument(jsElementNames(e.what(), "constraints"));
      }
    });
  }
  /// positions, normals: xyz per constraint (arrays or typed arrays); normals may be left out.
  void setSkinnedTargets(double first, val positions, val normals) {
    guarded("setSkinnedTargets", [&] {
      const char* fn = "setSkinnedTargets";
      const std::vector<Real> xyz = floatArray(fn, "positions", positions);
      const std::vector<Real> n = normals.isUndefined() ? std::vector<Real>{} : floatArray(fn, "normals", normals);
      world_.setSkinnedTargets(toIndex(fn, "first", first), xyz, n);
    });
  }
  uint32_t skinnedConstraintCount() const { return world_.skinnedConstraintCount(); }
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
  void setConstraintStrength(val kind, double first, double count, double compliance, double stiffness) {
    guarded("setConstraintStrength", [&] {
      const char* fn = "setConstraintStrength";
      world_.setConstraintStrength(enumValue(fn, "kind", kind, kConstraintKindNames, kConstraintKinds),
                                   toIndex(fn, "first", first), toIndex(fn, "count", count),
                                   Strength{Real(compliance), Real(stiffness)});
    });
  }
  /// {compliance, stiffness} of one constraint of `kind`.
  val getConstraintStrength(val kind, double constraint) const {
    return guarded("getConstraintStrength", [&] {
      const char* fn = "getConstraintStrength";
      const Strength s = world_.constraintStrength(enumValue(fn, "kind", kind, kConstraintKindNames, kConstraintKinds),
                                                   toIndex(fn, "constraint", constraint));
      val o = val::object();
      o.set("compliance", s.compliance);
      o.set("stiffness", s.stiffness);
      return o;
    });
  }
  void setSoftBodyMaterial(double body, double youngsModulus, double poissonRatio, double materialStiffness) {
    guarded("setSoftBodyMaterial", [&] {
      world_.setSoftBodyMaterial(toIndex("setSoftBodyMaterial", "body", body), Real(youngsModulus), Real(poissonRatio),
                                 Real(materialStiffness));
    });
  }
  void removeDistanceConstraint(double constraint) {
    guarded("removeDistanceConstraint", [&] {
      world_.removeDistanceConstraint(toIndex("removeDistanceConstraint", "constraint", constraint));
    });
  }
  uint32_t distanceConstraintCount() const { return world_.distanceConstraintCount(); }
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
  /// Attaches a particle to collider k's point (ax, ay, az) in its frame; options: {compliance, stiffness}.
  uint32_t attachToCollider(double particle, double k, double ax, double ay, double az, val options) {
    return guarded("attachToCollider", [&] {
      const char* fn = "attachToCollider";
      AttachmentDef a;
      a.particle = toIndex(fn, "particle", particle);
      a.collider = toIndex(fn, "collider", k);
      a.anchor = Vec3(Real(ax), Real(ay), Real(az));
      if (!options.isUndefined()) a.strength = strengthOf(fn, options, a.strength);
      try {
        return world_.addAttachment(a);
      } catch (const InvalidArgument& e) {  // the core's function is addAttachment
        std::string message = e.what();
        if (message.rfind("addAttachment", 0) == 0) message.replace(0, 13, fn);
        throw InvalidArgument(message);
      }
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
  /// World::attachmentImpulse as [x, y, z].
  val attachmentImpulse(double handle) const {
    return guarded("attachmentImpulse", [&] {
      const Vec3 j = world_.attachmentImpulse(toIndex("attachmentImpulse", "attachment", handle));
      val a = val::array();
      for (int c = 0; c < 3; ++c) a.call<void>("push", j[c]);
      return a;
    });
  }

  val addCloth(val o) {
    return bodyRangeToJs(guarded("addCloth", [&] { return world_.addCloth(clothDefFromJs("addCloth", o)); }));
  }
  val addRope(val o) {
    return bodyRangeToJs(guarded("addRope", [&] { return world_.addRope(ropeDefFromJs("addRope", o)); }));
  }

  val addRod(val o) {
    return bodyRangeToJs(guarded("addRod", [&] { return world_.addRod(rodDefFromJs("addRod", o)); }));
  }
  uint32_t segmentCount() const { return world_.segmentCount(); }
  /// x, y, z, w per rod segment (zero-copy, as positions()).
  val segmentOrientations() const { return view(world_.segmentOrientations(), 4 * size_t(world_.segmentCount())); }
  val segmentAngularVelocities() const {
    return view(world_.segmentAngularVelocities(), 3 * size_t(world_.segmentCount()));
  }
  void setSegmentOrientation(double k, double x, double y, double z, double w) {
    guarded("setSegmentOrientation", [&] {
      world_.setSegmentOrientation(toIndex("setSegmentOrientation", "segment", k),
                                   Quat(Real(w), Real(x), Real(y), Real(z)));
    });
  }
  void setSegmentAngularVelocity(double k, double x, double y, double z) {
    guarded("setSegmentAngularVelocity", [&] {
      world_.setSegmentAngularVelocity(toIndex("setSegmentAngularVelocity", "segment", k), Vec3(Real(x), Real(y), Real(z)));
    });
  }
  void setSegmentTorque(double k, double x, double y, double z) {
    guarded("setSegmentTorque", [&] {
      world_.setSegmentTorque(toIndex("setSegmentTorque", "segment", k), Vec3(Real(x), Real(y), Real(z)));
    });
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
      else if (shape == "mesh") d.shape = ColliderShape::TriangleMesh;
      else if (shape == "plane") d.shape = ColliderShape::Plane;
      else throw InvalidArgument("addCollider: shape must be 'sphere', 'capsule', 'box', 'plane' or 'mesh' (got '" + shape + "')");
      d.position = vec3Field(fn, o, "position", d.position);
      d.rotation = quatField(fn, o, "rotation", d.rotation);
      d.radius = Real(numberField(fn, o, "radius", d.radius));
      d.halfHeight = Real(numberField(fn, o, "halfHeight", d.halfHeight));
      d.halfExtents = vec3Field(fn, o, "halfExtents", d.halfExtents);
      d.thickness = Real(numberField(fn, o, "thickness", d.thickness));
      d.friction = Real(numberField(fn, o, "friction", d.friction));
      d.staticFriction = Real(numberField(fn, o, "staticFriction", d.staticFriction));
      d.restitution = Real(numberField(fn, o, "restitution", d.restitution));
      if (d.shape != ColliderShape::TriangleMesh) return world_.addCollider(d);
      // three.js-style arrays: positions (xyz per vertex), indices (3 per triangle). The core names them
      // meshPositions / meshTriangles; JS callers know them as positions / indices.
      const std::vector<Real> positions = floatArray(fn, "positions", o["positions"]);
      if (!has(o, "indices")) throw InvalidArgument("addCollider: indices must be given for shape 'mesh'");
      const std::vector<uint32_t> indices = indexArrayField(fn, o, "indices");
      d.meshPositions = positions;
      d.meshTriangles = indices;
      try {
        return world_.addCollider(d);
      } catch (const InvalidArgument& e) {
        throw InvalidArgument(jsMeshArgumentNames(e.what()));
      }
    });
  }
  /// Deforms a mesh collider: new local-frame positions (xyz per vertex, as many as it has).
  void setColliderMeshVertices(double k, val positions) {
    guarded("setColliderMeshVertices", [&] {
      const char* fn = "setColliderMeshVertices";
      const std::vector<Real> xyz = floatArray(fn, "positions", positions);
      try {
        world_.setColliderMeshVertices(toIndex(fn, "collider", k), xyz);
      } catch (const InvalidArgument& e) {
        throw InvalidArgument(jsMeshArgumentNames(e.what()));
      }
    });
  }
  void setColliderPose(double k, double px, double py, double pz, double qx, double qy, double qz, double qw) {
    guarded("setColliderPose", [&] {
      world_.setColliderPose(toIndex("setColliderPose", "collider", k), Vec3(Real(px), Real(py), Real(pz)),
                             Quat(Real(qw), Real(qx), Real(qy), Real(qz)));
    });
  }
  /// ColliderImpulse as {linear: [x, y, z], angular: [x, y, z]}.
  val colliderImpulse(double k) const {
    return guarded("colliderImpulse", [&] {
      const ColliderImpulse j = world_.colliderImpulse(toIndex("colliderImpulse", "collider", k));
      val linear = val::array(), angular = val::array();
      for (int a = 0; a < 3; ++a) linear.call<void>("push", j.linear[a]), angular.call<void>("push", j.angular[a]);
      val o = val::object();
      o.set("linear", linear);
      o.set("angular", angular);
      return o;
    });
  }
  /// ColliderBody from {mass, inertia, linearVelocity, angularVelocity, gravity, joint, jointPivot, jointAxis} (each
  /// optional, defaults as in C++).
  void setColliderBody(double k, val o) {
    guarded("setColliderBody", [&] {
      const char* fn = "setColliderBody";
      requireObject(fn, "body", o);
      ColliderBody b;
      b.mass = Real(numberField(fn, o, "mass", b.mass));
      b.inertia = vec3Field(fn, o, "inertia", b.inertia);
      b.linearVelocity = vec3Field(fn, o, "linearVelocity", b.linearVelocity);
      b.angularVelocity = vec3Field(fn, o, "angularVelocity", b.angularVelocity);
      b.gravity = boolField(fn, o, "gravity", b.gravity);
      b.joint = enumField(fn, o, "joint", kBodyJointNames, kBodyJoints, b.joint);
      b.jointPivot = vec3Field(fn, o, "jointPivot", b.jointPivot);
      b.jointAxis = vec3Field(fn, o, "jointAxis", b.jointAxis);
      world_.setColliderBody(toIndex(fn, "collider", k), b);
    });
  }
  /// ColliderBody as {mass, inertia: [x, y, z], linearVelocity: [...], angularVelocity: [...], gravity, joint,
  /// jointPivot: [...], jointAxis: [...]}.
  val colliderBody(double k) const {
    return guarded("colliderBody", [&] {
      const ColliderBody b = world_.colliderBody(toIndex("colliderBody", "collider", k));
      val o = val::object();
      o.set("mass", b.mass);
      o.set("gravity", b.gravity);
      o.set("joint", std::string(enumName(b.joint, kBodyJointNames, kBodyJoints)));
      for (auto [name, v] : {std::pair{"inertia", &b.inertia}, std::pair{"linearVelocity", &b.linearVelocity},
                             std::pair{"angularVelocity", &b.angularVelocity}, std::pair{"jointPivot", &b.jointPivot},
                             std::pair{"jointAxis", &b.jointAxis}}) {
        val a = val::array();
        for (int c = 0; c < 3; ++c) a.call<void>("push", (*v)[c]);
        o.set(name, a);
      }
      return o;
    });
  }
  void removeCollider(double k) {
    guarded("removeCollider", [&] { world_.removeCollider(toIndex("removeCollider", "collider", k)); });
  }
  uint32_t colliderCount() const { return world_.colliderCount(); }
  /// {body, firstParticle, particleCount} and the named index lists as Uint32Arrays: what removeBody and tearEdges
  /// report.
  static val bodyEditToJs(uint32_t body, uint32_t firstParticle, uint32_t particleCount,
                          std::initializer_list<std::pair<const char*, const std::vector<uint32_t>*>> lists) {
    val out = val::object();
    out.set("body", body);
    out.set("firstParticle", firstParticle);
    out.set("particleCount", particleCount);
    for (const auto& [name, list] : lists) out.set(name, copyToUint32Array(*list));
    return out;
  }
  /// BodyRemoval as {body, firstParticle, particleCount, distanceRuns, dihedralRuns, volumeRuns, skinnedRuns,
  /// segmentRuns} (runs: Uint32Array).
  val removeBody(double body) {
    const BodyRemoval r = guarded("removeBody", [&] { return world_.removeBody(toIndex("removeBody", "body", body)); });
    return bodyEditToJs(r.body, r.firstParticle, r.particleCount,
                        {{"distanceRuns", &r.distanceRuns}, {"dihedralRuns", &r.dihedralRuns},
                         {"volumeRuns", &r.volumeRuns}, {"skinnedRuns", &r.skinnedRuns}, {"segmentRuns", &r.segmentRuns}});
  }
  /// TearReport as {body, firstParticle, particleCount, sourceParticles, distanceEdits, dihedralEdits, tetherEdits}
  /// (arrays: Uint32Array).
  static val tearReportToJs(const TearReport& r) {
    return bodyEditToJs(r.body, r.firstParticle, r.particleCount,
                        {{"sourceParticles", &r.sourceParticles}, {"distanceEdits", &r.distanceEdits},
                         {"dihedralEdits", &r.dihedralEdits}, {"tetherEdits", &r.tetherEdits}});
  }
  val tearEdges(double body, val edges) {
    return tearReportToJs(guarded("tearEdges", [&] {
      const uint32_t b = toIndex("tearEdges", "body", body);
      return world_.tearEdges(b, indexArray("tearEdges", "edges", edges));
    }));
  }
  uint32_t lastTearCount() const { return uint32_t(world_.lastTears().size()); }
  /// The last step's tears, as tearEdges reports them.
  val lastTears() const {
    val out = val::array();
    for (const TearReport& r : world_.lastTears()) out.call<void>("push", tearReportToJs(r));
    return out;
  }
  val bodyTriangles(double body) const {
    return copyToUint32Array(guarded("bodyTriangles", [&] { return world_.bodyTriangles(toIndex("bodyTriangles", "body", body)); }));
  }

  val addSoftBody(val o) {
    return bodyRangeToJs(guarded("addSoftBody", [&] { return world_.addSoftBody(softBodyDefFromJs("addSoftBody", o)); }));
  }
  /// Returns the body range plus `renderToParticle`, a Uint32Array (a copy: it is per render vertex, not per frame).
  val addTriangleMesh(val o) {
    const MeshBody body = guarded("addTriangleMesh", [&] {
      return world_.addTriangleMesh(triangleMeshDefFromJs("addTriangleMesh", o));
    });
    val out = bodyRangeToJs(body.range);
    out.set("renderToParticle", copyToUint32Array(body.renderToParticle));
    return out;
  }
  uint32_t tetVolumeCount() const { return world_.tetVolumeCount(); }
  /// {particles, compliance, stiffness} → the cluster's index.
  uint32_t addShapeMatching(val o) {
    return guarded("addShapeMatching", [&] {
      const char* fn = "addShapeMatching";
      requireObject(fn, "options", o);
      ShapeMatchingDef d;
      d.particles = indexArrayField(fn, o, "particles");
      d.strength = strengthOf(fn, o, d.strength);
      return world_.addShapeMatching(d);
    });
  }
  uint32_t shapeMatchingCount() const { return world_.shapeMatchingCount(); }
  uint32_t triangleStrainCount() const { return world_.triangleStrainCount(); }

  void step(double dt) { guarded("step", [&] { world_.step(Real(dt)); }); }
  val lastStepReport() const {
    const StepReport& r = world_.lastStepReport();
    val o = val::object();
    o.set("rolledBack", r.rolledBack);
    o.set("nonFiniteCount", r.nonFiniteCount);
    o.set("particle", r.particle);
    o.set("body", r.body);
    o.set("droppedContacts", r.droppedContacts);
    o.set("droppedSelfCollisionPairs", r.droppedSelfCollisionPairs);
    o.set("droppedSelfContacts", r.droppedSelfContacts);
    o.set("selfCandidates", r.selfCandidates);
    o.set("selfContactsFound", r.selfContactsFound);
    o.set("selfFrozenParticles", r.selfFrozenParticles);
    o.set("selfCandidateLists", r.selfCandidateLists);
    o.set("selfTreeWalks", r.selfTreeWalks);
    o.set("selfCollisionSearches", r.selfCollisionSearches);
    o.set("selfCollisionSearchesWithoutSkin", r.selfCollisionSearchesWithoutSkin);
    return o;
  }
  void setStepTimings(bool on) { world_.setStepTimings(on); }
  void setPoolUse(val name) {
    guarded("setPoolUse", [&] { world_.setPoolUse(enumValue("setPoolUse", "use", name, kPoolUseNames, kPoolUses)); });
  }
  std::string poolUse() const { return enumName(world_.poolUse(), kPoolUseNames, kPoolUses); }
  bool lastStepUsedPool() const { return world_.lastStepUsedPool(); }
  val lastStepTimings() const {
    const StepTimings& t = world_.lastStepTimings();
    val o = val::object();
    o.set("integrateMs", t.integrateMs);
    o.set("colliderContactsMs", t.colliderContactsMs);
    o.set("broadPhaseMs", t.broadPhaseMs);
    o.set("narrowPhaseMs", t.narrowPhaseMs);
    o.set("solveMs", t.solveMs);
    o.set("residualMs", t.residualMs);
    o.set("totalMs", t.totalMs);
    return o;
  }

  /// The whole state (World::saveSnapshot) as a new Uint8Array the caller owns (copied out of the wasm heap).
  val saveSnapshot() const {
    return guarded("saveSnapshot", [&] {
      const std::vector<uint8_t> blob = world_.saveSnapshot();
      return val::global("Uint8Array").new_(val(emscripten::typed_memory_view(blob.size(), blob.data())));
    });
  }
  /// Replaces the state with a snapshot (a Uint8Array or an ArrayBuffer); a bad blob throws, naming the problem, and
  /// leaves the world unchanged. Views from positions() etc. must be fetched again afterwards.
  void loadSnapshot(val bytes) {
    guarded("loadSnapshot", [&] {
      if (bytes.instanceof(val::global("ArrayBuffer"))) bytes = val::global("Uint8Array").new_(bytes);
      if (!bytes.instanceof(val::global("Uint8Array"))) {
        throw InvalidArgument("loadSnapshot: bytes must be a Uint8Array or an ArrayBuffer");
      }
      const std::vector<uint8_t> blob = emscripten::convertJSArrayToNumberVector<uint8_t>(bytes);
      world_.loadSnapshot(blob.data(), blob.size());
    });
  }

  // Zero-copy views into the wasm heap: valid until the next call that may allocate (adding particles or bodies).
  val positions() const { return view(world_.positions(), 3 * size_t(world_.particleCount())); }
  val velocities() const { return view(world_.velocities(), 3 * size_t(world_.particleCount())); }
  val inverseMasses() const { return view(world_.inverseMasses(), world_.particleCount()); }
  uint32_t particleCount() const { return world_.particleCount(); }
  uint32_t constraintCount() const { return world_.constraintCount(); }
  uint32_t tetherCount() const { return world_.tetherCount(); }
  uint32_t contactCount() const { return world_.contactCount(); }
  /// The last substep's contacts: x, y, z, nx, ny, nz per contact (World::contacts); valid until the next step.
  val contacts() const {
    const std::span<const Real> c = world_.contacts();
    return view(c.data(), c.size());
  }
  uint32_t neoHookeanCount() const { return world_.neoHookeanCount(); }
  uint32_t surfaceVolumeCount() const { return world_.surfaceVolumeCount(); }
  double surfaceVolume(double k) const {
    return guarded("surfaceVolume", [&] { return double(world_.surfaceVolume(toIndex("surfaceVolume", "k", k))); });
  }
  double surfaceRestVolume(double k) const {
    return guarded("surfaceRestVolume", [&] { return double(world_.surfaceRestVolume(toIndex("surfaceRestVolume", "k", k))); });
  }

  /// The core world, for the other binding files (embeddings read its positions).
  const World& core() const { return world_; }

 private:
  static val view(const Real* data, size_t n) { return val(emscripten::typed_memory_view(n, data)); }

  World world_;
};

}  // namespace pbd::js
