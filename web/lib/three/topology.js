/** Triangle lists of the builders' shapes, with no three.js dependency (usable in a simulation worker). */

/** Two triangles per cell of a columns x rows grid (vertex r * columns + c), counter-clockwise seen along -axisV x axisU. */
export function gridTriangles(columns, rows) {
  const indices = new Uint32Array((columns - 1) * (rows - 1) * 6);
  let k = 0;
  for (let r = 0; r + 1 < rows; r++) {
    for (let c = 0; c + 1 < columns; c++) {
      const i = r * columns + c;
      indices.set([i, i + 1, i + columns, i + 1, i + columns + 1, i + columns], k);
      k += 6;
    }
  }
  return indices;
}

/** The faces of a tet mesh that no two tets share, wound outwards (for tets of positive volume). */
export function tetSurfaceTriangles(tets) {
  const faces = new Map();
  for (let t = 0; t < tets.length; t += 4) {
    const [a, b, c, d] = [tets[t], tets[t + 1], tets[t + 2], tets[t + 3]];
    for (const face of [[a, c, b], [a, b, d], [a, d, c], [b, c, d]]) {
      const key = [...face].sort((x, y) => x - y).join(',');
      faces.set(key, faces.has(key) ? null : face);   // a shared face is interior
    }
  }
  return new Uint32Array([...faces.values()].filter(Boolean).flat());
}
