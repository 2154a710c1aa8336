/**
 * pbd-wasm: position-based dynamics (PBD and XPBD) in WebAssembly.
 *
 * Memory: a World lives in the wasm heap. Call `world.delete()` when done; the garbage collector will not.
 * Views: `positions()`, `velocities()` and `inverseMasses()` return Float32Array views into wasm memory (no copy).
 * A view stays valid and is updated in place by `step()`, until the next call that may allocate: `addParticle`,
 * `addParticles`, `addCloth`, `addRope` (and, for safety, `addDistanceConstraint`/`addAttachment`). Fetch it again
 * after those. In the threaded build the views are over a SharedArrayBuffer.
 * Growth: an allocation anywhere in the module (another world, `tetrahedralize`, `readObj`...) may grow the wasm
 * memory, which replaces its buffer. Every view made before is then stale: in the single-threaded build it is
 * detached (`length` 0), in the threaded build it stays on the old, shorter SharedArrayBuffer (`view.buffer !==
 * pbd.memory`). Fetching a view costs nothing: call `world.positions()` again after such calls, or once per frame,
 * or re-fetch when `view.length === 0 || view.buffer !== pbd.memory`.
 * Errors: every bad argument throws an `InvalidArgumentError` (a `PbdError`, an `Error`) whose message names the
 * function and the argument, e.g. `"step: dt must be in (0, 1] seconds (got -1)"`; the world is unchanged when that
 * happens. An unknown option key is one too, naming the key and the nearest valid one (`"addCloth: unknown option
 * 'colums' (did you mean 'columns'?)"`), and so is a misspelt name (`"... (got 'edge'; did you mean 'edges'?)"`).
 * Arguments: a vector may be given as x, y, z numbers or as one `Vec3Like`; an argument marked `?` may be left out.
 */

/** What the particles' contacts gave a collider over a step (World.colliderImpulse). */
export interface ColliderImpulse {
  /** N·s, world frame: exactly minus the momentum the contacts gave the particles. */
  linear: [number, number, number];
  /** N·m·s, world frame, about the world's origin. About a body's centre of mass c: angular − c × linear. */
  angular: [number, number, number];
}

/**
 * The rigid body a collider stands for when another engine simulates it (World.setColliderBody; pbd-wasm/rapier
 * sets it for Rapier's dynamic bodies). With a mass the collider is dynamic within each step: from its pose and
 * these velocities it moves substep by substep under gravity, and after each substep's contacts it takes minus the
 * momentum they gave the particles. So a heavy body pressing on a cloth slows within the step, where a kinematic one
 * would push through it until the impulses reach its engine a step later.
 */
export interface ColliderBody {
  /** kg, >= 0. 0 (the default): kinematic, moved only by setColliderPose. */
  mass?: number;
  /** kg m², each > 0 when mass > 0: the principal moments about the collider's position (its centre of mass), along its local axes. Default [0, 0, 0]. */
  inertia?: Vec3Like;
  /** m/s, world frame, of the collider's position. Default [0, 0, 0]. */
  linearVelocity?: Vec3Like;
  /** rad/s, world frame. Default [0, 0, 0]. */
  angularVelocity?: Vec3Like;
  /**
   * Whether the world's gravity moves it across the substeps: true (the default) for a free body; false for one held
   * by joints or supports the world does not know (a hinged door, a pole on a base), which then moves with its
   * velocities alone and by what the particles give it.
   */
  gravity?: boolean;
  /**
   * The joint that holds it to the fixed world, when the world is told of it: 'none' (the default), free; 'ball', it
   * only turns about jointPivot (a spherical joint to a fixed body); 'hinge', it only turns about jointAxis through
   * jointPivot (a revolute joint to a fixed body). Within the step it then moves as the joint lets it and weighs the
   * particles' pull against its inertia about the joint, so a cloth hung from a hinged door or pendulum swings with
   * it; gravity turns it about the joint. pbd-wasm/rapier sets 'hinge' for a body held by one revolute joint to a fixed
   * body.
   */
  joint?: 'none' | 'ball' | 'hinge';
  /** m, world frame: the joint's fixed point ('ball', 'hinge'). Default [0, 0, 0]. */
  jointPivot?: Vec3Like;
  /** 'hinge': the fixed axis, world frame, non-zero; normalized by the world. Default [0, 0, 1]. */
  jointAxis?: Vec3Like;
}

/**
 * A 3-vector in any of its usual shapes: `[x, y, z]`, a Float32Array or Float64Array of 3, or `{ x, y, z }` (a
 * THREE.Vector3 is one). Methods that take one also take it as three numbers x, y, z.
 */
export type Vec3Like = [number, number, number] | Float32Array | Float64Array | {
  /** x component, in the unit of the argument (m for a position, m/s for a velocity, N for a force...). */
  x: number;
  /** y component, in the same unit. */
  y: number;
  /** z component, in the same unit. */
  z: number;
};

/** A rotation, as a quaternion `[x, y, z, w]`, a Float32Array or Float64Array of 4, or a THREE.Quaternion. */
export type QuatLike = [number, number, number, number] | Float32Array | Float64Array
  | {
    /** x of the vector part (sin(θ/2) times the axis's x). */
    x: number;
    /** y of the vector part. */
    y: number;
    /** z of the vector part. */
    z: number;
    /** Scalar part, cos(θ/2); 1 with x = y = z = 0 is the identity. */
    w: number;
  };

/** Base class of every error the package throws for bad input or a failed request (an `Error`, `instanceof` works). */
export declare class PbdError extends Error {}

/**
 * An argument or option the call rejected, unknown option keys included; the world is unchanged. Also thrown for a
 * binding's own complaints (a wrong argument count, a deleted World).
 */
export declare class InvalidArgumentError extends PbdError {}

/** Malformed mesh text from `readObj` or `readTetGen`: the message names the line (`"readObj: line 4: ..."`). */
export declare class MeshParseError extends InvalidArgumentError {
  /** 1-based line of the offending text; 0 when the error concerns the whole text (e.g. an empty mesh). */
  readonly line: number;
}

/**
 * A blob `loadSnapshot` could not load (not bytes, not a snapshot, corrupt, truncated, from a newer version); the
 * world is unchanged.
 */
export declare class SnapshotError extends InvalidArgumentError {}

/** Strength of a constraint in both methods; the world's method decides which one is used. */
export interface Strength {
  /** XPBD: inverse stiffness in m/N, >= 0 (0 = rigid). Default 0. */
  compliance?: number;
  /** PBD: fraction of the error removed per substep, in [0, 1] (1 = rigid). Default 1. */
  stiffness?: number;
}

/** A region of space whose particles a body builder pins: a box (centre ± halfExtents) or a ball. */
export type PinRegion =
  | {
    /** An axis-aligned box, boundary included. Default 'box'. */
    shape?: 'box';
    /** Centre of the box in m. */
    centre: Vec3Like;
    /** Half its size along x, y and z in m, each >= 0. */
    halfExtents: Vec3Like;
  }
  | {
    /** A ball, boundary included. */
    shape: 'sphere';
    /** Centre of the ball in m. */
    centre: Vec3Like;
    /** Radius in m, >= 0. */
    radius: number;
  };

/**
 * Options of World.addCloth: a rectangular grid of columns x rows particles in the plane of axisU and axisV. Particle
 * (c, r) starts at origin + c * spacing * axisU + r * spacing * axisV and has index firstParticle + r * columns + c.
 */
export interface ClothOptions {
  /** Particles along axisU, >= 2. */
  columns: number;
  /** Particles along axisV, >= 2. */
  rows: number;
  /** Rest distance between grid neighbours in m, > 0. Default 0.1. */
  spacing?: number;
  /** Position of particle (0, 0) in m. Default [0, 0, 0]. */
  origin?: Vec3Like;
  /** Direction of the columns. Default [1, 0, 0]. */
  axisU?: Vec3Like;
  /** Direction of the rows, not parallel to axisU. Default [0, 0, 1]. */
  axisV?: Vec3Like;
  /** Total mass in kg, > 0. Default 1. */
  mass?: number;
  /** Grid indices (row * columns + column) to pin (inverse mass 0). */
  pinned?: number[];
  /** Particles inside any of these regions (as built) are pinned too. */
  pinRegions?: PinRegion[];
  /**
   * How the cloth resists stretch and shear. 'edges' (default): distance constraints on the grid edges (stretch) and
   * cell diagonals (shear). 'strain-triangles': Strain Based Dynamics (Müller et al. 2014), one constraint per
   * render triangle on the stretch along axisU, the stretch along axisV and the shear between them, with stretch and
   * shear set separately and no edge constraints; compliances are then per unit area (1 / modulus in N/m). The
   * 'skip-one' bend edges also resist stretching; bendModel 'dihedral' leaves stretch to the triangles.
   */
  model?: 'edges' | 'strain-triangles';
  /** 'edges': grid edges (compliance m/N). 'strain-triangles': stretch along both axes. Default rigid. */
  stretch?: Strength;
  /** 'edges': cell diagonals (compliance m/N). 'strain-triangles': the angle between the axes. Default rigid. */
  shear?: Strength;
  /** Bending constraints. Default { compliance: 1e-4, stiffness: 0.5 }. */
  bend?: Strength;
  /**
   * 'skip-one': distance constraints between every second particle (default, parallel); 'dihedral': an angle
   * constraint on every interior edge of the triangulation (rest: flat; compliance per radian²).
   */
  bendModel?: 'skip-one' | 'dihedral';
  /**
   * Long-range attachments: every free particle may not move further from its nearest pinned particle than it is at
   * rest, measured in a straight line ('euclidean') or along the cloth ('geodesic'). Keeps the cloth from sagging
   * at any iteration count. Needs pins. Default 'none'.
   */
  tethers?: 'none' | 'euclidean' | 'geodesic';
  /** >= 1: a tether allows this factor times the rest distance. Default 1. */
  tetherSlack?: number;
  /** Friction and restitution against colliders and the ground (see ContactMaterial). Default: the surface's. */
  contact?: ContactMaterial;
  /** Continuous self-collision of this cloth (see ContinuousSelfCollision). Default off. */
  continuousSelfCollision?: ContinuousSelfCollision;
  /** Tearing (see Tearing): `{ strain: 0.5 }` tears edges stretched by half again their rest length. Default off. */
  tearing?: Tearing;
}

