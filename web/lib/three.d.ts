import type { BufferGeometry, Camera, EventDispatcher, Intersection, Material, Mesh, SkinnedMesh, Vector3 } from 'three';
import type { BodyRange, ClothOptions, Embedding, MeshBody, Pbd, RodOptions, SoftBodyOptions, Strength, TearReport,
  TetrahedralizeOptions, TriangleMeshOptions, World } from './index';

/** A triangulated grid whose position attribute is a view of the cloth's particles (no copy). */
export declare function createClothGeometry(positions: Float32Array, range: { firstParticle: number },
  columns: number, rows: number): BufferGeometry;
/** The outer surface of a tet mesh (faces no two tets share, wound outwards) over a soft body's particles. */
export declare function createSoftBodyGeometry(positions: Float32Array,
  range: { firstParticle: number; particleCount: number }, tets: ArrayLike<number>): BufferGeometry;
/** A geometry over particles [range.firstParticle, + range.particleCount) with these triangle indices. */
export declare function createMeshGeometry(positions: Float32Array,
  range: { firstParticle: number; particleCount: number }, indices: Uint32Array): BufferGeometry;
/** Re-points the geometry at a new positions view (after the world allocated, or a new shared buffer arrived). */
export declare function setGeometryPositions(geometry: BufferGeometry, positions: Float32Array): void;
/** Marks positions changed; recomputes normals and bounds. Call once per rendered frame. */
export declare function refreshGeometry(geometry: BufferGeometry): void;


/**
 * A three.js Mesh drawing one body straight from the simulation's memory (zero-copy). Its vertices are simulation
 * coordinates: never transform the mesh (matrixAutoUpdate is off); move the body instead.
 */
export declare class PbdBodyMesh extends Mesh {
  constructor(world: World, range: { firstParticle: number; particleCount: number }, geometry: BufferGeometry,
    material?: Material);
  /** The world the body lives in. */
  readonly world: World;
  /** The body's particles: [firstParticle, firstParticle + particleCount). */
  readonly range: {
    /** Index of the body's first particle in the world. */
    firstParticle: number;
    /** Particles of the body. */
    particleCount: number;
  };
  /** True after dispose(). */
  readonly disposed: boolean;
  /** Once per rendered frame, after world.step(): follows the particles, recomputes normals and bounds. Re-fetches the
   * view by itself when the world's arrays moved (bodies added, wasm memory grown). */
  update(): void;
  /** The body's particle nearest to a point in simulation coordinates (-1 for an empty body). */
  nearestParticle(point: Vector3): number;
  /** A copy of the position of world particle i, m, written into `target` if one is given. */
  particlePosition(i: number, target?: Vector3): Vector3;
  /**
   * Frees the geometry, the material if the mesh created it, and any wasm memory it holds (an Embedding); removes
   * it from its parent. The body stays in the world unless `removeBody` is true (default false): then
   * world.removeBody removes it too. The mesh follows its body's record, so removing other bodies keeps it drawing
   * the right particles; once its own body is removed, update() throws.
   */
  dispose(options?: { removeBody?: boolean }): void;
}

/** A rectangular cloth: `new PbdCloth(world, options)` adds it to the world and draws it. */
export declare class PbdCloth extends PbdBodyMesh {
  constructor(world: World, options: ClothOptions, view?: {
    /** Default: a double-sided MeshStandardMaterial, disposed with the mesh. */
    material?: Material;
  });
  /** What world.addCloth returned. */
  readonly body: BodyRange;
}

/**
 * A Cosserat rod: `new PbdRod(world, options)` adds it (world.addRod) and draws it as a tube whose rings turn with the
 * rod's frames; a stripe along the frames' first axis shows the twist. Its vertices are computed in update() (a copy,
 * not a view of the particles).
 */
