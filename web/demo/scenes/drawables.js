// What a gallery scene asks the page to draw: plain objects (they cross from the worker to the page in the results of
// its functions) naming a world, a particle range and its triangles or segments, all indices relative to the range's
// first particle.
// Each keeps its body's record (`record`, which stays in the worker with `world`): the worker follows it when a body
// tears or moves (sim-worker.js followTopology).
import { gridTriangles, tetSurfaceTriangles } from 'pbd-wasm/three';

/** A columns x rows cloth as built by addCloth (UVs from the grid). */
export function gridDrawable(world, range, columns, rows, style, label) {
  return { world, record: range, firstParticle: range.firstParticle, particleCount: columns * rows,
    triangles: gridTriangles(columns, rows), grid: { columns, rows }, style, label };
}

/** A tet-mesh soft body drawn as its outer surface. */
export function tetDrawable(world, range, tets, style, label) {
  return { world, record: range, firstParticle: range.firstParticle, particleCount: range.particleCount,
    triangles: tetSurfaceTriangles(tets), style, label };
}

/**
 * A body whose first particles are a surface mesh: a soft body from the tetrahedralizer (its surface vertices come
 * first, in order) or, with renderToParticle, an addTriangleMesh body (render triangles mapped to its particles).
 */
export function surfaceDrawable(world, range, triangles, style, label, renderToParticle) {
  const relative = renderToParticle
    ? Uint32Array.from(triangles, (v) => renderToParticle[v] - range.firstParticle)
    : Uint32Array.from(triangles);
  return { world, record: range, firstParticle: range.firstParticle, particleCount: range.particleCount, triangles: relative,
    style, label };
}

/** A rope: line segments between consecutive particles. */
export function ropeDrawable(world, range, style = 'rope', label) {
  const segments = new Uint32Array(2 * (range.particleCount - 1));
  for (let i = 0; i + 1 < range.particleCount; i++) segments.set([i, i + 1], 2 * i);
  return { world, record: range, firstParticle: range.firstParticle, particleCount: range.particleCount, segments, style,
    label };
}

/**
 * A collider to draw (and, when draggable, to move with the mouse): its def as given to addCollider. A scene that
 * moves it adds `moving: true` and keeps def.position and def.rotation current: the page follows them every frame.
 */
export function colliderDrawable(world, index, def, draggable = false) {
  return { world, index, def, draggable };
}