/**
 * Options of World.addRod: a Cosserat rod (Kugelstadt and Schömer 2016), a chain of particles through `points` with one
 * orientation per segment, that resists stretching, shearing, bending and twisting as its material says: a cable, a
 * wire, a strand of hair. Segment k joins particles k and k + 1; its frame's third axis runs along it. The rest shape
 * (straight or curved) is kept, with no rest twist. The rod collides as a tube of `radius` (plus contact.thickness):
 * its particles like any particle, and its segments between them with spheres, capsules, boxes and triangle meshes
 * (with friction), so a thin bar or an edge cannot pass between two particles. Under every solver and integrator.
 */
export interface RodOptions {
  /** xyz per particle, m (at least 2 particles; neighbours distinct). */
  points: ArrayLike<number>;
  /** The circular cross-section's radius, m, > 0. Default 0.005. */
  radius?: number;
  /** kg/m³, > 0: a segment weighs density · π r² · its length, half at each end. Default 1000. */
  density?: number;
  /** Pa, > 0: stretching (E A) and bending (E π r⁴ / 4). Default 1e8. */
  youngsModulus?: number;
  /** Pa, > 0: shearing (G A) and twisting (G π r⁴ / 2). Default 4e7. */
  shearModulus?: number;
  /** Rod particle indices to pin (0 = the first point). */
  pinned?: number[];
  /** Rod segment indices whose orientation is held (setSegmentOrientation turns them). A clamped end: pin its two
   * particles and clamp its segment. */
  clampedSegments?: number[];
  /** Friction and restitution against colliders and the ground (see ContactMaterial). Default: the surface's. */
  contact?: ContactMaterial;
}

/** Options of World.addRope: a rope of `segments` links from start to end (segments + 1 particles, 0 at start). */
export interface RopeOptions {
  /** Number of links, >= 1 (segments + 1 particles). */
  segments: number;
  /** First particle, m. Default [0, 0, 0]. */
  start?: Vec3Like;
  /** Last particle, m, != start. Default [1, 0, 0]. */
  end?: Vec3Like;
  /** Total mass in kg. Default 1. */
  mass?: number;
  /** Rope particle indices to pin (0 = start). */
  pinned?: number[];
  /** Particles inside any of these regions (as built) are pinned too. */
  pinRegions?: PinRegion[];
  /** The links between neighbouring particles (compliance m/N). Default rigid. */
  stretch?: Strength;
  /** Skip-one links. Default { compliance: 1e-3, stiffness: 0.2 }. */
  bend?: Strength;
  /** Friction and restitution against colliders and the ground (see ContactMaterial). Default: the surface's. */
  contact?: ContactMaterial;
}

/**
 * A soft body from a tetrahedral mesh (from `pbd.tetrahedralize`, `pbd.readTetGen` or your own): per tet a volume
 * constraint or a Neo-Hookean element, and distance constraints on the tet edges.
 */
export interface SoftBodyOptions {
  /** xyz per vertex, m. */
  positions: ArrayLike<number>;
  /** 4 vertex indices per tet, each with positive volume (right-handed). Inverted or flat tets are rejected. */
  tets: ArrayLike<number>;
  /** kg/m³, > 0: vertex masses come from the volumes of their tets. Default 1000. */
  density?: number;
  /** kg, >= 0: 0 (default) = masses from density; > 0 = this total mass spread evenly over the vertices. */
  totalMass?: number;
  /** Vertex indices to pin. */
  pinned?: number[];
  /** Particles inside any of these regions (as built) are pinned too. */
  pinRegions?: PinRegion[];
  /** Add a distance constraint on every tet edge. Default true. */
  edgeConstraints?: boolean;
  /** Tet edges. Default rigid. */
  edges?: Strength;
  /**
   * 'volume': a volume constraint per tet (default). 'neo-hookean': stable Neo-Hookean elements (Macklin and Müller
   * 2021) from youngsModulus and poissonRatio; pair it with edgeConstraints: false for the material alone.
   */
  material?: 'volume' | 'neo-hookean';
  /** Tet volumes (compliance in m⁶/J). Default incompressible. */
  volume?: Strength;
  /** true: a tet may grow past its rest volume but never shrink below it. Default false. */
  volumeOnlyResistsCompression?: boolean;
  /** Neo-Hookean: Young's modulus in Pa, > 0. Default 1e5. */
  youngsModulus?: number;
  /** Neo-Hookean: Poisson's ratio in (-1, 0.5). Default 0.3. */
  poissonRatio?: number;
  /** Neo-Hookean in the PBD method: stiffness in [0, 1]. Default 1. */
  materialStiffness?: number;
  /**
   * Adds one shape matching cluster over every vertex (see World.addShapeMatching): the body is pulled towards its
   * rest shape, rotated and moved to fit it best. Needs a free vertex. Default false.
   */
  shapeMatching?: boolean;
  /** That cluster (compliance in s²). Default { compliance: 1e-3, stiffness: 0.5 }. */
  shapeMatchingStrength?: Strength;
  /** Friction and restitution against colliders and the ground (see ContactMaterial). Default: the surface's. */
  contact?: ContactMaterial;
}

/**
 * Cloth, a closed shell or a balloon from any triangle mesh (a three.js BufferGeometry's position and index arrays).
 * Vertices closer than weldTolerance become one particle, so UV seams cannot open.
 */
export interface TriangleMeshOptions {
  /** xyz per render vertex, m. */
  positions: ArrayLike<number>;
  /** 3 render-vertex indices per triangle, counter-clockwise seen from outside. */
  triangles: ArrayLike<number>;
  /** m, >= 0; -1 = no welding. Default 1e-6. */
  weldTolerance?: number;
  /** Total mass in kg, spread by triangle area. Default 1. */
  mass?: number;
  /** Render-vertex indices whose particles are pinned. */
  pinned?: number[];
  /** Particles inside any of these regions (as built) are pinned too. */
  pinRegions?: PinRegion[];
  /**
   * 'edges' (default): a distance constraint on every mesh edge. 'strain-triangles': per triangle, the stretch along
   * its first edge and across it and the shear between them, set separately, and no edge constraints; compliances
   * are then per unit area (1 / modulus in N/m). Degenerate triangles are rejected.
   */
  model?: 'edges' | 'strain-triangles';
  /** 'edges': every mesh edge (compliance m/N). 'strain-triangles': stretch along both axes. Default rigid. */
  stretch?: Strength;
  /** 'strain-triangles' only: the angle between each triangle's axes. Default rigid. */
  shear?: Strength;
  /** Add a dihedral bending constraint on every edge shared by two triangles. Default true. */
  bending?: boolean;
  /** Those bending constraints. Default { compliance: 1e-4, stiffness: 0.5 }. */
  bend?: Strength;
  /**
   * Long-range attachments: every free particle may not move further from its nearest pinned particle than it is at
   * rest, measured in a straight line ('euclidean') or along the mesh ('geodesic'). Needs pins. Default 'none'.
   */
  tethers?: 'none' | 'euclidean' | 'geodesic';
  /** >= 1: a tether allows this factor times the rest distance. Default 1. */
  tetherSlack?: number;
  /** 0 = none. > 0: the mesh must be closed; it keeps pressure x its rest volume (1 keeps it, > 1 inflates). */
  pressure?: number;
  /** The volume constraint (compliance in m⁶/J). Default rigid. */
  volume?: Strength;
  /** true: the volume may grow past pressure x rest volume but never shrink below it. Default false. */
  volumeOnlyResistsCompression?: boolean;
  /** Friction and restitution against colliders and the ground (see ContactMaterial). Default: the surface's. */
  contact?: ContactMaterial;
  /** Continuous self-collision of this mesh's (welded) triangles (see ContinuousSelfCollision). Default off. */
  continuousSelfCollision?: ContinuousSelfCollision;
  /** Tearing of the (welded) triangles (see Tearing); needs pressure 0. Default off. */
  tearing?: Tearing;
}

/** A body from a render mesh, with the particle each render vertex follows. */
export interface MeshBody extends BodyRange {
  /** Per render vertex, its particle index in the world (World.removeBody moves them down with the body). */
  renderToParticle: Uint32Array;
}

/** Options of Pbd.tetrahedralize. */
export interface TetrahedralizeOptions {
  /** Interior grid points: cells along the bounding box's longest side (0 = surface vertices only). Max 256. */
  resolution?: number;
  /** Drop tets whose radius ratio (1 regular, 0 flat) is below this, in [0, 1). Default 0. */
  minQuality?: number;
  /** Grid points closer to the surface than this fraction of a cell are skipped. Default 0.5. */
  surfaceMargin?: number;
  /** More points to insert, xyz each. */
  extraPoints?: ArrayLike<number>;
  /** Called with the fraction done (nondecreasing, ends at 1). Return false to cancel. */
  onProgress?: (fraction: number) => boolean | void;
  /** Aborting it cancels at the next progress report. */
  signal?: AbortSignal;
}

