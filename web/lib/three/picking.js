/** Picking: from a three.js raycast hit on a body mesh to the particle to grab. */
import { PbdBodyMesh } from './body-mesh.js';

/**
 * @param {import('three').Intersection} [intersection] e.g. raycaster.intersectObjects(bodies)[0].
 * @returns {{mesh: PbdBodyMesh, particle: number, point: import('three').Vector3} | null} the body's particle
 *   nearest to the hit point (for an embedded render mesh too), or null when nothing pickable was hit.
 */
export function pickParticle(intersection) {
  const mesh = intersection?.object;
  if (!(mesh instanceof PbdBodyMesh) || mesh.disposed) return null;
  const particle = mesh.nearestParticle(intersection.point);
  return particle < 0 ? null : { mesh, particle, point: intersection.point.clone() };
}
