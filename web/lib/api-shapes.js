// The API's shapes as the JS layer needs them, written as in index.d.ts: the keys of every options type, and the
// World methods whose arguments it widens (vectors in any shape, optional trailing arguments) or checks (options).
// A member is `name`, `name?` (an optional trailing argument), `name: Type` or `...Type` (every member of Type).
// In a World method, `...name: Type` is an options record given to the binding as its members' values, in order
// (a strength: compliance, stiffness), so the method takes those numbers or one record.
// Type is Vec3Like or QuatLike (vec3.js), an options type of OPTION_TYPES, or one of those followed by [] (an array
// of it); other types are not named here: the bindings check them. tests/js/node/api-shapes.test.js checks both
// tables against index.d.ts (and the optional arguments against wasm/js_world.h), so they cannot drift apart.

/** Every options type's keys. */
export const OPTION_TYPES = {
  Strength: ['compliance', 'stiffness'],
  ContactMaterial: ['friction', 'staticFriction', 'restitution', 'thickness'],
  ContinuousSelfCollision: ['enabled', 'thickness'],
  Tearing: ['enabled', 'strain'],
  PinRegion: ['shape', 'centre: Vec3Like', 'halfExtents: Vec3Like', 'radius'],
  ClothOptions: ['columns', 'rows', 'spacing', 'origin: Vec3Like', 'axisU: Vec3Like', 'axisV: Vec3Like', 'mass',
    'pinned', 'pinRegions: PinRegion[]', 'model', 'stretch: Strength', 'shear: Strength', 'bend: Strength', 'bendModel',
    'tethers', 'tetherSlack', 'contact: ContactMaterial', 'continuousSelfCollision: ContinuousSelfCollision',
    'tearing: Tearing'],
  RopeOptions: ['segments', 'start: Vec3Like', 'end: Vec3Like', 'mass', 'pinned', 'pinRegions: PinRegion[]',
    'stretch: Strength', 'bend: Strength', 'contact: ContactMaterial'],
  RodOptions: ['points', 'radius', 'density', 'youngsModulus', 'shearModulus', 'pinned', 'clampedSegments',
    'contact: ContactMaterial'],
  SoftBodyOptions: ['positions', 'tets', 'density', 'totalMass', 'pinned', 'pinRegions: PinRegion[]', 'edgeConstraints',
    'edges: Strength', 'material', 'volume: Strength', 'volumeOnlyResistsCompression', 'youngsModulus', 'poissonRatio',
    'materialStiffness', 'shapeMatching', 'shapeMatchingStrength: Strength', 'contact: ContactMaterial'],
  TriangleMeshOptions: ['positions', 'triangles', 'weldTolerance', 'mass', 'pinned', 'pinRegions: PinRegion[]', 'model',
    'stretch: Strength', 'shear: Strength', 'bending', 'bend: Strength', 'tethers', 'tetherSlack', 'pressure',
    'volume: Strength', 'volumeOnlyResistsCompression', 'contact: ContactMaterial',
    'continuousSelfCollision: ContinuousSelfCollision', 'tearing: Tearing'],
  ShapeMatchingOptions: ['...Strength', 'particles'],
  DistanceOptions: ['...Strength', 'restLength', 'minLength', 'maxLength'],
  DistancesOptions: ['...Strength', 'restLengths'],
  DihedralOptions: ['...Strength', 'restAngle'],
  SkinnedConstraintsOptions: ['particles', 'maxDistance', 'backstopDistance', 'backstopRadius'],
  ColliderBody: ['mass', 'inertia: Vec3Like', 'linearVelocity: Vec3Like', 'angularVelocity: Vec3Like', 'gravity',
    'joint', 'jointPivot: Vec3Like', 'jointAxis: Vec3Like'],
  ColliderOptions: ['shape', 'positions', 'indices', 'position: Vec3Like', 'rotation: QuatLike', 'radius',
    'halfHeight', 'halfExtents: Vec3Like', 'thickness', 'friction', 'staticFriction', 'restitution'],
  GroundSettings: ['enabled', 'height', 'thickness', 'friction', 'staticFriction', 'restitution',
    'restitutionThreshold'],
  SelfCollisionSettings: ['enabled', 'radius'],
  HierarchySettings: ['levels', 'parents', 'coarseIterations'],
  TetrahedralizeOptions: ['resolution', 'minQuality', 'surfaceMargin', 'extraPoints', 'onProgress', 'signal'],
  CreatePbdOptions: ['variant', 'threads'],
  AdvanceOptions: ['step', 'maxSteps', 'beforeStep'],
  // Not options: the record an add-body call returned, which removeBody takes as the body's handle (body-handles.js).
  BodyRange: ['firstParticle', 'particleCount', 'firstConstraint', 'constraintCount', 'tetherCount', 'firstDihedral',
    'dihedralCount', 'firstVolume', 'volumeCount', 'body', 'firstSegment', 'segmentCount', 'removed', 'firstSkinned',
    'tornFrom'],
};

