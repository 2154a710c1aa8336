// Tearing: a ball dropped on a drum of cloth stretches it past its strain and rips through; beside it a curtain
// hangs from a rail and tears where it is pulled too hard. Each is a cloth with `tearing: { strain }`: an edge
// stretched past (1 + strain) times its rest length at the end of a step tears, and vertices split where the
// surface comes apart (mass and momentum kept). Shift + drag cuts either cloth.
import { colliderDrawable, gridDrawable } from './drawables.js';

const DRUM = { n: 32, width: 1.2, height: 0.8, x: -0.9, strain: 0.5 };
const CURTAIN = { columns: 36, rows: 30, width: 1.4, top: 1.9, x: 0.3, strain: 0.3 };
const BALL = { radius: 0.15, drop: 1.6 };   // m: its radius, and how high above the drum it is let go

export default {
  title: 'Tearing: a ball through a drum, a curtain to rip',
  hint: 'pull the curtain hard to tear it; Shift + drag across a cloth to cut it',
  camera: { position: [0.7, 2.3, 3.3], target: [0.5, 0.9, 0] },   // left of the panel
  params: { substeps: 10 },
  build({ addWorld }) {
    const world = addWorld();
    const { n, width, height, x } = DRUM;
    const border = [];
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (r % (n - 1) === 0 || c % (n - 1) === 0) border.push(r * n + c);
    const drum = world.addCloth({ columns: n, rows: n, spacing: width / (n - 1), origin: [x - width / 2, height, -width / 2],
      pinned: border, mass: 0.4, tearing: { strain: DRUM.strain } });
    const { columns, rows } = CURTAIN;
    const curtain = world.addCloth({ columns, rows, spacing: CURTAIN.width / (columns - 1), origin: [CURTAIN.x, CURTAIN.top, 0],
      axisV: [0, -1, 0], pinned: Array.from({ length: columns }, (_, c) => c), mass: 0.5, bendModel: 'dihedral',
      bend: { compliance: 1e-2 }, tearing: { strain: CURTAIN.strain } });
    const ballDef = { shape: 'sphere', radius: BALL.radius, position: [x + 0.05, height + BALL.drop, 0.02],
      rotation: [0, 0, 0, 1] };
    const ball = world.addCollider(ballDef);
    /** The ball's height t s into a drop: free fall from the drop height, resting on the ground once there. */
    const fall = (t) => Math.max(BALL.radius, height + BALL.drop - 4.905 * t * t);
    return {
      drawables: [{ ...gridDrawable(world, drum, n, n, 'cloth', 'drum'), tearable: true },
        { ...gridDrawable(world, curtain, columns, rows, 'curtain', 'curtain'), tearable: true }],
      colliders: [{ ...colliderDrawable(world, ball, ballDef), moving: true }],
      // The panel's stiffness acts on the curtain's edges wherever its tears (and the drum's) put them.
      tunable: [{ world, get first() { return curtain.firstConstraint; }, get count() { return curtain.constraintCount; } }],
      onFrame(t) {
        ballDef.position[1] = fall(t + 1 / 60);
        world.setColliderPose(ball, ballDef.position, ballDef.rotation);
      },
    };
  },
};
