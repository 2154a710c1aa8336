// PbdDragControls on a live world, driven by pointer events on a stand-in element: a press on a body holds its
// nearest particle, moves pull it along the drag plane, a release lets go and throws it with the pointer's velocity;
// a press that misses reaches the other listeners; bad arguments are errors that name them.
import * as THREE from 'three';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, createPbd } from '../../../web/lib/index.js';
import { PbdCloth, PbdDragControls } from '../../../web/lib/three.js';

const WIDTH = 800, HEIGHT = 600;

/** What the controls need of a canvas: events, a rectangle, pointer capture, a style. */
class StandInElement extends EventTarget {
  style = {};
  captured = new Set();
  getBoundingClientRect() { return { left: 0, top: 0, width: WIDTH, height: HEIGHT }; }
  setPointerCapture(id) { this.captured.add(id); }
  releasePointerCapture(id) { this.captured.delete(id); }
}

/** A pointer event at pixel (x, y) of the element, at time t (ms). */
function pointer(type, x, y, t) {
  const event = new Event(type, { cancelable: true });
  Object.assign(event, { clientX: x, clientY: y, button: 0, pointerId: 7, pointerType: 'touch' });
  Object.defineProperty(event, 'timeStamp', { value: t });
  return event;
}

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

// A weightless 17 x 17 cloth, 0.8 m square, level at y = 1, seen from straight above: the drag plane is y = 1.
let world, cloth, camera, element, controls;
const N = 17, CENTRE = 8 * N + 8;
beforeEach(() => {
  world = new pbd.World();
  world.setGravity([0, 0, 0]);
  cloth = new PbdCloth(world, { columns: N, rows: N, spacing: 0.05, origin: [-0.4, 1, -0.4] });
  cloth.update();
  camera = new THREE.PerspectiveCamera(50, WIDTH / HEIGHT, 0.1, 100);
  camera.position.set(0, 3, 0);
  camera.up.set(0, 0, -1);
  camera.lookAt(0, 0, 0);
  camera.updateMatrixWorld();
  element = new StandInElement();
  controls = new PbdDragControls([cloth], camera, element);
  return () => { controls.dispose(); cloth.dispose(); if (!world.isDeleted()) world.delete(); };
});

const particle = (i) => new THREE.Vector3().fromArray(world.positions(), 3 * i);
const step = (frames = 1) => { for (let f = 0; f < frames; f++) world.step(1 / 60); cloth.update(); };
/** The pixel the point projects to. */
const pixelOf = (point) => {
  const ndc = point.clone().project(camera);
  return [(ndc.x + 1) / 2 * WIDTH, (1 - ndc.y) / 2 * HEIGHT];
};

