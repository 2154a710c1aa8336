// world.removeBody through the JS API: the world without the body steps as the world built without it (same snapshot
// bytes, same positions after stepping), the records the world returned are handles that follow their body, a
// three.js mesh keeps drawing its own particles after another body goes, dispose({ removeBody: true }) removes its
// body, and bad input is an InvalidArgumentError naming removeBody that changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, createPbd } from '../../../web/lib/index.js';
import { PbdCloth } from '../../../web/lib/three.js';
import { tetCube } from '../../../web/demo/tet-cube.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

const run = (world, frames) => { for (let f = 0; f < frames; f++) world.step(1 / 60); };
const bytes = (world) => Array.from(world.saveSnapshot());

/** A cloth, a rope and a soft cube, 2 m apart (they never touch); `skip` leaves one out. */
function threeBodies(skip = -1) {
  const world = new pbd.World();
  const records = [];
  if (skip !== 0) records.push(world.addCloth({ columns: 6, rows: 6, spacing: 0.1, origin: [0, 1, 0], pinned: [0, 5] }));
  if (skip !== 1) records.push(world.addRope({ segments: 8, start: [2, 1, 0], end: [2.8, 1, 0], pinned: [0] }));
  if (skip !== 2) {
    const cube = tetCube(2, 0.2, [4, 0.5, 0]);
    records.push(world.addSoftBody({ positions: cube.positions, tets: cube.tets, material: 'volume' }));
  }
  return { world, records };
}

describe('removeBody', () => {
  it.each([0, 1, 2])('leaves the world as if body %i had never been added', (k) => {
    const { world: removed, records } = threeBodies();
    const { world: built } = threeBodies(k);
    const removal = removed.removeBody(records[k]);
    expect(removal.body).toBe(k);
    expect(bytes(removed)).toEqual(bytes(built));
    run(removed, 30);
    run(built, 30);
    expect(Array.from(removed.positions())).toEqual(Array.from(built.positions()));
    removed.delete();
    built.delete();
  });

  it('updates the records in place: later bodies move down, the removed one says so', () => {
    const { world, records: [cloth, rope, cube] } = threeBodies();
    const ropeStart = rope.firstParticle, cubeFirst = cube.firstConstraint;
    const removal = world.removeBody(cloth.body);            // by index
    expect(cloth.removed).toBe(true);
    expect([rope.body, cube.body]).toEqual([0, 1]);
    expect(rope.firstParticle).toBe(ropeStart - 36);
    expect(Array.from(removal.distanceRuns)).toEqual([0, cloth.constraintCount]);
    expect(cube.firstConstraint).toBe(cubeFirst - cloth.constraintCount);
    // The record names the same particles: the rope's first particle is still pinned where it was put.
    const x = world.positions();
    expect(Array.from(x.subarray(3 * rope.firstParticle, 3 * rope.firstParticle + 3))).toEqual([2, 1, 0]);
    expect(world.inverseMasses()[rope.firstParticle]).toBe(0);
    // A mesh body after the removed one: its render vertices still name its particles.
    const mesh = world.addTriangleMesh({ positions: [3, 1, 0, 3.1, 1, 0, 3, 1.1, 0], triangles: [0, 1, 2] });
    world.removeBody(rope);
    const moved = world.positions();
    expect(Array.from(mesh.renderToParticle)).toEqual([0, 1, 2].map((k) => mesh.firstParticle + k));
    expect(Array.from(moved.subarray(3 * mesh.renderToParticle[1], 3 * mesh.renderToParticle[1] + 3)))
      .toEqual([3.1, 1, 0].map(Math.fround));
    world.removeBody(cube);                                   // by record, after the shift
    expect(world.particleCount()).toBe(3);   // the mesh's
    expect(world.bodyCount()).toBe(1);
    world.delete();
  });

  it('keeps a three.js cloth drawing its own particles when an earlier body goes, and dispose can remove its body', () => {
    const world = new pbd.World();
    const rope = world.addRope({ segments: 4, start: [-2, 1, 0], end: [-1, 1, 0] });
    const cloth = new PbdCloth(world, { columns: 4, rows: 4, spacing: 0.1, origin: [0, 1, 0], pinned: [0, 3] });
    run(world, 10);
    world.removeBody(rope);
    run(world, 10);
    cloth.update();
    const xyz = world.positions(), drawn = cloth.geometry.attributes.position;
    expect(cloth.range.firstParticle).toBe(0);
    for (let i = 0; i < 16; i++) expect(drawn.getY(i)).toBe(xyz[3 * i + 1]);
    cloth.dispose({ removeBody: true });
    expect(world.bodyCount()).toBe(0);
    expect(world.particleCount()).toBe(0);
    world.delete();
  });

  it('refuses a bad body with an InvalidArgumentError and changes nothing', () => {
    const { world, records } = threeBodies();
    const other = threeBodies();
    world.removeBody(records[1]);
    const before = bytes(world);
    const bad = [
      [3, /removeBody: body .*3/],
      [-1, /removeBody: body/],
      [records[1], /removeBody: body 1 was removed already/],
      [other.records[0], /not a record this world returned/],
      ['0', /removeBody: body must be a body index or a body's record \(got "0"\)/],
    ];
    for (const [body, message] of bad) {
      const error = (() => { try { world.removeBody(body); } catch (e) { return e; } return null; })();
      expect(error, String(body)).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toMatch(message);
      expect(bytes(world)).toEqual(before);
    }
    world.delete();
    other.world.delete();
  });
});
