// A soft body bowls over Rapier boxes (pbd-wasm/rapier): a 4 kg jelly cube is thrown at 5 m/s into a tower of ten
// 0.5 kg boxes; its particles' contacts push the boxes' twins, the impulses topple the tower in Rapier, and the boxes
// push back on the cube, which squashes and rebounds. Every 4 s the cube is thrown again from where it started.
import { coupleRapier } from 'pbd-wasm/rapier';
import { tetCube } from '../tet-cube.js';
import { tetDrawable } from './drawables.js';
import { coupledBox, followBodies, rapierWorldWithFloor, uncouple } from './rapier-bodies.js';

const CUBE = 0.3, CUBE_MASS = 4, START = [-0.15, 0.35, 1.6], THROW = [0, 0.5, -5];   // m, kg, m, m/s
const HALF = 0.1, BOX_MASS = 0.5;   // the tower: two columns of five boxes of 0.2 m

export default {
  title: 'A soft body bowling Rapier boxes',
  hint: 'a jelly cube knocks over a tower of rigid boxes (two-way coupling with Rapier); grab the cube and throw it',
  camera: { position: [2.2, 1.4, 2.2], target: [0, 0.5, 0] },
  params: { substeps: 20, iterations: 2 },
  build({ addWorld }) {
    const world = addWorld();
    const cube = tetCube(4, CUBE, START);
    const body = world.addSoftBody({ ...cube, totalMass: CUBE_MASS, edges: { compliance: 1e-4 },
      volume: { compliance: 1e-6 } });
    const rest = Float32Array.from(world.positions().subarray(3 * body.firstParticle,
      3 * (body.firstParticle + body.particleCount)));
    const throwCube = () => {
      for (let i = 0; i < body.particleCount; i++) {
        world.setPosition(body.firstParticle + i, rest.subarray(3 * i, 3 * i + 3));
        world.setVelocity(body.firstParticle + i, THROW);
      }
    };
    throwCube();
    const coupling = coupleRapier(world, rapierWorldWithFloor());
    const tower = Array.from({ length: 10 }, (_, k) => [(k % 2 - 0.5) * 2.02 * HALF, HALF + 2.01 * HALF * Math.floor(k / 2), 0]);
    const boxes = tower.map((position) => coupledBox(world, coupling, HALF, BOX_MASS, position));
    let frame = 0;
    return {
      drawables: [tetDrawable(world, body, cube.tets, 'soft', 'jelly')],
      colliders: boxes.map((b) => b.drawable),
      tunable: [{ world, first: body.firstConstraint, count: body.constraintCount }],
      step() {
        if (++frame % 240 === 0) {   // the tower built again, the cube thrown again
          boxes.forEach(({ body: rigid }, k) => {
            rigid.setTranslation({ x: tower[k][0], y: tower[k][1], z: tower[k][2] }, true);
            rigid.setRotation({ x: 0, y: 0, z: 0, w: 1 }, true);
            rigid.setLinvel({ x: 0, y: 0, z: 0 }, true);
            rigid.setAngvel({ x: 0, y: 0, z: 0 }, true);
          });
          throwCube();
        }
        coupling.step();
        followBodies(boxes);
      },
      dispose: () => uncouple(coupling, boxes),
    };
  },
};
