/**
 * Character cloth from a three.js SkinnedMesh: the mesh (a cape, a skirt: cloth geometry skinned to the character's
 * skeleton) becomes a cloth body whose particles keep to where the animation puts them, each within its own maximum
 * distance and never behind a backstop under the skin (World.addSkinnedConstraints). Every frame updateSkin() reads
 * the animated mesh and hands its positions and normals to the world.
 */
import { InvalidArgumentError, describeValue } from '../errors.js';
import { Matrix4, Vector3, Vector4 } from 'three';
import { PbdBodyMesh } from './body-mesh.js';
import { createMeshGeometry, sumTriangleNormals } from './geometry.js';

const vertex = new Vector3();
const weighted = new Vector4();

/**
 * Skinned world positions of a SkinnedMesh's vertices, as getVertexPosition and matrixWorld give them, to the bit:
 * the same operations in the same order, but each bone's matrix formed once per call instead of once per vertex and
 * influence, and each vertex's bind-space position once at all. A mesh with morph targets goes
 * through getVertexPosition.
 */
class Skinning {
  constructor(mesh, vertices) {
    this.mesh = mesh;
    this.vertices = vertices;
    const { geometry } = mesh;
    this.morphed = (geometry.morphAttributes.position?.length ?? 0) > 0;
    const index = geometry.attributes.skinIndex, weight = geometry.attributes.skinWeight;
    this.bind = Array.from(vertices, (v) => new Vector4().fromBufferAttribute(geometry.attributes.position, v)
      .setW(1).applyMatrix4(mesh.bindMatrix));
    this.influences = Array.from(vertices, (v) => [0, 1, 2, 3].map((i) => [index.getComponent(v, i),
      weight.getComponent(v, i)]).filter(([, w]) => w !== 0));
    this.boneMatrices = mesh.skeleton.bones.map(() => new Matrix4());
  }

  /** Writes vertex k's (of `vertices`) skinned world position into out[3k .. 3k + 2]. */
  positions(out) {
    const { mesh, vertices, bind, influences, boneMatrices } = this;
    if (this.morphed) {
      vertices.forEach((v, k) => skinnedVertex(mesh, v, vertex).toArray(out, 3 * k));
      return;
    }
    const { bones, boneInverses } = mesh.skeleton;
    boneMatrices.forEach((m, b) => m.multiplyMatrices(bones[b].matrixWorld, boneInverses[b]));
    for (let k = 0; k < vertices.length; k++) {
      vertex.set(0, 0, 0);
      for (const [b, w] of influences[k]) vertex.addScaledVector(weighted.copy(bind[k]).applyMatrix4(boneMatrices[b]), w);
      vertex.applyMatrix4(mesh.bindMatrixInverse).applyMatrix4(mesh.matrixWorld).toArray(out, 3 * k);
    }
  }
}

/** Render vertex v's skinned position in world space (the skeleton's bones as their matrixWorld has them). */
function skinnedVertex(mesh, v, target) {
  return mesh.getVertexPosition(v, target).applyMatrix4(mesh.matrixWorld);
}

/** Per render vertex, its weight in [0, 1] from `weights` (an attribute name or an array), for function `fn`. */
function vertexWeights(fn, geometry, weights) {
  const count = geometry.attributes.position.count;
  if (weights === undefined) return new Float32Array(count).fill(1);
  let values = weights;
  if (typeof weights === 'string') {
    const attribute = geometry.attributes[weights];
    if (!attribute) throw new InvalidArgumentError(`${fn}: weights names no attribute of the geometry (got '${weights}')`);
    values = Float32Array.from({ length: count }, (_, v) => attribute.getX(v));
  }
  if (values?.length !== count) {
    throw new InvalidArgumentError(`${fn}: weights must be an attribute name or one number per vertex (${count}) ` +
      `(got ${describeValue(weights)})`);
  }
  return Float32Array.from(values, (w, v) => {
    if (!(w >= 0 && w <= 1)) throw new InvalidArgumentError(`${fn}: weights[${v}] must be in [0, 1] (got ${w})`);
    return w;
  });
}

/**
 * A cloth drawn over its particles, skinned to a SkinnedMesh. Build it with the character in its rest or first pose
 * (its current skinned pose becomes the cloth's rest shape); each frame, after the animation (mixer.update) and
 * before world.step: updateSkin(); after the step: update().
 */