/**
 * What Pbd.tetrahedralize returns: a tet mesh ready for SoftBodyOptions (`positions`, `tets`), its boundary, and
 * counts of what the tetrahedralizer did.
 */
export interface TetMesh {
  /** xyz per vertex: the surface vertices first (same indices), then interior points. */
  positions: Float32Array;
  /** 4 indices per tet, each with positive volume. */
  tets: Uint32Array;
  /** The tet mesh's boundary, 3 indices per triangle, counter-clockwise from outside. */
  surfaceTriangles: Uint32Array;
  /** Input surface vertices: the first surfaceVertexCount vertices of positions, at their input indices. */
  surfaceVertexCount: number;
  /** Interior grid points in positions (after the surface vertices); 0 with resolution 0. */
  gridPointCount: number;
  /** Tets of the Delaunay tetrahedralization of the points' convex hull, before carving. */
  delaunayTetCount: number;
  /** Tets removed because their centroid lies outside the surface (winding number <= 1/2). */
  outsideTetCount: number;
  /** Inside tets removed because their quality was below minQuality. */
  droppedLowQuality: number;
  /** Inside tets removed as flat or inverted: World.addSoftBody would refuse them. */
  droppedFlat: number;
  /**
   * Surface vertices in no kept tet: 0 for well-shaped input (a tiny feature can lose its vertex). addSoftBody
   * rejects a vertex in no tet, so leave those out when this is > 0.
   */
  unusedSurfaceVertices: number;
}

/** A render mesh bound to a tet mesh by barycentric coordinates; call `delete()` when done. */
export declare class Embedding {
  constructor(tetPositions: ArrayLike<number>, tets: ArrayLike<number>, renderPositions: ArrayLike<number>);
  /** Recomputes the render positions from the world's particles (the tet mesh's node 0 is firstParticle). */
  update(world: World, firstParticle: number): void;
  /** Zero-copy view of the render positions, xyz per render vertex. */
  positions(): Float32Array;
  /** Render vertices: the length of positions() is 3 times this. */
  vertexCount(): number;
  /** Frees the embedding's wasm memory. The object is unusable afterwards. */
  delete(): void;
}

/**
 * Where a body landed. Particles are [firstParticle, firstParticle + particleCount); its distance constraints are
 * [firstConstraint, firstConstraint + constraintCount). A cloth's constraints come in this order: stretch, shear,
 * bend.
 */
export interface BodyRange {
  /** Index of the body's first particle. */
  firstParticle: number;
  /** Particles the body added. */
  particleCount: number;
  /** Index of the body's first distance constraint (numbered as by addDistanceConstraint). */
  firstConstraint: number;
  /** Distance constraints the body added. */
  constraintCount: number;
  /** Tethers the body added. */
  tetherCount: number;
  /** The body's dihedral constraints are [firstDihedral, firstDihedral + dihedralCount). */
  firstDihedral: number;
  /** Dihedral constraints the body added. */
  dihedralCount: number;
  /** The body's tet volume constraints are [firstVolume, firstVolume + volumeCount). */
  firstVolume: number;
  /** Tet volume constraints the body added. */
  volumeCount: number;
  /** The body's index (setBodyMaterial, lastStepReport().body): bodies are numbered in the order added, and every
   * addParticle / addParticles call adds one too. */
  body: number;
  /**
   * true once World.removeBody removed this body. The record is a handle: removeBody updates every record the world
   * returned in place (`body`, `firstParticle` and the first constraint indices move down), so it keeps naming the
   * same body.
   */
  removed?: boolean;
  /** A rod (addRod): index of its first segment (segmentOrientations() etc.); removeBody keeps it current. */
  firstSegment: number;
  /** A rod: its segments (particleCount − 1); 0 for every other body. */
  segmentCount: number;
  /** Where the body's skinned constraints start, when a PbdSkinnedCloth (pbd-wasm/three) added them; removeBody keeps
   * it current like the other first indices. */
  firstSkinned?: number;
  /**
   * A torn body (see Tearing): per particle it gained by tearing, in order (body-local index particleCount −
   * tornFrom.length + k), the body-local particle it was split from. A renderer copies that particle's UV.
   */
  tornFrom?: number[];
}

/**
 * What World.removeBody removed. Particles after the body's move down by particleCount, bodies after it by one,
 * and constraints of every kind keep their order and move down past the removed ones. The runs list the removed
 * constraints' old indices as [begin, end) pairs in increasing order.
 */
export interface BodyRemoval {
  /** The removed body's index (before the removal). */
  body: number;
  /** Its first particle's index (before the removal). */
  firstParticle: number;
  /** Its particles: the particles after it move down by this many. */
  particleCount: number;
  /** Removed distance constraints (its own and any that touched it), as [begin, end) pairs of old indices. */
  distanceRuns: Uint32Array;
  /** Removed dihedral constraints, as [begin, end) pairs of old indices. */
  dihedralRuns: Uint32Array;
  /** Removed tet volume constraints, as [begin, end) pairs of old indices. */
  volumeRuns: Uint32Array;
  /** Removed skinned constraints (those on the body's particles), as [begin, end) pairs of old indices. */
  skinnedRuns: Uint32Array;
  /** Removed rod segments (the body's own when it is a rod), as [begin, end) pairs of old indices. */
  segmentRuns: Uint32Array;
}

/**
 * World.addSkinnedConstraints' options: character cloth (Jolt's skinned constraints). Each particle is kept within
 * `maxDistance` of its skinned position s (where an animated mesh puts it, set each frame with setSkinnedTargets) and
 * never behind its backstop, a surface `backstopDistance` behind s along minus the skin's normal n: the plane through
 * s − backstopDistance·n (backstopRadius 0) or a sphere of radius backstopRadius touching that point from behind.
 * Hard limits, applied last in every iteration. Each distance is one number for all particles or one per particle.
 */
export interface SkinnedConstraintsOptions {
  /** Particle indices, one skinned constraint each (a pinned particle is left alone). */
  particles: Uint32Array | ArrayLike<number>;
  /** m, >= 0: how far each particle may swing from its skinned position; 0 = it follows the skin exactly. Default 0. */
  maxDistance?: number | Float32Array | ArrayLike<number>;
  /** m, >= 0: how far behind the skin the backstop lies; -1 = no backstop. Default -1. */
  backstopDistance?: number | Float32Array | ArrayLike<number>;
  /** m, >= 0: 0 = the backstop is a plane; > 0 = a sphere of this radius (a limb's curvature). Default 0. */
  backstopRadius?: number | Float32Array | ArrayLike<number>;
}

/**
 * A shape matching cluster (Müller et al. 2005) over existing particles: every substep the rest shape (their
 * positions when added) is rotated and moved to fit them best, and each particle is pulled to its place in it.
 * Matching masses are the particles' masses; pinned members are treated as infinitely heavy (the goal shape is
 * centred on them).
 */
export interface ShapeMatchingOptions extends Strength {
  /** Particle indices: at least 2, distinct, at least one not pinned. */
  particles: ArrayLike<number>;
  /**
   * XPBD: s², >= 0; each particle is tied to its goal by a spring of stiffness mass / compliance (1e-3: about 5 Hz).
   * PBD: stiffness in [0, 1] (1 = snap to the goal shape). Default { compliance: 1e-3, stiffness: 0.5 }.
   */
  compliance?: number;
}

/** addDihedralConstraint's options. */
export interface DihedralOptions extends Strength {
  /** Rest angle in radians, in [-π, π]. Default: the current angle. */
  restAngle?: number;
}

/** Options of World.addDistanceConstraints: one strength for all (compliance m/N, default rigid). */
export interface DistancesOptions extends Strength {
  /** Rest length of each pair's constraint, m, finite, >= 0; one per pair. Default: each pair's current distance. */
  restLengths?: Float32Array | ArrayLike<number>;
}

export interface DistanceOptions extends Strength {
  /** Rest length in m (bilateral). Default: the particles' current distance. */
  restLength?: number;
  /** With maxLength: the constraint is unilateral and only acts outside [minLength, maxLength]. */
  minLength?: number;
  /** Upper length in m, >= minLength. Default: restLength if given, else minLength. */
  maxLength?: number;
}

/**
 * Tearing of a cloth or triangle-mesh body. The body keeps its triangles (World.bodyTriangles); an edge of them tears
 * when stretched past (1 + strain) times its rest length at the end of a step, or when World.tearEdges names it.
 * Where torn edges separate the triangles around a vertex, the vertex splits into one particle per side, each at the
 * same place with the same velocity and a share of the mass by the rest areas of its triangles, so mass and momentum
 * are kept. The constraints follow the pieces: an edge along the opening lives on each side, bending and shear across
 * it break, a tether to a pin its piece no longer hangs from goes. New particles go in at the body's end: particles
 * after it move up, and every record the world returned follows (see TearReport). Open surfaces only.
 */
export interface Tearing {
  /** Default true when `tearing` is given at all. */
  enabled?: boolean;
  /**
   * > 0: the strain (stretch / rest length) at which an edge tears, checked at the end of every step.
   * Default: none (only tearEdges tears).
   */
  strain?: number;
}

/**
 * What a tear changed (World.tearEdges, World.lastTears). particleCount new particles went in at firstParticle (the
 * torn body's old end): particles after it moved up by that many. The torn body's own distance, dihedral and tether
 * constraints were replaced in place by their instances: an edit (k, n) says old constraint k became n consecutive
 * ones (0: it broke; 2: one on each side of the opening). Records the world returned are already updated.
 */
