// The demo's scene description, shared by the page (for rendering) and the simulation worker (for building).

/** A 64 x 64 cloth, 1.5 m square, pinned at two corners 1.3 m up: it swings down and its free edge lands on the ground. */
export const CLOTH = {
  columns: 64,
  rows: 64,
  spacing: 1.5 / 63,
  origin: [-0.75, 1.3, -0.2],
  axisU: [1, 0, 0],
  axisV: [0, 0, 1],
  mass: 1,
  pinned: [0, 63],
  tethers: 'geodesic',   // long-range attachments: the cloth does not sag however few iterations are set
};

/** A soft cube dropped beside the cloth (4 x 4 x 4 cells, 384 tets). */
export const SOFT_CUBE = { cells: 4, size: 0.36, origin: [-1.35, 0.9, -0.1], density: 300,
  edges: { compliance: 1e-6, stiffness: 0.8 }, volume: { compliance: 0, stiffness: 1 } };

/**
 * The Stanford bunny's surface, tetrahedralized in the worker at start (incremental Delaunay, `resolution` grid cells
 * along its longest side) and dropped as a soft body to the right of the cloth. Volume constraints, not Neo-Hookean:
 * its ~5600 tets cost 5 ms a frame that way in the single-threaded build, 17 ms as Neo-Hookean elements (measured).
 */
export const SOFT_BUNNY = { scale: 0.05, offset: [1.4, 0.5, 0.1], resolution: 10, density: 400,
  material: 'volume', edges: { compliance: 1e-6, stiffness: 0.8 }, volume: { compliance: 0, stiffness: 1 } };

/** Shapes under the hanging cloth: it swings down and drapes over them. */
export const COLLIDERS = [
  { shape: 'sphere', position: [-0.35, 0.3, -0.15], radius: 0.3, thickness: 0.012, friction: 0.6 },
  { shape: 'box', position: [0.45, 0.15, -0.1], rotation: [0, 0.2588, 0, 0.9659], halfExtents: [0.2, 0.15, 0.2],
    thickness: 0.012, friction: 0.6 },
];

/** The panel's initial values. */
export const DEFAULT_PARAMS = {
  method: 'xpbd',
  solver: 'coloured-gauss-seidel',
  integrator: 'implicit-euler',
  selfCollision: false,
  substeps: 10,
  iterations: 1,
  stiffness: 1,       // PBD: fraction of the error removed per substep, [0, 1]
  compliance: 0,      // XPBD: inverse stiffness, m/N
  damping: 0.1,       // 1/s, global linear damping
  gravity: -9.81,     // m/s^2
  friction: 0.4,      // ground: dynamic Coulomb coefficient μ_d (brakes sliding)
  staticFriction: -1, // ground: static coefficient μ_s (holds resting contacts); -1 = same as friction
  restitution: 0,     // ground: fraction of the approach speed kept after an impact, [0, 1]
  threads: 0,         // solver threads (threaded build); 0 = as many as the build was loaded with
  contacts: false,    // draw the contacts of the last step (points and normals; the worker then sends them per frame)
};
