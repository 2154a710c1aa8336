/** PbdCloth: a rectangular cloth added to a World, drawn as a three.js Mesh over its particles (zero-copy). */
import { PbdBodyMesh } from './body-mesh.js';
import { createClothGeometry } from './geometry.js';

export class PbdCloth extends PbdBodyMesh {
  /**
   * @param {object} world a pbd World.
   * @param {import('../index').ClothOptions} options what world.addCloth takes.
   * @param {{material?: import('three').Material}} [view]
   */
  constructor(world, options, view = {}) {
    const range = world.addCloth(options);
    super(world, range, createClothGeometry(world.positions(), range, options.columns, options.rows), view.material);
    /** What world.addCloth returned (constraint and dihedral ranges too). */
    this.body = range;
  }
}
