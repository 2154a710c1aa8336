// What the soak does to a world while it runs: a cycle of parameter phases (each starts from the sane defaults and
// changes a few settings) and periodic grabs (an attachment dragged around like a mouse, then let go).

/** The sane settings every phase starts from (the demo panel's defaults). */
export const DEFAULTS = {
  method: 'xpbd', solver: 'coloured-gauss-seidel', integrator: 'implicit-euler', substeps: 10, iterations: 1,
  damping: 0.1,          // 1/s
  gravity: -9.81,        // m/s², along y
  strength: 'scene',     // 'scene': each range's own compliance/stiffness; 'soft' / 'rigid' below
  threads: null,         // null: the module's thread count at start; 'other': 2 if that is 1, else 1
};

/** Each phase: the defaults with these changes. Gravity stays downward and at most MAX_GRAVITY in magnitude. */
export const PHASES = [
  {},
  { substeps: 20 },
  { substeps: 4 },
  { iterations: 4 },
  { solver: 'gauss-seidel' },
  { solver: 'jacobi' },
  { method: 'pbd' },
  { integrator: 'bdf2' },
  { strength: 'soft' },
  { strength: 'rigid' },
  { gravity: -3 },
  { gravity: -14 },
  { damping: 1 },
  { damping: 0 },
  { threads: 'other' },
  { method: 'pbd', solver: 'jacobi', substeps: 5, iterations: 2, integrator: 'bdf2' },
];

/** The largest gravity magnitude any phase sets, m/s²: the energy's potential uses it (see monitor.js). */
export const MAX_GRAVITY = Math.max(...[DEFAULTS, ...PHASES].map((p) => Math.abs(p.gravity ?? DEFAULTS.gravity)));

const STRENGTHS = { soft: { compliance: 1e-4, stiffness: 0.5 }, rigid: { compliance: 0, stiffness: 1 } };

export const phaseLabel = (phase) => Object.entries(phase).map(([k, v]) => `${k} ${v}`).join(', ') || 'defaults';

/** Sets every setting of `phase` (the defaults where it says nothing) on the world, the module and the ranges. */
export function applyPhase(pbd, world, strengthRanges, phase, startThreads) {
  const p = { ...DEFAULTS, ...phase };
  world.setMethod(p.method);
  world.setSolver(p.solver);
  world.setIntegrator(p.integrator);
  world.setSubsteps(p.substeps);
  world.setIterations(p.iterations);
  world.setLinearDamping(p.damping);
  world.setGravity(0, p.gravity, 0);
  for (const r of strengthRanges) {
    const s = STRENGTHS[p.strength] ?? r;
    world.setDistanceStrength(r.first, r.count, s.compliance, s.stiffness);
  }
  const other = startThreads === 1 ? 2 : 1;
  if (pbd.variant === 'threaded') pbd.setThreads(p.threads === 'other' ? other : startThreads);
}

/**
 * Grab timing and path. Every `period` steps a free particle is attached (rigidly, as the demo's mouse does) at its
 * current position p0; for `hold` steps the target rises by up to LIFT (never above `topY`) over RAMP_S seconds while
 * circling with radius RADIUS once per TURN_S seconds; then the attachment is removed and the body falls and settles.
 */
export const GRAB = { LIFT: 0.3, RADIUS: 0.15, TURN_S: 2, RAMP_S: 1 };

/** The target's top speed, m/s: the circle's plus the rise's, added as vectors at right angles. */
export const GRAB_MAX_SPEED = Math.hypot(2 * Math.PI * GRAB.RADIUS / GRAB.TURN_S, GRAB.LIFT / GRAB.RAMP_S);

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so that every run grabs the same particles. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Grabber {
  /** free: indices of the particles that may be grabbed; topY: the highest target, m; dt: s per step. */
  constructor(world, free, topY, dt, { period, hold, seed = 1 }) {
    Object.assign(this, { world, free, topY, dt, period, hold, next: random(seed), handle: null, p0: null });
  }

  /** Called before step `step` (0-based). */
  update(step) {
    const k = step % this.period;
    if (k === 0) this.#grab();
    if (this.handle === null) return;
    if (k >= this.hold) {
      this.world.removeAttachment(this.handle);
      this.handle = null;
      return;
    }
    this.world.setAttachmentTarget(this.handle, ...this.target((k + 1) * this.dt));
  }

  /** Where the target is t seconds after the grab: continuous from p0, so the grab itself does not jerk. */
  target(t) {
    const [x, y, z] = this.p0;
    const angle = 2 * Math.PI * t / GRAB.TURN_S;
    const rise = GRAB.LIFT * Math.min(1, t / GRAB.RAMP_S);
    return [x + GRAB.RADIUS * (Math.cos(angle) - 1), Math.min(y + rise, Math.max(y, this.topY)),
      z + GRAB.RADIUS * Math.sin(angle)];
  }

  #grab() {
    const particle = this.free[Math.floor(this.next() * this.free.length)];
    const x = this.world.positions();
    this.p0 = [x[3 * particle], x[3 * particle + 1], x[3 * particle + 2]];
    this.handle = this.world.addAttachment(particle, ...this.p0, { compliance: 0, stiffness: 1 });
  }
}
