// The contacts of the last step, drawn for debugging: a point where each particle touches the ground or a collider,
// and a short segment along the surface's outward normal. World.contacts() gives 6 floats per contact (point, normal);
// the worker sends them per frame while the panel's toggle is on. The buffers grow by doubling and are reused, so a
// frame costs one copy of the floats and no new GPU buffers while the contact count stays below the capacity.
import * as THREE from 'three';

/** Length of the drawn normals, m. */
const NORMAL_LENGTH = 0.05;

export class ContactsView {
  constructor(scene) {
    this.count = 0;         // contacts drawn now
    this.capacity = 0;      // contacts the buffers hold
    this.points = new THREE.Points(new THREE.BufferGeometry(),
      new THREE.PointsMaterial({ color: 0xffd23f, size: 6, sizeAttenuation: false, depthTest: false }));
    this.normals = new THREE.LineSegments(new THREE.BufferGeometry(),
      new THREE.LineBasicMaterial({ color: 0x4fd1ff, depthTest: false }));
    for (const object of [this.points, this.normals]) {
      object.frustumCulled = false;
      object.renderOrder = 10;   // drawn over the bodies (depthTest off): contacts are often hidden under them
      object.visible = false;
      scene.add(object);
    }
  }

  /** Shows the contacts of each world (an array of Float32Arrays of 6 floats per contact), or hides them (null). */
  update(perWorld) {
    const visible = Array.isArray(perWorld);
    this.points.visible = this.normals.visible = visible;
    this.count = visible ? perWorld.reduce((n, c) => n + c.length / 6, 0) : 0;
    if (!visible) return;
    if (this.count > this.capacity) this.grow(Math.max(this.count, 2 * this.capacity, 256));
    const p = this.points.geometry.attributes.position.array;
    const s = this.normals.geometry.attributes.position.array;
    let k = 0;
    for (const c of perWorld) {
      for (let j = 0; j < c.length; j += 6, k++) {
        for (let a = 0; a < 3; a++) {
          p[3 * k + a] = c[j + a];
          s[6 * k + a] = c[j + a];
          s[6 * k + 3 + a] = c[j + a] + NORMAL_LENGTH * c[j + 3 + a];
        }
      }
    }
    this.points.geometry.setDrawRange(0, this.count);
    this.normals.geometry.setDrawRange(0, 2 * this.count);
    this.points.geometry.attributes.position.needsUpdate = true;
    this.normals.geometry.attributes.position.needsUpdate = true;
  }

  grow(capacity) {
    this.capacity = capacity;
    for (const [object, floats] of [[this.points, 3], [this.normals, 6]]) {
      object.geometry.dispose();
      object.geometry = new THREE.BufferGeometry();
      const attribute = new THREE.BufferAttribute(new Float32Array(floats * capacity), 3);
      attribute.setUsage(THREE.DynamicDrawUsage);
      object.geometry.setAttribute('position', attribute);
    }
  }
}
