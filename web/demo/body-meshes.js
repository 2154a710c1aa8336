// The page's three.js objects for a gallery scene: one mesh (or line set) per drawable, over the positions of its
// world (a view of the shared wasm memory, or the last transferred copy), and one mesh per collider.
import * as THREE from 'three';
import { createClothGeometry, createMeshGeometry, refreshGeometry, setGeometryPositions } from 'pbd-wasm/three';
import { shadowed } from './shadows.js';

const STYLES = {
  cloth: { color: 0xd9603b, side: THREE.DoubleSide, roughness: 0.8 },
  cloth2: { color: 0xc84c7a, side: THREE.DoubleSide, roughness: 0.8 },
  curtain: { color: 0x3b6fd9, side: THREE.DoubleSide, roughness: 0.9 },
  soft: { color: 0x4fb58a, roughness: 0.6, flatShading: true },
  bunny: { color: 0xe8d9b0, roughness: 0.7 },
  balloon: { color: 0xe0475b, roughness: 0.35 },
  balloon2: { color: 0x3fa7e0, roughness: 0.35 },
  balloon3: { color: 0xe0c23f, roughness: 0.35 },
  rope: { color: 0xf2e6c9 },
  rope2: { color: 0xf0a35e },
  rope3: { color: 0x9ad17b },
  chain: { color: 0xb8c4d0 },
};
const FABRIC_STYLES = new Set(['cloth', 'cloth2', 'curtain']);
const colliderMaterial = new THREE.MeshStandardMaterial({ color: 0x8fa3b8, roughness: 0.5 });

let weave = null;
/**
 * A plain-weave fabric: over-under threads, light across the thread and darker in the gaps, as a tiling texture that
 * tints the material's colour and, as a bump map, catches the light. Made once, on a canvas.
 */
function weaveTexture() {
  if (weave) return weave;
  const size = 64, threads = 8, cell = size / threads;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = size;
  const g = canvas.getContext('2d');
  g.fillStyle = '#b4b4b4';
  g.fillRect(0, 0, size, size);
  for (let i = 0; i < threads; i++) {
    for (let j = 0; j < threads; j++) {
      const warpOnTop = (i + j) % 2 === 0;   // the warp (vertical) thread passes over the weft here
      const shade = g.createLinearGradient(i * cell, j * cell, warpOnTop ? (i + 1) * cell : i * cell,
        warpOnTop ? j * cell : (j + 1) * cell);
      shade.addColorStop(0, '#dedede');
      shade.addColorStop(0.5, '#ffffff');
      shade.addColorStop(1, '#dedede');
      g.fillStyle = shade;
      g.fillRect(i * cell + 0.5, j * cell + 0.5, cell - 1, cell - 1);
    }
  }
  weave = new THREE.CanvasTexture(canvas);
  weave.wrapS = weave.wrapT = THREE.RepeatWrapping;
  weave.colorSpace = THREE.SRGBColorSpace;
  weave.anisotropy = 4;
  return weave;
}

/** A grid cloth's material: its style's colour woven, one 8-thread repeat every 6 cells of the grid. */
function fabricMaterial(style, grid) {
  const map = weaveTexture().clone();
  map.repeat.set(grid.columns / 6, grid.rows / 6);
  map.needsUpdate = true;
  return new THREE.MeshStandardMaterial({ ...style, map, bumpMap: map, bumpScale: 0.4 });
}
const draggableMaterial = new THREE.MeshStandardMaterial({ color: 0x9fd3c7, roughness: 0.4 });

/** A drawable's geometry over `view`: the grid (with UVs), its triangles, or its segments. */
function geometryOf(d, view) {
  // An embedded render mesh is drawn from its own vertices; other drawables from their particles.
  const range = d.embedding !== undefined ? { firstParticle: 0, particleCount: d.vertexCount }
    : { firstParticle: d.firstParticle, particleCount: d.particleCount };
  if (d.grid && !d.tornFrom) return createClothGeometry(view, range, d.grid.columns, d.grid.rows);
  const geometry = createMeshGeometry(view, range, d.triangles ?? d.segments);
  if (d.grid) geometry.setAttribute('uv', new THREE.BufferAttribute(tornGridUvs(d), 2));
  return geometry;
}

/** A torn grid cloth's UVs: the grid's, then each particle the tears added with the UV of the one it split from. */
function tornGridUvs({ grid: { columns, rows }, particleCount, tornFrom }) {
  const uv = new Float32Array(2 * particleCount);
  for (let i = 0; i < columns * rows; i++) uv.set([(i % columns) / (columns - 1), Math.floor(i / columns) / (rows - 1)], 2 * i);
  tornFrom.forEach((source, k) => uv.copyWithin(2 * (columns * rows + k), 2 * source, 2 * source + 2));
  return uv;
}

export function createBodyMesh(d, view) {
  const geometry = geometryOf(d, view);
  const style = STYLES[d.style] ?? STYLES.cloth;
  const object = d.segments
    ? new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ color: style.color }))
    : new THREE.Mesh(geometry, d.grid && FABRIC_STYLES.has(d.style) ? fabricMaterial(style, d.grid)
      : new THREE.MeshStandardMaterial(style));
  object.userData.drawable = d;
  object.frustumCulled = false;   // bounds change every frame
  return shadowed(object);
}

export function repointBodyMesh(object, view) { setGeometryPositions(object.geometry, view); }

export function refreshBodyMesh(object) {
  if (object.isLineSegments) object.geometry.attributes.position.needsUpdate = true;
  else refreshGeometry(object.geometry);
}

/** A collider's mesh, drawn slightly smaller than its collision thickness so bodies visibly rest on it. */
export function createColliderMesh(c) {
  const { def } = c;
  const material = c.draggable ? draggableMaterial : colliderMaterial;
  let geometry;
  if (def.shape === 'sphere') geometry = new THREE.SphereGeometry(def.radius, 48, 24);
  else if (def.shape === 'box') geometry = new THREE.BoxGeometry(...def.halfExtents.map((h) => 2 * h));
  else if (def.shape === 'capsule') geometry = new THREE.CapsuleGeometry(def.radius, 2 * def.halfHeight, 12, 32);
  else {
    geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(Float32Array.from(def.positions), 3));
    geometry.setIndex(new THREE.BufferAttribute(Uint32Array.from(def.indices), 1));
    geometry.computeVertexNormals();
  }
  const mesh = new THREE.Mesh(geometry, material);
  mesh.position.fromArray(def.position ?? [0, 0, 0]);
  if (def.rotation) mesh.quaternion.fromArray(def.rotation);
  mesh.userData.collider = c;
  return shadowed(mesh);
}
