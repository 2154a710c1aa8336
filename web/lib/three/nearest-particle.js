/** The nearest particle to a point, over a range of an xyz position array (no three.js dependency). */

/**
 * @param {ArrayLike<number>} xyz positions, 3 per particle (e.g. world.positions()).
 * @param {number} first first particle of the range searched.
 * @param {number} count particles in the range.
 * @param {{x: number, y: number, z: number}} point e.g. a raycast hit (a THREE.Vector3).
 * @returns {number} the index (into xyz / 3) of the nearest particle, or -1 when count is 0.
 */
export function nearestParticle(xyz, first, count, point) {
  let best = -1;
  let bestDistance = Infinity;
  for (let i = first; i < first + count; i++) {
    const d = (xyz[3 * i] - point.x) ** 2 + (xyz[3 * i + 1] - point.y) ** 2 + (xyz[3 * i + 2] - point.z) ** 2;
    if (d < bestDistance) [best, bestDistance] = [i, d];
  }
  return best;
}
