// The World's colliders: adding, moving and removing them.
#include "pbd/world.h"

#include <optional>
#include <string>

#include "base/checks.h"
#include "world/body_materials.h"
#include "world/world_state.h"

namespace pbd {
namespace {

/// Validates a collider's shape and material; returns its rotation normalized.
Quat checkCollider(const char* fn, const ColliderDef& def) {
  if (def.shape != ColliderShape::Sphere && def.shape != ColliderShape::Capsule && def.shape != ColliderShape::Box &&
      def.shape != ColliderShape::TriangleMesh && def.shape != ColliderShape::Plane) {
    check::fail(fn, "shape", "is unknown", int(def.shape));
  }
  check::finite(fn, "position", def.position);
  for (int a = 0; a < 4; ++a) check::finite(fn, std::string("rotation.") + "xyzw"[a], def.rotation.coeffs()[a]);
  if (!(def.rotation.norm() > Real(1e-6))) check::fail(fn, "rotation", "must be a non-zero quaternion", def.rotation.norm());
  check::positive(fn, "radius", def.radius);
  check::atLeast(fn, "halfHeight", def.halfHeight, 0);
  for (int a = 0; a < 3; ++a) check::positive(fn, std::string("halfExtents.") + "xyz"[a], def.halfExtents[a]);
  check::atLeast(fn, "thickness", def.thickness, 0);
  check::atLeast(fn, "friction", def.friction, 0);
  check::staticFriction(fn, "staticFriction", def.staticFriction);
  check::inRange(fn, "restitution", def.restitution, 0, 1);
  return def.rotation.normalized();
}

}  // namespace

uint32_t World::addCollider(const ColliderDef& def) {
  Impl& m = *impl_;
  const Quat rotation = checkCollider("addCollider", def);
  if (m.collision.colliders.size() >= 4096)
    check::fail("addCollider", "collider count", "is at the limit 4096", m.collision.colliders.size());
  std::optional<MeshShape> mesh;  // validated and built before anything changes (mesh_colliders.cpp)
  if (def.shape == ColliderShape::TriangleMesh) mesh.emplace(m.buildMeshShape("addCollider", def));
  m.reserveContacts(m.count(), m.collision.colliders.size() + 1);
  m.collision.colliders.reserve(m.collision.colliders.size() + 1);
  m.collision.contactMomenta.reserve(m.collision.colliders.size() + 1);  // so that step() never allocates
  m.collision.motions.reserve(m.collision.colliders.size() + 1);
  m.collision.meshShapes.reserve(m.collision.meshShapes.size() + (mesh ? 1 : 0));
  Collider c{def, def.position, rotation, def.position, def.position, rotation, rotation};
  c.def.rotation = rotation;
  c.def.meshPositions = {};  // views of the caller's arrays: the world's copy is meshShapes[c.mesh]
  c.def.meshTriangles = {};
  if (mesh) {
    c.mesh = uint32_t(m.collision.meshShapes.size());
    m.collision.meshShapes.push_back(std::move(*mesh));
  }
  m.collision.colliders.push_back(c);
  m.collision.motions.resize(m.collision.colliders.size());
  return uint32_t(m.collision.colliders.size() - 1);
}

void World::setColliderPose(uint32_t collider, const Vec3& position, const Quat& rotation) {
  const char* fn = "setColliderPose";
  check::index(fn, "collider", collider, impl_->collision.colliders.size());
  ColliderDef def = impl_->collision.colliders[collider].def;
  def.position = position;
  def.rotation = rotation;
  Collider& c = impl_->collision.colliders[collider];
  c.def.rotation = checkCollider(fn, def);
  c.def.position = position;
  if (impl_->collision.motions[collider].body.mass > 0) c.startPosition = c.def.position, c.startRotation = c.def.rotation;
}

void World::setColliderBody(uint32_t collider, const ColliderBody& body) {
  const char* fn = "setColliderBody";
  Impl& m = *impl_;
  check::index(fn, "collider", collider, m.collision.colliders.size());
  check::finite(fn, "mass", body.mass);
  check::atLeast(fn, "mass", body.mass, 0);
  check::finite(fn, "linearVelocity", body.linearVelocity);
  check::finite(fn, "angularVelocity", body.angularVelocity);
  if (body.mass > 0) {
    for (int a = 0; a < 3; ++a) check::positive(fn, std::string("inertia.") + "xyz"[a], body.inertia[a]);
    if (m.collision.colliders[collider].mesh != kNoMesh)
      check::fail(fn, "collider", "is a triangle mesh, which can only be kinematic", collider);
  }
  ColliderBody kept = body;
  if (body.mass > 0 && body.joint != BodyJoint::None) {
    check::finite(fn, "jointPivot", body.jointPivot);
    if (body.joint == BodyJoint::Hinge) {
      check::finite(fn, "jointAxis", body.jointAxis);
      if (!(body.jointAxis.norm() > 0)) check::fail(fn, "jointAxis", "must not be zero for a hinge", "[0, 0, 0]");
      kept.jointAxis.normalize();
    } else if (body.joint != BodyJoint::Ball) {
      check::fail(fn, "joint", "is unknown", int(body.joint));
    }
  }
  m.collision.motions[collider].body = body.mass > 0 ? kept : ColliderBody{};
  Collider& c = m.collision.colliders[collider];
  if (body.mass > 0) c.startPosition = c.def.position, c.startRotation = c.def.rotation;  // no sweep pending
}

ColliderDef World::colliderDef(uint32_t collider) const {
  check::index("colliderDef", "collider", collider, impl_->collision.colliders.size());
  return impl_->collision.colliders[collider].def;
}

ColliderBody World::colliderBody(uint32_t collider) const {
  check::index("colliderBody", "collider", collider, impl_->collision.colliders.size());
  return impl_->collision.motions[collider].body;
}

ColliderImpulse World::colliderImpulse(uint32_t collider) const {
  const Impl& m = *impl_;
  check::index("colliderImpulse", "collider", collider, m.collision.colliders.size());
  if (collider >= m.collision.contactMomenta.size()) return {};  // no step since it was added or loaded
  const ContactMomentum& sum = m.collision.contactMomenta[collider];
  return {(-sum.linear).cast<Real>(), (-sum.moment).cast<Real>()};
}

uint32_t World::colliderCount() const { return uint32_t(impl_->collision.colliders.size()); }

void World::removeCollider(uint32_t collider) {
  Impl& m = *impl_;
  check::index("removeCollider", "collider", collider, m.collision.colliders.size());
  const uint32_t mesh = m.collision.colliders[collider].mesh;
  if (mesh != kNoMesh) {
    m.collision.meshShapes.erase(m.collision.meshShapes.begin() + mesh);
    for (Collider& c : m.collision.colliders) {
      if (c.mesh != kNoMesh && c.mesh > mesh) --c.mesh;
    }
  }
  m.collision.colliders.erase(m.collision.colliders.begin() + collider);
  if (collider < m.collision.contactMomenta.size())
    m.collision.contactMomenta.erase(m.collision.contactMomenta.begin() + collider);
  m.collision.motions.erase(m.collision.motions.begin() + collider);
  m.collision.contacts.clear();  // they name colliders by index
  // Attachments that follow it go (their handles are handed out again); those of the colliders after it follow them.
  for (size_t k = 0; k < m.constraints.attachments.size(); ++k) {
    Attachment& a = m.constraints.attachments[k];
    if (!a.active || a.collider == kNoCollider || a.collider < collider) continue;
    if (a.collider > collider) {
      --a.collider;
      continue;
    }
    a.active = false, a.collider = kNoCollider, a.anchor = Vec3::Zero();
    m.constraints.freeAttachments.push_back(uint32_t(k));
  }
}

}  // namespace pbd
