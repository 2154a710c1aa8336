// Character cloth: World.addSkinnedConstraints / setSkinnedTargets from JS, and pbd-wasm/three's PbdSkinnedCloth on a
// three.js SkinnedMesh built here (a cape skinned to a torso bone that sways and turns). The cloth keeps within each
// vertex's maximum distance of where the animation puts it and in front of the backstop under the skin; vertices of
// weight 0 are the skinned mesh to the bit; bad input names the function, the argument and the value.
import * as THREE from 'three';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';
import { PbdSkinnedCloth, skinnedClothFromMesh } from '../../../web/lib/three.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

const COLUMNS = 9, ROWS = 10, WIDTH = 0.5, HEIGHT = 0.6, TOP = 1.5;

/** A cape (front faces towards −z, away from the body at z > 0) skinned to a torso bone, with a clothWeight attribute
 * from 0 at the shoulders to 1 at the hem. */
function skinnedCape() {
  const geometry = new THREE.PlaneGeometry(WIDTH, HEIGHT, COLUMNS - 1, ROWS - 1);
  geometry.rotateY(Math.PI);
  geometry.translate(0, TOP - HEIGHT / 2, -0.1);
  const count = geometry.attributes.position.count;
  const skinIndex = new Uint16Array(4 * count), skinWeight = new Float32Array(4 * count);
  for (let v = 0; v < count; v++) skinIndex[4 * v] = 1, skinWeight[4 * v] = 1;
  geometry.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(skinIndex, 4));
  geometry.setAttribute('skinWeight', new THREE.Float32BufferAttribute(skinWeight, 4));
  const weights = Float32Array.from({ length: count }, (_, v) => (TOP - geometry.attributes.position.getY(v)) / HEIGHT);
  geometry.setAttribute('clothWeight', new THREE.Float32BufferAttribute(weights.map((w) => Math.min(1, Math.max(0, w))), 1));
  const root = new THREE.Bone(), torso = new THREE.Bone();
  torso.position.set(0, 1, 0);
  root.add(torso);
  const mesh = new THREE.SkinnedMesh(geometry, new THREE.MeshBasicMaterial());
  mesh.add(root);
  mesh.bind(new THREE.Skeleton([root, torso]));
  return { mesh, root, torso };
}

/** The character at time t: swaying back and forth (z) and turning, brisk as a run. */
function animate({ mesh, root, torso }, t) {
  root.position.set(0.1 * Math.sin(2 * t), 0, 0.3 * Math.sin(3 * t));
  torso.rotation.y = 0.8 * Math.sin(2 * t);
  mesh.updateMatrixWorld(true);
}

const skinned = (mesh, v) => mesh.getVertexPosition(v, new THREE.Vector3()).applyMatrix4(mesh.matrixWorld);
const particle = (world, i) => new THREE.Vector3().fromArray(world.positions(), 3 * i);

describe('PbdSkinnedCloth', () => {
  it('keeps every vertex within its maximum distance and in front of the backstop, shoulders on the skin', () => {
    const world = new pbd.World();
    world.setSubsteps(4);
    const character = skinnedCape();
    animate(character, 0);
    const maxDistance = 0.08;
    const cape = new PbdSkinnedCloth(world, character.mesh, { maxDistance, weights: 'clothWeight', mass: 0.3 });
    expect(world.skinnedConstraintCount()).toBe(COLUMNS * ROWS);
    expect(cape.body.firstSkinned).toBe(0);
    const weight = character.mesh.geometry.attributes.clothWeight;
    let atLimit = 0, atBackstop = 0, worstDistance = -1, worstBackstop = -1;
    for (let f = 1; f <= 90; f++) {
      animate(character, f / 60);
      cape.updateSkin();
      world.step(1 / 60);
      cape.update();
      const outward = new THREE.Vector3(0, 0, -1).applyQuaternion(character.torso.getWorldQuaternion(new THREE.Quaternion()));
      for (let v = 0; v < COLUMNS * ROWS; v++) {
        const s = skinned(character.mesh, v), x = particle(world, cape.body.renderToParticle[v]);
        if (weight.getX(v) === 0) {
          for (const a of ['x', 'y', 'z']) expect(x[a]).toBe(Math.fround(s[a]));   // the skin, to the bit
          continue;
        }
        const distance = x.distanceTo(s) - maxDistance * weight.getX(v);
        const behind = -0.01 - x.clone().sub(s).dot(outward);
        worstDistance = Math.max(worstDistance, distance), worstBackstop = Math.max(worstBackstop, behind);
        if (distance > -1e-4) atLimit++;
        if (behind > -1e-4) atBackstop++;
      }
    }
    expect(worstDistance).toBeLessThan(2e-6);
    expect(worstBackstop).toBeLessThan(2e-6);
    expect(atLimit).toBeGreaterThan(50);      // the limits bind: the test can fail
    expect(atBackstop).toBeGreaterThan(50);
    cape.dispose({ removeBody: true });
    expect(world.skinnedConstraintCount()).toBe(0);
    world.delete();
  });

  it('follows the record when an earlier body with skinned constraints is removed', () => {
    const world = new pbd.World();
    const rope = world.addRope({ segments: 4, start: [2, 1, 0], end: [3, 1, 0] });
    world.addSkinnedConstraints({ particles: [rope.firstParticle + 2, rope.firstParticle + 3], maxDistance: 0.1 });
    const character = skinnedCape();
    animate(character, 0);
    const cape = skinnedClothFromMesh(world, character.mesh, { maxDistance: 0 });
    expect(cape.body.firstSkinned).toBe(2);
    const removal = world.removeBody(rope);
    expect(Array.from(removal.skinnedRuns)).toEqual([0, 2]);
    expect(cape.body.firstSkinned).toBe(0);
    animate(character, 0.5);
    cape.updateSkin();
    world.step(1 / 60);
    const s = skinned(character.mesh, 0);
    expect(particle(world, cape.body.renderToParticle[0]).x).toBe(Math.fround(s.x));   // renumbered with the body
    cape.dispose();
    world.delete();
  });

  it('refuses what is not a skinned mesh, and bad weights, adding nothing', () => {
    const world = new pbd.World();
    expect(() => new PbdSkinnedCloth(world, new THREE.Mesh(new THREE.PlaneGeometry())))
      .toThrow(/PbdSkinnedCloth: skinnedMesh must be a three.js SkinnedMesh/);
    const { mesh } = skinnedCape();
    expect(() => new PbdSkinnedCloth(world, mesh, { weights: 'nope' })).toThrow(/weights names no attribute.*'nope'/);
    expect(() => new PbdSkinnedCloth(world, mesh, { weights: [1, 2] })).toThrow(/weights must be .* one number per vertex/);
    const over = new Float32Array(COLUMNS * ROWS).fill(0.5);
    over[7] = 1.5;
    expect(() => new PbdSkinnedCloth(world, mesh, { weights: over })).toThrow(/weights\[7\] must be in \[0, 1\] \(got 1.5\)/);
    expect(() => new PbdSkinnedCloth(world, mesh, { maxDistance: -1 })).toThrow(/addSkinnedConstraints: maxDistance\[0\] must be >= 0 \(got -1\)/);
    expect(() => new PbdSkinnedCloth(world, mesh, { stretchh: {} })).toThrow(/unknown option 'stretchh'/);
    expect(world.particleCount()).toBe(0);
    expect(world.skinnedConstraintCount()).toBe(0);
    world.delete();
  });
});

