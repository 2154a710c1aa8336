// Run-time strengths per constraint kind (World.setConstraintStrength) and Neo-Hookean materials
// (World.setSoftBodyMaterial) through the wasm build: a stiffer bending sags less, a higher Young's modulus squashes
// less under its own weight, the values a body was built with change nothing bit for bit, and bad input throws an
// Error naming the argument with the world unchanged (more rows: docs/validation.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';
import { tetCube } from '../../../web/demo/tet-cube.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

const run = (world, frames) => { for (let f = 0; f < frames; f++) world.step(1 / 60); };
const extremeY = (world, pick) => world.positions().filter((_, k) => k % 3 === 1).reduce((a, y) => pick(a, y));

/** A horizontal 8 x 8 plate clamped along two rows, bent only by dihedral constraints of strength `bend`. */
function plate(bend) {
  const world = new pbd.World();
  world.setGround({ enabled: false });
  world.setLinearDamping(1);
  world.setIterations(2);
  world.addCloth({ columns: 8, rows: 8, spacing: 0.05, origin: [0, 1, 0], mass: 0.1, bendModel: 'dihedral', bend,
    pinned: Array.from({ length: 16 }, (_, k) => k) });
  return world;
}

/** A 0.3 m Neo-Hookean cube resting on the ground under its own weight, no edge constraints. */
function neoCube(youngsModulus, gravity = -9.81) {
  const world = new pbd.World();
  world.setGravity(0, gravity, 0);
  world.setLinearDamping(2);
  const body = world.addSoftBody({ ...tetCube(3, 0.3, [0, 0, 0]), density: 1000, edgeConstraints: false,
    material: 'neo-hookean', youngsModulus, poissonRatio: 0.3 });
  return { world, body };
}

describe('setConstraintStrength', () => {
  it('a stiffer dihedral bending makes a clamped plate sag less; set = built, bit for bit', () => {
    const soft = plate({ compliance: 100, stiffness: 0.01 });
    const stiffened = plate({ compliance: 100, stiffness: 0.01 });
    const built = plate({ compliance: 1e-5, stiffness: 1 });
    stiffened.setConstraintStrength('dihedral', 0, stiffened.dihedralConstraintCount(), 1e-5, 1);
    for (const w of [soft, stiffened, built]) run(w, 120);
    const sagSoft = 1 - extremeY(soft, Math.min), sagStiff = 1 - extremeY(stiffened, Math.min);
    expect(sagSoft).toBeGreaterThan(0.2);
    expect(sagStiff).toBeLessThan(sagSoft / 3);
    expect(Array.from(stiffened.positions())).toEqual(Array.from(built.positions()));
    for (const w of [soft, stiffened, built]) w.delete();
  });

  it('reads back what the builder took and what was set', () => {
    const world = plate({ compliance: 0.5, stiffness: 0.25 });
    const last = world.dihedralConstraintCount() - 1;
    expect(world.getConstraintStrength('dihedral', last)).toEqual({ compliance: 0.5, stiffness: 0.25 });
    world.setConstraintStrength('dihedral', last, 1, 0.125, 0.75);
    expect(world.getConstraintStrength('dihedral', last)).toEqual({ compliance: 0.125, stiffness: 0.75 });
    expect(world.getConstraintStrength('dihedral', 0)).toEqual({ compliance: 0.5, stiffness: 0.25 });
    expect(() => world.getConstraintStrength('dihedral', last + 1)).toThrow(/constraint is out of range/);
    expect(() => world.getConstraintStrength('bending', 0)).toThrow(/getConstraintStrength: kind must be/);
    world.delete();
  });

  it('takes a Strength record as options do, members left out at Strength\'s defaults', () => {
    const world = plate({ compliance: 0.5, stiffness: 0.25 });
    world.setConstraintStrength('dihedral', 0, 2, { compliance: 0.125, stiffness: 0.75 });
    expect(world.getConstraintStrength('dihedral', 1)).toEqual({ compliance: 0.125, stiffness: 0.75 });
    world.setConstraintStrength('dihedral', 0, 1, { stiffness: 0.5 });        // compliance 0
    expect(world.getConstraintStrength('dihedral', 0)).toEqual({ compliance: 0, stiffness: 0.5 });
    world.setDistanceStrength(0, 1, { compliance: 0.25 });                    // stiffness 1
    expect(world.getConstraintStrength('distance', 0)).toEqual({ compliance: 0.25, stiffness: 1 });
    const before = world.saveSnapshot().slice();
    expect(() => world.setDistanceStrength(0, 1, { complience: 1 }))
      .toThrow("setDistanceStrength: unknown option 'complience' (did you mean 'compliance'?)");
    expect(() => world.setConstraintStrength('dihedral', 0, 1, { compliance: -1 })).toThrow(/compliance must be >= 0/);
    expect(Array.from(world.saveSnapshot())).toEqual(Array.from(before));
    world.delete();
  });

  it('bad input names the argument and leaves the world unchanged', () => {
    const world = plate({ compliance: 1, stiffness: 0.5 });
    const before = world.saveSnapshot().slice();
    expect(() => world.setConstraintStrength('dihedral', 0, 1e6, 0, 1)).toThrow(/setConstraintStrength: first\+count/);
    expect(() => world.setConstraintStrength('dihedral', 0, 1, NaN, 1)).toThrow(/compliance must be finite/);
    expect(() => world.setConstraintStrength('bending', 0, 1, 0, 1)).toThrow(/kind must be/);
    expect(Array.from(world.saveSnapshot())).toEqual(Array.from(before));
    world.delete();
  });
});

describe('setSoftBodyMaterial', () => {
  it('a higher Young\'s modulus squashes less under its own weight; set = built, bit for bit', () => {
    const soft = neoCube(3e3), stiffened = neoCube(3e3), built = neoCube(3e5);
    stiffened.world.setSoftBodyMaterial(stiffened.body.body, 3e5, 0.3, 1);
    for (const c of [soft, stiffened, built]) run(c.world, 120);
    const topSoft = extremeY(soft.world, Math.max), topStiff = extremeY(stiffened.world, Math.max);
    expect(topStiff).toBeGreaterThan(0.29);                 // E = 3e5 Pa: ρ g h / E ~ 1 %
    expect(topSoft).toBeLessThan(topStiff - 0.02);          // E = 3e3 Pa: squashed by far more
    expect(Array.from(stiffened.world.positions())).toEqual(Array.from(built.world.positions()));
    for (const c of [soft, stiffened, built]) c.world.delete();
  });

  it('rest stays at rest whatever the material', () => {
    const { world, body } = neoCube(3e4, 0);
    world.setGround({ enabled: false });
    const x0 = Array.from(world.positions());
    world.setSoftBodyMaterial(body.body, 2e6, 0.45, 1);
    run(world, 60);
    const moved = Math.max(...Array.from(world.positions(), (x, k) => Math.abs(x - x0[k])));
    expect(moved).toBeLessThan(1e-5);
    world.delete();
  });
});