export interface TearReport {
  /** The torn body's index. */
  body: number;
  /** Its first new particle (its old end). */
  firstParticle: number;
  /** New particles. */
  particleCount: number;
  /** Per new particle, the particle it was split from. */
  sourceParticles: Uint32Array;
  /** (old index, new count) pairs of distance constraints, in increasing old index. */
  distanceEdits: Uint32Array;
  /** The same for dihedral constraints. */
  dihedralEdits: Uint32Array;
  /** The same for tethers. */
  tetherEdits: Uint32Array;
}

/**
 * Continuous self-collision of one cloth or triangle-mesh body, for thin cloth folding onto itself: every substep each
 * vertex's path is tested against the body's own triangles and each edge's against its edges (continuous
 * point–triangle and edge–edge tests), and pairs closer than `thickness` are pushed back to the side they started on.
 * Independent of the world's particle–particle `setSelfCollision`.
 */
export interface ContinuousSelfCollision {
  /** Default false. */
  enabled?: boolean;
  /**
   * m, > 0: the separation kept between layers. Keep it below the distance from a vertex to its nearest non-adjacent
   * triangle at rest: while enabled it must be below the body's shortest rest edge / √2 (spacing/√2 on a grid
   * cloth), or the call throws naming `thickness` and the bound. Default 0.005.
   */
  thickness?: number;
}

/**
 * A body's contact material, combined with the surface's (a collider's or the ground's) at every contact:
 * friction μ = sqrt(μ_body · μ_surface) (geometric mean: a material on itself keeps its own μ, anything on ice
 * slides) and restitution e = max(e_body, e_surface) (either side may bounce). The static coefficient μ_s (holds a
 * resting contact in place) and the dynamic μ_d (`friction`, brakes a sliding one) are each mixed by the same mean.
 * The defaults leave the surface's values exactly.
 */
export interface ContactMaterial {
  /** Dynamic Coulomb coefficient μ_d >= 0, or -1 (default) for the surface's own. */
  friction?: number;
  /**
   * Static coefficient μ_s >= 0 (a contact is held while the slope needs less than μ_s), or -1 (default): this
   * material's `friction`. μ_s < μ_d is allowed (μ_s >= μ_d is the physical usual).
   */
  staticFriction?: number;
  /** In [0, 1]. Default 0 (= the surface's, by the max rule). */
  restitution?: number;
  /**
   * The body's collision margin (its particles' radius), m, >= 0. Default 0. Its particles are kept the surface's
   * own thickness plus this far from every collider and the ground.
   */
  thickness?: number;
}

/** The ground: an infinite plane y = height with normal +Y that every particle collides with (World.setGround). */
export interface GroundSettings {
  /** false: no ground contacts. Default true. */
  enabled?: boolean;
  /** The plane y = height, m. Default 0. */
  height?: number;
  /** Particles stay this far above the plane, m. Default 0. */
  thickness?: number;
  /** Dynamic Coulomb friction coefficient μ_d, >= 0 (brakes sliding). Default 0.5. */
  friction?: number;
  /** Static coefficient μ_s >= 0 (holds a resting contact while the slope's tan θ < μ_s), or -1 (default): `friction`. */
  staticFriction?: number;
  /** Restitution in [0, 1]. Default 0. */
  restitution?: number;
  /** Approach speeds below this (m/s) do not bounce. Default 0.5. */
  restitutionThreshold?: number;
}

/** A static or kinematic collision shape. */
export interface ColliderOptions {
  /**
   * 'mesh': a triangle mesh (`positions`, `indices`) in the collider's local frame, with continuous collision: each
   * substep a particle's path is tested against the triangles (BVH), so even a fast particle stops on the side it
   * came from. A closed, consistently oriented mesh has an inside that particles are pushed out of by the shortest
   * way; an open one (a floor, a wall) is two-sided. Friction and restitution act as for the other shapes.
   * 'plane': an infinite plane through `position` whose outward normal is the local +Y axis (`rotation` tilts it);
   * unlike the ground (setGround) it can be tilted and moved every frame.
   */
  shape: 'sphere' | 'capsule' | 'box' | 'plane' | 'mesh';
  /** Mesh: xyz per vertex in the local frame (a three.js geometry's position array), copied. */
  positions?: Float32Array | ArrayLike<number>;
  /** Mesh: 3 vertex indices per triangle (a three.js geometry's index array), copied; no degenerate triangle. */
  indices?: Uint32Array | Uint16Array | ArrayLike<number>;
  /** Centre (plane: a point of its surface), m. Default [0, 0, 0]. */
  position?: Vec3Like;
  /** Orientation as a quaternion [x, y, z, w] (or any QuatLike). Default identity. */
  rotation?: QuatLike;
  /** Sphere and capsule radius, m, > 0. Default 0.5. */
  radius?: number;
  /** Capsule: half the length of its axis segment (local Y), m, >= 0. Default 0.5. */
  halfHeight?: number;
  /** Box half sizes, m, each > 0. Default [0.5, 0.5, 0.5]. */
  halfExtents?: Vec3Like;
  /** Particles stay this far outside the surface, m. Default 0. */
  thickness?: number;
  /** Dynamic Coulomb friction coefficient μ_d on the velocity relative to the collider, >= 0. Default 0.5. */
  friction?: number;
  /** Static coefficient μ_s >= 0 (holds a resting contact while tan θ < μ_s), or -1 (default): `friction`. */
  staticFriction?: number;
  /** Restitution in [0, 1]. Default 0. */
  restitution?: number;
}

/** Particle-particle self-collision (World.setSelfCollision). */
export interface SelfCollisionSettings {
  /** Default false. */
  enabled?: boolean;
  /** Particle radius in m, > 0: particles are kept 2 radius apart. Default 0.01. */
  radius?: number;
}

/** Settings of the 'hierarchical' solver (World.setHierarchy). */
export interface HierarchySettings {
  /**
   * Levels including the finest (every particle), integer in [1, 16]; 1 = no coarse level. Default 3. Fewer are built
   * where a level would have fewer than 4 particles; if not even one coarse level can be built (a world with distance
   * constraints but too few particles), step() throws an Error that says why ("step: hierarchyLevels asks for coarse
   * levels, but not even the first can be built: ...") and leaves the world unchanged.
   */
  levels?: number;
  /**
   * Parents k, integer in [1, 16]: every particle left out of a coarser level keeps at least k (or all, if it has
   * fewer) of its constraint neighbours there, and follows their corrections. Default 2.
   */
  parents?: number;
  /** Gauss-Seidel passes over each coarse level per substep, integer in [1, 1000]. Default 2. */
  coarseIterations?: number;
}

/** The constraint kinds World.setConstraintStrength changes (Neo-Hookean tets: setSoftBodyMaterial). */
export type ConstraintKind = 'distance' | 'dihedral' | 'tet-volume' | 'triangle-stretch' | 'triangle-shear'
  | 'shape-matching' | 'surface-volume';

/**
 * A simulated world. Changing how its solve converges on a world that has stepped (method, solver, integrator,
 * substeps, iterations, Jacobi's ω, the hierarchy, the distance sweep, VBD's Chebyshev ρ) makes the next step settle
 * first: one step's worth of substeps of the new settings from rest, positions only, then the velocities as they were. The constraint error the old settings
 * left moves the particles instead of launching them (a balloon squashed at 4 substeps × 1 iteration no longer flies
 * off when the iterations go up). Setting a value it already has, or changing gravity, damping, the ground or
 * strengths, does not settle.
 */
