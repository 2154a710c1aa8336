/** The nearest particle to a point, over a range of an xyz position array (no three.js dependency). */
import { InvalidArgumentError, describeValue } from '../errors.js';

/**
 * @param {ArrayLike<number>} xyz positions, 3 per particle (e.g. world.positions()).
 * @param {{firstParticle: number, particleCount: number}} range the particles searched (e.g. what addCloth returned).
 * @param {{x: number, y: number, z: number}} point e.g. a raycast hit (a THREE.Vector3).
 * @returns {number} the index (into xyz / 3) of the nearest particle, or -1 when the range is empty.
 * @throws {InvalidArgumentError} naming the argument: positions not an array, a range that is not within it, a point
 *   with a coordinate that is not a finite number.
 */
export function nearestParticle(xyz, range, point) {
  const fail = (argument, rule, value) => {
    throw new InvalidArgumentError(`nearestParticle: ${argument} ${rule} (got ${describeValue(value)})`);
  };
  if (!(xyz !== null && typeof xyz === 'object' && Number.isInteger(xyz.length))) {
    fail('positions', 'must be an array of xyz per particle', xyz);
  }
  if (range === null || typeof range !== 'object') fail('range', 'must be { firstParticle, particleCount }', range);
  const { firstParticle, particleCount } = range;
  if (!(Number.isInteger(firstParticle) && firstParticle >= 0)) {
    fail('range.firstParticle', 'must be an integer >= 0', firstParticle);
  }
  if (!(Number.isInteger(particleCount) && particleCount >= 0)) {
    fail('range.particleCount', 'must be an integer >= 0', particleCount);
  }
  if (3 * (firstParticle + particleCount) > xyz.length) {
    throw new InvalidArgumentError(`nearestParticle: range must lie within the ${Math.floor(xyz.length / 3)} ` +
      `particles of positions (got firstParticle ${firstParticle}, particleCount ${particleCount})`);
  }
  for (const axis of ['x', 'y', 'z']) {
    if (!Number.isFinite(point?.[axis])) fail(`point.${axis}`, 'must be a finite number', point?.[axis]);
  }
  let best = -1;
  let bestDistance = Infinity;
  for (let i = firstParticle; i < firstParticle + particleCount; i++) {
    const d = (xyz[3 * i] - point.x) ** 2 + (xyz[3 * i + 1] - point.y) ** 2 + (xyz[3 * i + 2] - point.z) ** 2;
    if (d < bestDistance) [best, bestDistance] = [i, d];
  }
  return best;
}
