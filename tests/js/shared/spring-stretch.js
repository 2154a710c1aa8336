// A bob of 2 kg hung from a pin by a spring of compliance α = 1e-3 m/N under the given solver, 4 substeps, no
// ground: its mean stretch over frames 300-600, to compare with the static m g α. Shared by the solver tests.
import { expect } from 'vitest';
export const SPRING = { mass: 2, alpha: 1e-3, g: 9.81 };

export function settledSpringStretch(pbd, solver) {
  const w = new pbd.World();
  try {
    w.setSolver(solver);
    w.setSubsteps(4);
    w.setGround({ enabled: false });
    const pin = w.addParticle(0, 0, 0, 0);
    const bob = w.addParticle(0, -1, 0, 1 / SPRING.mass);
    w.addDistanceConstraint(pin, bob, { compliance: SPRING.alpha });
    let sum = 0, samples = 0;
    for (let f = 0; f < 600; f++) {
      w.step(1 / 60);
      if (f >= 300) { sum += -w.positions()[3 * bob + 1]; samples++; }
    }
    expect(w.getSolver()).toBe(solver);
    return sum / samples - 1;
  } finally {
    w.delete();
  }
}
