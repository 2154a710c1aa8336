// The three.js adapter's body meshes in a live world: zero-copy geometry that follows the particles, views that
// survive the world's arrays moving, picking from a raycast, bodies made from three.js meshes, and dispose().
import * as THREE from 'three';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';
import { PbdCloth, PbdSoftBody, clothFromMesh, pickParticle, softBodyFromMesh } from '../../../web/lib/three.js';
import { tetCube } from '../../../web/demo/tet-cube.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

const run = (world, frames) => { for (let f = 0; f < frames; f++) world.step(1 / 60); };
const minY = (geometry) => { geometry.computeBoundingBox(); return geometry.boundingBox.min.y; };

describe('PbdCloth', () => {
  it('draws the particles in place, follows them, and re-points itself when the arrays move', () => {
    const world = new pbd.World();
    const cloth = new PbdCloth(world, { columns: 8, rows: 8, spacing: 0.1, origin: [0, 1, 0], pinned: [0, 7] });
    const attribute = () => cloth.geometry.attributes.position;
    expect(attribute().array.buffer).toBe(world.positions().buffer);     // zero-copy
    const normalBefore = Float32Array.from(cloth.geometry.attributes.normal.array);
    run(world, 30);
    cloth.update();
    const xyz = world.positions();
    expect(attribute().getY(63)).toBe(xyz[3 * 63 + 1]);
    expect(attribute().getY(63)).toBeLessThan(1 - 0.05);                // the free corner fell
    expect(cloth.geometry.attributes.normal.array).not.toEqual(normalBefore);
    // Grow the world well past its capacity: its arrays move, and update() must find them again.
    world.addCloth({ columns: 200, rows: 200, spacing: 0.01, origin: [5, 1, 0] });
    run(world, 1);
    cloth.update();
    const moved = world.positions();
    expect(attribute().array.byteOffset).toBe(moved.byteOffset);
    for (let i = 0; i < 64; i++) expect(attribute().getY(i)).toBe(moved[3 * i + 1]);
    cloth.dispose();
    expect(() => cloth.update()).toThrow(/disposed/);
    world.delete();
  });
});

describe('picking', () => {
  it('a raycast hit on a cloth maps to the particle nearest the hit, and dragging it moves it', () => {
    const world = new pbd.World();
    world.setGravity(0, 0, 0);
    // A flat 11 x 11 cloth in the plane y = 0.5; particle (c, r) sits at x = 0.1 c, z = 0.1 r.
    const cloth = new PbdCloth(world, { columns: 11, rows: 11, spacing: 0.1, origin: [0, 0.5, 0], pinned: [0, 10] });
    cloth.update();
    const xyz = world.positions();
    const target = 3 * 11 + 7;                                            // row 3, column 7
    const [tx, , tz] = xyz.subarray(3 * target, 3 * target + 3);
    const ray = new THREE.Raycaster(new THREE.Vector3(tx + 0.02, 2, tz - 0.03), new THREE.Vector3(0, -1, 0));
    const hit = ray.intersectObject(cloth)[0];
    expect(hit).toBeDefined();
    const picked = pickParticle(hit);
    expect(picked.mesh).toBe(cloth);
    expect(picked.particle).toBe(cloth.range.firstParticle + target);
    expect(pickParticle(undefined)).toBeNull();
    expect(pickParticle({ object: new THREE.Mesh(), point: new THREE.Vector3() })).toBeNull();
    const grab = world.addAttachment(picked.particle, tx, 1.0, tz, { compliance: 0 });
    run(world, 30);
    expect(world.positions()[3 * picked.particle + 1]).toBeCloseTo(1.0, 3);
    world.removeAttachment(grab);
    cloth.dispose();
    world.delete();
  });
});

