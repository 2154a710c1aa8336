// World::Impl's constraints: one array per kind in the order added (the API's indices, and the serial
// Gauss-Seidel's order), each with its XPBD multipliers.
#pragma once

#include <cstdint>
#include <vector>

#include "constraints/dihedral.h"
#include "constraints/distance.h"
#include "constraints/neo_hookean.h"
#include "constraints/shape_matching.h"
#include "constraints/surface_volume.h"
#include "constraints/tet_volume.h"
#include "constraints/tether.h"
#include "constraints/triangle_strain.h"
#include "pbd/world.h"

namespace pbd {

struct Attachment {
  uint32_t particle;  ///< Particle index.
  Vec3 target;        ///< m, where the particle is pulled at the end of the next step.
  Vec3 startTarget;   ///< m, the target at the start of the step; substeps move linearly from it to `target`, so a
                      ///< dragged particle moves smoothly and keeps the drag's velocity when released.
  Real compliance;    ///< XPBD α, m/N.
  Real stiffness;     ///< PBD k.
  Real kPrime;        ///< Cached corrected stiffness.
  bool active;        ///< false = removed, slot free for reuse.
  uint32_t collider = kNoCollider;  ///< The collider whose point `anchor` is the target, or kNoCollider.
  Vec3 anchor = Vec3::Zero();       ///< m, in the collider's frame.
};

/// An attachment's collider and anchor as saved (snapshot section ATCC).
struct AttachmentLink {
  uint32_t collider = kNoCollider;
  Vec3 anchor = Vec3::Zero();
};

/// A skinned constraint (SkinnedConstraintDef) with its skinned position and normal, which move linearly across the
/// substeps from where the last step left them (start) to where setSkinnedTargets put them.
struct SkinnedConstraint {
  uint32_t particle;
  Real maxDistance;       ///< m, >= 0.
  Real backstopDistance;  ///< m, >= 0, or -1 = no backstop.
  Real backstopRadius;    ///< m, >= 0; 0 = a plane.
  Vec3 target;            ///< m, the skinned position s at the end of the next step.
  Vec3 startTarget;       ///< m, s at the start of the step.
  Vec3 normal;            ///< The skinned surface's unit normal at `target`; zero = no backstop yet.
  Vec3 startNormal;
};

/// A skinned constraint's skinned position and unit normal (or zero) where the substep ends: interpolated once per
/// substep, read by every pass of it.
struct SkinnedFrame {
  Vec3 target;
  Vec3 normal;
};

/// Every constraint of the world, by kind.
struct ConstraintStore {
  std::vector<DistanceConstraint> distances;  // in the order added: the API's indices, and Gauss-Seidel's order
  std::vector<Real> distanceLambda;
  std::vector<uint32_t> distanceColour;  // colour of each distance constraint (GraphColouring::kOverflow too)
  int kPrimeIterations = 0;              // iteration count the cached k' were computed for
  std::vector<DihedralConstraint> dihedrals;
  std::vector<Real> dihedralLambda;
  std::vector<TetVolumeConstraint> volumes;
  std::vector<Real> volumeLambda;
  std::vector<Tether> tethers;  // at most one per particle, so all independent
  std::vector<NeoHookeanTet> neoHookeans;
  std::vector<Real> neoHookeanLambda;  // 2 per tet: deviatoric, hydrostatic
  std::vector<SurfaceVolumeConstraint> surfaceVolumes;
  std::vector<Real> surfaceVolumeLambda;
  std::vector<uint32_t> surfaceVertices;   // particle indices: one slice per surface volume
  std::vector<uint32_t> surfaceTriangles;  // 3 per triangle, indices into its surface's slice of surfaceVertices
  std::vector<Vec3> volumeGradient;        // scratch as large as the largest surface (step() never allocates)
  std::vector<TriangleStrainConstraint> triangleStrains;  // in the order added (Gauss-Seidel's order)
  std::vector<Real> triangleStrainLambda;                 // 3 per triangle, indexed by TriangleStrain
  std::vector<ShapeMatchingCluster> shapeMatchings;
  std::vector<uint32_t> shapeMatchingMembers;  // particle indices: one slice per cluster
  std::vector<Vec3> shapeMatchingRestOffsets;  // parallel to shapeMatchingMembers
  std::vector<Real> shapeMatchingMasses;       // parallel to shapeMatchingMembers
  std::vector<Real> shapeMatchingLambda;       // 1 per cluster

  std::vector<Attachment> attachments;
  std::vector<Real> attachmentLambda;
  std::vector<Eigen::Vector3d> attachmentMomenta;  // per attachment, the momentum it gave its particle this step
  bool attachmentMomentaMeasured = false;          // the last step booked them (not under VBD: contacts.cpp)
  std::vector<uint32_t> freeAttachments;
  std::vector<SkinnedConstraint> skinned;  // in the order added (at most one per particle), projected last
  std::vector<SkinnedFrame> skinnedFrames; // per skinned constraint, its skinned position and normal this substep
};

}  // namespace pbd