export class PbdSkinnedCloth extends PbdBodyMesh {
  /**
   * @param {object} world the pbd World.
   * @param {import('three').SkinnedMesh} skinnedMesh the cloth's geometry, skinned; its triangles' front faces
   *   (counter-clockwise) face away from the body: the backstop is behind them.
   * @param {object} [options] world.addTriangleMesh's options (not positions, triangles), plus: maxDistance (m, how far
   *   a vertex of weight 1 may swing from its skinned place; default 0.1), weights (an attribute name or one number
   *   in [0, 1] per vertex; each vertex's maximum distance is maxDistance × weight; default all 1), backstopDistance
   *   (m, -1 = none; default 0.01), backstopRadius (m, 0 = a plane; default 0).
   * @param {{material?: import('three').Material}} [view]
   */
  constructor(world, skinnedMesh, options = {}, view = {}) {
    const fn = 'PbdSkinnedCloth';
    if (!skinnedMesh?.isSkinnedMesh) {
      throw new InvalidArgumentError(`${fn}: skinnedMesh must be a three.js SkinnedMesh (got ${describeValue(skinnedMesh)})`);
    }
    const { maxDistance = 0.1, weights, backstopDistance = 0.01, backstopRadius = 0, ...meshOptions } = options;
    const geometry = skinnedMesh.geometry;
    const vertexCount = geometry.attributes.position.count;
    const perVertex = vertexWeights(fn, geometry, weights);
    skinnedMesh.updateWorldMatrix(true, true);
    const positions = new Float32Array(3 * vertexCount);
    for (let v = 0; v < vertexCount; v++) skinnedVertex(skinnedMesh, v, vertex).toArray(positions, 3 * v);
    const triangles = geometry.index
      ? Uint32Array.from(geometry.index.array)
      : Uint32Array.from({ length: vertexCount - (vertexCount % 3) }, (_, i) => i);
    const body = world.addTriangleMesh({ ...meshOptions, positions, triangles });
    const first = body.firstParticle;
    // One render vertex stands for each particle (welded ones share a place), and gives it its weight.
    const representative = new Uint32Array(body.particleCount);
    const distances = new Float32Array(body.particleCount);
    for (let v = vertexCount - 1; v >= 0; v--) {
      const p = body.renderToParticle[v] - first;
      representative[p] = v;
      distances[p] = maxDistance * perVertex[v];
    }
    const particles = Uint32Array.from({ length: body.particleCount }, (_, p) => first + p);
    let firstSkinned;
    try {
      firstSkinned = world.addSkinnedConstraints({ particles, maxDistance: distances, backstopDistance, backstopRadius });
    } catch (error) {
      world.removeBody(body);   // nothing half-made stays in the world
      throw error;
    }
    const index = triangles.map((v) => body.renderToParticle[v] - first);
    super(world, body, createMeshGeometry(world.positions(), body, index), view.material);
    this.body = body;
    body.firstSkinned = firstSkinned;   // removeBody keeps it current (body-handles.js), as the other ranges
    this.skinnedMesh = skinnedMesh;
    this.skinning = new Skinning(skinnedMesh, representative);
    this.particleTriangles = index;
    this.targets = new Float32Array(3 * body.particleCount);
    this.normals = new Float32Array(3 * body.particleCount);
    this.updateSkin();
  }

  /**
   * Reads the animated mesh (its bones' world matrices: call after the animation and scene.updateMatrixWorld) and sets
   * the skinned positions and outward normals the cloth keeps to over the next step.
   */
  updateSkin() {
    this.checkAlive('updateSkin');
    this.followRecord('updateSkin');
    const { targets, normals, particleTriangles } = this;
    this.skinning.positions(targets);
    sumTriangleNormals(targets, particleTriangles, normals);   // the world normalizes them
    this.world.setSkinnedTargets(this.record.firstSkinned, targets, normals);
  }
}

/** A PbdSkinnedCloth: `skinnedClothFromMesh(world, skinnedMesh, options, view)`. */
export function skinnedClothFromMesh(world, skinnedMesh, options = {}, view = {}) {
  return new PbdSkinnedCloth(world, skinnedMesh, options, view);
}
