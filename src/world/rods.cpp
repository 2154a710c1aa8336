// Cosserat rods (constraints/cosserat_rod.h): adding them, their frames' state, and the frames' part of the substep.
//
// A segment's frame is a rigid body of isotropic inertia I (m r² / 2, its twist's; bending is carried mostly by the
// particles), integrated as the particles are (implicit Euler, Algorithm 1 of Müller et al. 2006):
//   ω ← (1 − d h) ω + h τ / I,   q_start = q,   q ← normalize(q + h/2 [ω, 0] q)      (prediction)
//   ω = 2 Im(q q̄_start) / h   (the shorter way round)                                  (after the solve)
// Under BDF2 the frames follow the particles' formulas (world/bdf2.cpp) in rotation vectors about qⁿ, with
// r = log(qⁿ⁻¹ q̄ⁿ) where the particles have xⁿ⁻¹ − xⁿ:
//   θ̃ = −r/3 + 8/9 h ωⁿ − 2/9 h ωⁿ⁻¹ + 4/9 h² τ / I,   q̃ = exp(θ̃) qⁿ;   ωⁿ⁺¹ = (3/2 log(qⁿ⁺¹ q̄ⁿ) + 1/2 r) / h
#include <algorithm>
#include <cmath>

#include "base/checks.h"
#include "bodies/body_builders.h"
#include "pbd/world.h"
#include "world/body_materials.h"
#include "world/world_state.h"

namespace pbd {
namespace {

bool finite(const Quat& q) { return std::isfinite(q.x()) && std::isfinite(q.y()) && std::isfinite(q.z()) && std::isfinite(q.w()); }
bool finite(const Vec3& v) { return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z()); }

}  // namespace

BodyRange World::addRod(const RodDef& def) {
  Impl& m = *impl_;
  const char* fn = "addRod";
  RodBlueprint rod = buildRod(def);
  check::contactMaterial(fn, "contact", def.contact);
  ContactMaterial contact = def.contact;
  contact.thickness += def.radius;  // the particles are on the rod's axis
  RodState& r = m.rods;
  const size_t segments = r.segments.size() + rod.segments.size(), joints = r.joints.size() + rod.joints.size();
  if (segments > kMaxConstraints) check::fail(fn, "points", "would pass the constraint limit", segments);
  for (auto* v : {&r.orientation, &r.startOrientation, &r.prevOrientation, &r.savedOrientation}) v->reserve(segments);
  for (auto* v : {&r.angularVelocity, &r.torque, &r.prevAngularVelocity, &r.savedAngularVelocity, &r.stretchLambda})
    v->reserve(segments);
  r.segments.reserve(segments), r.joints.reserve(joints), r.bendLambda.reserve(joints);
  r.scratch.reserve(uint32_t(segments));
  r.starts.reserve(segments + 1);
  BodyRange range = m.appendBody(fn, rod.body, contact);  // the last thing that may throw
  range.firstSegment = uint32_t(r.segments.size());
  range.segmentCount = uint32_t(rod.segments.size());
  for (size_t k = 0; k < rod.segments.size(); ++k) {
    RodSegment s = rod.segments[k];
    s.p0 += range.firstParticle, s.p1 += range.firstParticle;
    r.segments.push_back(s);
    r.orientation.push_back(rod.orientations[k]);
    r.startOrientation.push_back(rod.orientations[k]);
    r.prevOrientation.push_back(rod.orientations[k]);
    r.savedOrientation.push_back(rod.orientations[k]);
    for (auto* v : {&r.angularVelocity, &r.torque, &r.prevAngularVelocity, &r.savedAngularVelocity, &r.stretchLambda})
      v->push_back(Vec3::Zero());
  }
  for (RodJoint j : rod.joints) {
    j.segment += range.firstSegment;
    r.joints.push_back(j);
    r.bendLambda.push_back(Vec3::Zero());
  }
  r.findRods();
  return range;
}

uint32_t World::segmentCount() const { return uint32_t(impl_->rods.segments.size()); }
// Quat (DontAlign) is its four coefficients x, y, z, w, and Vec3 its three: the arrays are flat Real arrays.
static_assert(sizeof(Quat) == 4 * sizeof(Real) && sizeof(Vec3) == 3 * sizeof(Real));
const Real* World::segmentOrientations() const { return reinterpret_cast<const Real*>(impl_->rods.orientation.data()); }
const Real* World::segmentAngularVelocities() const {
  return reinterpret_cast<const Real*>(impl_->rods.angularVelocity.data());
}

void World::setSegmentOrientation(uint32_t segment, const Quat& rotation) {
  const char* fn = "setSegmentOrientation";
  check::index(fn, "segment", segment, impl_->rods.segments.size());
  for (int a = 0; a < 4; ++a) check::finite(fn, "rotation", rotation.coeffs()[a]);
  if (!(rotation.norm() > 0)) check::fail(fn, "rotation", "must be non-zero (norm)", rotation.norm());
  impl_->rods.orientation[segment] = rotation.normalized();
  impl_->particles.historyValid = false;  // as setPosition: BDF2 starts over from here
}

void World::setSegmentAngularVelocity(uint32_t segment, const Vec3& omega) {
  check::index("setSegmentAngularVelocity", "segment", segment, impl_->rods.segments.size());
  check::finite("setSegmentAngularVelocity", "omega", omega);
  impl_->rods.angularVelocity[segment] = impl_->rods.segments[segment].inverseInertia > 0 ? omega : Vec3::Zero();
  impl_->particles.historyValid = false;
}