export declare class PbdRod extends PbdBodyMesh {
  constructor(world: World, options: RodOptions, view?: {
    /** Default: a MeshStandardMaterial with the vertex colours, disposed with the mesh. */
    material?: Material;
    /** Vertices round each ring. Default 8. */
    radialSegments?: number;
    /** The tube's colour, 0xRRGGBB. Default 0xb87333 (copper). */
    colour?: number;
    /** The stripe's colour, 0xRRGGBB. Default 0xf4f1de. */
    stripe?: number;
  });
  /** What world.addRod returned (with firstSegment and segmentCount). */
  readonly body: BodyRange;
  /** The tube's radius, m: the rod's. */
  readonly radius: number;
  /** Vertices round each ring. */
  readonly sides: number;
}

/**
 * A tet-mesh soft body, drawn as the tets' outer surface, or as `view.renderGeometry` embedded in the tets (then it
 * holds an Embedding in wasm memory: call dispose(); in development a FinalizationRegistry warns if you forget).
 */
export declare class PbdSoftBody extends PbdBodyMesh {
  constructor(world: World, options: SoftBodyOptions, view?: {
    /** Default: a double-sided MeshStandardMaterial, disposed with the mesh. */
    material?: Material;
    /** Drawn instead of the tet surface, embedded in the tets (same coordinates as options.positions); cloned. */
    renderGeometry?: BufferGeometry;
    /** @deprecated Not needed: the Embedding comes from the world's own module. */
    pbd?: Pbd;
  });
  /** What world.addSoftBody returned. */
  readonly body: BodyRange;
  /** The render mesh's embedding, or null when drawing the tet surface. */
  readonly embedding: Embedding | null;
}

/** A mesh's vertex positions in world space (through matrixWorld) and its triangles (0, 1, 2... if non-indexed). */
export declare function meshArrays(mesh: Mesh): {
  /** xyz per vertex in world space, a copy. */
  positions: Float32Array;
  /** 3 vertex indices per triangle, a copy of the index (0, 1, 2... if non-indexed). */
  triangles: Uint32Array;
};

/** A cloth, shell or balloon from a three.js Mesh (welded; see World.addTriangleMesh), drawn over its particles. */
export declare function clothFromMesh(world: World, mesh: Mesh,
  options?: Omit<TriangleMeshOptions, 'positions' | 'triangles'>, view?: {
    /** Default: a double-sided MeshStandardMaterial, disposed with the mesh. */
    material?: Material;
  }): PbdBodyMesh & {
    /** What world.addTriangleMesh returned. */
    body: MeshBody;
  };

/**
 * A soft body from a closed three.js Mesh: welded, tetrahedralized (synchronous: use a Worker for big meshes),
 * simulated, and drawn as the original geometry embedded in its tets.
 */
export declare function softBodyFromMesh(world: World, mesh: Mesh,
  options?: Omit<SoftBodyOptions, 'positions' | 'tets'> & Omit<TetrahedralizeOptions, 'extraPoints'> &
    {
      /** Vertices closer than this (m) are welded before tetrahedralizing. Default 1e-6. */
      weldTolerance?: number;
    },
  view?: {
    /** Default: a double-sided MeshStandardMaterial, disposed with the mesh. */
    material?: Material;
  }): PbdSoftBody;
/** @deprecated The module is the world's own: softBodyFromMesh(world, mesh, options, view). */
export declare function softBodyFromMesh(pbd: Pbd, world: World, mesh: Mesh,
  options?: Omit<SoftBodyOptions, 'positions' | 'tets'> & Omit<TetrahedralizeOptions, 'extraPoints'> &
    {
      /** Vertices closer than this (m) are welded before tetrahedralizing. Default 1e-6. */
      weldTolerance?: number;
    },
  view?: {
    /** Default: a double-sided MeshStandardMaterial, disposed with the mesh. */
    material?: Material;
  }): PbdSoftBody;

