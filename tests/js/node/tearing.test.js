// Tearing from JS: addCloth's `tearing`, World.tearEdges and the step's own tears (lastTears), with the records of
// every body following (the torn one grows, the later ones move up); mass is kept by the split; bad input names the
// function, the argument and the value and changes nothing. The native suite checks the physics in depth.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, createPbd } from '../../../web/lib/index.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

const COLUMNS = 8, ROWS = 8;

/** A tearable cloth hanging from its top row, and a rope after it. */
function scene(strain) {
  const world = new pbd.World();
  const cloth = world.addCloth({ columns: COLUMNS, rows: ROWS, spacing: 0.1, origin: [0, 2, 0], axisV: [0, -1, 0],
    pinned: Array.from({ length: COLUMNS }, (_, c) => c), stretch: { compliance: 1e-6 },
    tearing: strain === undefined ? {} : { strain } });
  const rope = world.addRope({ segments: 4, start: [3, 2, 0], end: [3, 1, 0], pinned: [0] });
  return { world, cloth, rope };
}

/** Edges of row r across the cloth. */
function rowEdges(cloth, r) {
  const edges = [];
  for (let c = 0; c + 1 < COLUMNS; c++) edges.push(cloth.firstParticle + r * COLUMNS + c, cloth.firstParticle + r * COLUMNS + c + 1);
  return edges;
}

function totalMass(world) {
  let m = 0;
  for (const w of world.inverseMasses()) if (w > 0) m += 1 / w;
  return m;
}

describe('tearing', () => {
  it('tearEdges splits the row it cuts and the records follow', () => {
    const { world, cloth, rope } = scene();
    const mass = totalMass(world);
    const ropeLinks = [rope.firstConstraint, rope.constraintCount];
    const ropeStart = Array.from(world.positions().subarray(3 * rope.firstParticle, 3 * rope.firstParticle + 3));
    const tear = world.tearEdges(cloth, rowEdges(cloth, 3));
    expect(tear.body).toBe(cloth.body);
    expect(tear.particleCount).toBe(COLUMNS);
    expect(tear.sourceParticles).toHaveLength(COLUMNS);
    expect(cloth.particleCount).toBe(COLUMNS * ROWS + COLUMNS);
    expect(rope.firstParticle).toBe(cloth.firstParticle + cloth.particleCount);
    expect(Array.from(world.positions().subarray(3 * rope.firstParticle, 3 * rope.firstParticle + 3))).toEqual(ropeStart);
    // The cloth's edges along the cut doubled; the rope's links moved up by as many as the cloth gained.
    let gained = 0;
    for (let k = 1; k < tear.distanceEdits.length; k += 2) gained += tear.distanceEdits[k] - 1;
    expect(rope.firstConstraint).toBe(ropeLinks[0] + gained);
    expect(rope.constraintCount).toBe(ropeLinks[1]);
    expect(cloth.firstConstraint + cloth.constraintCount).toBe(rope.firstConstraint);
    expect(totalMass(world)).toBeCloseTo(mass, 5);
    // The triangles now name the new particles, and the bottom piece falls away from the top one.
    const triangles = world.bodyTriangles(cloth);
    expect(Math.max(...triangles)).toBe(cloth.firstParticle + cloth.particleCount - 1);
    for (let f = 0; f < 60; f++) world.step(1 / 60);
    const y = (i) => world.positions()[3 * i + 1];
    expect(y(cloth.firstParticle + 2 * COLUMNS) - y(cloth.firstParticle + 5 * COLUMNS)).toBeGreaterThan(1);
  });

  it('a cloth pulled past its strain tears during the step, and the records follow', () => {
    const { world, cloth, rope } = scene(0.4);
    const grips = [];
    for (let c = 0; c < COLUMNS; c++) {
      grips.push(world.addAttachment(cloth.firstParticle + (ROWS - 1) * COLUMNS + c, [0.1 * c, 1.3, 0]));
    }
    let tears = 0;
    for (let f = 0; f < 90; f++) {
      grips.forEach((g, c) => world.setAttachmentTarget(g, [0.1 * c, 1.3 - 0.03 * f, 0]));
      world.step(1 / 60);
      if (world.lastTearCount() > 0) {
        tears += 1;
        expect(world.lastTears()[0].body).toBe(cloth.body);
      }
    }
    expect(tears).toBeGreaterThan(0);
    expect(cloth.particleCount).toBeGreaterThan(COLUMNS * ROWS);
    expect(rope.firstParticle).toBe(cloth.firstParticle + cloth.particleCount);
    expect(world.particleCount()).toBe(cloth.particleCount + rope.particleCount);
    expect(world.positions().every(Number.isFinite)).toBe(true);
  });

  it('a torn world gives back all its memory when deleted', () => {
    const heap = pbd.heapBytesInUse();
    for (let k = 0; k < 3; k++) {
      const { world, cloth } = scene();
      world.tearEdges(cloth, rowEdges(cloth, 2 + k));
      for (let f = 0; f < 10; f++) world.step(1 / 60);
      world.delete();
    }
    expect(Math.abs(pbd.heapBytesInUse() - heap)).toBeLessThanOrEqual(64);
  });

  it('names the function, the argument and the value, and changes nothing', () => {
    const { world, cloth, rope } = scene();
    const before = world.saveSnapshot();
    const f = cloth.firstParticle;
    expect(() => world.tearEdges(rope, [rope.firstParticle, rope.firstParticle + 1])).toThrow(/tearEdges: body .*not tearable/);
    expect(() => world.tearEdges(cloth, [f, f + 1, f])).toThrow(/tearEdges: edges length must be even/);
    expect(() => world.tearEdges(cloth, [f, f + 20])).toThrow(/tearEdges: edges\[0\] .*no edge .*\(got 0\)/);
    expect(() => world.tearEdges(cloth, [f, -1])).toThrow(InvalidArgumentError);
    expect(() => world.bodyTriangles(rope)).toThrow(/bodyTriangles: body .*not tearable/);
    expect(() => world.addCloth({ columns: 3, rows: 3, tearing: { strian: 0.2 } })).toThrow(/strian.*strain/);
    expect(() => world.addCloth({ columns: 3, rows: 3, tearing: { strain: -1 } })).toThrow(/addCloth: tearing.strain/);
    expect(Array.from(world.saveSnapshot())).toEqual(Array.from(before));
  });
});
