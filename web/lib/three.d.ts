import type { BufferGeometry } from 'three';

/** A triangulated grid whose position attribute is a view of the cloth's particles (no copy). */
export declare function createClothGeometry(positions: Float32Array, range: { firstParticle: number },
  columns: number, rows: number): BufferGeometry;
/** The outer surface of a tet mesh (faces no two tets share, wound outwards) over a soft body's particles. */
export declare function createSoftBodyGeometry(positions: Float32Array,
  range: { firstParticle: number; particleCount: number }, tets: ArrayLike<number>): BufferGeometry;
/** A geometry over particles [range.firstParticle, + range.particleCount) with these triangle indices. */
export declare function createMeshGeometry(positions: Float32Array,
  range: { firstParticle: number; particleCount: number }, indices: Uint32Array): BufferGeometry;
/** Re-points the geometry at a new positions view (after the world allocated, or a new shared buffer arrived). */
export declare function setGeometryPositions(geometry: BufferGeometry, positions: Float32Array): void;
/** Marks positions changed; recomputes normals and bounds. Call once per rendered frame. */
export declare function refreshGeometry(geometry: BufferGeometry): void;
