// The README's browser blocks (see tests/js/node/readme.test.js for the marker and how a block runs), in headless
// Chromium on a cross-origin isolated page: the quick start as a user pastes it (a WebGL renderer on the page, the
// threaded build, a fixed-step animation loop), and the blocks that continue it (grabbing the cloth with pointer
// events, a soft body from a three.js mesh). Each block's check watches the simulation through its top-level bindings.
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import * as pbdWasm from '../../../web/lib/index.js';
import * as pbdThree from '../../../web/lib/three.js';
import README from '../../../README.md?raw';
import packageJson from '../../../package.json';
import { JS_LANGUAGES, readmeBlocks, runBlock } from '../shared/readme-blocks.js';

const blocks = readmeBlocks(README);
const browserBlocks = blocks.filter((b) => JS_LANGUAGES.includes(b.lang) && b.runner === 'browser');
const modules = { [packageJson.name]: pbdWasm, [`${packageJson.name}/three`]: pbdThree, three: THREE };

/** Polls `condition` until it holds; the animation loop keeps stepping the world in between. */
async function until(condition, what, timeout = 30_000) {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > timeout) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((resolve) => { setTimeout(resolve, 50); });
  }
}

/** Particle i's position (a copy). */
const particle = (world, i) => new THREE.Vector3().fromArray(world.positions(), 3 * i);

/** PointerEvent options at a point given in normalized device coordinates of the canvas. */
function pointerAt(canvas, ndc) {
  const rect = canvas.getBoundingClientRect();
  return { clientX: rect.left + (ndc.x + 1) / 2 * rect.width, clientY: rect.top + (1 - ndc.y) / 2 * rect.height,
    bubbles: true, pointerId: 1, isPrimary: true, pointerType: 'mouse' };
}

/** The quick start's cloth has fallen from the horizontal: its free corner is 0.3 m below the pins. */
async function clothHasFallen({ world, cloth }) {
  const corner = cloth.body.firstParticle + 32 * 32 - 1;
  await until(() => world.positions()[3 * corner + 1] < 1.2, 'the cloth\'s free corner to fall under gravity');
}