export declare class World {
  constructor();
  /** Gravity in m/s². Default [0, -9.81, 0]. */
  setGravity(x: number, y: number, z: number): void;
  setGravity(gravity: Vec3Like): void;
  /** Gravity in m/s², as [x, y, z]. */
  getGravity(): [number, number, number];
  /** 'pbd': stiffness with the iteration-count correction; 'xpbd': compliance. Default 'xpbd'. */
  setMethod(method: 'pbd' | 'xpbd'): void;
  /** The constraint method (see setMethod). */
  getMethod(): 'pbd' | 'xpbd';
  /** Substeps per step(dt), in [1, 1000]. Default 10. */
  setSubsteps(n: number): void;
  /** Substeps per step(dt). */
  getSubsteps(): number;
  /** Projection passes per substep, in [1, 1000]. Default 1. */
  setIterations(n: number): void;
  /** Projection passes per substep. */
  getIterations(): number;
  /**
   * How the projections of one iteration are ordered: 'gauss-seidel' (serial, in the order constraints were added:
   * the reference), 'jacobi' (all from the same positions, corrections averaged, times ω), or
   * 'coloured-gauss-seidel' (blocks of particles, those of one block colour in parallel, each block colour by colour;
   * colour by colour with each colour shared out for a body numbered at random; the default, bit-identical on any
   * thread count),
   * or 'hierarchical' (Müller 2008 HPBD: each substep first solves ever coarser subsets of the particles with
   * long-range stretch-only constraints, coarsest first, then runs the coloured solve; a dense stiff cloth stretches far
   * less at the same iteration count. Bit-identical on any thread count; does not conserve momentum exactly. See
   * setHierarchy),
   * or 'projective-dynamics' (Bouaziz et al. 2014: distance, dihedral, tet-volume and Neo-Hookean constraints solved
   * together, each iteration one parallel local projection plus one global solve with a sparse matrix factored once
   * and again only when topology, masses, strengths, method or substep change. Compliance α gives the weight 1/α,
   * rigid constraints are capped at 1e6 times the particles' inertia, PBD stiffness k gives k/(1-k) m/h². Attachments,
   * contacts, self-collision, tethers, shape matching, strain triangles and pressure are projected PBD-style after each
   * global solve. Implicit: stable at any stiffness, soft at few iterations. Bit-identical on any thread count),
   * or 'vbd' (Vertex Block Descent, Chen, Macklin et al. 2024: each iteration one Newton step per particle on the
   * implicit-Euler energy of the distance, dihedral, tet-volume, Neo-Hookean, strain-triangle and attachment constraints
   * around it, the particles of one colour in parallel. A compliant constraint is the energy ½ C²/α (PBD stiffness k:
   * k/(1-k) times its particles' inertia m/h²); a rigid one stiffens where it is violated, up to 1e6 times that
   * inertia, carried over from step to step. Neo-Hookean tets use their material (Young's modulus, Poisson's ratio) in either method.
   * Everything else is projected PBD-style after each iteration, as with 'projective-dynamics'. Bit-identical on any
   * thread count).
   */
  setSolver(solver: 'gauss-seidel' | 'jacobi' | 'coloured-gauss-seidel' | 'hierarchical' | 'projective-dynamics' |
    'vbd'): void;
  /** The projection order (see setSolver). */
  getSolver(): 'gauss-seidel' | 'jacobi' | 'coloured-gauss-seidel' | 'hierarchical' | 'projective-dynamics' | 'vbd';
  /**
   * The 'hierarchical' solver's hierarchy; missing fields keep their values. Rebuilt at the next step (and whenever
   * particles, distance constraints or pins change).
   */
  setHierarchy(settings: HierarchySettings): void;
  /** The 'hierarchical' solver's settings, every field filled in. */
  getHierarchy(): Required<HierarchySettings>;
  /**
   * 'implicit-euler' (first order, default) or 'bdf2' (second order: less numerical damping; falls back to Euler for
   * one substep whenever there is no history, e.g. after adding or moving particles).
   */
  setIntegrator(integrator: 'implicit-euler' | 'bdf2'): void;
  /** The time integrator (see setIntegrator). */
  getIntegrator(): 'implicit-euler' | 'bdf2';
  /**
   * The order in which the Gauss-Seidel solvers ('coloured-gauss-seidel', 'hierarchical', 'gauss-seidel') project the
   * distance constraints in each iteration. 'forward' (default): one pass, the cheapest. 'symmetric': the same pass,
   * then back in reverse order, about 1.5 times a cloth's solve: stiff constraints that cannot all hold (a cloth's
   * bending and stretch where it folds over a box's edge) then come to rest under damping, where a forward pass can
   * keep a fold ringing at a few cm/s. Under 'bdf2' the distances always sweep symmetrically; other solvers ignore it.
   */
  setDistanceSweep(sweep: 'forward' | 'symmetric'): void;
  /** Gauss-Seidel's order over the distance constraints (see setDistanceSweep). */
  getDistanceSweep(): 'forward' | 'symmetric';
  /** Jacobi's relaxation ω in (0, 2). Default 1. */
  setJacobiRelaxation(omega: number): void;
  /** Jacobi's relaxation ω, in (0, 2). */
  getJacobiRelaxation(): number;
  /** Record the distance constraints' residual after every projection pass (costs one extra evaluation per pass). */
  setRecordResiduals(on: boolean): void;
  /**
   * Pairs (max |r|, RMS r) per projection pass of the last step (substeps x iterations pairs); r = C for PBD and
   * C + α̃λ for XPBD. A live view, valid until the next step. Empty unless recording is on.
   */
  residuals(): Float32Array;
  /**
   * Particle-particle collision between all dynamic particles (a cloth on itself, cloth on cloth), checked every
   * substep; particles are kept 2 radius apart. Pairs closer than that in the rest shape (neighbours) are ignored;
   * two particles of one body that start d apart, d under 4 radius, are kept only d / 2 apart, so that a soft body
   * squeezed by its weight does not fight its own collision. Pairs are kept within a margin of 0.2 radius beyond
   * their distance (other constraints may pull them together during the solve), and a pair pushed apart leaves the
   * substep without relative velocity along its normal (restitution 0): resting piles stay still.
   * The candidates come from a neighbour list that a spatial hash refreshes only once a particle has moved
   * 0.4 radius, so resting bodies cost little. Its room (about 260 bytes a particle) is taken when this is switched
   * on. Default { enabled: false, radius: 0.01 }.
   */
  setSelfCollision(settings: SelfCollisionSettings): void;
  /** Particle-particle self-collision's settings, every field filled in. */
  getSelfCollision(): Required<SelfCollisionSettings>;
  /** Pairs the last substep's self-collision kept apart. */
  selfCollisionPairCount(): number;
  /**
   * Velocity clamp in m/s, >= 0 (0 = off, the default): before each substep's prediction a particle's speed is
   * clamped to this, so free flight moves it at most maxSpeed·h per substep: a last guard against tunnelling
   * through a collider of thickness t (use t / (k h), k >= 1, h = dt / substeps).
   */
  setMaxSpeed(metresPerSecond: number): void;
  /** The velocity clamp in m/s; 0 = off. */
  getMaxSpeed(): number;
  /** Bodies added so far (every add* of a body or of particles adds one). */
  bodyCount(): number;
  /**
   * Removes a body, by index or by the record an add-body call returned, with everything that touches its particles:
   * constraints of every kind (also those added between it and another body), closed surfaces and shape matching
   * clusters with a member in it, tethers, its self-collision; an attachment on it frees its handle. What comes after
   * moves down and keeps its order: the records this world returned are updated in place (BodyRange.removed on the
   * removed one), while plain particle, body and constraint numbers after it must be shifted by the caller (see
   * BodyRemoval). Invalidates the views (positions(), velocities(), inverseMasses()...): take them again. Clears the
   * last step's contacts(). O(size of the world): for an occasional edit, not every frame. Throws an
   * InvalidArgumentError naming `body` for an index out of range, a removed record or a record of another world, and
   * then changes nothing.
   */
  removeBody(body: number | BodyRange): BodyRemoval;
  /**
   * Tears edges of a tearable body (see Tearing), given by index or record: `edges` holds two particle indices per
   * edge, each pair two corners of one of its triangles (see bodyTriangles). Then splits the vertices where the
   * surface came apart. Invalidates the views as removeBody does; O(size of the world): for a cut, not every frame.
   * Throws an InvalidArgumentError naming `body` (not tearable) or `edges[k]` (not the body's, or no edge) and then
   * changes nothing.
   */
  tearEdges(body: number | BodyRange, edges: ArrayLike<number>): TearReport;
  /**
   * How many bodies the last step tore (0 almost always: cheap to ask every frame). When not 0, the step rebuilt the
   * world as tearEdges does: take the views again.
   */
  lastTearCount(): number;
  /** What the last step tore, one report per torn body (empty when nothing tore). */
  lastTears(): TearReport[];
  /**
   * A tearable body's triangles as torn so far (3 particle indices each, a copy): what a renderer draws. Changes only
   * when the body tears. Throws for a body that is not tearable.
   */
  bodyTriangles(body: number | BodyRange): Uint32Array;
  /** Changes the given fields of a body's contact material (see ContactMaterial); takes effect at the next step. */
  setBodyMaterial(body: number, material: ContactMaterial): void;
  /**
   * Body `body`'s contact material, every field filled in (-1 for a friction left to the surface, or a staticFriction
   * left to `friction`). Throws an Error naming `body` if it is out of range.
   */
  getBodyMaterial(body: number): Required<ContactMaterial>;
  /**
   * Changes the given fields of a cloth or triangle-mesh body's continuous self-collision; throws for other bodies.
   * Takes effect at the next step.
   */
  setContinuousSelfCollision(body: number, settings: ContinuousSelfCollision): void;
  /** A cloth or triangle-mesh body's continuous self-collision settings, every field filled in; throws for others. */
  getContinuousSelfCollision(body: number): Required<ContinuousSelfCollision>;
  /** Point–triangle and edge–edge pairs the last substep's continuous self-collision kept apart. */
  continuousSelfContactCount(): number;
  /** Global linear damping in 1/s, >= 0. */
  setLinearDamping(perSecond: number): void;
  /** Global linear damping in 1/s. */
  getLinearDamping(): number;
  /** Damping of non-rigid motion per frame (Müller 2006), in [0, 1]. */
  setRigidDamping(k: number): void;
  /** Damping of non-rigid motion, in [0, 1]. */
  getRigidDamping(): number;
  /**
   * Chebyshev acceleration of the 'vbd' solver's iterations (Chen et al. 2024, §3.8): ρ in [0, 1), an estimate of
   * the spectral radius of one iteration; iterate n becomes ω_n (x̄_n − x_{n−2}) + x_{n−2}, x̄_n the vertex sweep's
   * result, ω_1 = 1, ω_2 = 2/(2 − ρ²), ω_n = 4/(4 − ρ² ω_{n−1}). It acts from the second iteration of a substep on,
   * so it matters at 2 or more iterations; the same minimizer, reached in fewer iterations when ρ fits (too large
   * overshoots first). 0 = off (the default). Other solvers ignore it. Saved in snapshots.
   */
  setChebyshevRho(rho: number): void;
  /** The 'vbd' solver's Chebyshev ρ, in [0, 1); 0 = off. */
  getChebyshevRho(): number;
  /** Changes the given fields of the ground plane. */
  setGround(ground: GroundSettings): void;
  /** The ground plane's settings, every field filled in. */
  getGround(): Required<GroundSettings>;

