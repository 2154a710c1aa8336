// A UV sphere laid out like three.js SphereGeometry: (W + 1) x (H + 1) vertices, so the seam column and the poles are
// duplicated render vertices that addTriangleMesh must weld. Triangles are counter-clockwise seen from outside.

/** @returns {{positions: Float32Array, triangles: Uint32Array}} */
export function uvSphere(W, H, radius, [cx, cy, cz]) {
  const positions = [];
  const triangles = [];
  for (let iy = 0; iy <= H; ++iy) {
    for (let ix = 0; ix <= W; ++ix) {
      const u = ix / W, v = iy / H;
      positions.push(cx - radius * Math.cos(u * 2 * Math.PI) * Math.sin(v * Math.PI), cy + radius * Math.cos(v * Math.PI),
        cz + radius * Math.sin(u * 2 * Math.PI) * Math.sin(v * Math.PI));
    }
  }
  const id = (ix, iy) => iy * (W + 1) + ix;
  for (let iy = 0; iy < H; ++iy) {
    for (let ix = 0; ix < W; ++ix) {
      const a = id(ix + 1, iy), b = id(ix, iy), c = id(ix, iy + 1), d = id(ix + 1, iy + 1);
      if (iy !== 0) triangles.push(a, b, d);          // the top row's first triangle collapses onto the pole
      if (iy !== H - 1) triangles.push(b, c, d);      // and so does the bottom row's second
    }
  }
  return { positions: Float32Array.from(positions), triangles: Uint32Array.from(triangles) };
}
