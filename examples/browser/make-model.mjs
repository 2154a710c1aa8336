// Writes public/rounded-cube.glb, the model the gltf-soft-body page loads: a closed, watertight rounded cube (a
// superellipsoid |x|^4 + |y|^4 + |z|^4 = r^4, 0.36 m across) as a minimal glTF 2.0 binary written by hand: one mesh
// with POSITION, NORMAL and 16-bit indices, and a material. `node make-model.mjs` makes it again.
import { mkdirSync, writeFileSync } from 'node:fs';

const N = 8;          // grid cells along each edge of the cube the surface is made from: 6 x 8 x 8 x 2 = 768 triangles
const R = 0.18;       // half the size, m
const P = 4;          // exponent: 2 is a ball, higher is boxier

// The cube [-1, 1]^3's surface as a grid welded along the edges (a vertex per integer point, keyed by it).
const keys = new Map(), cube = [], triangles = [];
const vertex = (p) => {
  const key = p.join();
  if (!keys.has(key)) {
    keys.set(key, cube.length);
    cube.push(p.map((c) => (2 * c) / N - 1));
  }
  return keys.get(key);
};
for (let axis = 0; axis < 3; axis++) {
  for (const side of [0, N]) {
    const at = (i, j) => vertex([side, i, j].map((_, k, a) => a[(k - axis + 3) % 3]));   // side on `axis`
    for (let i = 0; i < N; i++) {
      for (let j = 0; j < N; j++) {
        const [a, b, c, d] = [at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)];
        triangles.push([a, b, c], [a, c, d]);
      }
    }
  }
}
// Each cube point pushed out along its direction onto the superellipsoid; the normal is the gradient there.
const positions = cube.map((p) => {
  const s = R / Math.pow(p.reduce((sum, c) => sum + Math.abs(c) ** P, 0), 1 / P);
  return p.map((c) => c * s);
});
const normals = positions.map((p) => {
  const g = p.map((c) => Math.sign(c) * Math.abs(c) ** (P - 1));
  const length = Math.hypot(...g);
  return g.map((c) => c / length);
});
// Counter-clockwise seen from outside: the surface is star-shaped about the centre, so a triangle faces outwards
// when its normal points away from the centre.
for (const t of triangles) {
  const [a, b, c] = t.map((v) => positions[v]);
  const u = b.map((x, k) => x - a[k]), v = c.map((x, k) => x - a[k]);
  const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  if (n[0] * a[0] + n[1] * a[1] + n[2] * a[2] < 0) t.reverse();
}

const position = new Float32Array(positions.flat()), normal = new Float32Array(normals.flat());
const index = new Uint16Array(triangles.flat());
const bin = Buffer.concat([position, normal, index].map((a) => Buffer.from(a.buffer)));
const views = [[0, position.byteLength, 34962], [position.byteLength, normal.byteLength, 34962],
  [position.byteLength + normal.byteLength, index.byteLength, 34963]];
const json = {
  asset: { version: '2.0', generator: 'pbd-wasm examples/browser/make-model.mjs' },
  scene: 0,
  scenes: [{ nodes: [0] }],
  nodes: [{ name: 'rounded-cube', mesh: 0 }],
  meshes: [{ name: 'rounded-cube', primitives: [{ attributes: { POSITION: 0, NORMAL: 1 }, indices: 2, material: 0 }] }],
  materials: [{ name: 'jelly', pbrMetallicRoughness: { baseColorFactor: [0.35, 0.75, 0.3, 1], metallicFactor: 0,
    roughnessFactor: 0.4 } }],
  buffers: [{ byteLength: bin.length }],
  bufferViews: views.map(([byteOffset, byteLength, target]) => ({ buffer: 0, byteOffset, byteLength, target })),
  accessors: [
    { bufferView: 0, componentType: 5126, count: positions.length, type: 'VEC3',
      min: [0, 1, 2].map((k) => Math.min(...positions.map((p) => Math.fround(p[k])))),
      max: [0, 1, 2].map((k) => Math.max(...positions.map((p) => Math.fround(p[k])))) },
    { bufferView: 1, componentType: 5126, count: normals.length, type: 'VEC3' },
    { bufferView: 2, componentType: 5123, count: index.length, type: 'SCALAR' },
  ],
};

// GLB: a 12-byte header, then a JSON chunk (padded with spaces) and a BIN chunk (padded with zeros), each 4-aligned.
const chunk = (type, data, pad) => {
  const padded = Buffer.concat([data, Buffer.alloc((4 - (data.length % 4)) % 4, pad)]);
  const head = Buffer.alloc(8);
  head.writeUInt32LE(padded.length, 0);
  head.writeUInt32LE(type, 4);
  return Buffer.concat([head, padded]);
};
const chunks = [chunk(0x4e4f534a, Buffer.from(JSON.stringify(json)), 0x20), chunk(0x004e4942, bin, 0)];
const header = Buffer.alloc(12);
header.writeUInt32LE(0x46546c67, 0);   // 'glTF'
header.writeUInt32LE(2, 4);
header.writeUInt32LE(12 + chunks[0].length + chunks[1].length, 8);
const out = new URL('public/rounded-cube.glb', import.meta.url);
mkdirSync(new URL('.', out), { recursive: true });
writeFileSync(out, Buffer.concat([header, ...chunks]));
console.log(`${out.pathname}: ${positions.length} vertices, ${triangles.length} triangles`);