  /** Adds a particle; inverseMass 0 pins it. Returns its index. */
  addParticle(x: number, y: number, z: number, inverseMass: number): number;
  addParticle(position: Vec3Like, inverseMass: number): number;
  /** Adds particles from xyz triples (and inverse masses, default 1); returns the first index. */
  addParticles(positions: ArrayLike<number>, inverseMasses?: ArrayLike<number>): number;
  /** 0 pins the particle (and zeroes its velocity). */
  setInverseMass(particle: number, inverseMass: number): void;
  /** Velocity in m/s. */
  setVelocity(particle: number, x: number, y: number, z: number): void;
  setVelocity(particle: number, velocity: Vec3Like): void;
  /** Moves the particle to a point, m. */
  setPosition(particle: number, x: number, y: number, z: number): void;
  setPosition(particle: number, position: Vec3Like): void;
  /** A force in N that stays until changed. */
  setExternalForce(particle: number, x: number, y: number, z: number): void;
  setExternalForce(particle: number, force: Vec3Like): void;

  /** Returns the constraint's index. */
  addDistanceConstraint(i: number, j: number, options?: DistanceOptions): number;
  /**
   * A bilateral distance constraint between particles pairs[2k] and pairs[2k + 1] for each k, in that order (a
   * mesh's edges in one call; far faster than a call per edge). Everything is checked first, so a bad element (named,
   * e.g. `pairs[7]`) adds none. Returns the first one's index; the others follow it.
   */
  addDistanceConstraints(pairs: Uint32Array | ArrayLike<number>, options?: DistancesOptions): number;
  /**
   * A tet volume constraint (kind 'tet-volume', C = V - V0) on particles tets[4k .. 4k+3] for each k, in that order:
   * the elements of a soft body of your own topology over particles you added (with addDistanceConstraints for its
   * edges). V0 is each tet's volume at the particles' current positions, which must be a shape addSoftBody accepts
   * (positive orientation, not flat). One strength for all (compliance in m⁶/J; default rigid). Everything is checked
   * first, so a bad tet (named as addSoftBody names it, e.g. `tets[3]`) adds none. Returns the first one's index
   * (numbered as tetVolumeCount() counts them); the others follow it.
   */
  addTetVolumeConstraints(tets: Uint32Array | ArrayLike<number>, options?: Strength): number;
  /**
   * Bending between the triangles (p0, p2, p3) and (p1, p3, p2) sharing the edge p2-p3: C = φ - φ0, φ the signed
   * angle between their normals. Robust at 0 and π. restAngle in [-π, π] (default: the current angle); compliance in
   * 1/(N m) per radian². Returns its index. Degenerate triangles are rejected.
   */
  addDihedralConstraint(p0: number, p1: number, p2: number, p3: number, options?: DihedralOptions): number;
  /** Dihedral constraints in the world (addDihedralConstraint and bodies' bending), numbered 0 .. count - 1. */
  dihedralConstraintCount(): number;
  /** Sets compliance and stiffness of distance constraints [first, first + count). */
  setDistanceStrength(first: number, count: number, compliance: number, stiffness: number): void;
  /** The same with a Strength record, as options take it: { compliance, stiffness }, each defaulting as Strength's. */
  setDistanceStrength(first: number, count: number, strength: Strength): void;
  /**
   * Sets compliance (XPBD, >= 0, in the kind's units) and stiffness (PBD, in [0, 1]) of the constraints
   * [first, first + count) of one kind, numbered per kind in the order added (0 .. that kind's count):
   * 'distance' (distanceConstraintCount, m/N), 'dihedral' (dihedralConstraintCount, 1/(N m) per rad²), 'tet-volume'
   * (tetVolumeCount, m⁶/J), 'triangle-stretch' / 'triangle-shear' (triangleStrainCount; compliance per unit
   * area, divided by each triangle's rest area as the builder does), 'shape-matching' (shapeMatchingCount, s²),
   * 'surface-volume' (surfaceVolumeCount, m⁶/J). Takes effect at the next step; setting the values a body was built
   * with changes nothing. Throws an Error naming the bad argument (kind, first+count, compliance, stiffness); the
   * world is then unchanged.
   */
  setConstraintStrength(kind: ConstraintKind, first: number, count: number, compliance: number, stiffness: number): void;
  /** The same with a Strength record, as options take it: { compliance, stiffness }, each defaulting as Strength's. */
  setConstraintStrength(kind: ConstraintKind, first: number, count: number, strength: Strength): void;
  /**
   * The compliance and stiffness of constraint `constraint` of `kind` (numbered as for setConstraintStrength), as
   * set or built: for strain triangles the compliance per unit area, as given. Throws an Error naming `kind` or
   * `constraint` if it is unknown or out of range.
   */
  getConstraintStrength(kind: ConstraintKind, constraint: number): {
    /** XPBD compliance, >= 0, in the kind's units (see setConstraintStrength). */
    compliance: number;
    /** PBD stiffness, in [0, 1]. */
    stiffness: number;
  };
  /**
   * A Neo-Hookean soft body's material, as addSoftBody's youngsModulus (Pa, > 0), poissonRatio (in (-1, 0.5)) and
   * materialStiffness (PBD, in [0, 1]): every Neo-Hookean tet of `body` (BodyRange.body) gets the compliances
   * addSoftBody would have given it. Throws an Error naming the argument, or `body` if it has no Neo-Hookean tets.
   */
  setSoftBodyMaterial(body: number, youngsModulus: number, poissonRatio: number, materialStiffness: number): void;
  /**
   * Removes distance constraint `constraint` by moving the last one into its slot (swap-with-last): the constraint
   * numbered distanceConstraintCount() - 1 takes its number, all others keep theirs (a body's constraint range stays
   * valid only if neither lies in it). Its colour is freed; no other constraint is recoloured.
   */
  removeDistanceConstraint(constraint: number): void;
  /** Distance constraints in the world (addDistanceConstraint and bodies'), numbered 0 .. count - 1. */
  distanceConstraintCount(): number;
  /** Pulls a particle to a world point (m); returns a handle. Default strength: rigid. */
  addAttachment(particle: number, x: number, y: number, z: number, options?: Strength): number;
  addAttachment(particle: number, target: Vec3Like, options?: Strength): number;
  /**
   * Pulls a particle to a collider's point `anchor` (m, in the collider's frame) wherever the collider is within the
   * substeps; returns an attachment handle (removeAttachment, attachmentImpulse; setAttachmentTarget throws). What it
   * gives the particle counts as the collider's (colliderImpulse), so a dynamic collider (setColliderBody) is pulled
   * back within each substep: a cloth hung from another engine's body weighs on it without a frame's lag.
   * removeCollider removes the attachments that follow it. Default strength: rigid.
   */
  attachToCollider(particle: number, collider: number, x: number, y: number, z: number, options?: Strength): number;
  attachToCollider(particle: number, collider: number, anchor: Vec3Like, options?: Strength): number;
  /**
   * Skinned constraints (see SkinnedConstraintsOptions), one per particle (a particle has at most one), in order.
   * Each starts with its skinned position at its particle's current position and no normal (no backstop) until
   * setSkinnedTargets gives them. Everything is checked first (a bad element is named, e.g. `maxDistance[3]`), so a
   * bad call adds none. Returns the first one's index (numbered as skinnedConstraintCount() counts them); the others
   * follow it.
   */
  addSkinnedConstraints(options: SkinnedConstraintsOptions): number;
  /**
   * The skinned positions (m, xyz each) and the skin's outward normals (xyz each; normalized; a zero normal turns the
   * backstop off) of skinned constraints first, first + 1, ...: where the animated mesh puts them at the end of the
   * next step. Across its substeps they move linearly from where the last step left them, so the cloth feels the
   * character's motion. Without `normals` the normals stay as they are. pbd-wasm/three's SkinnedCloth calls it for
   * you from a three.js SkinnedMesh.
   */
  setSkinnedTargets(first: number, positions: Float32Array | ArrayLike<number>,
    normals?: Float32Array | ArrayLike<number>): void;
  /** Skinned constraints in the world, numbered 0 .. count - 1. */
  skinnedConstraintCount(): number;
  /** The particle is moved there over the next step, linearly across its substeps (drag it every frame). */
  setAttachmentTarget(attachment: number, x: number, y: number, z: number): void;
  setAttachmentTarget(attachment: number, target: Vec3Like): void;
  /** Removes an attachment; a later addAttachment may reuse its handle. */
  removeAttachment(attachment: number): void;
  /**
   * What the attachment gave its target over the last step (N·s, world frame, [x, y, z]): minus the momentum its
   * pushes gave the particle. Applied at the target to the body holding it (`pbd-wasm/rapier`'s attach does),
   * momentum is exchanged, not created. Zeros before any step; under the 'vbd' solver, whose vertex steps solve the
   * attachment with the particle's other elements, it throws an InvalidArgumentError.
   */
  attachmentImpulse(attachment: number): [number, number, number];

