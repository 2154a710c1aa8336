// A mesh file dropped on the page becomes a soft body: read (OBJ text here; glTF/GLB parsed by the page into arrays),
// welded (render meshes duplicate vertices along seams and split normals) into the closed surface the
// tetrahedralizer needs, normalized to a 0.5 m size in front of the cloth, then tetrahedralized in the worker. The
// mesh as read stays the render mesh, embedded in the tets (its seams, normals and UVs intact).

/** Where a dropped mesh is placed: its longest side `size` m, its lowest point `floor` m up, centred on x, z. */
export const DROP = { size: 0.5, floor: 0.8, x: 0, z: 0.9, resolution: 10 };

/**
 * From OBJ `text`, or from `positions` + `triangles` (a glTF's meshes, merged by the page): the welded `surface` to
 * tetrahedralize and the `render` mesh as read, both moved and scaled into place. Throws an Error naming the problem.
 */
export function prepareDroppedMesh(pbd, { text, positions, triangles }) {
  const render = text !== undefined ? pbd.readObj(text)
    : { positions: Float32Array.from(positions), triangles: Uint32Array.from(triangles) };
  const surface = pbd.weldVertices(render.positions, render.triangles, 0);
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < surface.positions.length; i++) {
    lo[i % 3] = Math.min(lo[i % 3], surface.positions[i]);
    hi[i % 3] = Math.max(hi[i % 3], surface.positions[i]);
  }
  const scale = DROP.size / Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const target = [DROP.x - scale * (lo[0] + hi[0]) / 2, DROP.floor - scale * lo[1], DROP.z - scale * (lo[2] + hi[2]) / 2];
  for (const p of [surface.positions, render.positions]) {
    for (let i = 0; i < p.length; i++) p[i] = p[i] * scale + target[i % 3];
  }
  return { surface, render };
}
