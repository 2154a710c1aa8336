// The demo's self-folding scene (web/demo/scenes/fold.js), built as the page builds it (scene-host.js, with the
// panel's values: XPBD, coloured Gauss-Seidel, 10 substeps x 1 iteration) in the wasm build: a cloth falls over and
// folds onto itself on the ground, and its layers stay apart. Checked every 20 frames for 4 s with the independent
// tests of tests/js/shared/cloth-intersections.js; and with continuous self-collision off, the same checks fail. At
// rest its broad phase keeps one candidate list per step (lastStepReport's counts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';
import { applyParams, buildScene, createAssets, sceneParams } from '../../../web/demo/scene-host.js';
import { FOLD } from '../../../web/demo/scenes/fold.js';
import { closestPair, intersectingTrianglePairs, trianglesIntersect } from '../shared/cloth-intersections.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

function foldScene() {
  const built = buildScene(pbd, 'fold', createAssets(pbd));
  applyParams(built, sceneParams('fold'));
  const { world } = built.worlds[0];
  const cloth = built.drawables[0];
  const triangles = Array.from(cloth.triangles, (v) => v + cloth.firstParticle);
  return { world, cloth, triangles };
}

describe('the self-folding demo scene', () => {
  it('the intersection check sees a crossing pair and not a separated one', () => {
    const flat = [[0, 0, 0], [1, 0, 0], [0, 0, 1]];
    const through = [[0.2, -0.5, 0.2], [0.2, 0.5, 0.2], [0.3, 0.5, 0.3]];
    expect(trianglesIntersect(flat, through)).toBe(true);
    expect(trianglesIntersect(flat, through.map(([x, y, z]) => [x, y + 0.6, z]))).toBe(false);
  });

  it('folds onto itself and keeps its layers apart', { timeout: 120_000 }, () => {
    const { world, cloth, triangles } = foldScene();
    expect(world.getContinuousSelfCollision(0)).toEqual({ enabled: true, thickness: expect.closeTo(FOLD.thickness, 6) });
    let contacts = 0, frozen = 0;
    for (let frame = 1; frame <= 240; frame++) {
      world.step(1 / 60);
      contacts += world.continuousSelfContactCount();
      frozen += world.lastStepReport().selfFrozenParticles;
      if (frame % 20 !== 0) continue;
      const x = world.positions();
      expect(intersectingTrianglePairs(x, triangles), `frame ${frame}`).toBe(0);
      expect(closestPair(x, cloth.firstParticle, cloth.particleCount), `frame ${frame}`)
        .toBeGreaterThanOrEqual(FOLD.thickness / 2);
    }
    const x = world.positions();
    let top = 0;
    for (let i = cloth.firstParticle; i < cloth.firstParticle + cloth.particleCount; i++) top = Math.max(top, x[3 * i + 1]);
    expect(top).toBeGreaterThan(3 * FOLD.thickness);   // it folded: layers lie on layers
    expect(top).toBeLessThan(0.3);                     // and fell over
    expect(contacts).toBeGreaterThan(0);
    expect(world.lastStepReport().selfFrozenParticles).toBeTypeOf('number');   // the failsafe's count reaches JS
    world.delete();
  });

  it('while it falls flat, before it lands, makes one candidate list a step and walks no tree', () => {
    const { world } = foldScene();
    const lists = [], walks = [];
    for (let frame = 1; frame <= 12; frame++) {  // it lands in frame 15 (0.3 m)
      world.step(1 / 60);
      lists.push(world.lastStepReport().selfCandidateLists);
      walks.push(world.lastStepReport().selfTreeWalks);
    }
    expect(lists).toEqual(new Array(12).fill(1));   // 3 mm a substep by the end, past the reach of 1.4 mm: the reach
    expect(walks).toEqual(new Array(12).fill(0));   // is counted from the vertices' mean displacement
    world.delete();
  });

  it('once at rest, makes one candidate list a step and walks no tree', { timeout: 120_000 }, () => {
    const { world } = foldScene();
    for (let frame = 1; frame <= 420; frame++) world.step(1 / 60);
    const lists = [], walks = [];
    for (let frame = 1; frame <= 30; frame++) {
      world.step(1 / 60);
      const report = world.lastStepReport();
      lists.push(report.selfCandidateLists);
      walks.push(report.selfTreeWalks);
    }
    expect(lists).toEqual(new Array(30).fill(1));
    expect(walks).toEqual(new Array(30).fill(0));
    world.delete();
  });

  it('passes through itself with continuous self-collision off', { timeout: 60_000 }, () => {
    const { world, triangles } = foldScene();
    world.setContinuousSelfCollision(0, { enabled: false });
    let crossings = 0;
    for (let frame = 1; frame <= 240 && crossings === 0; frame++) {
      world.step(1 / 60);
      if (frame % 10 === 0) crossings = intersectingTrianglePairs(world.positions(), triangles);
    }
    expect(crossings).toBeGreaterThan(0);
    world.delete();
  });
});
