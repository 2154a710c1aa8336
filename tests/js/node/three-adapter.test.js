// The three.js adapter: geometries are views over the particle positions (no copy), and a tet mesh's surface is
// extracted with outward winding.
import { BufferAttribute, BufferGeometry, DoubleSide, Mesh, MeshBasicMaterial, Raycaster, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { createClothGeometry, createSoftBodyGeometry, refreshGeometry } from '../../../web/lib/three.js';
import { tetCube } from '../../../web/demo/tet-cube.js';

describe('three.js adapter', () => {
  it('a cloth geometry wraps the positions it is given', () => {
    const positions = new Float32Array(3 * (5 + 12));       // 5 other particles, then a 4 x 3 cloth
    const g = createClothGeometry(positions, { firstParticle: 5 }, 4, 3);
    const attribute = g.getAttribute('position');
    expect(attribute.array.buffer).toBe(positions.buffer);  // the same memory
    expect(attribute.array.byteOffset).toBe(5 * 12);
    expect(g.getIndex().count).toBe(3 * 2 * 2 * 3);
    positions[3 * 5] = 7;
    expect(attribute.getX(0)).toBe(7);
    expect(() => createClothGeometry(positions, { firstParticle: 0 }, 1, 3)).toThrow(/columns and rows/);
  });

  it('a soft body geometry is the outer surface of the tets, wound outwards', () => {
    const cube = tetCube(2, 1, [0, 0, 0]);
    const positions = new Float32Array(cube.positions);
    const g = createSoftBodyGeometry(positions, { firstParticle: 0, particleCount: positions.length / 3 }, cube.tets);
    const index = g.getIndex().array;
    expect(index.length / 3).toBe(6 * 2 * 2 * 2);          // 6 faces x 4 cells x 2 triangles
    for (let t = 0; t < index.length; t += 3) {
      const [a, b, c] = [index[t], index[t + 1], index[t + 2]].map((i) => positions.subarray(3 * i, 3 * i + 3));
      const u = b.map((v, k) => v - a[k]), v = c.map((q, k) => q - a[k]);
      const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
      const centroid = [0, 1, 2].map((k) => (a[k] + b[k] + c[k]) / 3 - 0.5);
      expect(n[0] * centroid[0] + n[1] * centroid[1] + n[2] * centroid[2]).toBeGreaterThan(0);
    }
  });

  it('refreshed normals are the bits of three\'s computeVertexNormals; bounds follow the particles when asked', () => {
    const columns = 9, rows = 7;
    const positions = new Float32Array(3 * columns * rows);
    const crumple = (t, shift) => {
      for (let i = 0; i < columns * rows; i++) {
        const c = i % columns, r = Math.floor(i / columns);
        positions.set([shift + 0.1 * c + 0.03 * Math.sin(3 * r + t), 0.2 * Math.sin(c + 2 * r + t), 0.1 * r], 3 * i);
      }
    };
    crumple(0, 0);
    const g = createClothGeometry(positions, { firstParticle: 0 }, columns, rows);
    const mesh = new Mesh(g, new MeshBasicMaterial({ side: DoubleSide }));
    const hitsAt = (x) => new Raycaster(new Vector3(x, 5, 0.3), new Vector3(0, -1, 0)).intersectObject(mesh).length;
    expect(hitsAt(0.4)).toBe(1);
    for (const [t, shift] of [[0.7, 10], [2.1, -3]]) {
      crumple(t, shift);                                            // the cloth moves far away, and bends
      refreshGeometry(g);
      const reference = new BufferGeometry();
      reference.setIndex(new BufferAttribute(g.index.array, 1));
      reference.setAttribute('position', new BufferAttribute(positions, 3));
      reference.computeVertexNormals();
      expect(Array.from(g.attributes.normal.array)).toEqual(Array.from(reference.attributes.normal.array));
      expect(g.attributes.normal.array.some((v) => v !== 0)).toBe(true);
      expect(hitsAt(shift + 0.4)).toBe(1);                          // the bounds were computed again for the raycast
      expect(hitsAt(0.4)).toBe(0);
      reference.computeBoundingSphere();
      expect(g.boundingSphere.center.toArray()).toEqual(reference.boundingSphere.center.toArray());
    }
  });

  it('a quantized normal attribute (as glTF files carry) is replaced by float normals, the bits of three\'s', () => {
    const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0.5]);
    const g = new BufferGeometry();
    g.setIndex(new BufferAttribute(new Uint16Array([0, 1, 2, 1, 3, 2]), 1));
    g.setAttribute('position', new BufferAttribute(positions, 3));
    g.setAttribute('normal', new BufferAttribute(new Int16Array(12), 3, true));
    refreshGeometry(g);
    const reference = new BufferGeometry();
    reference.setIndex(new BufferAttribute(g.index.array, 1));
    reference.setAttribute('position', new BufferAttribute(positions, 3));
    reference.computeVertexNormals();
    expect(g.attributes.normal.array).toBeInstanceOf(Float32Array);
    expect(Array.from(g.attributes.normal.array)).toEqual(Array.from(reference.attributes.normal.array));
  });
});
