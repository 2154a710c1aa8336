// Independent checks of a cloth's self-intersection, written apart from the engine's contact code (the same method as
// tests/native/scenes/cloth_self_fold_test.cpp): the closest pair of particles, and the triangle pairs that share no vertex
// and intersect (an edge of one passes through the other), in double precision.

/** Six times the signed volume of the tetrahedron abcd (points as [x, y, z]). */
function orient(a, b, c, d) {
  const ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2];
  const vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
  const wx = d[0] - a[0], wy = d[1] - a[1], wz = d[2] - a[2];
  return ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx) + uz * (vx * wy - vy * wx);
}

/** Whether segment pq passes through triangle abc: ends strictly on both sides, its line inside all three edges. */
function segmentCrossesTriangle(p, q, a, b, c) {
  if (!(orient(a, b, c, p) * orient(a, b, c, q) < 0)) return false;
  const e0 = orient(p, q, a, b), e1 = orient(p, q, b, c), e2 = orient(p, q, c, a);
  return (e0 >= 0 && e1 >= 0 && e2 >= 0) || (e0 <= 0 && e1 <= 0 && e2 <= 0);
}

/** Two triangles (3 points each) in general position intersect exactly when an edge of one passes through the other. */
export function trianglesIntersect(s, t) {
  for (let e = 0; e < 3; e++) {
    if (segmentCrossesTriangle(s[e], s[(e + 1) % 3], t[0], t[1], t[2])) return true;
    if (segmentCrossesTriangle(t[e], t[(e + 1) % 3], s[0], s[1], s[2])) return true;
  }
  return false;
}

/** The smallest distance between two of particles [first, first + count) of the xyz array x (all pairs). */
export function closestPair(x, first, count) {
  let best = Infinity;
  for (let i = first; i < first + count; i++) {
    for (let j = i + 1; j < first + count; j++) {
      const dx = x[3 * j] - x[3 * i], dy = x[3 * j + 1] - x[3 * i + 1], dz = x[3 * j + 2] - x[3 * i + 2];
      best = Math.min(best, dx * dx + dy * dy + dz * dz);
    }
  }
  return Math.sqrt(best);
}

/**
 * How many pairs of `triangles` (flat particle indices into the xyz array x) share no vertex and intersect: a sweep
 * over their bounding boxes along x, then the exact test.
 */
export function intersectingTrianglePairs(x, triangles) {
  const count = triangles.length / 3;
  const point = (i) => [x[3 * i], x[3 * i + 1], x[3 * i + 2]];
  const lo = new Float64Array(3 * count), hi = new Float64Array(3 * count);
  for (let t = 0; t < count; t++) {
    for (let a = 0; a < 3; a++) {
      const v = [0, 1, 2].map((k) => x[3 * triangles[3 * t + k] + a]);
      lo[3 * t + a] = Math.min(...v);
      hi[3 * t + a] = Math.max(...v);
    }
  }
  const order = [...Array(count).keys()].sort((a, b) => lo[3 * a] - lo[3 * b]);
  let found = 0;
  for (let k = 0; k < count; k++) {
    const s = order[k];
    for (let m = k + 1; m < count && lo[3 * order[m]] <= hi[3 * s]; m++) {
      const t = order[m];
      if (lo[3 * t + 1] > hi[3 * s + 1] || lo[3 * s + 1] > hi[3 * t + 1]) continue;
      if (lo[3 * t + 2] > hi[3 * s + 2] || lo[3 * s + 2] > hi[3 * t + 2]) continue;
      const cs = triangles.slice(3 * s, 3 * s + 3), ct = triangles.slice(3 * t, 3 * t + 3);
      if (cs.some((v) => ct.includes(v))) continue;
      found += trianglesIntersect(cs.map(point), ct.map(point));
    }
  }
  return found;
}
