// A cube of n x n x n cells, each cut into 6 positively oriented tetrahedra: the demo's soft body.

/** @returns {{positions: number[], tets: number[]}} */
export function tetCube(n, size, origin) {
  const m = n + 1, h = size / n;
  const id = (x, y, z) => (z * m + y) * m + x;
  const positions = [];
  for (let z = 0; z < m; z++)
    for (let y = 0; y < m; y++)
      for (let x = 0; x < m; x++) positions.push(origin[0] + h * x, origin[1] + h * y, origin[2] + h * z);
  const volume = (t) => {
    const p = (i) => positions.slice(3 * i, 3 * i + 3);
    const [a, b, c, d] = t.map(p);
    const u = b.map((v, k) => v - a[k]), v = c.map((q, k) => q - a[k]), w = d.map((q, k) => q - a[k]);
    return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
  };
  const tets = [];
  const orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
  for (let z = 0; z < n; z++)
    for (let y = 0; y < n; y++)
      for (let x = 0; x < n; x++)
        for (const order of orders) {
          const c = [x, y, z];
          const t = [id(...c)];
          for (const axis of order) { c[axis]++; t.push(id(...c)); }
          if (volume(t) < 0) [t[2], t[3]] = [t[3], t[2]];
          tets.push(...t);
        }
  return { positions, tets };
}
