// Snapshots in JS: saveSnapshot() returns a Uint8Array the caller owns; a world that loads it continues
// bit-identically (positions compared exactly); corrupt, truncated or foreign bytes throw an Error naming the
// problem and leave the world's positions exactly as they were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

/** Cloth with dihedral bending and tethers, a rope, a moving collider, an attachment (one removed), self-collision. */
function buildScene(world) {
  world.setSubsteps(5);
  world.setSelfCollision({ enabled: true, radius: 0.01 });
  world.addCloth({ columns: 12, rows: 12, spacing: 0.05, origin: [-0.3, 1, -0.3], pinned: [0, 11],
    bendModel: 'dihedral', tethers: 'euclidean' });
  world.addRope({ segments: 8, start: [0.5, 1.2, 0], end: [1, 1.2, 0], pinned: [0] });
  world.addCollider({ shape: 'sphere', position: [0, 0.6, 0], radius: 0.2 });
  world.removeAttachment(world.addAttachment(140, 0, 1, 0, undefined));
  return world.addAttachment(143, 0.3, 1, 0.3, { compliance: 1e-4 });
}

function drive(world, grab, frame) {
  const t = frame / 60;
  world.setColliderPose(0, 0.2 * Math.sin(3 * t), 0.6, 0, 0, Math.sin(t / 2), 0, Math.cos(t / 2));
  world.setAttachmentTarget(grab, 0.3, 1 - 0.3 * t, 0.3);
  world.step(1 / 60);
}

describe('snapshots', () => {
  for (const integrator of ['implicit-euler', 'bdf2']) {
    it(`continue bit-identically (${integrator})`, () => {
      const a = new pbd.World();
      const grab = buildScene(a);
      a.setIntegrator(integrator);
      for (let f = 0; f < 10; f++) drive(a, grab, f);
      const blob = a.saveSnapshot();
      expect(blob).toBeInstanceOf(Uint8Array);
      expect(blob.buffer).not.toBe(pbd.memory);                   // a copy the caller owns, not a heap view
      expect(String.fromCharCode(...blob.subarray(0, 4))).toBe('PBDW');
      const saved = a.positions().slice();
      for (let f = 10; f < 20; f++) drive(a, grab, f);
      const expected = a.positions().slice();
      expect(expected).not.toEqual(saved);

      const b = new pbd.World();
      b.loadSnapshot(blob);
      expect(b.positions()).toEqual(saved);
      for (let f = 10; f < 20; f++) drive(b, grab, f);
      expect(b.positions()).toEqual(expected);                     // Float32Array: every element exactly

      a.loadSnapshot(blob.buffer);                                  // an ArrayBuffer works too
      for (let f = 10; f < 20; f++) drive(a, grab, f);
      expect(a.positions()).toEqual(expected);
      a.delete();
      b.delete();
    });
  }

  it('refuses corrupted, truncated and foreign bytes by name and leaves the world unchanged', () => {
    const source = new pbd.World();
    const grab = buildScene(source);
    drive(source, grab, 0);
    const blob = source.saveSnapshot();
    source.delete();

    const w = new pbd.World();
    const g = buildScene(w);
    for (let f = 0; f < 3; f++) drive(w, g, f);
    const before = w.positions().slice();
    const expectRefused = (bytes, message) => {
      expect(() => w.loadSnapshot(bytes)).toThrow(message);
      expect(w.positions()).toEqual(before);
    };
    const corrupted = blob.slice();
    corrupted[100] ^= 0x10;
    expectRefused(corrupted, /^loadSnapshot: checksum mismatch/);
    for (const n of [0, 3, 19, 20, 100, blob.length - 1]) {
      expectRefused(blob.subarray(0, n), /^loadSnapshot: truncated blob \(.* needs \d+ bytes, \d+ left\)/);
    }
    const newer = blob.slice();
    newer[4] = 7;
    expectRefused(newer, "loadSnapshot: format version 7 is newer than this library's 1");
    expectRefused(new TextEncoder().encode('not a snapshot at all'), /^loadSnapshot: bad magic/);
    expectRefused([1, 2, 3], /^loadSnapshot: bytes must be a Uint8Array/);
    w.step(1 / 60);                                                 // and it still runs
    w.delete();
  });
});
