// What the gallery's Rapier scenes share: a Rapier world with the gallery's gravity and a floor at y = 0, and coupled
// bodies drawn from their PBD twins (moving colliders whose pose follows the Rapier body after every step).
import RAPIER from '@dimforge/rapier3d-compat';
import { colliderDrawable } from './drawables.js';

/** A Rapier world stepped at the page's 1/60 s, under −9.81 m/s² (the panel's gravity acts on the cloth only). */
export function rapierWorldWithFloor() {
  const rapierWorld = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
  rapierWorld.timestep = 1 / 60;
  const floor = rapierWorld.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(0, -0.5, 0));
  rapierWorld.createCollider(RAPIER.ColliderDesc.cuboid(5, 0.5, 5).setFriction(0.5), floor);
  return rapierWorld;
}

/** A dynamic box body of `mass` kg at `position`, coupled: { body, drawable } (the drawable follows it: followBodies). */
export function coupledBox(world, coupling, half, mass, position, desc = RAPIER.RigidBodyDesc.dynamic()) {
  const rapierWorld = coupling.rapierWorld;
  const body = rapierWorld.createRigidBody(desc.setTranslation(...position));
  rapierWorld.createCollider(RAPIER.ColliderDesc.cuboid(half, half, half).setDensity(mass / (8 * half ** 3))
    .setFriction(0.6), body);
  const [twin] = coupling.addBody(body);
  const def = { shape: 'box', halfExtents: [half, half, half], position: [...position], rotation: [0, 0, 0, 1] };
  return { body, drawable: { ...colliderDrawable(world, twin, def), moving: true } };
}

/** After a step: each drawable's pose as its Rapier body's, for the page. */
export function followBodies(coupled) {
  for (const { body, drawable: { def } } of coupled) {
    const t = body.translation(), r = body.rotation();
    def.position = [t.x, t.y, t.z];
    def.rotation = [r.x, r.y, r.z, r.w];
  }
}

/** The scene's dispose: the twins leave the PBD world (what is left steps alone, as the soak runs it), Rapier's goes. */
export function uncouple(coupling, coupled) {
  for (const { body } of coupled) coupling.removeBody(body);
  coupling.rapierWorld.free();
}
