// Embind layer: the only C++ that includes Emscripten. It converts JS values to the core's types, turns every C++
// exception into a JS Error carrying the core's message, and hands out zero-copy views of the particle arrays.
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <cmath>
#include <string>

#include "js_world.h"
#include "module_tasks.h"
#include "pbd/errors.h"
#include "pbd/world.h"
#include "wasm_values.h"

using emscripten::val;
using namespace pbd;
using namespace pbd::js;

namespace {

/// Bytes currently allocated by malloc: lets JS tests check that create/step/delete cycles do not leak.
double heapBytesInUse() { return double(mallinfo().uordblks); }

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
      .function("setDistanceSweep", &JsWorld::setDistanceSweep)
      .function("getDistanceSweep", &JsWorld::getDistanceSweep)
      .function("setSolver", &JsWorld::setSolver)
      .function("getSolver", &JsWorld::getSolver)
      .function("setJacobiRelaxation", &JsWorld::setJacobiRelaxation)
      .function("getJacobiRelaxation", &JsWorld::getJacobiRelaxation)
      .function("setHierarchy", &JsWorld::setHierarchy)
      .function("getHierarchy", &JsWorld::getHierarchy)
      .function("setRecordResiduals", &JsWorld::setRecordResiduals)
      .function("residuals", &JsWorld::residuals)
      .function("setLinearDamping", &JsWorld::setLinearDamping)
      .function("getLinearDamping", &JsWorld::getLinearDamping)
      .function("setRigidDamping", &JsWorld::setRigidDamping)
      .function("getRigidDamping", &JsWorld::getRigidDamping)
      .function("setChebyshevRho", &JsWorld::setChebyshevRho)
      .function("getChebyshevRho", &JsWorld::getChebyshevRho)
      .function("setGround", &JsWorld::setGround)
      .function("getGround", &JsWorld::getGround)
      .function("setSelfCollision", &JsWorld::setSelfCollision)
      .function("getSelfCollision", &JsWorld::getSelfCollision)
      .function("selfCollisionPairCount", &JsWorld::selfCollisionPairCount)
      .function("setMaxSpeed", &JsWorld::setMaxSpeed)
      .function("getMaxSpeed", &JsWorld::getMaxSpeed)
      .function("bodyCount", &JsWorld::bodyCount)
      .function("setBodyMaterial", &JsWorld::setBodyMaterial)
      .function("setContinuousSelfCollision", &JsWorld::setContinuousSelfCollision)
      .function("getContinuousSelfCollision", &JsWorld::getContinuousSelfCollision)
      .function("continuousSelfContactCount", &JsWorld::continuousSelfContactCount)
      .function("getBodyMaterial", &JsWorld::getBodyMaterial)
      .function("addParticle", &JsWorld::addParticle)
      .function("addParticles", &JsWorld::addParticles)
      .function("setInverseMass", &JsWorld::setInverseMass)
      .function("setVelocity", &JsWorld::setVelocity)
      .function("setPosition", &JsWorld::setPosition)
      .function("setExternalForce", &JsWorld::setExternalForce)
      .function("addDistanceConstraint", &JsWorld::addDistanceConstraint)
      .function("addDistanceConstraints", &JsWorld::addDistanceConstraints)
      .function("addTetVolumeConstraints", &JsWorld::addTetVolumeConstraints)
      .function("addSkinnedConstraints", &JsWorld::addSkinnedConstraints)
      .function("setSkinnedTargets", &JsWorld::setSkinnedTargets)
      .function("skinnedConstraintCount", &JsWorld::skinnedConstraintCount)
      .function("setDistanceStrength", &JsWorld::setDistanceStrength)
      .function("setConstraintStrength", &JsWorld::setConstraintStrength)
      .function("getConstraintStrength", &JsWorld::getConstraintStrength)
      .function("setSoftBodyMaterial", &JsWorld::setSoftBodyMaterial)
      .function("removeDistanceConstraint", &JsWorld::removeDistanceConstraint)
      .function("distanceConstraintCount", &JsWorld::distanceConstraintCount)
      .function("addDihedralConstraint", &JsWorld::addDihedralConstraint)
      .function("dihedralConstraintCount", &JsWorld::dihedralConstraintCount)
      .function("addAttachment", &JsWorld::addAttachment)
      .function("attachToCollider", &JsWorld::attachToCollider)
      .function("setAttachmentTarget", &JsWorld::setAttachmentTarget)
      .function("removeAttachment", &JsWorld::removeAttachment)
      .function("attachmentImpulse", &JsWorld::attachmentImpulse)
      .function("addCloth", &JsWorld::addCloth)
      .function("addRope", &JsWorld::addRope)
      .function("addRod", &JsWorld::addRod)
      .function("segmentCount", &JsWorld::segmentCount)
      .function("segmentOrientations", &JsWorld::segmentOrientations)
      .function("segmentAngularVelocities", &JsWorld::segmentAngularVelocities)
      .function("setSegmentOrientation", &JsWorld::setSegmentOrientation)
      .function("setSegmentAngularVelocity", &JsWorld::setSegmentAngularVelocity)
      .function("setSegmentTorque", &JsWorld::setSegmentTorque)
      .function("addSoftBody", &JsWorld::addSoftBody)
      .function("addTriangleMesh", &JsWorld::addTriangleMesh)
      .function("tetVolumeCount", &JsWorld::tetVolumeCount)
      .function("addShapeMatching", &JsWorld::addShapeMatching)
      .function("shapeMatchingCount", &JsWorld::shapeMatchingCount)
      .function("triangleStrainCount", &JsWorld::triangleStrainCount)
      .function("addCollider", &JsWorld::addCollider)
      .function("setColliderPose", &JsWorld::setColliderPose)
      .function("setColliderMeshVertices", &JsWorld::setColliderMeshVertices)
      .function("colliderImpulse", &JsWorld::colliderImpulse)
      .function("setColliderBody", &JsWorld::setColliderBody)
      .function("colliderBody", &JsWorld::colliderBody)
      .function("removeCollider", &JsWorld::removeCollider)
      .function("removeBody", &JsWorld::removeBody)
      .function("tearEdges", &JsWorld::tearEdges)
      .function("lastTearCount", &JsWorld::lastTearCount)
      .function("lastTears", &JsWorld::lastTears)
      .function("bodyTriangles", &JsWorld::bodyTriangles)
      .function("colliderCount", &JsWorld::colliderCount)
      .function("step", &JsWorld::step)
      .function("lastStepReport", &JsWorld::lastStepReport)
      .function("setStepTimings", &JsWorld::setStepTimings)
      .function("setPoolUse", &JsWorld::setPoolUse)
      .function("poolUse", &JsWorld::poolUse)
      .function("lastStepUsedPool", &JsWorld::lastStepUsedPool)
      .function("lastStepTimings", &JsWorld::lastStepTimings)
      .function("saveSnapshot", &JsWorld::saveSnapshot)
      .function("loadSnapshot", &JsWorld::loadSnapshot)
      .function("positions", &JsWorld::positions)
      .function("velocities", &JsWorld::velocities)
      .function("inverseMasses", &JsWorld::inverseMasses)
      .function("particleCount", &JsWorld::particleCount)
      .function("constraintCount", &JsWorld::constraintCount)
      .function("tetherCount", &JsWorld::tetherCount)
      .function("contactCount", &JsWorld::contactCount)
      .function("contacts", &JsWorld::contacts)
      .function("neoHookeanCount", &JsWorld::neoHookeanCount)
      .function("surfaceVolumeCount", &JsWorld::surfaceVolumeCount)
      .function("surfaceVolume", &JsWorld::surfaceVolume)
      .function("surfaceRestVolume", &JsWorld::surfaceRestVolume);
}
