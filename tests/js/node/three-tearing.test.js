// pbd-wasm/three follows a tear: a PbdCloth (or a clothFromMesh body) whose body tore draws the torn triangles over
// its grown particle range at its next update(), the new particles with their source's UV, and the bodies after it
// keep drawing their own particles (their range moved up).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlaneGeometry, Mesh } from 'three';
import { createPbd } from '../../../web/lib/index.js';
import { PbdCloth, clothFromMesh } from '../../../web/lib/three.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

const COLUMNS = 6, ROWS = 6;

describe('three.js adapters after a tear', () => {
  it('PbdCloth draws the torn triangles over the grown range, with the sources\' UVs', () => {
    const world = new pbd.World();
    const cloth = new PbdCloth(world, { columns: COLUMNS, rows: ROWS, spacing: 0.1, origin: [0, 2, 0], axisV: [0, -1, 0],
      pinned: [0, COLUMNS - 1], tearing: {} });
    const after = new PbdCloth(world, { columns: 3, rows: 3, spacing: 0.1, origin: [2, 2, 0] });
    const edges = [];
    for (let c = 0; c + 1 < COLUMNS; c++) edges.push(2 * COLUMNS + c, 2 * COLUMNS + c + 1);
    const tear = world.tearEdges(cloth.body, edges);
    cloth.update();
    after.update();
    const count = COLUMNS * ROWS + tear.particleCount;
    const geometry = cloth.geometry;
    expect(geometry.attributes.position.count).toBe(count);
    expect(geometry.attributes.normal.count).toBe(count);
    expect(Array.from(geometry.index.array)).toEqual(Array.from(world.bodyTriangles(cloth.body), (v) => v - cloth.body.firstParticle));
    const uv = geometry.attributes.uv;
    expect(uv.count).toBe(count);
    tear.sourceParticles.forEach((source, k) => {
      const to = COLUMNS * ROWS + k, from = source - cloth.body.firstParticle;
      expect([uv.getX(to), uv.getY(to)]).toEqual([uv.getX(from), uv.getY(from)]);
    });
    // The positions are the world's, in place; the cloth after it draws its own (moved) particles.
    expect(geometry.attributes.position.array.buffer).toBe(world.positions().buffer);
    expect(after.geometry.attributes.position.array[0]).toBeCloseTo(2, 6);
  });

  it('clothFromMesh follows a tear that a step made', () => {
    const world = new pbd.World();
    const plane = new Mesh(new PlaneGeometry(1, 1, 6, 6));
    plane.position.set(0, 2, 0);
    const sheet = clothFromMesh(world, plane, { tearing: { strain: 0.3 }, pinRegions: [{ shape: 'box', centre: [0, 2.5, 0], halfExtents: [1, 0.01, 1] }] });
    const bottom = [];
    for (let i = 0; i < sheet.body.particleCount; i++) if (world.positions()[3 * (sheet.body.firstParticle + i) + 1] < 1.51) bottom.push(sheet.body.firstParticle + i);
    const grips = bottom.map((i) => world.addAttachment(i, Array.from(world.positions().subarray(3 * i, 3 * i + 3))));
    for (let f = 0; f < 120 && !(sheet.body.tornFrom?.length > 0); f++) {
      grips.forEach((g, k) => world.setAttachmentTarget(g, [world.positions()[3 * bottom[k]], 1.5 - 0.05 * f, 0]));
      world.step(1 / 60);
    }
    expect(sheet.body.tornFrom?.length).toBeGreaterThan(0);
    sheet.update();
    expect(sheet.geometry.attributes.position.count).toBe(sheet.body.particleCount);
    expect(Math.max(...sheet.geometry.index.array)).toBeLessThan(sheet.body.particleCount);
  });
});

describe('cutting with a stroke', () => {
  it('tears exactly the edges the wedge crosses, and cutAlongStroke cuts the cloth in two', async () => {
    const { PerspectiveCamera } = await import('three');
    const { cutAlongStroke, edgesCrossingStroke } = await import('../../../web/lib/three.js');
    const world = new pbd.World();
    world.setGravity([0, 0, 0]);
    // A vertical 1 m cloth in the plane z = 0, rows downwards from y = 1.5; the eye 2 m in front of it.
    const n = 11;
    const cloth = new PbdCloth(world, { columns: n, rows: n, spacing: 0.1, origin: [-0.5, 1.5, 0], axisU: [1, 0, 0],
      axisV: [0, -1, 0], tearing: {} });
    // A horizontal stroke at y = 0.95 (between rows 5 and 6) from x = -0.2 to 0.2: it crosses the vertical edges of
    // columns 3..7 and the cell diagonals beside them, no others.
    const origin = [0, 0.95, 2];
    const edges = edgesCrossingStroke(world, cloth.body, origin, [-0.2, 0, -2], [0.2, 0, -2]);
    expect(edges.length % 2).toBe(0);
    const f = cloth.body.firstParticle;
    for (let k = 0; k < edges.length; k += 2) {
      const rows = [edges[k], edges[k + 1]].map((i) => Math.floor((i - f) / n)).sort();
      expect(rows).toEqual([5, 6]);
      const columns = [edges[k], edges[k + 1]].map((i) => (i - f) % n);
      expect(Math.min(...columns)).toBeGreaterThanOrEqual(2);
      expect(Math.max(...columns)).toBeLessThanOrEqual(8);
    }
    expect(edges.length / 2).toBeGreaterThanOrEqual(5);
    // Behind the eye nothing is cut; a stroke that does not move cuts nothing.
    expect(edgesCrossingStroke(world, cloth.body, origin, [-0.2, 0, 2], [0.2, 0, 2])).toEqual([]);
    expect(edgesCrossingStroke(world, cloth.body, origin, [0, 0, -1], [0, 0, -1])).toEqual([]);
    // Across the whole cloth through a camera: every edge in the band between rows 5 and 6 that the stroke meets is
    // cut, so the band's triangles go with the row above or below and both rows' vertices split: two pieces.
    const camera = new PerspectiveCamera(60, 1, 0.1, 100);
    camera.position.set(0, 0.95, 2);
    camera.lookAt(0, 0.95, 0);
    camera.updateMatrixWorld();
    const tear = cutAlongStroke(world, cloth.body, camera, [-1, 0], [1, 0]);
    expect(tear.particleCount).toBeGreaterThanOrEqual(n);
    const triangles = world.bodyTriangles(cloth.body);
    const piece = Array.from({ length: cloth.body.particleCount }, (_, i) => i);
    const find = (a) => (piece[a] === a ? a : (piece[a] = find(piece[a])));
    for (let t = 0; t < triangles.length; t += 3) {
      for (const k of [1, 2]) piece[find(triangles[t + k] - f)] = find(triangles[t] - f);
    }
    expect(new Set(piece.map((_, i) => find(i))).size).toBe(2);
    expect(cutAlongStroke(world, cloth.body, camera, [0.5, 0.9], [0.5, 0.9])).toBeNull();
  });
});
