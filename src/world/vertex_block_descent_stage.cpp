// Solver::VertexBlockDescent as a stage of the step: the world's distance constraints, dihedrals, tet volumes,
// Neo-Hookean tets, strain triangles and attachments are VBD's elements (solvers/vertex_block_descent.h), and the
// contacts of their particles with the ground and with static or kinematic colliders are energies of their vertex
// steps. Every other constraint kind and the other contacts (dynamic colliders', particles in no element) are
// projected PBD-style after each iteration by the step (step.cpp), as with Projective Dynamics.
#include "world/collider_motion.h"
#include "world/world_state.h"

namespace pbd {

VbdElements World::Impl::vertexBlockDescentElements() const {
  const ConstraintStore& c = constraints;
  const std::vector<VbdAttachment>& a = solverData.vbdAttachments;
  VbdElements e;
  e.springs = c.distances.data(), e.springCount = uint32_t(c.distances.size());
  e.dihedrals = c.dihedrals.data(), e.dihedralCount = uint32_t(c.dihedrals.size());
  e.volumes = c.volumes.data(), e.volumeCount = uint32_t(c.volumes.size());
  e.neoHookeans = c.neoHookeans.data(), e.neoHookeanCount = uint32_t(c.neoHookeans.size());
  e.triangles = c.triangleStrains.data(), e.triangleCount = uint32_t(c.triangleStrains.size());
  e.attachments = a.data(), e.attachmentCount = uint32_t(a.size());
  return e;
}

size_t World::Impl::vertexBlockDescentElementCount() const {
  VbdElements e = vertexBlockDescentElements();
  e.attachmentCount = uint32_t(constraints.attachments.size());  // VBD's copy follows them at the next step
  return e.count();
}

/// Before the substeps: the colouring and incidences follow the elements (rebuilt, allocating, only at the first
/// step after they changed).
void World::Impl::refreshVertexBlockDescent() {
  if (solverData.vbdAttachments.size() != constraints.attachments.size()) {
    solverData.vbdAttachments.resize(constraints.attachments.size());
    solverData.vbd.dirty = true;
  }
  solverData.vbdContacts.reserve(collision.contacts.capacity());  // grows only with that room
  if (solverData.vbd.dirty) {
    fillVertexBlockDescentAttachments(0);  // for the build: which particles they hold (each substep fills targets)
    solverData.vbd.build(vertexBlockDescentElements(), particles.restX.data(), count());
  }
  solverData.vbd.beginStep(particles.w.data());  // sized for count() by the last build
}

/// The attachments with their targets where they are at `stepFraction` of the step (as the PBD projection moves
/// them), into the buffer VBD reads.
void World::Impl::fillVertexBlockDescentAttachments(Real stepFraction) {
  for (size_t k = 0; k < constraints.attachments.size(); ++k) {
    const Attachment& a = constraints.attachments[k];
    const Vec3 target = attachmentTarget(a, stepFraction);
    solverData.vbdAttachments[k] = {a.particle, {target.x(), target.y(), target.z()}, a.compliance, a.stiffness,
                                    a.active ? 1u : 0u};
  }
}

/// The contacts generated for this substep whose particle VBD solves and whose surface is the ground or a collider
/// without a body (a dynamic one's contact pushes the body, as projections do), as VbdContacts grouped by particle:
/// the contact plane where the particle is now (the prediction), through the surface moved out by both margins. The
/// others stay projections.
void World::Impl::fillVertexBlockDescentContacts() {
  std::vector<VbdContact>& out = solverData.vbdContacts;
  std::vector<uint32_t>& begin = solverData.vbdContactBegin;
  if (collision.contacts.empty()) return out.clear();  // nothing touches: no pass over the particles (begin unread)
  begin.assign(size_t(count()) + 1, 0);  // allocates only when particles were added
  for (Contact& c : collision.contacts) {
    const bool energy = solverData.vbd.solves(c.particle) && particles.w[c.particle] > 0 &&
                        (c.collider == kGroundCollider || !collision.dynamicCollider(c.collider));
    c.energy = energy ? 0 : kNotEnergy;  // its index below
    if (energy) ++begin[c.particle + 1];
  }
  for (size_t i = 0; i < count(); ++i) begin[i + 1] += begin[i];
  out.resize(begin[count()]);  // within the room refreshVertexBlockDescent reserved
  const Real surface = groundSurface();
  for (Contact& c : collision.contacts) {
    if (c.energy == kNotEnergy) continue;
    const Vec3 pi = particleAt(particles.p, c.particle);
    Vec3 normal = c.normal, point;
    if (c.collider == kGroundCollider) {
      point = Vec3(pi.x(), surface + c.margin, pi.z());
    } else {
      const Collider& col = collision.colliders[c.collider];
      const Real margins = col.def.thickness + c.margin;
      if (col.mesh != kNoMesh) {
        point = c.point + margins * normal;
      } else {
        const ShapeDistance d = worldDistance(col, pi);
        normal = d.n, point = pi + (margins - d.phi) * d.n;
      }
    }
    c.energy = begin[c.particle]++;
    c.normal = normal;  // the friction's hold and the velocity pass work in this plane
    VbdContact& v = out[c.energy];
    v.particle = c.particle, v.surface = c.collider, v.push = 0;
    for (int a = 0; a < 3; ++a) v.point[a] = point[a], v.normal[a] = normal[a];
  }
  for (size_t i = count(); i > 0; --i) begin[i] = begin[i - 1];  // the placement moved each start to the next
  begin[0] = 0;
}

/// What the energy contacts' normal forces gave the colliders over the substep, at the last iteration: each one's
/// push booked as a projection's would be (recordContactMomentum).
void World::Impl::bookVertexBlockDescentContacts() {
  const double scale = double(collision.contactInvH) * (collision.contactBdf2 ? 2.25 : 1.0);
  for (const VbdContact& v : solverData.vbdContacts) {
    if (v.surface == kGroundCollider) continue;
    const Eigen::Vector3d normal(v.normal[0], v.normal[1], v.normal[2]);
    bookContactMomentum(v.surface, v.particle, normal * (double(v.push) * scale / double(particles.w[v.particle])),
                        false);
  }
}

/// Before a substep's iterations: the attachments' targets, each element's stiffness and the contacts; invH2 =
/// 1/h_eff².
void World::Impl::beginVertexBlockDescent(Real invH2, Real stepFraction) {
  fillVertexBlockDescentAttachments(stepFraction);
  fillVertexBlockDescentContacts();
  releaseIslandsHeldInVertexSteps();
  solverData.vbd.beginSubstep(vertexBlockDescentElements(), particles.w.data(), settings.method == Method::Xpbd,
                              double(invH2), double(settings.chebyshevRho), *tasks);
}

/// The attachments and the energy contacts act within the vertex steps, so inside the momentum guard's bracket
/// (internal_momentum.cpp), whose rotation would take their torque out as if the sweep had made it: a cloth hung by
/// an attachment hardly swung. The islands they hold are left alone for the substep, as an island with a pin is, and
/// count as touched.
void World::Impl::releaseIslandsHeldInVertexSteps() {
  if (!islands.anyFreeIsland) return;
  auto release = [&](uint32_t particle) {
    const uint32_t k = islands.islandOfBody[bodyOf(particle)];
    IslandFrame& f = islands.islandFrames[k];
    f.touched = true;
    if (!f.free) return;
    f.free = false;
    islands.freeMembers -= islands.memberBegin[k + 1] - islands.memberBegin[k];
  };
  for (const VbdAttachment& a : solverData.vbdAttachments)
    if (a.active) release(a.particle);
  for (const VbdContact& c : solverData.vbdContacts) release(c.particle);
  islands.anyFreeIsland = islands.freeMembers > 0;
}

/// One VBD iteration on p.
void World::Impl::solveVertexBlockDescent(Real invH2) {
  const VbdContacts contacts{solverData.vbdContacts.data(),
                             solverData.vbdContacts.empty() ? nullptr : solverData.vbdContactBegin.data()};
  solverData.vbd.iterate(particles.p.data(), particles.inertial.data(), particles.w.data(),
                         vertexBlockDescentElements(), contacts, double(invH2), *tasks);
}

}  // namespace pbd
