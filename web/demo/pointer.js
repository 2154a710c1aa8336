// The mouse (or touch): grab the particle under the cursor, drag it on a camera-facing plane and throw it on release;
// or, on a draggable collider, move the collider. Ctrl/Cmd-click pins or unpins the particle under the cursor.
// Shift + drag cuts: each move sends the wedge of view rays it swept, and the worker tears the tearable cloth's edges
// that cross it.
import * as THREE from 'three';
import { nearestParticle } from 'pbd-wasm/three';

export class Pointer {
  /**
   * @param {{renderer, camera, controls, call: (name, ...args) => void, bodies: () => THREE.Object3D[],
   *   colliders: () => THREE.Mesh[], particle: (worldIndex, i) => THREE.Vector3,
   *   positions: (worldIndex) => Float32Array}} page
   */
  constructor(page) {
    Object.assign(this, page);
    this.raycaster = new THREE.Raycaster();
    this.raycaster.params.Line.threshold = 0.03;
    this.pointer = new THREE.Vector2();
    this.plane = new THREE.Plane();
    this.hit = new THREE.Vector3();
    this.dragging = null;      // {kind: 'particle'|'collider', ...}
    this.grabbed = undefined;  // {world, particle} of the last grab (for tests)
    const canvas = this.renderer.domElement;
    // capture: runs before OrbitControls' own pointerdown listener on the same element
    canvas.addEventListener('pointerdown', (e) => this.down(e), { capture: true });
    canvas.addEventListener('pointermove', (e) => this.move(e));
    canvas.addEventListener('pointerup', () => this.up());
    canvas.addEventListener('pointercancel', () => this.up());
  }

  aim(event) {
    const rect = this.renderer.domElement.getBoundingClientRect();
    this.pointer.set(((event.clientX - rect.left) / rect.width) * 2 - 1, -((event.clientY - rect.top) / rect.height) * 2 + 1);
    this.raycaster.setFromCamera(this.pointer, this.camera);
  }

  /** The drawable's particle nearest to a point: the whole range is searched (picking happens once per click). */
  nearest(drawable, point) {
    return nearestParticle(this.positions(drawable.worldIndex), drawable, point);
  }

  down(event) {
    if (event.button !== 0) return;
    this.aim(event);
    if (event.shiftKey) {
      this.start(event, this.raycaster.ray.at(1, new THREE.Vector3()), { kind: 'cut',
        from: this.raycaster.ray.direction.toArray() });
      return;
    }
    const collider = this.raycaster.intersectObjects(this.colliders().filter((m) => m.userData.collider.draggable))[0];
    const body = this.raycaster.intersectObjects(this.bodies())[0];
    if (collider && (!body || collider.distance < body.distance)) {
      this.start(event, collider.object.position, { kind: 'collider', mesh: collider.object,
        offset: collider.object.position.clone().sub(collider.point) });
      return;
    }
    if (!body) return;
    const d = body.object.userData.drawable;
    const particle = this.nearest(d, body.point);
    if (event.ctrlKey || event.metaKey) {   // pin / unpin, no drag
      event.stopImmediatePropagation();
      this.call('togglePin', { world: d.worldIndex, index: particle });
      return;
    }
    const p = this.particle(d.worldIndex, particle);
    this.grabbed = { world: d.worldIndex, particle };
    this.start(event, p, { kind: 'particle' });
    this.call('grab', { world: d.worldIndex, index: particle, target: p.toArray() });
  }

  start(event, point, dragging) {
    event.stopImmediatePropagation();   // this drag is ours: OrbitControls must not rotate the camera
    this.plane.setFromNormalAndCoplanarPoint(this.camera.getWorldDirection(new THREE.Vector3()).negate(), point);
    this.dragging = dragging;
    this.controls.enabled = false;
    this.renderer.domElement.setPointerCapture(event.pointerId);
  }

  move(event) {
    if (!this.dragging) return;
    this.aim(event);
    if (this.dragging.kind === 'cut') {
      const to = this.raycaster.ray.direction.toArray();
      this.call('cut', { origin: this.raycaster.ray.origin.toArray(), from: this.dragging.from, to });
      this.dragging.from = to;
      return;
    }
    if (!this.raycaster.ray.intersectPlane(this.plane, this.hit)) return;
    if (this.dragging.kind === 'particle') {
      this.hit.y = Math.max(this.hit.y, 0);
      this.call('drag', this.hit.toArray());
    } else {
      const { mesh, offset } = this.dragging;
      mesh.position.copy(this.hit).add(offset);
      mesh.position.y = Math.max(mesh.position.y, 0);
      this.call('moveCollider', { collider: this.colliders().indexOf(mesh), position: mesh.position.toArray() });
    }
  }

  up() {
    if (!this.dragging) return;
    if (this.dragging.kind === 'particle') this.call('release');
    this.dragging = null;
    this.controls.enabled = true;
  }
}