  /**
   * Adds a collider; returns its handle, a number that names it in the collider methods until removeCollider,
   * whatever else is removed (handles are not reused). Before any removal the handles are 0, 1, 2... in the order
   * added; loadSnapshot numbers the loaded colliders so again.
   */
  addCollider(options: ColliderOptions): number;
  /**
   * Moves a collider: over the next step it goes linearly from its current pose to this one, and drags touching
   * particles along through friction.
   */
  setColliderPose(collider: number, x: number, y: number, z: number, qx: number, qy: number, qz: number, qw: number): void;
  setColliderPose(collider: number, position: Vec3Like, rotation: QuatLike): void;
  /**
   * Deforms a mesh collider: new local-frame positions (xyz per vertex, as many as it has; no triangle may become
   * degenerate). Takes effect at once (not swept across the step); move a rigid mesh with setColliderPose instead.
   */
  setColliderMeshVertices(collider: number, positions: Float32Array | ArrayLike<number>): void;
  /**
   * What the particles' contacts gave a collider over the last step (normal pushes, friction, restitution, summed
   * over the substeps): the reaction a rigid body the collider stands for receives, so that applying it exchanges
   * momentum rather than creating it (two-way coupling; `pbd-wasm/rapier` does it for Rapier's bodies). All zero
   * before any step, after a step the non-finite guard undid, and after loadSnapshot.
   */
  colliderImpulse(collider: number): ColliderImpulse;
  /**
   * Makes a collider dynamic within the steps, as the rigid body of another engine it stands for (see
   * ColliderBody), or kinematic again with mass 0; call it before each step with the velocities that engine has
   * now. A dynamic collider's setColliderPose puts it there at once (no sweep across the next step). Not saved in
   * snapshots. Throws an InvalidArgumentError for a negative or non-finite mass, a non-positive inertia with a mass,
   * or a mesh collider.
   */
  setColliderBody(collider: number, body: ColliderBody): void;
  /**
   * The collider's body, with its velocities as the last step left them (a kinematic one's: mass 0, all zero); each
   * vector an array [x, y, z].
   */
  colliderBody(collider: number): Required<ColliderBody>;
  /**
   * Removes a collider; the other colliders keep their handles (in C++, World::removeCollider moves the later ones
   * down an index instead). The last step's contacts() are cleared with it. A handle that names no collider of this
   * world throws an InvalidArgumentError ("collider is out of range") and changes nothing.
   */
  removeCollider(collider: number): void;
  /** Colliders in the world now. */
  colliderCount(): number;

  /** Adds a rectangular cloth; returns where it landed. */
  addCloth(options: ClothOptions): BodyRange;
  /** Adds a rope; returns where it landed. */
  addRope(options: RopeOptions): BodyRange;
  /** Adds a Cosserat rod (see RodOptions); returns where it landed, with its segments. */
  addRod(options: RodOptions): BodyRange;
  /** Rod segments in the world (numbered across rods in the order added). */
  segmentCount(): number;
  /** x, y, z, w per rod segment: each segment's frame as a unit quaternion (its third axis runs along the segment).
   * A live view, as positions(). */
  segmentOrientations(): Float32Array;
  /** x, y, z per rod segment: each frame's angular velocity, rad/s, world frame. A live view. */
  segmentAngularVelocities(): Float32Array;
  /** Turns a segment's frame at once (the quaternion is normalized here; zero or non-finite throws): drives a clamped
   * segment, or sets a free one's start. Its angular velocity is kept. */
  setSegmentOrientation(segment: number, x: number, y: number, z: number, w: number): void;
  setSegmentOrientation(segment: number, rotation: QuatLike): void;
  /** A segment frame's angular velocity, rad/s, world frame (a clamped one keeps 0). */
  setSegmentAngularVelocity(segment: number, x: number, y: number, z: number): void;
  setSegmentAngularVelocity(segment: number, omega: Vec3Like): void;
  /** A torque on a segment's frame, N m, world frame, kept until changed (as setExternalForce's force). */
  setSegmentTorque(segment: number, x: number, y: number, z: number): void;
  setSegmentTorque(segment: number, torque: Vec3Like): void;
  /** Adds a tet-mesh soft body; returns where it landed. Rejects inverted or flat tets and vertices in no tet. */
  addSoftBody(options: SoftBodyOptions): BodyRange;
  /** Cloth, shell or balloon from a render mesh (welded). */
  addTriangleMesh(options: TriangleMeshOptions): MeshBody;
  /** Adds a shape matching cluster; returns its index. Clusters are projected serially in the order added. */
  addShapeMatching(options: ShapeMatchingOptions): number;
  /** Shape matching clusters: addShapeMatching, and soft bodies with shapeMatching. */
  shapeMatchingCount(): number;
  /** Strain triangles of cloths and meshes with model 'strain-triangles'. */
  triangleStrainCount(): number;
  /** Neo-Hookean tets in the world. */
  neoHookeanCount(): number;
  /** Closed-surface volume constraints (triangle meshes with pressure > 0). */
  surfaceVolumeCount(): number;
  /** The volume the k-th closed surface encloses now, m³. */
  surfaceVolume(k: number): number;
  /** Its rest volume, m³. */
  surfaceRestVolume(k: number): number;
  /** Tet volume constraints (soft bodies with material 'volume'). */
  tetVolumeCount(): number;

  /**
   * Advances by dt seconds, 0 < dt <= 1. If the step would leave any position or velocity NaN or Inf (extreme
   * forces or parameters), it is undone for the whole world, every body that had such a particle is stopped, and
   * lastStepReport() says so: the world never carries NaN.
   */
  step(dt: number): void;
  /**
   * Steps by whole fixed steps for `elapsedSeconds` of real time, a render loop's frame time: the time left over
   * carries to the next call, so the simulation runs at real speed on a 60 Hz or a 144 Hz display and every step has
   * the same dt (the same bits as calling step(options.step) yourself). A frame longer than `maxSteps` steps (a hidden
   * tab, a breakpoint) drops its excess instead of making later frames catch up; a negative one (a
   * requestAnimationFrame timestamp from before the loop started) counts as 0. Returns the steps taken: 0 on a
   * frame shorter than what is left of a step.
   * @example renderer.setAnimationLoop(() => { world.advance(clock.getDelta()); renderer.render(scene, camera); });
   */
  advance(elapsedSeconds: number, options?: AdvanceOptions): number;
  /**
   * What the last step did about non-finite values (`body` counts bodies in the order they were added) and how many
   * contacts it found but could not keep because their room was full (0 in any sane scene; the world never
   * allocates while stepping): ground and collider contacts, particle-particle self-collision pairs, and continuous
   * self-collision contacts (room: 4 per vertex and edge). `selfCandidates` counts the point-triangle and edge-edge
   * pairs the continuous self-collision's broad phase passed to its narrow phase, and `selfContactsFound` those of
   * them that were contacts, both summed over the step's substeps: what its cost follows. `selfFrozenParticles`
   * counts the particles its failsafe put back where their substep started, because the solve carried two elements
   * through each other or within half the thickness (0 in a calm scene). `selfCandidateLists` counts the candidate
   * lists its broad phase made (the pairs of one walk of the BVH for every place each vertex may reach: one per
   * surface and step while its vertices move apart by less than that reach; moving all together, as a falling or
   * thrown cloth does, keeps the list) and `selfTreeWalks` the walks it made without one
   * (two per substep where a vertex moved out of reach or the list did not fit; 0 at rest). `selfCollisionSearches`
   * counts particle self-collision's pair searches over the substeps (0 while its neighbour list holds, as in a
   * resting scene), and `selfCollisionSearchesWithoutSkin` those of them that listed the pairs within 2 radius only:
   * the fallback where lists with a skin cost more per substep than a search every substep, or did not fit.
   */
  lastStepReport(): {
    /** true: the step produced NaN or Inf and was undone (the world is as it was before the step). */
    rolledBack: boolean;
    /** Particles whose position or velocity became non-finite. */
    nonFiniteCount: number;
    /** The first of them (lowest index); meaningful when rolledBack. */
    particle: number;
    /** The body that particle belongs to (BodyRange.body). */
    body: number;
    /** Ground and collider contacts dropped because their room was full, summed over the substeps. */
    droppedContacts: number;
    /** Particle-particle self-collision pairs dropped (room: 8 per particle), summed over the substeps. */
    droppedSelfCollisionPairs: number;
    /** Continuous self-collision contacts dropped (room: 4 per vertex and edge), summed over the substeps. */
    droppedSelfContacts: number;
    /** Point-triangle and edge-edge pairs continuous self-collision's broad phase passed to its narrow phase. */
    selfCandidates: number;
    /** Of those, the pairs that came within the thickness (kept or dropped). */
    selfContactsFound: number;
    /** Particles continuous self-collision's failsafe put back where their substep started. */
    selfFrozenParticles: number;
    /** Candidate lists continuous self-collision's broad phase made (one per surface and step in a calm scene). */
    selfCandidateLists: number;
    /** Walks of its BVH made without a list (0 while the list holds). */
    selfTreeWalks: number;
    /** Particle self-collision's pair searches (0 while its neighbour list holds). */
    selfCollisionSearches: number;
    /** Of those, the searches without a skin (pairs within 2 radius only). */
    selfCollisionSearchesWithoutSkin: number;
  };
  /**
   * Whether every step runs on the module's threads ('always') or on the faster of them and the calling thread alone
   * ('measured', the default): after each change of scene (bodies, constraints, colliders, solver settings) the world
   * times a few steps both ways and keeps the faster, and times them again 60 steps later, then after twice as many
   * steps each time the choice holds, up to every 600 steps, so that a scene with little work per thread
   * (a small tet body, a mesh numbered at random) never runs slower on two threads than on one. The results are the
   * same bits either way. No effect in the single-threaded build or with `threads: 1`.
   */
  setPoolUse(use: 'always' | 'measured'): void;
  /** The current pool use (setPoolUse). */
  poolUse(): 'always' | 'measured';
  /** Whether the last step ran on the module's threads (false: on the calling thread alone). */
  lastStepUsedPool(): boolean;
  /** When on, every step measures where its time goes (lastStepTimings). Off by default. */
  setStepTimings(on: boolean): void;
  /**
   * The last step's time per stage in ms (all 0 while timings are off); the stages add up to totalMs.
   * integrateMs: forces, prediction, velocity update; colliderContactsMs: ground and collider contacts;
   * broadPhaseMs / narrowPhaseMs: self-collision's candidate search and its continuous tests; solveMs: the
   * constraint iterations (with the prediction and the ground scan where the coloured solver runs them in its first
   * pass: no collider, self-collision or free body, nothing near the ground); residualMs: the convergence record's
   * sweeps (setRecordResiduals; 0 in a step that does not record).
   */
  lastStepTimings(): {
    /** Forces, damping, prediction, velocity update and the once-per-step refreshes, in ms. */
    integrateMs: number;
    /** Ground and collider contacts, in ms. */
    colliderContactsMs: number;
    /** Self-collision's candidate search, in ms. */
    broadPhaseMs: number;
    /** Self-collision's continuous tests, in ms. */
    narrowPhaseMs: number;
    /** The constraint iterations (and the prediction, where the coloured solver runs it), in ms. */
    solveMs: number;
    /** The convergence record's sweeps, in ms (0 in a step that does not record). */
    residualMs: number;
    /** The whole step, in ms. */
    totalMs: number;
  };

