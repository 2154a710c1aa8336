// A dropped glTF/GLB file, parsed on the page with three.js' GLTFLoader into what the worker takes: every mesh of the
// scene in world space, merged into one positions + triangles pair.
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

export async function gltfArrays(file) {
  const gltf = await new GLTFLoader().parseAsync(await file.arrayBuffer(), '');
  gltf.scene.updateMatrixWorld(true);
  const positions = [];
  const triangles = [];
  gltf.scene.traverse((object) => {
    if (!object.isMesh) return;
    const geometry = object.geometry.clone().applyMatrix4(object.matrixWorld);
    const base = positions.length / 3;
    positions.push(...geometry.attributes.position.array);
    const count = geometry.attributes.position.count;
    const index = geometry.index ? geometry.index.array : Array.from({ length: count - (count % 3) }, (_, i) => i);
    for (const i of index) triangles.push(base + i);
    geometry.dispose();
  });
  if (!triangles.length) throw new Error(`${file.name}: the glTF file holds no triangle mesh`);
  return { positions: new Float32Array(positions), triangles: new Uint32Array(triangles) };
}
