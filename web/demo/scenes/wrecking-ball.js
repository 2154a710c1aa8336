// A 40 kg Rapier ball on a 2.2 m chain (a spherical joint to a fixed point) swings through a hanging curtain and
// back (pbd-wasm/rapier): the curtain is thrown aside and swings after it, and the ball gives up what the curtain
// takes. The chain is drawn as a thin capsule that follows the ball (it touches the cloth too).
import RAPIER from '@dimforge/rapier3d-compat';
import { coupleRapier } from 'pbd-wasm/rapier';
import { colliderDrawable, gridDrawable } from './drawables.js';
import { followBodies, uncouple } from './rapier-bodies.js';

const COLUMNS = 40, ROWS = 30, SPACING = 0.05, TOP = 2.0;   // a 1.95 × 1.45 m curtain in the plane z = 0
const PIVOT = [0, 3.3, 0], CHAIN = 2.2, RADIUS = 0.25, MASS = 40, START = 1.0;   // m, kg, rad from the vertical

/** The chain's capsule between the pivot and the ball's centre. */
function chainPose([bx, by, bz]) {
  const d = [bx - PIVOT[0], by - PIVOT[1], bz - PIVOT[2]];
  const length = Math.hypot(...d);
  // The rotation taking +y to d / |d|: about y × d, by the angle between them (half-angle form).
  const ux = d[0] / length, uy = d[1] / length, uz = d[2] / length;
  const w = 1 + uy, s = Math.hypot(uz, ux, w) || 1;
  return { position: PIVOT.map((p, a) => p + d[a] / 2), rotation: w > 1e-6 ? [uz / s, 0, -ux / s, w / s] : [1, 0, 0, 0] };
}

export default {
  title: 'A wrecking ball through a curtain',
  hint: 'a 40 kg Rapier ball on a chain swings through the cloth and back; grab the curtain',
  camera: { position: [3.8, 2.2, 1.4], target: [0, 1.4, -0.3] },
  params: { damping: 0.05, substeps: 20 },
  build({ addWorld }) {
    const world = addWorld();
    const curtain = world.addCloth({ columns: COLUMNS, rows: ROWS, spacing: SPACING,
      origin: [-SPACING * (COLUMNS - 1) / 2, TOP, 0], axisU: [1, 0, 0], axisV: [0, -1, 0], mass: 0.8,
      pinned: Array.from({ length: COLUMNS }, (_, c) => c), bendModel: 'dihedral', bend: { compliance: 1e-2 } });
    const rapierWorld = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
    rapierWorld.timestep = 1 / 60;
    const pivot = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(...PIVOT));
    const start = [PIVOT[0], PIVOT[1] - CHAIN * Math.cos(START), PIVOT[2] - CHAIN * Math.sin(START)];
    const ball = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(...start));
    rapierWorld.createCollider(RAPIER.ColliderDesc.ball(RADIUS).setDensity(MASS / (4 / 3 * Math.PI * RADIUS ** 3)), ball);
    rapierWorld.createImpulseJoint(RAPIER.JointData.spherical({ x: 0, y: 0, z: 0 }, { x: 0, y: CHAIN * Math.cos(START),
      z: CHAIN * Math.sin(START) }), pivot, ball, true);
    const coupling = coupleRapier(world, rapierWorld);
    const [twin] = coupling.addBody(ball);
    const ballDef = { shape: 'sphere', radius: RADIUS, position: start, rotation: [0, 0, 0, 1] };
    const chainDef = { shape: 'capsule', radius: 0.015, halfHeight: CHAIN / 2 - RADIUS / 2, thickness: 0.005,
      ...chainPose(start) };
    const chain = world.addCollider(chainDef);
    const coupled = [{ body: ball, drawable: { ...colliderDrawable(world, twin, ballDef), moving: true } }];
    return {
      drawables: [gridDrawable(world, curtain, COLUMNS, ROWS, 'curtain', 'curtain')],
      colliders: [coupled[0].drawable, { ...colliderDrawable(world, chain, chainDef), moving: true }],
      tunable: [{ world, first: curtain.firstConstraint, count: curtain.constraintCount }],
      step() {
        coupling.step();
        followBodies(coupled);
        Object.assign(chainDef, chainPose(ballDef.position));
        world.setColliderPose(chain, chainDef.position, chainDef.rotation);   // swept over the next step
      },
      dispose: () => uncouple(coupling, coupled),
    };
  },
};
