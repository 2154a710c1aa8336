// The demo's .pbdsnap file: the snapshots of every world of a gallery scene, with the scene's name, so that a file
// is only loaded into the scene it was saved from. Layout (little-endian): "PBDS" | u32 name length | name (UTF-8) |
// u32 world count | per world: u32 length, World.saveSnapshot() bytes (each checked by the library on load).

const MAGIC = 'PBDS';

/** Packs a scene name and its worlds' snapshots into one Uint8Array. */
export function packSnapshots(scene, blobs) {
  const name = new TextEncoder().encode(scene);
  const size = 4 + 4 + name.length + 4 + blobs.reduce((n, b) => n + 4 + b.length, 0);
  const out = new Uint8Array(size);
  const data = new DataView(out.buffer);
  let at = 0;
  out.set(new TextEncoder().encode(MAGIC), at);
  data.setUint32(at += 4, name.length, true);
  out.set(name, at += 4);
  data.setUint32(at += name.length, blobs.length, true);
  at += 4;
  for (const blob of blobs) {
    data.setUint32(at, blob.length, true);
    out.set(blob, at += 4);
    at += blob.length;
  }
  return out;
}

/** The inverse of packSnapshots; throws an Error naming the problem for anything else. */
export function unpackSnapshots(bytes) {
  const fail = (why) => { throw new Error(`loadSnapshot: not a pbd-wasm demo snapshot (${why})`); };
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const u32 = () => {
    if (at + 4 > bytes.length) fail('truncated');
    const v = data.getUint32(at, true);
    at += 4;
    return v;
  };
  const take = (n) => {
    if (n > bytes.length - at) fail('truncated');
    at += n;
    return bytes.subarray(at - n, at);
  };
  if (new TextDecoder().decode(take(4)) !== MAGIC) fail('bad magic');
  const scene = new TextDecoder().decode(take(u32()));
  const count = u32();
  const blobs = [];
  for (let k = 0; k < count; k++) blobs.push(take(u32()));
  if (at !== bytes.length) fail(`${bytes.length - at} trailing bytes`);
  return { scene, blobs };
}
