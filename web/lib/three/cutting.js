/**
 * Cutting a tearable body with a stroke of the pointer: the stroke sweeps the wedge between the view rays through
 * its two screen points, and every edge of the body's triangles that passes through that wedge is torn
 * (world.tearEdges). Works in a worker too (edgesCrossingStroke needs no camera).
 */
import { Raycaster, Vector2 } from 'three';

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/**
 * The edges of a tearable body that cross the wedge of rays from `origin` between directions `from` and `to`
 * (a stroke from one screen point to the next), as the pairs world.tearEdges takes.
 * @param {object} world a pbd World.
 * @param {number | object} body a tearable body's index or record.
 * @param {ArrayLike<number>} origin the eye, m.
 * @param {ArrayLike<number>} from the first ray's direction.
 * @param {ArrayLike<number>} to the last ray's direction.
 * @returns {number[]} two particle indices per crossing edge, each edge once.
 */
export function edgesCrossingStroke(world, body, origin, from, to) {
  const normal = cross(from, to);   // of the wedge's plane; zero for a stroke that did not move: nothing is cut
  if (dot(normal, normal) === 0) return [];
  const ahead = [from[0] + to[0], from[1] + to[1], from[2] + to[2]];
  const x = world.positions();
  const point = (i) => [x[3 * i], x[3 * i + 1], x[3 * i + 2]];
  const triangles = world.bodyTriangles(body);
  const seen = new Set();
  const edges = [];
  for (let t = 0; t < triangles.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = triangles[t + k], b = triangles[t + (k + 1) % 3];
      const key = Math.min(a, b) * 4294967296 + Math.max(a, b);
      if (seen.has(key)) continue;
      seen.add(key);
      const pa = sub(point(a), origin), pb = sub(point(b), origin);
      const sa = dot(normal, pa), sb = dot(normal, pb);
      if (!(sa * sb < 0)) continue;   // both on one side of the plane
      const s = sa / (sa - sb);
      const q = [pa[0] + s * (pb[0] - pa[0]), pa[1] + s * (pb[1] - pa[1]), pa[2] + s * (pb[2] - pa[2])];
      // Within the wedge: between the two rays, and in front of the eye.
      if (dot(cross(from, q), normal) >= 0 && dot(cross(q, to), normal) >= 0 && dot(q, ahead) > 0) edges.push(a, b);
    }
  }
  return edges;
}

const raycaster = new Raycaster();
const ndc = new Vector2();

/** The view ray through a point in normalized device coordinates ([-1, 1]², y up) as origin and direction. */
function rayThrough(camera, [u, v]) {
  raycaster.setFromCamera(ndc.set(u, v), camera);
  return { origin: raycaster.ray.origin.toArray(), direction: raycaster.ray.direction.toArray() };
}

/**
 * Cuts a tearable body along a pointer stroke from screen point `from` to `to` (normalized device coordinates, as
 * three.js raycasting uses them: [-1, 1] across, y up). Returns world.tearEdges' report, or null when the stroke
 * crossed no edge.
 * @param {object} world
 * @param {number | object} body a tearable body's index or record (a PbdCloth's `body`).
 * @param {import('three').Camera} camera
 * @param {ArrayLike<number>} from
 * @param {ArrayLike<number>} to
 */
export function cutAlongStroke(world, body, camera, from, to) {
  const start = rayThrough(camera, from), end = rayThrough(camera, to);
  // A perspective camera's rays share the eye; an orthographic one's are parallel: their origins differ instead, so
  // the wedge is the band between them, seen from far behind.
  const origin = camera.isOrthographicCamera
    ? start.origin.map((o, k) => (o + end.origin[k]) / 2 - 1e4 * start.direction[k]) : start.origin;
  const aim = (ray) => sub(ray.origin.map((o, k) => o + ray.direction[k]), origin);
  const edges = edgesCrossingStroke(world, body, origin, aim(start), aim(end));
  return edges.length > 0 ? world.tearEdges(body, edges) : null;
}
