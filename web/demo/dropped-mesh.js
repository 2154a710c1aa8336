// A mesh file dropped on the page becomes a soft body: read (OBJ), welded (render meshes duplicate vertices along
// seams and split normals), normalized to a 0.5 m size in front of the cloth, then tetrahedralized in the worker.

/** Where a dropped mesh is placed: its longest side `size` m, its lowest point `floor` m up, centred on x, z. */
export const DROP = { size: 0.5, floor: 0.8, x: 0, z: 0.9, resolution: 10 };

/** Welded and normalized {positions, triangles} from OBJ text; throws an Error naming the problem. */
export function prepareDroppedMesh(pbd, text) {
  const read = pbd.readObj(text);
  const { positions, triangles } = pbd.weldVertices(read.positions, read.triangles, 0);
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i++) {
    lo[i % 3] = Math.min(lo[i % 3], positions[i]);
    hi[i % 3] = Math.max(hi[i % 3], positions[i]);
  }
  const scale = DROP.size / Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const target = [DROP.x - scale * (lo[0] + hi[0]) / 2, DROP.floor - scale * lo[1], DROP.z - scale * (lo[2] + hi[2]) / 2];
  for (let i = 0; i < positions.length; i++) positions[i] = positions[i] * scale + target[i % 3];
  return { positions, triangles };
}
