// The Stanford bunny (npm `bunny`, public domain) as flat typed arrays for the API: positions xyz and triangles.
import bunny from 'bunny';

/** Scaled from ~10 units to ~0.5 m (scale 0.05) and lifted so that its lowest point is at y = `floor`. */
export function bunnyMesh(scale = 0.05, floor = 0.3) {
  let lowest = Infinity;
  for (const p of bunny.positions) lowest = Math.min(lowest, p[1] * scale);
  const positions = new Float32Array(bunny.positions.length * 3);
  bunny.positions.forEach(([x, y, z], i) => positions.set([x * scale, y * scale + floor - lowest, z * scale], 3 * i));
  return { positions, triangles: Uint32Array.from(bunny.cells.flat()) };
}
