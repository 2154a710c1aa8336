// Colliders as stable handles: addCollider returns a number that names its collider until removeCollider, whatever
// is removed before it. The C++ World numbers colliders as an array does (removing one moves the later ones down);
// before any removal the handles are those indices 0, 1, ..., and after one this layer maps each handle to its
// collider's index. Handles are not reused. loadSnapshot starts the numbering again from the loaded colliders.
import { InvalidArgumentError, describeValue as describe } from './errors.js';

const tables = new WeakMap();   // world → { ids: the handle of each collider by index, next: the next handle }

function table(world) {
  let t = tables.get(world);
  if (!t) {
    const count = world.colliderCount();
    t = { ids: Array.from({ length: count }, (_, k) => k), next: count };
    tables.set(world, t);
  }
  return t;
}

/** The index of the collider `handle` names; a non-number goes to the binding as it is, which says what is wrong. */
function indexOf(world, fn, handle) {
  if (typeof handle !== 'number') return handle;
  const { ids } = table(world);
  const index = ids[handle] === handle ? handle : ids.indexOf(handle);   // equal until a removal: no search
  if (index < 0) {
    throw new InvalidArgumentError(`${fn}: collider is out of range: ${describe(handle)} names no collider of this ` +
      `world (${ids.length > 0 ? `its handles: ${ids.join(', ')}` : 'it has none'})`);
  }
  return index;
}

/** Puts the handles between World.prototype's collider methods and their bindings. */
export function addColliderHandles(World) {
  const proto = World.prototype;
  const { addCollider, removeCollider, loadSnapshot } = proto;
  proto.addCollider = function addColliderHandle(options) {
    const t = table(this);
    addCollider.call(this, options);
    t.ids.push(t.next);
    return t.next++;
  };
  proto.removeCollider = function removeColliderHandle(collider) {
    const index = indexOf(this, 'removeCollider', collider);
    removeCollider.call(this, index);
    table(this).ids.splice(index, 1);
  };
  for (const name of ['setColliderPose', 'setColliderMeshVertices', 'colliderImpulse', 'setColliderBody',
    'colliderBody']) {
    const method = proto[name];
    proto[name] = function colliderMethod(collider, ...args) {
      return method.call(this, indexOf(this, name, collider), ...args);
    };
  }
  const { attachToCollider } = proto;
  proto.attachToCollider = function attachToColliderHandle(particle, collider, ...args) {
    return attachToCollider.call(this, particle, indexOf(this, 'attachToCollider', collider), ...args);
  };
  proto.loadSnapshot = function loadSnapshotHandles(...args) {
    loadSnapshot.apply(this, args);
    tables.delete(this);
  };
}
