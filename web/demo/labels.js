// Labels where the bodies hang: in a scene of several worlds side by side (the solver comparison), a label above
// each world's bodies names its solver and settings (lane-settings.js, from the worker). They are HTML over the
// canvas (three's CSS2DRenderer): sharp on a page drawn at half its pixel ratio, where text in a texture would blur,
// and a few style writes a frame.
import { CSS2DObject, CSS2DRenderer } from 'three/addons/renderers/CSS2DRenderer.js';
import { Group, Vector3 } from 'three';

const LIFT = 0.08;       // m between a body's highest particle and the bottom of its label
const WIDTH = 140;       // CSS px, a label's width: its longest name or settings line, in index.html's font
const GAP = 6;           // CSS px kept between labels side by side; closer, they show their names only
const SETTLE = 30;       // frames in a row the labels must be (or not be) crowded before they change
const onScreen = new Vector3();

export class LaneLabels {
  /** @param container the element the labels' layer goes in, over the canvas. */
  constructor(container) {
    this.renderer = new CSS2DRenderer();
    this.renderer.domElement.className = 'lane-labels';
    container.appendChild(this.renderer.domElement);
    this.group = new Group();   // drawn by the CSS renderer only, not part of the WebGL scene
    this.labels = [];           // {object, world, ranges: [[first, count]], title, lines}
    this.compact = false;       // names only (crowded)
    this.unsettled = 0;         // frames in a row that crowded() has disagreed with `compact`
  }

  setSize(width, height) { this.renderer.setSize(width, height); }

  /** A new scene (its description from the worker): a label per world that has a lane, over its drawables. */
  use(desc) {
    for (const { object } of this.labels) this.group.remove(object);   // CSS2DObject drops its element on removal
    this.labels = [];
    (desc.lanes ?? []).forEach((lane, world) => {
      if (!lane) return;
      const ranges = desc.drawables.filter((d) => d.worldIndex === world && d.embedding === undefined)
        .map((d) => [d.firstParticle, d.particleCount]);
      if (!ranges.length) return;
      const element = document.createElement('div');
      element.className = 'lane-label';
      element.style.width = `${WIDTH}px`;
      const title = element.appendChild(document.createElement('b'));
      const lines = element.appendChild(document.createElement('span'));
      const object = new CSS2DObject(element);
      object.center.set(0.5, 1);   // the label's bottom middle at the anchor
      object.visible = false;      // until its world's positions arrive
      this.group.add(object);
      this.labels.push({ object, world, ranges, title, lines });
    });
    this.setLanes(desc.lanes ?? []);
  }

  /** New texts (the worker sends them again when the settings change). */
  setLanes(lanes) {
    for (const label of this.labels) {
      const lane = lanes[label.world];
      if (!lane) continue;
      label.title.textContent = lane.name;
      label.lines.textContent = lane.settings.join('\n');
    }
  }

  /** Whether the labels are too close side by side for their settings (a narrow window, a far camera). */
  crowded(camera) {
    const { width } = this.renderer.getSize();
    const xs = this.labels.filter((l) => l.object.visible)
      .map((l) => (onScreen.copy(l.object.position).project(camera).x + 1) / 2 * width).sort((a, b) => a - b);
    return xs.some((x, k) => k > 0 && x - xs[k - 1] < WIDTH + GAP);
  }

  /**
   * Per frame: each label LIFT above its bodies' highest particle (a hanging cloth's pins: the label does not swing
   * to and fro with the cloth), over the middle of their extent across, then drawn.
   * @param positions (world) => that world's positions (xyz per particle), or undefined before they arrived.
   */
  render(camera, positions) {
    for (const { object, world, ranges } of this.labels) {
      const x = positions(world);
      object.visible = !!x;
      if (!x) continue;
      let xLo = Infinity, xHi = -Infinity, top = -Infinity, zTop = 0;
      for (const [first, count] of ranges) {
        for (let i = 3 * first; i < 3 * (first + count); i += 3) {
          xLo = Math.min(xLo, x[i]);
          xHi = Math.max(xHi, x[i]);
          if (x[i + 1] > top) {
            top = x[i + 1];
            zTop = x[i + 2];
          }
        }
      }
      object.position.set((xLo + xHi) / 2, top + LIFT, zTop);
    }
    // Crowded labels show their names only; not at once, so that a body's first bounce or swing, or an orbit
    // about the threshold, does not make them flicker.
    this.unsettled = this.crowded(camera) === this.compact ? 0 : this.unsettled + 1;
    if (this.unsettled >= SETTLE) this.renderer.domElement.classList.toggle('compact', this.compact = !this.compact);
    this.renderer.render(this.group, camera);
  }

  /** For the tests: each label's text, and where it is on the page (CSS pixels) if shown. */
  get shown() {
    return this.labels.map(({ object, title, lines }) => {
      const rect = object.element.getBoundingClientRect();
      const visible = object.visible && object.element.style.display !== 'none';
      return { name: title.textContent, settings: lines.textContent.split('\n'), visible, compact: this.compact,
        rect: { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom },
        anchor: object.position.toArray() };
    });
  }
}
