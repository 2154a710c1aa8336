// A flag on a pole that a character walks into and knocks over (pbd-wasm/rapier): the pole is a Rapier body (a 2 m
// steel pole on a base plate, 30 kg), the flag a 0.15 kg cloth whose edge is attached to it (coupling.attach), and
// the character a kinematic Rapier capsule walking through. The pole tips, falls and brings the flag down with it;
// the flag's pull and the character's push both reach the pole. Heavy on purpose: the pull reaches the pole once a
// frame, which a light pole falling fast turns into a feedback (rapier.d.ts, attach).
import RAPIER from '@dimforge/rapier3d-compat';
import { coupleRapier } from 'pbd-wasm/rapier';
import { colliderDrawable, gridDrawable } from './drawables.js';
import { followBodies, rapierWorldWithFloor, uncouple } from './rapier-bodies.js';

const COLUMNS = 12, ROWS = 8, SPACING = 0.06, TOP = 1.95;   // the flag: 0.66 × 0.42 m, its edge on the pole
const POLE = { radius: 0.03, halfHeight: 1.0 }, BASE = [0.12, 0.03];   // m: the base plate's radius, half height
// The character's body (legs left out): a capsule from 0.6 m to 1.8 m, walking along −z past the pole.
const WALKER = { radius: 0.25, halfHeight: 0.35 }, HIPS = 1.2, WALK = 0.8, FROM = 2.5, LANE = 0.05;   // m, m/s

export default {
  title: 'A flag on a pole knocked over',
  hint: 'a character walks into a Rapier pole and knocks it over; the flag hung from it (coupling.attach) goes too',
  camera: { position: [3.0, 1.8, 2.4], target: [0, 0.9, 0] },
  params: { substeps: 20, damping: 0.2 },
  build({ addWorld }) {
    const world = addWorld();
    const flag = world.addCloth({ columns: COLUMNS, rows: ROWS, spacing: SPACING, origin: [0, TOP, 0],
      axisU: [1, 0, 0], axisV: [0, -1, 0], mass: 0.15, bendModel: 'dihedral', bend: { compliance: 1e-2 } });
    const coupling = coupleRapier(world, rapierWorldWithFloor());
    const rapierWorld = coupling.rapierWorld;
    const pole = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(0, 0, 0));
    rapierWorld.createCollider(RAPIER.ColliderDesc.cylinder(BASE[1], BASE[0]).setTranslation(0, BASE[1], 0)
      .setDensity(10 / (Math.PI * BASE[0] ** 2 * 2 * BASE[1])).setFriction(1), pole);
    rapierWorld.createCollider(RAPIER.ColliderDesc.capsule(POLE.halfHeight, POLE.radius)
      .setTranslation(0, 2 * BASE[1] + POLE.halfHeight + POLE.radius, 0).setDensity(20 / (Math.PI * 0.03 ** 2 * 2.06)),
    pole);
    // The flag's edge column hangs from the pole at its own heights.
    for (let r = 0; r < ROWS; r++) coupling.attach(flag.firstParticle + r * COLUMNS, pole, [0, TOP - r * SPACING, 0]);
    const walker = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.kinematicPositionBased()
      .setTranslation(LANE, HIPS, FROM));
    rapierWorld.createCollider(RAPIER.ColliderDesc.capsule(WALKER.halfHeight, WALKER.radius), walker);
    const [walkerTwin] = coupling.addBody(walker);
    // The pole is drawn as a moving capsule: it is not mirrored (the flag only hangs from it), so it has no twin.
    const poleDef = { shape: 'capsule', radius: POLE.radius, halfHeight: POLE.halfHeight + 2 * BASE[1] / 2,
      position: [0, POLE.halfHeight + BASE[1], 0], rotation: [0, 0, 0, 1] };
    const walkerDef = { shape: 'capsule', ...WALKER, position: [LANE, HIPS, FROM],
      rotation: [0, 0, 0, 1] };
    const drawn = [{ body: walker, drawable: { ...colliderDrawable(world, walkerTwin, walkerDef), moving: true } }];
    const poleDrawable = { ...colliderDrawable(world, -1, poleDef), moving: true };
    let frame = 0;
    return {
      drawables: [gridDrawable(world, flag, COLUMNS, ROWS, 'curtain', 'flag')],
      colliders: [drawn[0].drawable, poleDrawable],
      tunable: [{ world, first: flag.firstConstraint, count: flag.constraintCount }],
      step() {
        const z = FROM - WALK * (++frame / 60);
        walker.setNextKinematicTranslation({ x: LANE, y: HIPS, z });
        coupling.step();
        followBodies(drawn);
        const t = pole.translation(), q = pole.rotation();
        const up = [2 * (q.x * q.y - q.w * q.z), 1 - 2 * (q.x * q.x + q.z * q.z), 2 * (q.y * q.z + q.w * q.x)];
        const centre = POLE.halfHeight + BASE[1];
        poleDrawable.def.position = [t.x + centre * up[0], t.y + centre * up[1], t.z + centre * up[2]];
        poleDrawable.def.rotation = [q.x, q.y, q.z, q.w];
      },
      dispose: () => uncouple(coupling, drawn),
    };
  },
};