/** Options of PbdSkinnedCloth: world.addTriangleMesh's (the body's material) plus the skinned constraints'. */
export interface SkinnedClothOptions extends Omit<TriangleMeshOptions, 'positions' | 'triangles'> {
  /** m, >= 0: how far a vertex of weight 1 may swing from where the animation puts it. Default 0.1. */
  maxDistance?: number;
  /**
   * Each vertex's share of maxDistance, in [0, 1]: the name of a geometry attribute (its x) or one number per vertex.
   * 0 = the vertex follows the skin exactly (a cape's shoulders), 1 = it swings up to maxDistance. Default all 1.
   */
  weights?: string | ArrayLike<number>;
  /** m: how far behind the skinned surface the backstop lies (the body under the cloth); -1 = none. Default 0.01. */
  backstopDistance?: number;
  /** m: 0 = the backstop is a plane; > 0 = a sphere of this radius (about a limb's). Default 0. */
  backstopRadius?: number;
}

/**
 * Character cloth: a three.js SkinnedMesh (a cape or a skirt, its geometry skinned to the character's skeleton)
 * simulated as a cloth that keeps to its animation: each particle within its maximum distance of its skinned
 * position and never behind the backstop under the skin (World.addSkinnedConstraints). The skinned pose at
 * construction is the cloth's rest shape. Front faces (counter-clockwise) must face away from the body. Each frame:
 * animate (mixer.update), `updateSkin()`, `world.step(dt)`, `update()`. Hide the SkinnedMesh itself (this draws it).
 */
export declare class PbdSkinnedCloth extends PbdBodyMesh {
  constructor(world: World, skinnedMesh: SkinnedMesh, options?: SkinnedClothOptions, view?: {
    /** Default: a double-sided MeshStandardMaterial, disposed with the mesh. */
    material?: Material;
  });
  /** What world.addTriangleMesh returned, with firstSkinned: where its skinned constraints start. */
  readonly body: MeshBody;
  /** The animated mesh it follows. */
  readonly skinnedMesh: SkinnedMesh;
  /** Reads the animated mesh (bones' world matrices, so after the animation) and sets where the cloth keeps to over
   * the next step: call once per frame before world.step(). */
  updateSkin(): void;
}

/** new PbdSkinnedCloth(world, skinnedMesh, options, view). */
export declare function skinnedClothFromMesh(world: World, skinnedMesh: SkinnedMesh, options?: SkinnedClothOptions,
  view?: { material?: Material }): PbdSkinnedCloth;

/** The particle nearest to a raycast hit on a PbdBodyMesh, or null if the hit is not on one. */
export declare function pickParticle(intersection: Intersection | undefined): {
  /** The body mesh that was hit. */
  mesh: PbdBodyMesh;
  /** The body's particle nearest to the hit point, as a world particle index. */
  particle: number;
  /** A copy of the hit point, m. */
  point: Vector3;
} | null;

/** The events of PbdDragControls, by type. */
export interface PbdDragControlsEventMap {
  /** A press on a body attached its particle to the pointer. */
  dragstart: {
    /** The body mesh that was pressed. */
    object: PbdBodyMesh;
    /** The held particle, as a world particle index. */
    particle: number;
    /** Where the press hit the body, m; the attachment's first target. */
    point: Vector3;
  };
  /** The pointer moved while holding: `point` (m, on the drag plane) is where the particle is pulled next. Listeners
   * may change it in place (e.g. keep it above the ground) before it is applied. */
  drag: {
    /** The body mesh being dragged. */
    object: PbdBodyMesh;
    /** The held particle, as a world particle index. */
    particle: number;
    /** The attachment's next target, m. */
    point: Vector3;
  };
  /** The particle was let go (pointer up or cancelled, dispose(), or its body disposed or world deleted). */
  dragend: {
    /** The body mesh that was held. */
    object: PbdBodyMesh;
    /** The particle that was held, as a world particle index. */
    particle: number;
    /** The velocity it was thrown with, m/s: the pointer's mean over the drag's throw window, a fixed 50 ms before
     * the release (zero when it stood still for that long, or there was no pointer event, as in dispose()). */
    velocity: Vector3;
  };
}

