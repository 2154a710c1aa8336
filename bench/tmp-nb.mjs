import { BufferAttribute, BufferGeometry } from 'three';
import { gridTriangles } from '/work/main/web/lib/three/topology.js';
const n = 64, count = n * n;
const pos = new Float32Array(3 * count);
for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) { const i = r * n + c; pos[3*i] = c*0.02; pos[3*i+1] = Math.sin(c*0.3)*0.05; pos[3*i+2] = r*0.02; }
const g = new BufferGeometry(); g.setIndex(new BufferAttribute(gridTriangles(n, n), 1)); g.setAttribute('position', new BufferAttribute(pos, 3));
function fast(geometry) {
  const p = geometry.attributes.position.array, idx = geometry.index.array;
  let nAttr = geometry.attributes.normal;
  const nrm = nAttr.array; nrm.fill(0);
  for (let t = 0; t < idx.length; t += 3) {
    const a = 3 * idx[t], b = 3 * idx[t + 1], c = 3 * idx[t + 2];
    const abx = p[b] - p[a], aby = p[b+1] - p[a+1], abz = p[b+2] - p[a+2];
    const acx = p[c] - p[a], acy = p[c+1] - p[a+1], acz = p[c+2] - p[a+2];
    const x = aby * acz - abz * acy, y = abz * acx - abx * acz, z = abx * acy - aby * acx;
    nrm[a] += x; nrm[a+1] += y; nrm[a+2] += z; nrm[b] += x; nrm[b+1] += y; nrm[b+2] += z; nrm[c] += x; nrm[c+1] += y; nrm[c+2] += z;
  }
  for (let i = 0; i < nrm.length; i += 3) { const l = Math.hypot(nrm[i], nrm[i+1], nrm[i+2]); if (l > 0) { const s = 1 / l; nrm[i] *= s; nrm[i+1] *= s; nrm[i+2] *= s; } }
  nAttr.needsUpdate = true;
}
const time = (f, reps = 200) => { for (let k = 0; k < 20; k++) f(); const t = performance.now(); for (let k = 0; k < reps; k++) f(); return (performance.now() - t) / reps; };
console.log('three computeVertexNormals', time(() => g.computeVertexNormals()).toFixed(3), 'ms');
console.log('three computeBoundingSphere', time(() => g.computeBoundingSphere()).toFixed(3), 'ms');
const ref = Float32Array.from(g.attributes.normal.array);
console.log('flat loop normals', time(() => fast(g)).toFixed(3), 'ms');
let maxd = 0; for (let i = 0; i < ref.length; i++) maxd = Math.max(maxd, Math.abs(ref[i] - g.attributes.normal.array[i]));
console.log('max diff', maxd);
