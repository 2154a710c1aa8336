// The soak's checks on a running world: no NaN, no rollback, pinned particles exactly still, energy under a bound.
//
// Energy: E = Σ over free particles of m (½|v|² + G (y − y0)), kinetic plus gravitational potential, with y0 the
// ground plane (no particle goes below it) and G = MAX_GRAVITY, the largest gravity magnitude the schedule sets, so
// that E never rises when the schedule changes gravity (falling under g ≤ G gains ½v² = g·h ≤ G·h).
// Bound: E_bound = E(0) + M (G (topY − y0) + ½ v_grab²), M the free mass: what the scene starts with, plus the most
// a grab can put in, namely the whole free mass lifted to the top of the grab's path (topY = the highest particle at
// start + the grab's lift) and moving at the target's top speed. Constraints, contacts, friction and damping only take
// energy out (the elastic energy they store comes out of E too), so E stays below E_bound as long as one grab's
// energy has been shed before the next (the bodies settle between grabs) and the drag is slow next to the bodies'
// wave speeds (0.56 m/s here), so that it cannot pump a resonance. A solver that adds energy breaks the bound within a
// few grabs; a real blow-up breaks it within a few steps.
import { GRAB, GRAB_MAX_SPEED, MAX_GRAVITY } from './schedule.js';
import { GROUND } from './scenes.js';

const MAX_FAILURES = 10;   // a broken world repeats its failure every check: keep the first few

export class Monitor {
  constructor(world) {
    const x = world.positions();
    this.world = world;
    this.free = [];
    this.readFree();
    this.pinned = [];
    const w = world.inverseMasses();
    for (let i = 0; i < w.length; i++) if (w[i] === 0) this.pinned.push(i);
    this.pinnedAt = Float32Array.from(this.pinned.flatMap((i) => [x[3 * i], x[3 * i + 1], x[3 * i + 2]]));
    this.totalMass = this.mass.reduce((a, b) => a + b, 0);
    let top = -Infinity;
    for (let i = 1; i < x.length; i += 3) top = Math.max(top, x[i]);
    this.topY = top + GRAB.LIFT;
    const start = this.energy();
    this.startEnergy = start.energy;
    const grabWork = this.totalMass * (MAX_GRAVITY * (this.topY - GROUND.height) + 0.5 * GRAB_MAX_SPEED ** 2);
    this.bound = start.energy + grabWork;
    this.maxEnergy = start.energy;
    this.maxSpeed = start.maxSpeed;
    this.failures = [];
  }

  /** The free particles and their masses, from the world as it is. `free` is changed in place: the Grabber holds it. */
  readFree() {
    const w = this.world.inverseMasses();
    this.free.length = 0;
    for (let i = 0; i < w.length; i++) if (w[i] > 0) this.free.push(i);
    this.mass = Float64Array.from(this.free, (i) => 1 / w[i]);
  }

  /**
   * After the last step's tears (world.lastTears()): the pins follow their particles (those after a torn body moved
   * up) and a pinned vertex's new copies must stay where it is; the free particles and masses are read again (a split
   * vertex's mass is shared among its copies, whose velocities are its own, so E is the same just before and after).
   */
  followTears(tears) {
    const w = this.world.inverseMasses();
    for (const t of tears) {
      this.pinned = this.pinned.map((i) => (i >= t.firstParticle ? i + t.particleCount : i));
      const at = Array.from(this.pinnedAt);
      t.sourceParticles.forEach((source, k) => {
        const k0 = this.pinned.indexOf(source);
        if (w[t.firstParticle + k] !== 0 || k0 < 0) return;
        this.pinned.push(t.firstParticle + k);
        at.push(...at.slice(3 * k0, 3 * k0 + 3));
      });
      this.pinnedAt = Float32Array.from(at);
    }
    this.readFree();
  }

  /** E (J) and the fastest free particle's speed (m/s) now. NaN in, NaN out: check finiteness first. */
  energy() {
    const x = this.world.positions();
    const v = this.world.velocities();
    let energy = 0, maxSpeed2 = 0;
    for (let k = 0; k < this.free.length; k++) {
      const i = 3 * this.free[k];
      const speed2 = v[i] * v[i] + v[i + 1] * v[i + 1] + v[i + 2] * v[i + 2];
      energy += this.mass[k] * (0.5 * speed2 + MAX_GRAVITY * (x[i + 1] - GROUND.height));
      maxSpeed2 = Math.max(maxSpeed2, speed2);
    }
    return { energy, maxSpeed: Math.sqrt(maxSpeed2) };
  }

  fail(step, kind, message) {
    if (this.failures.length < MAX_FAILURES) this.failures.push({ step, kind, message });
  }

  /** After every step: a rollback means the step blew up and was undone. */
  afterStep(step) {
    const r = this.world.lastStepReport();
    if (r.rolledBack) {
      this.fail(step, 'rollback', `step ${step} was rolled back: ${r.nonFiniteCount} non-finite values, first at ` +
        `particle ${r.particle} of body ${r.body}`);
    }
  }

  /** Every k steps: finite state, pins exactly where they started, energy under the bound. */
  check(step, phase) {
    const x = this.world.positions();
    const v = this.world.velocities();
    for (let i = 0; i < x.length; i++) {
      if (!Number.isFinite(x[i]) || !Number.isFinite(v[i])) {
        this.fail(step, 'nan', `step ${step} (${phase}): particle ${Math.floor(i / 3)} is not finite ` +
          `(x ${x[i]}, v ${v[i]})`);
        return;
      }
    }
    for (let k = 0; k < this.pinned.length; k++) {
      const i = 3 * this.pinned[k];
      for (let c = 0; c < 3; c++) {
        if (x[i + c] !== this.pinnedAt[3 * k + c]) {
          this.fail(step, 'pin', `step ${step} (${phase}): pinned particle ${this.pinned[k]} moved: ` +
            `coordinate ${c} is ${x[i + c]}, was ${this.pinnedAt[3 * k + c]}`);
          return;
        }
      }
    }
    const { energy, maxSpeed } = this.energy();
    this.maxEnergy = Math.max(this.maxEnergy, energy);
    this.maxSpeed = Math.max(this.maxSpeed, maxSpeed);
    if (energy > this.bound) {
      this.fail(step, 'energy', `step ${step} (${phase}): energy ${energy.toFixed(3)} J is above the bound ` +
        `${this.bound.toFixed(3)} J (max speed ${maxSpeed.toFixed(2)} m/s)`);
    }
  }
}
