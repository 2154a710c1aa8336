// Every bad input through the JS API gives an Error whose message names the function and argument, and the world
// is exactly as before: same particle bits, counts and settings.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPbd } from '../../../web/lib/index.js';

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

function snapshot(w) {
  return {
    positions: Array.from(w.positions()),
    velocities: Array.from(w.velocities()),
    inverseMasses: Array.from(w.inverseMasses()),
    counts: [w.particleCount(), w.constraintCount()],
    settings: [w.getGravity(), w.getMethod(), w.getSubsteps(), w.getIterations(), w.getLinearDamping(),
      w.getRigidDamping(), w.getGround()],
  };
}

const cloth = (extra) => ({ columns: 4, rows: 4, spacing: 0.1, ...extra });

const cases = [
  ['step(0)', (w) => w.step(0), /step: dt/],
  ['step(-1)', (w) => w.step(-1), /step: dt/],
  ['step(NaN)', (w) => w.step(NaN), /step: dt must be finite/],
  ['step(Infinity)', (w) => w.step(Infinity), /step: dt/],
  ['setGravity NaN', (w) => w.setGravity(0, NaN, 0), /setGravity: gravity\.y/],
  ['setMethod', (w) => w.setMethod('verlet'), /setMethod: method/],
  ['setSubsteps 0', (w) => w.setSubsteps(0), /setSubsteps: substeps/],
  ['setSubsteps 1.5', (w) => w.setSubsteps(1.5), /setSubsteps: substeps must be an integer/],
  ['setIterations -1', (w) => w.setIterations(-1), /setIterations: iterations/],
  ['setLinearDamping -1', (w) => w.setLinearDamping(-1), /setLinearDamping: linearDamping/],
  ['setRigidDamping 2', (w) => w.setRigidDamping(2), /setRigidDamping: rigidDamping/],
  ['setGround friction', (w) => w.setGround({ friction: -1 }), /setGround: ground\.friction/],
  ['setGround string', (w) => w.setGround({ height: 'low' }), /setGround: height must be a number/],
  ['addParticle NaN', (w) => w.addParticle(NaN, 0, 0, 1), /addParticle: position\.x/],
  ['addParticle mass', (w) => w.addParticle(0, 0, 0, -1), /addParticle: inverseMass/],
  ['addParticles NaN', (w) => w.addParticles([0, 0, 0, 1, NaN, 0], [1, 1]), /addParticles: positions\[4\]/],
  ['addParticles length', (w) => w.addParticles([0, 0], undefined), /addParticles: positions length/],
  ['addParticles empty', (w) => w.addParticles([], undefined), /addParticles: count/],
  ['addParticles masses', (w) => w.addParticles([0, 0, 0], [1, 2]), /addParticles: inverseMasses length/],
  ['addParticles not array', (w) => w.addParticles(5, undefined), /addParticles: positions must be an array/],
  ['setInverseMass range', (w) => w.setInverseMass(1e6, 1), /setInverseMass: particle is out of range/],
  ['setInverseMass -1 index', (w) => w.setInverseMass(-1, 1), /setInverseMass: particle must be a non-negative integer/],
  ['setInverseMass Inf', (w) => w.setInverseMass(0, Infinity), /setInverseMass: inverseMass/],
  ['setVelocity NaN', (w) => w.setVelocity(3, 0, 0, NaN), /setVelocity: velocity\.z/],
  ['setPosition range', (w) => w.setPosition(99, 0, 0, 0), /setPosition: particle/],
  ['setExternalForce Inf', (w) => w.setExternalForce(2, Infinity, 0, 0), /setExternalForce: force\.x/],
  ['distance j range', (w) => w.addDistanceConstraint(0, 999, undefined), /addDistanceConstraint: j is out of range/],
  ['distance i == j', (w) => w.addDistanceConstraint(2, 2, undefined), /addDistanceConstraint: j must differ/],
  ['distance compliance', (w) => w.addDistanceConstraint(0, 1, { compliance: -1 }), /addDistanceConstraint: compliance/],
  ['distance stiffness', (w) => w.addDistanceConstraint(0, 1, { stiffness: 1.5 }), /addDistanceConstraint: stiffness/],
  ['distance restLength', (w) => w.addDistanceConstraint(0, 1, { restLength: NaN }), /addDistanceConstraint: minLength/],
  ['setDistanceStrength range', (w) => w.setDistanceStrength(0, 1e6, 0, 1), /setDistanceStrength: first\+count/],
  ['setDistanceStrength stiffness', (w) => w.setDistanceStrength(0, 1, 0, -0.5), /setDistanceStrength: stiffness/],
  ['attachment particle', (w) => w.addAttachment(1e4, 0, 0, 0, undefined), /addAttachment: particle/],
  ['attachment target', (w) => w.addAttachment(1, 0, NaN, 0, undefined), /addAttachment: target\.y/],
  ['attachment handle', (w) => w.setAttachmentTarget(55, 0, 0, 0), /setAttachmentTarget: attachment/],
  ['removeAttachment', (w) => w.removeAttachment(55), /removeAttachment: attachment/],
  ['addCloth columns', (w) => w.addCloth(cloth({ columns: 1 })), /addCloth: columns/],
  ['addCloth columns missing', (w) => w.addCloth({ rows: 3 }), /addCloth: columns must be an integer/],
  ['addCloth spacing', (w) => w.addCloth(cloth({ spacing: 0 })), /addCloth: spacing/],
  ['addCloth origin', (w) => w.addCloth(cloth({ origin: [0, Infinity, 0] })), /addCloth: origin\.y/],
  ['addCloth origin length', (w) => w.addCloth(cloth({ origin: [0, 0] })), /addCloth: origin must be an array of 3/],
  ['addCloth axes', (w) => w.addCloth(cloth({ axisU: [1, 0, 0], axisV: [2, 0, 0] })), /addCloth: axisV/],
  ['addCloth mass', (w) => w.addCloth(cloth({ mass: 0 })), /addCloth: mass/],
  ['addCloth pinned', (w) => w.addCloth(cloth({ pinned: [0, 16] })), /addCloth: pinned\[1\]/],
  ['addCloth stretch', (w) => w.addCloth(cloth({ stretch: { compliance: -1 } })), /addCloth: stretch\.compliance/],
  ['addCloth absurd', (w) => w.addCloth(cloth({ columns: 1e5, rows: 1e5 })), /addCloth: columns\*rows/],
  ['addCloth not object', (w) => w.addCloth(7), /addCloth: options must be an object/],
  ['addRope segments', (w) => w.addRope({ segments: 0 }), /addRope: segments/],
  ['addRope end', (w) => w.addRope({ segments: 2, start: [1, 1, 1], end: [1, 1, 1] }), /addRope: end/],
];

