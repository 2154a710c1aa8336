// Typed errors: what the bindings throw arrives as a PbdError subclass chosen by where it came from, with the
// binding's message kept and `instanceof Error` still true; errors that are not the package's pass untouched.
import { BoxGeometry, BufferGeometry, Mesh } from 'three';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as pbdWasm from '../../../web/lib/index.js';
import { meshArrays } from '../../../web/lib/three.js';

const { InvalidArgumentError, MeshParseError, PbdError, SnapshotError, createPbd } = pbdWasm;

let pbd;
beforeAll(async () => { pbd = await createPbd({ threads: 2 }); });
afterAll(() => pbd?.terminate());

function thrown(call) {
  try { call(); } catch (error) { return error; }
  throw new Error('no exception');
}

const tet = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];
const surface = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3];

describe('the error classes', () => {
  it('are exported from pbd-wasm, form one hierarchy under Error, and carry their names', () => {
    expect(new InvalidArgumentError('x')).toBeInstanceOf(PbdError);
    expect(new MeshParseError('x')).toBeInstanceOf(InvalidArgumentError);
    expect(new SnapshotError('x')).toBeInstanceOf(InvalidArgumentError);
    expect(new PbdError('x')).toBeInstanceOf(Error);
    for (const Class of [PbdError, InvalidArgumentError, MeshParseError, SnapshotError]) {
      expect(new Class('m').name).toBe(Class.name);
      expect(String(new Class('m'))).toBe(`${Class.name}: m`);
    }
  });
});

describe('errors from the bindings', () => {
  it('a rejected World call is an InvalidArgumentError with the binding\'s message', () => {
    const w = new pbd.World();
    const error = thrown(() => w.step(-1));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toBeInstanceOf(PbdError);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(SnapshotError);
    expect(error.message).toBe('step: dt must be in (0, 1] seconds (got -1)');
    expect(error.name).toBe('InvalidArgumentError');
    w.delete();
  });

  it('so is a module function\'s, an Embedding\'s, and Embind\'s own (argument count, a deleted World)', () => {
    expect(thrown(() => pbd.tetrahedralize(tet, surface.slice(3)))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => pbd.weldVertices(tet, surface, -1))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => new pbd.Embedding(tet, [0, 1, 2], [0.1, 0.1, 0.1]))).toBeInstanceOf(InvalidArgumentError);
    const w = new pbd.World();
    const count = thrown(() => w.step());
    expect(count).toBeInstanceOf(InvalidArgumentError);
    expect(count.message).toBe('function World.step called with 0 arguments, expected 1 args!');
    w.delete();
    expect(thrown(() => w.step(1 / 60))).toBeInstanceOf(InvalidArgumentError);
  });

  it('malformed mesh text is a MeshParseError with its line (0 for the whole text)', () => {
    const obj = thrown(() => pbd.readObj('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n'));
    expect(obj).toBeInstanceOf(MeshParseError);
    expect(obj).toBeInstanceOf(InvalidArgumentError);
    expect(obj.message).toBe('readObj: line 4: face index 9 is out of range [1, 3]');
    expect(obj.line).toBe(4);
    const tetgen = thrown(() => pbd.readTetGen('4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n', '1 4 0\n1 1 2 3 9\n'));
    expect(tetgen).toBeInstanceOf(MeshParseError);
    expect(tetgen.line).toBe(2);
    const empty = thrown(() => pbd.readObj(''));
    expect(empty).toBeInstanceOf(MeshParseError);
    expect(empty.line).toBe(0);
    const notText = thrown(() => pbd.readObj(42));   // not a parse error: the argument is wrong
    expect(notText).toBeInstanceOf(InvalidArgumentError);
    expect(notText).not.toBeInstanceOf(MeshParseError);
    expect(notText.message).toBe("readObj: text must be a string (the file's text)");
  });

  it('a blob loadSnapshot cannot load is a SnapshotError, and the world is unchanged', () => {
    const w = new pbd.World();
    w.addCloth({ columns: 4, rows: 4, spacing: 0.1 });
    const before = w.saveSnapshot();
    for (const bad of [new Uint8Array(8), before.slice(0, 40), 'blob']) {
      const error = thrown(() => w.loadSnapshot(bad));
      expect(error).toBeInstanceOf(SnapshotError);
      expect(error.message).toMatch(/^loadSnapshot: /);
    }
    expect(Array.from(w.saveSnapshot())).toEqual(Array.from(before));
    w.delete();
  });

  it('out of memory is a PbdError but not an InvalidArgumentError (the input was fine)', () => {
    const w = new pbd.World();
    const error = thrown(() => w.addCloth({ columns: 4000, rows: 4000, spacing: 0.001 }));
    expect(error).toBeInstanceOf(PbdError);
    expect(error).not.toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(/^addCloth: out of memory/);
    expect(w.particleCount()).toBe(0);
    w.delete();
  });
});

describe('other errors', () => {
  it('a cancelled tetrahedralize is still an AbortError, and the caller\'s own error comes back as it was', () => {
    const aborted = thrown(() => pbd.tetrahedralize(tet, surface, { resolution: 4, onProgress: () => false }));
    expect(aborted.name).toBe('AbortError');
    expect(aborted).not.toBeInstanceOf(PbdError);
    const mine = new Error('mine');
    expect(thrown(() => pbd.tetrahedralize(tet, surface, { resolution: 4, onProgress: () => { throw mine; } })))
      .toBe(mine);
  });

  it('the JS layer\'s own checks throw InvalidArgumentErrors too (loader, options, three.js helpers)', async () => {
    await expect(createPbd({ threads: 0 })).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => pbd.setThreads(-1))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => pbd.tetrahedralize(tet, surface, 5))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => meshArrays(new Mesh(new BufferGeometry())))).toBeInstanceOf(InvalidArgumentError);
    expect(meshArrays(new Mesh(new BoxGeometry())).triangles.length).toBe(36);
  });
});
