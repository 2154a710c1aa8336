/**
 * PbdDragControls: three's DragControls for simulated bodies. Pressing on a body attaches its particle nearest to
 * the hit point to the pointer; moving drags it on a plane facing the camera through that point; releasing lets go
 * and throws the particle with the pointer's velocity. Mouse, pen and touch alike (pointer events).
 */
import { EventDispatcher, Plane, Raycaster, Vector2, Vector3 } from 'three';
import { InvalidArgumentError, describeValue } from '../errors.js';
import { checkOptions, unknownOption } from '../options.js';
import { pickParticle } from './picking.js';

/** The pointer's velocity at release is its mean velocity over this last stretch of the drag, ms. */
const THROW_WINDOW_MS = 50;
const OPTION_KEYS = ['strength'];

function fail(argument, rule, value) {
  return new InvalidArgumentError(`PbdDragControls: ${argument} ${rule} (got ${describeValue(value)})`);
}

/** Pointer capture where the element has it; a synthetic event's pointer is not active, and capturing it throws. */
function capturePointer(element, method, pointerId) {
  try {
    element[method]?.(pointerId);
  } catch {
    // no active pointer of that id: nothing to capture
  }
}

export class PbdDragControls extends EventDispatcher {
  /**
   * @param {import('./body-mesh.js').PbdBodyMesh[]} objects the bodies that can be grabbed; read at each press, so
   *   push to and remove from it freely.
   * @param {import('three').Camera} camera
   * @param {HTMLElement} domElement usually renderer.domElement.
   * @param {{strength?: import('../index').Strength}} [options] the attachment's strength; default rigid.
   */
  constructor(objects, camera, domElement, options = {}) {
    super();
    if (!Array.isArray(objects)) throw fail('objects', 'must be an array of body meshes', objects);
    if (!camera?.isCamera) throw fail('camera', 'must be a three.js Camera', camera);
    if (typeof domElement?.addEventListener !== 'function') throw fail('domElement', 'must be a DOM element', domElement);
    for (const key of Object.keys(options ?? {})) {
      if (!OPTION_KEYS.includes(key)) throw unknownOption('PbdDragControls', '', key, OPTION_KEYS);
    }
    this.objects = objects;
    this.camera = camera;
    this.domElement = domElement;
    // Checked now, not at the first grab: a misspelt key names itself here.
    this.strength = { compliance: 0, stiffness: 1, ...checkOptions('PbdDragControls', 'Strength', options?.strength ?? {},
      'strength.') };
    /** False: presses are ignored (a drag in progress goes on until released). */
    this.enabled = true;
    /** While a particle is held: {object, particle, attachment, point}; else null. */
    this.held = null;
    this.raycaster = new Raycaster();
    this.plane = new Plane();
    this.samples = [];   // {t, point} of the drag's last THROW_WINDOW_MS
    this.listeners = {
      pointerdown: (event) => this.press(event),
      pointermove: (event) => this.move(event),
      pointerup: (event) => this.release(event),
      pointercancel: (event) => this.release(event),
    };
    // Capture: runs before an OrbitControls listener on the same element, so a grab can stop the event there.
    for (const [type, listener] of Object.entries(this.listeners)) {
      domElement.addEventListener(type, listener, { capture: type === 'pointerdown' });
    }
    if (domElement.style) domElement.style.touchAction = 'none';   // touch drags the body, not the page
  }

  /** Removes the listeners and lets go of a held particle. */
  dispose() {
    this.release(null);
    for (const [type, listener] of Object.entries(this.listeners)) {
      this.domElement.removeEventListener(type, listener, { capture: type === 'pointerdown' });
    }
  }

  /** Points the raycaster from the camera through the event's position on the element. */
  aim(event) {
    const rect = this.domElement.getBoundingClientRect();
    const ndc = new Vector2((event.clientX - rect.left) / rect.width * 2 - 1,
      1 - (event.clientY - rect.top) / rect.height * 2);
    this.raycaster.setFromCamera(ndc, this.camera);
  }

  press(event) {
    if (!this.enabled || this.held || event.button !== 0) return;
    this.aim(event);
    const live = this.objects.filter((o) => !o.disposed && !o.world.isDeleted());
    const hit = pickParticle(this.raycaster.intersectObjects(live, false)[0]);
    if (!hit) return;
    event.stopImmediatePropagation();   // this press is a grab: the camera controls must not see it
    capturePointer(this.domElement, 'setPointerCapture', event.pointerId);   // moves outside the element still drag
    this.plane.setFromNormalAndCoplanarPoint(this.camera.getWorldDirection(new Vector3()), hit.point);
    const attachment = hit.mesh.world.addAttachment(hit.particle, hit.point, this.strength);
    this.held = { object: hit.mesh, particle: hit.particle, attachment, point: hit.point.clone() };
    this.samples = [{ t: event.timeStamp, point: hit.point.clone() }];
    this.dispatchEvent({ type: 'dragstart', object: hit.mesh, particle: hit.particle, point: this.held.point });
  }

  move(event) {
    if (!this.held) return;
    if (!this.alive()) { this.release(null); return; }   // the body or its world went away mid-drag
    this.aim(event);
    const point = new Vector3();
    if (!this.raycaster.ray.intersectPlane(this.plane, point)) return;
    const { object, particle, attachment } = this.held;
    // Listeners may move the point (keep it above the ground, snap it) before the body is pulled there.
    this.dispatchEvent({ type: 'drag', object, particle, point });
    this.held.point.copy(point);
    object.world.setAttachmentTarget(attachment, point);
    this.samples.push({ t: event.timeStamp, point: point.clone() });
    while (this.samples.length > 2 && this.samples[1].t < event.timeStamp - THROW_WINDOW_MS) this.samples.shift();
  }

  /** Lets go (event null: without throwing). */
  release(event) {
    if (!this.held) return;
    const { object, particle, attachment } = this.held;
    this.held = null;
    const velocity = event ? this.pointerVelocity(event.timeStamp) : new Vector3();
    if (this.alive(object)) {
      object.world.removeAttachment(attachment);
      if (event) object.world.setVelocity(particle, velocity);
    }
    if (event) capturePointer(this.domElement, 'releasePointerCapture', event.pointerId);
    this.dispatchEvent({ type: 'dragend', object, particle, velocity });
  }

  /**
   * The pointer's velocity on the drag plane at time `now` (ms), m/s: its mean over the moves of the last
   * THROW_WINDOW_MS; zero when it did not move in that time (a release, not a throw). A single move in the window
   * counts from the move before it, over at most the window (pointers report moves at least once per frame, so a
   * longer gap was the pointer standing still).
   */
  pointerVelocity(now) {
    const first = this.samples.findIndex((s) => s.t >= now - THROW_WINDOW_MS);
    if (first < 0 || (first === 0 && this.samples.length === 1)) return new Vector3();
    const last = this.samples[this.samples.length - 1];
    const from = first < this.samples.length - 1 ? this.samples[first] : this.samples[first - 1];
    const seconds = Math.min(last.t - from.t, THROW_WINDOW_MS) / 1000;
    return seconds > 0 ? last.point.clone().sub(from.point).divideScalar(seconds) : new Vector3();
  }

  /** Whether the held body (or `object`) can still be acted on: not disposed, its world not deleted. */
  alive(object = this.held?.object) {
    return object !== undefined && !object.disposed && !object.world.isDeleted();
  }
}
