// The small world the API-shape tests (option keys, optional arguments, vectors) call methods on.

/**
 * A 4 x 4 cloth hanging from its first row (particles 0-3), stepped once; with `extras`, also attachment 0 on
 * particle 15, sphere collider 0 and a rod of 2 segments (body 1), so that every World method has something to act on.
 */
export function hangingClothWorld(pbd, { extras = false } = {}) {
  const w = new pbd.World();
  w.addCloth({ columns: 4, rows: 4, spacing: 0.1, origin: [0, 1, 0], pinned: [0, 1, 2, 3] });
  if (extras) {
    w.addAttachment(15, 0.3, 0.8, 0.3, { compliance: 1e-3 });
    w.addCollider({ shape: 'sphere', position: [0, -5, 0], radius: 0.5 });
    w.addRod({ points: [0, 2, 0, 0.1, 2, 0, 0.2, 2.05, 0] });
  }
  w.step(1 / 60);
  return w;
}
