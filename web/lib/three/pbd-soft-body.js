/**
 * PbdSoftBody: a tet-mesh soft body added to a World, drawn either as the tet mesh's outer surface (zero-copy over
 * the particles) or as an embedded render mesh: any geometry whose vertices follow the tets they lie in (an
 * Embedding, computed in wasm into wasm memory, drawn zero-copy as well).
 */
import { BufferAttribute } from 'three';
import { InvalidArgumentError } from '../errors.js';
import { pbdOf } from '../module-of.js';
import { PbdBodyMesh } from './body-mesh.js';
import { createSoftBodyGeometry, refreshGeometry } from './geometry.js';
import { forgetLeakWatch, watchForLeaks } from './leak-warning.js';

export class PbdSoftBody extends PbdBodyMesh {
  /**
   * @param {object} world a pbd World.
   * @param {import('../index').SoftBodyOptions} options what world.addSoftBody takes.
   * @param {{material?: import('three').Material, renderGeometry?: import('three').BufferGeometry}}
   *   [view] renderGeometry: draw this geometry (same coordinates as options.positions) embedded in the tets instead
   *   of the tet surface (an Embedding of the world's module). The geometry is cloned: its other attributes (normals
   *   are recomputed, uv, colors) and its index are kept.
   */
  constructor(world, options, view = {}) {
    const pbd = view.pbd ?? pbdOf(world);
    if (view.renderGeometry && !pbd?.Embedding) {
      throw new InvalidArgumentError('PbdSoftBody: view.renderGeometry needs a World made by createPbd');
    }
    // The embedding is validated before the body is added, so a bad render mesh leaves the world unchanged.
    const embedding = view.renderGeometry
      ? new pbd.Embedding(options.positions, options.tets, view.renderGeometry.attributes.position.array)
      : null;
    let range;
    try {
      range = world.addSoftBody(options);
    } catch (error) {
      embedding?.delete();
      throw error;
    }
    const geometry = embedding ? view.renderGeometry.clone() : createSoftBodyGeometry(world.positions(), range, options.tets);
    super(world, range, geometry, view.material);
    this.body = range;
    /** The Embedding that moves the render mesh (wasm memory: freed by dispose()), or null. */
    this.embedding = embedding;
    if (embedding) {
      embedding.update(world, range.firstParticle);
      geometry.setAttribute('position', new BufferAttribute(embedding.positions(), 3));
      refreshGeometry(geometry);
      watchForLeaks(this, 'a PbdSoftBody with an embedded render mesh');
    }
  }

  refreshView() {
    if (!this.embedding) return super.refreshView();
    this.embedding.update(this.world, this.range.firstParticle);
    const view = this.embedding.positions();
    if (this.geometry.attributes.position.array.buffer !== view.buffer) {
      this.geometry.setAttribute('position', new BufferAttribute(view, 3));
    }
  }

  dispose(options) {
    if (this.disposed) return;
    super.dispose(options);
    if (this.embedding) {
      this.embedding.delete();
      this.embedding = null;
      forgetLeakWatch(this);
    }
  }
}