/** What each browser block must have done, given its top-level bindings. */
const checks = {
  'quick-start': async (scope) => {
    const { pbd, world, cloth, renderer, scene } = scope;
    expect(pbd.variant).toBe('threaded');                   // the test page is cross-origin isolated
    expect(renderer.domElement.isConnected).toBe(true);
    expect(cloth.parent).toBe(scene);
    await clothHasFallen(scope);
    await until(() => renderer.info.render.frame > 10, 'frames to be rendered');
    expect(particle(world, cloth.body.firstParticle).y).toBe(1.5);   // a pinned corner stays
    cloth.update();
    // Drawn from the particles themselves: the geometry's positions are the world's, no copy.
    expect(cloth.geometry.attributes.position.array.buffer).toBe(world.positions().buffer);
    // And drawn: render, then read the pixel under the middle of a grid triangle near the cloth's centre before the
    // frame is presented (the quick start's renderer does not preserve its drawing buffer).
    const i = cloth.body.firstParticle + 16 * 32 + 16;
    const ndc = particle(world, i).add(particle(world, i + 1)).add(particle(world, i + 32)).divideScalar(3)
      .project(scope.camera);
    renderer.render(scene, scope.camera);
    const gl = renderer.getContext();
    const pixel = new Uint8Array(4);
    const [x, y] = [(ndc.x + 1) / 2 * gl.drawingBufferWidth, (ndc.y + 1) / 2 * gl.drawingBufferHeight];
    gl.readPixels(Math.round(x), Math.round(y), 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
    expect(pixel[0] + pixel[1] + pixel[2], 'the cloth is lit, not the black background').toBeGreaterThan(60);
  },
  'grab': async (scope) => {
    const { world, cloth, camera, renderer } = scope;
    await clothHasFallen(scope);
    const canvas = renderer.domElement;
    // Aim at the middle of one grid triangle near the cloth's centre (the triangle of particles i, i + 1, i + 32).
    const i = cloth.body.firstParticle + 16 * 32 + 16;
    const aim = particle(world, i).add(particle(world, i + 1)).add(particle(world, i + 32)).divideScalar(3);
    const ndc = aim.clone().project(camera);
    const constraints = world.constraintCount();
    canvas.dispatchEvent(new PointerEvent('pointerdown', pointerAt(canvas, ndc)));
    expect(world.constraintCount(), 'pointerdown on the cloth adds an attachment').toBe(constraints + 1);
    canvas.dispatchEvent(new PointerEvent('pointermove', pointerAt(canvas, { x: ndc.x, y: ndc.y + 0.2 })));
    const goal = scope.drag.held.point.clone();             // where the drag plane put the pointer
    expect(goal.y).toBeGreaterThan(aim.y + 0.05);           // up, as the pointer moved
    const distanceToGoal = () => {
      let nearest = Infinity;
      for (let p = 0; p < cloth.body.particleCount; p++) {
        nearest = Math.min(nearest, particle(world, cloth.body.firstParticle + p).distanceTo(goal));
      }
      return nearest;
    };
    await until(() => distanceToGoal() < 0.01, 'the held particle to reach the pointer');
    canvas.dispatchEvent(new PointerEvent('pointerup', pointerAt(canvas, ndc)));
    expect(world.constraintCount(), 'pointerup removes the attachment').toBe(constraints);
  },
  'soft-body': async (scope) => {
    const { world, ball, bodies, scene } = scope;
    expect(bodies).toContain(ball);
    expect(ball.parent).toBe(scene);
    expect(ball.embedding).not.toBeNull();                  // drawn as the icosphere embedded in its tets
    const { firstParticle, particleCount } = ball.range;
    const lowest = () => {
      const xyz = world.positions();
      let y = Infinity;
      for (let p = firstParticle; p < firstParticle + particleCount; p++) y = Math.min(y, xyz[3 * p + 1]);
      return y;
    };
    expect(lowest()).toBeGreaterThan(1.7);                  // it starts where the mesh was: centre 2 m, radius 0.25 m
    await until(() => lowest() < 0.05, 'the soft body to fall to the ground');
    // An elastic ball: it may bounce, but never goes through the ground, and never as high as it fell from.
    let low = Infinity, high = -Infinity;
    for (const end = performance.now() + 1000; performance.now() < end;) {
      low = Math.min(low, lowest());
      high = Math.max(high, lowest());
      await new Promise((resolve) => { setTimeout(resolve, 20); });
    }
    expect(low).toBeGreaterThan(-0.02);
    expect(high).toBeLessThan(1.5);
    const xyz = world.positions().subarray(3 * firstParticle, 3 * (firstParticle + particleCount));
    expect(xyz.every(Number.isFinite)).toBe(true);
  },
};

/** Stops what the quick start started: the animation loop, the canvas, the bodies, the world and the workers. */
function cleanUp(scope) {
  scope.renderer?.setAnimationLoop(null);
  scope.renderer?.domElement.remove();
  scope.renderer?.dispose();
  for (const body of scope.bodies ?? []) body.dispose();
  if (scope.world && !scope.world.isDeleted()) scope.world.delete();
  scope.pbd?.terminate();
}

describe('README.md in the browser', () => {
  it('has browser blocks, and a check in this file for each of them and for no other', () => {
    expect(browserBlocks.length).toBeGreaterThan(0);
    expect(Object.keys(checks).sort()).toEqual(browserBlocks.map((b) => b.id).sort());
  });

  for (const block of browserBlocks) {
    it(`runs the "${block.id}" block (line ${block.line})`, async () => {
      const scope = await runBlock(block, blocks, modules);
      try {
        await checks[block.id](scope);
      } finally {
        cleanUp(scope);
      }
    });
  }
});
