/** The nearest particle to a point, over a range of an xyz position array (no three.js dependency). */

/**
 * @param {ArrayLike<number>} xyz positions, 3 per particle (e.g. world.positions()).
 * @param {{firstParticle: number, particleCount: number}} range the particles searched (e.g. what addCloth returned).
 * @param {{x: number, y: number, z: number}} point e.g. a raycast hit (a THREE.Vector3).
 * @returns {number} the index (into xyz / 3) of the nearest particle, or -1 when the range is empty.
 */
export function nearestParticle(xyz, { firstParticle, particleCount }, point) {
  let best = -1;
  let bestDistance = Infinity;
  for (let i = firstParticle; i < firstParticle + particleCount; i++) {
    const d = (xyz[3 * i] - point.x) ** 2 + (xyz[3 * i + 1] - point.y) ** 2 + (xyz[3 * i + 2] - point.z) ** 2;
    if (d < bestDistance) [best, bestDistance] = [i, d];
  }
  return best;
}
