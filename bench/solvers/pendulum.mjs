// BDF2 against implicit Euler on a swinging spring pendulum: the energy left after 10 s (issue #4's target: BDF2
// loses less). A 1 kg bob on a spring of 1000 N/m and rest length 1 m from a pin, released horizontally at rest
// length: E0 = 0 with the pin's height as y = 0, so what is printed is the energy lost (J, negative).
import { springPendulumEnergy } from './metrics.mjs';

export const PENDULUM = { mass: 1, stiffness: 1000, length: 1, gravity: 9.81, seconds: 10, substeps: 10, iterations: 1 };

/** Energy (J) after PENDULUM.seconds under `integrator`, sampled every frame; also the lowest energy seen. */
export function pendulumEnergy(pbd, integrator, solver = 'gauss-seidel') {
  const P = PENDULUM;
  const world = new pbd.World();
  world.setGround({ enabled: false });
  world.setGravity(0, -P.gravity, 0);
  world.setSolver(solver);
  world.setIntegrator(integrator);
  world.setSubsteps(P.substeps);
  world.setIterations(P.iterations);
  const pin = world.addParticle(0, 0, 0, 0);
  const bob = world.addParticle(P.length, 0, 0, 1 / P.mass);
  world.addDistanceConstraint(pin, bob, { compliance: 1 / P.stiffness });
  const energy = () => {
    const x = world.positions(), v = world.velocities();
    return springPendulumEnergy([x[3 * bob], x[3 * bob + 1], x[3 * bob + 2]], [v[3 * bob], v[3 * bob + 1], v[3 * bob + 2]],
      P.mass, P.stiffness, P.length, P.gravity);
  };
  const start = energy();
  const frames = Math.round(P.seconds * 60);
  for (let f = 0; f < frames; f++) world.step(1 / 60);
  const end = energy();
  world.delete();
  return { start, end };
}