/**
 * World methods as the JS layer sees them (their vector overload in index.d.ts). A Vec3Like parameter is 3 binding
 * arguments (x, y, z), a QuatLike 4 (x, y, z, w): each may be given as numbers or as one vector.
 */
export const WORLD_METHODS = {
  setGravity: 'gravity: Vec3Like',
  setHierarchy: 'settings: HierarchySettings',
  setSelfCollision: 'settings: SelfCollisionSettings',
  setBodyMaterial: 'body, material: ContactMaterial',
  setContinuousSelfCollision: 'body, settings: ContinuousSelfCollision',
  setGround: 'ground: GroundSettings',
  addParticle: 'position: Vec3Like, inverseMass',
  addParticles: 'positions, inverseMasses?',
  setVelocity: 'particle, velocity: Vec3Like',
  setPosition: 'particle, position: Vec3Like',
  setExternalForce: 'particle, force: Vec3Like',
  addDistanceConstraint: 'i, j, options?: DistanceOptions',
  addDistanceConstraints: 'pairs, options?: DistancesOptions',
  addTetVolumeConstraints: 'tets, options?: Strength',
  addSkinnedConstraints: 'options: SkinnedConstraintsOptions',
  setSkinnedTargets: 'first, positions, normals?',
  addDihedralConstraint: 'p0, p1, p2, p3, options?: DihedralOptions',
  addAttachment: 'particle, target: Vec3Like, options?: Strength',
  setAttachmentTarget: 'attachment, target: Vec3Like',
  attachToCollider: 'particle, collider, anchor: Vec3Like, options?: Strength',
  addCollider: 'options: ColliderOptions',
  setColliderPose: 'collider, position: Vec3Like, rotation: QuatLike',
  setColliderBody: 'collider, body: ColliderBody',
  setDistanceStrength: 'first, count, ...strength: Strength',
  setConstraintStrength: 'kind, first, count, ...strength: Strength',
  addCloth: 'options: ClothOptions',
  addRope: 'options: RopeOptions',
  addRod: 'options: RodOptions',
  setSegmentOrientation: 'segment, rotation: QuatLike',
  setSegmentAngularVelocity: 'segment, omega: Vec3Like',
  setSegmentTorque: 'segment, torque: Vec3Like',
  addSoftBody: 'options: SoftBodyOptions',
  addTriangleMesh: 'options: TriangleMeshOptions',
  addShapeMatching: 'options: ShapeMatchingOptions',
};

/** The defaults of a positional record's members left out (index.d.ts documents them on the type's members). */
export const POSITIONAL_DEFAULTS = {
  Strength: { compliance: 0, stiffness: 1 },
};

/** World methods written in JS (fixed-step.js), with no binding of their own: their signatures as in index.d.ts. */
export const JS_WORLD_METHODS = {
  advance: 'elapsedSeconds, options?: AdvanceOptions',
};

/**
 * 'name?: Type[]' → { name, optional, type, array }; '...Type' → { spread: Type }; '...name: Type' → { name, type,
 * positional: true } (a record passed as its members' values).
 */
export function parseMember(text) {
  const spread = /^\.\.\.(\w+)$/.exec(text.trim());
  if (spread) return { spread: spread[1] };
  const match = /^(\.\.\.)?(\w+)(\?)?(?:\s*:\s*(\w+)(\[\])?)?$/.exec(text.trim());
  if (!match) throw new Error(`api-shapes: cannot read member '${text}'`);
  const member = { name: match[2], optional: !!match[3], type: match[4], array: !!match[5] };
  return match[1] ? { ...member, positional: true } : member;
}

/** A WORLD_METHODS signature as its parameters. */
export const parseSignature = (signature) => signature.split(',').map(parseMember);