/**
 * three's DragControls for simulated bodies: press on a body to attach its particle nearest to the hit point to the
 * pointer (world.addAttachment), move to drag it on a plane facing the camera through that point, release to let go
 * and throw it with the pointer's velocity (world.setVelocity). Mouse, pen and touch (pointer events; the element
 * gets `touch-action: none`). A press that grabs is stopped before other listeners of the element (OrbitControls
 * keeps still); a press that misses reaches them. It does not step the world. Throws InvalidArgumentError naming the
 * argument when objects is not an array, camera not a Camera, domElement has no addEventListener, or an option key
 * is unknown. Its events: PbdDragControlsEventMap.
 */
export declare class PbdDragControls extends EventDispatcher {
  /**
   * @param objects the bodies that can be grabbed; read at each press, so push to and remove from it freely.
   * @param camera the camera the element shows.
   * @param domElement the element that receives the pointer events, usually renderer.domElement.
   */
  constructor(objects: PbdBodyMesh[], camera: Camera, domElement: HTMLElement, options?: {
    /** The attachment's strength. Default rigid: { compliance: 0, stiffness: 1 }. */
    strength?: Strength;
  });
  /** The bodies that can be grabbed (the array given). */
  objects: PbdBodyMesh[];
  /** The camera the pointer aims through. */
  camera: Camera;
  /** The element listened to. */
  readonly domElement: HTMLElement;
  /** False: presses are ignored (a drag in progress goes on until released). Default true. */
  enabled: boolean;
  /** What is held while a particle is; else null. */
  readonly held: {
    /** The body mesh the particle belongs to. */
    object: PbdBodyMesh;
    /** The held particle, as a world particle index. */
    particle: number;
    /** The attachment that holds it (world.addAttachment's handle). */
    attachment: number;
    /** The attachment's current target, m. */
    point: Vector3;
  } | null;
  /** Removes the listeners and lets go of a held particle (without throwing it). */
  dispose(): void;
}

/**
 * The particle of `range` nearest to `point`, as a world particle index (not relative to the range): the first of
 * equally near ones, -1 when range.particleCount is 0. `positions` holds xyz per particle, m (world.positions() or a
 * copy of it); `point` is in simulation coordinates, m (any {x, y, z}, e.g. a raycast hit's point). It checks every
 * particle of the range: call it once per click, not per frame. For picking without a PbdBodyMesh, e.g. a world in a
 * Worker drawn with createMeshGeometry; on a PbdBodyMesh, pickParticle does this. Throws InvalidArgumentError naming
 * the argument and the value when positions is not an array, the range is not integers within it, or a coordinate
 * of point is not a finite number.
 */
export declare function nearestParticle(positions: ArrayLike<number>,
  range: { firstParticle: number; particleCount: number }, point: { x: number; y: number; z: number }): number;

/**
 * The edges of a tearable body (see Tearing) that a cut stroke crosses: the stroke sweeps the wedge of rays from
 * `origin` between directions `from` and `to`, and an edge of the body's triangles is cut where it passes through
 * it (in front of the origin). Returns two particle indices per edge, each edge once: what world.tearEdges takes.
 * Needs no camera, so a Worker holding the world can cut with rays the page sent.
 */
export declare function edgesCrossingStroke(world: World, body: number | BodyRange, origin: ArrayLike<number>,
  from: ArrayLike<number>, to: ArrayLike<number>): number[];

/**
 * Cuts a tearable body along a pointer stroke from screen point `from` to `to`, in normalized device coordinates as
 * three.js raycasting uses them ([-1, 1] across, y up): tears every edge the stroke crosses in view. Returns
 * world.tearEdges' report, or null when it crossed none. A PbdCloth or PbdBodyMesh of the body follows at its next
 * update().
 */
export declare function cutAlongStroke(world: World, body: number | BodyRange, camera: Camera,
  from: ArrayLike<number>, to: ArrayLike<number>): TearReport | null;

/** Warnings about adapter objects garbage-collected without dispose() (on by default). */
export declare function setLeakWarnings(on: boolean): void;

/** Two triangles per cell of a columns x rows particle grid (what addCloth builds), as vertex indices. */
export declare function gridTriangles(columns: number, rows: number): Uint32Array;
/** The faces of a tet mesh that no two tets share, wound outwards. */
export declare function tetSurfaceTriangles(tets: ArrayLike<number>): Uint32Array;