it.each(cases)('%s throws a named Error and leaves the world unchanged', (_, call, message) => {
  const w = new pbd.World();
  w.addCloth({ columns: 4, rows: 4, spacing: 0.1, origin: [0, 1, 0], pinned: [0] });
  w.addAttachment(5, 0.1, 1, 0.1, { compliance: 0.001 });
  w.step(1 / 60);
  const before = snapshot(w);
  let error;
  try { call(w); } catch (e) { error = e; }
  expect(error).toBeInstanceOf(Error);
  expect(error.message).toMatch(message);
  expect(snapshot(w)).toEqual(before);
  w.step(1 / 60);                                  // and the world still works
  expect(w.positions().every(Number.isFinite)).toBe(true);
  w.delete();
});

it('an out-of-memory request is an Error, and the module stays usable', () => {
  const w = new pbd.World();
  // 4000 x 4000 particles is under the size limit but does not fit in the 1 GB threaded heap.
  expect(() => w.addCloth({ columns: 4000, rows: 4000, spacing: 0.001 })).toThrow(/addCloth: out of memory/);
  expect(w.particleCount()).toBe(0);
  w.addCloth({ columns: 8, rows: 8, spacing: 0.1 });
  w.step(1 / 60);
  expect(w.particleCount()).toBe(64);
  w.delete();
});