  /**
   * The world's whole state (settings, particles, integrator history, every constraint, attachments with their
   * handles, colliders with their poses) as a versioned binary blob: a new Uint8Array that the caller owns. A world
   * that loads it continues bit-identically. Store it, download it as a `.pbdsnap` file, or post it to a worker.
   */
  saveSnapshot(): Uint8Array;
  /**
   * Replaces the whole state with a blob from saveSnapshot() (of this or any world). A corrupt, truncated or newer
   * blob throws a SnapshotError naming the problem (e.g. `loadSnapshot: checksum mismatch (the blob is corrupted)`),
   * and the world is left unchanged. Fetch positions() and the other views again afterwards.
   */
  loadSnapshot(bytes: Uint8Array | ArrayBuffer): void;

  /**
   * xyz per particle, m. A live view: see the note at the top of this file. Stale after particles are added, a body
   * tears (tearEdges, or a step whose lastTearCount() is not 0) or the wasm memory grows (any allocation, in any
   * world): call positions() again then.
   */
  positions(): Float32Array;
  /** xyz per particle, m/s. A live view. */
  velocities(): Float32Array;
  /** 1/kg per particle, 0 = pinned. A live view. */
  inverseMasses(): Float32Array;
  /** Particles in the world. */
  particleCount(): number;
  /** Every constraint of every kind (distances, elements, clusters, volumes, tethers, attachments); not contacts. */
  constraintCount(): number;
  /** Tethers added by body builders. */
  tetherCount(): number;
  /** Contacts (ground and colliders) in the last substep. */
  contactCount(): number;
  /**
   * Debug view of the last substep's contacts: 6 floats per contact (contactCount() of them), the contact point
   * x, y, z on the surface (m) and the surface's outward unit normal nx, ny, nz. A view into wasm memory, filled when
   * called (call it after step()); valid until the next step() or contacts() call, or memory growth.
   */
  contacts(): Float32Array;
  /** Frees the world's wasm memory. The object is unusable afterwards. */
  delete(): void;
}

/** The loaded module: what createPbd() resolves to. */
export interface Pbd {
  /** The World class: `new pbd.World()` makes a world (free it with `world.delete()`). */
  World: typeof World;
  /** The Embedding class: `new pbd.Embedding(tetPositions, tets, renderPositions)` (free it with `delete()`). */
  Embedding: typeof Embedding;
  /**
   * Tetrahedralizes the solid bounded by a closed, consistently oriented triangle surface (incremental Delaunay with
   * exact predicates, carved by the winding number). Synchronous: run it in a Worker for big meshes.
   * Throws an Error naming the bad argument (open or non-manifold surfaces name the edge), or an AbortError.
   */
  tetrahedralize(positions: ArrayLike<number>, triangles: ArrayLike<number>, options?: TetrahedralizeOptions): TetMesh;
  /**
   * Parses Wavefront OBJ text (polygons fan-triangulated). Malformed text throws a MeshParseError naming the line;
   * a `text` that is not a string, an InvalidArgumentError.
   */
  readObj(text: string): {
    /** xyz per vertex, in the file's units and order. */
    positions: Float32Array;
    /** 3 vertex indices per triangle, 0-based, in the file's winding order. */
    triangles: Uint32Array;
  };
  /**
   * Merges vertices closer than `tolerance` (default 1e-6; 0 = exact duplicates): UV seams and split normals become
   * one vertex, so a render mesh becomes closed. `renderToParticle` maps each input vertex to its welded vertex.
   */
  weldVertices(positions: ArrayLike<number>, triangles: ArrayLike<number>, tolerance?: number): {
    /** xyz per welded vertex, each at the position of its group's lowest-index input vertex. */
    positions: Float32Array;
    /** 3 welded-vertex indices per kept triangle, in input order and winding. */
    triangles: Uint32Array;
    /** Per input vertex, the index of its welded vertex. */
    renderToParticle: Uint32Array;
    /** Input triangles dropped because two of their corners merged. */
    removedTriangles: number;
  };
  /** Parses TetGen .node and .ele texts. Malformed text throws a MeshParseError naming the file and line. */
  readTetGen(nodeText: string, eleText: string): {
    /** xyz per node, in the file's units and order. */
    positions: Float32Array;
    /** 4 node indices per tet, 0-based (of 10-node tets, the 4 corners). */
    tets: Uint32Array;
  };
  /**
   * Renumbers a soft body's vertices along a Hilbert curve of their positions (deterministic) and sorts its tets by
   * their smallest vertex, so that the solver's memory reads follow the mesh: for large meshes from a tetrahedralizer
   * or a file in arbitrary order. Returns a copy of `def` with positions, tets and pinned reordered (every other
   * field as given; tets keep their orientation) and `particleOfVertex[oldVertex] = newVertex`: after
   * `world.addSoftBody(def)`, old vertex v is particle `firstParticle + particleOfVertex[v]` (for an Embedding built
   * on the old mesh, build it on `def` instead). Only positions, tets and pinned are checked here.
   */
  reorderSoftBody<T extends SoftBodyOptions>(def: T): {
    /** A shallow copy of `def` with positions, tets and pinned reordered. */
    def: T & {
      /** xyz per vertex, in the new order. */
      positions: Float32Array;
      /** 4 new vertex indices per tet, sorted by their smallest vertex; each tet keeps its orientation. */
      tets: Uint32Array;
    };
    /** Per old vertex, its new index. */
    particleOfVertex: Uint32Array;
  };
  /**
   * The same for a triangle mesh's render vertices (triangles keep their winding). Old render vertex v is then
   * particle `firstParticle + renderToParticle[particleOfVertex[v]]` of the body `addTriangleMesh(def)` returns.
   */
  reorderTriangleMesh<T extends TriangleMeshOptions>(def: T): {
    /** A shallow copy of `def` with positions, triangles and pinned reordered. */
    def: T & {
      /** xyz per render vertex, in the new order. */
      positions: Float32Array;
      /** 3 new render-vertex indices per triangle, winding kept. */
      triangles: Uint32Array;
    };
    /** Per old render vertex, its new index. */
    particleOfVertex: Uint32Array;
  };
  /** The build that was loaded. */
  variant: 'threaded' | 'single';
  /** Solver threads, the calling one included. */
  readonly threads: number;
  /** The most threads setThreads can give: the pool spawned at load (min(hardwareConcurrency, 4) in a browser, 2 in
   * Node, or the threads asked for if more) plus the calling thread; 1 in the single-threaded build. */
  readonly maxThreads: number;
  /** Changes the thread count (threaded build; capped at maxThreads). Returns the new count. */
  setThreads(n: number): number;
  /** Bytes currently allocated in the wasm heap. */
  heapBytesInUse(): number;
  /** The wasm memory (a SharedArrayBuffer in the threaded build). */
  readonly memory: ArrayBuffer | SharedArrayBuffer;
  /** Stops the pthread workers so a Node process can exit; the module is unusable afterwards. */
  terminate(): void;
  /** The raw Emscripten module. */
  module: unknown;
}

/** Options of World.advance. */
export interface AdvanceOptions {
  /** Seconds per step, in (0, 1]. Default 1/60. */
  step?: number;
  /** The most steps one call takes, an integer in [1, 1000]. Default 4: at 1/60 s a frame of up to 1/15 s is simulated
   * whole; a longer one runs in slow motion rather than falling further behind. */
  maxSteps?: number;
  /**
   * Called before each step with its length in seconds: set forces that depend on the state here (wind on a moving
   * cloth, a spring to the pointer), so that every step sees its own instead of one frame's force held for several.
   * A step that throws stops the call; the steps before it count. Not through `pbd-wasm/worker` (a function does not
   * cross to a Worker). Default none.
   */
  beforeStep?: (step: number) => void;
}

/** Options of createPbd. */
export interface CreatePbdOptions {
  /** Force a build. Default: 'threaded' in Node and on cross-origin isolated pages, 'single' otherwise. */
  variant?: 'threaded' | 'single';
  /** Threads including the calling one, 1..64 (threaded build). Default in a browser min(hardwareConcurrency − 1,
   * 4), at least 1: one core is left to the page, which renders while the solver steps. In Node 2 (Node does not
   * say how many cores the process may use: ask for more here). */
  threads?: number;
}

/** Loads the WebAssembly module. */
export declare function createPbd(options?: CreatePbdOptions): Promise<Pbd>;
/** Which build createPbd() would pick here, and why. */
export declare function preferredVariant(): {
  /** The build: 'threaded' in Node and on cross-origin isolated pages, 'single' otherwise. */
  variant: 'threaded' | 'single';
  /** Why, in words (e.g. how to serve the page to get threads). */
  reason: string;
};
export default createPbd;
