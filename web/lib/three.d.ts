import type { BufferGeometry } from 'three';

/** A triangulated grid whose position attribute is a view of the cloth's particles (no copy). */
export declare function createClothGeometry(positions: Float32Array, range: { firstParticle: number },
  columns: number, rows: number): BufferGeometry;
/** Re-points the geometry at a new positions view (after the world allocated, or a new shared buffer arrived). */
export declare function setGeometryPositions(geometry: BufferGeometry, positions: Float32Array): void;
/** Marks positions changed; recomputes normals and bounds. Call once per rendered frame. */
export declare function refreshGeometry(geometry: BufferGeometry): void;