describe('bodies from three.js meshes', () => {
  it('clothFromMesh: a plane geometry becomes a hanging cloth drawn over its particles', () => {
    const world = new pbd.World();
    const plane = new THREE.Mesh(new THREE.PlaneGeometry(1, 1, 8, 8));
    plane.position.set(0, 1.5, 0);                                        // vertical, in the xy plane at y 1..2
    const top = [0, 8];                                                   // PlaneGeometry's first row is the top
    const body = clothFromMesh(world, plane, { pinned: top, mass: 0.5 });
    expect(body.range.particleCount).toBe(81);
    expect(body.geometry.attributes.uv).toBeDefined();                    // nothing welded: UVs kept
    expect(body.geometry.attributes.position.array.buffer).toBe(world.positions().buffer);
    run(world, 60);
    body.update();
    const y = (i) => world.positions()[3 * (body.body.renderToParticle[i]) + 1];
    expect(y(0)).toBe(2);                                                  // pinned stays
    expect(y(80)).toBeLessThan(1.0);                                       // bottom corner swung down
    body.dispose();
    world.delete();
  });

  it('softBodyFromMesh: a non-indexed icosphere is welded, tetrahedralized, embedded, and lands on the ground', () => {
    const world = new pbd.World();
    const ball = new THREE.Mesh(new THREE.IcosahedronGeometry(0.3, 2));
    ball.position.set(0, 1, 0);
    const progress = [];
    const body = softBodyFromMesh(world, ball, { resolution: 6, density: 200,
      onProgress: (f) => { progress.push(f); } });
    expect(progress.at(-1)).toBe(1);
    expect(body.embedding).not.toBeNull();
    const renderCount = ball.geometry.attributes.position.count;
    expect(body.geometry.attributes.position.count).toBe(renderCount);    // the original, unwelded vertices
    expect(body.geometry.attributes.position.array.buffer).toBe(pbd.memory); // zero-copy from wasm memory
    expect(minY(body.geometry)).toBeCloseTo(1 + minY(ball.geometry), 5);    // where the mesh was, before any step
    // 4 s: an elastic ball whose contacts hold (position-level static friction) rebounds several times before it
    // settles (the lowest particle was still 0.1 m up, mid-bounce, at 2 s).
    run(world, 240);
    body.update();
    expect(minY(body.geometry)).toBeGreaterThan(-0.02);                    // resting on the ground...
    expect(minY(body.geometry)).toBeLessThan(0.05);                        // ...not hanging in the air
    const heapBefore = pbd.heapBytesInUse();
    body.dispose();
    expect(body.embedding).toBeNull();
    expect(pbd.heapBytesInUse()).toBeLessThanOrEqual(heapBefore - 12 * renderCount);  // the embedding was freed
    world.delete();
  });

  it('softBodyFromMesh takes the same leading arguments as clothFromMesh; the earlier (pbd, world, ...) still works', () => {
    const world = new pbd.World();
    const ball = new THREE.Mesh(new THREE.IcosahedronGeometry(0.3, 1));
    const options = { resolution: 4, density: 200 };
    const now = softBodyFromMesh(world, ball, options);
    const before = softBodyFromMesh(pbd, world, ball, options);
    expect(before.range.particleCount).toBe(now.range.particleCount);
    expect(before.range.firstParticle).toBe(now.range.particleCount);
    expect(() => softBodyFromMesh({}, ball, options))
      .toThrow(/softBodyFromMesh: world must be a World made by createPbd \(got \[object Object\]\)/);
    now.dispose();
    before.dispose();
    world.delete();
  });

  it('a bad render mesh leaves the world unchanged', () => {
    const world = new pbd.World();
    const cube = tetCube(2, 0.5, [0, 1, 0]);
    const bad = new THREE.BufferGeometry();
    bad.setAttribute('position', new THREE.BufferAttribute(new Float32Array([0, 1, 0, NaN, 1, 0, 0, 1, 1]), 3));
    expect(() => new PbdSoftBody(world, cube, { renderGeometry: bad })).toThrow(/renderPositions/);
    expect(world.particleCount()).toBe(0);
    expect(() => new PbdSoftBody({ addSoftBody() {} }, cube, { renderGeometry: bad }))
      .toThrow(/view.renderGeometry needs a World made by createPbd/);
    const good = new PbdSoftBody(world, cube);                              // tet surface, no embedding
    expect(good.embedding).toBeNull();
    expect(good.geometry.attributes.position.array.buffer).toBe(world.positions().buffer);
    good.dispose();
    world.delete();
  });
});