describe('World.addSkinnedConstraints / setSkinnedTargets', () => {
  it('take one distance for all or one per particle, and hold a particle at its limit', () => {
    const world = new pbd.World();
    world.setGround({ enabled: false });
    const p = world.addParticle([0, 2, 0], 1);
    const q = world.addParticle([1, 2, 0], 1);
    expect(world.addSkinnedConstraints({ particles: [p, q], maxDistance: [0.5, 0.25] })).toBe(0);
    world.setSkinnedTargets(0, [0, 2, 0, 1, 2, 0]);
    for (let f = 0; f < 120; f++) world.step(1 / 60);
    expect(world.positions()[1]).toBeCloseTo(1.5, 5);     // hanging at its 0.5 m
    expect(world.positions()[4]).toBeCloseTo(1.75, 5);
    expect(Math.abs(world.velocities()[1])).toBeLessThan(1e-3);
    expect(world.constraintCount()).toBe(2);
    world.delete();
  });

  it('name the function, the argument and the value, and change nothing', () => {
    const world = new pbd.World();
    world.addParticle([0, 1, 0], 1);
    expect(() => world.addSkinnedConstraints({ particles: [0, 4] }))
      .toThrow(/addSkinnedConstraints: particles\[1\] is out of range \[0, 1\) \(got 4\)/);
    expect(() => world.addSkinnedConstraints({ particles: [0], maxDistance: [1, 2] }))
      .toThrow(/addSkinnedConstraints: maxDistance must be a number or one number per particle \(got 2 for 1/);
    expect(() => world.addSkinnedConstraints({ particles: [0], backstopDistance: -3 }))
      .toThrow(/addSkinnedConstraints: backstopDistance\[0\] must be >= 0 \(or -1: no backstop\) \(got -3\)/);
    expect(() => world.addSkinnedConstraints({ particles: [0], maxDistanse: 1 })).toThrow(/did you mean 'maxDistance'/);
    expect(() => world.addSkinnedConstraints({ particles: [0], maxDistance: NaN }))
      .toThrow(/addSkinnedConstraints: maxDistance\[0\] must be finite/);
    expect(() => world.addSkinnedConstraints({ particles: [0, 0] }))
      .toThrow(/addSkinnedConstraints: particles\[1\] already has a skinned constraint \(got 0\)/);
    expect(world.skinnedConstraintCount()).toBe(0);
    world.addSkinnedConstraints({ particles: [0] });
    expect(() => world.setSkinnedTargets(0, [0, 1])).toThrow(/setSkinnedTargets: positions length must be a multiple of 3/);
    expect(() => world.setSkinnedTargets(1, [0, 1, 2])).toThrow(/setSkinnedTargets: first is out of range \[0, 1\) \(got 1\)/);
    expect(() => world.setSkinnedTargets(0, [0, NaN, 2])).toThrow(/setSkinnedTargets: positions\[1\] must be finite/);
    expect(() => world.setSkinnedTargets(0, [0, 1, 2], [0, 1])).toThrow(/setSkinnedTargets: normals length must be 0 or/);
    world.step(1 / 60);
    expect(world.positions()[1]).toBe(1);   // still on its first skinned place: no target was taken
    world.delete();
  });
});
