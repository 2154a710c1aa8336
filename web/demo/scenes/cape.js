// Character cloth: a cape on a character that runs in circles, turning and bobbing (World.addSkinnedConstraints).
// The character is two kinematic colliders (a torso capsule and a head sphere) moved every frame; the cape's rest
// grid rides on the torso as its skin. The shoulders follow the skin exactly, each row below may swing 4 cm further
// (the hem 0.76 m), and nothing passes behind the backstop 2 cm under the skin, so the cape trails, flaps and
// drapes over the shoulders without folding into the body.
import { colliderDrawable, gridDrawable } from './drawables.js';

const COLUMNS = 16, ROWS = 20, SPACING = 0.04;       // a 0.6 × 0.76 m cape
const SHOULDER = 1.45, TORSO = 1.1;              // m: the cape's top row, and the torso's centre, above the ground
const BEHIND = -0.2;                              // m: the cape hangs this far behind the torso's axis (−z, local)
const REACH_PER_ROW = 0.04, BACKSTOP = 0.02;      // m

/** The torso's pose at time t (s): running a 1.2 m circle at about 2 m/s, bobbing with the stride, leaning in. */
function torsoPose(t) {
  const angle = 1.6 * t;
  const position = [1.2 * Math.cos(angle), TORSO + 0.04 * Math.abs(Math.sin(8 * t)), -1.2 * Math.sin(angle)];
  const yaw = angle + Math.PI + 0.2 * Math.sin(4 * t), lean = 0.25;   // facing along the circle, leaning forward
  // q = yaw about y, then lean about the body's x.
  const cy = Math.cos(yaw / 2), sy = Math.sin(yaw / 2), cx = Math.cos(lean / 2), sx = Math.sin(lean / 2);
  return { position, rotation: [cy * sx, sy * cx, -sy * sx, cy * cx] };
}

/** Rotates local vector v by unit quaternion q = [x, y, z, w] (v + 2w (u × v) + 2 u × (u × v)). */
function rotate([x, y, z, w], [vx, vy, vz]) {
  const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
  return [vx + w * tx + (y * tz - z * ty), vy + w * ty + (z * tx - x * tz), vz + w * tz + (x * ty - y * tx)];
}

export default {
  title: 'A cape on a running character',
  hint: 'character cloth: skinned constraints keep the cape on the runner, free to swing below the shoulders',
  camera: { position: [0, 2.4, 4.4], target: [0, 1, 0] },
  // Where the runner and the cape go over a lap (the 1.2 m circle, the cape's reach): the shadow camera covers it all.
  shadowExtent: [[-1.8, 0, -1.8], [1.8, 2.2, 1.8]],
  build({ addWorld }) {
    const world = addWorld();
    world.setSubsteps(8);
    const pose = torsoPose(0);
    const torso = { shape: 'capsule', position: pose.position, rotation: pose.rotation, radius: 0.17, halfHeight: 0.25,
      thickness: 0.01 };
    const head = { shape: 'sphere', position: [0, 0, 0], radius: 0.12, thickness: 0.01 };
    const colliders = [torso, head].map((def) => ({ ...colliderDrawable(world, world.addCollider(def), def), moving: true }));
    // The cape's rest grid in the torso's frame, row by row from the shoulders down, built where the torso is.
    const corner = [SPACING * (COLUMNS - 1) / 2, SHOULDER - TORSO, BEHIND];
    const rest = Array.from({ length: ROWS * COLUMNS }, (_, k) =>
      [corner[0] - SPACING * (k % COLUMNS), corner[1] - SPACING * Math.floor(k / COLUMNS), corner[2]]);
    const skinAt = ({ position, rotation }) => rest.map((p) => rotate(rotation, p).map((v, a) => v + position[a]));
    const cape = world.addCloth({ columns: COLUMNS, rows: ROWS, spacing: SPACING, origin: skinAt(pose)[0],
      axisU: rotate(pose.rotation, [-1, 0, 0]), axisV: rotate(pose.rotation, [0, -1, 0]), mass: 0.4,
      bendModel: 'dihedral', bend: { compliance: 1e-2, stiffness: 0.2 } });
    const particles = Uint32Array.from(rest, (_, k) => cape.firstParticle + k);
    const first = world.addSkinnedConstraints({ particles, backstopDistance: BACKSTOP,
      maxDistance: Float32Array.from(rest, (_, k) => REACH_PER_ROW * Math.floor(k / COLUMNS)) });
    const targets = new Float32Array(3 * rest.length), normals = new Float32Array(3 * rest.length);
    function moveCharacter(t) {
      const now = torsoPose(t);
      Object.assign(torso, now);
      world.setColliderPose(colliders[0].index, now.position, now.rotation);
      head.position = rotate(now.rotation, [0, 0.55, 0]).map((v, a) => v + now.position[a]);
      head.rotation = now.rotation;
      world.setColliderPose(colliders[1].index, head.position, head.rotation);
      const outward = rotate(now.rotation, [0, 0, -1]);
      skinAt(now).forEach((p, k) => { targets.set(p, 3 * k); normals.set(outward, 3 * k); });
      world.setSkinnedTargets(first, targets, normals);
    }
    moveCharacter(0);
    return {
      drawables: [gridDrawable(world, cape, COLUMNS, ROWS, 'curtain', 'cape')],
      colliders,
      tunable: [{ world, first: cape.firstConstraint, count: cape.constraintCount }],
      onFrame: (t) => moveCharacter(t + 1 / 60),   // where the character is at the end of the coming step
    };
  },
};