describe('PbdDragControls', () => {
  it('a press on the body holds its nearest particle, before the other listeners see it', () => {
    const others = [];
    element.addEventListener('pointerdown', (e) => others.push(e));   // e.g. OrbitControls
    const started = [];
    controls.addEventListener('dragstart', (e) => started.push(e));
    const constraints = world.constraintCount();
    element.dispatchEvent(pointer('pointerdown', ...pixelOf(particle(CENTRE)), 100));
    expect(controls.held?.particle).toBe(CENTRE);
    expect(controls.held.object).toBe(cloth);
    expect(world.constraintCount()).toBe(constraints + 1);
    expect(started.map((e) => e.particle)).toEqual([CENTRE]);
    expect(started[0].point.distanceTo(particle(CENTRE))).toBeLessThan(1e-3);
    expect(others).toEqual([]);
    expect(element.captured.has(7)).toBe(true);
    expect(element.style.touchAction).toBe('none');
  });

  it('moves pull the particle along the drag plane; a release throws it with the pointer\'s velocity', () => {
    const start = particle(CENTRE);
    const [x0, y0] = pixelOf(start);
    element.dispatchEvent(pointer('pointerdown', x0, y0, 100));
    const points = [];
    controls.addEventListener('drag', (e) => points.push(e.point.clone()));
    for (let k = 1; k <= 4; k++) {   // 40 px to the right, in 40 ms
      element.dispatchEvent(pointer('pointermove', x0 + 10 * k, y0, 100 + 10 * k));
      step();
    }
    // The plane faces the camera through the hit point: level at y = 1, and the pointer moved along +x.
    for (const p of points) expect(p.y).toBeCloseTo(1, 5);
    const last = points[points.length - 1];
    expect(last.x - start.x).toBeGreaterThan(0.05);
    step(3);
    expect(particle(CENTRE).distanceTo(last)).toBeLessThan(1e-3);   // held rigidly at the target
    let ended = null;
    controls.addEventListener('dragend', (e) => { ended = e; });
    const constraints = world.constraintCount();
    element.dispatchEvent(pointer('pointerup', x0 + 40, y0, 155));
    // The mean over the last 50 ms (moves at 110-140 ms): from the press point at 100 ms would be outside it.
    const expected = last.clone().sub(points[0]).divideScalar(0.030);
    expect(ended.velocity.distanceTo(expected)).toBeLessThan(1e-6 * expected.length());
    expect(ended.particle).toBe(CENTRE);
    expect(controls.held).toBeNull();
    expect(world.constraintCount()).toBe(constraints - 1);
    const v = world.velocities().subarray(3 * CENTRE, 3 * CENTRE + 3);
    expect(Array.from(v)).toEqual([expected.x, expected.y, expected.z].map(Math.fround));
    const before = particle(CENTRE);
    step();
    expect(particle(CENTRE).x - before.x).toBeGreaterThan(0.2 * expected.x / 60);   // thrown, the cloth in tow
  });

  it('a release after the pointer stood still for the window does not throw', () => {
    const [x0, y0] = pixelOf(particle(CENTRE));
    element.dispatchEvent(pointer('pointerdown', x0, y0, 100));
    element.dispatchEvent(pointer('pointermove', x0 + 30, y0, 110));
    step(5);
    let velocity = null;
    controls.addEventListener('dragend', (e) => { velocity = e.velocity; });
    element.dispatchEvent(pointer('pointerup', x0 + 30, y0, 200));
    expect(velocity.length()).toBe(0);
    expect(Array.from(world.velocities().subarray(3 * CENTRE, 3 * CENTRE + 3))).toEqual([0, 0, 0]);
  });

  it('a drag listener may move the point before the body is pulled there', () => {
    controls.addEventListener('drag', (e) => { e.point.y = 1.3; });
    const [x0, y0] = pixelOf(particle(CENTRE));
    element.dispatchEvent(pointer('pointerdown', x0, y0, 100));
    element.dispatchEvent(pointer('pointermove', x0, y0 + 5, 110));
    expect(controls.held.point.y).toBe(1.3);
    step(5);
    expect(particle(CENTRE).y).toBeCloseTo(1.3, 3);
  });

  it('a press that misses, or while disabled, holds nothing and reaches the other listeners', () => {
    const others = [];
    element.addEventListener('pointerdown', (e) => others.push(e));
    const constraints = world.constraintCount();
    element.dispatchEvent(pointer('pointerdown', 5, 5, 100));   // the corner of the view: no body there
    controls.enabled = false;
    element.dispatchEvent(pointer('pointerdown', ...pixelOf(particle(CENTRE)), 200));
    expect(controls.held).toBeNull();
    expect(others.length).toBe(2);
    expect(world.constraintCount()).toBe(constraints);
  });

  it('dispose() lets go and stops listening; a deleted world or disposed body ends the drag', () => {
    const constraints = world.constraintCount();
    const at = pixelOf(particle(CENTRE));
    element.dispatchEvent(pointer('pointerdown', ...at, 100));
    controls.dispose();
    expect(controls.held).toBeNull();
    expect(world.constraintCount()).toBe(constraints);
    element.dispatchEvent(pointer('pointerdown', ...at, 200));
    expect(world.constraintCount()).toBe(constraints);

    const again = new PbdDragControls([cloth], camera, element);
    let ended = 0;
    again.addEventListener('dragend', () => { ended++; });
    element.dispatchEvent(pointer('pointerdown', ...at, 300));
    expect(again.held).not.toBeNull();
    cloth.dispose();
    element.dispatchEvent(pointer('pointermove', at[0] + 10, at[1], 310));   // no throw from the disposed body
    expect(again.held).toBeNull();
    expect(ended).toBe(1);
    element.dispatchEvent(pointer('pointerdown', ...at, 400));                // a disposed body is not picked
    expect(again.held).toBeNull();
    again.dispose();
  });

  it('bad arguments are errors naming the argument and the value', () => {
    const make = (...args) => () => new PbdDragControls(...args);
    expect(make(cloth, camera, element)).toThrow(InvalidArgumentError);
    expect(make(cloth, camera, element)).toThrow(/PbdDragControls: objects must be an array.*got/);
    expect(make([cloth], null, element)).toThrow(/PbdDragControls: camera must be a three.js Camera \(got null\)/);
    expect(make([cloth], camera, 'canvas')).toThrow(/PbdDragControls: domElement .*\(got "canvas"\)/);
    expect(make([cloth], camera, element, { strenght: { compliance: 1e-3 } }))
      .toThrow(/PbdDragControls: unknown option 'strenght' \(did you mean 'strength'\?\)/);
    expect(make([cloth], camera, element, { strength: { complience: 1e-3 } }))   // at once, not at the first grab
      .toThrow(/PbdDragControls: unknown option 'strength.complience' \(did you mean 'compliance'\?\)/);
  });
});