void World::setSegmentTorque(uint32_t segment, const Vec3& torque) {
  check::index("setSegmentTorque", "segment", segment, impl_->rods.segments.size());
  check::finite("setSegmentTorque", "torque", torque);
  impl_->rods.torque[segment] = torque;
}

void World::Impl::predictRodFrames(Real h, bool forces, bool bdf2) {
  const Real keep = forces ? std::max(Real(0), 1 - settings.linearDamping * h) : Real(1);
  for (size_t k = 0; k < rods.segments.size(); ++k) {
    Quat& q = rods.orientation[k];
    rods.startOrientation[k] = q;
    const Real inverseInertia = rods.segments[k].inverseInertia;
    if (inverseInertia == 0) continue;
    Vec3& omega = rods.angularVelocity[k];
    // Damping acts on the spin carried over, not on this substep's torque: it moves no static equilibrium.
    omega *= keep;
    const Vec3 accel = forces ? Vec3(inverseInertia * rods.torque[k]) : Vec3::Zero();
    if (bdf2) {
      const Eigen::Vector3d r = rotationVector(rods.prevOrientation[k] * q.conjugate());
      const Eigen::Vector3d turn = -r / 3 + (8.0 / 9 * h) * omega.cast<double>() -
                                   (2.0 / 9 * h) * rods.prevAngularVelocity[k].cast<double>() +
                                   (4.0 / 9 * h * h) * accel.cast<double>();
      q = turnedFrame(q, turn);
      continue;
    }
    omega += h * accel;
    const Quat spin(0, omega.x(), omega.y(), omega.z());
    q.coeffs() += (h / 2) * (spin * q).coeffs();
    q.normalize();
  }
}

/// Each rod in one direct solve (solvers/rod_direct_solve.h), the rods in parallel (each in its own part of the
/// scratch: the same bits on any thread count), as RodState::findRods found them.
void World::Impl::projectRods(Real invH2) {
  if (rods.empty()) return;
  auto solve = [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      const uint32_t first = rods.starts[r], count = rods.starts[r + 1] - first;
      const uint32_t firstJoint = first - uint32_t(r);  // a rod of n segments has n − 1 joints
      const RodView rod{asVec3(particles.p),           particles.w.data(),
                        rods.segments.data() + first,    rods.joints.data() + firstJoint,
                        rods.orientation.data() + first, rods.stretchLambda.data() + first,
                        rods.bendLambda.data() + firstJoint, count, first};
      solveRodDirect(rod, invH2, rods.scratch);
    }
  };
  tasks->parallelFor(rods.starts.size() - 1, 1, solve);
}

void World::Impl::commitRodFrames(Real h, bool bdf2) {
  for (size_t k = 0; k < rods.segments.size(); ++k) {
    if (rods.segments[k].inverseInertia == 0) {
      rods.angularVelocity[k].setZero();
      continue;
    }
    const Quat& start = rods.startOrientation[k];
    if (!bdf2) {
      Quat halfTurn = rods.orientation[k] * start.conjugate();  // Euler's ω, as the particles' (x − xₛ) / h
      if (halfTurn.w() < 0) halfTurn.coeffs() = -halfTurn.coeffs();
      rods.angularVelocity[k] = (2 / h) * halfTurn.vec();
      continue;
    }
    const Eigen::Vector3d turn = rotationVector(rods.orientation[k] * start.conjugate());
    const Eigen::Vector3d r = rotationVector(rods.prevOrientation[k] * start.conjugate());
    rods.prevOrientation[k] = start;
    rods.prevAngularVelocity[k] = rods.angularVelocity[k];
    rods.angularVelocity[k] = ((1.5 * turn + 0.5 * r) / double(h)).cast<Real>();
  }
}

void World::Impl::seedRodHistory() {
  std::copy(rods.orientation.begin(), rods.orientation.end(), rods.prevOrientation.begin());
  std::copy(rods.angularVelocity.begin(), rods.angularVelocity.end(), rods.prevAngularVelocity.begin());
}

void World::Impl::saveRodFrames() {
  std::copy(rods.orientation.begin(), rods.orientation.end(), rods.savedOrientation.begin());
  std::copy(rods.angularVelocity.begin(), rods.angularVelocity.end(), rods.savedAngularVelocity.begin());
}

bool World::Impl::rodFramesAreFinite() const {
  for (size_t k = 0; k < rods.segments.size(); ++k)
    if (!finite(rods.orientation[k]) || !finite(rods.angularVelocity[k])) return false;
  return true;
}

/// The rollback's part for the frames, before the particles are put back: every frame as the step found it, and a rod
/// with a non-finite particle or frame loses its spin, as its particles lose their velocity.
void World::Impl::restoreRodFrames() {
  size_t k = 0;
  while (k < rods.segments.size()) {
    const ParticleRange& body = particles.bodies[bodyOf(rods.segments[k].p0)];
    size_t end = k;
    bool bad = false;
    while (end < rods.segments.size() && rods.segments[end].p0 < body.end) {
      bad |= !finite(rods.orientation[end]) || !finite(rods.angularVelocity[end]);
      ++end;
    }
    for (uint32_t i = body.begin; i < body.end && !bad; ++i)
      bad = !finite(asVec3(particles.x)[i]) || !finite(asVec3(particles.v)[i]);
    for (; k < end; ++k) {
      rods.orientation[k] = rods.savedOrientation[k];
      rods.angularVelocity[k] = bad ? Vec3::Zero() : rods.savedAngularVelocity[k];
    }
  }
}

}  // namespace pbd
