/**
 * PbdBodyMesh: a three.js Mesh that draws one body of a World straight from the simulation's memory.
 *
 * Its vertices are simulation coordinates, so the mesh itself is never transformed (matrixAutoUpdate is off; do not
 * move, rotate or scale it, move the body instead). update() once per rendered frame, after world.step().
 */
import { BufferAttribute, DoubleSide, Mesh, MeshStandardMaterial, Vector3 } from 'three';
import { refreshGeometry, setGeometryPositions } from './geometry.js';
import { nearestParticle } from './nearest-particle.js';
import { InvalidArgumentError } from '../errors.js';

export class PbdBodyMesh extends Mesh {
  /**
   * @param {object} world the pbd World the body lives in.
   * @param {{firstParticle: number, particleCount: number, body?: number}} range the body's particles: the record an
   *   add-body call returned follows world.removeBody (body-handles.js), and so does the mesh.
   * @param {import('three').BufferGeometry} geometry its position attribute is a view of the world's positions.
   * @param {import('three').Material} [material] default: a double-sided standard material.
   */
  constructor(world, range, geometry, material) {
    super(geometry, material ?? new MeshStandardMaterial({ color: 0x8fb3d9, side: DoubleSide, roughness: 0.8 }));
    this.ownsMaterial = material === undefined;
    this.world = world;
    this.range = { firstParticle: range.firstParticle, particleCount: range.particleCount };
    this.record = range;   // the live record: where the body is after removals of others
    this.matrixAutoUpdate = false;
    this.disposed = false;
  }

  /** Call once per rendered frame: follows the particles (zero-copy), recomputes normals and bounds. */
  update() {
    this.checkAlive('update');
    this.followRecord('update');
    this.refreshView();
    refreshGeometry(this.geometry);
  }

  /**
   * Re-points the position attribute when the world's arrays moved (a body was added, or the wasm memory grew):
   * views are cheap to fetch, so this checks every frame instead of asking the caller to remember.
   */
  refreshView() {
    const view = this.world.positions();
    const current = this.geometry.attributes.position.array;
    if (current.buffer !== view.buffer || current.byteOffset !== view.byteOffset + 12 * this.range.firstParticle) {
      setGeometryPositions(this.geometry, view);
    }
  }

  /** The body's particle nearest to `point` (simulation coordinates), or -1 for an empty body. */
  nearestParticle(point) {
    this.checkAlive('nearestParticle');
    this.followRecord('nearestParticle');
    return nearestParticle(this.world.positions(), this.range, point);
  }

  /** The position of particle `i` as a Vector3 (a copy). */
  particlePosition(i, target = new Vector3()) {
    const xyz = this.world.positions();
    return target.set(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
  }

  /**
   * Frees the geometry (and the material if the mesh made it). The body stays in the world unless `removeBody`:
   * then world.removeBody removes it (it must be a body's record, see the constructor). Subclasses holding wasm
   * memory free it here too.
   */
  dispose({ removeBody = false } = {}) {
    if (this.disposed) return;
    if (removeBody && !this.record.removed) {
      if (!Number.isInteger(this.record.body)) {
        throw new InvalidArgumentError(`${this.constructor.name}.dispose: removeBody needs the body's record (its range ` +
          'has no body index)');
      }
      this.world.removeBody(this.record);
    }
    this.disposed = true;
    this.geometry.dispose();
    if (this.ownsMaterial) this.material.dispose();
    this.removeFromParent();
  }

  /**
   * Takes the body's place from its record, which world.removeBody moves down when a body before it goes and a tear
   * moves up (and grows, for the torn body itself: then the triangles follow).
   */
  followRecord(fn) {
    if (this.record.removed) {
      throw new InvalidArgumentError(`${this.constructor.name}.${fn}: its body was removed from the world`);
    }
    const { firstParticle, particleCount } = this.record;
    const torn = this.record.tornFrom !== undefined && particleCount !== this.range.particleCount;
    if (firstParticle === this.range.firstParticle && !torn) return;
    this.range.firstParticle = firstParticle;
    if (this.geometry.userData.pbdRange) this.geometry.userData.pbdRange.firstParticle = firstParticle;
    if (torn) this.followTear();
  }

  /** The torn body's triangles and particles: a new index, UVs copied to the new particles, positions re-pointed. */
  followTear() {
    const { firstParticle, particleCount, tornFrom } = this.record;
    const grown = particleCount - this.range.particleCount;
    this.range.particleCount = particleCount;
    this.geometry.userData.pbdRange.particleCount = particleCount;
    const triangles = this.world.bodyTriangles(this.record);
    this.geometry.setIndex(new BufferAttribute(Uint32Array.from(triangles, (v) => v - firstParticle), 1));
    const uv = this.geometry.attributes.uv;
    if (uv) {
      const grownUv = new Float32Array(uv.itemSize * particleCount);
      grownUv.set(uv.array.subarray(0, uv.itemSize * (particleCount - grown)));
      for (let k = tornFrom.length - grown; k < tornFrom.length; k++) {
        const to = particleCount - tornFrom.length + k;
        for (let c = 0; c < uv.itemSize; c++) grownUv[uv.itemSize * to + c] = grownUv[uv.itemSize * tornFrom[k] + c];
      }
      this.geometry.setAttribute('uv', new BufferAttribute(grownUv, uv.itemSize));
    }
    setGeometryPositions(this.geometry, this.world.positions());
  }

  checkAlive(fn) {
    if (this.disposed) throw new InvalidArgumentError(`${this.constructor.name}.${fn}: the object was disposed`);
  }
}
