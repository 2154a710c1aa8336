// The mesh tools in Node: the bunny tetrahedralized with progress events and simulated, cancellation, the OBJ and
// TetGen readers, welded triangle-mesh bodies, Neo-Hookean soft bodies, embeddings, and errors that name the
// argument.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';
import { bunnyArrays, cancelTetrahedralize, dropSoftBunny, surfaceVolume, tetrahedralizeBunny }
  from '../shared/bunny-scenarios.js';
import { uvSphere } from '../shared/uv-sphere.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

describe('tetrahedralize', () => {
  it('turns the Stanford bunny into a valid tet mesh with progress events, which then simulates', () => {
    const mesh = tetrahedralizeBunny(pbd, 12);
    dropSoftBunny(pbd, mesh);
  });

  it('can be cancelled', () => cancelTetrahedralize(pbd));

  it('rejects open, non-finite and out-of-range input naming the argument', () => {
    const { positions, triangles } = bunnyArrays();
    expect(() => pbd.tetrahedralize(positions, triangles.slice(3))).toThrow(/tetrahedralize: .*edge/);
    const nan = positions.slice();
    nan[4] = NaN;
    expect(() => pbd.tetrahedralize(nan, triangles)).toThrow(/tetrahedralize: positions\[4\]/);
    const far = triangles.slice();
    far[7] = 99999;
    expect(() => pbd.tetrahedralize(positions, far)).toThrow(/tetrahedralize: triangles\[7\]/);
    expect(() => pbd.tetrahedralize(positions, triangles, { resolution: -1 })).toThrow(/resolution/);
    expect(() => pbd.tetrahedralize(positions, triangles, { onProgress: 3 })).toThrow(/onProgress/);
  });
});

describe('file readers', () => {
  it('reads OBJ text (quads, slashes, negative indices) and names the bad line', () => {
    const cube = ['v 0 0 0', 'v 1 0 0', 'v 1 1 0', 'v 0 1 0', 'vt 0 0', 'f 1/1 2/1 3/1 4/1', 'f -4 -2 -1'].join('\n');
    const mesh = pbd.readObj(cube);
    expect(Array.from(mesh.positions)).toEqual([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]);
    expect(Array.from(mesh.triangles)).toEqual([0, 1, 2, 0, 2, 3, 0, 2, 3]);
    expect(() => pbd.readObj('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n')).toThrow(/readObj: line 4/);
    expect(() => pbd.readObj(42)).toThrow(/readObj: text/);
  });

  it('reads TetGen .node/.ele text and names the bad file and line', () => {
    const node = '4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n';
    const ele = '1 4 0\n1 1 2 3 4\n';
    const mesh = pbd.readTetGen(node, ele);
    expect(Array.from(mesh.tets)).toEqual([0, 1, 2, 3]);
    expect(() => pbd.readTetGen(node, '1 4 0\n1 1 2 3 9\n')).toThrow(/readTetGen: \.ele line 2/);
  });
});

describe('bodies from meshes', () => {
  it('welds a three.js-style sphere, keeps the render map, and holds a balloon\'s volume', () => {
    const { positions, triangles } = uvSphere(16, 12, 0.3, [0, 0.5, 0]);
    const world = new pbd.World();
    const body = world.addTriangleMesh({ positions, triangles, pressure: 1, stretch: { compliance: 1e-3 } });
    expect(body.renderToParticle.length).toBe(positions.length / 3);
    expect(body.particleCount).toBe(16 * 11 + 2);
    expect(body.renderToParticle[0 * 17 + 3]).toBe(body.renderToParticle[0]);  // north pole copies
    expect(body.renderToParticle[5 * 17 + 16]).toBe(body.renderToParticle[5 * 17]);  // seam copies
    const rest = world.surfaceRestVolume(0);
    expect(rest).toBeCloseTo(surfaceVolume(positions, triangles), 5);
    for (let f = 0; f < 90; ++f) world.step(1 / 60);
    expect(Math.abs(world.surfaceVolume(0) - rest)).toBeLessThan(0.02 * rest);
    expect(() => world.addTriangleMesh({ positions, triangles: triangles.slice(6), pressure: 1 })).toThrow(/addTriangleMesh:/);
    expect(() => world.addTriangleMesh({ positions, triangles, pinRegions: [{ shape: 'ball' }] }))
      .toThrow(/addTriangleMesh: shape must be 'box' or 'sphere'/);
    world.delete();
  });

  it('builds Neo-Hookean soft bodies and rejects impossible materials by name', () => {
    const mesh = pbd.tetrahedralize(...Object.values(bunnyArrays()), { resolution: 6 });
    const world = new pbd.World();
    const options = { positions: mesh.positions, tets: mesh.tets, material: 'neo-hookean', youngsModulus: 5e4,
      poissonRatio: 0.45, edgeConstraints: false };
    expect(() => world.addSoftBody({ ...options, poissonRatio: 0.5 })).toThrow(/addSoftBody: poissonRatio/);
    expect(() => world.addSoftBody({ ...options, youngsModulus: -1 })).toThrow(/addSoftBody: youngsModulus/);
    expect(() => world.addSoftBody({ ...options, material: 'steel' })).toThrow(/addSoftBody: material/);
    expect(world.particleCount()).toBe(0);
    world.addSoftBody(options);
    expect(world.neoHookeanCount()).toBe(mesh.tets.length / 4);
    for (let f = 0; f < 30; ++f) world.step(1 / 60);
    expect(world.positions().every(Number.isFinite)).toBe(true);
    world.delete();
  });

  it('embeds a render mesh in a tet mesh and follows it without copies', () => {
    const surface = bunnyArrays();
    const coarse = pbd.tetrahedralize(surface.positions, surface.triangles, { resolution: 8 });
    expect(coarse.unusedSurfaceVertices).toBe(0);
    const world = new pbd.World();
    const body = world.addSoftBody({ positions: coarse.positions, tets: coarse.tets });
    const embedding = new pbd.Embedding(coarse.positions, coarse.tets, surface.positions);
    embedding.update(world, body.firstParticle);
    const view = embedding.positions();
    expect(view.buffer).toBe(pbd.memory);
    // At rest the embedded surface is the surface itself.
    for (let k = 0; k < view.length; ++k) expect(view[k]).toBeCloseTo(surface.positions[k], 4);
    for (let f = 0; f < 30; ++f) world.step(1 / 60);
    embedding.update(world, body.firstParticle);
    expect(embedding.positions()[1]).toBeLessThan(surface.positions[1] - 0.01);  // it fell with the tets
    expect(() => embedding.update(world, 1e6)).toThrow(/Embedding.update: firstParticle/);
    embedding.delete();
    world.delete();
  });
});
