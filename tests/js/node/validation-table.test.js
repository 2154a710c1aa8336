// The input-validation table (docs/validation.md) is executable: every row whose test column says `js` names a case
// below; the case's call must throw an Error whose message contains the row's fragment, and leave the world exactly
// as it was (particle bits, every count, every setting); every such error is an InvalidArgumentError. A row without a
// case, or a case without a row, fails.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, createPbd } from '../../../web/lib/index.js';

const docUrl = new URL('../../../docs/validation.md', import.meta.url);

/** Rows of the doc's tables: | `key` | input | `message fragment` | test |, with the function heading above. */
function tableRows(markdown) {
  const rows = [];
  let group = '';
  for (const line of markdown.split('\n')) {
    if (line.startsWith('### ')) group = line.slice(4).trim();
    const m = /^\|\s*`([^`]+)`\s*\|(.*)\|\s*$/.exec(line);
    if (!m) continue;
    const cells = m[2].split('|').map((c) => c.trim());
    const fragment = /^`(.+)`$/.exec(cells[1]);
    rows.push({ key: m[1], group, fragment: fragment ? fragment[1] : null, test: cells[2] });
  }
  return rows;
}

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

// One tet, right-handed (volume +1/6), and its closed outward-facing surface.
const tetPositions = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];
const tetSurface = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3];
const soft = (extra) => ({ positions: tetPositions, tets: [0, 1, 2, 3], ...extra });
const mesh = (extra) => ({ positions: tetPositions, triangles: tetSurface, ...extra });
const cloth = (extra) => ({ columns: 4, rows: 4, spacing: 0.1, ...extra });
const rope = (extra) => ({ segments: 4, ...extra });
const rod = (extra) => ({ points: [0, 1, 0, 0.1, 1, 0, 0.2, 1, 0, 0.3, 1, 0, 0.4, 1, 0], ...extra });

/** key -> (world, fixture) => the bad call. The fixture: a 4x4 cloth (row 0, particles 0-3, pinned), attachment
 * `attachment` on particle 5, a removed attachment handle `removed`, and collider 0. */
const cases = {
  // --- World: simulation and settings ---
  'step-zero': (w) => w.step(0),
  'step-negative': (w) => w.step(-1),
  'step-nan': (w) => w.step(NaN),
  'step-inf': (w) => w.step(Infinity),
  'step-too-long': (w) => w.step(2),
  'step-tiny': (w) => w.step(1e-40),
  'gravity-nan': (w) => w.setGravity(0, NaN, 0),
  'gravity-inf': (w) => w.setGravity(Infinity, 0, 0),
  'method-unknown': (w) => w.setMethod('verlet'),
  'substeps-zero': (w) => w.setSubsteps(0),
  'substeps-fraction': (w) => w.setSubsteps(1.5),
  'substeps-absurd': (w) => w.setSubsteps(1e5),
  'substeps-nan': (w) => w.setSubsteps(NaN),
  'iterations-negative': (w) => w.setIterations(-1),
  'iterations-absurd': (w) => w.setIterations(5000),
  'integrator-unknown': (w) => w.setIntegrator('rk4'),
  'distance-sweep-unknown': (w) => w.setDistanceSweep('backward'),
  'solver-unknown': (w) => w.setSolver('sor'),
  'pool-use-unknown': (w) => w.setPoolUse('sometimes'),
  'jacobi-zero': (w) => w.setJacobiRelaxation(0),
  'jacobi-two': (w) => w.setJacobiRelaxation(2),
  'jacobi-nan': (w) => w.setJacobiRelaxation(NaN),
  'hierarchy-not-object': (w) => w.setHierarchy(3),
  'hierarchy-levels': (w) => w.setHierarchy({ levels: 0 }),
  'hierarchy-parents-fraction': (w) => w.setHierarchy({ parents: 1.5 }),
  'hierarchy-coarse-iterations': (w) => w.setHierarchy({ coarseIterations: 5000 }),
  'snapshot-type': (w) => w.loadSnapshot('blob'),
  'snapshot-garbage': (w) => w.loadSnapshot(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])),
  'snapshot-truncated': (w) => w.loadSnapshot(w.saveSnapshot().slice(0, 40)),
  'damping-negative': (w) => w.setLinearDamping(-1),
  'damping-inf': (w) => w.setLinearDamping(Infinity),
  'rigid-damping-above-one': (w) => w.setRigidDamping(2),
  'rigid-damping-negative': (w) => w.setRigidDamping(-0.1),
  'chebyshev-rho-one': (w) => w.setChebyshevRho(1),
  'chebyshev-rho-negative': (w) => w.setChebyshevRho(-0.5),
  'chebyshev-rho-nan': (w) => w.setChebyshevRho(NaN),
  'ground-not-object': (w) => w.setGround(3),
  'ground-friction': (w) => w.setGround({ friction: -1 }),
  'ground-static-friction': (w) => w.setGround({ staticFriction: -0.5 }),
  'ground-static-friction-nan': (w) => w.setGround({ staticFriction: NaN }),
  'ground-restitution': (w) => w.setGround({ restitution: 2 }),
  'ground-height-nan': (w) => w.setGround({ height: NaN }),
  'ground-height-type': (w) => w.setGround({ height: 'low' }),
  'ground-thickness': (w) => w.setGround({ thickness: -1 }),
  'ground-threshold': (w) => w.setGround({ restitutionThreshold: -1 }),
  'self-collision-not-object': (w) => w.setSelfCollision(null),
  'self-collision-radius-zero': (w) => w.setSelfCollision({ enabled: true, radius: 0 }),
  'self-collision-radius-nan': (w) => w.setSelfCollision({ enabled: true, radius: NaN }),
  'self-collision-radius-type': (w) => w.setSelfCollision({ radius: '1cm' }),
  // --- World: particles ---
  'particle-nan': (w) => w.addParticle(NaN, 0, 0, 1),
  'particle-inf': (w) => w.addParticle(0, Infinity, 0, 1),
  'particle-mass-negative': (w) => w.addParticle(0, 0, 0, -1),
  'particle-mass-inf': (w) => w.addParticle(0, 0, 0, Infinity),
  'particles-nan': (w) => w.addParticles([0, 0, 0, 1, NaN, 0], [1, 1]),
  'particles-length': (w) => w.addParticles([0, 0], undefined),
  'particles-empty': (w) => w.addParticles([], undefined),
  'particles-masses-length': (w) => w.addParticles([0, 0, 0], [1, 2]),
  'particles-masses-negative': (w) => w.addParticles([0, 0, 0, 1, 0, 0], [1, -2]),
  'particles-not-array': (w) => w.addParticles(5, undefined),
  'inverse-mass-index-range': (w) => w.setInverseMass(1e6, 1),
  'inverse-mass-index-negative': (w) => w.setInverseMass(-1, 1),
  'inverse-mass-index-fraction': (w) => w.setInverseMass(1.5, 1),
  'inverse-mass-inf': (w) => w.setInverseMass(0, Infinity),
  'inverse-mass-negative': (w) => w.setInverseMass(1, -1),
  'velocity-index-range': (w) => w.setVelocity(99, 0, 0, 0),
  'velocity-nan': (w) => w.setVelocity(3, 0, 0, NaN),
  'position-index-range': (w) => w.setPosition(99, 0, 0, 0),
  'position-inf': (w) => w.setPosition(1, 0, Infinity, 0),
  'force-index-range': (w) => w.setExternalForce(16, 0, 0, 0),
  'force-inf': (w) => w.setExternalForce(2, Infinity, 0, 0),
  // --- World: constraints ---
  'distance-i-range': (w) => w.addDistanceConstraint(999, 0, undefined),
  'distance-j-range': (w) => w.addDistanceConstraint(0, 999, undefined),
  'distance-same': (w) => w.addDistanceConstraint(2, 2, undefined),
  'distance-compliance': (w) => w.addDistanceConstraint(0, 1, { compliance: -1 }),
  'distance-stiffness': (w) => w.addDistanceConstraint(0, 1, { stiffness: 1.5 }),
  'distance-rest-nan': (w) => w.addDistanceConstraint(0, 1, { restLength: NaN }),
  'distance-min-negative': (w) => w.addDistanceConstraint(0, 1, { minLength: -2, maxLength: 1 }),
  'distance-max-below-min': (w) => w.addDistanceConstraint(0, 1, { minLength: 2, maxLength: 1 }),
  'distance-max-below-current': (w) => w.addDistanceConstraint(0, 15, { maxLength: 0.01 }),
  'distance-option-type': (w) => w.addDistanceConstraint(0, 1, { compliance: 'soft' }),
  'distances-pair-range': (w) => w.addDistanceConstraints([0, 1, 2, 16]),
  'distances-pair-same': (w) => w.addDistanceConstraints([0, 1, 2, 2]),
  'distances-odd': (w) => w.addDistanceConstraints([0, 1, 2]),
  'distances-not-indices': (w) => w.addDistanceConstraints([0, 1.5]),
  'distances-rest-count': (w) => w.addDistanceConstraints([0, 1, 2, 3], { restLengths: [1] }),
  'distances-rest-negative': (w) => w.addDistanceConstraints([0, 1, 2, 3], { restLengths: [1, -1] }),
  'distances-compliance': (w) => w.addDistanceConstraints([0, 1], { compliance: -1 }),
  'tets-range': (w) => w.addTetVolumeConstraints([0, 1, 2, 16]),
  'tets-repeat': (w) => w.addTetVolumeConstraints([0, 1, 2, 2]),
  'tets-length': (w) => w.addTetVolumeConstraints([0, 1, 2]),
  'tets-flat': (w) => w.addTetVolumeConstraints([0, 1, 2, 3]),
  'tets-compliance': (w) => w.addTetVolumeConstraints([0, 1, 2, 3], { compliance: -1 }),
  'distance-strength-range': (w) => w.setDistanceStrength(0, 1e6, 0, 1),
  'distance-strength-stiffness': (w) => w.setDistanceStrength(0, 1, 0, -0.5),
  'distance-strength-compliance': (w) => w.setDistanceStrength(0, 1, NaN, 1),
  'distance-strength-first': (w) => w.setDistanceStrength(-1, 1, 0, 1),
  'constraint-strength-kind': (w) => w.setConstraintStrength('springs', 0, 1, 0, 1),
  'constraint-strength-range': (w) => w.setConstraintStrength('dihedral', 0, 1, 0, 1),
  'constraint-strength-first': (w) => w.setConstraintStrength('distance', 1.5, 1, 0, 1),
  'constraint-strength-compliance': (w) => w.setConstraintStrength('distance', 0, 1, -1, 1),
  'constraint-strength-compliance-inf': (w) => w.setConstraintStrength('distance', 0, 1, Infinity, 1),
  'constraint-strength-stiffness': (w) => w.setConstraintStrength('distance', 0, 1, 0, 2),
  'get-constraint-strength-kind': (w) => w.getConstraintStrength('springs', 0),
  'get-constraint-strength-range': (w) => w.getConstraintStrength('distance', 1e6),
  'get-constraint-strength-index': (w) => w.getConstraintStrength('distance', -1),
  'set-soft-material-body-range': (w) => w.setSoftBodyMaterial(99, 1e5, 0.3, 1),
  'set-soft-material-not-neo-hookean': (w) => w.setSoftBodyMaterial(0, 1e5, 0.3, 1),
  'set-soft-material-young-zero': (w) => w.setSoftBodyMaterial(0, 0, 0.3, 1),
  'set-soft-material-young-nan': (w) => w.setSoftBodyMaterial(0, NaN, 0.3, 1),
  'set-soft-material-poisson-half': (w) => w.setSoftBodyMaterial(0, 1e5, 0.5, 1),
  'set-soft-material-stiffness': (w) => w.setSoftBodyMaterial(0, 1e5, 0.3, 1.5),
  'dihedral-range': (w) => w.addDihedralConstraint(0, 5, 1, 99, undefined),
  'dihedral-repeat': (w) => w.addDihedralConstraint(0, 5, 1, 1, undefined),
  'dihedral-compliance': (w) => w.addDihedralConstraint(0, 5, 1, 4, { compliance: -1 }),
  'dihedral-rest-range': (w) => w.addDihedralConstraint(0, 5, 1, 4, { restAngle: 4 }),
  'dihedral-rest-nan': (w) => w.addDihedralConstraint(0, 5, 1, 4, { restAngle: NaN }),
  'dihedral-degenerate': (w) => w.addDihedralConstraint(0, 1, 2, 3, undefined),  // the pinned row: collinear
  'attachment-particle': (w) => w.addAttachment(1e4, 0, 0, 0, undefined),
  'attachment-target': (w) => w.addAttachment(1, 0, NaN, 0, undefined),
  'attachment-compliance': (w) => w.addAttachment(1, 0, 0, 0, { compliance: -1 }),
  'attachment-stiffness': (w) => w.addAttachment(1, 0, 0, 0, { stiffness: 2 }),
  'attachment-target-handle': (w) => w.setAttachmentTarget(55, 0, 0, 0),
  'attachment-target-removed': (w, f) => w.setAttachmentTarget(f.removed, 0, 0, 0),
  'attachment-target-nan': (w, f) => w.setAttachmentTarget(f.attachment, 0, 0, NaN),
  'remove-attachment-handle': (w) => w.removeAttachment(55),
  'remove-attachment-removed': (w, f) => w.removeAttachment(f.removed),
  'shape-matching-not-object': (w) => w.addShapeMatching(null),
  'shape-matching-too-small': (w) => w.addShapeMatching({ particles: [5] }),
  'shape-matching-missing': (w) => w.addShapeMatching({}),
  'shape-matching-repeat': (w) => w.addShapeMatching({ particles: [5, 6, 5] }),
  'shape-matching-range': (w) => w.addShapeMatching({ particles: [5, 99] }),
  'shape-matching-negative': (w) => w.addShapeMatching({ particles: [5, -1] }),
  'shape-matching-all-pinned': (w) => w.addShapeMatching({ particles: [0, 3] }),
  'shape-matching-compliance': (w) => w.addShapeMatching({ particles: [5, 6], compliance: NaN }),
  'surface-volume-range': (w) => w.surfaceVolume(0),
  'global-rest-volume-range': (w) => w.surfaceRestVolume(3),
  // --- World: colliders ---
  'remove-collider-range': (w) => w.removeCollider(5),
  'collider-not-object': (w) => w.addCollider(undefined),
  'collider-shape': (w) => w.addCollider({ shape: 'cone' }),
  'collider-position': (w) => w.addCollider({ shape: 'sphere', position: [0, NaN, 0] }),
  'collider-rotation-length': (w) => w.addCollider({ shape: 'box', rotation: [0, 0, 1] }),
  'collider-rotation-zero': (w) => w.addCollider({ shape: 'box', rotation: [0, 0, 0, 0] }),
  'collider-rotation-inf': (w) => w.addCollider({ shape: 'box', rotation: [0, 0, 0, Infinity] }),
  'collider-radius': (w) => w.addCollider({ shape: 'sphere', radius: 0 }),
  'collider-half-height': (w) => w.addCollider({ shape: 'capsule', halfHeight: -1 }),
  'collider-half-extents': (w) => w.addCollider({ shape: 'box', halfExtents: [1, 0, 1] }),
  'collider-thickness': (w) => w.addCollider({ shape: 'sphere', thickness: -0.1 }),
  'collider-friction': (w) => w.addCollider({ shape: 'sphere', friction: NaN }),
  'collider-static-friction': (w) => w.addCollider({ shape: 'sphere', staticFriction: -2 }),
  'collider-restitution': (w) => w.addCollider({ shape: 'sphere', restitution: 1.5 }),
  'collider-mesh-no-indices': (w) => w.addCollider({ shape: 'mesh', positions: [0, 0, 0, 1, 0, 0, 0, 0, 1] }),
  'collider-mesh-positions-empty': (w) => w.addCollider({ shape: 'mesh', positions: [], indices: [0, 1, 2] }),
  'collider-mesh-positions-nan': (w) =>
    w.addCollider({ shape: 'mesh', positions: [0, NaN, 0, 1, 0, 0, 0, 0, 1], indices: [0, 1, 2] }),
  'collider-mesh-indices-empty': (w) => w.addCollider({ shape: 'mesh', positions: [0, 0, 0, 1, 0, 0, 0, 0, 1], indices: [] }),
  'collider-mesh-indices-range': (w) =>
    w.addCollider({ shape: 'mesh', positions: [0, 0, 0, 1, 0, 0, 0, 0, 1], indices: [0, 1, 3] }),
  'collider-mesh-degenerate': (w) => w.addCollider({ shape: 'mesh', positions: [0, 0, 0, 1, 0, 0, 2, 0, 0], indices: [0, 1, 2] }),
  'collider-mesh-vertices-not-mesh': (w) => w.setColliderMeshVertices(0, [0, 0, 0]),
  'body-material-index': (w) => w.setBodyMaterial(99, { friction: 0.5 }),
  'body-material-not-object': (w) => w.setBodyMaterial(0, 0.5),
  'body-material-friction': (w) => w.setBodyMaterial(0, { friction: -0.5 }),
  'body-material-friction-nan': (w) => w.setBodyMaterial(0, { friction: NaN }),
  'body-material-restitution': (w) => w.setBodyMaterial(0, { restitution: 1.5 }),
  'body-material-cloth': (w) => w.addCloth(cloth({ contact: { friction: -2 } })),
  'body-material-static-friction': (w) => w.setBodyMaterial(0, { staticFriction: NaN }),
  'body-material-cloth-static-friction': (w) => w.addCloth(cloth({ contact: { staticFriction: -3 } })),
  'body-material-thickness': (w) => w.setBodyMaterial(0, { thickness: -0.01 }),
  'body-material-cloth-thickness': (w) => w.addCloth(cloth({ contact: { thickness: Infinity } })),
  'continuous-self-collision-thickness-bound': (w) => w.setContinuousSelfCollision(0, { enabled: true, thickness: 0.08 }),
  'cloth-self-collision-thickness-bound': (w) =>
    w.addCloth(cloth({ continuousSelfCollision: { enabled: true, thickness: 0.08 } })),
  'max-speed-negative': (w) => w.setMaxSpeed(-1),
  'max-speed-nan': (w) => w.setMaxSpeed(NaN),
  'collider-pose-index': (w) => w.setColliderPose(5, 0, 0, 0, 0, 0, 0, 1),
  'collider-pose-position': (w) => w.setColliderPose(0, Infinity, 0, 0, 0, 0, 0, 1),
  'collider-pose-rotation': (w) => w.setColliderPose(0, 0, 0, 0, 0, 0, 0, 0),
  'collider-pose-rotation-nan': (w) => w.setColliderPose(0, 0, 0, 0, NaN, 0, 0, 1),
  // --- World: bodies ---
  'cloth-not-object': (w) => w.addCloth(7),
  'cloth-columns': (w) => w.addCloth(cloth({ columns: 1 })),
  'cloth-rows-negative': (w) => w.addCloth(cloth({ rows: -5 })),
  'cloth-columns-missing': (w) => w.addCloth({ rows: 3 }),
  'cloth-columns-fraction': (w) => w.addCloth(cloth({ columns: 2.5 })),
  'cloth-absurd': (w) => w.addCloth(cloth({ columns: 1e5, rows: 1e5 })),
  'cloth-spacing-zero': (w) => w.addCloth(cloth({ spacing: 0 })),
  'cloth-spacing-nan': (w) => w.addCloth(cloth({ spacing: NaN })),
  'cloth-spacing-overflow': (w) => w.addCloth(cloth({ spacing: 3e38 })),
  'cloth-origin': (w) => w.addCloth(cloth({ origin: [0, Infinity, 0] })),
  'cloth-origin-length': (w) => w.addCloth(cloth({ origin: [0, 0] })),
  'cloth-axis-zero': (w) => w.addCloth(cloth({ axisU: [0, 0, 0] })),
  'cloth-axes-parallel': (w) => w.addCloth(cloth({ axisU: [1, 0, 0], axisV: [2, 0, 0] })),
  'cloth-mass': (w) => w.addCloth(cloth({ mass: 0 })),
  'cloth-mass-tiny': (w) => w.addCloth(cloth({ mass: 1e-40 })),
  'cloth-pinned': (w) => w.addCloth(cloth({ pinned: [0, 16] })),
  'cloth-pinned-negative': (w) => w.addCloth(cloth({ pinned: [-1] })),
  'cloth-stretch': (w) => w.addCloth(cloth({ stretch: { compliance: -1 } })),
  'cloth-stretch-type': (w) => w.addCloth(cloth({ stretch: 0.5 })),
  'cloth-shear': (w) => w.addCloth(cloth({ shear: { stiffness: 2 } })),
  'cloth-bend': (w) => w.addCloth(cloth({ bend: { stiffness: NaN } })),
  'cloth-bend-model': (w) => w.addCloth(cloth({ bendModel: 'stiff' })),
  'cloth-model': (w) => w.addCloth(cloth({ model: 'fem' })),
  'cloth-tethers-unknown': (w) => w.addCloth(cloth({ pinned: [0], tethers: 'rigid' })),
  'cloth-tethers-no-pins': (w) => w.addCloth(cloth({ tethers: 'geodesic' })),
  'cloth-tether-slack': (w) => w.addCloth(cloth({ pinned: [0], tethers: 'euclidean', tetherSlack: 0.5 })),
  'cloth-pin-regions-type': (w) => w.addCloth(cloth({ pinRegions: 3 })),
  'cloth-pin-region-shape': (w) => w.addCloth(cloth({ pinRegions: [{ shape: 'cone' }] })),
  'cloth-pin-region-radius': (w) => w.addCloth(cloth({ pinRegions: [{ shape: 'sphere', centre: [0, 0, 0], radius: -1 }] })),
  'cloth-pin-region-half-extents': (w) => w.addCloth(cloth({ pinRegions: [{ centre: [0, 0, 0], halfExtents: [1, NaN, 1] }] })),
  'rod-not-object': (w) => w.addRod(3),
  'rod-points-missing': (w) => w.addRod({}),
  'rod-points-length': (w) => w.addRod({ points: [0, 0, 0, 1] }),
  'rod-points-one': (w) => w.addRod({ points: [0, 0, 0] }),
  'rod-points-repeated': (w) => w.addRod({ points: [0, 0, 0, 0, 0, 0] }),
  'rod-points-nan': (w) => w.addRod({ points: [0, 0, 0, NaN, 0, 0] }),
  'rod-radius': (w) => w.addRod(rod({ radius: 0 })),
  'rod-density': (w) => w.addRod(rod({ density: -1 })),
  'rod-youngs-modulus': (w) => w.addRod(rod({ youngsModulus: 0 })),
  'rod-shear-modulus': (w) => w.addRod(rod({ shearModulus: Infinity })),
  'rod-clamped': (w) => w.addRod(rod({ clampedSegments: [4] })),
  'rod-pinned': (w) => w.addRod(rod({ pinned: [5] })),
  'segment-orientation-index': (w) => w.setSegmentOrientation(0, [0, 0, 0, 1]),
  'segment-angular-velocity-index': (w) => w.setSegmentAngularVelocity(0, [0, 0, 1]),
  'segment-torque-index': (w) => w.setSegmentTorque(0, [0, 0, 1]),
  'tearing-strain-zero': (w) => w.addCloth(cloth({ tearing: { strain: 0 } })),
  'tearing-strain-nan': (w) => w.addCloth(cloth({ tearing: { strain: NaN } })),
  'tearing-not-object': (w) => w.addCloth(cloth({ tearing: true })),
  'tearing-unknown-key': (w) => w.addCloth(cloth({ tearing: { strian: 0.5 } })),
  'tearing-closed-mesh': (w) => w.addTriangleMesh(mesh({ pressure: 1, tearing: { strain: 0.5 } })),
  'tear-body-index': (w) => w.tearEdges(9, [0, 1]),
  'tear-not-tearable': (w) => w.tearEdges(0, [0, 1]),
  'tear-edges-not-array': (w) => w.tearEdges(0, 'edges'),
  'body-triangles-not-tearable': (w) => w.bodyTriangles(0),
  'rope-not-object': (w) => w.addRope('rope'),
  'rope-segments': (w) => w.addRope(rope({ segments: 0 })),
  'rope-segments-missing': (w) => w.addRope({}),
  'rope-end': (w) => w.addRope(rope({ start: [1, 1, 1], end: [1, 1, 1] })),
  'rope-start': (w) => w.addRope(rope({ start: [NaN, 0, 0] })),
  'rope-overflow': (w) => w.addRope(rope({ start: [-3e38, 0, 0], end: [3e38, 0, 0] })),
  'rope-mass': (w) => w.addRope(rope({ mass: 0 })),
  'rope-mass-tiny': (w) => w.addRope(rope({ mass: 1e-40 })),
  'rope-pinned': (w) => w.addRope(rope({ pinned: [5] })),
  'rope-stretch': (w) => w.addRope(rope({ stretch: { compliance: Infinity } })),
  'soft-not-object': (w) => w.addSoftBody(null),
  'soft-positions-missing': (w) => w.addSoftBody({ tets: [0, 1, 2, 3] }),
  'soft-positions-length': (w) => w.addSoftBody(soft({ positions: [0, 0] })),
  'soft-positions-nan': (w) => w.addSoftBody(soft({ positions: [0, 0, 0, 1, 0, 0, 0, NaN, 0, 0, 0, 1] })),
  'soft-tets-length': (w) => w.addSoftBody(soft({ tets: [0, 1, 2] })),
  'soft-tets-range': (w) => w.addSoftBody(soft({ tets: [0, 1, 2, 9] })),
  'soft-tets-negative': (w) => w.addSoftBody(soft({ tets: [0, 1, 2, -3] })),
  'soft-tet-repeat': (w) => w.addSoftBody(soft({ tets: [0, 1, 2, 2] })),
  'soft-tet-inverted': (w) => w.addSoftBody(soft({ tets: [0, 2, 1, 3] })),
  'soft-tet-degenerate': (w) => w.addSoftBody(soft({ positions: [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0] })),
  'soft-vertex-unused': (w) => w.addSoftBody(soft({ positions: [...tetPositions, 5, 5, 5] })),
  'soft-density': (w) => w.addSoftBody(soft({ density: 0 })),
  'soft-density-tiny': (w) => w.addSoftBody(soft({ density: 1e-40 })),
  'soft-total-mass': (w) => w.addSoftBody(soft({ totalMass: -1 })),
  'soft-total-mass-tiny': (w) => w.addSoftBody(soft({ totalMass: 1e-40 })),
  'soft-pinned': (w) => w.addSoftBody(soft({ pinned: [4] })),
  'soft-edges': (w) => w.addSoftBody(soft({ edges: { compliance: -1 } })),
  'soft-edge-constraints-type': (w) => w.addSoftBody(soft({ edgeConstraints: 'yes' })),
  'soft-volume': (w) => w.addSoftBody(soft({ volume: { stiffness: 2 } })),
  'soft-material': (w) => w.addSoftBody(soft({ material: 'steel' })),
  'soft-youngs-modulus': (w) => w.addSoftBody(soft({ material: 'neo-hookean', youngsModulus: -1 })),
  'soft-poisson-half': (w) => w.addSoftBody(soft({ material: 'neo-hookean', poissonRatio: 0.5 })),
  'soft-poisson-minus-one': (w) => w.addSoftBody(soft({ material: 'neo-hookean', poissonRatio: -1 })),
  'soft-material-stiffness': (w) => w.addSoftBody(soft({ material: 'neo-hookean', materialStiffness: 2 })),
  'soft-shape-matching-pinned': (w) => w.addSoftBody(soft({ shapeMatching: true, pinned: [0, 1, 2, 3] })),
  'soft-shape-matching-strength': (w) => w.addSoftBody(soft({ shapeMatching: true, shapeMatchingStrength: { stiffness: 2 } })),
  'mesh-not-object': (w) => w.addTriangleMesh(0),
  'mesh-positions-length': (w) => w.addTriangleMesh(mesh({ positions: [0, 0, 0, 1] })),
  'mesh-positions-nan': (w) => w.addTriangleMesh(mesh({ positions: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, NaN] })),
  'mesh-triangles-length': (w) => w.addTriangleMesh(mesh({ triangles: [0, 1] })),
  'mesh-triangles-range': (w) => w.addTriangleMesh(mesh({ triangles: [0, 1, 7] })),
  'mesh-triangle-degenerate': (w) => w.addTriangleMesh(mesh({ triangles: [0, 1, 1] })),
  'mesh-triangle-degenerate-unwelded': (w) => w.addTriangleMesh(mesh({ weldTolerance: -1, triangles: [0, 1, 1] })),
  'mesh-weld-tolerance': (w) => w.addTriangleMesh(mesh({ weldTolerance: -2 })),
  'mesh-mass': (w) => w.addTriangleMesh(mesh({ mass: 0 })),
  'mesh-mass-tiny': (w) => w.addTriangleMesh(mesh({ mass: 1e-40 })),
  'mesh-pinned': (w) => w.addTriangleMesh(mesh({ pinned: [4] })),
  'mesh-model': (w) => w.addTriangleMesh(mesh({ model: 3 })),
  'mesh-bending-type': (w) => w.addTriangleMesh(mesh({ bending: 1 })),
  'mesh-tethers-no-pins': (w) => w.addTriangleMesh(mesh({ tethers: 'euclidean' })),
  'mesh-tether-slack': (w) => w.addTriangleMesh(mesh({ tetherSlack: 0 })),
  'mesh-pressure-negative': (w) => w.addTriangleMesh(mesh({ pressure: -1 })),
  'mesh-pressure-open': (w) => w.addTriangleMesh(mesh({ triangles: tetSurface.slice(3), pressure: 1 })),
  'mesh-volume': (w) => w.addTriangleMesh(mesh({ pressure: 1, volume: { compliance: -1 } })),
  // --- Mesh tools ---
  'tetrahedralize-options': () => pbd.tetrahedralize(tetPositions, tetSurface, 5),
  'tetrahedralize-positions-type': () => pbd.tetrahedralize('cube', tetSurface),
  'tetrahedralize-triangles-missing': () => pbd.tetrahedralize(tetPositions),
  'tetrahedralize-empty': () => pbd.tetrahedralize([], []),
  'tetrahedralize-positions-length': () => pbd.tetrahedralize([...tetPositions, 1], tetSurface),
  'tetrahedralize-positions-nan': () => pbd.tetrahedralize([0, 0, 0, 1, NaN, 0, 0, 1, 0, 0, 0, 1], tetSurface),
  'tetrahedralize-triangles-range': () => pbd.tetrahedralize(tetPositions, [...tetSurface.slice(0, 9), 1, 2, 7]),
  'tetrahedralize-too-few': () => pbd.tetrahedralize(tetPositions, tetSurface.slice(3)),
  'tetrahedralize-open': () => pbd.tetrahedralize([...tetPositions, 1, 1, 1], [...tetSurface.slice(0, 9), 1, 2, 4]),
  'tetrahedralize-degenerate': () => pbd.tetrahedralize(tetPositions, [...tetSurface.slice(3), 0, 0, 1]),
  'tetrahedralize-flipped': () => pbd.tetrahedralize(tetPositions, [0, 1, 2, ...tetSurface.slice(3)]),
  'tetrahedralize-resolution-negative': () => pbd.tetrahedralize(tetPositions, tetSurface, { resolution: -1 }),
  'tetrahedralize-resolution-absurd': () => pbd.tetrahedralize(tetPositions, tetSurface, { resolution: 300 }),
  'tetrahedralize-resolution-fraction': () => pbd.tetrahedralize(tetPositions, tetSurface, { resolution: 2.5 }),
  'tetrahedralize-min-quality': () => pbd.tetrahedralize(tetPositions, tetSurface, { minQuality: 1 }),
  'tetrahedralize-surface-margin': () => pbd.tetrahedralize(tetPositions, tetSurface, { surfaceMargin: 3 }),
  'tetrahedralize-extra-points-length': () => pbd.tetrahedralize(tetPositions, tetSurface, { extraPoints: [0.1, 0.1] }),
  'tetrahedralize-extra-points-nan': () => pbd.tetrahedralize(tetPositions, tetSurface, { extraPoints: [0.1, NaN, 0.1] }),
  'tetrahedralize-on-progress': () => pbd.tetrahedralize(tetPositions, tetSurface, { onProgress: 3 }),
  'read-obj-type': () => pbd.readObj(42),
  'read-obj-index': () => pbd.readObj('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n'),
  'read-obj-zero-index': () => pbd.readObj('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n'),
  'read-obj-nan': () => pbd.readObj('v 0 nan 0\n'),
  'read-obj-statement': () => pbd.readObj('v 0 0 0\nbogus 1\n'),
  'read-obj-empty': () => pbd.readObj(''),
  'read-tetgen-type': () => pbd.readTetGen('4 3 0 0\n', undefined),
  'read-tetgen-index': () => pbd.readTetGen('4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n', '1 4 0\n1 1 2 3 9\n'),
  'read-tetgen-count': () => pbd.readTetGen('5 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n', '1 4 0\n1 1 2 3 4\n'),
  'read-tetgen-nodes-per-tet': () => pbd.readTetGen('4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n', '1 5 0\n1 1 2 3 4 1\n'),
  'weld-tolerance-negative': () => pbd.weldVertices(tetPositions, tetSurface, -1),
  'weld-tolerance-nan': () => pbd.weldVertices(tetPositions, tetSurface, NaN),
  'weld-positions-length': () => pbd.weldVertices([0, 0, 0, 1], [], 0),
  'weld-positions-nan': () => pbd.weldVertices([0, 0, Infinity], [], 0),
  'weld-triangles-range': () => pbd.weldVertices(tetPositions, [0, 1, 4], 0),
  'weld-triangles-length': () => pbd.weldVertices(tetPositions, [0, 1], 0),
  'embedding-tets-length': () => new pbd.Embedding(tetPositions, [0, 1, 2], [0.1, 0.1, 0.1]),
  'embedding-tets-empty': () => new pbd.Embedding(tetPositions, [], [0.1, 0.1, 0.1]),
  'embedding-tets-range': () => new pbd.Embedding(tetPositions, [0, 1, 2, 4], [0.1, 0.1, 0.1]),
  'embedding-flat-tet': () => new pbd.Embedding([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0], [0, 1, 2, 3], [0.1, 0.1, 0]),
  'embedding-positions-nan': () => new pbd.Embedding(tetPositions, [0, 1, 2, 3], [0.1, NaN, 0.1]),
  'embedding-positions-length': () => new pbd.Embedding(tetPositions, [0, 1, 2, 3], [0.1, 0.1]),
  'embedding-far': () => new pbd.Embedding(tetPositions.map((x) => x / 1000), [0, 1, 2, 3], [1e38, 0, 0]),
  'embedding-update-range': (w) => withEmbedding((e) => e.update(w, 14)),
  'embedding-update-negative': (w) => withEmbedding((e) => e.update(w, -1)),
  // --- Loader ---
  'create-options-type': () => createPbd(null),
  'create-variant': () => createPbd({ variant: 'gpu' }),
  'create-threads-zero': () => createPbd({ threads: 0 }),
  'create-threads-fraction': () => createPbd({ threads: 2.5 }),
  'create-threads-absurd': () => createPbd({ threads: 65 }),
  'set-threads': () => pbd.setThreads(-1),
};

function withEmbedding(use) {
  const e = new pbd.Embedding(tetPositions, [0, 1, 2, 3], [0.1, 0.1, 0.1]);
  try { return use(e); } finally { e.delete(); }
}

function fixture() {
  const w = new pbd.World();
  w.addCloth({ columns: 4, rows: 4, spacing: 0.1, origin: [0, 1, 0], pinned: [0, 1, 2, 3] });
  const attachment = w.addAttachment(5, 0.1, 1, 0.1, { compliance: 0.001 });
  const removed = w.addAttachment(6, 0.1, 1, 0.2, undefined);
  w.removeAttachment(removed);
  w.addCollider({ shape: 'sphere', position: [0, -5, 0] });
  w.step(1 / 60);
  return { w, attachment, removed };
}

function snapshot(w) {
  return {
    positions: Array.from(w.positions()),
    velocities: Array.from(w.velocities()),
    inverseMasses: Array.from(w.inverseMasses()),
    counts: [w.particleCount(), w.constraintCount(), w.dihedralConstraintCount(), w.tetherCount(), w.colliderCount(),
      w.tetVolumeCount(), w.shapeMatchingCount(), w.triangleStrainCount(), w.neoHookeanCount(),
      w.surfaceVolumeCount()],
    settings: [w.getGravity(), w.getMethod(), w.getSubsteps(), w.getIterations(), w.getLinearDamping(),
      w.getRigidDamping(), w.getChebyshevRho(), w.getGround(), w.getSolver(), w.getIntegrator(), w.getJacobiRelaxation(),
      w.getDistanceSweep(), w.getSelfCollision(), w.getMaxSpeed(), w.bodyCount(), w.getBodyMaterial(0)],
  };
}

const rows = tableRows(readFileSync(docUrl, 'utf8'));
const jsRows = rows.filter((r) => r.test === 'js');

describe('docs/validation.md', () => {
  it('is well formed: unique keys, a message fragment and a known test column on every row', () => {
    expect(jsRows.length).toBeGreaterThan(100);
    const keys = rows.map((r) => r.key);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
    expect(rows.filter((r) => !r.fragment).map((r) => r.key)).toEqual([]);
    expect(rows.filter((r) => r.test !== 'js' && r.test !== 'native').map((r) => r.key)).toEqual([]);
  });

  it('has a case for every js row and a js row for every case', () => {
    expect(jsRows.filter((r) => !(r.key in cases)).map((r) => r.key)).toEqual([]);
    expect(Object.keys(cases).filter((k) => !jsRows.some((r) => r.key === k))).toEqual([]);
  });
});

describe.each(jsRows.map((r) => [r.group, r.key, r]))('%s', (_group, _key, row) => {
  it(`${row.key}: throws "${row.fragment}" and leaves the world unchanged`, async () => {
    const call = cases[row.key];
    expect(call, `no case for row ${row.key}`).toBeTypeOf('function');
    const f = fixture();
    const before = snapshot(f.w);
    let error;
    try { await call(f.w, f); } catch (e) { error = e; }
    expect(error, 'no exception').toBeInstanceOf(Error);
    expect(error, 'an InvalidArgumentError (errors.js)').toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toContain(row.fragment);
    expect(snapshot(f.w)).toEqual(before);
    f.w.step(1 / 60);                                 // and the world still works
    expect(f.w.positions().every(Number.isFinite)).toBe(true);
    f.w.delete();
  });
});
